// A variation's barcodes (domain/barcodes.ts): GS1 check digits, and the form field staff fill in.
import { describe, expect, it } from "vitest";
import { BARCODE_MESSAGES, barcodeField, barcodeProblem } from "../../../domain/barcodes";

describe("barcodeProblem", () => {
  it.each([
    ["036000291452", null], // UPC-A
    ["4006381333931", null], // EAN-13
    ["73513537", null], // EAN-8
    ["10012345678902", null], // GTIN-14
    ["036000291453", BARCODE_MESSAGES.checkDigit("036000291453", 2)],
    ["4006381333932", BARCODE_MESSAGES.checkDigit("4006381333932", 1)],
    ["12345", BARCODE_MESSAGES.digits],
    ["03600029145A", BARCODE_MESSAGES.digits],
    ["0036000291452", null], // a UPC-A written as EAN-13
  ])("%s -> %s", (code, problem) => {
    expect(barcodeProblem(code)).toBe(problem);
  });
});

describe("barcodeField", () => {
  it("blank is none; spaces and dashes are dropped; a wrong check digit is refused with the digit it should be", () => {
    expect(barcodeField.parse("")).toBeNull();
    expect(barcodeField.parse(undefined)).toBeNull();
    expect(barcodeField.parse(" 0 36000-29145 2 ")).toBe("036000291452");
    const bad = barcodeField.safeParse("036000291453");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe(BARCODE_MESSAGES.checkDigit("036000291453", 2));
  });
});

import { parseWithZod } from "@conform-to/zod";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  barcodeTakenMessage,
  checkBarcode,
  gtin14,
  gtinCheckDigit,
  MAX_BARCODES,
  parseBarcodes,
} from "../../../domain/barcodes";
import { VariationEditSchema } from "../../../domain/resources";

describe("checkBarcode (UPC-A, EAN-13, EAN-8 with their check digit)", () => {
  it.each([
    ["036000291452", "UPC-A"],
    ["012345678905", "UPC-A"],
    ["4006381333931", "EAN-13"],
    ["5901234123457", "EAN-13"],
    ["96385074", "EAN-8"],
    ["73513537", "EAN-8"],
    [" 036000291452 ", "UPC-A"],
  ])("%s is a valid %s", (code, kind) => {
    expect(checkBarcode(code)).toEqual({ ok: true, code: code.trim(), kind });
  });

  it.each([
    [
      "036000291453",
      "036000291453 is not a valid UPC-A: its last digit (the check digit) should be 2.",
    ],
    [
      "4006381333932",
      "4006381333932 is not a valid EAN-13: its last digit (the check digit) should be 1.",
    ],
    ["96385075", "96385075 is not a valid EAN-8: its last digit (the check digit) should be 4."],
    ["12345", '"12345" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.'],
    [
      "03600029145",
      '"03600029145" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.',
    ],
    [
      "ABCDEFGHIJKL",
      '"ABCDEFGHIJKL" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.',
    ],
    [
      "0360-0029145",
      '"0360-0029145" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.',
    ],
    ["", '"" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.'],
  ])("%s is refused, naming the code", (code, message) => {
    expect(checkBarcode(code)).toEqual({ ok: false, message });
  });

  const body = (n: number) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });
  const anyBody = fc.oneof(body(7), body(11), body(12)).map((d) => d.join(""));

  it("a computed check digit always validates", () => {
    fc.assert(
      fc.property(anyBody, (b) => {
        expect(checkBarcode(`${b}${gtinCheckDigit(b)}`).ok).toBe(true);
      }),
    );
  });

  it("any change of a single digit is refused", () => {
    fc.assert(
      fc.property(anyBody, fc.nat(), fc.integer({ min: 1, max: 9 }), (b, at, delta) => {
        const code = `${b}${gtinCheckDigit(b)}`;
        const i = at % code.length;
        const changed = `${code.slice(0, i)}${(Number(code[i]) + delta) % 10}${code.slice(i + 1)}`;
        expect(checkBarcode(changed).ok).toBe(false);
      }),
    );
  });
});

describe("parseBarcodes (a field or a spreadsheet cell)", () => {
  it.each([
    ["", []],
    ["  ", []],
    ["036000291452", ["036000291452"]],
    ["036000291452, 4006381333931", ["036000291452", "4006381333931"]],
    [
      "036000291452;96385074|4006381333931\n5901234123457",
      ["036000291452", "96385074", "4006381333931", "5901234123457"],
    ],
    // The same barcode twice, and a UPC-A with its EAN-13 spelling: kept once.
    ["036000291452 036000291452 0036000291452", ["036000291452"]],
  ])("%j reads as %j", (text, codes) => {
    expect(parseBarcodes(text)).toEqual({ ok: true, codes });
  });

  it("every bad code is named", () => {
    expect(parseBarcodes("036000291452 036000291453 12")).toEqual({
      ok: false,
      messages: [
        "036000291453 is not a valid UPC-A: its last digit (the check digit) should be 2.",
        '"12" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.',
      ],
    });
  });

  it(`at most ${MAX_BARCODES}`, () => {
    const many = Array.from({ length: MAX_BARCODES + 1 }, (_, i) => {
      const b = String(10_000_000_000 + i);
      return `${b}${gtinCheckDigit(b)}`;
    });
    expect(parseBarcodes(many.join(" "))).toEqual({
      ok: false,
      messages: [`At most ${MAX_BARCODES} barcodes.`],
    });
    expect(parseBarcodes(many.slice(1).join(" ")).ok).toBe(true);
  });

  it("gtin14 and the taken message", () => {
    expect(gtin14("036000291452")).toBe(gtin14("0036000291452"));
    expect(gtin14("96385074")).toBe("00000096385074");
    expect(
      barcodeTakenMessage("036000291452", { variationId: 7, sku: "CF-610-NV", color: "Navy" }),
    ).toBe("The barcode 036000291452 is already used by variation #7 (CF-610-NV, Navy).");
  });
});

describe("the variation editor's barcodes field (parsed as the form posts it)", () => {
  const post = (fields: Record<string, string>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({ sku: "CF-610-NV", price: "12.50", ...fields }))
      fd.set(k, v);
    return parseWithZod(fd, { schema: VariationEditSchema });
  };

  it.each([
    [{}, []],
    [{ barcodes: "" }, []],
    [{ barcodes: "  " }, []],
    [{ barcodes: "036000291452, 96385074" }, ["036000291452", "96385074"]],
  ])("%j saves the barcodes %j", (fields, codes) => {
    const s = post(fields);
    expect(s.status).toBe("success");
    if (s.status === "success") expect(s.value.barcodes).toEqual(codes);
  });

  it("a bad code is refused under the field, named", () => {
    expect(post({ barcodes: "036000291453" }).reply().error).toEqual({
      barcodes: [
        "036000291453 is not a valid UPC-A: its last digit (the check digit) should be 2.",
      ],
    });
  });
});

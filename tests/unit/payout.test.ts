import { describe, expect, test } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import {
  isValidAbaRoutingNumber,
  lastFour,
  parseUsDate,
  PAYOUT_MESSAGES as M,
  payoutDetailsSchema,
  payoutProfileFromDetails,
  taxIdDigits,
  type PayoutDetailsInput,
} from "../../domain/payout";
import { idempotencyKey, payoutSetupWorkflowId } from "../../workflows/payout/contract";
import { validPayoutForm } from "../factories/payout";

const valid: PayoutDetailsInput = validPayoutForm;

/** The messages for one field when `field` is set to `value` (undefined = left out). */
function errorsFor(field: keyof PayoutDetailsInput, value: unknown): string[] {
  const input: Record<string, unknown> = { ...valid, [field]: value };
  if (value === undefined) delete input[field];
  const r = payoutDetailsSchema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.filter((i) => i.path[0] === field).map((i) => i.message);
}

function firstError(field: keyof PayoutDetailsInput, value: unknown): string | undefined {
  return errorsFor(field, value)[0];
}

describe("payout form schema", () => {
  test("accepts a complete, valid form and normalises it", () => {
    const r = payoutDetailsSchema.parse({
      ...valid,
      region: "me",
      busregion: "me",
      bustax_id: "123456789",
      buspostal_code: undefined,
    });
    expect(r.region).toBe("ME");
    expect(r.busregion).toBe("ME");
    expect(r.bustax_id).toBe("12-3456789");
    expect(r.buspostal_code).toBe("");
    expect(r.tos_accepted).toBe(true);
  });

  test("trims text", () => {
    const r = payoutDetailsSchema.parse({
      ...valid,
      first_name: "  Jane ",
      locality: " Portland ",
    });
    expect(r.first_name).toBe("Jane");
    expect(r.locality).toBe("Portland");
  });

  test("first name: required, letters only", () => {
    expect(firstError("first_name", undefined)).toBe(M.firstNameRequired);
    expect(firstError("first_name", "   ")).toBe(M.firstNameRequired);
    expect(firstError("first_name", "Jane2")).toBe(M.firstNameAlphabetic);
    expect(firstError("first_name", "Mary Ann")).toBe(M.firstNameAlphabetic);
    expect(firstError("first_name", "José")).toBeUndefined();
    expect(firstError("first_name", "A".repeat(101))).toBe(M.tooLong("First name", 100));
  });

  test("last name: required, letters and spaces", () => {
    expect(firstError("last_name", undefined)).toBe(M.lastNameRequired);
    expect(firstError("last_name", "Van Der Berg")).toBeUndefined();
    expect(firstError("last_name", "O'Neil")).toBe(M.lastNameAlphabetic);
    expect(firstError("last_name", "Smith3")).toBe(M.lastNameAlphabetic);
  });

  test("email: required, valid", () => {
    expect(firstError("email", undefined)).toBe(M.emailRequired);
    expect(firstError("email", "not-an-email")).toBe(M.emailInvalid);
    expect(firstError("email", "a@b.co")).toBeUndefined();
  });

  test("date of birth: required, MM/DD/YYYY, a real date, in the past", () => {
    expect(firstError("date_of_birth", undefined)).toBe(M.dobRequired);
    expect(firstError("date_of_birth", "1980-04-15")).toBe(M.dobFormat);
    expect(firstError("date_of_birth", "4/15/1980")).toBe(M.dobFormat);
    expect(firstError("date_of_birth", "02/30/1980")).toBe(M.dobNotARealDate);
    expect(firstError("date_of_birth", "13/01/1980")).toBe(M.dobNotARealDate);
    expect(firstError("date_of_birth", "02/29/1981")).toBe(M.dobNotARealDate);
    expect(firstError("date_of_birth", "02/29/1980")).toBeUndefined();
    expect(firstError("date_of_birth", "01/01/1899")).toBe(M.dobTooOld);
    const next = new Date(Date.now() + 2 * 86_400_000);
    const mmddyyyy = `${String(next.getUTCMonth() + 1).padStart(2, "0")}/${String(next.getUTCDate()).padStart(2, "0")}/${next.getUTCFullYear()}`;
    expect(firstError("date_of_birth", mmddyyyy)).toBe(M.dobNotInPast);
    expect(firstError("date_of_birth", "01/01/2999")).toBe(M.dobNotInPast);
  });

  test("street address, city and legal business name are required", () => {
    expect(firstError("street_address", undefined)).toBe(M.streetAddressRequired);
    expect(firstError("locality", "")).toBe(M.localityRequired);
    expect(firstError("buslegal_name", undefined)).toBe(M.buslegalNameRequired);
  });

  test("state: required, exactly 2 characters", () => {
    expect(firstError("region", undefined)).toBe(M.regionRequired);
    expect(firstError("region", "N")).toBe(M.regionLength);
    expect(firstError("region", "NYC")).toBe(M.regionLength);
    expect(firstError("region", "N1")).toBe(M.regionLetters);
    expect(firstError("region", "ny")).toBeUndefined();
  });

  test("postal code: required, exactly 5 digits", () => {
    expect(firstError("postal_code", undefined)).toBe(M.postalCodeRequired);
    expect(firstError("postal_code", "1234")).toBe(M.postalCodeFormat);
    expect(firstError("postal_code", "123456")).toBe(M.postalCodeFormat);
    expect(firstError("postal_code", "1234a")).toBe(M.postalCodeFormat);
    expect(firstError("postal_code", "04101")).toBeUndefined();
  });

  test("tax id: required, mask ##-#######", () => {
    expect(firstError("bustax_id", undefined)).toBe(M.bustaxIdRequired);
    expect(firstError("bustax_id", "123-456789")).toBe(M.bustaxIdFormat);
    expect(firstError("bustax_id", "12-345678")).toBe(M.bustaxIdFormat);
    expect(firstError("bustax_id", "12-34567890")).toBe(M.bustaxIdFormat);
    expect(firstError("bustax_id", "ab-cdefghi")).toBe(M.bustaxIdFormat);
    expect(firstError("bustax_id", "12-3456789")).toBeUndefined();
    expect(firstError("bustax_id", "123456789")).toBeUndefined();
  });

  test("business address, city and state (2 characters) are required", () => {
    expect(firstError("busstreet_address", undefined)).toBe(M.busstreetAddressRequired);
    expect(firstError("buslocality", undefined)).toBe(M.buslocalityRequired);
    expect(firstError("busregion", undefined)).toBe(M.busregionRequired);
    expect(firstError("busregion", "Maine")).toBe(M.busregionLength);
    expect(firstError("busregion", "1A")).toBe(M.busregionLetters);
  });

  test("business postal code: optional, 5 digits if given", () => {
    expect(firstError("buspostal_code", undefined)).toBeUndefined();
    expect(firstError("buspostal_code", "")).toBeUndefined();
    expect(firstError("buspostal_code", "123")).toBe(M.buspostalCodeFormat);
    expect(firstError("buspostal_code", "12345")).toBeUndefined();
  });

  test("account number: required, numeric, 7 to 25 digits", () => {
    expect(firstError("account_number", undefined)).toBe(M.accountNumberRequired);
    expect(firstError("account_number", "12345a7")).toBe(M.accountNumberNumeric);
    expect(firstError("account_number", "123456")).toBe(M.accountNumberLength);
    expect(firstError("account_number", "1".repeat(26))).toBe(M.accountNumberLength);
    expect(firstError("account_number", "1234567")).toBeUndefined();
    expect(firstError("account_number", "1".repeat(25))).toBeUndefined();
  });

  test("routing number: required, numeric, at most 9 digits", () => {
    expect(firstError("routing_number", undefined)).toBe(M.routingNumberRequired);
    expect(firstError("routing_number", "11000000x")).toBe(M.routingNumberNumeric);
    expect(firstError("routing_number", "1100000000")).toBe(M.routingNumberLength);
    expect(firstError("routing_number", "110000000")).toBeUndefined();
    expect(firstError("routing_number", "12345")).toBeUndefined();
  });

  test("terms must be accepted: the spec's message", () => {
    expect(M.tosRequired).toBe("You must accept the terms of service");
    expect(firstError("tos_accepted", undefined)).toBe(M.tosRequired);
    expect(firstError("tos_accepted", false)).toBe(M.tosRequired);
  });

  test("with Conform (as the page submits it): checkbox 'on', empty strings are missing values", () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(valid)) if (k !== "tos_accepted") fd.set(k, String(v));
    fd.set("buspostal_code", "");
    fd.set("tos_accepted", "on");
    const ok = parseWithZod(fd, { schema: payoutDetailsSchema });
    expect(ok.status).toBe("success");

    const bad = new FormData();
    bad.set("first_name", "J4ne");
    bad.set("region", "Maine");
    bad.set("routing_number", "");
    const r = parseWithZod(bad, { schema: payoutDetailsSchema });
    expect(r.status).toBe("error");
    const reply = r.reply();
    expect(reply.error?.first_name?.[0]).toBe(M.firstNameAlphabetic);
    expect(reply.error?.region?.[0]).toBe(M.regionLength);
    expect(reply.error?.routing_number?.[0]).toBe(M.routingNumberRequired);
    expect(reply.error?.tos_accepted?.[0]).toBe(M.tosRequired);
    expect(reply.error?.buspostal_code).toBeUndefined();
    // values kept for the page to show again
    expect((reply.initialValue as Record<string, unknown>).first_name).toBe("J4ne");
  });
});

describe("payout helpers", () => {
  test("parseUsDate", () => {
    expect(parseUsDate("04/15/1980")).toEqual({ year: 1980, month: 4, day: 15 });
    expect(parseUsDate("02/30/1980")).toBeNull();
    expect(parseUsDate("1980-04-15")).toBeNull();
  });

  test("last four, tax id digits", () => {
    expect(lastFour("000123456789")).toBe("6789");
    expect(lastFour("12-3456789")).toBe("6789");
    expect(taxIdDigits("12-3456789")).toBe("123456789");
  });

  test("ABA routing checksum: Stripe's test number passes, others fail", () => {
    expect(isValidAbaRoutingNumber("110000000")).toBe(true);
    expect(isValidAbaRoutingNumber("021000021")).toBe(true);
    expect(isValidAbaRoutingNumber("123456789")).toBe(false);
    expect(isValidAbaRoutingNumber("12345")).toBe(false);
  });

  test("the saved profile keeps only the last four of the account number and the tax id", () => {
    const details = payoutDetailsSchema.parse(valid);
    const p = payoutProfileFromDetails(details, "2024-01-02T03:04:05.000Z");
    expect(p.accountLast4).toBe("6789");
    expect(p.bustaxIdLast4).toBe("6789");
    expect(JSON.stringify(p)).not.toContain("000123456789");
    expect(JSON.stringify(p)).not.toContain("3456789");
    expect(p.routingNumber).toBe("110000000");
  });

  test("workflow id and idempotency keys", () => {
    const id = payoutSetupWorkflowId(42, "0b6f3c1e-0000-4000-8000-000000000001");
    expect(id).toBe("payout-setup:retailer-42:0b6f3c1e-0000-4000-8000-000000000001");
    expect(idempotencyKey(id, "create-account")).toBe(`${id}:create-account:1`);
    expect(idempotencyKey(id, "create-account", 2)).toBe(`${id}:create-account:2`);
  });
});

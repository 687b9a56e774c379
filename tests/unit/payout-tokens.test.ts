/**
 * Payout onboarding by provider tokens (ADR 0050): what the server may receive (payoutSubmissionSchema), the
 * data of the browser's createToken calls, the profile kept, and the sandbox's token rules.
 */
import { parseWithZod } from "@conform-to/zod";
import { describe, expect, test } from "vitest";
import {
  PAYOUT_MESSAGES as M,
  PAYOUT_PROVIDER_MESSAGES,
  payoutDetailsSchema,
} from "../../domain/payout";
import {
  accountTokenData,
  bankAccountTokenData,
  fieldForParam,
  PAYOUT_PROVIDER_ONLY_FIELDS,
  PAYOUT_TOKEN_MESSAGES,
  payoutProfileFromSubmission,
  payoutSubmissionSchema,
  personTokenData,
  sandboxToken,
} from "../../domain/payout-tokens";
import { fieldForParam as portFieldForParam } from "../../activities/payments/port";
import { validPayoutForm } from "../factories/payout";

const details = payoutDetailsSchema.parse(validPayoutForm);
const tokens = {
  account_token: "ct_sandbox_abcdef123",
  person_token: "cpt_sandbox_abcdef123",
  bank_account_token: "btok_sandbox_abcdef123",
  bustax_id_last4: "6789",
};

/** The form as the browser posts it: the provider-only fields left out, the tokens in. */
function posted(overrides: Record<string, string | undefined> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries({ ...validPayoutForm, ...tokens, ...overrides })) {
    if (v === undefined || (PAYOUT_PROVIDER_ONLY_FIELDS as readonly string[]).includes(k)) continue;
    fd.set(k, k === "tos_accepted" ? "on" : String(v));
  }
  return fd;
}

describe("what the payout form posts to our server", () => {
  test("tokens and the other fields pass; no bank number, tax id or birth date is part of it", () => {
    const r = parseWithZod(posted(), { schema: payoutSubmissionSchema });
    expect(r.status).toBe("success");
    const value = r.status === "success" ? r.value : null;
    expect(value).toMatchObject({ ...tokens, buslegal_name: validPayoutForm.buslegal_name });
    for (const f of PAYOUT_PROVIDER_ONLY_FIELDS) expect(value).not.toHaveProperty(f);
  });

  test("a raw bank number posted by hand is dropped, not kept", () => {
    const fd = posted();
    fd.set("account_number", "000123456789");
    const r = parseWithZod(fd, { schema: payoutSubmissionSchema });
    expect(r.status).toBe("success");
    expect(JSON.stringify(r.status === "success" ? r.value : null)).not.toContain("000123456789");
  });

  test("missing or malformed tokens: one form-level message, beside the fields' own messages", () => {
    for (const bad of [
      { account_token: undefined },
      { person_token: "" },
      { bank_account_token: "tok_visa" },
      { bank_account_token: "btok_x'; drop" },
      { bustax_id_last4: "12345" },
    ]) {
      const r = parseWithZod(posted(bad), { schema: payoutSubmissionSchema });
      expect(r.status).toBe("error");
      expect(r.reply().error?.[""]).toEqual([PAYOUT_TOKEN_MESSAGES.tokensMissing]);
    }
    const both = parseWithZod(posted({ first_name: "J4ne", account_token: undefined }), {
      schema: payoutSubmissionSchema,
    }).reply();
    expect(both.error?.first_name?.[0]).toBe(M.firstNameAlphabetic);
  });

  test("an empty post: the fields' messages and the tokens' message together", () => {
    const r = parseWithZod(new FormData(), { schema: payoutSubmissionSchema }).reply();
    expect(r.error?.[""]).toEqual([PAYOUT_TOKEN_MESSAGES.tokensMissing]);
    expect(r.error?.first_name?.[0]).toBe(M.firstNameRequired);
    expect(r.error?.tos_accepted?.[0]).toBe(M.tosRequired);
  });

  test("the fields that still reach the server keep their messages", () => {
    const r = parseWithZod(posted({ region: "NYC", tos_accepted: undefined }), {
      schema: payoutSubmissionSchema,
    }).reply();
    expect(r.error?.region?.[0]).toBe(M.regionLength);
    expect(r.error?.tos_accepted?.[0]).toBe(M.tosRequired);
  });

  test("the profile kept: last fours, no birth date, no routing number", () => {
    const r = parseWithZod(posted(), { schema: payoutSubmissionSchema });
    if (r.status !== "success") throw new Error("the posted form should pass");
    const s = r.value;
    const p = payoutProfileFromSubmission(s, {
      accountLast4: "6789",
      tosAcceptedAt: "2024-01-02T03:04:05.000Z",
    });
    expect(p).toMatchObject({
      accountLast4: "6789",
      bustaxIdLast4: "6789",
      dateOfBirth: "",
      routingNumber: "",
    });
  });
});

describe("the browser's createToken data (Stripe.js shapes)", () => {
  test("account: company with its tax id digits and the accepted terms", () => {
    expect(accountTokenData(details)).toEqual({
      business_type: "company",
      company: {
        name: details.buslegal_name,
        tax_id: "123456789",
        address: {
          line1: "14 Harbor St",
          city: "Portland",
          state: "ME",
          postal_code: "04101",
          country: "US",
        },
      },
      tos_shown_and_accepted: true,
    });
  });

  test("person: the representative with the date of birth as parts", () => {
    expect(personTokenData(details)).toMatchObject({
      first_name: "Jane",
      dob: { day: 15, month: 4, year: 1980 },
      relationship: { representative: true },
    });
  });

  test("bank account: numbers for the provider only", () => {
    expect(bankAccountTokenData(details)).toMatchObject({
      routing_number: "110000000",
      account_number: "000123456789",
      account_holder_type: "company",
    });
  });

  test("the payment port's map is this one (the provider adapters and the form's error list read the same)", () => {
    expect(portFieldForParam).toBe(fieldForParam);
  });

  test.each([
    ["bank_account[routing_number]", "routing_number"],
    ["external_account[routing_number]", "routing_number"],
    ["bank_account[account_number]", "account_number"],
    ["account[company][tax_id]", "bustax_id"],
    ["company[tax_id]", "bustax_id"],
    ["account[company][name]", "buslegal_name"],
    ["company[address][state]", "busregion"],
    ["address[postal_code]", "postal_code"],
    ["person[dob]", "date_of_birth"],
    ["dob[year]", "date_of_birth"],
    ["account[tos_shown_and_accepted]", "tos_accepted"],
    [undefined, undefined],
  ])("the provider's parameter path %s maps to the form's field %s", (param, field) => {
    expect(fieldForParam(param)).toBe(field);
  });
});

describe("the sandbox's tokens", () => {
  const meta = { id: "btok_sandbox_x", created: 1 };

  test("a bank account token keeps the last four, never the number", () => {
    const r = sandboxToken("bank_account", bankAccountTokenData(details), meta);
    expect(r).toMatchObject({ token: { id: "btok_sandbox_x", type: "bank_account", used: false } });
    expect(JSON.stringify(r)).toContain('"last4":"6789"');
    expect(JSON.stringify(r)).not.toContain("000123456789");
  });

  test("refusals carry Stripe's code, the parameter and our message", () => {
    const d = { ...details, routing_number: "123456789" };
    expect(sandboxToken("bank_account", bankAccountTokenData(d), meta)).toEqual({
      error: {
        type: "invalid_request_error",
        code: "routing_number_invalid",
        message: PAYOUT_PROVIDER_MESSAGES.routingNumberInvalid,
        param: "bank_account[routing_number]",
      },
    });
    expect(
      sandboxToken("account", { company: { tax_id: "12" }, tos_shown_and_accepted: true }, meta),
    ).toMatchObject({
      error: { code: "tax_id_invalid", param: "account[company][tax_id]" },
    });
    expect(sandboxToken("person", { dob: { day: 30, month: 2, year: 1980 } }, meta)).toMatchObject({
      error: { param: "person[dob]" },
    });
  });

  test("account and person tokens keep flags, not the tax id or the birth date", () => {
    const a = JSON.stringify(
      sandboxToken("account", accountTokenData(details), { ...meta, id: "ct_s" }),
    );
    expect(a).toContain('"tax_id_provided":true');
    expect(a).not.toContain("123456789");
    const p = JSON.stringify(
      sandboxToken("person", personTokenData(details), { ...meta, id: "cpt_s" }),
    );
    expect(p).toContain('"dob_provided":true');
    expect(p).not.toContain("1980");
  });
});

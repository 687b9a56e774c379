import { z } from "zod";
import {
  isValidAbaRoutingNumber,
  lastFour,
  parseUsDate,
  PAYOUT_FIELD_LABELS,
  PAYOUT_FIELDS,
  PAYOUT_PROVIDER_MESSAGES,
  payoutDetailsSchema,
  taxIdDigits,
  type PayoutDetails,
  type PayoutField,
  type PayoutProfile,
} from "./payout";

/**
 * Payout onboarding by provider tokens (docs/decisions/0050-payout-onboarding-by-provider-tokens.md): the
 * browser turns the bank account, the company (with its tax id) and the representative (with the date of
 * birth) into the payment provider's single-use tokens, with Stripe.js's `createToken` in production or the
 * sandbox's stand-in of it in development and tests. Our server receives the tokens, the tax id's last four and
 * the fields that are not bank or identity numbers; the workflow creates the connected account from the tokens.
 * Pure: the token parameters the browser sends, what the server may receive, and the sandbox's token rules.
 */

/** Typed in the form, sent only to the payment provider: never posted to our server (the inputs' names). */
export const PAYOUT_PROVIDER_ONLY_FIELDS = [
  "date_of_birth",
  "bustax_id",
  "account_number",
  "routing_number",
] as const satisfies readonly PayoutField[];

export type PayoutProviderOnlyField = (typeof PAYOUT_PROVIDER_ONLY_FIELDS)[number];

/** The token kinds of Stripe.js's `createToken(kind, data)` that payout onboarding uses. */
export type PayoutTokenKind = "account" | "person" | "bank_account";

/** Token id prefixes, as Stripe makes them (`ct_…`, `cpt_…`, `btok_…`); the sandbox uses the same. */
export const PAYOUT_TOKEN_PREFIX: Record<PayoutTokenKind, string> = {
  account: "ct",
  person: "cpt",
  bank_account: "btok",
};

/** The form's fields that carry each token on the way to our server. */
export const PAYOUT_TOKEN_FIELDS = {
  account: "account_token",
  person: "person_token",
  bank_account: "bank_account_token",
} as const satisfies Record<PayoutTokenKind, string>;

export const PAYOUT_TOKEN_MESSAGES = {
  /** No tokens reached the server: the scripts did not run, or the form was posted by hand. */
  tokensMissing:
    "Your bank and identity details did not reach our payment provider. Please enter them again (this form needs JavaScript).",
  /** The provider's script could not be loaded or did not answer. */
  providerUnavailable:
    "The payment provider's form could not be reached. Please try again in a few minutes.",
  /** A token the provider no longer knows or has already used. */
  tokenInvalid:
    "Your bank and identity details expired before they were saved. Please enter them again.",
} as const;

function tokenOf(kind: PayoutTokenKind) {
  return z
    .string()
    .trim()
    .regex(new RegExp(`^${PAYOUT_TOKEN_PREFIX[kind]}_[A-Za-z0-9_]{6,120}$`))
    .optional()
    .catch(undefined);
}

/**
 * What the payout form posts to our server: the form's other fields with their rules and messages, the three
 * tokens and the tax id's last four. A missing or malformed token is one form-level message; the provider-only
 * fields are not part of it (the action drops them before parsing, so they are never echoed either).
 */
/** The tokens and the tax id's last four: checked on their own, so their message comes whatever else is wrong. */
const payoutTokensSchema = z
  .object({
    [PAYOUT_TOKEN_FIELDS.account]: tokenOf("account"),
    [PAYOUT_TOKEN_FIELDS.person]: tokenOf("person"),
    [PAYOUT_TOKEN_FIELDS.bank_account]: tokenOf("bank_account"),
    bustax_id_last4: z
      .string()
      .trim()
      .regex(/^\d{4}$/)
      .optional()
      .catch(undefined),
  })
  .superRefine((v, ctx) => {
    if (!v.account_token || !v.person_token || !v.bank_account_token || !v.bustax_id_last4)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: [],
        message: PAYOUT_TOKEN_MESSAGES.tokensMissing,
      });
  });

export const payoutSubmissionSchema = payoutDetailsSchema
  .omit({ date_of_birth: true, bustax_id: true, account_number: true, routing_number: true })
  .and(payoutTokensSchema);

export type PayoutSubmission = z.output<typeof payoutSubmissionSchema>;

/** The provider's tokens of one submission. */
export interface PayoutTokens {
  accountToken: string;
  personToken: string;
  bankAccountToken: string;
}

export function payoutTokensOf(s: PayoutSubmission): PayoutTokens {
  return {
    accountToken: s.account_token ?? "",
    personToken: s.person_token ?? "",
    bankAccountToken: s.bank_account_token ?? "",
  };
}

/** What we keep of a token submission: no birth date, no routing number, last fours from the provider and the form. */
export function payoutProfileFromSubmission(
  s: PayoutSubmission,
  opts: { accountLast4: string; tosAcceptedAt: string },
): PayoutProfile {
  return {
    firstName: s.first_name,
    lastName: s.last_name,
    email: s.email,
    dateOfBirth: "",
    streetAddress: s.street_address,
    locality: s.locality,
    region: s.region,
    postalCode: s.postal_code,
    buslegalName: s.buslegal_name,
    bustaxIdLast4: s.bustax_id_last4 ?? "",
    busstreetAddress: s.busstreet_address,
    buslocality: s.buslocality,
    busregion: s.busregion,
    buspostalCode: s.buspostal_code,
    accountLast4: opts.accountLast4,
    routingNumber: "",
    tosAcceptedAt: opts.tosAcceptedAt,
  };
}

/**
 * The "Errors" list of the payout form: the form's messages, then each field's first message after its label
 * (whether the server or the provider's token step found it).
 */
export function payoutErrorList(errors: Partial<Record<string, string[] | null>>): string[] {
  const out: string[] = [...(errors[""] ?? [])];
  for (const f of PAYOUT_FIELDS) {
    const first = errors[f]?.[0];
    if (first) out.push(`${PAYOUT_FIELD_LABELS[f].replace(/ \(.*\)$/, "")}: ${first}`);
  }
  return out;
}

// -------------------------------------------------------------------------------------------------
// The data of Stripe.js's createToken calls (the browser sends them to the provider, never to us)

function address(line1: string, city: string, state: string, postalCode: string) {
  return {
    line1,
    city,
    state,
    ...(postalCode ? { postal_code: postalCode } : {}),
    country: "US",
  };
}

/** `createToken('account', …)`: the company with its tax id, and the terms shown and accepted. */
export function accountTokenData(d: PayoutDetails) {
  return {
    business_type: "company" as const,
    company: {
      name: d.buslegal_name,
      tax_id: taxIdDigits(d.bustax_id),
      address: address(d.busstreet_address, d.buslocality, d.busregion, d.buspostal_code),
    },
    tos_shown_and_accepted: true as const,
  };
}

/** `createToken('person', …)`: the representative (who fills in the form), with the date of birth. */
export function personTokenData(d: PayoutDetails) {
  const dob = parseUsDate(d.date_of_birth);
  return {
    first_name: d.first_name,
    last_name: d.last_name,
    email: d.email,
    ...(dob ? { dob: { day: dob.day, month: dob.month, year: dob.year } } : {}),
    address: address(d.street_address, d.locality, d.region, d.postal_code),
    relationship: { representative: true, executive: true, owner: true, title: "Owner" },
  };
}

/** `createToken('bank_account', …)`: the payout bank account. */
export function bankAccountTokenData(d: PayoutDetails) {
  return {
    country: "US",
    currency: "usd",
    routing_number: d.routing_number,
    account_number: d.account_number,
    account_holder_name: d.buslegal_name,
    account_holder_type: "company" as const,
  };
}

/** A refusal as Stripe.js returns it (`{ error }`): `param` names the parameter, e.g. "bank_account[routing_number]". */
export interface ProviderTokenError {
  type: "invalid_request_error";
  code: string;
  message: string;
  param?: string;
}

/** Maps a provider's parameter path (e.g. "external_account[routing_number]") to our form field. */
export function fieldForParam(param: string | undefined): PayoutField | undefined {
  if (!param) return undefined;
  const p = param.replace(/\]/g, "").replace(/\[/g, ".");
  const table: [RegExp, PayoutField][] = [
    [/routing_number$/, "routing_number"],
    [/account_number$/, "account_number"],
    [/tax_id$/, "bustax_id"],
    [/^(account\.)?company\.name$/, "buslegal_name"],
    [/^(account\.)?company\.address\.line1$/, "busstreet_address"],
    [/^(account\.)?company\.address\.city$/, "buslocality"],
    [/^(account\.)?company\.address\.state$/, "busregion"],
    [/^(account\.)?company\.address\.postal_code$/, "buspostal_code"],
    [/first_name$/, "first_name"],
    [/last_name$/, "last_name"],
    [/dob/, "date_of_birth"],
    [/address\.line1$/, "street_address"],
    [/address\.city$/, "locality"],
    [/address\.state$/, "region"],
    [/address\.postal_code$/, "postal_code"],
    [/email$/, "email"],
    [/tos_/, "tos_accepted"],
  ];
  return table.find(([re]) => re.test(p))?.[1];
}

// -------------------------------------------------------------------------------------------------
// The sandbox provider's tokens (what its stand-in of Stripe.js creates): checked like Stripe's, kept redacted

type Json = Record<string, unknown>;

function refuse(code: string, message: string, param: string): { error: ProviderTokenError } {
  return { error: { type: "invalid_request_error", code, message, param } };
}

const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
const obj = (v: unknown): Json => (v && typeof v === "object" ? (v as Json) : {});

/**
 * The sandbox's answer to `createToken(kind, data)`: a refusal (Stripe's codes and parameter paths), or the
 * token's stored object, which keeps only what the account needs later: last four digits, `*_provided` flags,
 * never a full account number, tax id or birth date. `id` and `created` come from the caller.
 */
export function sandboxToken(
  kind: PayoutTokenKind,
  data: unknown,
  meta: { id: string; created: number },
): { error: ProviderTokenError } | { token: Json } {
  const d = obj(data);
  const base = { id: meta.id, object: "token", type: kind, used: false, created: meta.created };
  if (kind === "bank_account") {
    const routing = str(d.routing_number);
    const account = str(d.account_number);
    if (!/^\d{7,25}$/.test(account))
      return refuse(
        "account_number_invalid",
        PAYOUT_PROVIDER_MESSAGES.accountNumberInvalid,
        "bank_account[account_number]",
      );
    if (!isValidAbaRoutingNumber(routing))
      return refuse(
        "routing_number_invalid",
        PAYOUT_PROVIDER_MESSAGES.routingNumberInvalid,
        "bank_account[routing_number]",
      );
    return {
      token: {
        ...base,
        bank_account: {
          object: "bank_account",
          country: "US",
          currency: "usd",
          bank_name: "STRIPE TEST BANK",
          last4: lastFour(account),
          routing_number: routing,
          account_holder_name: str(d.account_holder_name),
          account_holder_type: "company",
        },
      },
    };
  }
  if (kind === "account") {
    const company = obj(d.company);
    if (!/^\d{9}$/.test(str(company.tax_id)))
      return refuse(
        "tax_id_invalid",
        PAYOUT_PROVIDER_MESSAGES.taxIdInvalid,
        "account[company][tax_id]",
      );
    if (d.tos_shown_and_accepted !== true)
      return refuse(
        "parameter_missing",
        "The terms of service must be accepted.",
        "account[tos_shown_and_accepted]",
      );
    return {
      token: {
        ...base,
        account: {
          business_type: "company",
          company: {
            name: str(company.name),
            tax_id_provided: true,
            tax_id_last4: lastFour(str(company.tax_id)),
            address: obj(company.address),
          },
          tos_shown_and_accepted: true,
        },
      },
    };
  }
  const dob = obj(d.dob);
  const [day, month, year] = [dob.day, dob.month, dob.year].map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!year || date.getUTCDate() !== day || date.getUTCMonth() !== month - 1)
    return refuse("invalid_dob", "The date of birth is not valid.", "person[dob]");
  return {
    token: {
      ...base,
      person: {
        first_name: str(d.first_name),
        last_name: str(d.last_name),
        email: str(d.email),
        dob_provided: true,
        address: obj(d.address),
        relationship: obj(d.relationship),
      },
    },
  };
}

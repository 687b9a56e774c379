import { z } from "zod";
import { text } from "./text";

/**
 * The payout (merchant details) form (docs/product/screens.md, "Settings and payout"): one Zod schema shared by the page (Conform, on
 * the server and in the browser) and the payout workflow (which re-checks its input before it calls the
 * payment provider). Pure: imports only zod.
 *
 * The specification quotes one message ("You must accept the terms of service"); the others are ours.
 */
export const PAYOUT_MESSAGES = {
  firstNameRequired: "First name is required",
  firstNameAlphabetic: "First name may contain letters only",
  lastNameRequired: "Last name is required",
  lastNameAlphabetic: "Last name may contain letters and spaces only",
  emailRequired: "Email is required",
  emailInvalid: "Enter a valid email address",
  dobRequired: "Date of birth is required",
  dobFormat: "Date of birth must be in MM/DD/YYYY format",
  dobNotARealDate: "Date of birth is not a real date",
  dobTooOld: "Date of birth must be after 01/01/1900",
  dobNotInPast: "Date of birth must be in the past",
  streetAddressRequired: "Street address is required",
  localityRequired: "City is required",
  regionRequired: "State is required",
  regionLength: "State must be exactly 2 characters",
  regionLetters: "State must be a 2-letter code such as NY",
  postalCodeRequired: "ZIP code is required",
  postalCodeFormat: "ZIP code must be exactly 5 digits",
  buslegalNameRequired: "Legal business name is required",
  bustaxIdRequired: "Tax ID is required",
  bustaxIdFormat: "Tax ID must match ##-####### (e.g. 12-3456789)",
  busstreetAddressRequired: "Business street address is required",
  buslocalityRequired: "Business city is required",
  busregionRequired: "Business state is required",
  busregionLength: "Business state must be exactly 2 characters",
  busregionLetters: "Business state must be a 2-letter code such as NY",
  buspostalCodeFormat: "Business ZIP code must be exactly 5 digits",
  accountNumberRequired: "Account number is required",
  accountNumberNumeric: "Account number may contain digits only",
  accountNumberLength: "Account number must be 7 to 25 digits",
  routingNumberRequired: "Routing number is required",
  routingNumberNumeric: "Routing number may contain digits only",
  routingNumberLength: "Routing number must be at most 9 digits",
  tosRequired: "You must accept the terms of service",
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
} as const;

const M = PAYOUT_MESSAGES;
const TEXT_MAX = 100;

function requiredText(label: string, requiredMessage: string, max = TEXT_MAX) {
  return text({ required_error: requiredMessage, invalid_type_error: requiredMessage })
    .min(1, requiredMessage)
    .max(max, M.tooLong(label, max));
}

/** Any Unicode letter ("alphabetic"): José and Zoë are names too. */
const LETTERS = /^\p{L}+$/u;
const LETTERS_AND_SPACES = /^[\p{L} ]+$/u;

function stateCode(required: string, length: string, letters: string) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .length(2, length)
    .regex(/^[A-Za-z]{2}$/, letters)
    .transform((s) => s.toUpperCase());
}

const DOB_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** "MM/DD/YYYY" → its parts when it names a real calendar date, else null. */
export function parseUsDate(value: string): DateParts | null {
  const m = DOB_PATTERN.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

const dateOfBirth = z
  .string({ required_error: M.dobRequired, invalid_type_error: M.dobRequired })
  .trim()
  .min(1, M.dobRequired)
  .superRefine((value, ctx) => {
    if (!DOB_PATTERN.test(value)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.dobFormat });
      return;
    }
    const parts = parseUsDate(value);
    if (!parts) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.dobNotARealDate });
      return;
    }
    if (parts.year < 1900) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.dobTooOld });
      return;
    }
    // Compared as calendar dates (UTC); "in the past" means strictly before today.
    // Date.now() is deterministic inside a workflow (it is the workflow's clock).
    const today = new Date(Date.now());
    const todayKey =
      today.getUTCFullYear() * 10000 + (today.getUTCMonth() + 1) * 100 + today.getUTCDate();
    const dobKey = parts.year * 10000 + parts.month * 100 + parts.day;
    if (dobKey >= todayKey) ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.dobNotInPast });
  });

/** ##-####### ; nine digits typed without the dash are accepted and put into the mask. */
const bustaxId = z
  .string({ required_error: M.bustaxIdRequired, invalid_type_error: M.bustaxIdRequired })
  .trim()
  .min(1, M.bustaxIdRequired)
  .regex(/^(\d{2}-\d{7}|\d{9})$/, M.bustaxIdFormat)
  .transform((s) => (s.includes("-") ? s : `${s.slice(0, 2)}-${s.slice(2)}`));

const accountNumber = z
  .string({ required_error: M.accountNumberRequired, invalid_type_error: M.accountNumberRequired })
  .trim()
  .min(1, M.accountNumberRequired)
  .regex(/^\d+$/, M.accountNumberNumeric)
  .min(7, M.accountNumberLength)
  .max(25, M.accountNumberLength);

const routingNumber = z
  .string({ required_error: M.routingNumberRequired, invalid_type_error: M.routingNumberRequired })
  .trim()
  .min(1, M.routingNumberRequired)
  .regex(/^\d+$/, M.routingNumberNumeric)
  .max(9, M.routingNumberLength);

export const payoutDetailsSchema = z.object({
  first_name: requiredText("First name", M.firstNameRequired).pipe(
    z.string().regex(LETTERS, M.firstNameAlphabetic),
  ),
  last_name: requiredText("Last name", M.lastNameRequired).pipe(
    z.string().regex(LETTERS_AND_SPACES, M.lastNameAlphabetic),
  ),
  email: requiredText("Email", M.emailRequired, 254).pipe(z.string().email(M.emailInvalid)),
  date_of_birth: dateOfBirth,
  street_address: requiredText("Street address", M.streetAddressRequired),
  locality: requiredText("City", M.localityRequired),
  region: stateCode(M.regionRequired, M.regionLength, M.regionLetters),
  postal_code: z
    .string({ required_error: M.postalCodeRequired, invalid_type_error: M.postalCodeRequired })
    .trim()
    .min(1, M.postalCodeRequired)
    .regex(/^\d{5}$/, M.postalCodeFormat),
  buslegal_name: requiredText("Legal business name", M.buslegalNameRequired),
  bustax_id: bustaxId,
  busstreet_address: requiredText("Business street address", M.busstreetAddressRequired),
  buslocality: requiredText("Business city", M.buslocalityRequired),
  busregion: stateCode(M.busregionRequired, M.busregionLength, M.busregionLetters),
  /** Optional: 5 digits when given; "" when not. */
  buspostal_code: z
    .string()
    .trim()
    .regex(/^(\d{5})?$/, M.buspostalCodeFormat)
    .optional()
    .transform((s) => s ?? ""),
  account_number: accountNumber,
  routing_number: routingNumber,
  tos_accepted: z
    .boolean({ required_error: M.tosRequired, invalid_type_error: M.tosRequired })
    .refine((v) => v === true, M.tosRequired),
});

/** What the form submits (strings, "on" for the checkbox before coercion). */
export type PayoutDetailsInput = z.input<typeof payoutDetailsSchema>;
/** Validated, normalised details (state codes upper-case, tax id in its mask, buspostal_code "" when absent). */
export type PayoutDetails = z.output<typeof payoutDetailsSchema>;

/** The form's fields in display order. */
export const PAYOUT_FIELDS = [
  "first_name",
  "last_name",
  "email",
  "date_of_birth",
  "street_address",
  "locality",
  "region",
  "postal_code",
  "buslegal_name",
  "bustax_id",
  "busstreet_address",
  "buslocality",
  "busregion",
  "buspostal_code",
  "account_number",
  "routing_number",
  "tos_accepted",
] as const satisfies readonly (keyof PayoutDetails)[];

export type PayoutField = (typeof PAYOUT_FIELDS)[number];

export const PAYOUT_FIELD_LABELS: Record<PayoutField, string> = {
  first_name: "First name",
  last_name: "Last name",
  email: "Email",
  date_of_birth: "Date of birth (MM/DD/YYYY)",
  street_address: "Street address",
  locality: "City",
  region: "State",
  postal_code: "ZIP code",
  buslegal_name: "Legal business name",
  bustax_id: "Tax ID (EIN)",
  busstreet_address: "Business street address",
  buslocality: "Business city",
  busregion: "Business state",
  buspostal_code: "Business ZIP code",
  account_number: "Bank account number",
  routing_number: "Routing number",
  tos_accepted: "I accept the terms of service",
};

/** The last four characters: what we keep of account numbers and tax ids. */
export function lastFour(value: string): string {
  return value.replace(/\D/g, "").slice(-4);
}

/** "12-3456789" → "123456789" (what payment providers take). */
export function taxIdDigits(taxId: string): string {
  return taxId.replace(/\D/g, "");
}

/** ABA routing-number checksum (3-7-1 weights); payment providers refuse numbers that fail it. */
export function isValidAbaRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = routing.split("").map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

/** User-facing message when the provider refuses a bank account / routing number. */
export const PAYOUT_PROVIDER_MESSAGES = {
  routingNumberInvalid: "The routing number is not valid. Check it with your bank.",
  accountNumberInvalid: "The bank account number was not accepted. Check it with your bank.",
  taxIdInvalid: "The tax ID was not accepted.",
  generic: "The payment provider could not set up your payout account with these details.",
  unavailable: "Payout setup is temporarily unavailable. Please try again in a few minutes.",
} as const;

/** What we keep of a submitted form (payout_profiles): last four of the account number and the tax id. */
export interface PayoutProfile {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
  streetAddress: string;
  locality: string;
  region: string;
  postalCode: string;
  buslegalName: string;
  bustaxIdLast4: string;
  busstreetAddress: string;
  buslocality: string;
  busregion: string;
  buspostalCode: string;
  accountLast4: string;
  routingNumber: string;
  /** ISO string. */
  tosAcceptedAt: string;
}

export function payoutProfileFromDetails(d: PayoutDetails, tosAcceptedAt: string): PayoutProfile {
  return {
    firstName: d.first_name,
    lastName: d.last_name,
    email: d.email,
    dateOfBirth: d.date_of_birth,
    streetAddress: d.street_address,
    locality: d.locality,
    region: d.region,
    postalCode: d.postal_code,
    buslegalName: d.buslegal_name,
    bustaxIdLast4: lastFour(d.bustax_id),
    busstreetAddress: d.busstreet_address,
    buslocality: d.buslocality,
    busregion: d.busregion,
    buspostalCode: d.buspostal_code,
    accountLast4: lastFour(d.account_number),
    routingNumber: d.routing_number,
    tosAcceptedAt,
  };
}

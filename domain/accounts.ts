import { z } from "zod";
import { text } from "./text";

/**
 * Accounts: form schemas (shared by pages and server actions) and the messages users see.
 * Quoted messages come verbatim from the specifications (typos included).
 * Forms are parsed with Conform's parseWithZod, which turns empty inputs into `undefined`,
 * so "required" is expressed with `required_error`.
 */

export const MSG = {
  // Registration and login (docs/product/screens.md, "Sign-in, registration and password reset")
  emailInvalid: "A valid email address is required.",
  passwordIndecent: "Please enter a decent password.",
  passwordsMustMatch: "Passwords must match",
  loginFailed: "That password is incorrect; please try again",
  // Password reset (same page)
  resetEmailMandatory: "Email field is mandatory",
  resetEmailInvalid: "Enter a valid email address.",
  resetPasswordsMustMatch: "passwords must match",
  resetTokenInvalid: "This code is no longer valid, please reset your password again.",
  resetSent:
    "Thanks. Please check your email for a link to reset your password. If an account exists for that address, the link arrives within a few minutes and works for one hour.",
  // docs/product/screens.md, "Account-status pages"
  waitTitle: "Thank You. Please Wait for Activation",
  waitBody:
    "We are checking your store and the brands you asked for. You will receive an email as soon as your retailer account is activated.",
  deniedTitle: "Thank You. Denied.",
  deniedBody:
    "Your retailer account has been denied. If you think this is in error, you can submit additional credentials to the retailer support email",
  // ours (the specs are silent)
  alreadyRegistered:
    "This email address is already registered. Please sign in or reset your password.",
  required: "This field is required.",
  phoneInvalid: "Enter a 10-digit US phone number, e.g. +1-555-555-1234.",
  celphoneRequired: "Contact cell phone required. We text you when you have orders to approve.",
  stateInvalid: "Enter the 2-letter state code, e.g. NY.",
  postalInvalid: "Enter a ZIP code as ##### or #####-####.",
  resaleInvalid: "Enter the resale number as ##-##########-#.",
  jobTitleOtherRequired: "Please tell us your job title.",
  brandsRequired: "Choose at least one brand or request one.",
  brandNameRequired: "Brand name is required.",
  amountInvalid: "Enter an amount in dollars, e.g. 25000.",
  // ours: two-factor sign-in and the password in Settings (docs/product/screens.md, "Two-factor sign-in")
  codeRequired: "Enter the code from your authenticator app or a recovery code.",
  codeInvalid: "That code is not valid.",
  codeThrottled:
    "Too many wrong codes. For your security, please wait a few minutes and try again.",
  twoFactorRequired: "Staff accounts need two-factor sign-in. Set it up to continue.",
  currentPasswordWrong: "Your current password is not correct.",
  // ours: an inactive or pending retailer cannot trade
  notTrading:
    "Your retailer account is not active, so you cannot buy, sell or swap. Please contact support to have it reactivated.",
  notTradingActingAs: "This retailer's account is not active, so it cannot buy, sell or swap.",
} as const;

/** Password rule (ADR 0003): 8 to 128 characters, not only spaces. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const email = (required: string, invalid: string) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(254, invalid)
    .email(invalid);

const password = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .min(PASSWORD_MIN, message)
    .max(PASSWORD_MAX, message)
    .refine((p) => p.trim().length > 0, message);

/** An e-mail address as every form takes it (trimmed, at most 254 characters). */
export const emailSchema = email(MSG.emailInvalid, MSG.emailInvalid);

// ---------------------------------------------------------------------------------------------
// Sign in, register, reset

export const SignInSchema = z.object({
  email: email(MSG.emailInvalid, MSG.emailInvalid),
  // Any non-empty password may be tried (old accounts may predate the rule).
  password: z
    .string({ required_error: MSG.passwordIndecent })
    .min(1, MSG.passwordIndecent)
    .max(PASSWORD_MAX, MSG.loginFailed),
  next: z.string().optional(),
});

export const RegisterSchema = z
  .object({
    email: email(MSG.emailInvalid, MSG.emailInvalid),
    password: password(MSG.passwordIndecent),
    confirm: z.string({ required_error: MSG.passwordsMustMatch }),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: MSG.passwordsMustMatch });

export const ResetRequestSchema = z.object({
  email: email(MSG.resetEmailMandatory, MSG.resetEmailInvalid),
});

export const ResetConfirmSchema = z
  .object({
    new_password: password(MSG.passwordIndecent),
    confirm: z.string({ required_error: MSG.resetPasswordsMustMatch }),
  })
  .refine((v) => v.new_password === v.confirm, {
    path: ["confirm"],
    message: MSG.resetPasswordsMustMatch,
  });

/** The second step of a sign-in, and turning two-factor on or off: a TOTP code or a recovery code. */
export const TwoFactorCodeSchema = z.object({
  code: z
    .string({ required_error: MSG.codeRequired, invalid_type_error: MSG.codeRequired })
    .trim()
    .min(1, MSG.codeRequired)
    .max(64, MSG.codeInvalid),
});

/** Settings, Password: the current password, then the new one twice. */
export const ChangePasswordSchema = z
  .object({
    current_password: z
      .string({ required_error: MSG.required })
      .min(1, MSG.required)
      .max(PASSWORD_MAX, MSG.currentPasswordWrong),
    new_password: password(MSG.passwordIndecent),
    confirm: z.string({ required_error: MSG.passwordsMustMatch }),
  })
  .refine((v) => v.new_password === v.confirm, {
    path: ["confirm"],
    message: MSG.passwordsMustMatch,
  });

// ---------------------------------------------------------------------------------------------
// Retailer setup wizard

const required = (max = 200) =>
  text({ required_error: MSG.required, invalid_type_error: MSG.required })
    .min(1, MSG.required)
    .max(max, `At most ${max} characters.`);

/** US phone: 10 digits (an optional leading 1), stored as +1-###-###-####. */
export function normalizeUsPhone(input: string): string | null {
  const digits = input.replace(/\D/g, "");
  const ten = digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
  if (ten.length !== 10) return null;
  return `+1-${ten.slice(0, 3)}-${ten.slice(3, 6)}-${ten.slice(6)}`;
}

const phone = (requiredMessage: string) =>
  z
    .string({ required_error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .transform((v, ctx) => {
      const p = normalizeUsPhone(v);
      if (!p) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: MSG.phoneInvalid });
        return z.NEVER;
      }
      return p;
    });

/** Resale number mask ##-##########-# (docs/product/screens.md, "Staff: generic lists and forms"); dashes and spaces optional on input. */
export function normalizeResaleNumber(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  if (!/^\d{13}$/.test(digits)) return null;
  return `${digits.slice(0, 2)}-${digits.slice(2, 12)}-${digits.slice(12)}`;
}

export const RetailerStepSchema = z.object({
  store_name: required(120),
  store_email: email(MSG.required, MSG.resetEmailInvalid),
  store_phone: phone(MSG.required),
  business_name: required(200),
  address1: required(200),
  city: required(100),
  state: z
    .string({ required_error: MSG.stateInvalid })
    .trim()
    .regex(/^[A-Za-z]{2}$/, MSG.stateInvalid)
    .transform((s) => s.toUpperCase()),
  postal_code: z
    .string({ required_error: MSG.postalInvalid })
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, MSG.postalInvalid),
  resale_number: z.string({ required_error: MSG.resaleInvalid }).transform((v, ctx) => {
    const r = normalizeResaleNumber(v);
    if (!r) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: MSG.resaleInvalid });
      return z.NEVER;
    }
    return r;
  }),
});

/** The other way: a retailer row's store columns as the store form's fields (the forms' values to edit). */
export function storeInfoFormValues(r: {
  [K in keyof ReturnType<typeof storeInfoColumns>]: string;
}) {
  return {
    store_name: r.storeName,
    store_email: r.storeEmail,
    store_phone: r.storePhone,
    business_name: r.businessName,
    address1: r.address1,
    city: r.city,
    state: r.state,
    postal_code: r.postalCode,
    resale_number: r.resaleNumber,
  };
}

/** The store's fields as the database names them: the setup wizard, Settings and staff's Info tab write them alike. */
export function storeInfoColumns(v: z.output<typeof RetailerStepSchema>) {
  return {
    storeName: v.store_name,
    storeEmail: v.store_email,
    storePhone: v.store_phone,
    businessName: v.business_name,
    address1: v.address1,
    city: v.city,
    state: v.state,
    postalCode: v.postal_code,
    resaleNumber: v.resale_number,
  };
}

export const JOB_TITLES = ["Owner", "Buyer", "Store Manager", "Manager", "Other"] as const;

export const ContactStepSchema = z
  .object({
    first_name: required(100),
    last_name: required(100),
    job_title: z.enum(JOB_TITLES, {
      required_error: MSG.required,
      invalid_type_error: MSG.required,
      message: MSG.required,
    }),
    job_title_other: text().max(100).optional(),
    phone: phone(MSG.required),
    celphone: phone(MSG.celphoneRequired),
  })
  .superRefine((v, ctx) => {
    if (v.job_title === "Other" && !v.job_title_other) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["job_title_other"],
        message: MSG.jobTitleOtherRequired,
      });
    }
  });

/** The contact's fields as the database names them (the free job title kept only with "Other"): the setup wizard and Settings write them alike. */
export function contactColumns(v: z.output<typeof ContactStepSchema>) {
  return {
    firstName: v.first_name,
    lastName: v.last_name,
    jobTitle: v.job_title,
    jobTitleOther: v.job_title === "Other" ? (v.job_title_other ?? "") : "",
    phone: v.phone,
    celphone: v.celphone,
  };
}

export const BRAND_INTERESTS = [
  { value: "buy", label: "Buy this brand's styles from other retailers" },
  { value: "sell", label: "Sell my unsold inventory of this brand" },
  { value: "swap", label: "Swap styles of this brand" },
] as const;
const INTEREST_VALUES = BRAND_INTERESTS.map((i) => i.value) as ["buy", "sell", "swap"];

/** Dollars as typed ("25,000", "$1200.50") to cents; null when blank. */
export function dollarsToCents(input: string): number | null {
  const t = input.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ""] = t.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

export const BrandRequestRowSchema = z.object({
  brand_name: text().max(120).optional(),
  brand_purchase_amount: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return null;
      const c = dollarsToCents(v);
      if (c === null) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: MSG.amountInvalid });
        return z.NEVER;
      }
      return c;
    }),
  your_interest_in_this_brand: z.array(z.enum(INTEREST_VALUES)).optional(),
  brand_contact_email: z.string().trim().email(MSG.resetEmailInvalid).optional(),
  brand_contact_name: text().max(120).optional(),
});

/** The Brands page's ADD BRANDS form: one row of the wizard's brand request, the brand name required. */
export const BrandRequestFormSchema = BrandRequestRowSchema.extend({
  brand_name: text({ required_error: MSG.brandNameRequired })
    .min(1, MSG.brandNameRequired)
    .max(120, "At most 120 characters."),
});

export const BrandsStepSchema = z
  .object({
    brand_ids: z.array(z.coerce.number().int().positive()).optional(),
    requests: z.array(BrandRequestRowSchema).optional(),
  })
  .superRefine((v, ctx) => {
    const rows = v.requests ?? [];
    rows.forEach((r, i) => {
      const touched =
        r.brand_purchase_amount !== null ||
        (r.your_interest_in_this_brand?.length ?? 0) > 0 ||
        !!r.brand_contact_email ||
        !!r.brand_contact_name;
      if (!r.brand_name && touched) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["requests", i, "brand_name"],
          message: MSG.brandNameRequired,
        });
      }
    });
    const named = rows.filter((r) => !!r.brand_name).length;
    if ((v.brand_ids?.length ?? 0) === 0 && named === 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["brand_ids"],
        message: MSG.brandsRequired,
      });
    }
  });

export type SetupStep = "retailer" | "contact" | "brands" | "done";

/** The setup wizard's steps in order: staff first create the retailer's login ("user"), then its setup steps. */
export const SETUP_WIZARD_STEPS = [
  "user",
  "retailer",
  "contact",
  "brands",
] as const satisfies readonly ("user" | Exclude<SetupStep, "done">)[];
export type SetupWizardStep = (typeof SETUP_WIZARD_STEPS)[number];

/** Where the wizard resumes, from what the database already holds. */
export function setupStepFor(state: {
  hasRetailer: boolean;
  hasContact: boolean;
  setupComplete: boolean;
}): SetupStep {
  if (!state.hasRetailer) return "retailer";
  if (!state.hasContact) return "contact";
  if (!state.setupComplete) return "brands";
  return "done";
}

// ---------------------------------------------------------------------------------------------
// Navigation rules

/** Pages anyone may open signed out (and a held retailer may still open). */
export const PUBLIC_PATH_PREFIXES = [
  "/signin",
  "/register",
  "/password-reset",
  // An invitation into a store's team (docs/product/teams.md): the invited person has no account yet.
  "/join",
  "/logout",
  "/error",
  "/onboarding",
  "/how-selling-works",
  "/pricing",
  "/contact",
  "/webhooks",
  "/healthz",
] as const;

function startsWithSegment(pathname: string, prefix: string): boolean {
  return (
    pathname === prefix || pathname.startsWith(prefix + "/") || pathname.startsWith(prefix + "?")
  );
}

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATH_PREFIXES.some((p) => startsWithSegment(pathname, p));
}

/** Any path containing "admin" is for staff only (docs/product/glossary.md, "Roles and permissions"). */
export function isAdminPath(pathname: string): boolean {
  return pathname.toLowerCase().includes("admin");
}

/**
 * A safe local destination (after sign-in, after dismissing a banner, ...): a same-origin absolute path,
 * never "//host", a scheme, or anything a browser could read as one. Refused (null): control characters
 * and whitespace (a browser drops tabs and newlines from URLs, so "/\t/evil" is "//evil"), backslashes
 * (read as "/"), percent-encoded slashes, backslashes or control characters (a proxy may decode them),
 * and paths that normalise to "//host" ("/.//evil", "/a/..//evil"). /signin and /logout are refused too.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || typeof next !== "string" || next.length > 2048) return null;
  if (!next.startsWith("/")) return null;
  if (
    /[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/.test(
      next,
    )
  )
    return null;
  if (/%(?:2f|5c|[01][0-9a-f]|7f)/i.test(next.split(/[?#]/)[0])) return null;
  try {
    const u = new URL(next, "http://same.invalid");
    if (u.origin !== "http://same.invalid") return null;
    const out = u.pathname + u.search + u.hash;
    if (!out.startsWith("/") || out.startsWith("//")) return null;
    if (startsWithSegment(u.pathname, "/signin") || startsWithSegment(u.pathname, "/logout"))
      return null;
    return out;
  } catch {
    return null;
  }
}

export type AccountState =
  | { signedIn: false }
  | {
      signedIn: true;
      isStaff: boolean;
      retailerStatus: "none" | "pending" | "active" | "inactive" | "denied";
      setupComplete: boolean;
      /** A staff user in production without two-factor sign-in (ADR 0041). */
      mustSetUpTwoFactor?: boolean;
    };

/** Where a user turns two-factor sign-in on or off (docs/product/screens.md, "Two-factor sign-in"). */
export const TWO_FACTOR_SETUP_PATH = "/settings/two-factor";

/**
 * Who may trade (cart add/proceed, checkout, pay, selling to a request, swaps, order commands): only an
 * active retailer. Pending, inactive and denied retailers may still read their pages.
 */
export function retailerMayTrade(status: "pending" | "active" | "inactive" | "denied"): boolean {
  return status === "active";
}

const STATUS_PAGES = ["/retailer-setup", "/wait-for-activation", "/retailer-denied"] as const;

/**
 * The central navigation guard (root loader): where this user must go instead of `pathname`, or null.
 * Order: admin paths for non-staff -> /error/; signed out -> /signin; staff in production without two-factor
 * -> its set-up; held retailers -> their status page.
 */
export function requiredActionPath(
  state: AccountState,
  pathname: string,
  search = "",
): string | null {
  if (isAdminPath(pathname) && !(state.signedIn && state.isStaff)) {
    return startsWithSegment(pathname, "/error") ? null : "/error/";
  }
  if (!state.signedIn) {
    if (isPublicPath(pathname)) return null;
    const here = pathname + search;
    return here === "/" ? "/signin" : `/signin?next=${encodeURIComponent(here)}`;
  }
  if (state.mustSetUpTwoFactor) {
    return startsWithSegment(pathname, TWO_FACTOR_SETUP_PATH) || isPublicPath(pathname)
      ? null
      : TWO_FACTOR_SETUP_PATH;
  }
  if (state.isStaff) return null;
  let target: string | null = null;
  if (
    state.retailerStatus === "none" ||
    (state.retailerStatus === "pending" && !state.setupComplete)
  )
    target = "/retailer-setup/";
  else if (state.retailerStatus === "pending") target = "/wait-for-activation/";
  else if (state.retailerStatus === "denied") target = "/retailer-denied/";
  if (target) {
    const base = target.slice(0, -1);
    if (startsWithSegment(pathname, base)) return null;
    if (isPublicPath(pathname)) return null;
    return target;
  }
  // Active or inactive retailers have nothing to do on the status pages.
  if (STATUS_PAGES.some((p) => startsWithSegment(pathname, p))) return "/";
  return null;
}

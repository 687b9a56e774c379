import { z } from "zod";

/**
 * Money is an integer number of US cents everywhere (code, database, workflow payloads).
 * Dollars appear only at the edges: `formatCents` for the UI and `parseDollars` for form input.
 * Percentages are applied in basis points (1% = 100 bp) with integer arithmetic only, rounding
 * half up to the cent, per party, per transaction (docs/product/money.md, "Cents and rounding").
 */
export type Cents = number;

/** Largest amount we accept anywhere: $10,000,000,000.00 keeps every product of cents x basis points exact. */
export const MAX_CENTS = 1_000_000_000_000;

export function isCents(value: unknown): value is Cents {
  return typeof value === "number" && Number.isSafeInteger(value) && Math.abs(value) <= MAX_CENTS;
}

/** Throws unless `value` is an integer number of cents (negative allowed: refunds, differences). */
export function assertCents(value: unknown, what = "amount"): asserts value is Cents {
  if (!isCents(value))
    throw new RangeError(`${what} must be an integer number of cents, got ${String(value)}`);
}

/** Throws unless `value` is a non-negative integer number of cents. */
export function assertNonNegativeCents(value: unknown, what = "amount"): asserts value is Cents {
  assertCents(value, what);
  if (value < 0) throw new RangeError(`${what} must not be negative, got ${value}`);
}

/** Zod schema for a stored / transported amount: a non-negative integer number of cents. */
export const CentsSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_CENTS)
  .refine((n) => Number.isSafeInteger(n), "must be a safe integer");

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** UI format "$ with two decimals": 1234550 -> "$12,345.50", -1250 -> "-$12.50", 0 -> "$0.00". */
export function formatCents(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}$${groupThousands(String(dollars))}.${String(rest).padStart(2, "0")}`;
}

/** Plain decimal string without "$" or grouping, for form default values: 1250 -> "12.50". */
export function centsToDecimalString(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

// Optional "$", digits (optionally grouped by correct thousands commas), optional 1-2 decimals.
const DOLLARS_RE = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;
const DOLLARS_FRACTION_ONLY_RE = /^\$?\.(\d{1,2})$/;

/**
 * Parses a non-negative dollar amount typed by a person into cents.
 * Accepts "12", "12.5", "12.50", "$12.50", "1,234.50", ".5"; surrounding spaces are ignored.
 * Rejects (returns null) anything else: "", "abc", "-1", "1e3", "12.345", "1,23", "12.", "NaN", "Infinity",
 * and amounts above MAX_CENTS. Never uses floating point.
 */
export function parseDollars(input: string): Cents | null {
  if (typeof input !== "string") return null;
  const text = input.trim();
  let whole: string;
  let fraction: string;
  const m = DOLLARS_RE.exec(text);
  if (m) {
    whole = m[1].replace(/,/g, "");
    fraction = m[2] ?? "";
  } else {
    const f = DOLLARS_FRACTION_ONLY_RE.exec(text);
    if (!f) return null;
    whole = "0";
    fraction = f[1];
  }
  const trimmedWhole = whole.replace(/^0+(?=\d)/, "");
  if (trimmedWhole.length > 13) return null;
  const cents = Number(trimmedWhole) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return null;
  return cents;
}

/** Like parseDollars but throws a RangeError for junk. */
export function parseDollarsOrThrow(input: string): Cents {
  const cents = parseDollars(input);
  if (cents === null) throw new RangeError(`not a valid dollar amount: ${JSON.stringify(input)}`);
  return cents;
}

/** Zod schema for a dollar amount typed into a form; outputs cents. */
export function dollarsInputSchema(message = "Enter an amount in dollars, like 12.50") {
  return z.string().transform((value, ctx) => {
    const cents = parseDollars(value);
    if (cents === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    return cents;
  });
}

/**
 * `bp` basis points of `cents`, rounded half up to the cent. Both arguments are non-negative integers.
 * Example: 1000 bp (10%) of 5 cents = 0.5 -> 1 cent; of 4 cents = 0.4 -> 0 cents.
 */
export function basisPointsOf(cents: Cents, bp: number): Cents {
  assertNonNegativeCents(cents);
  if (!Number.isSafeInteger(bp) || bp < 0 || bp > 1_000_000) {
    throw new RangeError(`basis points must be a non-negative integer, got ${String(bp)}`);
  }
  // cents <= 1e12 and bp <= 1e6 would overflow 2^53, so go through BigInt for exactness.
  const product = BigInt(cents) * BigInt(bp);
  return Number((product + 5000n) / 10000n);
}

/**
 * `percent`% of `cents`, rounded half up to the cent. `percent` may have up to two decimals
 * (it is turned into whole basis points): percentOf(1999, 10) = 200, percentOf(1000, 2.5) = 25.
 */
export function percentOf(cents: Cents, percent: number): Cents {
  if (typeof percent !== "number" || !Number.isFinite(percent) || percent < 0) {
    throw new RangeError(`percent must be a non-negative number, got ${String(percent)}`);
  }
  const bp = Math.round(percent * 100);
  if (Math.abs(bp - percent * 100) > 1e-6) {
    throw new RangeError(`percent must have at most two decimals, got ${percent}`);
  }
  return basisPointsOf(cents, bp);
}

/** Sum of integer cents (throws on a non-integer element). */
export function sumCents(amounts: readonly Cents[]): Cents {
  let total = 0;
  for (const a of amounts) {
    assertCents(a);
    total += a;
  }
  assertCents(total, "sum");
  return total;
}

/** Sum of `pick(item)` over items. */
export function sumBy<T>(items: readonly T[], pick: (item: T) => Cents): Cents {
  return sumCents(items.map(pick));
}

/** unit price x quantity, both integers, quantity non-negative. */
export function multiplyCents(unitCents: Cents, quantity: number): Cents {
  assertCents(unitCents, "unit price");
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`quantity must be a non-negative integer, got ${String(quantity)}`);
  }
  const result = unitCents * quantity;
  assertCents(result, "line value");
  return result;
}

/** Payment row statuses that moved no money (a queued row is owed, so it counts as booked). */
const NOT_BOOKED_PAYMENT_STATUSES: ReadonlySet<string> = new Set([
  "pending",
  "declined",
  "failed",
  "canceled",
  "cancelled",
]);

/** Whether a payments row moved money, or owes it (queued for staff): the swap and RMA ledgers count these. */
export function paymentBooked(status: string): boolean {
  return !NOT_BOOKED_PAYMENT_STATUSES.has(status);
}

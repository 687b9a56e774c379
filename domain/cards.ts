/**
 * Card on file (docs/product/screens.md, "Settings and payout"; docs/product/orders.md, "Providers"):
 * the sandbox's card form accepts only the payment provider's documented test card numbers and keeps none
 * of them. A test number is turned into the provider's test token right away (Stripe's documented
 * tok_visa, tok_mastercard, tok_chargeDeclined, ...), so no card number ever reaches a workflow, a log or
 * the database: only the card type and the last four digits are kept.
 */
import { z } from "zod";
import { CARD_DECLINED } from "./messages";

export { CARD_DECLINED };

export interface TestCard {
  /** Stripe's test token for this number (works against Stripe test mode and stripe-mock too). */
  token: string;
  /** The card network as the provider names it. */
  brand: "visa" | "mastercard" | "amex" | "discover";
  last4: string;
  /** What the provider does when the card is attached / charged. */
  outcome: "succeeds" | "declined" | "insufficient_funds";
}

/** Stripe's documented test card numbers (https://docs.stripe.com/testing), by number without spaces. */
export const TEST_CARDS: Readonly<Record<string, TestCard>> = Object.freeze({
  "4242424242424242": { token: "tok_visa", brand: "visa", last4: "4242", outcome: "succeeds" },
  "4000056655665556": {
    token: "tok_visa_debit",
    brand: "visa",
    last4: "5556",
    outcome: "succeeds",
  },
  "5555555555554444": {
    token: "tok_mastercard",
    brand: "mastercard",
    last4: "4444",
    outcome: "succeeds",
  },
  "378282246310005": { token: "tok_amex", brand: "amex", last4: "0005", outcome: "succeeds" },
  "6011111111111117": {
    token: "tok_discover",
    brand: "discover",
    last4: "1117",
    outcome: "succeeds",
  },
  "4000000000000002": {
    token: "tok_chargeDeclined",
    brand: "visa",
    last4: "0002",
    outcome: "declined",
  },
  "4000000000009995": {
    token: "tok_chargeDeclinedInsufficientFunds",
    brand: "visa",
    last4: "9995",
    outcome: "insufficient_funds",
  },
});

/** The same cards by token (what the sandbox provider knows). */
export const TEST_CARD_TOKENS: Readonly<Record<string, TestCard>> = Object.freeze(
  Object.fromEntries(Object.values(TEST_CARDS).map((c) => [c.token, c])),
);

/** The test card of a typed number (spaces and dashes allowed), or null for any other number. */
export function testCardFromNumber(input: string): TestCard | null {
  const digits = input.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits)) return null;
  return Object.hasOwn(TEST_CARDS, digits) ? TEST_CARDS[digits] : null;
}

/** "Visa", "Mastercard", ... (payment_methods.description: the card type shown with the last four). */
export function cardBrandLabel(brand: string): string {
  switch (brand) {
    case "visa":
      return "Visa";
    case "mastercard":
      return "Mastercard";
    case "amex":
      return "American Express";
    case "discover":
      return "Discover";
    default:
      return brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : "Card";
  }
}

export const CARD_MESSAGES = Object.freeze({
  /** verbatim */
  declined: CARD_DECLINED,
  onlyTestCards:
    "This test payment form accepts only the payment provider's test card numbers, for example 4242 4242 4242 4242.",
  numberRequired: "Enter the card number.",
  expiryInvalid: "Enter the expiry date as MM/YY.",
  expired: "This card has expired.",
  cvcInvalid: "Enter the 3 or 4 digit security code.",
  unavailable: "We could not reach the payment provider. Please try again in a moment.",
  pending: "We are still saving your card. Refresh this page in a moment to see it.",
});

/** The sandbox card form (test numbers only). `today` is passed in: domain code reads no clock. */
export function testCardFormSchema(today: { year: number; month: number }) {
  return z
    .object({
      card_number: z
        .string({ required_error: CARD_MESSAGES.numberRequired })
        .trim()
        .min(1, CARD_MESSAGES.numberRequired),
      card_expiry: z
        .string({ required_error: CARD_MESSAGES.expiryInvalid })
        .trim()
        .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, CARD_MESSAGES.expiryInvalid),
      card_cvc: z
        .string({ required_error: CARD_MESSAGES.cvcInvalid })
        .trim()
        .regex(/^\d{3,4}$/, CARD_MESSAGES.cvcInvalid),
    })
    .transform((v, ctx) => {
      const card = testCardFromNumber(v.card_number);
      if (!card) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["card_number"],
          message: CARD_MESSAGES.onlyTestCards,
        });
        return z.NEVER;
      }
      const [mm, yy] = v.card_expiry.split("/").map((s) => s.trim());
      const month = Number(mm);
      const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
      if (year < today.year || (year === today.year && month < today.month)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["card_expiry"],
          message: CARD_MESSAGES.expired,
        });
        return z.NEVER;
      }
      // Only the token goes on: the number, expiry and code are dropped here.
      return { testToken: card.token, brand: card.brand, last4: card.last4 };
    });
}

/** A Stripe PaymentMethod id as Stripe Elements hands it to the form. */
export const PaymentMethodIdSchema = z
  .string()
  .trim()
  .regex(/^pm_[A-Za-z0-9_]{3,250}$/, "The card could not be read. Please try again.");

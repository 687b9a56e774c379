/**
 * The card form, one for every screen that takes a card (Settings → Card On File, the checkouts' card step,
 * the order pages' card form, the sell dialog): its field names and its schema.
 * - the card step's choice, `card_choice`: "saved" (the card on file) or "new" (the default);
 * - a Stripe Elements card: `payment_method_id`, with `card_last4` / `card_brand` that Stripe answered in the
 *   browser (kept with the card: its type and last four), accepted only when the provider is Stripe;
 * - else the test card form, `card_number` / `card_expiry` / `card_cvc`: only the provider's test numbers,
 *   turned into its test token (cards.ts) and dropped.
 */
import { z } from "zod";
import { CARD_MESSAGES, PaymentMethodIdSchema, testCardFormSchema, type TestCard } from "./cards";

export const CARD_FORM_MESSAGES = Object.freeze({
  chooseCard: "Choose your saved card or enter a new one.",
  noSavedCard: "You have no card on file. Please enter a card.",
});

/** The card fields' names: what every card form posts and cardFormSchema reads. */
export const CARD_FIELDS = Object.freeze({
  choice: "card_choice",
  paymentMethodId: "payment_method_id",
  last4: "card_last4",
  brand: "card_brand",
  number: "card_number",
  expiry: "card_expiry",
  cvc: "card_cvc",
});

/** The card of a form. */
export type FormCard =
  | { source: "saved" }
  | { source: "payment_method"; paymentMethodId: string; last4: string; brand: string }
  | { source: "test_card"; testToken: string; last4: string; brand: TestCard["brand"] };

export type CardFormResult =
  | { ok: true; card: FormCard }
  | { ok: false; errors: Record<string, string> };

type PaymentsProvider = "stripe" | "sandbox";

const text = z.string().optional();

/** The card form's schema: its keys are CARD_FIELDS' names. */
export function cardFormSchema({ today, provider }: { today: Date; provider: PaymentsProvider }) {
  return z
    .object({
      card_choice: z.string().optional(),
      payment_method_id: text,
      card_last4: text,
      card_brand: text,
      card_number: text,
      card_expiry: text,
      card_cvc: text,
    })
    .transform((v, ctx): FormCard => {
      const choice = v.card_choice ?? "new";
      if (choice !== "saved" && choice !== "new") {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [],
          message: CARD_FORM_MESSAGES.chooseCard,
        });
        return z.NEVER;
      }
      if (choice === "saved") return { source: "saved" };
      if (v.payment_method_id !== undefined) {
        const pm = PaymentMethodIdSchema.safeParse(v.payment_method_id);
        if (!pm.success || provider !== "stripe") {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [],
            message: pm.success ? CARD_MESSAGES.onlyTestCards : pm.error.issues[0].message,
          });
          return z.NEVER;
        }
        const last4 =
          v.card_last4 !== undefined && /^\d{4}$/.test(v.card_last4) ? v.card_last4 : "";
        return {
          source: "payment_method",
          paymentMethodId: pm.data,
          last4,
          brand: (v.card_brand ?? "").slice(0, 30),
        };
      }
      const typed = testCardFormSchema({
        year: today.getUTCFullYear(),
        month: today.getUTCMonth() + 1,
      }).safeParse({
        card_number: v.card_number,
        card_expiry: v.card_expiry,
        card_cvc: v.card_cvc,
      });
      if (!typed.success) {
        for (const issue of typed.error.issues)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: issue.path, message: issue.message });
        return z.NEVER;
      }
      return { source: "test_card", ...typed.data };
    });
}

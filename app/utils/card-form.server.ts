/**
 * The one card-form parser: every form that takes a card (Settings → Card On File, checkout's and a swap
 * checkout's card step, the order pages' card form, the sell dialog) posts the fields of CARD_FIELDS and is
 * read here with domain/card-form.ts's schema, through `parseSubmission`. A refusal is one message per field,
 * or under "" for the form (docs/product/screens.md says what each card form shows).
 */
import {
  cardFormSchema,
  CARD_FORM_MESSAGES,
  type CardFormResult,
  type FormCard,
} from "../../domain/card-form";
import { cardBrandLabel } from "../../domain/cards";
import type { PaymentMethodInput } from "../../workflows/buy/contract";
import { paymentsProvider } from "./env.server";
import { parseSubmission } from "./form.server";

/** The card of `form` (see the module comment), or its first error per field ("" for the form). */
export function parseCardForm(
  form: FormData,
  opts: { today?: Date; provider?: "stripe" | "sandbox" } = {},
): CardFormResult {
  const schema = cardFormSchema({
    today: opts.today ?? new Date(),
    provider: opts.provider ?? paymentsProvider(),
  });
  const submission = parseSubmission(form, { schema });
  if (submission.status === "success") return { ok: true, card: submission.value };
  const errors: Record<string, string> = {};
  for (const [name, messages] of Object.entries(submission.error ?? {}))
    if (messages?.[0]) errors[name] = messages[0];
  return { ok: false, errors };
}

/** A new card of a form as the order workflows take it: the provider's id or token, type and last four. */
export function paymentMethodOf(card: Exclude<FormCard, { source: "saved" }>): PaymentMethodInput {
  const paymentMethodId = card.source === "payment_method" ? card.paymentMethodId : card.testToken;
  return { paymentMethodId, lastFour: card.last4, description: cardBrandLabel(card.brand) };
}

/**
 * The new card of an order page's card form (the purchase's or swap's card step on the order page, which
 * offers no saved card: a "saved" choice there is refused as an unreadable choice).
 */
export function paymentMethodFromForm(
  form: FormData,
  today = new Date(),
  provider: "stripe" | "sandbox" = paymentsProvider(),
): { ok: true; paymentMethod: PaymentMethodInput } | { ok: false; errors: Record<string, string> } {
  const parsed = parseCardForm(form, { today, provider });
  if (!parsed.ok) return parsed;
  if (parsed.card.source === "saved")
    return { ok: false, errors: { "": CARD_FORM_MESSAGES.chooseCard } };
  return { ok: true, paymentMethod: paymentMethodOf(parsed.card) };
}

/**
 * Server side of the order pages: who is looking at an order, and the card of a card step. Commands go to the
 * order's workflow through temporal.server.ts sendOrderCommand; pages never change order state themselves.
 */
import type { PaymentMethodInput } from "../../workflows/buy/contract";
import { cardBrandLabel, PaymentMethodIdSchema, testCardFormSchema } from "../../domain/cards";
import { requireRetailer, requireUser } from "./auth.server";

/** Who is looking at an order: a retailer (own, or acted as by staff), or staff browsing as admin. */
export async function orderViewer(request: Request): Promise<{ retailerId: number | null; isStaff: boolean }> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && auth.retailer === null) return { retailerId: null, isStaff: true };
  const r = await requireRetailer(request);
  return { retailerId: r.retailer.id, isStaff: r.user.isStaff };
}

/**
 * A card from the card step of the order pages: the sandbox test card form (card_number, card_expiry,
 * card_cvc; only the provider's test numbers, turned into its test token here and dropped), or a Stripe
 * Elements PaymentMethod id (payment_method_id, with card_last4 / card_brand the browser got from Stripe).
 */
export function paymentMethodFromForm(
  form: FormData,
  today = new Date(),
): { ok: true; paymentMethod: PaymentMethodInput } | { ok: false; errors: Record<string, string> } {
  const pm = form.get("payment_method_id");
  if (typeof pm === "string" && pm !== "") {
    const parsed = PaymentMethodIdSchema.safeParse(pm);
    if (!parsed.success) return { ok: false, errors: { card_number: parsed.error.issues[0].message } };
    const last4 = String(form.get("card_last4") ?? "").replace(/\D/g, "").slice(-4);
    return { ok: true, paymentMethod: { paymentMethodId: parsed.data, lastFour: last4, description: cardBrandLabel(String(form.get("card_brand") ?? "")) } };
  }
  const parsed = testCardFormSchema({ year: today.getUTCFullYear(), month: today.getUTCMonth() + 1 }).safeParse({
    card_number: form.get("card_number") ?? undefined,
    card_expiry: form.get("card_expiry") ?? undefined,
    card_cvc: form.get("card_cvc") ?? undefined,
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const i of parsed.error.issues) errors[String(i.path[0] ?? "")] ??= i.message;
    return { ok: false, errors };
  }
  return { ok: true, paymentMethod: { paymentMethodId: parsed.data.testToken, lastFour: parsed.data.last4, description: cardBrandLabel(parsed.data.brand) } };
}

/**
 * The card step's parts shared by the purchase and swap checkouts: the saved-or-new card choice and the
 * Stripe Elements form (the card never touches our server; the form posts the PaymentMethod id).
 */
import { Form } from "@remix-run/react";
import { useRef } from "react";
import { useStripeCardElement } from "~/components/stripe-elements";
import { formatCents } from "../../../domain/money";

export function CardChoice({
  card,
  choice,
  onChange,
  standalone,
}: {
  card: { description: string; lastFour: string };
  choice: "saved" | "new";
  onChange: (c: "saved" | "new") => void;
  standalone?: boolean;
}) {
  return (
    <fieldset className="field" data-testid="card-choice">
      <legend>Pay with</legend>
      <label>
        <input type="radio" name={standalone ? "card_choice_view" : "card_choice"} value="saved" checked={choice === "saved"} onChange={() => onChange("saved")} /> My{" "}
        {card.description} ending in {card.lastFour}
      </label>
      <label>
        <input type="radio" name={standalone ? "card_choice_view" : "card_choice"} value="new" checked={choice === "new"} onChange={() => onChange("new")} /> A new card
      </label>
    </fieldset>
  );
}

/** Stripe Elements: the card never touches our server; the form posts the PaymentMethod id. */
export function ElementsPayForm({ publishableKey, busy, total }: { publishableKey: string; busy: boolean; total: number }) {
  const formRef = useRef<HTMLFormElement>(null);
  const pmRef = useRef<HTMLInputElement>(null);
  const last4Ref = useRef<HTMLInputElement>(null);
  const brandRef = useRef<HTMLInputElement>(null);
  const { mountRef, stripeRef, error, setError, ready } = useStripeCardElement(publishableKey);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    if (pmRef.current?.value) return;
    e.preventDefault();
    const s = stripeRef.current;
    if (!s) return;
    const result = await s.stripe.createPaymentMethod({ type: "card", card: s.card });
    if (result.error || !result.paymentMethod) {
      setError(result.error?.message ?? "The card could not be read. Please try again.");
      return;
    }
    if (pmRef.current) pmRef.current.value = result.paymentMethod.id;
    if (last4Ref.current) last4Ref.current.value = result.paymentMethod.card?.last4 ?? "";
    if (brandRef.current) brandRef.current.value = result.paymentMethod.card?.brand ?? "";
    formRef.current?.requestSubmit();
    // A retry after a decline needs a new PaymentMethod (a new attempt).
    if (pmRef.current) pmRef.current.value = "";
  }

  return (
    <Form method="post" ref={formRef} onSubmit={onSubmit} className="form-stack" data-testid="pay-elements-form">
      <input type="hidden" name="card_choice" value="new" />
      <input type="hidden" name="payment_method_id" ref={pmRef} defaultValue="" />
      <input type="hidden" name="pm_last4" ref={last4Ref} defaultValue="" />
      <input type="hidden" name="pm_brand" ref={brandRef} defaultValue="" />
      <div className="field">
        <label>Card</label>
        <div ref={mountRef} className="stripe-card-element" style={{ padding: "0.6rem", border: "1px solid #ccc", borderRadius: 6 }} />
      </div>
      {error ? (
        <div className="field-error" role="alert">
          {error}
        </div>
      ) : null}
      <noscript>The card form needs JavaScript (Stripe Elements).</noscript>
      <div className="form-actions">
        <button type="submit" className="button" disabled={!ready || busy} data-testid="pay-submit">
          {busy ? "Processing…" : `Pay ${formatCents(total)}`}
        </button>
      </div>
    </Form>
  );
}

/**
 * The card step of the purchase and swap checkouts (spec 001 §2 "card modal"; it cannot be dismissed: it is
 * part of the page): the saved-or-new card choice, then the test card form or, with Stripe's publishable key,
 * the Stripe Elements form (the card never touches our server; the form posts the PaymentMethod id).
 */
import { Form, Link } from "@remix-run/react";
import { useRef, useState } from "react";
import { CardFields } from "~/components/CardFields";
import { StripeCardField, useStripeCardElement } from "~/components/stripe-elements";

export interface CardStepData {
  mode: "test_card" | "elements";
  publishableKey: string | null;
  card: { description: string; lastFour: string } | null;
  provider: string;
  formId: string;
}

/** The whole card step: its form error, the card choice, the form that pays, Back and the submit button. */
export function CardStep({
  data: d,
  errors,
  busy,
  submitLabel,
  action,
  back,
}: {
  data: CardStepData;
  errors: Record<string, string>;
  busy: boolean;
  submitLabel: string;
  /** Where the test card form posts (default: the page itself). */
  action?: string;
  back: { to: string; label: string };
}) {
  const [choice, setChoice] = useState<"saved" | "new">(d.card ? "saved" : "new");
  return (
    <div role="dialog" aria-modal="false" aria-labelledby="card-step-title" className="card checkout-dialog" data-testid="card-step" style={{ maxWidth: "44rem" }}>
      <h2 id="card-step-title">Your card</h2>
      {errors[""] ? (
        <div className="alert alert-danger" role="alert" data-testid="pay-error">
          {errors[""]}
        </div>
      ) : null}
      {d.mode === "elements" && d.publishableKey && choice === "new" ? (
        <>
          {d.card ? <CardChoice card={d.card} choice={choice} onChange={setChoice} standalone /> : null}
          <ElementsPayForm publishableKey={d.publishableKey} busy={busy} submitLabel={submitLabel} />
        </>
      ) : (
        <Form method="post" action={action} className="form-stack" data-testid="pay-form" autoComplete="off">
          <input type="hidden" name="form_id" value={d.formId} readOnly />
          {d.card ? <CardChoice card={d.card} choice={choice} onChange={setChoice} /> : <input type="hidden" name="card_choice" value="new" />}
          {choice === "new" ? <CardFields provider={d.provider} errors={errors} /> : null}
          <div className="form-actions">
            <Link to={back.to} className="button button-outline">
              {back.label}
            </Link>
            <button type="submit" className="button" disabled={busy} data-testid="pay-submit">
              {busy ? "Processing…" : submitLabel}
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}

function CardChoice({
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
function ElementsPayForm({ publishableKey, busy, submitLabel }: { publishableKey: string; busy: boolean; submitLabel: string }) {
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
      <StripeCardField mountRef={mountRef} error={error} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={!ready || busy} data-testid="pay-submit">
          {busy ? "Processing…" : submitLabel}
        </button>
      </div>
    </Form>
  );
}

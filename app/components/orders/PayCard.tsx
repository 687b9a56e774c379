/**
 * The card step of the purchase and swap checkouts (docs/product/screens.md, "Cart and checkout": the card modal; it cannot be dismissed: it is
 * part of the page): the saved-or-new card choice, then the test card form or, with Stripe's publishable key,
 * the Stripe Elements form (the card never touches our server; the form posts the PaymentMethod id).
 */
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { CardFields } from "~/components/CardFields";
import { ErrorList, type ListOfErrors } from "~/components/forms";
import { ElementsCardForm } from "~/components/stripe-elements";
import { CARD_FIELDS } from "../../../domain/card-form";

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
  /** The fields' errors by name, the form's under "". */
  errors: Record<string, ListOfErrors>;
  busy: boolean;
  submitLabel: string;
  /** Where the test card form posts (default: the page itself). */
  action?: string;
  back: { to: string; label: string };
}) {
  const [choice, setChoice] = useState<"saved" | "new">(d.card ? "saved" : "new");
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby="card-step-title"
      className="card checkout-dialog"
      data-testid="card-step"
      style={{ maxWidth: "44rem" }}
    >
      <h2 id="card-step-title">Your card</h2>
      <ErrorList kind="form" testId="pay-error" errors={errors[""]} />
      {d.mode === "elements" && d.publishableKey && choice === "new" ? (
        <>
          {d.card ? (
            <CardChoice card={d.card} choice={choice} onChange={setChoice} standalone />
          ) : null}
          <ElementsCardForm
            publishableKey={d.publishableKey}
            hidden={{ [CARD_FIELDS.choice]: "new" }}
            testId="pay-elements-form"
            busy={busy}
            submitTestId="pay-submit"
          >
            {busy ? "Processing…" : submitLabel}
          </ElementsCardForm>
        </>
      ) : (
        <Form
          method="post"
          action={action}
          className="form-stack"
          data-testid="pay-form"
          autoComplete="off"
        >
          <input type="hidden" name="form_id" value={d.formId} readOnly />
          {d.card ? (
            <CardChoice card={d.card} choice={choice} onChange={setChoice} />
          ) : (
            <input type="hidden" name={CARD_FIELDS.choice} value="new" />
          )}
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
        <input
          type="radio"
          name={standalone ? "card_choice_view" : CARD_FIELDS.choice}
          value="saved"
          checked={choice === "saved"}
          onChange={() => onChange("saved")}
        />{" "}
        My {card.description} ending in {card.lastFour}
      </label>
      <label>
        <input
          type="radio"
          name={standalone ? "card_choice_view" : CARD_FIELDS.choice}
          value="new"
          checked={choice === "new"}
          onChange={() => onChange("new")}
        />{" "}
        A new card
      </label>
    </fieldset>
  );
}

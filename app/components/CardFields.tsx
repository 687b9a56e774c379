import { CARD_FIELDS } from "../../domain/card-form";
import { ErrorList, errorsOf, type ListOfErrors } from "./forms";

/**
 * The card fields of every form that takes a card (card on file in settings, checkout's payment, the order
 * pages' card modal, a swap's payment): the payment provider's test cards only (4242 4242 4242
 * 4242 succeeds, 4000 0000 0000 0002 is declined). Number, expiry and CVC, each labelled and with its server
 * error under it. The server turns the number into the provider's test token and keeps only type and last four.
 * The inputs' ids are their names: a page shows one card form at a time.
 */
export function CardFields({
  errors = {},
  provider,
}: {
  errors?: Record<string, ListOfErrors>;
  provider?: string;
}) {
  const field = (name: string, label: string, input: JSX.IntrinsicElements["input"]) => {
    const invalid = errorsOf(errors[name]).length > 0;
    return (
      <div className={`field${invalid ? " field-invalid" : ""}`}>
        <label htmlFor={name}>{label}</label>
        <input id={name} name={name} aria-invalid={invalid ? true : undefined} {...input} />
        <ErrorList
          name={name}
          errors={errors[name]}
          testId={name === CARD_FIELDS.number ? "card-error" : undefined}
        />
      </div>
    );
  };
  const mode =
    provider === "sandbox"
      ? "Test payments"
      : provider === "stripe"
        ? "Stripe test mode"
        : "Test mode";
  return (
    <fieldset className="card-fields" data-testid="card-fields">
      <legend>Card</legend>
      <p className="muted">
        {mode}: use a test card such as 4242 4242 4242 4242 (Visa) or 5555 5555 5555 4444
        (Mastercard), any future expiry date and any CVC. No card number is stored.
      </p>
      {field(CARD_FIELDS.number, "Card number", {
        inputMode: "numeric",
        autoComplete: "cc-number",
        placeholder: "4242 4242 4242 4242",
      })}
      <div className="form-row">
        {field(CARD_FIELDS.expiry, "Expiry (MM/YY)", {
          inputMode: "numeric",
          autoComplete: "cc-exp",
          placeholder: "12/34",
          size: 6,
        })}
        {field(CARD_FIELDS.cvc, "CVC", {
          inputMode: "numeric",
          autoComplete: "cc-csc",
          placeholder: "123",
          size: 5,
        })}
      </div>
    </fieldset>
  );
}

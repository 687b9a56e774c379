import { ErrorList } from "./forms";

/**
 * The card fields of every form that takes a card (card on file in settings, checkout's payment, the order
 * pages' card modal of spec 001 §2, a swap's payment): the payment provider's test cards only (4242 4242 4242
 * 4242 succeeds, 4000 0000 0000 0002 is declined). Number, expiry and CVC, each labelled and with its server
 * error under it. The server turns the number into the provider's test token and keeps only type and last four.
 * The inputs' ids are their names: a page shows one card form at a time.
 */
export function CardFields({ errors = {}, provider }: { errors?: Record<string, string>; provider?: string }) {
  const field = (name: "card_number" | "card_expiry" | "card_cvc", label: string, input: JSX.IntrinsicElements["input"]) => (
    <div className={`field${errors[name] ? " field-invalid" : ""}`}>
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} aria-invalid={errors[name] ? true : undefined} {...input} />
      <ErrorList name={name} errors={errors[name]} testId={name === "card_number" ? "card-error" : undefined} />
    </div>
  );
  const mode = provider === "sandbox" ? "Test payments" : provider === "stripe" ? "Stripe test mode" : "Test mode";
  return (
    <fieldset className="card-fields" data-testid="card-fields">
      <legend>Card</legend>
      <p className="muted">
        {mode}: use a test card such as 4242 4242 4242 4242 (Visa) or 5555 5555 5555 4444 (Mastercard), any future expiry date and any CVC.
        No card number is stored.
      </p>
      {field("card_number", "Card number", { inputMode: "numeric", autoComplete: "cc-number", placeholder: "4242 4242 4242 4242" })}
      <div className="form-row">
        {field("card_expiry", "Expiry (MM/YY)", { inputMode: "numeric", autoComplete: "cc-exp", placeholder: "12/34", size: 6 })}
        {field("card_cvc", "CVC", { inputMode: "numeric", autoComplete: "cc-csc", placeholder: "123", size: 5 })}
      </div>
    </fieldset>
  );
}

import { FieldError } from "./FieldError";

/**
 * The test-card fields of the card-on-file and checkout forms (sandbox payments, or Stripe test mode
 * without Elements): number, expiry and CVC, each with its server error under it. The server turns the
 * number into the provider's test token and keeps only type and last four.
 */
export function TestCardFields({ provider, errors }: { provider: string; errors: Record<string, string> }) {
  return (
    <>
      <p className="muted">
        {provider === "sandbox" ? "Test payments: " : "Stripe test mode: "}
        use a test card such as 4242 4242 4242 4242 (Visa) or 5555 5555 5555 4444 (Mastercard), any future expiry date and any CVC.
      </p>
      <div className={`field${errors.card_number ? " field-invalid" : ""}`}>
        <label htmlFor="card_number">Card number</label>
        <input id="card_number" name="card_number" inputMode="numeric" autoComplete="off" placeholder="4242 4242 4242 4242" />
        <FieldError name="card_number" errors={errors} />
      </div>
      <div className="form-row">
        <div className={`field${errors.card_expiry ? " field-invalid" : ""}`}>
          <label htmlFor="card_expiry">Expiry (MM/YY)</label>
          <input id="card_expiry" name="card_expiry" inputMode="numeric" autoComplete="off" placeholder="12/34" />
          <FieldError name="card_expiry" errors={errors} />
        </div>
        <div className={`field${errors.card_cvc ? " field-invalid" : ""}`}>
          <label htmlFor="card_cvc">CVC</label>
          <input id="card_cvc" name="card_cvc" inputMode="numeric" autoComplete="off" placeholder="123" />
          <FieldError name="card_cvc" errors={errors} />
        </div>
      </div>
    </>
  );
}

/**
 * The card step of the order pages (card modal of spec 001 §2): the sandbox's test card form — only the
 * payment provider's documented test numbers (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is
 * declined); the server turns the number into the provider's test token and keeps only type + last four.
 */
export function CardFields({ errors }: { errors?: Record<string, string> }) {
  return (
    <fieldset className="card-fields" data-testid="card-fields">
      <legend>Card</legend>
      <label>
        Card number
        <input name="card_number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required />
      </label>
      {errors?.card_number ? (
        <p className="alert alert-danger" role="alert" data-testid="card-error">
          {errors.card_number}
        </p>
      ) : null}
      <div className="form-row">
        <label>
          Expiry (MM/YY)
          <input name="card_expiry" autoComplete="cc-exp" placeholder="12/30" required size={6} />
        </label>
        <label>
          Security code
          <input name="card_cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required size={5} />
        </label>
      </div>
      {errors?.card_expiry ? <p className="alert alert-danger">{errors.card_expiry}</p> : null}
      {errors?.card_cvc ? <p className="alert alert-danger">{errors.card_cvc}</p> : null}
      <p className="muted">Test mode: use a test card such as 4242 4242 4242 4242. No card number is stored.</p>
    </fieldset>
  );
}

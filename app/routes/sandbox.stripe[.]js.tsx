/**
 * GET /sandbox/stripe.js: the sandbox payment provider's stand-in of Stripe.js (ADR 0050), loaded by the payout
 * form where production loads https://js.stripe.com/v3/. Same interface for what the form uses:
 * `Stripe(key).createToken(kind, data)` → `{ token }` or `{ error }`. 404 when payments go to Stripe.
 */
import { sandboxStripeJs } from "~/utils/sandbox-tokens.server";

export async function loader() {
  return sandboxStripeJs();
}

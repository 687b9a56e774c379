/**
 * The stripe-mock the contract suite runs against (STRIPE_MOCK_URL), and a Stripe client on it that notes
 * what went over the wire.
 */
import type Stripe from "stripe";
import { createStripeClient, translateStripeError } from "../../activities/payments/stripe";

const mock = new URL(process.env.STRIPE_MOCK_URL ?? "http://127.0.0.1:12111");

/** createStripeClient's options for stripe-mock. */
export const stripeOpts = {
  secretKey: "sk_test_123",
  host: mock.hostname,
  port: Number(mock.port),
  protocol: mock.protocol.replace(":", "") as "http" | "https",
};

/**
 * A client on stripe-mock that notes each request (method, path with its object ids read as `pm_X`, `pi_X`,
 * `acct_X`, `cus_X`, Idempotency-Key) and each response's status.
 */
export function recordingStripe() {
  const stripe = createStripeClient(stripeOpts);
  const seen: { method: string; path: string; key?: string }[] = [];
  const statuses: number[] = [];
  stripe.on("request", (e: Stripe.RequestEvent) =>
    seen.push({
      method: e.method,
      path: e.path.replace(/(pm|pi|acct|cus)_[A-Za-z0-9]+/g, "$1_X"),
      key: e.idempotency_key,
    }),
  );
  stripe.on("response", (e: Stripe.ResponseEvent) => statuses.push(e.status));
  return { stripe, seen, statuses };
}

/**
 * What the adapter makes of a request stripe-mock refuses: `call` sends it with a client on stripe-mock, its
 * error goes through translateStripeError (with `key`). Undefined when the request was accepted.
 */
export async function refusalOf(
  call: (stripe: Stripe) => Promise<unknown>,
  key: string,
): Promise<unknown> {
  try {
    await call(createStripeClient(stripeOpts));
  } catch (err) {
    return translateStripeError(err, key);
  }
  return undefined;
}

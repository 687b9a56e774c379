/**
 * POST /webhooks/payments: events from the payment provider in Stripe's envelope, signed with Stripe's scheme
 * (Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">) with STRIPE_WEBHOOK_SECRET when the
 * Stripe adapter has one configured, else SANDBOX_WEBHOOK_SECRET. Stored by event id before the order's
 * workflow is signalled (paymentEvent). A resource route: POST only.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handlePaymentWebhook } from "~/utils/webhooks.server";

export async function action({ request }: ActionFunctionArgs) {
  return handlePaymentWebhook(request);
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}

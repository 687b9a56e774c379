/**
 * POST /webhooks/carrier: tracking events from the carrier (the sandbox carrier, and staff's simulate
 * pickup / delivery through app/utils/webhooks.server.ts simulateCarrierEvent). Signed with
 * X-Carrier-Signature (t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, CARRIER_WEBHOOK_SECRET); stored by
 * event id before the order's workflow is signalled. A resource route: no page, POST only (the Origin check
 * exempts /webhooks/*).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleCarrierWebhook } from "~/utils/webhooks.server";

export async function action({ request }: ActionFunctionArgs) {
  return handleCarrierWebhook(request);
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}

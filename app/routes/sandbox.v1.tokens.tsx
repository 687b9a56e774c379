/**
 * POST /sandbox/v1/tokens: the sandbox payment provider's token endpoint, called by its Stripe.js stand-in
 * (/sandbox/stripe.js) from the payout form (ADR 0050). 404 when payments go to Stripe.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { sandboxTokenAction } from "~/utils/sandbox-tokens.server";

export async function loader() {
  return new Response("Not Found", { status: 404 });
}

export async function action({ request }: ActionFunctionArgs) {
  return sandboxTokenAction(request);
}

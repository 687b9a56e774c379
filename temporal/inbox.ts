/**
 * One delivery of a stored webhook event to its order's workflow (docs/decisions/0042-webhook-inbox.md), the
 * same for the endpoint's first attempt (app/utils/webhooks.server.ts) and the worker's relay
 * (workers/webhook-relay.ts): the signal went in ("delivered"), or the workflow has ended (or never ran):
 * nothing is left to move ("order_closed"). Any other failure is thrown: the event waits for the next attempt.
 */
import { WorkflowNotFoundError } from "@temporalio/common";

export async function signalOutcome(
  send: () => Promise<void>,
): Promise<"delivered" | "order_closed"> {
  try {
    await send();
    return "delivered";
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return "order_closed";
    throw err;
  }
}

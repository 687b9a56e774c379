/**
 * Server side of the order pages: retailer commands go to the order's buy workflow as Temporal UPDATES
 * (workflows/buy/contract.ts), and a rejected command comes back as the specification's message with a 4xx
 * (buyCommandError). Pages never change order state themselves: they read the read model
 * (db/queries/order-views.ts) and send commands here.
 *
 *   const out = await sendBuyCommand(orderId, approveSaleUpdate, { actorRetailerId, confirmDeclineOthers });
 *   if (!out.ok) return data({ error: out.message, code: out.code }, { status: out.status });
 */
import type { UpdateDefinition } from "@temporalio/common";
import { WorkflowNotFoundError } from "@temporalio/client";
import {
  buyCommandError,
  buyWorkflowId,
  type BuyCommandResult,
  type BuyErrorCode,
  type PaymentMethodInput,
} from "../../workflows/buy/contract";
import type { SwapErrorCode } from "../../workflows/swap/contract";
import { cardBrandLabel, PaymentMethodIdSchema, testCardFormSchema } from "../../domain/cards";
import { ORDER_UNAVAILABLE_MESSAGE } from "../../domain/messages";
import { orderStateMark } from "../../db/queries/orders";
import { requireRetailer, requireUser } from "./auth.server";
import { db } from "./db.server";
import { executeUpdateOnce, getTemporalClient, isTemporalUnavailable } from "./temporal.server";

/** Who is looking at an order: a retailer (own, or acted as by staff), or staff browsing as admin. */
export async function orderViewer(request: Request): Promise<{ retailerId: number | null; isStaff: boolean }> {
  const auth = await requireUser(request);
  if (auth.user.isStaff && auth.retailer === null) return { retailerId: null, isStaff: true };
  const r = await requireRetailer(request);
  return { retailerId: r.retailer.id, isStaff: r.user.isStaff };
}

/** How long a page waits for an update to finish (approval runs payment and carrier activities). */
export const COMMAND_TIMEOUT_MS = 30_000;

export { ORDER_UNAVAILABLE_MESSAGE };
export const ORDER_TIMEOUT_MESSAGE = "This is taking longer than usual. Refresh the page in a moment to see where your order stands.";

export type CommandOutcome =
  | { ok: true; result: BuyCommandResult }
  | { ok: false; status: number; code: BuyErrorCode | "unavailable" | "timeout"; message: string };

/**
 * HTTP status of a rejected command, buy or swap (their error codes share names): all 4xx (the caller or the
 * order's state is at fault, never a 500).
 */
export function commandErrorStatus(code: BuyErrorCode | SwapErrorCode): number {
  switch (code) {
    case "wrong_party":
      return 403;
    case "wrong_state":
    case "units_unavailable":
    case "payment_failed":
    case "rating_closed":
    case "already_rated":
    case "already_received":
      return 409;
    case "card_declined":
      return 402;
    default:
      return 400;
  }
}

/** A rejected command's outcome from what the Temporal client threw, or null for a real failure. */
export function commandFailure(err: unknown): Extract<CommandOutcome, { ok: false }> | null {
  const e = buyCommandError(err);
  if (e) return { ok: false, status: commandErrorStatus(e.code), code: e.code, message: e.message };
  if (err instanceof WorkflowNotFoundError) return { ok: false, status: 409, code: "wrong_state", message: buyCommandError({ name: "WorkflowNotFoundError" })!.message };
  if (isTemporalUnavailable(err)) return { ok: false, status: 503, code: "unavailable", message: ORDER_UNAVAILABLE_MESSAGE };
  return null;
}

/** An order as the pages know it: its id and, from the read model, its workflow id (= buyWorkflowId(id)). */
export type OrderRef = { id: number; workflowId?: string | null };

function workflowIdOf(order: OrderRef): string {
  return order.workflowId || buyWorkflowId(order.id);
}

/**
 * Sends one update to the order's buy workflow and waits for its answer (executeUpdateOnce: sent again while
 * no worker answers, or while the workflow refuses it from behind the order's read model).
 */
export async function sendBuyCommand<A>(order: OrderRef, def: UpdateDefinition<BuyCommandResult, [A]>, arg: A): Promise<CommandOutcome> {
  try {
    const client = await getTemporalClient();
    const handle = client.workflow.getHandle(workflowIdOf(order));
    const result = await executeUpdateOnce(handle, def, [arg], COMMAND_TIMEOUT_MS, { readModelSeq: readModelSeqOf(order.id) });
    if (result === "timeout") return { ok: false, status: 503, code: "timeout", message: ORDER_TIMEOUT_MESSAGE };
    return { ok: true, result };
  } catch (err) {
    const failure = commandFailure(err);
    if (failure) return failure;
    console.error(`[orders] command ${def.name} on order ${order.id} failed`, err);
    return { ok: false, status: 503, code: "unavailable", message: ORDER_UNAVAILABLE_MESSAGE };
  }
}

/** The order's (or RMA's) read-model write sequence, as executeUpdateOnce compares a refusal's with it. */
export function readModelSeqOf(orderId: number): () => Promise<number | null> {
  return async () => (await orderStateMark(db, orderId))?.seq ?? null;
}

/**
 * A card from the card step of the order pages: the sandbox test card form (card_number, card_expiry,
 * card_cvc; only the provider's test numbers, turned into its test token here and dropped), or a Stripe
 * Elements PaymentMethod id (payment_method_id, with card_last4 / card_brand the browser got from Stripe).
 */
export function paymentMethodFromForm(
  form: FormData,
  today = new Date(),
): { ok: true; paymentMethod: PaymentMethodInput } | { ok: false; errors: Record<string, string> } {
  const pm = form.get("payment_method_id");
  if (typeof pm === "string" && pm !== "") {
    const parsed = PaymentMethodIdSchema.safeParse(pm);
    if (!parsed.success) return { ok: false, errors: { card_number: parsed.error.issues[0].message } };
    const last4 = String(form.get("card_last4") ?? "").replace(/\D/g, "").slice(-4);
    return { ok: true, paymentMethod: { paymentMethodId: parsed.data, lastFour: last4, description: cardBrandLabel(String(form.get("card_brand") ?? "")) } };
  }
  const parsed = testCardFormSchema({ year: today.getUTCFullYear(), month: today.getUTCMonth() + 1 }).safeParse({
    card_number: form.get("card_number") ?? undefined,
    card_expiry: form.get("card_expiry") ?? undefined,
    card_cvc: form.get("card_cvc") ?? undefined,
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const i of parsed.error.issues) errors[String(i.path[0] ?? "")] ??= i.message;
    return { ok: false, errors };
  }
  return { ok: true, paymentMethod: { paymentMethodId: parsed.data.testToken, lastFour: parsed.data.last4, description: cardBrandLabel(parsed.data.brand) } };
}

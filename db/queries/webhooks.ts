/**
 * Incoming webhooks (app/routes/webhooks.carrier.tsx, webhooks.payments.tsx): store each provider event by
 * its id BEFORE signalling, so a duplicate delivery is dropped, and claim it so that at most one request
 * signals it at a time; a failed signal un-claims it so the provider's retry signals again.
 *
 *   stored  = storeWebhookEvent(...)     INSERT ... ON CONFLICT (id) DO NOTHING
 *   claimed = claimWebhookEvent(id)      UPDATE ... SET processed_at = now() WHERE processed_at IS NULL
 *   ... signal the workflow ...
 *   on failure: unclaimWebhookEvent(id)
 * Carrier lookups (tracking number -> order) and the tracking history are db/queries/shipments.ts's.
 */
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { orders, payments, shipments, webhookEvents } from "../schema";

export type WebhookProvider = "carrier" | "payments";

/** Stores the event (first delivery wins). Returns true when this call inserted it. */
export async function storeWebhookEvent(
  db: DbOrTx,
  ev: { id: string; provider: WebhookProvider; type: string; payload: unknown },
): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values({ id: ev.id, provider: ev.provider, type: ev.type, payload: ev.payload as object })
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}

/** Marks the event processed if nobody has: true means this caller signals it. */
export async function claimWebhookEvent(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(webhookEvents)
    .set({ processedAt: new Date() })
    .where(and(eq(webhookEvents.id, id), isNull(webhookEvents.processedAt)))
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}

/** The signal could not be delivered: let the provider's retry try again. */
export async function unclaimWebhookEvent(db: DbOrTx, id: string): Promise<void> {
  await db.update(webhookEvents).set({ processedAt: null }).where(eq(webhookEvents.id, id));
}

export interface WebhookOrderRef {
  orderId: number;
  workflowId: string;
  shipmentId: number | null;
}

/**
 * The order a payment event is about: the payments row whose provider_ref is one of the event's object ids
 * (intent, charge, refund, transfer), else the order id the provider object carries in its metadata.
 */
export async function findOrderForPayment(
  db: DbOrTx,
  refs: { orderId: number | null; refs: string[] },
): Promise<WebhookOrderRef | null> {
  if (refs.refs.length > 0) {
    const [row] = await db
      .select({ orderId: orders.id, workflowId: orders.workflowId })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(inArray(payments.providerRef, refs.refs))
      .limit(1);
    if (row) return { ...row, shipmentId: null };
  }
  if (refs.orderId !== null) {
    const [row] = await db
      .select({ orderId: orders.id, workflowId: orders.workflowId })
      .from(orders)
      .where(eq(orders.id, refs.orderId))
      .limit(1);
    if (row) return { ...row, shipmentId: null };
  }
  return null;
}

/**
 * The shipment staff's simulate buttons drive: the one asked for (a swap has a parcel each way), else the
 * order's latest; null when the order has none (or the one asked for is another order's).
 */
export async function latestShipmentOfOrder(
  db: Db,
  orderId: number,
  shipmentId?: number | null,
): Promise<{ id: number; trackingNumber: string | null; status: string } | null> {
  const [row] = await db
    .select({
      id: shipments.id,
      trackingNumber: shipments.trackingNumber,
      status: shipments.status,
    })
    .from(shipments)
    .where(
      and(eq(shipments.orderId, orderId), shipmentId ? eq(shipments.id, shipmentId) : undefined),
    )
    .orderBy(desc(shipments.createdAt), desc(shipments.id))
    .limit(1);
  return row ?? null;
}

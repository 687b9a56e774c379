/**
 * Incoming webhooks, the inbox (docs/decisions/0042-webhook-inbox.md; app/routes/webhooks.carrier.tsx,
 * webhooks.payments.tsx): each provider event is stored by its id, with what to deliver (workflow, signal),
 * before the sender is answered; a duplicate delivery inserts nothing. The endpoint then signals the workflow
 * and marks the event settled; the worker's relay (workers/webhook-relay.ts) delivers what is still waiting.
 *
 *   stored  = storeWebhookEvent(...)          INSERT ... ON CONFLICT (id) DO NOTHING
 *   ... signal the workflow ...
 *   settleWebhookEvent(id, "delivered")       (or "order_closed": its workflow had ended)
 *   on failure: retryWebhookEventAt(id, at)   the relay tries again then
 *   relay: claimDueWebhookEvents(...)         due rows, oldest first, leased (FOR UPDATE SKIP LOCKED)
 * Carrier lookups (tracking number -> order) and the tracking history are db/queries/shipments.ts's.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { InboxOutcome } from "../../domain/webhook-inbox";
import type { Db, DbOrTx } from "../client";
import { orders, payments, shipments, webhookEvents } from "../schema";

export type WebhookProvider = "carrier" | "payments";

/** What an event is delivered as: a signal to the order's workflow. */
export interface WebhookDelivery {
  workflowId: string;
  signalName: string;
  signalArg: unknown;
}

export interface NewWebhookEvent {
  id: string;
  provider: WebhookProvider;
  type: string;
  payload: unknown;
  /** Null: stored for the record only, settled at once with `outcome`. */
  deliver: WebhookDelivery | null;
  /** Settled at once (a status no workflow acts on, no order of ours); only without `deliver`. */
  outcome?: InboxOutcome;
  /** When the relay may take it first (the endpoint's own attempt holds it until then). */
  nextAttemptAt: Date;
}

/** Stores the event (first delivery wins; the endpoint's attempt counts as the first). True when this call inserted it. */
export async function storeWebhookEvent(db: DbOrTx, ev: NewWebhookEvent): Promise<boolean> {
  const rows = await db
    .insert(webhookEvents)
    .values({
      id: ev.id,
      provider: ev.provider,
      type: ev.type,
      payload: ev.payload as object,
      ...(ev.deliver
        ? {
            workflowId: ev.deliver.workflowId,
            signalName: ev.deliver.signalName,
            signalArg: ev.deliver.signalArg as object,
            attempts: 1,
            nextAttemptAt: ev.nextAttemptAt,
          }
        : { processedAt: sql`now()`, outcome: ev.outcome ?? "ignored" }),
    })
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
  return rows.length === 1;
}

/** An event waiting for delivery, as the relay takes it. */
export interface DueWebhookEvent extends WebhookDelivery {
  id: string;
  attempts: number;
}

const waiting = and(isNull(webhookEvents.processedAt), isNotNull(webhookEvents.workflowId));

/**
 * Claims up to `limit` events due at `now` (waiting, `next_attempt_at` passed), oldest due first: each gets one
 * more attempt and a lease (`next_attempt_at` = now + leaseMs), so two relays never take the same event at
 * once and a relay that dies leaves it to the next after the lease.
 */
export async function claimDueWebhookEvents(
  db: Db,
  opts: { now: Date; limit: number; leaseMs: number },
): Promise<DueWebhookEvent[]> {
  const due = db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(waiting, lte(webhookEvents.nextAttemptAt, opts.now)))
    .orderBy(asc(webhookEvents.nextAttemptAt))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(webhookEvents)
    .set({
      attempts: sql`${webhookEvents.attempts} + 1`,
      nextAttemptAt: new Date(opts.now.getTime() + opts.leaseMs),
    })
    .where(and(inArray(webhookEvents.id, due), waiting))
    .returning({
      id: webhookEvents.id,
      attempts: webhookEvents.attempts,
      workflowId: webhookEvents.workflowId,
      signalName: webhookEvents.signalName,
      signalArg: webhookEvents.signalArg,
    });
  return rows.map((r) => ({
    ...r,
    workflowId: r.workflowId ?? "",
    signalName: r.signalName ?? "",
  }));
}

/** The event is settled: its workflow has it, or had ended. The first settlement's time is kept. */
export async function settleWebhookEvent(
  db: DbOrTx,
  id: string,
  outcome: InboxOutcome,
): Promise<void> {
  await db
    .update(webhookEvents)
    .set({
      processedAt: sql`coalesce(${webhookEvents.processedAt}, now())`,
      outcome,
      nextAttemptAt: null,
      lastError: null,
    })
    .where(and(eq(webhookEvents.id, id), isNull(webhookEvents.outcome)));
}

/** An attempt failed: the relay tries again at `at` (still waiting only). */
export async function retryWebhookEventAt(
  db: DbOrTx,
  id: string,
  at: Date,
  error: string,
): Promise<void> {
  await db
    .update(webhookEvents)
    .set({ nextAttemptAt: at, lastError: error.slice(0, 500) })
    .where(and(eq(webhookEvents.id, id), waiting));
}

/** Events still waiting for their workflow (staff's outbox page shows the count; the oldest tells how long). */
export async function undeliveredWebhookEvents(
  db: Db,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<string | null>`min(${webhookEvents.receivedAt})`,
    })
    .from(webhookEvents)
    .where(waiting);
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
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
): Promise<{
  id: number;
  trackingNumber: string | null;
  callTag: string | null;
  status: string;
} | null> {
  const [row] = await db
    .select({
      id: shipments.id,
      trackingNumber: shipments.trackingNumber,
      callTag: shipments.callTag,
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

/**
 * The payments read model: one row per money movement of an order (pre-authorisation, capture, release,
 * refund, payout transfer, penalty), keyed by the idempotency key the workflow gave that movement.
 *
 * A movement is written BEFORE the provider is called (status 'queued', queued = true) and completed after
 * the provider accepted it; a row left queued (a provider outage being retried, a payout waiting for a
 * payout account, a penalty with no card on file) is what pages show as "payment is queued for processing.".
 * Writing is idempotent: a retried activity finds its row by key. When the order row is gone, the movement
 * is still kept (order_id null): money never disappears from the books.
 */
import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import {
  orders,
  paymentMethods,
  payments,
  retailers,
  sandboxPaymentObjects,
  webhookEvents,
} from "../schema";
import type { DbOrTx } from "../client";

export type PaymentRow = typeof payments.$inferSelect;

/** payments.name values ("receiver payment", "penalty fee", ...: docs/product/money.md, "Ledgers"). */
export const PAYMENT_NAMES = Object.freeze({
  authorization: "receiver pre-authorization",
  capture: "receiver payment",
  release: "receiver authorization released",
  refund: "receiver refund",
  payout: "provider payout",
  penalty: "penalty fee",
  /** An RMA's perpetrator charged on its card on file (txtype penalty: money taken from a seller's card). */
  rmaCharge: "RMA charge",
  /** An offer's hold on the buyer's card, before there is an order (it becomes the purchase's authorisation). */
  offerHold: "offer pre-authorization",
  offerRelease: "offer authorization released",
});

/** A swap's movements: both sides pay, and are released, refunded or paid out alike, so the names say "swap". */
export const SWAP_PAYMENT_NAMES = Object.freeze({
  authorization: "swap pre-authorization",
  paymentAuthorization: "swap payment authorization",
  capture: "swap payment",
  release: "swap authorization released",
  refund: "swap refund",
  payout: "swap payout",
});

export type PaymentTxType =
  | "authorization"
  | "capture"
  | "release"
  | "refund"
  | "transfer"
  | "penalty";

export interface BeginPaymentInput {
  idempotencyKey: string;
  /** Null for an offer's hold and its release: no order yet (docs/product/offers.md, "The hold"). */
  orderId: number | null;
  retailerId: number;
  name: string;
  txtype: PaymentTxType;
  amountCents: number;
  feeCents?: number;
  paymentMethodDescription?: string | null;
  lastFour?: string | null;
}

/** Records a movement as queued (or returns the row already recorded under this key). */
export async function beginPayment(db: DbOrTx, input: BeginPaymentInput): Promise<PaymentRow> {
  const [inserted] = await db
    .insert(payments)
    .values({
      orderId:
        input.orderId === null ? null : sql`(SELECT id FROM orders WHERE id = ${input.orderId})`,
      retailerId: input.retailerId,
      name: input.name,
      txtype: input.txtype,
      amountCents: input.amountCents,
      feeCents: input.feeCents ?? 0,
      status: "queued",
      queued: true,
      idempotencyKey: input.idempotencyKey,
      paymentMethodDescription: input.paymentMethodDescription ?? null,
      lastFour: input.lastFour ?? null,
    })
    .onConflictDoNothing({ target: payments.idempotencyKey })
    .returning();
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(payments)
    .where(eq(payments.idempotencyKey, input.idempotencyKey));
  if (!existing) throw new Error(`payment ${input.idempotencyKey} conflicted but was not found`);
  return existing;
}

/** The provider answered: status (e.g. requires_capture, succeeded, canceled, declined, paid), its object id. */
export async function completePayment(
  db: DbOrTx,
  idempotencyKey: string,
  outcome: {
    status: string;
    providerRef: string | null;
    queued?: boolean;
    amountCents?: number;
    releasedAt?: Date | null;
    paymentMethodDescription?: string | null;
    lastFour?: string | null;
  },
): Promise<PaymentRow | null> {
  const [row] = await db
    .update(payments)
    .set({
      status: outcome.status,
      providerRef: outcome.providerRef,
      queued: outcome.queued ?? false,
      ...(outcome.amountCents !== undefined ? { amountCents: outcome.amountCents } : {}),
      ...(outcome.releasedAt !== undefined ? { releasedAt: outcome.releasedAt } : {}),
      ...(outcome.paymentMethodDescription !== undefined
        ? { paymentMethodDescription: outcome.paymentMethodDescription }
        : {}),
      ...(outcome.lastFour !== undefined ? { lastFour: outcome.lastFour } : {}),
      modifiedAt: sql`now()`,
    })
    .where(eq(payments.idempotencyKey, idempotencyKey))
    .returning();
  return row ?? null;
}

export async function getPaymentByKey(
  db: DbOrTx,
  idempotencyKey: string,
): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
  return row ?? null;
}

/** An order's movements, oldest first. */
export async function listOrderPayments(db: DbOrTx, orderId: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/** The retailer's saved card with its provider customer (the one a payment method id belongs to), or null. */
export async function findSavedCard(
  db: DbOrTx,
  retailerId: number,
  providerPaymentMethodId: string,
) {
  const [row] = await db
    .select({
      customerId: paymentMethods.providerCustomerId,
      description: paymentMethods.description,
      lastFour: paymentMethods.lastFour,
    })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.retailerId, retailerId),
        eq(paymentMethods.providerPaymentMethodId, providerPaymentMethodId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The retailer's connected (payout) account id (retailers.bt_merchant_id), or null. */
/** The number people see for an order or RMA (orders.external_id), for what the provider is sent; null when gone. */
export async function externalIdOf(db: DbOrTx, orderId: number): Promise<string | null> {
  const [r] = await db
    .select({ externalId: orders.externalId })
    .from(orders)
    .where(eq(orders.id, orderId));
  return r?.externalId ?? null;
}

export async function payoutAccountOf(db: DbOrTx, retailerId: number): Promise<string | null> {
  const [row] = await db
    .select({ id: retailers.btMerchantId })
    .from(retailers)
    .where(eq(retailers.id, retailerId));
  return row?.id || null;
}

/** A payment webhook the order's workflow has taken in (the endpoint stored it as "payment:<id>"). */
export async function markPaymentEventProcessed(db: DbOrTx, eventId: string): Promise<void> {
  await db
    .update(webhookEvents)
    .set({ processedAt: sql`now()` })
    .where(
      and(
        inArray(webhookEvents.id, [eventId, `payment:${eventId}`]),
        isNull(webhookEvents.processedAt),
      ),
    );
}

/** The authorisation of a PaymentIntent (who paid, with which card), or null. */
export async function getAuthorizationByIntent(
  db: DbOrTx,
  paymentIntentId: string,
): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.providerRef, paymentIntentId), eq(payments.txtype, "authorization")))
    .limit(1);
  return row ?? null;
}

type ProviderObject = Record<string, unknown>;
export interface ProviderObjectsOfOrder {
  intents: ProviderObject[];
  transfers: ProviderObject[];
  refunds: ProviderObject[];
}

/**
 * The sandbox payment provider's objects of these orders (or RMAs), by order id: payment intents and refunds
 * (metadata.order_id; an RMA's refund names the RMA) and transfers (transfer_group "order-<id>"). What the
 * reliability tests and the orders benchmark check "exactly once" against. An order without any has empty lists.
 */
export async function sandboxObjectsOfOrders(
  db: DbOrTx,
  orderIds: readonly number[],
): Promise<Map<number, ProviderObjectsOfOrder>> {
  const out = new Map<number, ProviderObjectsOfOrder>(
    orderIds.map((id) => [id, { intents: [], transfers: [], refunds: [] }]),
  );
  if (orderIds.length === 0) return out;
  const orderIdOf = sql<string>`${sandboxPaymentObjects.data}->'metadata'->>'order_id'`;
  const groupOf = sql<string>`${sandboxPaymentObjects.data}->>'transfer_group'`;
  const rows = await db
    .select({
      kind: sandboxPaymentObjects.kind,
      data: sandboxPaymentObjects.data,
      orderId: orderIdOf,
      group: groupOf,
    })
    .from(sandboxPaymentObjects)
    .where(
      or(
        and(
          inArray(sandboxPaymentObjects.kind, ["payment_intent", "refund"]),
          inArray(orderIdOf, orderIds.map(String)),
        ),
        and(
          eq(sandboxPaymentObjects.kind, "transfer"),
          inArray(
            groupOf,
            orderIds.map((id) => `order-${id}`),
          ),
        ),
      ),
    );
  for (const r of rows) {
    const id = Number(r.kind === "transfer" ? r.group.slice("order-".length) : r.orderId);
    const list = out.get(id);
    if (!list) continue;
    (r.kind === "payment_intent"
      ? list.intents
      : r.kind === "refund"
        ? list.refunds
        : list.transfers
    ).push(r.data);
  }
  return out;
}

/** A sandbox payment provider's object by id and kind (Stripe-shaped JSON): created, or replaced when it changes. */
export async function putSandboxObject(
  db: DbOrTx,
  kind: string,
  data: Record<string, unknown> & { id: string },
): Promise<void> {
  await db
    .insert(sandboxPaymentObjects)
    .values({ id: data.id, kind, data })
    .onConflictDoUpdate({ target: sandboxPaymentObjects.id, set: { data, updatedAt: new Date() } });
}

/** A sandbox payment provider's object by id. */
/**
 * The sandbox provider's objects whose id is `query`, or whose description or metadata holds it (its dashboard's
 * search, as staff search Stripe's by an order's number): the newest 20.
 */
export async function searchSandboxObjects(
  db: DbOrTx,
  query: string,
): Promise<(Record<string, unknown> & { id: string; object: string })[]> {
  const q = query.trim();
  if (!q) return [];
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ data: sandboxPaymentObjects.data })
    .from(sandboxPaymentObjects)
    .where(
      sql`${sandboxPaymentObjects.id} = ${q} or ${sandboxPaymentObjects.data} ->> 'description' ilike ${like} or (${sandboxPaymentObjects.data} -> 'metadata')::text ilike ${like}`,
    )
    .orderBy(desc(sandboxPaymentObjects.createdAt))
    .limit(20);
  return rows.map((r) => r.data as Record<string, unknown> & { id: string; object: string });
}

export async function getSandboxObject(
  db: DbOrTx,
  id: string,
): Promise<(Record<string, unknown> & { id: string; object: string }) | undefined> {
  const [row] = await db
    .select({ data: sandboxPaymentObjects.data })
    .from(sandboxPaymentObjects)
    .where(eq(sandboxPaymentObjects.id, id));
  return row ? (row.data as Record<string, unknown> & { id: string; object: string }) : undefined;
}

/**
 * The nightly reconciliation (docs/decisions/0045-nightly-reconciliation.md): the ledger's sent movements of a UTC
 * day, with what the provider needs to find each one by its key, and the differences found, listed for staff's
 * "Payments needing attention".
 */
import { and, asc, eq, gt, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { heldPayments, orders, payments, reconciliationDifferences, retailers } from "../schema";
import type { Difference } from "../../domain/reconciliation";

export interface DayMovement {
  paymentId: number;
  kind: string;
  amountCents: number;
  /** The key the provider holds it under: a held movement paid on a new attempt carries that attempt's key. */
  idempotencyKey: string;
  orderId: number | null;
  /** The order's authorised intent (a capture's, release's or refund's object is found on it). */
  paymentIntentId: string | null;
}

/**
 * The movements created on `day` (YYYY-MM-DD, UTC) that were sent (not left queued or held), by id after
 * `afterId`, `limit` at a time.
 */
export async function dayMovements(
  db: DbOrTx,
  day: string,
  page: { afterId: number; limit: number },
): Promise<DayMovement[]> {
  const start = new Date(`${day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  return db
    .select({
      paymentId: payments.id,
      kind: payments.txtype,
      amountCents: payments.amountCents,
      idempotencyKey: sql<string>`coalesce(${heldPayments.lastKey}, ${payments.idempotencyKey})`,
      orderId: payments.orderId,
      paymentIntentId: sql<string | null>`(
        select a.provider_ref from ${payments} a
        where a.order_id = ${payments.orderId} and a.txtype = 'authorization' and a.provider_ref is not null
        order by a.id desc limit 1)`,
    })
    .from(payments)
    .leftJoin(heldPayments, eq(heldPayments.paymentId, payments.id))
    .where(
      and(
        gte(payments.createdAt, start),
        lt(payments.createdAt, end),
        eq(payments.queued, false),
        gt(payments.id, page.afterId),
        sql`${payments.amountCents} > 0`,
      ),
    )
    .orderBy(asc(payments.id))
    .limit(page.limit);
}

/** Records a run's differences; one found again (a run repeated) is not written twice. Returns how many are new. */
export async function recordDifferences(
  db: DbOrTx,
  day: string,
  differences: readonly Difference[],
): Promise<number> {
  if (differences.length === 0) return 0;
  const rows = await db
    .insert(reconciliationDifferences)
    .values(differences.map((d) => ({ day, ...d })))
    .onConflictDoNothing()
    .returning({ id: reconciliationDifferences.id });
  return rows.length;
}

/** Staff's section: the open differences, oldest day first, with the order and retailer when the ledger has them. */
export async function listOpenDifferences(db: DbOrTx, limit = 500) {
  return db
    .select({
      id: reconciliationDifferences.id,
      day: reconciliationDifferences.day,
      kind: reconciliationDifferences.kind,
      idempotencyKey: reconciliationDifferences.idempotencyKey,
      paymentId: reconciliationDifferences.paymentId,
      movementKind: payments.txtype,
      orderExternalId: orders.externalId,
      storeName: retailers.storeName,
      ledgerCents: reconciliationDifferences.ledgerCents,
      providerCents: reconciliationDifferences.providerCents,
      providerRef: reconciliationDifferences.providerRef,
    })
    .from(reconciliationDifferences)
    .leftJoin(payments, eq(payments.id, reconciliationDifferences.paymentId))
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(retailers, eq(retailers.id, payments.retailerId))
    .where(isNull(reconciliationDifferences.resolvedAt))
    .orderBy(asc(reconciliationDifferences.day), asc(reconciliationDifferences.id))
    .limit(limit);
}

/** Which of `keys` the ledger holds (a movement's key, or a held movement's latest attempt's). */
export async function knownKeys(db: DbOrTx, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ key: payments.idempotencyKey, lastKey: heldPayments.lastKey })
    .from(payments)
    .leftJoin(heldPayments, eq(heldPayments.paymentId, payments.id))
    .where(
      sql`(${inArray(payments.idempotencyKey, [...keys])} OR ${inArray(heldPayments.lastKey, [...keys])})`,
    );
  return rows.flatMap((r) => (r.lastKey ? [r.key, r.lastKey] : [r.key]));
}

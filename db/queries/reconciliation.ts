/**
 * The nightly reconciliation (docs/decisions/0045-nightly-reconciliation.md): the ledger's sent movements of a UTC
 * day, with what the provider needs to find each one by its key, and the differences found, listed for staff's
 * "Payments needing attention"; staff's resolution of a difference with its audit, each finished run, and what
 * a statement's month needs to say it is reconciled
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  max,
  min,
  sql,
} from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import {
  heldPayments,
  orders,
  payments,
  reconciliationDifferenceEvents,
  reconciliationDifferences,
  reconciliationRuns,
  retailers,
  users,
} from "../schema";
import type { Difference, MonthReconciliationFacts } from "../../domain/reconciliation";
import { STATEMENT_TXTYPES } from "../../domain/statements";

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
      // The order's authorisation; a movement with no order (an offer's hold released) names its own intent.
      paymentIntentId: sql<
        string | null
      >`case when ${payments.orderId} is null then ${payments.providerRef} else (
        select a.provider_ref from ${payments} a
        where a.order_id = ${payments.orderId} and a.txtype = 'authorization' and a.provider_ref is not null
        order by a.id desc limit 1) end`,
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

function differencesQuery(db: DbOrTx) {
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
      resolutionNote: reconciliationDifferences.resolutionNote,
      resolvedAt: reconciliationDifferences.resolvedAt,
      resolvedByEmail: users.email,
    })
    .from(reconciliationDifferences)
    .leftJoin(payments, eq(payments.id, reconciliationDifferences.paymentId))
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .leftJoin(retailers, eq(retailers.id, payments.retailerId))
    .leftJoin(users, eq(users.id, reconciliationDifferences.resolvedBy));
}

/** Staff's section: the open differences, oldest day first, with the order and retailer when the ledger has them. */
export async function listOpenDifferences(db: DbOrTx, limit = 500) {
  return differencesQuery(db)
    .where(isNull(reconciliationDifferences.resolvedAt))
    .orderBy(asc(reconciliationDifferences.day), asc(reconciliationDifferences.id))
    .limit(limit);
}

/** The differences staff resolved, the latest first, with who resolved each, when and the note. */
export async function listResolvedDifferences(db: DbOrTx, limit = 20) {
  return differencesQuery(db)
    .where(isNotNull(reconciliationDifferences.resolvedAt))
    .orderBy(desc(reconciliationDifferences.resolvedAt), desc(reconciliationDifferences.id))
    .limit(limit);
}

/**
 * Staff resolve an open difference with a note: the row and its audit in one transaction. False when it is not
 * open (resolved meanwhile by someone else, or no such difference): nothing written.
 */
export async function resolveDifference(
  db: Db,
  input: { differenceId: number; actorId: number; note: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(reconciliationDifferences)
      .set({ resolutionNote: input.note, resolvedBy: input.actorId, resolvedAt: sql`now()` })
      .where(
        and(
          eq(reconciliationDifferences.id, input.differenceId),
          isNull(reconciliationDifferences.resolvedAt),
        ),
      )
      .returning({ id: reconciliationDifferences.id });
    if (ended.length === 0) return false;
    await tx.insert(reconciliationDifferenceEvents).values({
      differenceId: input.differenceId,
      actorId: input.actorId,
      action: "resolved",
      note: input.note,
    });
    return true;
  });
}

/** A difference's audit, oldest first, with the actor's e-mail (null: the platform). */
export async function listDifferenceEvents(db: DbOrTx, differenceId: number) {
  return db
    .select({
      action: reconciliationDifferenceEvents.action,
      note: reconciliationDifferenceEvents.note,
      at: reconciliationDifferenceEvents.at,
      actorEmail: users.email,
    })
    .from(reconciliationDifferenceEvents)
    .leftJoin(users, eq(users.id, reconciliationDifferenceEvents.actorId))
    .where(eq(reconciliationDifferenceEvents.differenceId, differenceId))
    .orderBy(asc(reconciliationDifferenceEvents.at), asc(reconciliationDifferenceEvents.id));
}

/** A finished run, once per workflow run (its last activity retried writes nothing twice). */
export async function recordRun(
  db: DbOrTx,
  run: { runId: string; day: string; checked: number; listed: number | null; recorded: number },
): Promise<void> {
  await db.insert(reconciliationRuns).values(run).onConflictDoNothing();
}

/** The differences on a retailer's statement movements of [from, to): how many are open, the last resolved. */
export function monthDifferencesQuery(
  db: DbOrTx,
  retailerId: number,
  range: { from: Date; to: Date },
) {
  return db
    .select({
      open: sql<number>`count(*) filter (where ${reconciliationDifferences.resolvedAt} is null)::int`,
      lastResolvedAt: max(reconciliationDifferences.resolvedAt),
    })
    .from(reconciliationDifferences)
    .innerJoin(payments, eq(payments.id, reconciliationDifferences.paymentId))
    .where(
      and(
        eq(payments.retailerId, retailerId),
        inArray(payments.txtype, [...STATEMENT_TXTYPES]),
        gte(payments.createdAt, range.from),
        lt(payments.createdAt, range.to),
      ),
    );
}

/**
 * What says whether a retailer's movements of [from, to) are reconciled (domain/reconciliation.ts
 * monthReconciledAt): the first finished run of each of `days`, and the differences on its statement's
 * movements of the range, open and resolved. A difference no ledger row holds is on no retailer's statement.
 */
export async function monthReconciliationFacts(
  db: DbOrTx,
  retailerId: number,
  range: { from: Date; to: Date },
  days: readonly string[],
): Promise<MonthReconciliationFacts> {
  const [runs, [diffs]] = await Promise.all([
    days.length === 0
      ? []
      : db
          .select({ day: reconciliationRuns.day, finishedAt: min(reconciliationRuns.finishedAt) })
          .from(reconciliationRuns)
          .where(inArray(reconciliationRuns.day, [...days]))
          .groupBy(reconciliationRuns.day),
    monthDifferencesQuery(db, retailerId, range),
  ]);
  return {
    runs: runs.flatMap((r) => (r.finishedAt ? [{ day: r.day, finishedAt: r.finishedAt }] : [])),
    openDifferences: diffs?.open ?? 0,
    lastResolvedAt: diffs?.lastResolvedAt ?? null,
  };
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

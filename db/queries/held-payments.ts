/**
 * Held money movements (docs/decisions/0044-payments-needing-attention.md): a movement the provider refused, or
 * that could not be sent, is held (held_payments) with its reason, what lets it go again and the key of its
 * latest attempt; the retailer concerned is told in the same transaction (an outbox row); staff list the open
 * ones on "Payments needing attention" and end each one (paid on a new attempt, settled outside the
 * platform, written off). Every change writes a held_payment_events row (the audit).
 */
import { and, asc, desc, eq, isNull, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import {
  heldPaymentEvents,
  heldPayments,
  orders,
  outboxEmails,
  payments,
  retailers,
  users,
} from "../schema";
import {
  heldDigestMail,
  heldNotice,
  NO_CARD,
  NO_PAYOUT_ACCOUNT,
  PAYMENTS_ATTENTION_PERMISSION,
  RESOLVED_STATUS,
  type HeldNeed,
  type HeldResolution,
} from "../../domain/held-payments";
import { retailerNoticeAddress } from "./order-steps";

export interface HoldInput {
  /** The held movement's idempotency key (payments.idempotency_key). */
  idempotencyKey: string;
  /** The provider's refusal code, or NO_CARD / NO_PAYOUT_ACCOUNT. */
  reason: string;
  need: HeldNeed;
  /** What a new attempt sends besides the card or account read then (paymentIntentId, transferGroup, ...). */
  retry: Record<string, unknown>;
  /** payments.status left on the row ("failed:<code>", or "queued" when it was never sent). */
  status: string;
  releasedAt?: Date;
}

/** Who the audit says did it: a staff user, or null (the platform: a workflow). */
type Actor = number | null;

async function audit(tx: DbOrTx, paymentId: number, actorId: Actor, action: string, note?: string) {
  await tx.insert(heldPaymentEvents).values({ paymentId, actorId, action, note: note ?? null });
}

/** The retailer's notice of a held movement (the e-mail; the alert is the open row itself), once per attempt. */
async function tellRetailer(
  tx: DbOrTx,
  p: typeof payments.$inferSelect,
  need: HeldNeed,
  attempt: number,
) {
  const to = await retailerNoticeAddress(tx, p.retailerId);
  if (!to) return;
  const [order] = p.orderId
    ? await tx
        .select({ externalId: orders.externalId })
        .from(orders)
        .where(eq(orders.id, p.orderId))
    : [];
  const mail = heldNotice({
    kind: p.txtype,
    amountCents: p.amountCents,
    orderExternalId: order?.externalId ?? null,
    need,
  });
  await tx
    .insert(outboxEmails)
    .values({
      toEmail: to,
      subject: mail.subject,
      bodyText: mail.text,
      kind: "payment:held",
      dedupeKey: `held-payment:${p.id}:${attempt}`,
      status: "queued",
    })
    .onConflictDoNothing();
}

/**
 * Holds a movement: its payments row stays queued with `status`, a held_payments row (once: a retried activity
 * finds it), the audit's "held" and the retailer's notice, in one transaction.
 */
export async function holdPayment(db: Db, input: HoldInput): Promise<{ paymentId: number }> {
  return db.transaction(async (tx) => {
    const [p] = await tx
      .update(payments)
      .set({
        status: input.status,
        providerRef: null,
        queued: true,
        ...(input.releasedAt ? { releasedAt: input.releasedAt } : {}),
        modifiedAt: sql`now()`,
      })
      .where(eq(payments.idempotencyKey, input.idempotencyKey))
      .returning();
    if (!p) throw new Error(`payment ${input.idempotencyKey} not found`);
    const held = await tx
      .insert(heldPayments)
      .values({
        paymentId: p.id,
        reason: input.reason,
        need: input.need,
        lastKey: input.idempotencyKey,
        retry: input.retry,
      })
      .onConflictDoNothing()
      .returning({ paymentId: heldPayments.paymentId });
    if (held.length > 0) {
      await audit(tx, p.id, null, "held", input.reason);
      await tellRetailer(tx, p, input.need, 1);
    }
    return { paymentId: p.id };
  });
}

const heldColumns = {
  paymentId: heldPayments.paymentId,
  orderId: payments.orderId,
  orderExternalId: orders.externalId,
  retailerId: payments.retailerId,
  storeName: retailers.storeName,
  kind: payments.txtype,
  name: payments.name,
  amountCents: payments.amountCents,
  idempotencyKey: payments.idempotencyKey,
  reason: heldPayments.reason,
  need: heldPayments.need,
  attempts: heldPayments.attempts,
  lastKey: heldPayments.lastKey,
  retry: heldPayments.retry,
  heldAt: heldPayments.heldAt,
  lastTriedAt: heldPayments.lastTriedAt,
  resolution: heldPayments.resolution,
  resolutionNote: heldPayments.resolutionNote,
  resolvedBy: heldPayments.resolvedBy,
  resolvedAt: heldPayments.resolvedAt,
};

function heldQuery(db: DbOrTx) {
  return db
    .select(heldColumns)
    .from(heldPayments)
    .innerJoin(payments, eq(payments.id, heldPayments.paymentId))
    .innerJoin(retailers, eq(retailers.id, payments.retailerId))
    .leftJoin(orders, eq(orders.id, payments.orderId));
}

export type HeldPaymentRow = Awaited<ReturnType<typeof getHeldPayment>> & object;

/** One held movement (open or ended), or null. */
export async function getHeldPayment(db: DbOrTx, paymentId: number) {
  const [row] = await heldQuery(db).where(eq(heldPayments.paymentId, paymentId));
  return row ?? null;
}

/** Staff's list: every open held movement, oldest first (the one waiting longest on top). */
export async function listOpenHeldPayments(db: DbOrTx, limit = 500) {
  return heldQuery(db)
    .where(isNull(heldPayments.resolvedAt))
    .orderBy(asc(heldPayments.heldAt), asc(heldPayments.paymentId))
    .limit(limit);
}

/** A retailer's open held movements (its alert), newest first. */
export async function listRetailerHeldPayments(db: DbOrTx, retailerId: number) {
  return heldQuery(db)
    .where(and(isNull(heldPayments.resolvedAt), eq(payments.retailerId, retailerId)))
    .orderBy(desc(heldPayments.heldAt));
}

/**
 * The retailer has just done what its held movements of `need` wait for (added a card, set up its payout
 * account): each is marked due, for the worker's relay to start its retry. Returns how many.
 */
export async function markHeldPaymentsDue(
  db: DbOrTx,
  retailerId: number,
  need: HeldNeed,
): Promise<number> {
  const rows = await db
    .update(heldPayments)
    .set({ retryDueAt: sql`now()` })
    .where(
      and(
        isNull(heldPayments.resolvedAt),
        eq(heldPayments.need, need),
        sql`${heldPayments.paymentId} in (select ${payments.id} from ${payments} where ${payments.retailerId} = ${retailerId})`,
      ),
    )
    .returning({ id: heldPayments.paymentId });
  return rows.length;
}

/** Open held movements due for a retry (oldest first), with the attempts each has had. */
export async function dueHeldPayments(
  db: DbOrTx,
  limit: number,
): Promise<{ paymentId: number; attempts: number; dueAt: Date }[]> {
  const rows = await db
    .select({
      paymentId: heldPayments.paymentId,
      attempts: heldPayments.attempts,
      dueAt: heldPayments.retryDueAt,
    })
    .from(heldPayments)
    .where(and(isNull(heldPayments.resolvedAt), sql`${heldPayments.retryDueAt} <= now()`))
    .orderBy(asc(heldPayments.retryDueAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, dueAt: r.dueAt! }));
}

/** Its retry was started: no longer due (unless marked again since `dueAt`). */
export async function clearHeldPaymentDue(
  db: DbOrTx,
  paymentId: number,
  dueAt: Date,
): Promise<void> {
  await db
    .update(heldPayments)
    .set({ retryDueAt: null })
    .where(and(eq(heldPayments.paymentId, paymentId), lte(heldPayments.retryDueAt, dueAt)));
}

/**
 * Claims a new attempt after the provider said the latest (`lastKey`) did not happen: the key moves on to
 * `nextKey` only if it is still `lastKey` and the movement is open, so two retries at once make one attempt.
 */
export async function claimNewAttempt(
  db: Db,
  input: { paymentId: number; lastKey: string; nextKey: string; actorId: Actor },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(heldPayments)
      .set({
        lastKey: input.nextKey,
        attempts: sql`${heldPayments.attempts} + 1`,
        lastTriedAt: sql`now()`,
      })
      .where(
        and(
          eq(heldPayments.paymentId, input.paymentId),
          eq(heldPayments.lastKey, input.lastKey),
          isNull(heldPayments.resolvedAt),
        ),
      )
      .returning({ id: heldPayments.paymentId });
    if (rows.length === 0) return false;
    await audit(tx, input.paymentId, input.actorId, "retried", input.nextKey);
    return true;
  });
}

/** The provider took it (on a new attempt, or the first one after all): the movement is done. */
export async function markHeldPaid(
  db: Db,
  input: { paymentId: number; status: string; providerRef: string; actorId: Actor },
): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(heldPayments)
      .set({
        resolution: "paid" satisfies HeldResolution,
        resolvedAt: sql`now()`,
        resolvedBy: input.actorId,
      })
      .where(and(eq(heldPayments.paymentId, input.paymentId), isNull(heldPayments.resolvedAt)))
      .returning({ id: heldPayments.paymentId });
    if (ended.length === 0) return;
    await tx
      .update(payments)
      .set({
        status: input.status,
        providerRef: input.providerRef,
        queued: false,
        modifiedAt: sql`now()`,
      })
      .where(eq(payments.id, input.paymentId));
    await audit(tx, input.paymentId, input.actorId, "paid", input.providerRef);
  });
}

/** A new attempt was refused too: the movement stays held with the new reason; the retailer is told again. */
export async function markHeldRefusedAgain(
  db: Db,
  input: { paymentId: number; reason: string; actorId: Actor },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [h] = await tx
      .update(heldPayments)
      .set({ reason: input.reason })
      .where(and(eq(heldPayments.paymentId, input.paymentId), isNull(heldPayments.resolvedAt)))
      .returning();
    if (!h) return;
    const never = input.reason === NO_CARD || input.reason === NO_PAYOUT_ACCOUNT;
    const [p] = await tx
      .update(payments)
      .set({ status: never ? "queued" : `failed:${input.reason}`, modifiedAt: sql`now()` })
      .where(eq(payments.id, input.paymentId))
      .returning();
    await audit(tx, input.paymentId, input.actorId, "refused", input.reason);
    if (p) await tellRetailer(tx, p, h.need as HeldNeed, h.attempts);
  });
}

/**
 * Staff end an open held movement without the provider: settled outside the platform (with a note) or written
 * off. False when it is no longer open (paid meanwhile, or ended by someone else): nothing written.
 */
export async function resolveHeldPayment(
  db: Db,
  input: {
    paymentId: number;
    actorId: number;
    resolution: Exclude<HeldResolution, "paid">;
    note: string | null;
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(heldPayments)
      .set({
        resolution: input.resolution,
        resolutionNote: input.note,
        resolvedBy: input.actorId,
        resolvedAt: sql`now()`,
      })
      .where(and(eq(heldPayments.paymentId, input.paymentId), isNull(heldPayments.resolvedAt)))
      .returning({ id: heldPayments.paymentId });
    if (ended.length === 0) return false;
    await tx
      .update(payments)
      .set({ status: RESOLVED_STATUS[input.resolution], queued: false, modifiedAt: sql`now()` })
      .where(eq(payments.id, input.paymentId));
    await audit(tx, input.paymentId, input.actorId, input.resolution, input.note ?? undefined);
    return true;
  });
}

/** A held movement's audit, oldest first, with the actor's e-mail (null: the platform). */
export async function listHeldPaymentEvents(db: DbOrTx, paymentId: number) {
  return db
    .select({
      action: heldPaymentEvents.action,
      note: heldPaymentEvents.note,
      at: heldPaymentEvents.at,
      actorEmail: users.email,
    })
    .from(heldPaymentEvents)
    .leftJoin(users, eq(users.id, heldPaymentEvents.actorId))
    .where(eq(heldPaymentEvents.paymentId, paymentId))
    .orderBy(asc(heldPaymentEvents.at), asc(heldPaymentEvents.id));
}

/** Active staff users holding the "Payments needing attention" permission: who gets the daily list. */
export async function heldPaymentsStaff(db: DbOrTx): Promise<{ id: number; email: string }[]> {
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.isStaff, true),
        isNull(users.deactivatedAt),
        sql`${PAYMENTS_ATTENTION_PERMISSION} = any(${users.adminPermissions})`,
      ),
    )
    .orderBy(asc(users.id));
}

/**
 * The daily e-mail of what is open, one per staff user with the permission (dedupe `held-digest:<day>:<user>`,
 * so a schedule's retried run mails once); none on a day when nothing is open. Returns the e-mails queued.
 */
export async function queueHeldPaymentsDigest(db: Db, day: string, now: Date): Promise<number> {
  const open = await listOpenHeldPayments(db);
  if (open.length === 0) return 0;
  const mail = heldDigestMail(open, now);
  const staff = await heldPaymentsStaff(db);
  let queued = 0;
  for (const s of staff) {
    const rows = await db
      .insert(outboxEmails)
      .values({
        toEmail: s.email,
        subject: mail.subject,
        bodyText: mail.text,
        kind: "payment:held-digest",
        dedupeKey: `held-digest:${day}:${s.id}`,
        status: "queued",
      })
      .onConflictDoNothing()
      .returning({ id: outboxEmails.id });
    queued += rows.length;
  }
  return queued;
}

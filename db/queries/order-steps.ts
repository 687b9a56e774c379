/**
 * One step of an order process written to the read model (docs/product/orders.md): the buy, swap and RMA
 * workflows' record*State activities (db/queries/orders.ts, swap-orders.ts, rmas.ts) each say what their step
 * changes, and recordStep writes it the same way for all three, in one transaction:
 *   1. the order row, only when the step is newer than the row (its write sequence above the row's
 *      record_seq): the UPDATE takes the row lock and checks the sequence against the row it locked;
 *   2. the rest of a newer step under that lock (its lines, its parcels), written by the kind;
 *      An order leaving the states waiting for an answer withdraws the listings a stock import marked
 *      (withdrawAfterOrderStep, db/queries/deferred-withdrawals.ts);
 *   3. always, the step's action rows and its notices' outbox rows, deduplicated by the write's key: an
 *      earlier step's write finishing after a later one (or a retry of the last) changes no state, and its
 *      history is still written once.
 * A write for an order row that is gone (a draft withdrawn from the cart) is a no-op: { recorded: false }.
 */
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../client";
import {
  orderActions,
  orders,
  outboxEmails,
  retailerContacts,
  retailers,
  shipments,
  users,
} from "../schema";
import { withdrawAfterOrderStep } from "./deferred-withdrawals";

export interface OrderActionWrite {
  code: number;
  role: string;
  participantId: number | null;
  statename: string;
  /** ISO instant (the workflow's clock). */
  at: string;
}

/** An e-mail to a retailer's notice address (store e-mail, else its first contact's). */
export interface OrderNoticeWrite {
  retailerId: number;
  subject: string;
  text: string;
  kind: string;
  dedupeKey: string;
}

/** An e-mail to every staff member (its dedupe key is made per staff member). */
export type StaffNoticeWrite = Omit<OrderNoticeWrite, "retailerId">;

/** The order's two parties, as the locked row holds them. */
export interface OrderParties {
  providerId: number;
  receiverId: number;
}

/** The state a step leaves the order in: the row's columns, also stamped on the step's action rows. */
export interface StepState {
  statename: string;
  displayStatus: string;
  stage: string;
  completed: boolean | null;
  actionNeeded: string | null;
}

export interface OrderStep {
  orderId: number;
  /** The workflow's write sequence; without one (a buy write) the step is always newer and record_seq stays. */
  sequence: number | undefined;
  dedupeKey: string;
  state: StepState;
  /** The kind's other columns of the order row (amounts, ledger, reasons, deadlines...). */
  columns: PgUpdateSetSource<typeof orders>;
  /** The rest of a newer step, under the row lock: lines, parcels. */
  whenNewer?: (tx: DbOrTx, parties: OrderParties) => Promise<void>;
  /** The step's action rows (the parties for actions that name them by side). */
  actions: (parties: OrderParties) => OrderActionWrite[];
  notices: OrderNoticeWrite[];
  staffNotices?: StaffNoticeWrite[];
}

/** The step's order, sequence, key and state from a write that names them so (the buy's and the swap's). */
export function stepOf(
  w: StepState & { orderId: number; sequence?: number; dedupeKey: string },
): Pick<OrderStep, "orderId" | "sequence" | "dedupeKey" | "state"> {
  const { statename, displayStatus, stage, completed, actionNeeded } = w;
  return {
    orderId: w.orderId,
    sequence: w.sequence,
    dedupeKey: w.dedupeKey,
    state: { statename, displayStatus, stage, completed, actionNeeded },
  };
}

/** The step's reasons merged into the row's (those stored before, e.g. checkout's sell_reason), as the column's new value. */
export function mergedReasons(reasons: Record<string, number>): SQL {
  return sql`${orders.reasons} || ${JSON.stringify(reasons)}::jsonb`;
}

/** Writes one step of an order (see the module comment). */
export async function recordStep(db: Db, step: OrderStep): Promise<{ recorded: boolean }> {
  return db.transaction(async (tx) => {
    const parties = await updateIfNewer(tx, step);
    if (parties === "gone") return { recorded: false };
    if (parties.newer) {
      await step.whenNewer?.(tx, parties);
      // An order no longer waiting for an answer: a stock import's deferred withdrawal (docs/guides/stock-import.md "Sync").
      await withdrawAfterOrderStep(tx, step.orderId, step.state.statename);
    }
    await insertActions(tx, step, step.actions(parties));
    await queueNotices(tx, step.notices);
    await queueStaffNotices(tx, step.staffNotices ?? []);
    return { recorded: true };
  });
}

/** The order row's update when the step is newer; else the row locked as it is. "gone": no such order. */
async function updateIfNewer(
  tx: DbOrTx,
  step: OrderStep,
): Promise<(OrderParties & { newer: boolean }) | "gone"> {
  const { orderId, sequence } = step;
  const parties = { providerId: orders.providerId, receiverId: orders.receiverId };
  const [updated] = await tx
    .update(orders)
    .set({
      ...step.state,
      ...step.columns,
      ...(sequence !== undefined ? { recordSeq: sequence } : {}),
      modifiedAt: sql`now()`,
    })
    .where(
      sequence === undefined
        ? eq(orders.id, orderId)
        : and(eq(orders.id, orderId), lt(orders.recordSeq, sequence)),
    )
    .returning(parties);
  if (updated) return { ...updated, newer: true };
  const [row] = await tx.select(parties).from(orders).where(eq(orders.id, orderId)).for("update");
  return row ? { ...row, newer: false } : "gone";
}

/** The action rows of one step (order_actions; a retried write adds none twice). */
async function insertActions(
  tx: DbOrTx,
  step: OrderStep,
  actions: OrderActionWrite[],
): Promise<void> {
  if (actions.length === 0) return;
  await tx
    .insert(orderActions)
    .values(
      actions.map((a) => ({
        orderId: step.orderId,
        code: a.code,
        role: a.role,
        participantId: a.participantId,
        statename: a.statename,
        displayStatus: step.state.displayStatus,
        complete: step.state.completed !== null,
        dedupeKey: step.dedupeKey,
        createdAt: new Date(a.at),
      })),
    )
    .onConflictDoNothing();
}

/** Shipment read-model status that follows an order state (only moves forward). */
const SHIPMENT_STATUS_FOR_STATE: Record<string, { status: string; from: string[] }> = {
  in_route: { status: "in_route", from: ["pickup_scheduled"] },
  delivered: { status: "delivered", from: ["pickup_scheduled", "in_route"] },
  completed: { status: "delivered", from: ["pickup_scheduled", "in_route"] },
  cancelled: { status: "cancelled", from: ["pickup_scheduled"] },
};

/** The order's shipments follow its new state (in_route, delivered, cancelled); never backwards. */
export async function shipmentsFollow(
  tx: DbOrTx,
  orderId: number,
  statename: string,
): Promise<void> {
  const ship = SHIPMENT_STATUS_FOR_STATE[statename];
  if (!ship) return;
  await tx
    .update(shipments)
    .set({ status: ship.status, modifiedAt: sql`now()` })
    .where(and(eq(shipments.orderId, orderId), inArray(shipments.status, ship.from)));
}

/**
 * Who to e-mail for a retailer (its store e-mail, else its first contact's; null when neither), as an SQL
 * expression over the `retailers` row in scope: retailerNoticeAddress reads it, queueNotices inserts with it.
 * Only in raw `sql` statements: a one-table drizzle select leaves column names unqualified, and the subquery's
 * "id" would then be the contact's.
 */
const noticeAddress = sql<
  string | null
>`coalesce(nullif(${retailers.storeEmail}, ''), (select nullif(${retailerContacts.email}, '') from ${retailerContacts} where ${retailerContacts.retailerId} = ${retailers.id} order by ${retailerContacts.id} limit 1))`;

/** Who to e-mail for a retailer: its store e-mail, else its first contact's. */
export async function retailerNoticeAddress(
  db: DbOrTx,
  retailerId: number,
): Promise<string | null> {
  const [r] = await db.execute<{ to: string | null }>(
    sql`select ${noticeAddress} as "to" from ${retailers} where ${retailers.id} = ${retailerId}`,
  );
  return r?.to ?? null;
}

/**
 * Queues notices in the outbox, one statement each: the address is found in the INSERT (noticeAddress), and a
 * retailer without any address gets none (pages still show the state). A dedupe key already used is skipped
 * (a retried step mails once).
 */
async function queueNotices(tx: DbOrTx, notices: OrderNoticeWrite[]): Promise<void> {
  const col = (c: { name: string }) => sql.identifier(c.name);
  for (const n of notices) {
    await tx.execute(sql`
      insert into ${outboxEmails} (${col(outboxEmails.toEmail)}, ${col(outboxEmails.subject)}, ${col(outboxEmails.bodyText)}, ${col(outboxEmails.kind)}, ${col(outboxEmails.dedupeKey)}, ${col(outboxEmails.status)})
      select ${noticeAddress}, ${n.subject}, ${n.text}, ${n.kind}, ${n.dedupeKey}, 'queued' from ${retailers}
      where ${retailers.id} = ${n.retailerId} and ${noticeAddress} is not null
      on conflict do nothing`);
  }
}

/** Queues each notice for every staff member (dedupe key `${key}:${staff user id}`). */
async function queueStaffNotices(tx: DbOrTx, notices: StaffNoticeWrite[]): Promise<void> {
  if (notices.length === 0) return;
  const staff = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.isStaff, true));
  for (const n of notices) {
    for (const s of staff) {
      await tx
        .insert(outboxEmails)
        .values({
          toEmail: s.email,
          subject: n.subject,
          bodyText: n.text,
          kind: n.kind,
          dedupeKey: `${n.dedupeKey}:${s.id}`,
          status: "queued",
        })
        .onConflictDoNothing();
    }
  }
}

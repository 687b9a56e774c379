/**
 * Read-model writes of the buy workflow (its recordOrderState activity) and the reads its activities need
 * (conflicting pending orders, who the parties are). Pages read these rows.
 *
 * recordOrderState: one step of an order, written by recordStep (db/queries/order-steps.ts: the row only when
 * the step is newer, then its action rows and notices):
 *   - orders: state name, display status, stage, completed, whose move, amounts, ledger, reasons (merged
 *     into what checkout stored, e.g. sell_reason), deadlines, floor time, the buyer's rating;
 *   - order_contributions: units / quantity / value of each line as it stands and the pending modification;
 *   - shipments: the read-model status follows the order (in_route, delivered, cancelled).
 * The order row is created by checkout (or the sell dialog) before its workflow starts; when it is gone (a
 * draft withdrawn from the cart) the write is a no-op.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import {
  listings,
  orderActions,
  orderContributions,
  orders,
  ratings,
  type SizesMap,
} from "../schema";
import {
  mergedReasons,
  recordStep,
  shipmentsFollow,
  stepOf,
  type OrderActionWrite,
  type OrderNoticeWrite,
  type StepState,
} from "./order-steps";

export interface OrderLineWrite {
  listingId: number | null;
  variationId?: number | null;
  sizes: SizesMap;
  unitPriceCents: number;
}

/** A purchase's step: the state it leaves the order in (StepState) and what else it writes. */
export interface OrderStateWrite extends StepState {
  orderId: number;
  dedupeKey: string;
  /** The workflow's write sequence: a write not newer than the row's record_seq only adds its action rows. */
  sequence?: number;
  isModified: boolean;
  quote: { goodsCents: number; feeCents: number; shippingCents: number; totalCents: number };
  authorizedCents: number;
  capturedCents: number;
  ledger: Record<string, number | boolean>;
  reasons: Record<string, number>;
  deadlines: Record<string, string | null>;
  floorTime?: string | null;
  /** Who of the buyer's store approved it over the placer's limit (set once, by the approval's step). */
  approvedByUserId?: number | null;
  lines: OrderLineWrite[];
  pendingLines: OrderLineWrite[] | null;
  actions: OrderActionWrite[];
  rating?: {
    condition: number;
    packaging: number;
    timeliness: number;
    overall: number;
    comments: string;
  } | null;
  /** E-mails of this step, queued in the outbox in the same transaction (deduplicated by dedupeKey). */
  notices?: OrderNoticeWrite[];
}

export function lineKey(l: { listingId: number | null; variationId?: number | null }): string {
  if (l.listingId !== null && l.listingId !== undefined) return `listing:${l.listingId}`;
  return `variation:${l.variationId ?? "none"}`;
}

function units(sizes: SizesMap): number {
  return Object.values(sizes).reduce((a, n) => a + n, 0);
}

/** The same sizes with the same units (as jsonb compares them: key order aside); null only equals null. */
function sameSizes(a: SizesMap | null, b: SizesMap | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}

/** Whether a contribution row already holds what a read-model write would set on it. */
function contributionHolds(
  row: {
    units: SizesMap;
    quantity: number;
    unitPriceCents: number;
    valueCents: number;
    pendingUnits: SizesMap | null;
  },
  next: {
    units: SizesMap;
    quantity: number;
    unitPriceCents?: number;
    valueCents: number;
    pendingUnits: SizesMap | null;
  },
): boolean {
  return (
    sameSizes(row.units, next.units) &&
    row.quantity === next.quantity &&
    (next.unitPriceCents === undefined || row.unitPriceCents === next.unitPriceCents) &&
    row.valueCents === next.valueCents &&
    sameSizes(row.pendingUnits, next.pendingUnits)
  );
}

/** The goods lines as they stand and the modification waiting for the buyer; a row already holding what the step says is left alone. */
async function syncLines(tx: DbOrTx, w: OrderStateWrite): Promise<void> {
  // Most steps leave the lines as they were (only a modification, an approval of fewer units or a
  // cancellation moves them).
  const contribs = await tx
    .select({
      id: orderContributions.id,
      listingId: orderContributions.listingId,
      variationId: orderContributions.variationId,
      units: orderContributions.units,
      quantity: orderContributions.quantity,
      unitPriceCents: orderContributions.unitPriceCents,
      valueCents: orderContributions.valueCents,
      pendingUnits: orderContributions.pendingUnits,
    })
    .from(orderContributions)
    .where(
      and(
        eq(orderContributions.orderId, w.orderId),
        eq(orderContributions.side, "provider"),
        eq(orderContributions.type, "goods"),
      ),
    );
  const current = new Map(w.lines.map((l) => [lineKey(l), l]));
  const pending = w.pendingLines ? new Map(w.pendingLines.map((l) => [lineKey(l), l])) : null;
  for (const c of contribs) {
    // A line is known by its listing; an offer without a listing by its variation.
    const key = lineKey(c);
    const line = current.get(key);
    const sizes = line ? line.sizes : {};
    const price = line?.unitPriceCents;
    const q = units(sizes);
    const next = {
      units: sizes,
      quantity: q,
      ...(price !== undefined
        ? { unitPriceCents: price, valueCents: price * q }
        : { valueCents: 0 }),
      pendingUnits: pending ? (pending.get(key)?.sizes ?? {}) : null,
    };
    if (contributionHolds(c, next)) continue;
    await tx.update(orderContributions).set(next).where(eq(orderContributions.id, c.id));
  }
}

/** One step of a purchase (see the module comment). */
export async function recordOrderState(db: Db, w: OrderStateWrite): Promise<{ recorded: boolean }> {
  return recordStep(db, {
    ...stepOf(w),
    columns: {
      isModified: w.isModified,
      valueCents: w.quote.goodsCents,
      receiverFeeCents: w.quote.feeCents,
      receiverShippingCents: w.quote.shippingCents,
      receiverGrandTotalCents: w.quote.totalCents,
      authorizedCents: w.authorizedCents,
      capturedCents: w.capturedCents,
      ledger: w.ledger,
      reasons: mergedReasons(w.reasons),
      deadlines: w.deadlines,
      ...(w.floorTime !== undefined && w.floorTime !== null ? { floorTime: w.floorTime } : {}),
      ...(w.approvedByUserId ? { approvedByUserId: w.approvedByUserId } : {}),
      ...(w.rating
        ? { receiverRating: w.rating.overall, receiverRatingComments: w.rating.comments }
        : {}),
    },
    whenNewer: async (tx) => {
      await syncLines(tx, w);
      await shipmentsFollow(tx, w.orderId, w.statename);
    },
    actions: () => w.actions,
    notices: w.notices ?? [],
  });
}

/** States in which an order holds an authorisation and waits for an answer (its units are "pending"). */
export const PENDING_ORDER_STATES = [
  "provider_approve_sale",
  "payment",
  "receiver_approve_modified_purchase",
] as const;

/**
 * Other pending orders of this seller that could no longer be served once `lines` are taken from the
 * listings: for each listing of the lines, the stock left after taking them is compared with what each
 * other pending order asks of that listing (its pending modification when there is one).
 */
export async function findConflictingOrders(
  db: DbOrTx,
  input: {
    orderId: number;
    providerId: number;
    lines: { listingId: number | null; sizes: SizesMap }[];
  },
): Promise<number[]> {
  const listingIds = [
    ...new Set(input.lines.map((l) => l.listingId).filter((x): x is number => x !== null)),
  ];
  if (listingIds.length === 0) return [];
  const stock = new Map<number, SizesMap>();
  for (const l of await db
    .select({ id: listings.id, sizes: listings.sizes })
    .from(listings)
    .where(inArray(listings.id, listingIds))) {
    stock.set(l.id, l.sizes);
  }
  const left = new Map<number, SizesMap>();
  for (const id of listingIds) left.set(id, { ...(stock.get(id) ?? {}) });
  for (const l of input.lines) {
    if (l.listingId === null) continue;
    const m = left.get(l.listingId) as SizesMap;
    for (const [size, n] of Object.entries(l.sizes)) m[size] = (m[size] ?? 0) - n;
  }
  const others = await db
    .select({
      orderId: orders.id,
      listingId: orderContributions.listingId,
      units: orderContributions.units,
      pendingUnits: orderContributions.pendingUnits,
    })
    .from(orders)
    .innerJoin(orderContributions, eq(orderContributions.orderId, orders.id))
    .where(
      and(
        eq(orders.providerId, input.providerId),
        ne(orders.id, input.orderId),
        inArray(orders.statename, [...PENDING_ORDER_STATES]),
        inArray(orderContributions.listingId, listingIds),
      ),
    );
  const out = new Set<number>();
  for (const o of others) {
    const wants = o.pendingUnits ?? o.units;
    const m = left.get(o.listingId as number) ?? {};
    if (Object.entries(wants).some(([size, n]) => n > 0 && n > (m[size] ?? 0))) out.add(o.orderId);
  }
  return [...out].sort((a, b) => a - b);
}

/** The order's state as the read model holds it now (state name, write sequence), or null for no order. */
export async function orderStateMark(
  db: DbOrTx,
  orderId: number,
): Promise<{ statename: string; seq: number } | null> {
  const [row] = await db
    .select({ statename: orders.statename, seq: orders.recordSeq })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row ?? null;
}

/**
 * The order's state name and how many actions of one code it has recorded (the carrier's scans: 110 picked
 * up, 119 delivered; 0 without a code), in one read; null for no order. Staff's simulated carrier event reads
 * it until the workflow has written the step.
 */
export async function orderEventMark(
  db: DbOrTx,
  orderId: number,
  code: number | null,
): Promise<{ statename: string; scans: number } | null> {
  // Columns spelled with their tables: Drizzle writes a one-table select's columns bare, and a bare "id" in the
  // subquery would be the action's.
  const scans =
    code === null
      ? sql<number>`0`
      : sql<number>`(select count(*)::int from ${orderActions} a where a.${sql.identifier(orderActions.orderId.name)} = ${orders}.${sql.identifier(orders.id.name)} and a.${sql.identifier(orderActions.code.name)} = ${code})`;
  const [row] = await db
    .select({ statename: orders.statename, scans: scans.mapWith(Number) })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row ?? null;
}

/** The order row (tests and activities). */
export async function getOrderRow(db: DbOrTx, orderId: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

/** The action rows of an order, oldest first. */
export async function listOrderActions(db: DbOrTx, orderId: number) {
  return db
    .select()
    .from(orderActions)
    .where(eq(orderActions.orderId, orderId))
    .orderBy(orderActions.createdAt, orderActions.id);
}

/** The buyer's (or seller's) rating of an order, once per rater; no-op when the order row is gone. */
export async function saveOrderRating(
  db: DbOrTx,
  input: {
    orderId: number;
    raterId: number;
    rateeId: number;
    role: string;
    stars: { condition: number; packaging: number; timeliness: number; overall: number };
    comments: string;
  },
): Promise<{ saved: boolean }> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.id, input.orderId));
  if (!order) return { saved: false };
  const rows = await db
    .insert(ratings)
    .values({
      orderId: input.orderId,
      raterId: input.raterId,
      rateeId: input.rateeId,
      role: input.role,
      ...input.stars,
      comments: input.comments,
    })
    .onConflictDoNothing()
    .returning({ id: ratings.id });
  return { saved: rows.length > 0 };
}

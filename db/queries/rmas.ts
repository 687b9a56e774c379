/**
 * RMAs (returns) in the read model: an RMA is an order of transaction type 3 for an original order (its
 * `rma_for_id`), provider = the VICTIM (refunded), receiver = the PERPETRATOR (charged), one contribution per
 * line asked back (rma_* fields), its own actions, shipments (the return parcel) and payments
 * (docs/product/money.md, "RMA refund and charge"; docs/product/screens.md, "Staff: RMAs").
 *
 * - createRma: the victim's request (the wizard's lines and contact), checked against the original order:
 *   the victim is a party that received goods, each line is a line it received, at most the units received,
 *   a known reason, one RMA per order and victim. Returns what the RMA's workflow starts with.
 * - recordRmaState: the RMA workflow's read-model write, by recordStep (db/queries/order-steps.ts: one
 *   transaction: the row, staff's decisions on the lines, the actions, the notices' outbox rows); a late
 *   write of an earlier step changes nothing but adds its actions.
 */
import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ACTION } from "../../domain/action-codes";
import { isChoice, RMA_REASON_OTHER, RMA_REASONS } from "../../domain/reasons";
import {
  receivedGoodsSide,
  rmaOrderInputOf,
  type RmaKind,
  type RmaOrderInput,
} from "../../domain/rma-money";
import { rmaNumber } from "../../domain/cart";
import { RMA_DISPLAY_STATUS, TRANSACTION_TYPE, rmaActionNeeded } from "../../domain/states";
import type { Db, DbOrTx } from "../client";
import {
  orderActions,
  orderContributions,
  orders,
  payments,
  products,
  productVariations,
  uploads,
} from "../schema";
import {
  recordStep,
  shipmentsFollow,
  type OrderNoticeWrite,
  type StaffNoticeWrite,
} from "./order-steps";
import { orderPage } from "./order-views/shared";
import { attachRmaUploads } from "./uploads";

export const RMA_REQUEST_ERRORS = Object.freeze({
  not_found: "This order cannot be returned.",
  exists: "An RMA already exists for this order.",
  no_lines: "Choose at least one unit to return.",
  bad_line: "Choose units of this order only.",
  too_many: "You cannot return more units than you received.",
  reason: "Choose a reason for every unit.",
  other_text: "Please describe the reason.",
  pictures: "Your pictures could not be kept: please upload them again.",
} as const);
export type RmaRequestError = keyof typeof RMA_REQUEST_ERRORS;

export interface RmaRequestLine {
  /** The original order's contribution (a goods line the victim received). */
  sourceId: number;
  quantity: number;
  reason: number;
  reasonOther?: string | null;
  /** Stored upload names of the victim's pictures of this line (up to 3; attached to the RMA). */
  pictures?: string[];
}

export interface RmaRequest {
  orderId: number;
  victimId: number;
  /** The user who uploaded the pictures (they must be its own, not yet on a listing or another RMA). */
  uploaderUserId?: number;
  contact: { name: string; email: string; phone: string; packingSlipName: string };
  lines: RmaRequestLine[];
  workflowIdFor(rmaId: number): string;
}

/** What the RMA's workflow starts with (workflows/rma/contract RmaInput, in plain data). */
export interface RmaStart {
  rmaId: number;
  externalId: string;
  workflowId: string;
  orderId: number;
  kind: RmaKind;
  victimId: number;
  perpetratorId: number;
  order: RmaOrderInput;
  lines: {
    lineId: number;
    unitPriceCents: number;
    requestedQuantity: number;
    reason: number;
    otherText: string | null;
  }[];
  victimPaymentIntentId: string | null;
}

export class RmaRequestRefused extends Error {
  constructor(readonly code: RmaRequestError) {
    super(RMA_REQUEST_ERRORS[code]);
    this.name = "RmaRequestRefused";
  }
}

/** The goods lines the victim received on an order: a sale's provider lines (the buyer); a swap's other side's. */
async function receivedLines(
  db: DbOrTx,
  order: { id: number; transactionType: number; providerId: number },
  victimId: number,
) {
  const side = receivedGoodsSide(
    order.transactionType === TRANSACTION_TYPE.SWAP ? "swap" : "sale",
    victimId === order.providerId ? "provider" : "receiver",
  );
  return db
    .select()
    .from(orderContributions)
    .where(
      and(
        eq(orderContributions.orderId, order.id),
        eq(orderContributions.type, "goods"),
        eq(orderContributions.side, side),
      ),
    )
    .orderBy(asc(orderContributions.id));
}

/** The original order as the victim received it (its goods lines; a sale's buyer's fee, shipping and total). */
function rmaOrderOfRows(
  order: {
    transactionType: number;
    receiverFeeCents: number;
    receiverShippingCents: number;
    receiverGrandTotalCents: number;
  },
  received: readonly { quantity: number; valueCents: number }[],
): RmaOrderInput {
  return rmaOrderInputOf(
    order.transactionType === TRANSACTION_TYPE.SALE ? "sale" : "swap",
    received,
    {
      feeCents: order.receiverFeeCents,
      shippingCents: order.receiverShippingCents,
      totalCents: order.receiverGrandTotalCents,
    },
  );
}

/** The victim's request as an RMA order with its lines; refused (RmaRequestRefused) when it cannot be. */
export async function createRma(db: Db, req: RmaRequest): Promise<RmaStart> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, req.orderId)).for("update");
    if (!order || order.transactionType === TRANSACTION_TYPE.RMA)
      throw new RmaRequestRefused("not_found");
    const isSale = order.transactionType === TRANSACTION_TYPE.SALE;
    // A sale's victim is its buyer; either side of a swap may be one.
    const party = isSale
      ? order.receiverId === req.victimId
      : order.providerId === req.victimId || order.receiverId === req.victimId;
    if (!party) throw new RmaRequestRefused("not_found");
    const [existing] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.transactionType, TRANSACTION_TYPE.RMA),
          eq(orders.rmaForId, order.id),
          eq(orders.providerId, req.victimId),
        ),
      );
    if (existing) throw new RmaRequestRefused("exists");

    const received = await receivedLines(tx, order, req.victimId);
    const asked = req.lines.filter((l) => l.quantity > 0);
    if (asked.length === 0) throw new RmaRequestRefused("no_lines");
    const bySource = new Map(received.map((r) => [r.id, r]));
    for (const l of asked) {
      const src = bySource.get(l.sourceId);
      if (!src || !Number.isSafeInteger(l.quantity)) throw new RmaRequestRefused("bad_line");
      if (l.quantity > src.quantity) throw new RmaRequestRefused("too_many");
      if (!isChoice(RMA_REASONS, l.reason)) throw new RmaRequestRefused("reason");
      if (l.reason === RMA_REASON_OTHER && !(l.reasonOther ?? "").trim())
        throw new RmaRequestRefused("other_text");
    }
    const perSource = new Map<number, number>();
    for (const l of asked) perSource.set(l.sourceId, (perSource.get(l.sourceId) ?? 0) + l.quantity);
    for (const [id, n] of perSource)
      if (n > bySource.get(id)!.quantity) throw new RmaRequestRefused("too_many");

    const [{ id }] = await tx.execute<{ id: number }>(
      sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
    );
    const rmaId = Number(id);
    const externalId = rmaNumber(rmaId);
    const workflowId = req.workflowIdFor(rmaId);
    const perpetratorId = req.victimId === order.providerId ? order.receiverId : order.providerId;
    await tx.insert(orders).values({
      id: rmaId,
      externalId,
      workflowId,
      transactionType: TRANSACTION_TYPE.RMA,
      brandId: order.brandId,
      providerId: req.victimId,
      receiverId: perpetratorId,
      statename: "rmarequested",
      displayStatus: RMA_DISPLAY_STATUS.rmarequested,
      actionNeeded: rmaActionNeeded("rmarequested"),
      stage: "rmarequested",
      rmaForId: order.id,
      rmaContactName: req.contact.name,
      rmaContactEmail: req.contact.email,
      rmaContactPhone: req.contact.phone,
      rmaPackingSlipName: req.contact.packingSlipName,
    });
    const inserted = await tx
      .insert(orderContributions)
      .values(
        asked.map((l) => {
          const src = bySource.get(l.sourceId)!;
          return {
            orderId: rmaId,
            side: "receiver",
            type: "goods",
            listingId: src.listingId,
            variationId: src.variationId,
            units: {},
            quantity: 0,
            unitPriceCents: src.unitPriceCents,
            valueCents: 0,
            rmaSourceId: src.id,
            rmaReason: l.reason,
            rmaReasonOther:
              l.reason === RMA_REASON_OTHER ? (l.reasonOther ?? "").trim().slice(0, 500) : null,
            rmaQuantityRequested: l.quantity,
            rmaPictures: (l.pictures ?? []).slice(0, 3),
          };
        }),
      )
      .returning({
        id: orderContributions.id,
        unitPriceCents: orderContributions.unitPriceCents,
        requested: orderContributions.rmaQuantityRequested,
        reason: orderContributions.rmaReason,
        other: orderContributions.rmaReasonOther,
      });

    const pictures = asked.flatMap((l) => (l.pictures ?? []).slice(0, 3));
    if (
      pictures.length > 0 &&
      (req.uploaderUserId === undefined ||
        (await attachRmaUploads(tx, pictures, rmaId, req.uploaderUserId)) !==
          new Set(pictures).size)
    ) {
      throw new RmaRequestRefused("pictures");
    }

    const rmaOrder = rmaOrderOfRows(order, received);
    let victimPaymentIntentId: string | null = null;
    if (isSale) {
      const [capture] = await tx
        .select({ ref: payments.providerRef })
        .from(payments)
        .where(
          and(
            eq(payments.orderId, order.id),
            eq(payments.retailerId, req.victimId),
            eq(payments.txtype, "capture"),
            eq(payments.status, "succeeded"),
          ),
        );
      victimPaymentIntentId = capture?.ref ?? null;
      if (!victimPaymentIntentId) throw new RmaRequestRefused("not_found");
    }
    return {
      rmaId,
      externalId,
      workflowId,
      orderId: order.id,
      kind: isSale ? "sale" : "swap",
      victimId: req.victimId,
      perpetratorId,
      order: rmaOrder,
      lines: inserted.map((r) => ({
        lineId: r.id,
        unitPriceCents: r.unitPriceCents,
        requestedQuantity: r.requested ?? 0,
        reason: r.reason ?? 0,
        otherText: r.other,
      })),
      victimPaymentIntentId,
    };
  });
}

export interface RmaStateWrite {
  rmaId: number;
  dedupeKey: string;
  sequence: number;
  stage: string;
  decisions: { lineId: number; approvedQuantity: number; comment: string | null }[] | null;
  rmaFeeCents: number;
  ledger: Record<string, number | boolean>;
  deadlines: Record<string, string | null>;
  actions: { code: number; role: string; at: string }[];
  /** Notices to the two parties (anonymous texts made by the caller). */
  notices: OrderNoticeWrite[];
  /** Notices to every staff member. */
  staffNotices: StaffNoticeWrite[];
}

const PARTY_ROLE: Record<string, string> = { victim: "provider", perpetrator: "receiver" };
/** true completed, false declined or cancelled, null still open. */
const completedOf = (stage: string): boolean | null =>
  stage === "rmacompleted"
    ? true
    : stage === "rmadeclined" || stage === "rmacancelled"
      ? false
      : null;

/**
 * The state the return parcel's read-model row follows (shipmentsFollow: never backwards): scanned while the
 * RMA ships (the write that records the carrier's first scan), delivered once the RMA is completed, cancelled
 * when the return never shipped. An RMA without a parcel (only missing units) has no row to move.
 */
function returnParcelState(w: Pick<RmaStateWrite, "stage" | "actions">): string {
  if (w.stage === "rmacompleted") return "delivered";
  if (w.stage === "rmacancelled") return "cancelled";
  if (w.stage === "shipping" && w.actions.some((a) => a.code === ACTION.SHIPMENT_PICKED_UP))
    return "in_route";
  return "";
}

/** Staff's decisions on the lines (approved units and comment), applied under the row lock of a newer step. */
async function applyDecisions(
  tx: DbOrTx,
  rmaId: number,
  decisions: NonNullable<RmaStateWrite["decisions"]>,
): Promise<void> {
  const decided = new Map(decisions.map((d) => [d.lineId, d]));
  for (const d of decided.values()) {
    await tx
      .update(orderContributions)
      .set({
        rmaApproved: d.approvedQuantity > 0,
        quantity: d.approvedQuantity,
        valueCents: sql`${d.approvedQuantity} * ${orderContributions.unitPriceCents}`,
        rmaApprovalComment: d.comment,
      })
      .where(and(eq(orderContributions.id, d.lineId), eq(orderContributions.orderId, rmaId)));
  }
}

/** The RMA's value: its lines' units (as staff approved them) at their prices. */
async function writeRmaValue(tx: DbOrTx, rmaId: number): Promise<void> {
  const value = sql`(select coalesce(sum(${orderContributions.quantity} * ${orderContributions.unitPriceCents}), 0)::int from ${orderContributions} where ${orderContributions.orderId} = ${rmaId})`;
  await tx.update(orders).set({ valueCents: value }).where(eq(orders.id, rmaId));
}

/** One step of an RMA, written by recordStep (db/queries/order-steps.ts). */
export async function recordRmaState(db: Db, w: RmaStateWrite): Promise<{ recorded: boolean }> {
  const state = {
    statename: w.stage,
    displayStatus: RMA_DISPLAY_STATUS[w.stage] ?? w.stage,
    stage: w.stage,
    completed: completedOf(w.stage),
    actionNeeded: rmaActionNeeded(w.stage),
  };
  return recordStep(db, {
    orderId: w.rmaId,
    sequence: w.sequence,
    dedupeKey: w.dedupeKey,
    state,
    columns: { rmaFeeCents: w.rmaFeeCents, ledger: w.ledger, deadlines: w.deadlines },
    whenNewer: async (tx) => {
      await applyDecisions(tx, w.rmaId, w.decisions ?? []);
      await writeRmaValue(tx, w.rmaId);
      await shipmentsFollow(tx, w.rmaId, returnParcelState(w));
    },
    actions: (parties) =>
      w.actions.map((a) => ({
        code: a.code,
        role: PARTY_ROLE[a.role] ?? a.role,
        participantId:
          a.role === "victim"
            ? parties.providerId
            : a.role === "perpetrator"
              ? parties.receiverId
              : null,
        statename: w.stage,
        at: a.at,
      })),
    notices: w.notices,
    staffNotices: w.staffNotices,
  });
}

/** The RMA of an order for a victim, if any (the wizard and the order page: "only when no RMA exists"). */
export async function rmaOfOrder(
  db: DbOrTx,
  orderId: number,
  victimId: number,
): Promise<{ id: number; externalId: string; stage: string } | null> {
  const [row] = await db
    .select({ id: orders.id, externalId: orders.externalId, stage: orders.stage })
    .from(orders)
    .where(
      and(
        eq(orders.transactionType, TRANSACTION_TYPE.RMA),
        eq(orders.rmaForId, orderId),
        eq(orders.providerId, victimId),
      ),
    );
  return row ?? null;
}

/**
 * The RMAs of an order that a retailer is party to, as victim or as perpetrator (the order pages link to them:
 * docs/product/screens.md, "My returns"); oldest first.
 */
export async function rmasOfOrderFor(
  db: DbOrTx,
  orderId: number,
  retailerId: number,
): Promise<{ id: number; externalId: string; stage: string; role: RmaSide }[]> {
  const rows = await db
    .select({
      id: orders.id,
      externalId: orders.externalId,
      stage: orders.stage,
      victimId: orders.providerId,
    })
    .from(orders)
    .where(
      and(
        eq(orders.transactionType, TRANSACTION_TYPE.RMA),
        eq(orders.rmaForId, orderId),
        or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)),
      ),
    )
    .orderBy(asc(orders.id));
  return rows.map(({ victimId, ...r }) => ({
    ...r,
    role: victimId === retailerId ? "victim" : "perpetrator",
  }));
}

/** Which side of an RMA a retailer is: the victim (refunded) or the perpetrator (charged). */
export type RmaSide = "victim" | "perpetrator";

/** The status filter of a retailer's RMA list (docs/product/screens.md, "My returns"): the stages it selects. */
export const RETAILER_RMA_FILTERS = Object.freeze({
  all: null,
  open: ["rmarequested", "shipping"],
  rmarequested: ["rmarequested"],
  shipping: ["shipping"],
  rmacompleted: ["rmacompleted"],
  rmadeclined: ["rmadeclined"],
  rmacancelled: ["rmacancelled"],
} as const);
export type RetailerRmaFilter = keyof typeof RETAILER_RMA_FILTERS;

export interface RetailerRmaRow {
  id: number;
  externalId: string;
  stage: string;
  displayStatus: string;
  role: RmaSide;
  /** The other party (shown only as retailer-00{id}). */
  otherId: number;
  rmaForId: number | null;
  rmaForExternalId: string | null;
  rmaForTransactionType: number | null;
  /**
   * What the viewer gets back (victim) or is charged (perpetrator) once staff decided; 0 when the RMA was
   * cancelled; null while staff's decision is awaited.
   */
  amountCents: number | null;
  createdAt: string;
  modifiedAt: string;
}

/**
 * A retailer's RMAs as victim and as perpetrator, newest change first, by status filter, one page
 * (`limit` at most 100, default 25: orderPage).
 */
export async function listRetailerRmas(
  db: DbOrTx,
  retailerId: number,
  opts: { filter?: RetailerRmaFilter; limit?: number; offset?: number; alerts?: boolean } = {},
): Promise<{ items: RetailerRmaRow[]; total: number; limit: number; offset: number }> {
  const stages = RETAILER_RMA_FILTERS[opts.filter ?? "all"];
  const where = and(
    eq(orders.transactionType, TRANSACTION_TYPE.RMA),
    opts.alerts
      ? unseenByPerpetratorSql(retailerId)
      : or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)),
    stages ? inArray(orders.stage, [...stages]) : undefined,
  );
  const original = alias(orders, "original");
  const query = db
    .select({
      r: orders,
      rmaForExternalId: original.externalId,
      rmaForTransactionType: original.transactionType,
      decided: sql<boolean>`exists (select 1 from ${orderContributions} where ${orderContributions.orderId} = ${orders.id} and ${orderContributions.rmaApproved} is not null)`,
    })
    .from(orders)
    .leftJoin(original, eq(original.id, orders.rmaForId))
    .$dynamic();
  const { rows, total, limit, offset } = await orderPage(db, query, where, opts, 25);
  return { items: rows.map((row) => retailerRmaRow(row, retailerId)), total, limit, offset };
}

function retailerRmaRow(
  {
    r,
    rmaForExternalId,
    rmaForTransactionType,
    decided,
  }: {
    r: typeof orders.$inferSelect;
    rmaForExternalId: string | null;
    rmaForTransactionType: number | null;
    decided: boolean;
  },
  retailerId: number,
): RetailerRmaRow {
  const role: RmaSide = r.providerId === retailerId ? "victim" : "perpetrator";
  const owed = r.ledger?.[role === "victim" ? "victimRefundCents" : "perpetratorChargeCents"];
  return {
    id: r.id,
    externalId: r.externalId,
    stage: r.stage,
    displayStatus: r.displayStatus,
    role,
    otherId: role === "victim" ? r.receiverId : r.providerId,
    rmaForId: r.rmaForId,
    rmaForExternalId,
    rmaForTransactionType,
    amountCents: r.stage === "rmacancelled" ? 0 : decided ? Number(owed ?? 0) : null,
    createdAt: r.createdAt.toISOString(),
    modifiedAt: r.modifiedAt.toISOString(),
  };
}

/**
 * The perpetrator's bell (docs/product/screens.md, "Alerts"): an RMA filed against the retailer with a step it
 * has not seen (the victim's request, staff's decision, the return's carrier scans, the settlement). An RMA's
 * actions are marked seen by its perpetrator only (markRmaSeenByPerpetrator), so the victim opening the RMA
 * never clears the other side's alert.
 */
function unseenByPerpetratorSql(retailerId: number): SQL {
  return and(
    eq(orders.receiverId, retailerId),
    sql`EXISTS (SELECT 1 FROM ${orderActions} WHERE ${orderActions.orderId} = ${orders.id} AND ${orderActions.seenAt} IS NULL AND ${orderActions.role} <> 'receiver')`,
  )!;
}

/** The perpetrator opened its RMA: every step so far is seen (its bell alert goes). Returns the number marked. */
export async function markRmaSeenByPerpetrator(
  db: DbOrTx,
  retailerId: number,
  rmaId: number,
  at: Date = new Date(),
): Promise<number> {
  const rows = await db
    .update(orderActions)
    .set({ seenAt: at })
    .where(
      and(
        eq(orderActions.orderId, rmaId),
        isNull(orderActions.seenAt),
        ne(orderActions.role, "receiver"),
        sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${rmaId} AND ${orders.transactionType} = ${TRANSACTION_TYPE.RMA} AND ${orders.receiverId} = ${retailerId})`,
      ),
    )
    .returning({ id: orderActions.id });
  return rows.length;
}

/** Undoes an RMA whose workflow could not be started (the victim may send it again): its row, lines and pictures' hold. */
export async function deleteUnstartedRma(db: Db, rmaId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(uploads).set({ rmaId: null }).where(eq(uploads.rmaId, rmaId));
    await tx
      .delete(orders)
      .where(
        and(
          eq(orders.id, rmaId),
          eq(orders.transactionType, TRANSACTION_TYPE.RMA),
          eq(orders.recordSeq, 0),
        ),
      );
  });
}

/** Lines of several RMAs (staff screens). */
export async function rmaLines(db: DbOrTx, rmaIds: number[]) {
  if (rmaIds.length === 0) return [];
  return db
    .select()
    .from(orderContributions)
    .where(inArray(orderContributions.orderId, rmaIds))
    .orderBy(asc(orderContributions.id));
}

export interface RmaLineView {
  lineId: number;
  productCode: string;
  displayName: string;
  color: string;
  unitPriceCents: number;
  reason: number | null;
  reasonOther: string | null;
  requested: number;
  /** Staff's decision: null pending, true approved, false denied; approved units. */
  approved: boolean | null;
  approvedQuantity: number;
  comment: string | null;
  pictures: string[];
}

export interface RmaPageView {
  id: number;
  externalId: string;
  workflowId: string;
  stage: string;
  displayStatus: string;
  victimId: number;
  perpetratorId: number;
  rmaForId: number | null;
  rmaForExternalId: string | null;
  rmaForTransactionType: number | null;
  /** The original order as the victim received it (what staff's decision is settled against). */
  original: RmaOrderInput | null;
  contact: {
    name: string | null;
    email: string | null;
    phone: string | null;
    packingSlipName: string | null;
  };
  rmaFeeCents: number;
  ledger: Record<string, number | boolean> | null;
  deadlines: Record<string, string | null> | null;
  lines: RmaLineView[];
  createdAt: string;
  modifiedAt: string;
}

/**
 * An RMA with its lines (product, reason, requested, staff's decision, pictures), or null. `original` (what
 * staff's decision is settled against) is read for staff's screens only (`withOriginal`); else it is null.
 */
export async function getRmaView(
  db: DbOrTx,
  rmaId: number,
  { withOriginal = true } = {},
): Promise<RmaPageView | null> {
  if (!Number.isSafeInteger(rmaId) || rmaId <= 0) return null;
  const [r] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, rmaId), eq(orders.transactionType, TRANSACTION_TYPE.RMA)));
  if (!r) return null;
  const [orig] = r.rmaForId ? await db.select().from(orders).where(eq(orders.id, r.rmaForId)) : [];
  const original =
    orig && withOriginal ? rmaOrderOfRows(orig, await receivedLines(db, orig, r.providerId)) : null;
  const lines = await db
    .select({
      c: orderContributions,
      productCode: sql<string>`COALESCE(${productVariations.sku}, '')`,
      color: sql<string>`COALESCE(${productVariations.color}, '')`,
      displayName: sql<string>`COALESCE(${products.displayName}, '')`,
    })
    .from(orderContributions)
    .leftJoin(productVariations, eq(productVariations.id, orderContributions.variationId))
    .leftJoin(products, eq(products.id, productVariations.productId))
    .where(eq(orderContributions.orderId, rmaId))
    .orderBy(asc(orderContributions.id));
  return {
    id: r.id,
    externalId: r.externalId,
    workflowId: r.workflowId,
    stage: r.stage,
    displayStatus: r.displayStatus,
    victimId: r.providerId,
    perpetratorId: r.receiverId,
    rmaForId: r.rmaForId,
    rmaForExternalId: orig?.externalId ?? null,
    rmaForTransactionType: orig?.transactionType ?? null,
    original,
    contact: {
      name: r.rmaContactName,
      email: r.rmaContactEmail,
      phone: r.rmaContactPhone,
      packingSlipName: r.rmaPackingSlipName,
    },
    rmaFeeCents: r.rmaFeeCents,
    ledger: r.ledger ?? null,
    deadlines: r.deadlines ?? null,
    lines: lines.map(({ c, productCode, color, displayName }) => ({
      lineId: c.id,
      productCode,
      displayName,
      color,
      unitPriceCents: c.unitPriceCents,
      reason: c.rmaReason,
      reasonOther: c.rmaReasonOther,
      requested: c.rmaQuantityRequested ?? 0,
      approved: c.rmaApproved,
      approvedQuantity: c.quantity,
      comment: c.rmaApprovalComment,
      pictures: c.rmaPictures ?? [],
    })),
    createdAt: r.createdAt.toISOString(),
    modifiedAt: r.modifiedAt.toISOString(),
  };
}

/** RMAs whose ledger (written by every RMA record) has this flag set. */
const ledgerFlag = (flag: "chargeQueued" | "escalated") => sql`${orders.ledger}->>${flag} = 'true'`;

/**
 * The workflows of the RMAs whose charge to this perpetrator is queued (its card was missing or declined):
 * a new card on file signals them to try again.
 */
export async function rmaWorkflowsAwaitingCharge(
  db: DbOrTx,
  perpetratorId: number,
): Promise<string[]> {
  const rows = await db
    .select({ workflowId: orders.workflowId })
    .from(orders)
    .where(
      and(
        eq(orders.transactionType, TRANSACTION_TYPE.RMA),
        eq(orders.receiverId, perpetratorId),
        ledgerFlag("chargeQueued"),
      ),
    )
    .orderBy(asc(orders.id));
  return rows.map((r) => r.workflowId);
}

/** Stages of the admin RMA screen's tabs (all, pending, shipping, completed, declined). */
export const ADMIN_RMA_TABS = Object.freeze({
  all: null,
  pending: "rmarequested",
  shipping: "shipping",
  completed: "rmacompleted",
  declined: "rmadeclined",
} as const);
export type AdminRmaTab = keyof typeof ADMIN_RMA_TABS;

/**
 * The admin RMA screen's status filter (beside the tabs): each stage, cancelled (the return never shipped),
 * staff's answer overdue (escalated, still pending) and a perpetrator's charge queued for a card.
 */
export const ADMIN_RMA_STATUSES = Object.freeze([
  "rmarequested",
  "overdue",
  "shipping",
  "rmacancelled",
  "rmacompleted",
  "charge_queued",
  "rmadeclined",
] as const);
export type AdminRmaStatus = (typeof ADMIN_RMA_STATUSES)[number];

function statusWhere(status: AdminRmaStatus | undefined) {
  if (status === undefined) return undefined;
  if (status === "overdue") return and(eq(orders.stage, "rmarequested"), ledgerFlag("escalated"));
  if (status === "charge_queued") return ledgerFlag("chargeQueued");
  return eq(orders.stage, status);
}

/** Staff's RMA list: newest change first, by tab and status, with the parties' store names (staff see names). */
export async function listAdminRmas(
  db: DbOrTx,
  opts: { tab: AdminRmaTab; status?: AdminRmaStatus; limit?: number; offset?: number },
) {
  const stage = ADMIN_RMA_TABS[opts.tab];
  const where = and(
    eq(orders.transactionType, TRANSACTION_TYPE.RMA),
    stage ? eq(orders.stage, stage) : undefined,
    statusWhere(opts.status),
  );
  // The original order, joined under its own name: a subquery's unqualified column would read the subquery's row.
  const rmaFor = alias(orders, "rma_for");
  const query = db
    .select({
      id: orders.id,
      externalId: orders.externalId,
      stage: orders.stage,
      displayStatus: orders.displayStatus,
      victimId: orders.providerId,
      perpetratorId: orders.receiverId,
      victimName: sql<string>`(SELECT store_name FROM retailers WHERE id = ${orders.providerId})`,
      perpetratorName: sql<string>`(SELECT store_name FROM retailers WHERE id = ${orders.receiverId})`,
      rmaForExternalId: rmaFor.externalId,
      modifiedAt: orders.modifiedAt,
    })
    .from(orders)
    .leftJoin(rmaFor, eq(rmaFor.id, orders.rmaForId))
    .$dynamic();
  const { rows, total, limit, offset } = await orderPage(db, query, where, opts, 25);
  return {
    items: rows.map((r) => ({ ...r, modifiedAt: r.modifiedAt.toISOString() })),
    total,
    limit,
    offset,
  };
}

/**
 * Read-model queries of the order pages (spec 001 §2 Alerts / Orders / Detail, spec 002 §2.8 admin
 * transactions): what /alerts, /orders, /transaction/:ttype/:id, the packing slip, the rating screen and the
 * staff screens show. The buy workflow's activities WRITE these tables (db/queries/orders.ts); this module
 * only reads them, plus the seen-marking of order_actions.
 *
 * Anonymity (decisions.md "Names that users see"): store names are selected ONLY when the viewer is staff;
 * a retailer's views carry the other party as `retailer-00{id}` and nothing else (no name, e-mail, phone or
 * address is read for them at all).
 *
 * Lists:
 * - alerts (pending): stage pre_shipping, not Declined; declined view: display status Declined only (an
 *   expired order is in neither list: spec 001 §2).
 *   A seller never sees a buyer's draft still in checkout (complete_order_checkout of an order from a
 *   listing: it is the buyer's cart until the card is pre-authorised); nor a swap's provider the receiver's.
 * - orders (approved): stages approved, shipping, delivered, complete, cancelled; "Delivered" filter: a
 *   delivered shipment.
 * - counters: per kind, pending orders where it is the viewer's move (bell badges), and of those the ones
 *   with an action the viewer has not seen (the action count that seen-marking clears).
 */
import { and, asc, desc, eq, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { displayRetailer } from "../../domain/anonymity";
import { ACTION, actionLabel } from "../../domain/action-codes";
import { currentReasons, reasonLabel, rmaReasonCountsForShipping } from "../../domain/reasons";
import { swapLedger, swapOutcomeOf, swapSettlement } from "../../domain/swap-money";
import { REASON_PREFIX_OTHER, REASON_PREFIX_YOU } from "../../domain/messages";
import { DISPLAY_STATUS, isAdminStage, isMoveOf, roleOf, stagesOfAdminStage, SWAP_STATES, transactionTypeLabel, TRANSACTION_TYPE, type AdminStage, type Role, type TransactionType } from "../../domain/states";
import {
  brands,
  orderActions,
  orderContributions,
  orders,
  payments,
  productVariations,
  products,
  ratings,
  retailers,
  shipmentEvents,
  shipments,
} from "../schema";
import { staleCartDraftSql } from "./checkout";
import type { DbOrTx } from "./listings";
import { builtOnce } from "../built-once";

export type OrderKindTab = "sales" | "purchases" | "swaps";
export type AlertsView = "pending" | "declined";
export const ORDER_KIND_TABS: readonly OrderKindTab[] = Object.freeze(["sales", "purchases", "swaps"] as const);

export function isOrderKindTab(v: unknown): v is OrderKindTab {
  return v === "sales" || v === "purchases" || v === "swaps";
}

/** Stages of the approved orders screen. */
export const APPROVED_STAGES = Object.freeze(["approved", "shipping", "delivered", "complete", "cancelled"] as const);

/** The detail route's ttype of an order. */
export function ttypeOf(transactionType: number): "buy" | "swap" {
  return transactionType === TRANSACTION_TYPE.SWAP ? "swap" : "buy";
}

// ---------------------------------------------------------------------------------------------------------
// Filters.

/** Orders of one tab for a retailer (sales: it sells; purchases: it buys; swaps: either side). */
function kindFilter(retailerId: number, kind: OrderKindTab): SQL {
  switch (kind) {
    case "sales":
      return and(
        eq(orders.transactionType, TRANSACTION_TYPE.SALE),
        eq(orders.providerId, retailerId),
        // The buyer's cart draft is not the seller's business until checkout is complete.
        sql`NOT (${orders.statename} = 'complete_order_checkout' AND ${orders.requestId} IS NULL)`,
      )!;
    case "purchases":
      return and(eq(orders.transactionType, TRANSACTION_TYPE.SALE), eq(orders.receiverId, retailerId))!;
    case "swaps":
      return and(
        eq(orders.transactionType, TRANSACTION_TYPE.SWAP),
        or(eq(orders.receiverId, retailerId), and(eq(orders.providerId, retailerId), sql`${orders.statename} <> 'complete_order_checkout'`)),
      )!;
  }
}

/**
 * spec 001 §2: the pending list excludes display_status Declined; the declined view shows only Declined (not
 * Expired). A cart draft older than 24 hours is expired even before expireStaleDrafts writes it down.
 */
function viewFilter(view: AlertsView): SQL {
  return view === "declined"
    ? and(eq(orders.stage, "declined"), eq(orders.displayStatus, DISPLAY_STATUS.DECLINED))!
    : and(eq(orders.stage, "pre_shipping"), ne(orders.displayStatus, DISPLAY_STATUS.DECLINED), sql`NOT ${staleCartDraftSql()}`)!;
}

/** The viewer's role in the row, as SQL. */
function myRoleSql(retailerId: number): SQL<string> {
  return sql<string>`(CASE WHEN ${orders.providerId} = ${retailerId} THEN 'provider' ELSE 'receiver' END)`;
}

/** An action on the order, not the viewer's own, that the viewer has not seen. */
function unseenSql(retailerId: number): SQL<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM ${orderActions} WHERE ${orderActions.orderId} = ${orders.id} AND ${orderActions.seenAt} IS NULL AND ${orderActions.role} <> ${myRoleSql(retailerId)})`;
}

// ---------------------------------------------------------------------------------------------------------
// Cards.

export interface OrderCard {
  id: number;
  externalId: string;
  ttype: "buy" | "swap";
  transactionType: number;
  role: Role;
  /** Sale / Purchase / Swap. */
  typeLabel: string;
  brandName: string | null;
  statename: string;
  displayStatus: string;
  stage: string;
  /** Buyer: the grand total; seller: the goods value; swaps: null (not shown). */
  amountCents: number | null;
  createdAt: string;
  modifiedAt: string;
  myMove: boolean;
  unseen: boolean;
  counterpartyLabel: string;
  units: number;
  /** A swap: the units this side sends and the units it receives (null for a purchase). */
  swapUnits: { sent: number; received: number } | null;
  shipments: { id: number; direction: "Outgoing" | "Incoming"; status: string; trackingNumber: string | null }[];
}

interface CardRow {
  id: number;
  externalId: string;
  transactionType: number;
  providerId: number;
  receiverId: number;
  statename: string;
  displayStatus: string;
  stage: string;
  actionNeeded: string | null;
  valueCents: number;
  receiverGrandTotalCents: number;
  createdAt: Date;
  modifiedAt: Date;
  brandName: string | null;
  unseen: boolean;
  units: number;
  providerUnits: number;
}

function cardSelect(retailerId: number) {
  return {
    id: orders.id,
    externalId: orders.externalId,
    transactionType: orders.transactionType,
    providerId: orders.providerId,
    receiverId: orders.receiverId,
    statename: orders.statename,
    displayStatus: orders.displayStatus,
    stage: orders.stage,
    actionNeeded: orders.actionNeeded,
    valueCents: orders.valueCents,
    receiverGrandTotalCents: orders.receiverGrandTotalCents,
    createdAt: orders.createdAt,
    modifiedAt: orders.modifiedAt,
    brandName: sql<string | null>`COALESCE(NULLIF(${brands.displayName}, ''), ${brands.name})`,
    unseen: unseenSql(retailerId),
    units: sql<number>`COALESCE((SELECT SUM(${orderContributions.quantity}) FROM ${orderContributions} WHERE ${orderContributions.orderId} = ${orders.id} AND ${orderContributions.type} = 'goods'), 0)::int`,
    providerUnits: sql<number>`COALESCE((SELECT SUM(${orderContributions.quantity}) FROM ${orderContributions} WHERE ${orderContributions.orderId} = ${orders.id} AND ${orderContributions.type} = 'goods' AND ${orderContributions.side} = 'provider'), 0)::int`,
  };
}

async function shipmentsOf(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({ id: shipments.id, orderId: shipments.orderId, senderId: shipments.senderId, status: shipments.status, trackingNumber: shipments.trackingNumber })
    .from(shipments)
    .where(inArray(shipments.orderId, orderIds))
    .orderBy(asc(shipments.id));
}

async function toCards(db: DbOrTx, retailerId: number, rows: CardRow[]): Promise<OrderCard[]> {
  const ships = await shipmentsOf(db, rows.map((r) => r.id));
  return rows.map((r) => {
    const role = roleOf(r, retailerId);
    const other = role === "provider" ? r.receiverId : r.providerId;
    const type = r.transactionType as TransactionType;
    return {
      id: r.id,
      externalId: r.externalId,
      ttype: ttypeOf(r.transactionType),
      transactionType: r.transactionType,
      role,
      typeLabel: transactionTypeLabel(type, role),
      brandName: r.brandName,
      statename: r.statename,
      displayStatus: r.displayStatus,
      stage: r.stage,
      amountCents: type === TRANSACTION_TYPE.SWAP ? null : role === "receiver" ? r.receiverGrandTotalCents : r.valueCents,
      createdAt: r.createdAt.toISOString(),
      modifiedAt: r.modifiedAt.toISOString(),
      myMove: isMoveOf(r.actionNeeded, role),
      unseen: r.unseen === true,
      // Never a name: the other party of a retailer's order is anonymous.
      counterpartyLabel: displayRetailer({ id: other }, false, retailerId),
      units: Number(r.units),
      swapUnits:
        type === TRANSACTION_TYPE.SWAP
          ? role === "provider"
            ? { sent: Number(r.providerUnits), received: Number(r.units) - Number(r.providerUnits) }
            : { sent: Number(r.units) - Number(r.providerUnits), received: Number(r.providerUnits) }
          : null,
      shipments: ships
        .filter((s) => s.orderId === r.id)
        .map((s) => ({ id: s.id, direction: s.senderId === retailerId ? ("Outgoing" as const) : ("Incoming" as const), status: s.status, trackingNumber: s.trackingNumber })),
    };
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** Page size default (spec 001 §9: list page size default 4, overridable). */
export const DEFAULT_PAGE_SIZE = 4;
export const MAX_PAGE_SIZE = 100;

function pageArgs(opts: { limit?: number; offset?: number }): { limit: number; offset: number } {
  const limit = Number.isSafeInteger(opts.limit) && opts.limit! > 0 ? Math.min(opts.limit!, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  const offset = Number.isSafeInteger(opts.offset) && opts.offset! >= 0 ? opts.offset! : 0;
  return { limit, offset };
}

/** /alerts: the retailer's pending (or declined) orders of one tab, newest change first. */
export async function listAlerts(
  db: DbOrTx,
  retailerId: number,
  opts: { kind: OrderKindTab; view: AlertsView; limit?: number; offset?: number },
): Promise<Page<OrderCard>> {
  const { limit, offset } = pageArgs(opts);
  return cardPage(db, retailerId, and(kindFilter(retailerId, opts.kind), viewFilter(opts.view)), limit, offset);
}

/** One page of order cards matching `where`, newest change first, with the total count. */
async function cardPage(db: DbOrTx, retailerId: number, where: SQL | undefined, limit: number, offset: number): Promise<Page<OrderCard>> {
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(orders).where(where);
  const rows = await db
    .select(cardSelect(retailerId))
    .from(orders)
    .leftJoin(brands, eq(brands.id, orders.brandId))
    .where(where)
    .orderBy(desc(orders.modifiedAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
  return { items: await toCards(db, retailerId, rows), total, limit, offset };
}

export interface AlertCounters {
  sale_alerts: number;
  purchase_alerts: number;
  swap_alerts: number;
  /** Of those, the orders with an action the retailer has not seen yet (seen-marking clears these). */
  unseen: { sales: number; purchases: number; swaps: number; total: number };
}

/** transactionsummary/alerts: pending orders per kind where it is the retailer's move. */
export async function alertCounters(db: DbOrTx, retailerId: number): Promise<AlertCounters> {
  // The viewer's move, or both sides' (domain/states isMoveOf, as SQL).
  const mine = sql`${orders.actionNeeded} IN ('both', ${myRoleSql(retailerId)})`;
  const unseen = unseenSql(retailerId);
  const sales = kindFilter(retailerId, "sales");
  const purchases = kindFilter(retailerId, "purchases");
  const swaps = kindFilter(retailerId, "swaps");
  const [r] = await db
    .select({
      sales: sql<number>`count(*) FILTER (WHERE ${sales} AND ${mine})::int`,
      purchases: sql<number>`count(*) FILTER (WHERE ${purchases} AND ${mine})::int`,
      swaps: sql<number>`count(*) FILTER (WHERE ${swaps} AND ${mine})::int`,
      unseenSales: sql<number>`count(*) FILTER (WHERE ${sales} AND ${mine} AND ${unseen})::int`,
      unseenPurchases: sql<number>`count(*) FILTER (WHERE ${purchases} AND ${mine} AND ${unseen})::int`,
      unseenSwaps: sql<number>`count(*) FILTER (WHERE ${swaps} AND ${mine} AND ${unseen})::int`,
    })
    .from(orders)
    .where(and(or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)), viewFilter("pending")));
  const u = { sales: r.unseenSales, purchases: r.unseenPurchases, swaps: r.unseenSwaps, total: r.unseenSales + r.unseenPurchases + r.unseenSwaps };
  return { sale_alerts: r.sales, purchase_alerts: r.purchases, swap_alerts: r.swaps, unseen: u };
}

/**
 * transactionactiondetail/seen: marks the other party's (and the system's) actions of these orders as seen
 * by this retailer. Orders it is not a party of are ignored. Returns the number of actions marked.
 */
export async function markOrdersSeen(db: DbOrTx, retailerId: number, orderIds: number[], at: Date = new Date()): Promise<number> {
  const ids = [...new Set(orderIds.filter((n) => Number.isSafeInteger(n) && n > 0))];
  if (ids.length === 0) return 0;
  const rows = await db
    .update(orderActions)
    .set({ seenAt: at })
    .where(
      and(
        inArray(orderActions.orderId, ids),
        isNull(orderActions.seenAt),
        sql`EXISTS (SELECT 1 FROM ${orders} o WHERE o.id = ${orderActions.orderId} AND (o.provider_id = ${retailerId} OR o.receiver_id = ${retailerId})
              AND ${orderActions.role} <> (CASE WHEN o.provider_id = ${retailerId} THEN 'provider' ELSE 'receiver' END))`,
      ),
    )
    .returning({ id: orderActions.id });
  return rows.length;
}

/** /orders: the retailer's approved orders of one tab (optionally only those with a delivered shipment). */
export async function listApprovedOrders(
  db: DbOrTx,
  retailerId: number,
  opts: { kind: OrderKindTab; delivered?: boolean; limit?: number; offset?: number },
): Promise<Page<OrderCard>> {
  const { limit, offset } = pageArgs(opts);
  // A swap the viewer has paid while the other side has not yet is the viewer's too (decisions.md: the payer
  // lands on /orders/sentswaps/): in payment, waiting only for the other side.
  const paidSwap =
    opts.kind === "swaps"
      ? sql`(${orders.statename} = ${SWAP_STATES.PAYMENT} AND ${orders.actionNeeded} IN ('provider', 'receiver') AND ${orders.actionNeeded} <> ${myRoleSql(retailerId)})`
      : undefined;
  const where = and(
    kindFilter(retailerId, opts.kind),
    paidSwap ? or(inArray(orders.stage, [...APPROVED_STAGES]), paidSwap) : inArray(orders.stage, [...APPROVED_STAGES]),
    opts.delivered ? sql`EXISTS (SELECT 1 FROM ${shipments} WHERE ${shipments.orderId} = ${orders.id} AND ${shipments.status} = 'delivered')` : undefined,
  );
  return cardPage(db, retailerId, where, limit, offset);
}

// ---------------------------------------------------------------------------------------------------------
// Detail.

export interface OrderLineView {
  contributionId: number;
  side: string;
  type: string;
  listingId: number | null;
  variationId: number | null;
  productCode: string;
  displayName: string;
  color: string;
  brandName: string;
  sizes: Record<string, number>;
  pendingSizes: Record<string, number> | null;
  quantity: number;
  unitPriceCents: number;
  valueCents: number;
  /** An RMA's line: its reason (domain/reasons RMA_REASONS) and the "other" text; null on orders. */
  rmaReason: number | null;
  rmaReasonOther: string | null;
}

export interface ReasonView {
  key: string;
  code: number;
  label: string;
  /** "You:" or "Other Retailer:" for a party; the text with its prefix. */
  text: string;
  by: Role | "system";
}

export interface PaymentView {
  id: number;
  retailerId: number;
  /** The payer/payee's side in this order. */
  side: Role;
  name: string;
  txtype: string;
  amountCents: number;
  feeCents: number;
  status: string;
  queued: boolean;
  providerRef: string | null;
  methodDescription: string | null;
  lastFour: string | null;
  releasedAt: string | null;
  createdAt: string;
}

export interface ShipmentView {
  id: number;
  direction: "Outgoing" | "Incoming" | null;
  /** The side that sends the parcel (a purchase: always the provider; a swap: one parcel per side). */
  senderSide: Role;
  senderLabel: string;
  receiverLabel: string;
  carrier: string;
  trackingNumber: string | null;
  callTag: string | null;
  status: string;
  labelUrl: string | null;
  pickupBy: string | null;
  createdAt: string;
  modifiedAt: string;
  events: { id: number; status: string; description: string; eventTimestamp: string; createdAt: string }[];
}

export interface RatingView {
  role: string;
  raterId: number;
  condition: number;
  packaging: number;
  timeliness: number;
  overall: number;
  comments: string;
  createdAt: string;
}

export interface OrderDetail {
  id: number;
  externalId: string;
  workflowId: string;
  ttype: "buy" | "swap";
  transactionType: number;
  /** The viewer's role (null: staff looking at someone else's order). */
  role: Role | null;
  typeLabel: string;
  brandId: number | null;
  brandName: string | null;
  providerId: number;
  receiverId: number;
  providerLabel: string;
  receiverLabel: string;
  /** The other party as the viewer may see it (staff not a party: "provider → receiver" names). */
  counterpartyLabel: string;
  requestId: number | null;
  statename: string;
  displayStatus: string;
  stage: string;
  actionNeeded: string | null;
  completed: boolean | null;
  isModified: boolean;
  amounts: {
    valueCents: number;
    receiverFeeCents: number;
    receiverShippingCents: number;
    receiverGrandTotalCents: number;
    authorizedCents: number;
    capturedCents: number;
  };
  floorTime: string | null;
  reasons: ReasonView[];
  lines: OrderLineView[];
  actions: { id: number; code: number; label: string; role: string; statename: string; displayStatus: string; complete: boolean; createdAt: string; seen: boolean }[];
  shipments: ShipmentView[];
  payments: PaymentView[];
  ratings: RatingView[];
  /** When the delivered scan was recorded (action 119, else the delivered shipment's last change). */
  deliveredAt: string | null;
  /** A swap party's windows for what it RECEIVES: rating until, RMA request until (null: not delivered yet). */
  swapWindows: { ratingBy: string | null; rmaBy: string | null } | null;
  /** A swap's money as its workflow last recorded it (null: not a swap, or nothing recorded yet). */
  swapAmounts: SwapAmountsView | null;
  /** Staff only. */
  ledger: Record<string, number | boolean> | null;
  createdAt: string;
  modifiedAt: string;
}

/**
 * A swap's ledger for staff: the valuation the workflow recorded, and the money both sides' payments rows
 * moved, checked against domain/swap-money swapSettlement once both parcels have settled.
 */
function swapLedgerOf(
  order: { providerId: number; ledger: Record<string, number | boolean> | null },
  lines: { side: string; type: string; quantity: number; valueCents: number }[],
  ships: { senderId: number; status: string }[],
  pays: { retailerId: number; txtype: string; status: string; amountCents: number }[],
): Record<string, number | boolean> {
  const side = (s: Role) => {
    const goods = lines.filter((l) => l.type === "goods" && l.side === s);
    return { goodsCents: goods.reduce((a, l) => a + l.valueCents, 0), units: goods.reduce((a, l) => a + l.quantity, 0) };
  };
  const parcel = (s: Role) => {
    const p = ships.filter((x) => (x.senderId === order.providerId) === (s === "provider")).at(-1);
    return p ? (p.status === "delivered" || p.status === "cancelled" ? p.status : "other") : null;
  };
  const outcome = swapOutcomeOf({ provider: parcel("provider"), receiver: parcel("receiver") });
  const expected = outcome ? swapSettlement({ provider: side("provider"), receiver: side("receiver"), callItEven: order.ledger?.callItEven === true }, outcome) : null;
  const rows = pays.map((p) => ({ side: (p.retailerId === order.providerId ? "provider" : "receiver") as Role, txtype: p.txtype, status: p.status, amountCents: p.amountCents }));
  const money = swapLedger(rows, expected);
  const out: Record<string, number | boolean> = { ...(order.ledger ?? {}) };
  for (const [k, v] of Object.entries(money)) if (v !== null) out[k] = v;
  return out;
}

/** One side of a swap's money: the goods it gives, the cash it adds, its fee, its shipping and its payment. */
export interface SwapSideAmounts {
  goodsCents: number;
  cashCents: number;
  feeCents: number;
  shippingCents: number;
  dueCents: number;
}

export interface SwapAmountsView {
  provider: SwapSideAmounts;
  receiver: SwapSideAmounts;
  /** The value difference nobody pays because a side called it even. */
  forgivenCents: number;
}

/** A swap's amounts from the valuation (ledger) and the fee and shipping columns its workflow wrote together. */
function swapAmountsOf(order: {
  transactionType: number;
  ledger: Record<string, number | boolean> | null;
  providerFeeCents: number;
  providerShippingCents: number;
  receiverFeeCents: number;
  receiverShippingCents: number;
}): SwapAmountsView | null {
  const l = order.ledger;
  if (order.transactionType !== TRANSACTION_TYPE.SWAP || !l) return null;
  const cents = (k: string) => (typeof l[k] === "number" ? l[k] : 0);
  return {
    provider: {
      goodsCents: cents("providerGoodsCents"),
      cashCents: cents("providerCashCents"),
      feeCents: order.providerFeeCents,
      shippingCents: order.providerShippingCents,
      dueCents: cents("providerDueCents"),
    },
    receiver: {
      goodsCents: cents("receiverGoodsCents"),
      cashCents: cents("receiverCashCents"),
      feeCents: order.receiverFeeCents,
      shippingCents: order.receiverShippingCents,
      dueCents: cents("receiverDueCents"),
    },
    forgivenCents: cents("forgivenCents"),
  };
}

function swapWindowsOf(deadlines: unknown, role: Role): { ratingBy: string | null; rmaBy: string | null } {
  const d = (deadlines ?? {}) as Record<string, unknown>;
  const at = (k: string) => (typeof d[k] === "string" ? (d[k] as string) : null);
  return { ratingBy: at(`${role}RatingBy`), rmaBy: at(`${role}RmaBy`) };
}

export interface DetailViewer {
  retailerId: number | null;
  isStaff: boolean;
}

/** Which party gave a reason: by the key's prefix, or for a system reason by the timer step that ended the order. */
function reasonOwner(key: string, actionCodes: number[]): Role | "system" {
  if (key.startsWith("provider")) return "provider";
  if (key.startsWith("receiver")) return "receiver";
  const last = [...actionCodes].reverse().find((c) =>
    [ACTION.SELLER_RESPONSE_EXPIRED, ACTION.PROVIDER_ORDER_NON_SHIPMENT, ACTION.CHECKOUT_EXPIRED, ACTION.MODIFIED_PURCHASE_EXPIRED, ACTION.REQUEST_CHECKOUT_EXPIRED, ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER].includes(c as never),
  );
  if (last === ACTION.SELLER_RESPONSE_EXPIRED || last === ACTION.PROVIDER_ORDER_NON_SHIPMENT || last === ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER) return "provider";
  if (last === ACTION.CHECKOUT_EXPIRED || last === ACTION.MODIFIED_PURCHASE_EXPIRED || last === ACTION.REQUEST_CHECKOUT_EXPIRED) return "receiver";
  return "system";
}

/** Decline/cancel reasons with "You:" / "Other Retailer:" as the viewer should read them. */
export function reasonViews(reasons: Record<string, string | number>, viewerRole: Role | null, actionCodes: number[] = []): ReasonView[] {
  const out: ReasonView[] = [];
  for (const [key, raw] of Object.entries(reasons ?? {})) {
    if (key.endsWith("_display")) continue;
    const code = typeof raw === "number" ? raw : Number(raw);
    if (!Number.isInteger(code)) continue;
    const by = reasonOwner(key, actionCodes);
    const label = reasonLabel(code);
    let prefix: string;
    if (by === "system") prefix = "";
    else if (viewerRole === null) prefix = by === "provider" ? "Seller:" : "Buyer:";
    else prefix = by === viewerRole ? REASON_PREFIX_YOU : REASON_PREFIX_OTHER;
    out.push({ key, code, label, by, text: prefix ? `${prefix} ${label}` : label });
  }
  return out;
}

/** The order's two parties' store rows, joined by getOrderDetail for staff (who see store names). */
const providerStore = alias(retailers, "provider_store");
const receiverStore = alias(retailers, "receiver_store");

/** Resolves an order by id, external id (order number) or, for the packing slip, an action id. */
export async function findOrderId(db: DbOrTx, ref: string): Promise<number | null> {
  const s = ref.trim();
  if (!s || s.length > 64) return null;
  const byExternal = await db.select({ id: orders.id }).from(orders).where(eq(orders.externalId, s)).limit(1);
  if (byExternal[0]) return byExternal[0].id;
  if (/^\d{1,9}$/.test(s)) {
    const [a] = await db.select({ orderId: orderActions.orderId }).from(orderActions).where(eq(orderActions.id, Number(s))).limit(1);
    if (a) return a.orderId;
  }
  return null;
}

/**
 * getOrderDetail's seven reads, built once per pool and kind of viewer (db/built-once.ts): every order page
 * and order command runs them. All key on the order id; a retailer's payments also on its id. Store names are
 * joined for staff only.
 */
function orderDetailStatements(db: DbOrTx, staff: boolean) {
  const orderId = sql.placeholder("orderId");
  const name = (part: string) => `order_detail_${part}_${staff ? "staff" : "party"}`;
  return {
    order: db
      .select({
        order: orders,
        brandName: sql<string | null>`COALESCE(NULLIF(${brands.displayName}, ''), ${brands.name})`,
        providerName: staff ? providerStore.storeName : sql<null>`NULL`,
        receiverName: staff ? receiverStore.storeName : sql<null>`NULL`,
      })
      .from(orders)
      .leftJoin(brands, eq(brands.id, orders.brandId))
      .leftJoin(providerStore, staff ? eq(providerStore.id, orders.providerId) : sql`false`)
      .leftJoin(receiverStore, staff ? eq(receiverStore.id, orders.receiverId) : sql`false`)
      .where(eq(orders.id, orderId))
      .prepare(name("order")),
    lines: db
      .select({
        contributionId: orderContributions.id,
        side: orderContributions.side,
        type: orderContributions.type,
        listingId: orderContributions.listingId,
        variationId: orderContributions.variationId,
        units: orderContributions.units,
        pendingUnits: orderContributions.pendingUnits,
        quantity: orderContributions.quantity,
        unitPriceCents: orderContributions.unitPriceCents,
        valueCents: orderContributions.valueCents,
        rmaReason: orderContributions.rmaReason,
        rmaReasonOther: orderContributions.rmaReasonOther,
        productCode: sql<string>`COALESCE(${productVariations.sku}, '')`,
        color: sql<string>`COALESCE(${productVariations.color}, '')`,
        displayName: sql<string>`COALESCE(${products.displayName}, 'Cash')`,
        brandName: sql<string>`COALESCE(NULLIF(${brands.displayName}, ''), ${brands.name}, '')`,
      })
      .from(orderContributions)
      .leftJoin(productVariations, eq(productVariations.id, orderContributions.variationId))
      .leftJoin(products, eq(products.id, productVariations.productId))
      .leftJoin(brands, eq(brands.id, productVariations.brandId))
      .where(eq(orderContributions.orderId, orderId))
      .orderBy(asc(orderContributions.id))
      .prepare(name("lines")),
    actions: db.select().from(orderActions).where(eq(orderActions.orderId, orderId)).orderBy(asc(orderActions.createdAt), asc(orderActions.id)).prepare(name("actions")),
    shipments: db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(asc(shipments.id)).prepare(name("shipments")),
    payments: db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), staff ? undefined : eq(payments.retailerId, sql.placeholder("retailerId"))))
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .prepare(name("payments")),
    ratings: db.select().from(ratings).where(eq(ratings.orderId, orderId)).orderBy(asc(ratings.id)).prepare(name("ratings")),
    events: db
      .select()
      .from(shipmentEvents)
      .where(inArray(shipmentEvents.shipmentId, db.select({ id: shipments.id }).from(shipments).where(eq(shipments.orderId, orderId))))
      .orderBy(asc(shipmentEvents.eventTimestamp), asc(shipmentEvents.id))
      .prepare(name("events")),
  };
}

/**
 * The order as this viewer may see it, or null (not found, or not a party and not staff: the caller answers
 * 404). A retailer sees only its own payments; staff see everything, with store names, and the ledger.
 */
export async function getOrderDetail(db: DbOrTx, orderId: number, viewer: DetailViewer): Promise<OrderDetail | null> {
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return null;
  // Every read of the page in one batch (one round trip; they all key on the order id): the parts are dropped
  // unread when the viewer may not see the order. Store names are read for staff only.
  const staff = viewer.isStaff;
  const q = builtOnce(db, staff ? "order_detail_staff" : "order_detail_party", (pool) => orderDetailStatements(pool, staff));
  const values = { orderId, retailerId: viewer.retailerId ?? -1 };
  const [[o], lineRows, actionRows, shipRows, payRows, ratingRows, events] = await Promise.all([
    q.order.execute(values),
    q.lines.execute(values),
    q.actions.execute(values),
    q.shipments.execute(values),
    q.payments.execute(values),
    q.ratings.execute(values),
    q.events.execute(values),
  ]);
  if (!o) return null;
  const order = o.order;
  const isParty = viewer.retailerId !== null && (order.providerId === viewer.retailerId || order.receiverId === viewer.retailerId);
  if (!isParty && !viewer.isStaff) return null;
  const role: Role | null = isParty ? roleOf(order, viewer.retailerId!) : null;

  const names = new Map<number, string>();
  if (o.providerName !== null) names.set(order.providerId, o.providerName);
  if (o.receiverName !== null) names.set(order.receiverId, o.receiverName);
  const label = (id: number) => displayRetailer({ id, storeName: names.get(id) ?? null }, viewer.isStaff, viewer.retailerId);

  const delivered119 = actionRows.find((a) => a.code === ACTION.SHIPMENT_DELIVERED);
  const deliveredShipment = shipRows.find((s) => s.status === "delivered");
  const deliveredAt = delivered119?.createdAt ?? deliveredShipment?.modifiedAt ?? null;

  const type = order.transactionType as TransactionType;
  const typeLabel = role ? transactionTypeLabel(type, role) : type === TRANSACTION_TYPE.SALE ? "Sale" : transactionTypeLabel(type, "provider");
  const counterpartyLabel = role ? label(role === "provider" ? order.receiverId : order.providerId) : `${label(order.providerId)} → ${label(order.receiverId)}`;

  return {
    id: order.id,
    externalId: order.externalId,
    workflowId: order.workflowId,
    ttype: ttypeOf(order.transactionType),
    transactionType: order.transactionType,
    role,
    typeLabel,
    brandId: order.brandId,
    brandName: o.brandName,
    providerId: order.providerId,
    receiverId: order.receiverId,
    providerLabel: label(order.providerId),
    receiverLabel: label(order.receiverId),
    counterpartyLabel,
    requestId: order.requestId,
    statename: order.statename,
    displayStatus: order.displayStatus,
    stage: order.stage,
    actionNeeded: order.actionNeeded,
    completed: order.completed,
    isModified: order.isModified,
    amounts: {
      valueCents: order.valueCents,
      receiverFeeCents: order.receiverFeeCents,
      receiverShippingCents: order.receiverShippingCents,
      receiverGrandTotalCents: order.receiverGrandTotalCents,
      authorizedCents: order.authorizedCents,
      capturedCents: order.capturedCents,
    },
    floorTime: order.floorTime,
    reasons: reasonViews(currentReasons(ttypeOf(order.transactionType), order.statename, order.reasons), role, actionRows.map((a) => a.code)),
    lines: lineRows.map((l) => ({ ...l, sizes: l.units, pendingSizes: l.pendingUnits ?? null })),
    actions: actionRows.map((a) => ({
      id: a.id,
      code: a.code,
      label: actionLabel(a.code),
      role: a.role,
      statename: a.statename,
      displayStatus: a.displayStatus,
      complete: a.complete,
      createdAt: a.createdAt.toISOString(),
      seen: a.seenAt !== null,
    })),
    shipments: shipRows.map((s) => ({
      id: s.id,
      direction: viewer.retailerId === null || !isParty ? null : s.senderId === viewer.retailerId ? "Outgoing" : "Incoming",
      senderSide: s.senderId === order.receiverId && order.receiverId !== order.providerId ? ("receiver" as const) : ("provider" as const),
      senderLabel: label(s.senderId),
      receiverLabel: label(s.receiverId),
      carrier: s.carrier,
      trackingNumber: s.trackingNumber,
      callTag: s.callTag,
      status: s.status,
      labelUrl: s.labelUrl,
      pickupBy: s.pickupBy?.toISOString() ?? null,
      createdAt: s.createdAt.toISOString(),
      modifiedAt: s.modifiedAt.toISOString(),
      events: events
        .filter((e) => e.shipmentId === s.id)
        .map((e) => ({ id: e.id, status: e.status, description: e.description, eventTimestamp: e.eventTimestamp.toISOString(), createdAt: e.createdAt.toISOString() })),
    })),
    payments: payRows.map((p) => ({
      id: p.id,
      retailerId: p.retailerId,
      side: p.retailerId === order.providerId ? ("provider" as const) : ("receiver" as const),
      name: p.name,
      txtype: p.txtype,
      amountCents: p.amountCents,
      feeCents: p.feeCents,
      status: p.status,
      queued: p.queued,
      providerRef: viewer.isStaff ? p.providerRef : null,
      methodDescription: p.paymentMethodDescription,
      lastFour: p.lastFour,
      releasedAt: p.releasedAt?.toISOString() ?? null,
      createdAt: p.createdAt.toISOString(),
    })),
    ratings: ratingRows.map((r) => ({
      role: r.role,
      raterId: r.raterId,
      condition: r.condition,
      packaging: r.packaging,
      timeliness: r.timeliness,
      overall: r.overall,
      comments: r.comments,
      createdAt: r.createdAt.toISOString(),
    })),
    deliveredAt: deliveredAt ? deliveredAt.toISOString() : null,
    swapWindows: role && order.transactionType === TRANSACTION_TYPE.SWAP ? swapWindowsOf(order.deadlines, role) : null,
    swapAmounts: swapAmountsOf(order),
    ledger: viewer.isStaff ? (order.transactionType === TRANSACTION_TYPE.SWAP ? swapLedgerOf(order, lineRows, shipRows, payRows) : (order.ledger ?? null)) : null,
    createdAt: order.createdAt.toISOString(),
    modifiedAt: order.modifiedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Packing slip (anonymous: labels only, whoever asks).

export interface PackingSlipData {
  orderId: number;
  externalId: string;
  typeLabel: string;
  brandName: string | null;
  createdAt: string;
  approvedAt: string | null;
  senderLabel: string;
  receiverLabel: string;
  trackingNumber: string | null;
  callTag: string | null;
  pickupBy: string | null;
  statename: string;
  displayStatus: string;
  lines: { productCode: string; displayName: string; color: string; brandName: string; sizes: Record<string, number>; quantity: number }[];
  totalUnits: number;
}

/**
 * What the packing slip and the shipper checklist print for one parcel of an order: anonymous labels only
 * (the slip goes inside the box; staff get the same anonymous document). A purchase has one parcel, the
 * provider's; a swap has one per side: a party gets its own outgoing parcel, staff the `side` asked for
 * (default the provider's). Null when the viewer may not see the order.
 */
export async function getPackingSlipData(db: DbOrTx, orderId: number, viewer: DetailViewer, side?: Role): Promise<PackingSlipData | null> {
  const d = await getOrderDetail(db, orderId, { retailerId: viewer.retailerId, isStaff: false });
  let detail = d;
  if (!detail && viewer.isStaff) detail = await getOrderDetail(db, orderId, { retailerId: null, isStaff: true });
  if (!detail) return null;
  const swap = detail.transactionType === TRANSACTION_TYPE.SWAP;
  const sender: Role = !swap ? "provider" : (detail.role ?? side ?? "provider");
  const rma = detail.transactionType === TRANSACTION_TYPE.RMA;
  // What is in the box: lines with units (not a removed swap line, not a denied RMA line), of the parcel's
  // side; an RMA's only where the reason ships goods back (not missing units).
  const goods = detail.lines.filter(
    (l) => l.type === "goods" && l.quantity > 0 && (!swap || l.side === sender) && (!rma || (l.rmaReason !== null && rmaReasonCountsForShipping(l.rmaReason, l.rmaReasonOther))),
  );
  const ship = detail.shipments.filter((s) => s.senderSide === sender).at(-1) ?? null;
  const approved = detail.actions.find((a) => a.code === ACTION.PROVIDER_APPROVE_SALE || a.code === ACTION.RECEIVER_APPROVE_PURCHASE || a.code === ACTION.CONFIRM_SWAP_ITEMS);
  const senderId = sender === "provider" ? detail.providerId : detail.receiverId;
  const receiverId = sender === "provider" ? detail.receiverId : detail.providerId;
  return {
    orderId: detail.id,
    externalId: detail.externalId,
    typeLabel: swap ? "Swap" : rma ? "Return (RMA)" : "Sale",
    brandName: detail.brandName,
    createdAt: detail.createdAt,
    approvedAt: approved?.createdAt ?? null,
    senderLabel: displayRetailer({ id: senderId }, false),
    receiverLabel: displayRetailer({ id: receiverId }, false),
    trackingNumber: ship?.trackingNumber ?? null,
    callTag: ship?.callTag ?? null,
    pickupBy: ship?.pickupBy ?? null,
    statename: detail.statename,
    displayStatus: detail.displayStatus,
    lines: goods.map((l) => ({ productCode: l.productCode, displayName: l.displayName, color: l.color, brandName: l.brandName, sizes: l.sizes, quantity: l.quantity })),
    totalUnits: goods.reduce((a, l) => a + l.quantity, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Staff.

export interface AdminOrderRow {
  id: number;
  externalId: string;
  ttype: "buy" | "swap";
  transactionType: number;
  typeLabel: string;
  brandName: string | null;
  providerId: number;
  receiverId: number;
  providerName: string;
  receiverName: string;
  statename: string;
  displayStatus: string;
  stage: string;
  actionNeeded: string | null;
  valueCents: number;
  receiverGrandTotalCents: number;
  lastActionCode: number | null;
  lastActionLabel: string | null;
  floorTime: string | null;
  modifiedAt: string;
}

export interface AdminOrderFilter {
  stage?: AdminStage;
  type?: number | null;
  action?: number | null;
  /** One brand's orders (the brand admin's Transactions tab). */
  brandId?: number | null;
  limit?: number;
  offset?: number;
}

/** /admin/active-transactions: every order, filtered by stage, transaction type and action code; names shown. */
export async function listAdminOrders(db: DbOrTx, filter: AdminOrderFilter = {}): Promise<Page<AdminOrderRow>> {
  const limit = Number.isSafeInteger(filter.limit) && filter.limit! > 0 ? Math.min(filter.limit!, MAX_PAGE_SIZE) : 25;
  const offset = Number.isSafeInteger(filter.offset) && filter.offset! >= 0 ? filter.offset! : 0;
  const stage = filter.stage && isAdminStage(filter.stage) && filter.stage !== "all" ? filter.stage : null;
  const where = and(
    stage ? inArray(orders.stage, stagesOfAdminStage(stage)) : undefined,
    // A cart draft older than 24 hours is expired, not pending (decisions.md "Time windows").
    stage === "pre_shipping" ? sql`NOT ${staleCartDraftSql()}` : undefined,
    filter.type ? eq(orders.transactionType, filter.type) : undefined,
    filter.brandId ? eq(orders.brandId, filter.brandId) : undefined,
    filter.action ? sql`EXISTS (SELECT 1 FROM ${orderActions} WHERE ${orderActions.orderId} = ${orders.id} AND ${orderActions.code} = ${filter.action})` : undefined,
  );
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(orders).where(where);
  const rows = await db
    .select({
      id: orders.id,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      brandName: sql<string | null>`COALESCE(NULLIF(${brands.displayName}, ''), ${brands.name})`,
      providerId: orders.providerId,
      receiverId: orders.receiverId,
      providerName: sql<string>`(SELECT p.store_name FROM retailers p WHERE p.id = ${orders.providerId})`,
      receiverName: sql<string>`(SELECT r.store_name FROM retailers r WHERE r.id = ${orders.receiverId})`,
      statename: orders.statename,
      displayStatus: orders.displayStatus,
      stage: orders.stage,
      actionNeeded: orders.actionNeeded,
      valueCents: orders.valueCents,
      receiverGrandTotalCents: orders.receiverGrandTotalCents,
      lastActionCode: sql<number | null>`(SELECT a.code FROM order_actions a WHERE a.order_id = ${orders.id} ORDER BY a.created_at DESC, a.id DESC LIMIT 1)`,
      floorTime: orders.floorTime,
      modifiedAt: orders.modifiedAt,
    })
    .from(orders)
    .leftJoin(brands, eq(brands.id, orders.brandId))
    .where(where)
    .orderBy(desc(orders.modifiedAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
  return {
    items: rows.map((row) => ({
      ...row,
      ttype: ttypeOf(row.transactionType),
      typeLabel: row.transactionType === TRANSACTION_TYPE.SWAP ? "Swap" : row.transactionType === TRANSACTION_TYPE.RMA ? "RMA" : "Sale",
      providerName: displayRetailer({ id: row.providerId, storeName: row.providerName }, true),
      receiverName: displayRetailer({ id: row.receiverId, storeName: row.receiverName }, true),
      lastActionLabel: row.lastActionCode === null ? null : actionLabel(row.lastActionCode),
      modifiedAt: row.modifiedAt.toISOString(),
    })),
    total,
    limit,
    offset,
  };
}

export interface AdminShipmentRow {
  id: number;
  orderId: number;
  externalId: string;
  ttype: "buy" | "swap";
  senderName: string;
  receiverName: string;
  trackingNumber: string | null;
  callTag: string | null;
  status: string;
  pickupBy: string | null;
  orderState: string;
  modifiedAt: string;
}

/** /admin/active-shipments: shipments not yet delivered or cancelled (or every one with all=true). */
export async function listActiveShipments(db: DbOrTx, opts: { all?: boolean; limit?: number; offset?: number } = {}): Promise<Page<AdminShipmentRow>> {
  const limit = Number.isSafeInteger(opts.limit) && opts.limit! > 0 ? Math.min(opts.limit!, MAX_PAGE_SIZE) : 50;
  const offset = Number.isSafeInteger(opts.offset) && opts.offset! >= 0 ? opts.offset! : 0;
  const where = opts.all ? undefined : inArray(shipments.status, ["pickup_scheduled", "in_route"]);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(shipments).where(where);
  const rows = await db
    .select({
      id: shipments.id,
      orderId: shipments.orderId,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      senderId: shipments.senderId,
      receiverId: shipments.receiverId,
      senderName: sql<string>`(SELECT s.store_name FROM retailers s WHERE s.id = ${shipments.senderId})`,
      receiverName: sql<string>`(SELECT x.store_name FROM retailers x WHERE x.id = ${shipments.receiverId})`,
      trackingNumber: shipments.trackingNumber,
      callTag: shipments.callTag,
      status: shipments.status,
      pickupBy: shipments.pickupBy,
      orderState: orders.statename,
      modifiedAt: shipments.modifiedAt,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(where)
    .orderBy(desc(shipments.modifiedAt), desc(shipments.id))
    .limit(limit)
    .offset(offset);
  return {
    items: rows.map((s) => ({
      id: s.id,
      orderId: s.orderId,
      externalId: s.externalId,
      ttype: ttypeOf(s.transactionType),
      senderName: displayRetailer({ id: s.senderId, storeName: s.senderName }, true),
      receiverName: displayRetailer({ id: s.receiverId, storeName: s.receiverName }, true),
      trackingNumber: s.trackingNumber,
      callTag: s.callTag,
      status: s.status,
      pickupBy: s.pickupBy?.toISOString() ?? null,
      orderState: s.orderState,
      modifiedAt: s.modifiedAt.toISOString(),
    })),
    total,
    limit,
    offset,
  };
}

/** A shipment with its order (staff tools: schedule / simulate pickup and delivery). */
export async function getShipmentForStaff(db: DbOrTx, shipmentId: number) {
  if (!Number.isSafeInteger(shipmentId) || shipmentId <= 0) return null;
  const [row] = await db
    .select({ shipment: shipments, workflowId: orders.workflowId, externalId: orders.externalId, statename: orders.statename })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(eq(shipments.id, shipmentId));
  return row ?? null;
}

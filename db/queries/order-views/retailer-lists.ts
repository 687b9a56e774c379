/**
 * A retailer's order lists and bell counters (docs/product/screens.md, "Alerts" and "Orders"): what /alerts,
 * /orders and the header's badges show. Reads only; the seen-marking that clears the action count is
 * db/queries/order-seen.ts.
 *
 * Anonymity (docs/product/glossary.md, "Anonymity"): a retailer's lists carry the other party as
 * `retailer-00{id}` and nothing else (no name, e-mail, phone or address is read for them at all).
 *
 * - alerts (pending): stage pre_shipping, not Declined; declined view: display status Declined only (an
 *   expired order is in neither list). A seller never sees a buyer's draft still in checkout
 *   (complete_order_checkout of an order from a listing: it is the buyer's cart until the card is
 *   pre-authorised); nor a swap's provider the receiver's.
 * - orders (approved): stages approved, shipping, delivered, complete, cancelled; "Delivered" filter: a
 *   delivered shipment.
 * - counters: per kind, pending orders where it is the viewer's move (bell badges), and of those the ones
 *   with an action the viewer has not seen (the action count that seen-marking clears).
 */
import { and, asc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { displayRetailer } from "../../../domain/anonymity";
import { orderTypeLabel, swapUnitsOf, ttypeOf } from "../../../domain/order-views";
import {
  DISPLAY_STATUS,
  isMoveOf,
  roleOf,
  SWAP_STATES,
  TRANSACTION_TYPE,
  type Role,
  type TransactionKind,
} from "../../../domain/states";
import { brands, orderActions, orderContributions, orders, shipments } from "../../schema";
import { staleCartDraftSql } from "../checkout";
import { brandNameSql, orderListColumns, orderPage, type Page } from "./shared";
import type { DbOrTx } from "../../client";

export type OrderKindTab = "sales" | "purchases" | "swaps";
export type AlertsView = "pending" | "declined";
export const ORDER_KIND_TABS: readonly OrderKindTab[] = Object.freeze([
  "sales",
  "purchases",
  "swaps",
] as const);

export function isOrderKindTab(v: unknown): v is OrderKindTab {
  return v === "sales" || v === "purchases" || v === "swaps";
}

/** Stages of the approved orders screen. */
const APPROVED_STAGES = Object.freeze([
  "approved",
  "shipping",
  "delivered",
  "complete",
  "cancelled",
] as const);

/** Page size default of a retailer's lists (docs/product/screens.md: four cards a page, overridable). */
const DEFAULT_PAGE_SIZE = 4;

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
      return and(
        eq(orders.transactionType, TRANSACTION_TYPE.SALE),
        eq(orders.receiverId, retailerId),
      )!;
    case "swaps":
      return and(
        eq(orders.transactionType, TRANSACTION_TYPE.SWAP),
        or(
          eq(orders.receiverId, retailerId),
          and(
            eq(orders.providerId, retailerId),
            sql`${orders.statename} <> 'complete_order_checkout'`,
          ),
        ),
      )!;
  }
}

/**
 * The pending list excludes display status Declined; the declined view shows only Declined (not Expired). A
 * cart draft older than 24 hours is expired even before expireStaleDrafts writes it down.
 */
function viewFilter(view: AlertsView): SQL {
  return view === "declined"
    ? and(eq(orders.stage, "declined"), eq(orders.displayStatus, DISPLAY_STATUS.DECLINED))!
    : and(
        eq(orders.stage, "pre_shipping"),
        ne(orders.displayStatus, DISPLAY_STATUS.DECLINED),
        sql`NOT ${staleCartDraftSql()}`,
      )!;
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
  ttype: TransactionKind;
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
  shipments: {
    id: number;
    direction: "Outgoing" | "Incoming";
    status: string;
    trackingNumber: string | null;
  }[];
}

function cardSelect(retailerId: number) {
  return {
    ...orderListColumns,
    createdAt: orders.createdAt,
    brandName: brandNameSql(),
    unseen: unseenSql(retailerId),
    units: sql<number>`COALESCE((SELECT SUM(${orderContributions.quantity}) FROM ${orderContributions} WHERE ${orderContributions.orderId} = ${orders.id} AND ${orderContributions.type} = 'goods'), 0)::int`,
    providerUnits: sql<number>`COALESCE((SELECT SUM(${orderContributions.quantity}) FROM ${orderContributions} WHERE ${orderContributions.orderId} = ${orders.id} AND ${orderContributions.type} = 'goods' AND ${orderContributions.side} = 'provider'), 0)::int`,
  };
}

/** The cards' select: the order with its brand. */
function cardQuery(db: DbOrTx, retailerId: number) {
  return db
    .select(cardSelect(retailerId))
    .from(orders)
    .leftJoin(brands, eq(brands.id, orders.brandId))
    .$dynamic();
}

type CardRow = Awaited<ReturnType<typeof cardQuery>>[number];

async function shipmentsOf(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      id: shipments.id,
      orderId: shipments.orderId,
      senderId: shipments.senderId,
      status: shipments.status,
      trackingNumber: shipments.trackingNumber,
    })
    .from(shipments)
    .where(inArray(shipments.orderId, orderIds))
    .orderBy(asc(shipments.id));
}

async function toCards(db: DbOrTx, retailerId: number, rows: CardRow[]): Promise<OrderCard[]> {
  const ships = await shipmentsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const role = roleOf(r, retailerId);
    const other = role === "provider" ? r.receiverId : r.providerId;
    const swap = r.transactionType === TRANSACTION_TYPE.SWAP;
    return {
      id: r.id,
      externalId: r.externalId,
      ttype: ttypeOf(r.transactionType),
      transactionType: r.transactionType,
      role,
      typeLabel: orderTypeLabel(r.transactionType, role),
      brandName: r.brandName,
      statename: r.statename,
      displayStatus: r.displayStatus,
      stage: r.stage,
      amountCents: swap ? null : role === "receiver" ? r.receiverGrandTotalCents : r.valueCents,
      createdAt: r.createdAt.toISOString(),
      modifiedAt: r.modifiedAt.toISOString(),
      myMove: isMoveOf(r.actionNeeded, role),
      unseen: r.unseen === true,
      // Never a name: the other party of a retailer's order is anonymous.
      counterpartyLabel: displayRetailer({ id: other }, false, retailerId),
      units: Number(r.units),
      swapUnits: swap ? swapUnitsOf(role, Number(r.units), Number(r.providerUnits)) : null,
      shipments: ships
        .filter((s) => s.orderId === r.id)
        .map((s) => ({
          id: s.id,
          direction: s.senderId === retailerId ? ("Outgoing" as const) : ("Incoming" as const),
          status: s.status,
          trackingNumber: s.trackingNumber,
        })),
    };
  });
}

/** One page of order cards matching `where`, newest change first, with the total count. */
async function cardPage(
  db: DbOrTx,
  retailerId: number,
  where: SQL | undefined,
  opts: { limit?: number; offset?: number },
): Promise<Page<OrderCard>> {
  const { rows, ...page } = await orderPage(
    db,
    cardQuery(db, retailerId),
    where,
    opts,
    DEFAULT_PAGE_SIZE,
  );
  return { items: await toCards(db, retailerId, rows), ...page };
}

// ---------------------------------------------------------------------------------------------------------
// Lists and counters.

/** /alerts: the retailer's pending (or declined) orders of one tab, newest change first. */
export async function listAlerts(
  db: DbOrTx,
  retailerId: number,
  opts: { kind: OrderKindTab; view: AlertsView; limit?: number; offset?: number },
): Promise<Page<OrderCard>> {
  return cardPage(
    db,
    retailerId,
    and(kindFilter(retailerId, opts.kind), viewFilter(opts.view)),
    opts,
  );
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
    .where(
      and(
        or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)),
        viewFilter("pending"),
      ),
    );
  const u = {
    sales: r.unseenSales,
    purchases: r.unseenPurchases,
    swaps: r.unseenSwaps,
    total: r.unseenSales + r.unseenPurchases + r.unseenSwaps,
  };
  return { sale_alerts: r.sales, purchase_alerts: r.purchases, swap_alerts: r.swaps, unseen: u };
}

/** /orders: the retailer's approved orders of one tab (optionally only those with a delivered shipment). */
export async function listApprovedOrders(
  db: DbOrTx,
  retailerId: number,
  opts: { kind: OrderKindTab; delivered?: boolean; limit?: number; offset?: number },
): Promise<Page<OrderCard>> {
  // A swap the viewer has paid while the other side has not yet is the viewer's too (the payer lands on
  // /orders/sentswaps/, docs/product/orders.md): in payment, waiting only for the other side.
  const paidSwap =
    opts.kind === "swaps"
      ? sql`(${orders.statename} = ${SWAP_STATES.PAYMENT} AND ${orders.actionNeeded} IN ('provider', 'receiver') AND ${orders.actionNeeded} <> ${myRoleSql(retailerId)})`
      : undefined;
  const where = and(
    kindFilter(retailerId, opts.kind),
    paidSwap
      ? or(inArray(orders.stage, [...APPROVED_STAGES]), paidSwap)
      : inArray(orders.stage, [...APPROVED_STAGES]),
    opts.delivered
      ? sql`EXISTS (SELECT 1 FROM ${shipments} WHERE ${shipments.orderId} = ${orders.id} AND ${shipments.status} = 'delivered')`
      : undefined,
  );
  return cardPage(db, retailerId, where, opts);
}

/**
 * One order as a viewer may see it (docs/product/screens.md, "Transaction detail"): what /transaction/:ttype/:id, the
 * rating screen, the RMA wizard, the staff screens and the packing slip and shipper checklist show. Reads only.
 *
 * Anonymity (docs/product/glossary.md, "Anonymity"): store names are selected ONLY when the viewer
 * is staff; a retailer's view carries the other party as `retailer-00{id}` and nothing else. The packing slip
 * is anonymous whoever asks.
 */
import { and, asc, eq, inArray, sql, type Column } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { ACTION, actionLabel } from "../../../domain/action-codes";
import { displayRetailer } from "../../../domain/anonymity";
import {
  orderTypeLabel,
  packingSlipTypeLabel,
  reasonViews,
  swapAmountsOf,
  swapLedgerOf,
  swapWindowsOf,
  ttypeOf,
  type ReasonView,
  type SwapAmountsView,
} from "../../../domain/order-views";
import { currentReasons, rmaReasonCountsForShipping } from "../../../domain/reasons";
import { roleOf, TRANSACTION_TYPE, type Role, type TransactionKind } from "../../../domain/states";
import { builtOnce } from "../../built-once";
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
  users,
} from "../../schema";
import { brandNameSql } from "./shared";
import type { DbOrTx } from "../../client";

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
  /** The carrier's tracking page, as its adapter answered the booking; null: the number is shown unlinked. */
  trackingUrl: string | null;
  pickupBy: string | null;
  createdAt: string;
  modifiedAt: string;
  events: {
    id: number;
    status: string;
    description: string;
    eventTimestamp: string;
    createdAt: string;
  }[];
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

export interface ActionView {
  id: number;
  code: number;
  label: string;
  role: string;
  statename: string;
  displayStatus: string;
  complete: boolean;
  createdAt: string;
  seen: boolean;
}

export interface OrderDetail {
  id: number;
  externalId: string;
  workflowId: string;
  ttype: TransactionKind;
  transactionType: number;
  /** The viewer's role (null: staff looking at someone else's order). */
  role: Role | null;
  typeLabel: string;
  brandId: number | null;
  brandName: string | null;
  providerId: number;
  receiverId: number;
  /** The e-mail of who placed it: for staff and the placing store only (null otherwise, or not kept). */
  placedBy: string | null;
  /** The placer's user id, under the same rule (the order page tells the placer it may not approve). */
  placedByUserId: number | null;
  /** The e-mail of who of the buyer's store approved it over the placer's limit: under the same rule. */
  approvedBy: string | null;
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
  actions: ActionView[];
  shipments: ShipmentView[];
  payments: PaymentView[];
  ratings: RatingView[];
  /** When the delivered scan was recorded (action 119, else the delivered shipment's last change). */
  deliveredAt: string | null;
  /** A swap party's windows for what it RECEIVES: rating until, RMA request until (null: not delivered yet). */
  swapWindows: { ratingBy: string | null; rmaBy: string | null } | null;
  /** A purchase waiting for the buyer's store: until when (its party only; null otherwise). */
  storeApprovalBy: string | null;
  /** A swap's money as its workflow last recorded it (null: not a swap, or nothing recorded yet). */
  swapAmounts: SwapAmountsView | null;
  /** Staff only. */
  ledger: Record<string, number | boolean> | null;
  createdAt: string;
  modifiedAt: string;
}

export interface DetailViewer {
  retailerId: number | null;
  isStaff: boolean;
}

/** The order's two parties' store rows, joined by getOrderDetail for staff (who see store names). */
const providerStore = alias(retailers, "provider_store");
const receiverStore = alias(retailers, "receiver_store");
const placer = alias(users, "placer");
const approver = alias(users, "approver");

/** A column of one of the store's own people: to staff, and to that store only (docs/product/teams.md). */
function storeOnly<T>(staff: boolean, personsStore: Column, column: Column) {
  return staff
    ? sql<T | null>`${column}`
    : sql<T | null>`CASE WHEN ${personsStore} = ${sql.placeholder("retailerId")} THEN ${column} END`;
}

/** Resolves an order by id, external id (order number) or, for the packing slip, an action id. */
export async function findOrderId(db: DbOrTx, ref: string): Promise<number | null> {
  const s = ref.trim();
  if (!s || s.length > 64) return null;
  const byExternal = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.externalId, s))
    .limit(1);
  if (byExternal[0]) return byExternal[0].id;
  if (/^\d{1,9}$/.test(s)) {
    const [a] = await db
      .select({ orderId: orderActions.orderId })
      .from(orderActions)
      .where(eq(orderActions.id, Number(s)))
      .limit(1);
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
        brandName: brandNameSql(),
        providerName: staff ? providerStore.storeName : sql<null>`NULL`,
        receiverName: staff ? receiverStore.storeName : sql<null>`NULL`,
        // Who placed it: to staff, and to the placing store only (docs/product/teams.md, "Who placed an order").
        placedBy: storeOnly<string>(staff, placer.retailerId, placer.email),
        placedByUserId: storeOnly<number>(staff, placer.retailerId, placer.id),
        approvedBy: storeOnly<string>(staff, approver.retailerId, approver.email),
      })
      .from(orders)
      .leftJoin(placer, eq(placer.id, orders.placedByUserId))
      .leftJoin(approver, eq(approver.id, orders.approvedByUserId))
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
    actions: db
      .select()
      .from(orderActions)
      .where(eq(orderActions.orderId, orderId))
      .orderBy(asc(orderActions.createdAt), asc(orderActions.id))
      .prepare(name("actions")),
    shipments: db
      .select()
      .from(shipments)
      .where(eq(shipments.orderId, orderId))
      .orderBy(asc(shipments.id))
      .prepare(name("shipments")),
    payments: db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.orderId, orderId),
          staff ? undefined : eq(payments.retailerId, sql.placeholder("retailerId")),
        ),
      )
      .orderBy(asc(payments.createdAt), asc(payments.id))
      .prepare(name("payments")),
    ratings: db
      .select()
      .from(ratings)
      .where(eq(ratings.orderId, orderId))
      .orderBy(asc(ratings.id))
      .prepare(name("ratings")),
    events: db
      .select()
      .from(shipmentEvents)
      .where(
        inArray(
          shipmentEvents.shipmentId,
          db.select({ id: shipments.id }).from(shipments).where(eq(shipments.orderId, orderId)),
        ),
      )
      .orderBy(asc(shipmentEvents.eventTimestamp), asc(shipmentEvents.id))
      .prepare(name("events")),
  };
}

/** Every read of the page in one batch (one round trip; they all key on the order id). */
async function readOrderDetail(db: DbOrTx, orderId: number, viewer: DetailViewer) {
  const staff = viewer.isStaff;
  const q = builtOnce(db, staff ? "order_detail_staff" : "order_detail_party", (pool) =>
    orderDetailStatements(pool, staff),
  );
  const values = { orderId, retailerId: viewer.retailerId ?? -1 };
  const [[head], lines, actions, ships, pays, rates, events] = await Promise.all([
    q.order.execute(values),
    q.lines.execute(values),
    q.actions.execute(values),
    q.shipments.execute(values),
    q.payments.execute(values),
    q.ratings.execute(values),
    q.events.execute(values),
  ]);
  return { head, lines, actions, ships, pays, rates, events };
}

type DetailRows = Awaited<ReturnType<typeof readOrderDetail>>;
type OrderRow = NonNullable<DetailRows["head"]>["order"];

function actionView(a: DetailRows["actions"][number]): ActionView {
  return {
    id: a.id,
    code: a.code,
    label: actionLabel(a.code),
    role: a.role,
    statename: a.statename,
    displayStatus: a.displayStatus,
    complete: a.complete,
    createdAt: a.createdAt.toISOString(),
    seen: a.seenAt !== null,
  };
}

/** A parcel as the viewer sees it: Outgoing / Incoming for a party, the parties' labels, its carrier events. */
function shipmentView(
  s: DetailRows["ships"][number],
  events: DetailRows["events"],
  order: OrderRow,
  partyId: number | null,
  label: (id: number) => string,
): ShipmentView {
  return {
    id: s.id,
    direction: partyId === null ? null : s.senderId === partyId ? "Outgoing" : "Incoming",
    senderSide:
      s.senderId === order.receiverId && order.receiverId !== order.providerId
        ? "receiver"
        : "provider",
    senderLabel: label(s.senderId),
    receiverLabel: label(s.receiverId),
    carrier: s.carrier,
    trackingNumber: s.trackingNumber,
    callTag: s.callTag,
    status: s.status,
    labelUrl: s.labelUrl,
    trackingUrl: s.trackingUrl,
    pickupBy: s.pickupBy?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    modifiedAt: s.modifiedAt.toISOString(),
    events: events
      .filter((e) => e.shipmentId === s.id)
      .map((e) => ({
        id: e.id,
        status: e.status,
        description: e.description,
        eventTimestamp: e.eventTimestamp.toISOString(),
        createdAt: e.createdAt.toISOString(),
      })),
  };
}

/** A payment row; its provider reference for staff only. */
function paymentView(p: DetailRows["pays"][number], order: OrderRow, staff: boolean): PaymentView {
  return {
    id: p.id,
    retailerId: p.retailerId,
    side: p.retailerId === order.providerId ? "provider" : "receiver",
    name: p.name,
    txtype: p.txtype,
    amountCents: p.amountCents,
    feeCents: p.feeCents,
    status: p.status,
    queued: p.queued,
    providerRef: staff ? p.providerRef : null,
    methodDescription: p.paymentMethodDescription,
    lastFour: p.lastFour,
    releasedAt: p.releasedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
  };
}

function ratingView(r: DetailRows["rates"][number]): RatingView {
  const { role, raterId, condition, packaging, timeliness, overall, comments } = r;
  return {
    role,
    raterId,
    condition,
    packaging,
    timeliness,
    overall,
    comments,
    createdAt: r.createdAt.toISOString(),
  };
}

/** When the delivered scan was recorded (action 119), else when the delivered shipment last changed. */
function deliveredAtOf(rows: DetailRows): Date | null {
  const scan = rows.actions.find((a) => a.code === ACTION.SHIPMENT_DELIVERED);
  return scan?.createdAt ?? rows.ships.find((s) => s.status === "delivered")?.modifiedAt ?? null;
}

/**
 * The order as this viewer may see it, or null (not found, or not a party and not staff: the caller answers
 * 404). A retailer sees only its own payments; staff see everything, with store names, and the ledger.
 */
export async function getOrderDetail(
  db: DbOrTx,
  orderId: number,
  viewer: DetailViewer,
): Promise<OrderDetail | null> {
  if (!Number.isSafeInteger(orderId) || orderId <= 0) return null;
  // The parts are dropped unread when the viewer may not see the order.
  const rows = await readOrderDetail(db, orderId, viewer);
  const { head } = rows;
  if (!head) return null;
  const order = head.order;
  const isParty =
    viewer.retailerId !== null &&
    (order.providerId === viewer.retailerId || order.receiverId === viewer.retailerId);
  if (!isParty && !viewer.isStaff) return null;
  const role: Role | null = isParty ? roleOf(order, viewer.retailerId!) : null;
  const swap = order.transactionType === TRANSACTION_TYPE.SWAP;

  const names = new Map<number, string>();
  if (head.providerName !== null) names.set(order.providerId, head.providerName);
  if (head.receiverName !== null) names.set(order.receiverId, head.receiverName);
  const label = (id: number) =>
    displayRetailer({ id, storeName: names.get(id) ?? null }, viewer.isStaff, viewer.retailerId);
  const deliveredAt = deliveredAtOf(rows);

  return {
    id: order.id,
    externalId: order.externalId,
    workflowId: order.workflowId,
    ttype: ttypeOf(order.transactionType),
    transactionType: order.transactionType,
    role,
    typeLabel: orderTypeLabel(order.transactionType, role),
    brandId: order.brandId,
    brandName: head.brandName,
    providerId: order.providerId,
    receiverId: order.receiverId,
    providerLabel: label(order.providerId),
    receiverLabel: label(order.receiverId),
    counterpartyLabel: role
      ? label(role === "provider" ? order.receiverId : order.providerId)
      : `${label(order.providerId)} → ${label(order.receiverId)}`,
    requestId: order.requestId,
    placedBy: head.placedBy,
    placedByUserId: head.placedByUserId,
    approvedBy: head.approvedBy,
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
    reasons: reasonViews(
      currentReasons(ttypeOf(order.transactionType), order.statename, order.reasons),
      role,
      rows.actions.map((a) => a.code),
    ),
    lines: rows.lines.map((l) => ({ ...l, sizes: l.units, pendingSizes: l.pendingUnits ?? null })),
    actions: rows.actions.map(actionView),
    shipments: rows.ships.map((s) =>
      shipmentView(s, rows.events, order, isParty ? viewer.retailerId : null, label),
    ),
    payments: rows.pays.map((p) => paymentView(p, order, viewer.isStaff)),
    ratings: rows.rates.map(ratingView),
    deliveredAt: deliveredAt ? deliveredAt.toISOString() : null,
    swapWindows: role && swap ? swapWindowsOf(order.deadlines, role) : null,
    storeApprovalBy: role === "receiver" ? (order.deadlines?.storeApprovalBy ?? null) : null,
    swapAmounts: swapAmountsOf(order),
    ledger: viewer.isStaff
      ? swap
        ? swapLedgerOf(order, rows.lines, rows.ships, rows.pays)
        : (order.ledger ?? null)
      : null,
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
  lines: {
    productCode: string;
    displayName: string;
    color: string;
    brandName: string;
    sizes: Record<string, number>;
    quantity: number;
  }[];
  totalUnits: number;
}

/**
 * What the packing slip and the shipper checklist print for one parcel of an order: anonymous labels only
 * (the slip goes inside the box; staff get the same anonymous document). A purchase has one parcel, the
 * provider's; a swap has one per side: a party gets its own outgoing parcel, staff the `side` asked for
 * (default the provider's). Null when the viewer may not see the order.
 */
export async function getPackingSlipData(
  db: DbOrTx,
  orderId: number,
  viewer: DetailViewer,
  side?: Role,
): Promise<PackingSlipData | null> {
  let detail = await getOrderDetail(db, orderId, { retailerId: viewer.retailerId, isStaff: false });
  if (!detail && viewer.isStaff)
    detail = await getOrderDetail(db, orderId, { retailerId: null, isStaff: true });
  if (!detail) return null;
  const swap = detail.transactionType === TRANSACTION_TYPE.SWAP;
  const sender: Role = !swap ? "provider" : (detail.role ?? side ?? "provider");
  const rma = detail.transactionType === TRANSACTION_TYPE.RMA;
  // What is in the box: lines with units (not a removed swap line, not a denied RMA line), of the parcel's
  // side; an RMA's only where the reason ships goods back (not missing units).
  const goods = detail.lines.filter(
    (l) =>
      l.type === "goods" &&
      l.quantity > 0 &&
      (!swap || l.side === sender) &&
      (!rma || (l.rmaReason !== null && rmaReasonCountsForShipping(l.rmaReason, l.rmaReasonOther))),
  );
  const ship = detail.shipments.filter((s) => s.senderSide === sender).at(-1) ?? null;
  const approved = detail.actions.find(
    (a) =>
      a.code === ACTION.PROVIDER_APPROVE_SALE ||
      a.code === ACTION.RECEIVER_APPROVE_PURCHASE ||
      a.code === ACTION.CONFIRM_SWAP_ITEMS,
  );
  const senderId = sender === "provider" ? detail.providerId : detail.receiverId;
  const receiverId = sender === "provider" ? detail.receiverId : detail.providerId;
  return {
    orderId: detail.id,
    externalId: detail.externalId,
    typeLabel: packingSlipTypeLabel(detail.transactionType),
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
    lines: goods.map((l) => ({
      productCode: l.productCode,
      displayName: l.displayName,
      color: l.color,
      brandName: l.brandName,
      sizes: l.sizes,
      quantity: l.quantity,
    })),
    totalUnits: goods.reduce((a, l) => a + l.quantity, 0),
  };
}

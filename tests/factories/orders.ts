/**
 * Orders straight into the read-model tables (orders, order_contributions, order_actions, shipments,
 * shipment_events, payments, ratings), as the buy workflow's activities would leave them at a given state.
 * For page and query tests that need an order in a state without running a workflow.
 *
 *   const o = await createOrderAt(db, "ship_order", { providerId, receiverId, variationId, sizes: { M: 2 } });
 */
import { purchaseQuote } from "../../domain/fees";
import { ACTION } from "../../domain/action-codes";
import {
  actionNeededBy,
  completedFlagFor,
  displayStatusFor,
  stageForState,
  SWAP_STATES,
  TRANSACTION_TYPE,
  type Role,
} from "../../domain/states";
import {
  orderActions,
  orderContributions,
  orders,
  payments,
  ratings,
  shipmentEvents,
  shipments,
  type SizesMap,
} from "../../db/schema";
import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { createRma, type RmaRequest, type RmaStart } from "../../db/queries/rmas";
import { sumSizes, uniqueToken } from "./util";

export type OrderRow = typeof orders.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

export interface OrderLineInput {
  variationId: number;
  listingId?: number | null;
  sizes: SizesMap;
  /** Default: the variation's price. */
  unitPriceCents?: number;
  pendingSizes?: SizesMap | null;
}

export interface CreateOrderInput {
  providerId: number;
  receiverId: number;
  lines: OrderLineInput[];
  statename?: string;
  transactionType?: number;
  requestId?: number | null;
  displayStatus?: string;
  stage?: string;
  actionNeeded?: Role | null;
  completed?: boolean | null;
  isModified?: boolean;
  reasons?: Record<string, number>;
  floorTime?: string | null;
  externalId?: string;
  authorizedCents?: number;
  capturedCents?: number;
  ledger?: Record<string, number | boolean> | null;
  modifiedAt?: Date;
  createdAt?: Date;
}

export interface CreatedOrder {
  order: OrderRow;
  quote: {
    goodsCents: number;
    feeCents: number;
    shippingCents: number;
    totalCents: number;
    units: number;
  };
}

async function priceOf(
  db: DbOrTx,
  variationId: number,
): Promise<{ price: number; brandId: number }> {
  const v = await db.query.productVariations.findFirst({
    where: (pv, { eq }) => eq(pv.id, variationId),
    columns: { priceCents: true, brandId: true },
  });
  if (!v) throw new Error(`variation ${variationId} not found`);
  return { price: v.priceCents, brandId: v.brandId };
}

/** An order row with its goods lines; amounts from domain/fees purchaseQuote. */
export async function createOrder(db: DbOrTx, input: CreateOrderInput): Promise<CreatedOrder> {
  const statename = input.statename ?? "provider_approve_sale";
  const priced: { line: OrderLineInput; unitPriceCents: number; brandId: number }[] = [];
  for (const l of input.lines) {
    const v = await priceOf(db, l.variationId);
    priced.push({ line: l, unitPriceCents: l.unitPriceCents ?? v.price, brandId: v.brandId });
  }
  const q = purchaseQuote(
    priced.map((p) => ({ unitPriceCents: p.unitPriceCents, units: p.line.sizes })),
  );
  const approvedStates = [
    "ship_order",
    "ship_order_try2",
    "in_route",
    "delivered",
    "completed",
    "cancelled",
  ];
  const captured = input.capturedCents ?? (approvedStates.includes(statename) ? q.totalCents : 0);
  const [order] = await db
    .insert(orders)
    .values({
      externalId: input.externalId ?? `T${uniqueToken().toUpperCase()}`,
      workflowId: `test-order:${uniqueToken()}`,
      transactionType: input.transactionType ?? TRANSACTION_TYPE.SALE,
      brandId: priced[0]?.brandId ?? null,
      providerId: input.providerId,
      receiverId: input.receiverId,
      requestId: input.requestId ?? null,
      statename,
      displayStatus: input.displayStatus ?? displayStatusFor("buy", statename),
      actionNeeded:
        input.actionNeeded === undefined ? actionNeededBy("buy", statename) : input.actionNeeded,
      stage: input.stage ?? stageForState(statename),
      completed: input.completed === undefined ? completedFlagFor(statename) : input.completed,
      isModified: input.isModified ?? false,
      valueCents: q.goodsCents,
      receiverFeeCents: q.feeCents,
      receiverShippingCents: q.shippingCents,
      receiverGrandTotalCents: q.totalCents,
      authorizedCents:
        input.authorizedCents ?? (statename === "complete_order_checkout" ? 0 : q.totalCents),
      capturedCents: captured,
      reasons: input.reasons ?? {},
      floorTime: input.floorTime ?? null,
      ledger: input.ledger ?? null,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
      ...(input.modifiedAt ? { modifiedAt: input.modifiedAt } : {}),
    })
    .returning();
  await db.insert(orderContributions).values(
    priced.map((p) => {
      const quantity = sumSizes(p.line.sizes);
      return {
        orderId: order.id,
        side: "provider",
        type: "goods",
        listingId: p.line.listingId ?? null,
        variationId: p.line.variationId,
        units: p.line.sizes,
        pendingUnits: p.line.pendingSizes ?? null,
        quantity,
        unitPriceCents: p.unitPriceCents,
        valueCents: p.unitPriceCents * quantity,
      };
    }),
  );
  return { order, quote: q };
}

/**
 * A swap's row waiting for its provider's approval (provider_approve, pre_shipping), with the provider's goods
 * lines: for page and access tests that need a swap to open, not one that has run.
 */
export async function createSwapOrder(
  db: DbOrTx,
  input: Pick<CreateOrderInput, "providerId" | "receiverId" | "lines" | "externalId">,
): Promise<CreatedOrder> {
  const statename = SWAP_STATES.PROVIDER_APPROVE;
  return createOrder(db, {
    ...input,
    statename,
    displayStatus: displayStatusFor("swap", statename),
    actionNeeded: actionNeededBy("swap", statename),
    stage: "pre_shipping",
    completed: null,
    transactionType: TRANSACTION_TYPE.SWAP,
  });
}

/**
 * The victim's RMA of one unit of an order's first goods line ("missing units"), written by the wizard's own
 * query (db/queries/rmas createRma: the RMA row, its line, its pictures attached); no workflow is started.
 */
export async function createRmaOf(
  db: Db,
  orderId: number,
  input: {
    victimId: number;
    contact: RmaRequest["contact"];
    pictures?: string[];
    uploaderUserId?: number;
  },
): Promise<RmaStart> {
  const [source] = await db
    .select({ id: orderContributions.id })
    .from(orderContributions)
    .where(eq(orderContributions.orderId, orderId))
    .orderBy(orderContributions.id)
    .limit(1);
  return createRma(db, {
    orderId,
    victimId: input.victimId,
    uploaderUserId: input.uploaderUserId,
    contact: input.contact,
    lines: [{ sourceId: source.id, quantity: 1, reason: 2, pictures: input.pictures }],
    workflowIdFor: (id) => `test-rma:${id}`,
  });
}

export interface AddActionInput {
  code: number;
  role: string;
  participantId?: number | null;
  statename?: string;
  displayStatus?: string;
  complete?: boolean;
  seenAt?: Date | null;
  createdAt?: Date;
}

export async function addOrderAction(db: DbOrTx, order: OrderRow, a: AddActionInput) {
  const [row] = await db
    .insert(orderActions)
    .values({
      orderId: order.id,
      code: a.code,
      role: a.role,
      participantId:
        a.participantId ??
        (a.role === "provider"
          ? order.providerId
          : a.role === "receiver"
            ? order.receiverId
            : null),
      statename: a.statename ?? order.statename,
      displayStatus: a.displayStatus ?? order.displayStatus,
      complete: a.complete ?? true,
      seenAt: a.seenAt ?? null,
      ...(a.createdAt ? { createdAt: a.createdAt } : {}),
    })
    .returning();
  return row;
}

export interface AddShipmentInput {
  status?: string;
  trackingNumber?: string;
  callTag?: string;
  pickupBy?: Date | null;
  modifiedAt?: Date;
  events?: { status: string; description: string; at: Date }[];
}

export async function addShipment(
  db: DbOrTx,
  order: OrderRow,
  s: AddShipmentInput = {},
): Promise<ShipmentRow> {
  const tok = uniqueToken().toUpperCase();
  const [row] = await db
    .insert(shipments)
    .values({
      orderId: order.id,
      senderId: order.providerId,
      receiverId: order.receiverId,
      trackingNumber: s.trackingNumber ?? `1ZTEST${tok}`,
      callTag: s.callTag ?? `CT${tok}`,
      status: s.status ?? "pickup_scheduled",
      labelUrl: null,
      pickupBy: s.pickupBy ?? null,
      ...(s.modifiedAt ? { modifiedAt: s.modifiedAt } : {}),
    })
    .returning();
  for (const e of s.events ?? []) {
    await db.insert(shipmentEvents).values({
      shipmentId: row.id,
      providerEventId: `evt_${uniqueToken()}`,
      status: e.status,
      description: e.description,
      eventTimestamp: e.at,
    });
  }
  return row;
}

export interface AddPaymentInput {
  retailerId: number;
  name: string;
  txtype: string;
  amountCents: number;
  feeCents?: number;
  status?: string;
  queued?: boolean;
  lastFour?: string | null;
  description?: string | null;
  releasedAt?: Date | null;
}

export async function addPayment(
  db: DbOrTx,
  order: OrderRow,
  p: AddPaymentInput,
): Promise<PaymentRow> {
  const [row] = await db
    .insert(payments)
    .values({
      orderId: order.id,
      retailerId: p.retailerId,
      name: p.name,
      txtype: p.txtype,
      amountCents: p.amountCents,
      feeCents: p.feeCents ?? 0,
      status: p.status ?? "succeeded",
      queued: p.queued ?? false,
      providerRef: `pi_test_${uniqueToken()}`,
      idempotencyKey: `test:${order.id}:${uniqueToken()}`,
      paymentMethodDescription: p.description ?? null,
      lastFour: p.lastFour ?? null,
      releasedAt: p.releasedAt ?? null,
    })
    .returning();
  return row;
}

export async function addRating(
  db: DbOrTx,
  order: OrderRow,
  r: { role?: Role; stars?: number; comments?: string } = {},
) {
  const role = r.role ?? "receiver";
  const stars = r.stars ?? 4;
  const [row] = await db
    .insert(ratings)
    .values({
      orderId: order.id,
      raterId: role === "receiver" ? order.receiverId : order.providerId,
      rateeId: role === "receiver" ? order.providerId : order.receiverId,
      role,
      condition: stars,
      packaging: stars,
      timeliness: stars,
      overall: stars,
      comments: r.comments ?? "",
    })
    .returning();
  return row;
}

/**
 * An order as the buy workflow leaves it in `statename`, with the action codes, shipment, payments and
 * (for delivered) the delivery scan it would have recorded. `deliveredAt` sets when it was delivered.
 */
export async function createOrderAt(
  db: DbOrTx,
  statename: string,
  input: Omit<CreateOrderInput, "statename"> & {
    deliveredAt?: Date;
    unseen?: boolean;
    card?: { lastFour: string; description: string };
  },
): Promise<CreatedOrder & { shipment: ShipmentRow | null }> {
  const created = await createOrder(db, { ...input, statename });
  const o = created.order;
  const seenAt = input.unseen === false ? new Date() : null;
  const card = input.card ?? { lastFour: "4242", description: "Visa" };
  const now = Date.now();
  const at = (minsAgo: number) => new Date(now - minsAgo * 60_000);
  const act = (code: number, role: string, createdAt: Date) =>
    addOrderAction(db, o, { code, role, seenAt, createdAt });
  let shipment: ShipmentRow | null = null;
  if (input.requestId) await act(ACTION.ORDER_CREATED_FOR_REQUEST, "provider", at(600));
  if (statename !== "complete_order_checkout" && !input.requestId) {
    await act(ACTION.CHECKOUT_COMPLETED, "receiver", at(500));
  }
  if (statename === "receiver_approve_modified_purchase") {
    await act(ACTION.PROVIDER_MODIFY_SALE, "provider", at(400));
  }
  const shipped = ["ship_order", "ship_order_try2", "in_route", "delivered", "completed"].includes(
    statename,
  );
  if (shipped || statename === "cancelled") {
    await act(ACTION.PROVIDER_APPROVE_SALE, "provider", at(300));
    await act(ACTION.PAYMENT_CAPTURED, "system", at(300));
    await act(ACTION.CALL_TAG_SCHEDULED_ORDER, "system", at(300));
    await addPayment(db, o, {
      retailerId: o.receiverId,
      name: "receiver payment",
      txtype: "capture",
      amountCents: created.quote.totalCents,
      feeCents: created.quote.feeCents,
      lastFour: card.lastFour,
      description: card.description,
    });
    const status =
      statename === "in_route"
        ? "in_route"
        : statename === "delivered" || statename === "completed"
          ? "delivered"
          : statename === "cancelled"
            ? "cancelled"
            : "pickup_scheduled";
    const events: { status: string; description: string; at: Date }[] = [];
    if (["in_route", "delivered", "completed"].includes(statename))
      events.push({ status: "picked_up", description: "Picked up by the carrier", at: at(200) });
    if (status === "delivered")
      events.push({
        status: "delivered",
        description: "Delivered",
        at: input.deliveredAt ?? at(100),
      });
    shipment = await addShipment(db, o, {
      status,
      events,
      pickupBy: new Date(now + 2 * 86_400_000),
      modifiedAt: input.deliveredAt,
    });
  }
  if (["in_route", "delivered", "completed"].includes(statename)) {
    await act(ACTION.SHIPMENT_PICKED_UP, "carrier", at(200));
    await act(ACTION.PAYOUT_RELEASED, "system", at(200));
    await addPayment(db, o, {
      retailerId: o.providerId,
      name: "provider payout",
      txtype: "transfer",
      amountCents: created.quote.goodsCents,
      releasedAt: at(200),
    });
  }
  if (statename === "delivered" || statename === "completed") {
    await act(ACTION.SHIPMENT_DELIVERED, "carrier", input.deliveredAt ?? at(100));
  }
  return { ...created, shipment };
}

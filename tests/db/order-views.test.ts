/**
 * Read-model queries of the order pages (db/queries/order-views/): alerts by tab pending / declined with
 * counters, seen-marking that clears the action count (db/queries/order-seen.ts), approved orders with the Delivered filter and
 * Outgoing / Incoming shipments, the detail (party-only, own payments, "You:" / "Other Retailer:" reasons,
 * anonymity), the packing slip data, and the staff lists with stage / type / action-code filters.
 * Orders are written straight into the read-model tables by tests/factories/orders.ts.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { markOrdersSeen } from "../../db/queries/order-seen";
import {
  findOrderId,
  getOrderDetail,
  getPackingSlipData,
} from "../../db/queries/order-views/order-detail";
import {
  alertCounters,
  listAlerts,
  listApprovedOrders,
} from "../../db/queries/order-views/retailer-lists";
import { listActiveShipments, listAdminOrders } from "../../db/queries/order-views/staff-lists";
import { orders } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { SWAP_STATES } from "../../domain/states";
import { createRetailer, createWorld, SIZE_RUNS } from "../factories";
import {
  addOrderAction,
  addPayment,
  addRating,
  createOrderAt,
  createRmaOf,
  createSwapOrder,
} from "../factories/orders";
import { useTestDb } from "./helpers";

const db = useTestDb(3);

let seller: { id: number; storeName: string };
let buyer: { id: number; storeName: string };
let outsider: { id: number; storeName: string };
let variationId: number;

/** A retailer with a payout account and no login. */
const retailer = async (storeName?: string) =>
  (await createRetailer(db, { payout: true, user: false, storeName })).retailer;

beforeAll(async () => {
  const { products } = await createWorld(db, {
    products: [{ sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
  });
  const p = products[0];
  variationId = p.variations[0].id;
  seller = await retailer(`Seller Secret Store ${Date.now()}`);
  buyer = await retailer(`Buyer Hidden Shop ${Date.now()}`);
  outsider = await retailer();
});

/** A one-unit swap draft between two new retailers (p provides, r receives). */
async function swapBetweenTwo() {
  const p = await retailer();
  const r = await retailer();
  const swap = await createSwapOrder(db, {
    providerId: p.id,
    receiverId: r.id,
    lines: [{ variationId, sizes: { L: 1 } }],
  });
  return { p, r, swap };
}

/** Sets an order's state as the read model's write would (what the lists and the bell read). */
const moveOrder = (id: number, to: { statename?: string; actionNeeded?: string }) =>
  db.update(orders).set(to).where(eq(orders.id, id));

const parties = () => ({
  providerId: seller.id,
  receiverId: buyer.id,
  lines: [{ variationId, sizes: { S: 2, M: 1 } }],
});

describe("alerts", () => {
  it("lists pending orders per tab; the seller never sees the buyer's checkout draft; declined ones only in the declined view", async () => {
    const draft = await createOrderAt(db, "complete_order_checkout", parties());
    const waiting = await createOrderAt(db, "provider_approve_sale", parties());
    const modified = await createOrderAt(db, "receiver_approve_modified_purchase", {
      ...parties(),
      isModified: true,
    });
    const declined = await createOrderAt(db, "declined", {
      ...parties(),
      reasons: { provider_decline_buy_reason: 12 },
    });
    const shipped = await createOrderAt(db, "ship_order", parties());

    const sales = await listAlerts(db, seller.id, { kind: "sales", view: "pending", limit: 50 });
    const saleIds = sales.items.map((o) => o.id);
    expect(saleIds).toContain(waiting.order.id);
    expect(saleIds).toContain(modified.order.id);
    expect(saleIds).not.toContain(draft.order.id);
    expect(saleIds).not.toContain(declined.order.id);
    expect(saleIds).not.toContain(shipped.order.id);
    const card = sales.items.find((o) => o.id === waiting.order.id)!;
    expect(card.typeLabel).toBe("Sale");
    expect(card.counterpartyLabel).toBe(`retailer-00${buyer.id}`);
    expect(card.amountCents).toBe(waiting.quote.goodsCents);
    expect(card.myMove).toBe(true);

    const purchases = await listAlerts(db, buyer.id, {
      kind: "purchases",
      view: "pending",
      limit: 50,
    });
    const pIds = purchases.items.map((o) => o.id);
    expect(pIds).toEqual(
      expect.arrayContaining([draft.order.id, waiting.order.id, modified.order.id]),
    );
    const pcard = purchases.items.find((o) => o.id === waiting.order.id)!;
    expect(pcard.typeLabel).toBe("Purchase");
    expect(pcard.amountCents).toBe(waiting.quote.totalCents);
    expect(pcard.counterpartyLabel).toBe(`retailer-00${seller.id}`);

    const declinedView = await listAlerts(db, buyer.id, {
      kind: "purchases",
      view: "declined",
      limit: 50,
    });
    expect(declinedView.items.map((o) => o.id)).toEqual([declined.order.id]);
    expect(declinedView.items[0].displayStatus).toBe("Declined");

    // Nothing leaks to a retailer that is no party.
    expect((await listAlerts(db, outsider.id, { kind: "sales", view: "pending" })).total).toBe(0);
    expect((await listAlerts(db, outsider.id, { kind: "purchases", view: "pending" })).total).toBe(
      0,
    );
    // Paging: default 4 per page.
    expect(purchases.limit).toBe(50);
    expect((await listAlerts(db, buyer.id, { kind: "purchases", view: "pending" })).limit).toBe(4);
  });

  it("the declined view shows only Declined: an expired order is in neither list", async () => {
    const seller2 = await retailer();
    const buyer2 = await retailer();
    const two = {
      providerId: seller2.id,
      receiverId: buyer2.id,
      lines: [{ variationId, sizes: { S: 1 } }],
    };
    const declined = await createOrderAt(db, "declined", {
      ...two,
      reasons: { provider_decline_buy_reason: 12 },
    });
    const expired = await createOrderAt(db, "expired", two);
    expect(expired.order).toMatchObject({ stage: "declined", displayStatus: "Expired" });
    for (const [who, kind] of [
      [buyer2.id, "purchases"],
      [seller2.id, "sales"],
    ] as const) {
      const view = await listAlerts(db, who, { kind, view: "declined", limit: 50 });
      expect(view.items.map((o) => o.id)).toEqual([declined.order.id]);
      expect(view.total).toBe(1);
      expect(
        (await listAlerts(db, who, { kind, view: "pending", limit: 50 })).items.map((o) => o.id),
      ).not.toContain(expired.order.id);
    }
  });

  it("counts the orders waiting for the retailer per kind; seen-marking clears the action count, not the bell", async () => {
    const s = await retailer();
    const b = await retailer();
    const base = { providerId: s.id, receiverId: b.id, lines: [{ variationId, sizes: { L: 1 } }] };
    const o1 = await createOrderAt(db, "provider_approve_sale", base);
    await createOrderAt(db, "provider_approve_sale", base);
    const o3 = await createOrderAt(db, "receiver_approve_modified_purchase", base);

    let sc = await alertCounters(db, s.id);
    expect(sc).toMatchObject({ sale_alerts: 2, purchase_alerts: 0, swap_alerts: 0 });
    expect(sc.unseen).toEqual({ sales: 2, purchases: 0, swaps: 0, total: 2 });
    const bc = await alertCounters(db, b.id);
    expect(bc).toMatchObject({ sale_alerts: 0, purchase_alerts: 1, swap_alerts: 0 });
    expect(bc.unseen.total).toBe(1);

    // An outsider marking cannot clear anything; the seller's own actions are not "new" to it.
    expect(await markOrdersSeen(db, outsider.id, [o1.order.id])).toBe(0);
    expect(await markOrdersSeen(db, s.id, [o1.order.id, o3.order.id])).toBeGreaterThan(0);
    sc = await alertCounters(db, s.id);
    expect(sc.sale_alerts).toBe(2);
    expect(sc.unseen).toEqual({ sales: 1, purchases: 0, swaps: 0, total: 1 });
    const list = await listAlerts(db, s.id, { kind: "sales", view: "pending" });
    expect(list.items.find((o) => o.id === o1.order.id)!.unseen).toBe(false);
    // The buyer's own alert is untouched by the seller's seen-marking of o3 (the seller's modification is new to the buyer).
    expect((await alertCounters(db, b.id)).unseen.total).toBe(1);
    // A new action by the buyer makes o1 new again for the seller.
    await addOrderAction(db, o1.order, { code: ACTION.PAYMENT_METHOD_ADDED, role: "receiver" });
    expect((await alertCounters(db, s.id)).unseen.sales).toBe(2);
  });

  it("a swap draft not checked out yet is the receiver's alone: the provider's lists and bell do not show it", async () => {
    const { p, r, swap } = await swapBetweenTwo();
    await moveOrder(swap.order.id, {
      statename: "complete_order_checkout",
      actionNeeded: "receiver",
    });
    expect(
      (await listAlerts(db, p.id, { kind: "swaps", view: "pending" })).items.map((o) => o.id),
    ).not.toContain(swap.order.id);
    expect((await alertCounters(db, p.id)).swap_alerts).toBe(0);
    expect(
      (await listAlerts(db, r.id, { kind: "swaps", view: "pending" })).items.map((o) => o.id),
    ).toContain(swap.order.id);
    // Checked out: the provider's to choose, in its list.
    await moveOrder(swap.order.id, {
      statename: SWAP_STATES.PROVIDER_CHOOSE_ITEMS,
      actionNeeded: "provider",
    });
    expect(
      (await listAlerts(db, p.id, { kind: "swaps", view: "pending" })).items.map((o) => o.id),
    ).toContain(swap.order.id);
  });

  it("a swap waiting for both sides' payment is each side's move: both get the bell and the marker", async () => {
    const { p, r, swap } = await swapBetweenTwo();
    await moveOrder(swap.order.id, { statename: SWAP_STATES.PAYMENT, actionNeeded: "both" });
    for (const who of [p.id, r.id]) {
      expect((await alertCounters(db, who)).swap_alerts).toBe(1);
      const [item] = (await listAlerts(db, who, { kind: "swaps", view: "pending" })).items;
      expect(item).toMatchObject({ id: swap.order.id, myMove: true });
    }
    // Once the provider has paid, only the receiver's.
    await moveOrder(swap.order.id, { actionNeeded: "receiver" });
    expect([
      (await alertCounters(db, p.id)).swap_alerts,
      (await alertCounters(db, r.id)).swap_alerts,
    ]).toEqual([0, 1]);
  });
});

describe("approved orders", () => {
  it("lists approved stages with Outgoing / Incoming shipments and the Delivered filter", async () => {
    const s = await retailer();
    const b = await retailer();
    const base = { providerId: s.id, receiverId: b.id, lines: [{ variationId, sizes: { M: 3 } }] };
    const pending = await createOrderAt(db, "provider_approve_sale", base);
    const ship = await createOrderAt(db, "ship_order", base);
    const route = await createOrderAt(db, "in_route", base);
    const delivered = await createOrderAt(db, "delivered", base);
    const cancelled = await createOrderAt(db, "cancelled", {
      ...base,
      reasons: { provider_cancel_shipment_reason: 52 },
    });

    const sales = await listApprovedOrders(db, s.id, { kind: "sales", limit: 50 });
    const ids = sales.items.map((o) => o.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        ship.order.id,
        route.order.id,
        delivered.order.id,
        cancelled.order.id,
      ]),
    );
    expect(ids).not.toContain(pending.order.id);
    expect(sales.items.find((o) => o.id === route.order.id)!.shipments[0]).toMatchObject({
      direction: "Outgoing",
      status: "in_route",
    });

    const purchases = await listApprovedOrders(db, b.id, { kind: "purchases", limit: 50 });
    expect(purchases.items.find((o) => o.id === delivered.order.id)!.shipments[0]).toMatchObject({
      direction: "Incoming",
      status: "delivered",
    });

    const onlyDelivered = await listApprovedOrders(db, b.id, {
      kind: "purchases",
      delivered: true,
      limit: 50,
    });
    expect(onlyDelivered.items.map((o) => o.id)).toEqual([delivered.order.id]);
    expect((await listApprovedOrders(db, b.id, { kind: "sales", limit: 50 })).total).toBe(0);
  });
});

describe("detail", () => {
  it("is for the parties and staff only; a retailer gets labels (never names) and only its own payments", async () => {
    const d = await createOrderAt(db, "delivered", {
      ...parties(),
      card: { lastFour: "4444", description: "Mastercard" },
    });
    await addRating(db, d.order, { stars: 5, comments: "Great" });
    await addPayment(db, d.order, {
      retailerId: seller.id,
      name: "penalty fee",
      txtype: "penalty",
      amountCents: 100,
      queued: true,
    });

    expect(
      await getOrderDetail(db, d.order.id, { retailerId: outsider.id, isStaff: false }),
    ).toBeNull();
    expect(
      await getOrderDetail(db, 987654321, { retailerId: buyer.id, isStaff: false }),
    ).toBeNull();

    const mine = (await getOrderDetail(db, d.order.id, { retailerId: buyer.id, isStaff: false }))!;
    expect(mine.role).toBe("receiver");
    expect(mine.typeLabel).toBe("Purchase");
    expect(mine.counterpartyLabel).toBe(`retailer-00${seller.id}`);
    expect(mine.payments.every((p) => p.retailerId === buyer.id)).toBe(true);
    expect(mine.payments[0]).toMatchObject({
      lastFour: "4444",
      methodDescription: "Mastercard",
      providerRef: null,
    });
    expect(mine.deliveredAt).not.toBeNull();
    expect(mine.ledger).toBeNull();
    expect(mine.ratings[0]).toMatchObject({ overall: 5, comments: "Great" });
    const json = JSON.stringify(mine);
    expect(json).not.toContain(seller.storeName);
    expect(json).not.toContain(buyer.storeName);

    const sellerView = (await getOrderDetail(db, d.order.id, {
      retailerId: seller.id,
      isStaff: false,
    }))!;
    expect(sellerView.typeLabel).toBe("Sale");
    const payout = sellerView.payments.find((p) => p.txtype === "transfer")!;
    expect(payout.releasedAt).not.toBeNull();
    expect(sellerView.payments.some((p) => p.queued)).toBe(true);
    expect(JSON.stringify(sellerView)).not.toContain(buyer.storeName);

    const staff = (await getOrderDetail(db, d.order.id, { retailerId: null, isStaff: true }))!;
    expect(staff.role).toBeNull();
    expect(staff.providerLabel).toBe(seller.storeName);
    expect(staff.receiverLabel).toBe(buyer.storeName);
    expect(staff.payments.length).toBe(3);
    expect(staff.actions.map((a) => a.code)).toEqual(
      expect.arrayContaining([ACTION.SHIPMENT_PICKED_UP, ACTION.SHIPMENT_DELIVERED]),
    );
  });

  it("finds an order by its number or an action id; the packing slip data is anonymous even for staff", async () => {
    const o = await createOrderAt(db, "ship_order", parties());
    expect(await findOrderId(db, o.order.externalId)).toBe(o.order.id);
    const act = await addOrderAction(db, o.order, {
      code: ACTION.CALL_TAG_SCHEDULED_ORDER,
      role: "system",
    });
    expect(await findOrderId(db, String(act.id))).toBe(o.order.id);
    expect(await findOrderId(db, "no-such-order")).toBeNull();
    expect(await findOrderId(db, "x".repeat(100))).toBeNull();

    const slip = (await getPackingSlipData(db, o.order.id, {
      retailerId: seller.id,
      isStaff: false,
    }))!;
    expect(slip).toMatchObject({
      senderLabel: `retailer-00${seller.id}`,
      receiverLabel: `retailer-00${buyer.id}`,
      totalUnits: 3,
    });
    expect(slip.trackingNumber).toMatch(/^1ZTEST/);
    const staffSlip = (await getPackingSlipData(db, o.order.id, {
      retailerId: null,
      isStaff: true,
    }))!;
    expect(JSON.stringify(staffSlip)).not.toContain(seller.storeName);
    expect(
      await getPackingSlipData(db, o.order.id, { retailerId: outsider.id, isStaff: false }),
    ).toBeNull();
  });
});

describe("staff lists", () => {
  it("filters transactions by stage, type and action code, with store names", async () => {
    const s = (
      await createRetailer(db, {
        payout: true,
        user: false,
        storeName: `Staff Filter Seller ${Date.now()}`,
      })
    ).retailer;
    const base = {
      providerId: s.id,
      receiverId: buyer.id,
      lines: [{ variationId, sizes: { XS: 1 } }],
    };
    const shipped = await createOrderAt(db, "in_route", base);
    const pending = await createOrderAt(db, "provider_approve_sale", base);

    const shipping = await listAdminOrders(db, { stage: "shipping", limit: 100 });
    expect(shipping.items.map((r) => r.id)).toContain(shipped.order.id);
    expect(shipping.items.map((r) => r.id)).not.toContain(pending.order.id);
    const row = shipping.items.find((r) => r.id === shipped.order.id)!;
    expect(row.providerName).toBe(s.storeName);
    expect(row.receiverName).toBe(buyer.storeName);
    expect(row.lastActionCode).not.toBeNull();

    const picked = await listAdminOrders(db, {
      stage: "all",
      action: ACTION.SHIPMENT_PICKED_UP,
      limit: 100,
    });
    expect(picked.items.map((r) => r.id)).toContain(shipped.order.id);
    expect(picked.items.map((r) => r.id)).not.toContain(pending.order.id);
    expect(
      (await listAdminOrders(db, { type: 2, limit: 100 })).items.map((r) => r.id),
    ).not.toContain(shipped.order.id);
    expect(
      (await listAdminOrders(db, { type: 1, stage: "pre_shipping", limit: 100 })).items.map(
        (r) => r.id,
      ),
    ).toContain(pending.order.id);

    // An RMA under the same stage filters: pending is its "rmarequested", complete its "rmacompleted".
    const delivered = await createOrderAt(db, "delivered", { ...base, deliveredAt: new Date() });
    const rma = await createRmaOf(db, delivered.order.id, {
      victimId: buyer.id,
      contact: {
        name: "Pat",
        email: "pat@example.test",
        phone: "555-0100",
        packingSlipName: "Pat",
      },
    });
    const rmaIds = async (stage: "pre_shipping" | "complete") =>
      (await listAdminOrders(db, { type: 3, stage, limit: 100 })).items.map((r) => r.id);
    expect(await rmaIds("pre_shipping")).toContain(rma.rmaId);
    await db.update(orders).set({ stage: "rmacompleted" }).where(eq(orders.id, rma.rmaId));
    expect(await rmaIds("complete")).toContain(rma.rmaId);
    expect(await rmaIds("pre_shipping")).not.toContain(rma.rmaId);

    const ships = await listActiveShipments(db, { limit: 100 });
    expect(ships.items.map((x) => x.orderId)).toContain(shipped.order.id);
    expect(
      ships.items.every((x) => x.status === "pickup_scheduled" || x.status === "in_route"),
    ).toBe(true);
  });
});

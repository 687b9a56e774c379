/**
 * The swap workflow's real activities (activities/swap) against Postgres with the sandbox payments adapter
 * and the sandbox carrier: the swap order row (createSwapOrder), the read-model write of a step
 * (recordSwapState: both sides' goods, a chosen line added, a removed line kept with no units, a late write
 * adds only its actions, notices anonymous and deduplicated; the terms the panel shows kept with the step that
 * wrote them, never replaced by a late write's), a shipment per side of one order, and the
 * payment of a side (declined card answered, never charged twice for one key), and the duplicate-swap guard.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBuyActivities } from "../../activities/buy";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { createSwapActivities } from "../../activities/swap";
import type { SwapStateRecord } from "../../workflows/swap/activities";
import { getOrderDetail } from "../../db/queries/order-views/order-detail";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { listOrderPayments } from "../../db/queries/payments";
import { listOrderShipments } from "../../db/queries/shipments";
import {
  createSwapOrder,
  recordedSwapView,
  swapGuardMessage,
  swapInProgress,
} from "../../db/queries/swap-orders";
import { listings, orderContributions, orders, outboxEmails, retailers } from "../../db/schema";
import {
  CARD_DECLINED,
  SWAP_ALREADY_THEIR_MOVE,
  SWAP_ALREADY_YOUR_MOVE,
} from "../../domain/messages";
import type { OrderLine } from "../../domain/order-money";
import { swapWorkflowId, type SwapView } from "../../workflows/swap/contract";
import { createSellerWithListing, listingLine, TEST_VISA } from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(12);
const server = http.createServer((_req, res) => res.writeHead(200).end("{}"));
let acts: ReturnType<typeof createSwapActivities>;
let buyActs: ReturnType<typeof createBuyActivities>;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const payments = new SandboxPayments(db);
  const carrier = createSandboxCarrier(db, {
    appOrigin: origin,
    webhookSecret: "carrier_swap_db_secret",
  });
  const buy = createBuyActivities({
    db,
    payments,
    carrier,
    appOrigin: "http://localhost:3000",
    timeZone: "America/New_York",
  });
  buyActs = buy;
  acts = createSwapActivities({
    db,
    buy,
    appOrigin: "http://localhost:3000",
    timeZone: "America/New_York",
  });
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function swapFixture() {
  const p = await createSellerWithListing(db, { sizes: { S: 2, M: 3 } });
  const r = await createSellerWithListing(db, { sizes: { L: 4, XL: 1 } });
  const providerLines: OrderLine[] = [listingLine(p, { M: 2 })];
  const order = await createSwapOrder(db, {
    providerId: p.seller.retailer.id,
    receiverId: r.seller.retailer.id,
    brandId: p.brand.id,
    providerLines,
    workflowIdFor: swapWorkflowId,
  });
  return { p, r, ...order, providerId: p.seller.retailer.id, receiverId: r.seller.retailer.id };
}
type Fixture = Awaited<ReturnType<typeof swapFixture>>;

/** The deadlines of a swap waiting for a side's turn (the provider's choice), as its step records them. */
const TURN_DEADLINES = {
  checkoutBy: null,
  turnBy: "2026-03-07T15:00:00.000Z",
  paymentBy: null,
  pickupBy: null,
};

function rec(f: Fixture, sequence: number, over: Partial<SwapStateRecord> = {}): SwapStateRecord {
  return {
    orderId: f.orderId,
    workflowId: f.workflowId,
    externalId: f.externalId,
    providerId: f.providerId,
    receiverId: f.receiverId,
    sequence,
    statename: "provider_choose_items",
    displayStatus: "Swap Requested",
    isModified: false,
    actionNeeded: "provider",
    providerLines: f.providerLines,
    receiverLines: [],
    callItEven: { provider: false, receiver: false },
    dues: { provider: 0, receiver: 0 },
    reasons: {},
    deadlines: TURN_DEADLINES,
    actions: [],
    notices: [],
    ...over,
  };
}

describe("swap read model", () => {
  test("a swap order is created with the provider's goods; each step writes both sides, keeps removed lines, and a late write adds only its actions", async () => {
    const f = await swapFixture();
    expect(await getOrderRow(db, f.orderId)).toMatchObject({
      transactionType: 2,
      statename: "complete_order_checkout",
      workflowId: `swap-order:${f.orderId}`,
    });
    const at = "2026-03-02T15:00:00.000Z";
    const chosen: OrderLine[] = [listingLine(f.r, { L: 1, XL: 1 })];
    const step2 = rec(f, 2, {
      statename: "provider_approve",
      receiverLines: chosen,
      actions: [{ code: 211, role: "provider", statename: "provider_approve", at }],
      notices: [
        {
          role: "receiver",
          template: "swap_approve_needed",
          dedupeKey: `${f.workflowId}:mail:swap_approve_needed:receiver:2`,
        },
      ],
    });
    await acts.recordSwapState(step2);
    await acts.recordSwapState(step2); // a retried activity
    // The opening write lands late: its action is history, the state stays.
    await acts.recordSwapState(
      rec(f, 1, {
        actions: [{ code: 210, role: "receiver", statename: "provider_choose_items", at }],
      }),
    );
    // The provider removes XL from the receiver's side: the line stays with fewer units.
    await acts.recordSwapState(
      rec(f, 3, {
        statename: "receiver_approve",
        actionNeeded: "receiver",
        isModified: true,
        receiverLines: [{ ...chosen[0], sizes: { L: 1 } }],
      }),
    );

    const row = await getOrderRow(db, f.orderId);
    expect(row).toMatchObject({
      statename: "receiver_approve",
      actionNeeded: "receiver",
      isModified: true,
      recordSeq: 3,
      valueCents: 2 * f.p.priceCents,
    });
    expect(row?.ledger).toMatchObject({
      providerGoodsCents: 2 * f.p.priceCents,
      receiverGoodsCents: f.r.priceCents,
    });
    const contribs = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, f.orderId));
    expect(contribs.map((c) => [c.side, c.listingId, c.units, c.quantity]).sort()).toEqual(
      [
        ["provider", f.p.listing.id, { M: 2 }, 2],
        ["receiver", f.r.listing.id, { L: 1 }, 1],
      ].sort(),
    );
    expect((await listOrderActions(db, f.orderId)).map((a) => [a.code, a.participantId])).toEqual([
      [211, f.providerId],
      [210, f.receiverId],
    ]);
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.kind, "swap:swap_approve_needed"));
    const mine = mails.filter((m) => m.bodyText.includes(f.externalId));
    expect(mine).toHaveLength(1);
    expect(mine[0].bodyText).toContain(`retailer-00${f.providerId}`);
    const [provider] = await db
      .select({ name: retailers.storeName })
      .from(retailers)
      .where(eq(retailers.id, f.providerId));
    expect(`${mine[0].subject}${mine[0].bodyText}`).not.toContain(provider.name);
  });
});

test("the swap's terms (the workflow's view) are kept with the step that wrote them: a late write leaves them, a newer write without them clears them", async () => {
  const f = await swapFixture();
  expect(await recordedSwapView(db, f.orderId)).toBeNull();
  const view = (statename: string, dueCents: number): SwapView => {
    const side = {
      lines: f.providerLines,
      approved: false,
      callItEven: false,
      dueCents,
      paid: false,
      shipment: null,
      rating: null,
      ratingBy: null,
      rmaBy: null,
    };
    return {
      orderId: f.orderId,
      workflowId: f.workflowId,
      statename,
      displayStatus: "Swap Requested",
      actionNeeded: "provider",
      isModified: false,
      declinedBy: null,
      provider: side,
      receiver: { ...side, lines: [] },
      valuation: {
        largerGoodsCents: 2 * f.p.priceCents,
        differenceCents: 0,
        cashFrom: null,
        callItEven: false,
      },
      deadlines: TURN_DEADLINES,
      actions: [],
      busy: false,
    };
  };
  await acts.recordSwapState(
    rec(f, 2, { statename: "provider_approve", view: view("provider_approve", 1234) }),
  );
  await acts.recordSwapState(rec(f, 1, { view: view("provider_choose_items", 1) })); // late
  expect(await recordedSwapView(db, f.orderId)).toEqual(view("provider_approve", 1234));
  await acts.recordSwapState(rec(f, 3, { statename: "receiver_approve" })); // a worker from before the view was kept
  expect(await getOrderRow(db, f.orderId)).toMatchObject({
    statename: "receiver_approve",
    recordSeq: 3,
  });
  expect(await recordedSwapView(db, f.orderId)).toBeNull();
});

describe("swap money and carrier", () => {
  test("a side's payment: a declined card is answered with the message; a good card is charged its due once per key", async () => {
    const f = await swapFixture();
    const declined = await acts.chargeSwapSide({
      idempotencyKey: `${f.workflowId}:swap-charge:provider:1`,
      orderId: f.orderId,
      retailerId: f.providerId,
      paymentMethod: {
        paymentMethodId: "tok_chargeDeclined",
        lastFour: "0002",
        description: "Visa",
      },
      amountCents: 5375,
    });
    expect(declined).toEqual({ status: "declined", message: CARD_DECLINED });
    const input = {
      idempotencyKey: `${f.workflowId}:swap-charge:provider:2`,
      orderId: f.orderId,
      retailerId: f.providerId,
      paymentMethod: TEST_VISA,
      amountCents: 5375,
    };
    const first = await acts.chargeSwapSide(input);
    const again = await acts.chargeSwapSide(input);
    expect(first.status).toBe("charged");
    expect(again).toEqual(first);
    const captures = (await listOrderPayments(db, f.orderId)).filter((x) => x.txtype === "capture");
    expect(captures.map((x) => [x.retailerId, x.amountCents])).toEqual([[f.providerId, 5375]]);
  });

  test("one order, two parcels: each side's pickup is its own shipment; a rebooking is a new call tag on that side's shipment", async () => {
    const f = await swapFixture();
    const pickupBy = "2026-03-09T22:00:00.000Z";
    const book = (side: "provider" | "receiver", attempt: number) =>
      acts.bookSwapPickup({
        idempotencyKey: `${f.workflowId}:swap-book-pickup:${side}:${attempt}`,
        orderId: f.orderId,
        side,
        attempt,
        senderId: side === "provider" ? f.providerId : f.receiverId,
        receiverId: side === "provider" ? f.receiverId : f.providerId,
        units: 2,
        pickupBy,
      });
    const a = await book("provider", 1);
    const b = await book("receiver", 1);
    expect(a.trackingNumber).not.toBe(b.trackingNumber);
    expect(await book("provider", 1)).toEqual(a); // a retry answers the same
    const again = await book("receiver", 2);
    expect(again.trackingNumber).toBe(b.trackingNumber);
    expect(again.callTag).not.toBe(b.callTag);
    const ships = await listOrderShipments(db, f.orderId);
    expect(ships.map((s) => [s.senderId, s.trackingNumber]).sort()).toEqual(
      [
        [f.providerId, a.trackingNumber],
        [f.receiverId, b.trackingNumber],
      ].sort(),
    );
  });
});

describe("what a modification reads (swapListedUnits, ADR 0025)", () => {
  test("each listing's owner, units, price and whether it is still an active swap listing; a listing gone is left out", async () => {
    const f = await swapFixture();
    await db
      .update(listings)
      .set({ listingType: "swap", status: "active" })
      .where(eq(listings.id, f.p.listing.id));
    await db
      .update(listings)
      .set({ listingType: "swap", status: "payoutneeded" })
      .where(eq(listings.id, f.r.listing.id));
    const read = await acts.swapListedUnits({
      orderId: f.orderId,
      listingIds: [f.r.listing.id, f.p.listing.id, 2_000_000_000],
    });
    expect(read).toEqual(
      [
        {
          listingId: f.p.listing.id,
          retailerId: f.providerId,
          variationId: f.p.variation.id,
          swappable: true,
          sizes: { S: 2, M: 3 },
          unitPriceCents: f.p.priceCents,
        },
        {
          listingId: f.r.listing.id,
          retailerId: f.receiverId,
          variationId: f.r.variation.id,
          swappable: false,
          sizes: { L: 4, XL: 1 },
          unitPriceCents: f.r.priceCents,
        },
      ].sort((a, b) => a.listingId - b.listingId),
    );
    expect(await acts.swapListedUnits({ orderId: f.orderId, listingIds: [] })).toEqual([]);
  });
});

describe("the last unit", () => {
  test("two swaps and a purchase racing for the last unit of a listing (each swap taking both sides' goods at once): exactly one wins, stock never below 0, a loser takes nothing", async () => {
    for (let round = 0; round < 5; round++) {
      const f = await swapFixture();
      // The provider's listing has M x 3 (S x 2 too); leave exactly one M.
      await db
        .update(listings)
        .set({ sizes: { S: 2, M: 1 }, totalUnits: 3 })
        .where(eq(listings.id, f.p.listing.id));
      const last = listingLine(f.p, { M: 1 });
      const theirs = listingLine(f.r, { L: 1 });
      const results = await Promise.all([
        acts.decrementSwapStock({
          idempotencyKey: `${f.workflowId}:swap-decrement-stock:1`,
          orderId: f.orderId,
          lines: [last, theirs],
        }),
        acts.decrementSwapStock({
          idempotencyKey: `swap-order:${f.orderId + 100_000}:swap-decrement-stock:1`,
          orderId: f.orderId + 100_000,
          lines: [theirs, last],
        }),
        buyActs.decrementStock({
          idempotencyKey: `buy-order:${f.orderId + 200_000}:decrement-stock:1`,
          orderId: f.orderId + 200_000,
          lines: [last],
        }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const [p] = await db
        .select({ sizes: listings.sizes, total: listings.totalUnits })
        .from(listings)
        .where(eq(listings.id, f.p.listing.id));
      const [r] = await db
        .select({ sizes: listings.sizes })
        .from(listings)
        .where(eq(listings.id, f.r.listing.id));
      expect(p).toEqual({ sizes: { S: 2, M: 0 }, total: 2 });
      // The receiver's L x 4 lost one unit only if a swap won (all of a swap's lines or none).
      const swapWon = results[0].ok || results[1].ok;
      expect(r.sizes).toEqual({ L: swapWon ? 3 : 4, XL: 1 });
    }
  });
});

describe("swap parcels in the read model", () => {
  test("each side's parcel follows the workflow's parcel: a side that never shipped stays cancelled while the other goes in route and is delivered; each side's windows are kept", async () => {
    const f = await swapFixture();
    const book = (side: "provider" | "receiver") =>
      acts.bookSwapPickup({
        idempotencyKey: `${f.workflowId}:swap-book-pickup:${side}:1`,
        orderId: f.orderId,
        side,
        attempt: 1,
        senderId: side === "provider" ? f.providerId : f.receiverId,
        receiverId: side === "provider" ? f.receiverId : f.providerId,
        units: 1,
        pickupBy: "2026-03-09T22:00:00.000Z",
      });
    await book("provider");
    await book("receiver");
    type Side = NonNullable<SwapStateRecord["sides"]>["provider"];
    const sides = (provider: Side, receiver: Side) => ({ provider, receiver });
    const status = async () =>
      Object.fromEntries(
        (await listOrderShipments(db, f.orderId)).map((x) => [
          x.senderId === f.providerId ? "provider" : "receiver",
          x.status,
        ]),
      );
    // The receiver never shipped (its parcel cancelled); the provider's is scanned: the swap goes in route.
    await acts.recordSwapState(
      rec(f, 5, {
        statename: "in_route",
        actionNeeded: null,
        sides: sides(
          { parcel: "in_route", ratingBy: null, rmaBy: null },
          { parcel: "cancelled", ratingBy: null, rmaBy: null },
        ),
      }),
    );
    expect(await status()).toEqual({ provider: "in_route", receiver: "cancelled" });
    // Delivered to the receiver: its windows for what it received are kept with the order.
    await acts.recordSwapState(
      rec(f, 6, {
        statename: "delivered",
        actionNeeded: null,
        sides: sides(
          { parcel: "delivered", ratingBy: null, rmaBy: null },
          {
            parcel: "cancelled",
            ratingBy: "2026-03-12T22:00:00.000Z",
            rmaBy: "2026-03-11T15:00:00.000Z",
          },
        ),
      }),
    );
    expect(await status()).toEqual({ provider: "delivered", receiver: "cancelled" });
    const receiverView = await getOrderDetail(db, f.orderId, {
      retailerId: f.receiverId,
      isStaff: false,
    });
    expect(receiverView?.swapWindows).toEqual({
      ratingBy: "2026-03-12T22:00:00.000Z",
      rmaBy: "2026-03-11T15:00:00.000Z",
    });
    const providerView = await getOrderDetail(db, f.orderId, {
      retailerId: f.providerId,
      isStaff: false,
    });
    expect(providerView?.swapWindows).toEqual({ ratingBy: null, rmaBy: null });
    expect(providerView?.shipments.map((x) => [x.senderSide, x.direction])).toEqual(
      expect.arrayContaining([
        ["provider", "Outgoing"],
        ["receiver", "Incoming"],
      ]),
    );
  });
});

describe("duplicate-swap guard", () => {
  test("a swap in progress between two retailers, either way round: yourmove for the side it waits for, theirmove for the other; none once it ends", async () => {
    const f = await swapFixture();
    const set = (statename: string, actionNeeded: string | null) =>
      db.update(orders).set({ statename, actionNeeded }).where(eq(orders.id, f.orderId));
    // The receiver's draft: its own move.
    expect(await swapInProgress(db, f.receiverId, f.providerId)).toBe("yourmove");
    expect(await swapInProgress(db, f.providerId, f.receiverId)).toBe("theirmove");
    // Its own draft does not count against itself.
    expect(await swapInProgress(db, f.receiverId, f.providerId, [f.orderId])).toBeNull();
    await set("provider_choose_items", "provider");
    expect(await swapGuardMessage(db, f.providerId, f.receiverId)).toBe(SWAP_ALREADY_YOUR_MOVE);
    expect(await swapGuardMessage(db, f.receiverId, f.providerId)).toBe(SWAP_ALREADY_THEIR_MOVE);
    await set("payment", "both");
    expect([
      await swapInProgress(db, f.providerId, f.receiverId),
      await swapInProgress(db, f.receiverId, f.providerId),
    ]).toEqual(["yourmove", "yourmove"]);
    // Paid and shipping, or ended: a new swap may start.
    for (const s of ["ship_swap", "declined", "completed"]) {
      await set(s, null);
      expect(await swapInProgress(db, f.receiverId, f.providerId)).toBeNull();
    }
    // Another retailer is not concerned.
    await set("provider_approve", "provider");
    const other = await createSellerWithListing(db);
    expect(await swapInProgress(db, other.seller.retailer.id, f.providerId)).toBeNull();
  });
});

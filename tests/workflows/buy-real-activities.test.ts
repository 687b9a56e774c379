/**
 * buyOrderWorkflow on the time-skipping test server with the REAL activities (createActivities: Postgres
 * read model, sandbox payments, sandbox carrier, outbox), against the test database (DATABASE_URL):
 * the happy path checkout -> Approve Sale (the seller has no card: need_payment_method, a card is added)
 * -> pickup scan -> payout -> delivered -> rating -> completed when the RMA window closes.
 *
 * Carrier events take the real route: the sandbox carrier signs a tracker.updated event and POSTs it to the
 * stand-in webhook endpoint of tests/setup/real-worker.ts, which verifies, records and signals as the app does.
 *
 * Asserted at the end: orders row (state names, display status, rating, ledger), order_actions codes,
 * payments rows with the workflow's idempotency keys, the sandbox provider's objects, the listing's stock,
 * the shipment and its events, and the outbox.
 */
import type { WorkflowHandle } from "@temporalio/client";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { listOrderPayments } from "../../db/queries/payments";
import { listOrderShipments } from "../../db/queries/shipments";
import { listings, outboxEmails, shipmentEvents } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { MINUTE_MS } from "../../domain/business-days";
import { RATING_SAVED } from "../../domain/messages";
import { CANCEL_SHIPMENT_REASONS } from "../../domain/reasons";
import { orderQuote } from "../../domain/order-money";
import {
  addPaymentMethodUpdate,
  approveSaleUpdate,
  cancelShipmentUpdate,
  BUY_WORKFLOW_TYPE,
  buyOrderInputFromDraft,
  completeCheckoutUpdate,
  orderViewQuery,
  rateOrderUpdate,
  type BuyOrderView,
} from "../../workflows/buy/contract";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import { draftPurchase, TEST_MASTERCARD, TEST_VISA } from "../db/buy-fixtures";
import { useTestDb } from "../db/helpers";
import { useRealWorker } from "../setup/real-worker";
import { viewWaiter, sleepUntil } from "../setup/temporal";

const SECRET = "carrier_wf_test_secret";
const db = useTestDb(8);
const real = useRealWorker(db, { secret: SECRET, prefix: "buy-real" });

type Handle = WorkflowHandle<typeof buyOrderWorkflow>;

/** Polls the view until `pred` holds (the workflow may still be processing a fired timer or a signal). */
const waitFor = viewWaiter(orderViewQuery, (v) => `state ${v?.statename}`);
const inState = (h: Handle, s: string) => waitFor(h, (v) => v.statename === s && !v.busy, s);

/** A seller's listing of S 2, M 3 and a draft purchase of `sizes` at its price by a buyer with no payout account. */
const sellerBuyerAndDraft = (sizes: Record<string, number>) =>
  draftPurchase(db, { sizes, listing: { S: 2, M: 3 }, listingPrice: true });

describe("buy workflow with the real activities", () => {
  test("happy path: checkout, approval with a card added, pickup, payout, delivery, rating, completion", async () => {
    const { f, buyer, o: draft } = await sellerBuyerAndDraft({ S: 1, M: 2 });
    const sellerId = f.seller.retailer.id;
    const buyerId = buyer.retailer.id;
    const lines = draft.lines;
    const quote = orderQuote(lines);
    const input = buyOrderInputFromDraft({
      orderId: draft.orderId,
      workflowId: draft.workflowId,
      externalId: draft.externalId,
      receiverId: buyerId,
      providerId: sellerId,
      requestId: null,
      goodsCents: quote.goodsCents,
      feeCents: quote.feeCents,
      shippingCents: quote.shippingCents,
      totalCents: quote.totalCents,
      units: lines.map((l) => ({
        listingId: l.listingId,
        variationId: f.variation.id,
        sizes: l.sizes,
        unitPriceCents: l.unitPriceCents,
      })),
    });
    const wf = draft.workflowId;
    const handle = await real.env.client.workflow.start<typeof buyOrderWorkflow>(
      BUY_WORKFLOW_TYPE,
      {
        taskQueue: real.taskQueue,
        workflowId: wf,
        args: [input],
        workflowIdReusePolicy: "REJECT_DUPLICATE",
      },
    );

    // Checkout with the sandbox's test card (the card form hands over Stripe's test token).
    const checkout = await handle.executeUpdate(completeCheckoutUpdate, {
      args: [
        {
          actorRetailerId: buyerId,
          paymentMethod: TEST_VISA,
        },
      ],
    });
    expect(checkout).toMatchObject({ status: "ok", statename: "provider_approve_sale" });
    expect(await getOrderRow(db, draft.orderId)).toMatchObject({
      statename: "provider_approve_sale",
      authorizedCents: quote.totalCents,
      actionNeeded: "provider",
    });

    // The seller has no card on file: payment state, then a card is added and the approval continues.
    expect(
      await handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId }] }),
    ).toMatchObject({
      status: "need_payment_method",
      statename: "payment",
    });
    const approved = await handle.executeUpdate(addPaymentMethodUpdate, {
      args: [
        {
          actorRetailerId: sellerId,
          paymentMethod: TEST_MASTERCARD,
        },
      ],
    });
    expect(approved).toMatchObject({
      status: "ok",
      statename: "ship_order",
      redirectTo: "/orders",
    });
    const shipping = await inState(handle, "ship_order");
    const tracking = shipping.shipment?.trackingNumber as string;
    expect(tracking).toMatch(/^SBX\d{14}$/);
    expect(shipping.shipment?.labelUrl).toBe(`/shipping-label/${tracking}`);

    // Stock was taken at approval.
    const [stock] = await db
      .select({ sizes: listings.sizes, total: listings.totalUnits })
      .from(listings)
      .where(eq(listings.id, f.listing.id));
    expect(stock).toEqual({ sizes: { S: 1, M: 1 }, total: 2 });

    // The carrier scans the package: signed webhook -> In-Route, payout released; then delivered.
    expect((await real.carrier.sendTrackingEvent(tracking, "picked_up")).httpStatus).toBe(200);
    const inRoute = await waitFor(
      handle,
      (v) => v.payoutReleasedAt !== null && !v.busy,
      "payout released",
    );
    expect(inRoute.statename).toBe("in_route");
    const delivered = await real.carrier.sendTrackingEvent(tracking, "delivered");
    expect(delivered.httpStatus).toBe(200);
    // The same event delivered again changes nothing.
    expect(await real.carrier.deliver(delivered.event)).toBe(200);
    const d = await inState(handle, "delivered");
    expect(d.rmaOpen).toBe(true);

    const rated = await handle.executeUpdate(rateOrderUpdate, {
      args: [
        {
          actorRetailerId: buyerId,
          stars: { condition: 5, packaging: 4, timeliness: 5, overall: 4 },
          comments: "Well packed.",
        },
      ],
    });
    expect(rated).toMatchObject({ status: "ok", message: RATING_SAVED, redirectTo: "/" });

    // The 48-hour RMA window closes: the order completes.
    await sleepUntil(real.env, d.deadlines.rmaBy, MINUTE_MS);
    const done = await inState(handle, "completed");
    expect(done.ledger.balanced).toBe(true);

    // --- the read model ---
    const order = await getOrderRow(db, draft.orderId);
    expect(order).toMatchObject({
      statename: "completed",
      displayStatus: done.displayStatus,
      stage: "complete",
      completed: true,
      actionNeeded: null,
      valueCents: quote.goodsCents,
      receiverGrandTotalCents: quote.totalCents,
      capturedCents: quote.totalCents,
      receiverRating: 4,
      receiverRatingComments: "Well packed.",
      reasons: { sell_reason: "kept from checkout" },
    });
    expect(order?.ledger).toMatchObject({
      authorizedCents: quote.totalCents,
      buyerPaidCents: quote.totalCents,
      sellerPaidCents: quote.goodsCents,
      feeKeptCents: quote.feeCents,
      shippingKeptCents: quote.shippingCents,
      escrowCents: 0,
      balanced: true,
    });

    const codes = (await listOrderActions(db, draft.orderId)).map((a) => a.code);
    expect(codes).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PAYMENT,
      ACTION.PAYMENT_METHOD_ADDED,
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
      ACTION.SHIPMENT_PICKED_UP,
      ACTION.PAYOUT_RELEASED,
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RECEIVER_CONFIRM_ORDER,
      ACTION.RECEIVER_RATED,
      ACTION.ORDER_COMPLETED,
    ]);

    const pays = await listOrderPayments(db, draft.orderId);
    expect(
      pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents, p.status, p.queued]),
    ).toEqual([
      ["authorization", `${wf}:authorize:1`, quote.totalCents, "captured", false],
      ["capture", `${wf}:capture:1`, quote.totalCents, "succeeded", false],
      ["transfer", `${wf}:payout:1`, quote.goodsCents, "paid", false],
    ]);
    expect(pays[0]).toMatchObject({
      retailerId: buyerId,
      lastFour: "4242",
      paymentMethodDescription: "Visa",
    });
    expect(pays[2]).toMatchObject({ retailerId: sellerId, name: "provider payout" });
    expect(pays[2].releasedAt).toBeInstanceOf(Date);
    const sandbox = new SandboxPayments(db);
    expect(await sandbox.retrieve(pays[0].providerRef as string)).toMatchObject({
      status: "succeeded",
      amount_received: quote.totalCents,
    });
    expect(await sandbox.retrieve(pays[2].providerRef as string)).toMatchObject({
      object: "transfer",
      destination: f.seller.retailer.btMerchantId,
      amount: quote.goodsCents,
    });

    const [ship] = await listOrderShipments(db, draft.orderId);
    expect(ship).toMatchObject({
      trackingNumber: tracking,
      status: "delivered",
      senderId: sellerId,
      receiverId: buyerId,
    });
    const events = await db
      .select()
      .from(shipmentEvents)
      .where(eq(shipmentEvents.shipmentId, ship.id));
    expect(events.map((e) => e.status).sort()).toEqual(["delivered", "picked_up"]);
    expect(real.webhookLog.length).toBe(3);

    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.toEmail, f.seller.retailer.storeEmail));
    expect(mails.map((m) => m.kind)).toEqual(
      expect.arrayContaining([
        "order:approve_sale_needed",
        "order:payment_method_needed",
        "order:ready_for_pickup",
        "order:payout_released",
      ]),
    );
    expect(mails.every((m) => !m.bodyText.includes(buyer.retailer.storeName))).toBe(true);
  });

  /** A checked-out and approved order (the seller saves a card on the way): ship_order. */
  async function approvedOrder() {
    const { f, buyer, o: draft } = await sellerBuyerAndDraft({ M: 2 });
    const sellerId = f.seller.retailer.id;
    const buyerId = buyer.retailer.id;
    const lines = draft.lines;
    const quote = orderQuote(lines);
    const handle = await real.env.client.workflow.start<typeof buyOrderWorkflow>(
      BUY_WORKFLOW_TYPE,
      {
        taskQueue: real.taskQueue,
        workflowId: draft.workflowId,
        args: [
          {
            orderId: draft.orderId,
            externalId: draft.externalId,
            kind: "from_listing",
            providerId: sellerId,
            receiverId: buyerId,
            lines,
          },
        ],
      },
    );
    await handle.executeUpdate(completeCheckoutUpdate, {
      args: [
        {
          actorRetailerId: buyerId,
          paymentMethod: TEST_VISA,
        },
      ],
    });
    await handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId }] });
    await handle.executeUpdate(addPaymentMethodUpdate, {
      args: [
        {
          actorRetailerId: sellerId,
          paymentMethod: TEST_MASTERCARD,
        },
      ],
    });
    const v = await inState(handle, "ship_order");
    return { f, handle, draft, quote, sellerId, buyerId, view: v };
  }

  test("the seller cancels the shipment: call tag cancelled, buyer refunded in full, units back, 10% penalty on the seller's card", async () => {
    const { f, handle, draft, quote, sellerId } = await approvedOrder();
    const wf = draft.workflowId;
    const reason = CANCEL_SHIPMENT_REASONS[0].value;
    expect(
      await handle.executeUpdate(cancelShipmentUpdate, {
        args: [{ actorRetailerId: sellerId, reason }],
      }),
    ).toMatchObject({
      status: "ok",
      statename: "cancelled",
    });
    await inState(handle, "cancelled");
    const penalty = Math.round(quote.goodsCents / 10);
    const pays = await listOrderPayments(db, draft.orderId);
    expect(pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents, p.status])).toEqual([
      ["authorization", `${wf}:authorize:1`, quote.totalCents, "captured"],
      ["capture", `${wf}:capture:1`, quote.totalCents, "succeeded"],
      ["refund", `${wf}:refund:1`, quote.totalCents, "succeeded"],
      ["penalty", `${wf}:penalty:1`, penalty, "succeeded"],
    ]);
    expect(pays[3]).toMatchObject({ retailerId: sellerId, lastFour: "4444", queued: false });
    const [stock] = await db
      .select({ sizes: listings.sizes })
      .from(listings)
      .where(eq(listings.id, f.listing.id));
    expect(stock.sizes).toEqual({ S: 2, M: 3 });
    const order = await getOrderRow(db, draft.orderId);
    expect(order).toMatchObject({
      statename: "cancelled",
      completed: false,
      reasons: { provider_cancel_shipment_reason: reason },
    });
    expect(order?.ledger).toMatchObject({
      buyerNetCents: 0,
      sellerPenaltyCents: penalty,
      balanced: true,
    });
    expect((await listOrderActions(db, draft.orderId)).map((a) => a.code).slice(-3)).toEqual([
      ACTION.SHIPMENT_CANCELLED,
      ACTION.REFUND_ISSUED,
      ACTION.PENALTY_CHARGED,
    ]);
    const [ship] = await listOrderShipments(db, draft.orderId);
    expect(ship.status).toBe("cancelled");
    expect((await real.carrier.getShipment(ship.trackingNumber as string))?.status).toBe(
      "cancelled",
    );
  });

  test("pickup missed twice: a second call tag on the same shipment (921), then cancelled with refund and penalty; units stay off the listing", async () => {
    const { f, handle, draft, quote, view } = await approvedOrder();
    const wf = draft.workflowId;
    const firstTag = view.shipment?.callTag;
    await sleepUntil(real.env, view.deadlines.pickupBy, MINUTE_MS);
    const retry = await inState(handle, "ship_order_try2");
    expect(retry.shipment?.trackingNumber).toBe(view.shipment?.trackingNumber);
    expect(retry.shipment?.callTag).not.toBe(firstTag);
    const [ship1] = await listOrderShipments(db, draft.orderId);
    expect(ship1.callTag).toBe(retry.shipment?.callTag);
    await sleepUntil(real.env, retry.deadlines.pickupBy, MINUTE_MS);
    await inState(handle, "cancelled");
    const pays = await listOrderPayments(db, draft.orderId);
    expect(pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents])).toEqual([
      ["authorization", `${wf}:authorize:1`, quote.totalCents],
      ["capture", `${wf}:capture:1`, quote.totalCents],
      ["refund", `${wf}:refund:1`, quote.totalCents],
      ["penalty", `${wf}:penalty:1`, Math.round(quote.goodsCents / 10)],
    ]);
    const codes = (await listOrderActions(db, draft.orderId)).map((a) => a.code);
    expect(codes).toContain(ACTION.CALL_TAG_RESCHEDULED_ORDER);
    expect(codes.slice(-3)).toEqual([
      ACTION.PROVIDER_ORDER_NON_SHIPMENT,
      ACTION.REFUND_ISSUED,
      ACTION.PENALTY_CHARGED,
    ]);
    const [stock] = await db
      .select({ sizes: listings.sizes })
      .from(listings)
      .where(eq(listings.id, f.listing.id));
    expect(stock.sizes).toEqual({ S: 2, M: 1 });
    expect((await getOrderRow(db, draft.orderId))?.ledger).toMatchObject({
      balanced: true,
      buyerNetCents: 0,
    });
  });
});

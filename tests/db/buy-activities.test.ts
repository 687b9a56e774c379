/**
 * The buy workflow's real activities (activities/buy) against Postgres with the sandbox payments adapter and
 * the sandbox carrier: money movements and their payments rows (authorise -> partial capture -> refund;
 * release; payout transfer; penalty on the seller's saved card; declines), idempotency (same key + same
 * parameters = same result, same key + other parameters = IdempotencyConflict), stock (atomic, idempotent,
 * 50 concurrent approvals of the last unit), the read model (recordOrderState) and the carrier (pickup, label,
 * reschedule, cancel, signed tracking webhooks).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBuyActivities, labelPath } from "../../activities/buy";
import type { OrderStateRecord } from "../../workflows/buy/activities";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { verifyCarrierSignature } from "../../activities/carrier/signature";
import { IdempotencyConflictError, PaymentRejectedError } from "../../activities/payments/port";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import { getOrderRow, listOrderActions, orderEventMark } from "../../db/queries/orders";
import { getPaymentByKey, listOrderPayments } from "../../db/queries/payments";
import { renderLabelPdf } from "../../app/routes/shipping-label.$tracking.server";
import { getCarrierLabel, listOrderShipments } from "../../db/queries/shipments";
import {
  listings,
  orderContributions,
  outboxEmails,
  retailerContacts,
  retailers,
} from "../../db/schema";
import { CARRIER_SIGNATURE_HEADER, type CarrierWebhookEvent } from "../../domain/carrier-events";
import { CARD_DECLINED } from "../../domain/messages";
import { orderLedger, orderQuote, type OrderLine } from "../../domain/order-money";
import { createRetailer } from "../factories";
import {
  authorizePurchase,
  createDraftOrder,
  createSellerWithListing,
  draftPurchase,
  orderStateRecord,
  TEST_MASTERCARD,
  TEST_VISA,
} from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(12);
const sandbox = new SandboxPayments(db);
const SECRET = "carrier_db_test_secret";

// A local "app" receiving carrier webhooks: records raw bodies and whether the signature verified.
const received: { event: CarrierWebhookEvent; verified: boolean }[] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    const verified = verifyCarrierSignature(
      raw,
      req.headers[CARRIER_SIGNATURE_HEADER.toLowerCase()] as string,
      SECRET,
    );
    received.push({ event: JSON.parse(raw) as CarrierWebhookEvent, verified });
    res.writeHead(verified && req.url === "/webhooks/carrier" ? 200 : 400).end("{}");
  });
});
let origin = "";
let carrier: ReturnType<typeof createSandboxCarrier>;
let acts: ReturnType<typeof createBuyActivities>;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  carrier = createSandboxCarrier(db, { appOrigin: origin, webhookSecret: SECRET });
  acts = createBuyActivities({
    db,
    payments: sandbox,
    carrier,
    appOrigin: "http://localhost:3000",
    timeZone: "America/New_York",
  });
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const uid = () => Math.random().toString(36).slice(2, 10);

async function orderWith(
  sizes: Record<string, number> = { S: 1, M: 2 },
  opts: { payout?: boolean } = {},
) {
  const { f, buyer, o } = await draftPurchase(db, { sizes, listing: { S: 2, M: 3 }, ...opts });
  return { ...f, buyer, ...o };
}

const authorize = (o: Awaited<ReturnType<typeof orderWith>>, amountCents: number, key?: string) =>
  authorizePurchase(acts, o, o.buyer.retailer.id, amountCents, key);

describe("payments through the sandbox", () => {
  test("authorise -> capture part -> refund: intent lifecycle, payments rows with the workflow's keys, a balanced ledger", async () => {
    const o = await orderWith({ S: 1, M: 2 });
    const requested = orderQuote(o.lines);
    const auth = await authorize(o, requested.totalCents);
    expect(auth).toMatchObject({
      status: "authorized",
      amountCents: requested.totalCents,
      lastFour: "4242",
      description: "Visa",
    });
    expect(await sandbox.retrieve(auth.paymentIntentId)).toMatchObject({
      status: "requires_capture",
      capture_method: "manual",
      amount_capturable: requested.totalCents,
    });

    // The seller approved 2 of the 3 units: capture their quote only.
    const approved: OrderLine[] = [{ ...o.lines[0], sizes: { M: 2 } }];
    const q = orderQuote(approved);
    const cap = await acts.capturePayment({
      idempotencyKey: `${o.workflowId}:capture:1`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: q.totalCents,
      authorizedCents: requested.totalCents,
    });
    expect(cap).toMatchObject({ status: "captured", capturedCents: q.totalCents });
    expect(await sandbox.retrieve(auth.paymentIntentId)).toMatchObject({
      status: "succeeded",
      amount_received: q.totalCents,
      amount_capturable: 0,
    });

    const ref = await acts.refundPayment({
      idempotencyKey: `${o.workflowId}:refund:1`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: q.totalCents,
      reason: "shipment_cancelled",
    });
    expect(ref.status).toBe("refunded");
    expect(await sandbox.retrieve(ref.refundId as string)).toMatchObject({
      object: "refund",
      amount: q.totalCents,
      payment_intent: auth.paymentIntentId,
    });
    // Nothing left to refund: the provider refuses; the movement is parked for staff (queued), never lost.
    const again = await acts.refundPayment({
      idempotencyKey: `${o.workflowId}:refund:2`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: 100,
      reason: "shipment_cancelled",
    });
    expect(again).toEqual({ status: "queued", refundId: null });

    const rows = await listOrderPayments(db, o.orderId);
    expect(
      rows.map((r) => [r.txtype, r.idempotencyKey, r.amountCents, r.status, r.queued]),
    ).toEqual([
      ["authorization", `${o.workflowId}:authorize:1`, requested.totalCents, "captured", false],
      ["capture", `${o.workflowId}:capture:1`, q.totalCents, "succeeded", false],
      ["refund", `${o.workflowId}:refund:1`, q.totalCents, "succeeded", false],
      ["refund", `${o.workflowId}:refund:2`, 100, "failed:amount_too_large", true],
    ]);
    expect(rows.every((r) => r.retailerId === o.buyer.retailer.id && r.lastFour === "4242")).toBe(
      true,
    );
    const ledger = orderLedger([
      { kind: "authorization", amountCents: requested.totalCents },
      {
        kind: "capture",
        amountCents: q.totalCents,
        goodsCents: q.goodsCents,
        feeCents: q.feeCents,
        shippingCents: q.shippingCents,
      },
      { kind: "refund", amountCents: q.totalCents },
    ]);
    expect(ledger.balanced).toBe(true);
    expect(ledger.buyerNetCents).toBe(0);
  });

  test("capture above the authorisation is refused before the provider is called", async () => {
    const o = await orderWith();
    const auth = await authorize(o, 5000);
    await expect(
      acts.capturePayment({
        idempotencyKey: `${o.workflowId}:capture:1`,
        orderId: o.orderId,
        paymentIntentId: auth.paymentIntentId,
        amountCents: 5001,
        authorizedCents: 5000,
      }),
    ).rejects.toMatchObject({
      type: "PaymentRejected",
      nonRetryable: true,
    });
    expect(await getPaymentByKey(db, `${o.workflowId}:capture:1`)).toBeNull();
  });

  test("release: the intent is canceled; releasing again (another key) is harmless", async () => {
    const o = await orderWith();
    const auth = await authorize(o, 9000);
    await acts.releaseAuthorization({
      idempotencyKey: `${o.workflowId}:release-authorization:1`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: 9000,
      reason: "declined",
    });
    expect(await sandbox.retrieve(auth.paymentIntentId)).toMatchObject({
      status: "canceled",
      cancellation_reason: "abandoned",
      amount_capturable: 0,
    });
    await acts.releaseAuthorization({
      idempotencyKey: `${o.workflowId}:release-authorization:2`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: 9000,
      reason: "expired",
    });
    const rows = await listOrderPayments(db, o.orderId);
    expect(rows.map((r) => [r.txtype, r.status])).toEqual([
      ["authorization", "canceled"],
      ["release", "canceled"],
      ["release", "canceled"],
    ]);
    // A canceled intent cannot be captured (Stripe's payment_intent_unexpected_state).
    await expect(
      sandbox.capturePayment({
        idempotencyKey: `cap-${uid()}`,
        paymentIntentId: auth.paymentIntentId,
        amountCents: 100,
      }),
    ).rejects.toMatchObject({ code: "payment_intent_unexpected_state" });
  });

  test("a declined card is returned with the specification's message; a second card is a new attempt", async () => {
    const o = await orderWith();
    const declined = await acts.authorizePayment({
      idempotencyKey: `${o.workflowId}:authorize:1`,
      orderId: o.orderId,
      retailerId: o.buyer.retailer.id,
      paymentMethod: {
        paymentMethodId: "tok_chargeDeclined",
        lastFour: "0002",
        description: "Visa",
      },
      amountCents: 7000,
      description: "x",
    });
    expect(declined).toEqual({
      status: "declined",
      declineCode: "card_declined",
      message: CARD_DECLINED,
    });
    expect(CARD_DECLINED).toBe("Sorry but this card was declined. Please try another.");
    const second = await authorize(o, 7000, `${o.workflowId}:authorize:2`);
    expect(second.status).toBe("authorized");
    const rows = await listOrderPayments(db, o.orderId);
    expect(rows.map((r) => [r.idempotencyKey.split(":").slice(-2).join(":"), r.status])).toEqual([
      ["authorize:1", "declined"],
      ["authorize:2", "requires_capture"],
    ]);
  });

  test("a saved card is charged with its customer (the PaymentMethod is attached to it)", async () => {
    const o = await orderWith();
    const saved = await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: o.buyer.retailer.id,
      paymentMethod: TEST_MASTERCARD,
    });
    expect(saved.status).toBe("saved");
    const card = await acts.getCardOnFile({ retailerId: o.buyer.retailer.id });
    expect(card).toMatchObject({ lastFour: "4444", description: "Mastercard" });
    const r = await acts.authorizePayment({
      idempotencyKey: `${o.workflowId}:authorize:1`,
      orderId: o.orderId,
      retailerId: o.buyer.retailer.id,
      paymentMethod: { ...card! },
      amountCents: 6000,
      description: "x",
    });
    expect(r).toMatchObject({ status: "authorized", lastFour: "4444", description: "Mastercard" });
    // Another retailer cannot use that attached card (no customer of theirs): Stripe refuses, we answer declined.
    const other = await createRetailer(db, { payout: false });
    const refused = await acts.authorizePayment({
      idempotencyKey: `k-${uid()}`,
      orderId: o.orderId,
      retailerId: other.retailer.id,
      paymentMethod: { ...card! },
      amountCents: 6000,
      description: "x",
    });
    expect(refused.status).toBe("declined");
  });

  test("payout: a transfer to the seller's connected account; no payout account -> queued", async () => {
    const o = await orderWith();
    const r = await acts.releaseSellerPayout({
      idempotencyKey: `${o.workflowId}:payout:1`,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 7500,
    });
    expect(r.status).toBe("paid");
    expect(await sandbox.retrieve(r.transferId as string)).toMatchObject({
      object: "transfer",
      amount: 7500,
      destination: o.seller.retailer.btMerchantId,
      transfer_group: `order-${o.orderId}`,
      // What the provider's dashboard search finds it by: the order's number.
      description: `Payout: ${o.externalId}`,
    });
    const row = await getPaymentByKey(db, `${o.workflowId}:payout:1`);
    expect(row).toMatchObject({
      txtype: "transfer",
      name: "provider payout",
      status: "paid",
      queued: false,
      amountCents: 7500,
      retailerId: o.seller.retailer.id,
    });
    expect(row?.releasedAt?.toISOString()).toBe(r.releasedAt);

    const noPayout = await orderWith({ S: 1 }, { payout: false });
    const q = await acts.releaseSellerPayout({
      idempotencyKey: `${noPayout.workflowId}:payout:1`,
      orderId: noPayout.orderId,
      retailerId: noPayout.seller.retailer.id,
      amountCents: 2500,
    });
    expect(q).toMatchObject({ status: "queued", transferId: null });
    expect(await getPaymentByKey(db, `${noPayout.workflowId}:payout:1`)).toMatchObject({
      status: "queued",
      queued: true,
    });
  });

  test("penalty: charged on the seller's saved card off-session; without a card it is queued", async () => {
    const o = await orderWith();
    const none = await acts.chargeSellerPenalty({
      idempotencyKey: `${o.workflowId}:penalty:1`,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 500,
    });
    expect(none).toEqual({ status: "queued", chargeId: null });
    expect(await getPaymentByKey(db, `${o.workflowId}:penalty:1`)).toMatchObject({
      name: "penalty fee",
      status: "queued",
      queued: true,
    });

    await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: o.seller.retailer.id,
      paymentMethod: TEST_VISA,
    });
    const charged = await acts.chargeSellerPenalty({
      idempotencyKey: `${o.workflowId}:penalty:2`,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 500,
    });
    expect(charged.status).toBe("charged");
    const row = await getPaymentByKey(db, `${o.workflowId}:penalty:2`);
    expect(row).toMatchObject({ status: "succeeded", queued: false, lastFour: "4242" });
    expect(await sandbox.retrieve(row!.providerRef as string)).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount_received: 500,
      capture_method: "automatic",
      description: `Penalty: order ${o.externalId} not shipped`,
    });
  });

  test("saving a declining card answers declined", async () => {
    const r = await createRetailer(db, { payout: false });
    const out = await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: r.retailer.id,
      paymentMethod: {
        paymentMethodId: "tok_chargeDeclined",
        lastFour: "0002",
        description: "Visa",
      },
    });
    expect(out).toEqual({ status: "declined", message: CARD_DECLINED });
    expect(await acts.getCardOnFile({ retailerId: r.retailer.id })).toBeNull();
  });
});

describe("idempotency", () => {
  test("same key + same parameters = the same result (one intent, one row); other parameters = IdempotencyConflict", async () => {
    const o = await orderWith();
    const key = `${o.workflowId}:authorize:1`;
    const a = await authorize(o, 4000, key);
    const b = await authorize(o, 4000, key);
    expect(b).toEqual(a);
    expect((await listOrderPayments(db, o.orderId)).length).toBe(1);
    await expect(authorize(o, 4001, key)).rejects.toMatchObject({
      type: "IdempotencyConflict",
      nonRetryable: true,
    });

    const capKey = `${o.workflowId}:capture:1`;
    const c1 = await acts.capturePayment({
      idempotencyKey: capKey,
      orderId: o.orderId,
      paymentIntentId: a.paymentIntentId,
      amountCents: 3000,
      authorizedCents: 4000,
    });
    const c2 = await acts.capturePayment({
      idempotencyKey: capKey,
      orderId: o.orderId,
      paymentIntentId: a.paymentIntentId,
      amountCents: 3000,
      authorizedCents: 4000,
    });
    expect(c2).toEqual(c1);
    await expect(
      acts.capturePayment({
        idempotencyKey: capKey,
        orderId: o.orderId,
        paymentIntentId: a.paymentIntentId,
        amountCents: 2000,
        authorizedCents: 4000,
      }),
    ).rejects.toMatchObject({
      type: "IdempotencyConflict",
    });

    const pKey = `${o.workflowId}:payout:1`;
    const p1 = await acts.releaseSellerPayout({
      idempotencyKey: pKey,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 2500,
    });
    const p2 = await acts.releaseSellerPayout({
      idempotencyKey: pKey,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 2500,
    });
    expect(p2).toEqual(p1);
    await expect(
      acts.releaseSellerPayout({
        idempotencyKey: pKey,
        orderId: o.orderId,
        retailerId: o.seller.retailer.id,
        amountCents: 2600,
      }),
    ).rejects.toMatchObject({ type: "IdempotencyConflict" });
  });

  test("the port itself: replayed rejections, conflicts as IdempotencyConflictError", async () => {
    const key = `port-${uid()}`;
    const first = sandbox.authorizePayment({
      idempotencyKey: key,
      amountCents: 1000,
      paymentMethod: "tok_chargeDeclined",
      customerId: null,
      description: "d",
      metadata: {},
    });
    await expect(first).rejects.toBeInstanceOf(PaymentRejectedError);
    await expect(
      sandbox.authorizePayment({
        idempotencyKey: key,
        amountCents: 1000,
        paymentMethod: "tok_chargeDeclined",
        customerId: null,
        description: "d",
        metadata: {},
      }),
    ).rejects.toMatchObject({ code: "card_declined" });
    await expect(
      sandbox.authorizePayment({
        idempotencyKey: key,
        amountCents: 1001,
        paymentMethod: "tok_chargeDeclined",
        customerId: null,
        description: "d",
        metadata: {},
      }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
    await expect(
      sandbox.createTransfer({
        idempotencyKey: `tr-${uid()}`,
        amountCents: 1000,
        destination: "acct_nope",
        description: "d",
        transferGroup: "g",
        metadata: {},
      }),
    ).rejects.toMatchObject({
      code: "resource_missing",
      param: "destination",
    });
  });
});

describe("stock", () => {
  test("decrement is all-or-nothing and idempotent; restore puts units back once", async () => {
    const f = await createSellerWithListing(db, { sizes: { S: 2, M: 1 } });
    const lines = [
      {
        listingId: f.listing.id,
        variationId: f.variation.id,
        sizes: { S: 2, M: 1 },
        unitPriceCents: 1000,
      },
    ];
    const sizes = async () =>
      (
        await db
          .select({ sizes: listings.sizes, total: listings.totalUnits })
          .from(listings)
          .where(eq(listings.id, f.listing.id))
      )[0];

    const tooMuch = await acts.decrementStock({
      idempotencyKey: `s-${uid()}`,
      orderId: 1,
      lines: [{ ...lines[0], sizes: { S: 1, M: 2 } }],
    });
    expect(tooMuch).toEqual({ ok: false, listingId: f.listing.id, size: "M" });
    expect(await sizes()).toEqual({ sizes: { S: 2, M: 1 }, total: 3 });

    const key = `s-${uid()}`;
    expect(await acts.decrementStock({ idempotencyKey: key, orderId: 1, lines })).toEqual({
      ok: true,
    });
    expect(await acts.decrementStock({ idempotencyKey: key, orderId: 1, lines })).toEqual({
      ok: true,
    });
    expect(await sizes()).toEqual({ sizes: { S: 0, M: 0 }, total: 0 });
    await expect(
      acts.decrementStock({
        idempotencyKey: key,
        orderId: 1,
        lines: [{ ...lines[0], sizes: { S: 1 } }],
      }),
    ).rejects.toMatchObject({ type: "IdempotencyConflict" });

    const rKey = `r-${uid()}`;
    await acts.restoreStock({ idempotencyKey: rKey, orderId: 1, lines });
    await acts.restoreStock({ idempotencyKey: rKey, orderId: 1, lines });
    expect(await sizes()).toEqual({ sizes: { S: 2, M: 1 }, total: 3 });
  });

  test("50 concurrent approvals of the last unit: exactly one succeeds and stock never goes negative", async () => {
    const f = await createSellerWithListing(db, { sizes: { M: 1 } });
    const line = {
      listingId: f.listing.id,
      variationId: f.variation.id,
      sizes: { M: 1 },
      unitPriceCents: 1000,
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        acts.decrementStock({
          idempotencyKey: `buy-order:${90_000 + i}:decrement-stock:1:${uid()}`,
          orderId: 90_000 + i,
          lines: [line],
        }),
      ),
    );
    expect(results.filter((r) => r.ok).length).toBe(1);
    expect(
      results
        .filter((r) => !r.ok)
        .every((r) => !r.ok && r.listingId === f.listing.id && r.size === "M"),
    ).toBe(true);
    const [row] = await db
      .select({ sizes: listings.sizes, total: listings.totalUnits })
      .from(listings)
      .where(eq(listings.id, f.listing.id));
    expect(row).toEqual({ sizes: { M: 0 }, total: 0 });
  });

  test("findConflictingOrders: pending orders of the same seller that could not be served after these lines; approvalFacts adds the card on file", async () => {
    const f = await createSellerWithListing(db, { sizes: { S: 2, M: 1 } });
    const buyer = await createRetailer(db, { payout: false });
    const line = (sizes: Record<string, number>) => [
      { listingId: f.listing.id, variationId: f.variation.id, sizes, unitPriceCents: 1000 },
    ];
    const a = await createDraftOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: buyer.retailer.id,
      lines: line({ S: 1, M: 1 }),
    });
    const b = await createDraftOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: buyer.retailer.id,
      lines: line({ M: 1 }),
    });
    const c = await createDraftOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: buyer.retailer.id,
      lines: line({ S: 1 }),
    });
    const d = await createDraftOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: buyer.retailer.id,
      lines: line({ M: 1 }),
    });
    // b and c wait for the seller; d is still a draft in checkout (no authorisation): not pending.
    const { orders } = await import("../../db/schema");
    for (const id of [b.orderId, c.orderId])
      await db.update(orders).set({ statename: "provider_approve_sale" }).where(eq(orders.id, id));
    const r = await acts.findConflictingOrders({
      orderId: a.orderId,
      providerId: f.seller.retailer.id,
      lines: a.lines,
    });
    expect(r.orderIds).toEqual([b.orderId]);
    expect(d.orderId).toBeGreaterThan(0);

    // approvalFacts: the same conflicts and the seller's card on file, in one activity.
    const input = { orderId: a.orderId, providerId: f.seller.retailer.id, lines: a.lines };
    expect(await acts.approvalFacts(input)).toEqual({
      cardOnFile: false,
      conflictingOrderIds: [b.orderId],
    });
    const saved = await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: f.seller.retailer.id,
      paymentMethod: TEST_VISA,
    });
    expect(saved.status).toBe("saved");
    expect(await acts.approvalFacts(input)).toEqual({
      cardOnFile: true,
      conflictingOrderIds: [b.orderId],
    });
  });
});

function stateRecord(
  o: { orderId: number; workflowId: string },
  n: number,
  over: Partial<OrderStateRecord> = {},
): OrderStateRecord {
  const lines: OrderLine[] = over.lines ?? [];
  const quote = orderQuote(
    lines.length ? lines : [{ listingId: 1, sizes: { S: 1 }, unitPriceCents: 1000 }],
  );
  return orderStateRecord(o, n, quote, {
    lines,
    deadlines: { sellerResponseBy: "2026-03-07T15:00:00.000Z" },
    ...over,
  });
}

describe("read model", () => {
  test("recordOrderState writes the order, its lines, the pending modification and deduplicated action rows", async () => {
    const o = await orderWith({ S: 2, M: 2 });
    const at = "2026-03-02T15:00:00.000Z";
    const rec = stateRecord(o, 1, {
      lines: o.lines,
      providerId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
      actions: [
        {
          code: 224,
          role: "receiver",
          participantId: o.buyer.retailer.id,
          statename: "provider_approve_sale",
          at,
        },
      ],
    });
    await acts.recordOrderState(rec);
    await acts.recordOrderState(rec); // a retried activity
    const pending = [{ ...o.lines[0], sizes: { M: 1 } }];
    await acts.recordOrderState(
      stateRecord(o, 2, {
        lines: o.lines,
        pendingLines: pending,
        isModified: true,
        statename: "receiver_approve_modified_purchase",
        displayStatus: "Approve/Decline Modified Purchase",
        actionNeeded: "receiver",
        amounts: {
          quote: orderQuote(pending),
          authorizedCents: orderQuote(o.lines).totalCents,
          capturedCents: 0,
        },
        reasons: { provider_decline_buy_reason: 3 },
        actions: [
          {
            code: 227,
            role: "provider",
            participantId: o.seller.retailer.id,
            statename: "receiver_approve_modified_purchase",
            at,
          },
        ],
      }),
    );
    const row = await getOrderRow(db, o.orderId);
    expect(row).toMatchObject({
      statename: "receiver_approve_modified_purchase",
      displayStatus: "Approve/Decline Modified Purchase",
      actionNeeded: "receiver",
      isModified: true,
      valueCents: orderQuote(pending).goodsCents,
      receiverGrandTotalCents: orderQuote(pending).totalCents,
      authorizedCents: orderQuote(o.lines).totalCents,
      reasons: { sell_reason: "kept from checkout", provider_decline_buy_reason: 3 },
      deadlines: { sellerResponseBy: "2026-03-07T15:00:00.000Z" },
    });
    expect(row?.ledger).toMatchObject({
      authorizedCents: orderQuote(o.lines).totalCents,
      balanced: true,
    });
    const actions = await listOrderActions(db, o.orderId);
    expect(actions.map((a) => [a.code, a.role, a.participantId])).toEqual([
      [224, "receiver", o.buyer.retailer.id],
      [227, "provider", o.seller.retailer.id],
    ]);
    expect(actions[0].createdAt.toISOString()).toBe(at);
    const [c] = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, o.orderId));
    expect(c).toMatchObject({
      units: { S: 2, M: 2 },
      pendingUnits: { M: 1 },
      quantity: 4,
      valueCents: 4 * 2500,
    });

    // The buyer accepts the modification: the line becomes the modified one and nothing waits any more; a
    // later step that leaves the lines alone keeps them so (its write skips the unchanged row).
    const accepted = stateRecord(o, 3, {
      lines: pending,
      statename: "ship_order",
      displayStatus: "Pickup Scheduled",
      actionNeeded: null,
    });
    await acts.recordOrderState(accepted);
    await acts.recordOrderState(
      stateRecord(o, 4, {
        lines: pending,
        statename: "in_route",
        displayStatus: "In-Route",
        actionNeeded: null,
      }),
    );
    const [after] = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, o.orderId));
    expect(after).toMatchObject({
      units: { M: 1 },
      pendingUnits: null,
      quantity: 1,
      valueCents: 2500,
    });
    expect(await getOrderRow(db, o.orderId)).toMatchObject({ statename: "in_route" });
  });

  test("the mark staff's simulated carrier event waits on: the state name and the scans of one code", async () => {
    const o = await orderWith({ S: 1 });
    const at = "2026-03-02T15:00:00.000Z";
    const base = {
      lines: o.lines,
      providerId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
      actionNeeded: null,
    };
    await acts.recordOrderState(
      stateRecord(o, 1, { ...base, statename: "ship_order", displayStatus: "Pickup Scheduled" }),
    );
    expect(await orderEventMark(db, o.orderId, 110)).toEqual({ statename: "ship_order", scans: 0 });
    const scan = {
      code: 110,
      role: "carrier" as const,
      participantId: null,
      statename: "in_route",
      at,
    };
    await acts.recordOrderState(
      stateRecord(o, 2, {
        ...base,
        statename: "in_route",
        displayStatus: "In-Route",
        actions: [scan],
      }),
    );
    expect(await orderEventMark(db, o.orderId, 110)).toEqual({ statename: "in_route", scans: 1 });
    expect(await orderEventMark(db, o.orderId, 119)).toEqual({ statename: "in_route", scans: 0 });
    expect(await orderEventMark(db, o.orderId, null)).toEqual({ statename: "in_route", scans: 0 });
    expect(await orderEventMark(db, 2_000_000_000, 110)).toBeNull();
  });

  test("an earlier step's write finishing after a later one does not overwrite the later state (sequence)", async () => {
    const o = await orderWith({ S: 1 });
    const at = "2026-03-02T15:00:00.000Z";
    const base = {
      lines: o.lines,
      providerId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
    };
    // Step 2 (checkout completed) lands first; step 1 (the opening write, "Checkout Pending") lands late.
    await acts.recordOrderState(
      stateRecord(o, 2, {
        ...base,
        sequence: 2,
        actions: [
          {
            code: 224,
            role: "receiver",
            participantId: o.buyer.retailer.id,
            statename: "provider_approve_sale",
            at,
          },
        ],
      }),
    );
    await acts.recordOrderState(
      stateRecord(o, 1, {
        ...base,
        sequence: 1,
        statename: "complete_order_checkout",
        displayStatus: "Checkout Pending",
        actionNeeded: "receiver",
        actions: [
          {
            code: 301,
            role: "system",
            participantId: null,
            statename: "complete_order_checkout",
            at,
          },
        ],
      }),
    );
    const row = await getOrderRow(db, o.orderId);
    expect(row).toMatchObject({
      statename: "provider_approve_sale",
      displayStatus: "Pending Approval",
      actionNeeded: "provider",
      recordSeq: 2,
    });
    // The late write's action rows are still history.
    expect((await listOrderActions(db, o.orderId)).map((a) => a.code).sort()).toEqual([224, 301]);
    // The next step applies.
    await acts.recordOrderState(
      stateRecord(o, 3, {
        ...base,
        sequence: 3,
        statename: "ship_order",
        displayStatus: "Pickup Scheduled",
        actionNeeded: null,
      }),
    );
    expect(await getOrderRow(db, o.orderId)).toMatchObject({
      statename: "ship_order",
      recordSeq: 3,
    });
  });

  test("recordOrderState and the rating are no-ops when the order row is gone (a withdrawn draft)", async () => {
    const ghost = { orderId: 2_000_000_000, workflowId: "buy-order:2000000000" };
    await expect(
      acts.recordOrderState(
        stateRecord(ghost, 1, {
          actions: [
            {
              code: 301,
              role: "system",
              participantId: null,
              statename: "expired",
              at: new Date().toISOString(),
            },
          ],
        }),
      ),
    ).resolves.toBeUndefined();
    expect(await getOrderRow(db, ghost.orderId)).toBeNull();
    const r = await createRetailer(db, { payout: false });
    await expect(
      acts.saveOrderRating({
        idempotencyKey: "x",
        orderId: ghost.orderId,
        raterId: r.retailer.id,
        rateeId: r.retailer.id,
        role: "receiver",
        stars: { condition: 5, packaging: 5, timeliness: 5, overall: 5 },
        comments: "",
      }),
    ).resolves.toBeUndefined();
  });

  test("a step's notices are queued in the outbox with its state, anonymous and once per dedupe key", async () => {
    const o = await orderWith();
    const notice = {
      orderId: o.orderId,
      externalId: o.externalId,
      dedupeKey: `${o.workflowId}:mail:approve_sale_needed:provider`,
      role: "provider" as const,
      retailerId: o.seller.retailer.id,
      counterpartyId: o.buyer.retailer.id,
      template: "approve_sale_needed" as const,
      statename: "provider_approve_sale",
      displayStatus: "Pending Approval",
      actBy: "2026-03-07T15:00:00.000Z",
    };
    const rec = stateRecord(o, 1, { sequence: 1, notices: [notice] });
    await acts.recordOrderState(rec);
    await acts.recordOrderState(rec); // a retried step
    await acts.recordOrderState(stateRecord(o, 2, { sequence: 2, notices: [notice] })); // a replayed notice
    expect((await getOrderRow(db, o.orderId))?.statename).toBe("provider_approve_sale");
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, notice.dedupeKey));
    expect(mails.length).toBe(1);
    expect(mails[0].toEmail).toBe(o.seller.retailer.storeEmail);
    expect(mails[0].bodyText).toContain(`retailer-00${o.buyer.retailer.id}`);
    expect(mails[0].bodyText).toContain("03/07/2026");
    expect(mails[0].bodyText).not.toContain(o.buyer.retailer.storeName);
    expect(mails[0].bodyText).not.toContain(o.buyer.retailer.storeEmail);
  });

  test("a notice goes to the store e-mail, else to the first contact's; a retailer without any address gets none (retailerNoticeAddress says the same)", async () => {
    const o = await orderWith();
    const seller = o.seller.retailer.id;
    const notice = (n: number) => ({
      orderId: o.orderId,
      externalId: o.externalId,
      dedupeKey: `${o.workflowId}:mail:test-${n}:provider`,
      role: "provider" as const,
      retailerId: seller,
      counterpartyId: o.buyer.retailer.id,
      template: "approve_sale_needed" as const,
      statename: "provider_approve_sale",
      displayStatus: "Pending Approval",
      actBy: "2026-03-07T15:00:00.000Z",
    });
    const sentTo = async (n: number) =>
      (
        await db
          .select()
          .from(outboxEmails)
          .where(eq(outboxEmails.dedupeKey, notice(n).dedupeKey))
      ).map((m) => m.toEmail);
    const contacts = await db
      .select()
      .from(retailerContacts)
      .where(eq(retailerContacts.retailerId, seller))
      .orderBy(retailerContacts.id);
    expect(contacts.length).toBeGreaterThan(0);

    await acts.recordOrderState(stateRecord(o, 1, { sequence: 1, notices: [notice(1)] }));
    expect(await sentTo(1)).toEqual([o.seller.retailer.storeEmail]);
    expect(await retailerNoticeAddress(db, seller)).toBe(o.seller.retailer.storeEmail);

    await db.update(retailers).set({ storeEmail: "" }).where(eq(retailers.id, seller));
    await acts.recordOrderState(stateRecord(o, 2, { sequence: 2, notices: [notice(2)] }));
    expect(await sentTo(2)).toEqual([contacts[0].email]);
    expect(await retailerNoticeAddress(db, seller)).toBe(contacts[0].email);

    await db.delete(retailerContacts).where(eq(retailerContacts.retailerId, seller));
    await acts.recordOrderState(stateRecord(o, 3, { sequence: 3, notices: [notice(3)] }));
    expect(await sentTo(3)).toEqual([]);
    expect(await retailerNoticeAddress(db, seller)).toBeNull();
    expect((await getOrderRow(db, o.orderId))?.recordSeq).toBe(3); // the state is written all the same
  });
});

describe("sandbox carrier", () => {
  test("book pickup: call tag, tracking number, anonymous PDF label, read-model shipment; idempotent by key", async () => {
    const o = await orderWith();
    const input = {
      idempotencyKey: `${o.workflowId}:book-pickup:1`,
      orderId: o.orderId,
      externalId: o.externalId,
      attempt: 1,
      senderId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
      units: 3,
      pickupBy: "2026-03-04T22:00:00.000Z",
    };
    const a = await acts.bookPickup(input);
    expect(a.trackingNumber).toMatch(/^SBX\d{14}$/);
    expect(a.callTag).toContain(o.externalId);
    expect(a.labelUrl).toBe(labelPath(a.trackingNumber));
    // The adapter says where the parcel is followed: the sandbox's own tracking page.
    expect(a.trackingUrl).toBe(`/tracking/${a.trackingNumber}`);
    expect(await acts.bookPickup(input)).toEqual(a);
    await expect(
      acts.bookPickup({ ...input, pickupBy: "2026-03-05T22:00:00.000Z" }),
    ).rejects.toMatchObject({
      type: "IdempotencyConflict",
    });

    // Booking records the label's data; the PDF is rendered when the label is opened (not on the approval's path).
    const label = await getCarrierLabel(db, a.trackingNumber);
    expect(label).toMatchObject({
      orderId: o.orderId,
      pdf: null,
      data: {
        trackingNumber: a.trackingNumber,
        callTag: a.callTag,
        units: 3,
        receiverId: o.buyer.retailer.id,
      },
    });
    const pdf = await renderLabelPdf(label!.data!, "America/New_York");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.includes(Buffer.from(o.buyer.retailer.storeName))).toBe(false);

    const [ship] = await listOrderShipments(db, o.orderId);
    expect(ship).toMatchObject({
      trackingNumber: a.trackingNumber,
      trackingUrl: a.trackingUrl,
      callTag: a.callTag,
      status: "pickup_scheduled",
      senderId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
    });

    // Rescheduled (ship_order_try2): a new call tag on the same shipment.
    const b = await acts.bookPickup({
      ...input,
      idempotencyKey: `${o.workflowId}:book-pickup:2`,
      attempt: 2,
      pickupBy: "2026-03-06T22:00:00.000Z",
    });
    expect(b.trackingNumber).toBe(a.trackingNumber);
    expect(b.shipmentId).toBe(a.shipmentId);
    expect(b.callTag).not.toBe(a.callTag);
    const c = await carrier.getShipment(a.shipmentId);
    expect(c?.pickups.map((p) => [p.attempt, p.status])).toEqual([
      [1, "missed"],
      [2, "scheduled"],
    ]);
    expect((await listOrderShipments(db, o.orderId))[0].callTag).toBe(b.callTag);
    // The label printed now carries the new call tag and pickup date.
    expect((await getCarrierLabel(db, a.trackingNumber))?.data).toMatchObject({
      callTag: b.callTag,
      pickupBy: "2026-03-06T22:00:00.000Z",
    });

    await acts.cancelPickup({
      idempotencyKey: `${o.workflowId}:cancel-pickup:1`,
      orderId: o.orderId,
      shipmentId: a.shipmentId,
    });
    await acts.cancelPickup({
      idempotencyKey: `${o.workflowId}:cancel-pickup:1`,
      orderId: o.orderId,
      shipmentId: a.shipmentId,
    });
    expect((await carrier.getShipment(a.trackingNumber))?.status).toBe("cancelled");
  });

  test("tracking webhooks: signed tracker.updated events posted to APP_ORIGIN/webhooks/carrier, with the scan history", async () => {
    const o = await orderWith();
    const booked = await acts.bookPickup({
      idempotencyKey: `${o.workflowId}:book-pickup:1`,
      orderId: o.orderId,
      externalId: o.externalId,
      attempt: 1,
      senderId: o.seller.retailer.id,
      receiverId: o.buyer.retailer.id,
      units: 3,
      pickupBy: "2026-03-04T22:00:00.000Z",
    });
    received.length = 0;
    const statuses = ["picked_up", "in_transit", "delivered"] as const;
    for (const s of statuses) {
      const r = await carrier.sendTrackingEvent(booked.trackingNumber, s);
      expect(r.httpStatus).toBe(200);
    }
    expect(
      received.map((r) => [r.verified, r.event.result.status, r.event.result.tracking_code]),
    ).toEqual(statuses.map((s) => [true, s, booked.trackingNumber]));
    expect(received[2].event.result.tracking_details.map((d) => d.status)).toEqual([...statuses]);
    expect(new Set(received.map((r) => r.event.id)).size).toBe(3);
    // A duplicate delivery is the same event (same id) again.
    expect(await carrier.deliver(received[0].event)).toBe(200);
    expect(received[3].event.id).toBe(received[0].event.id);
    expect((await carrier.getShipment(booked.trackingNumber))?.status).toBe("delivered");
  });
});

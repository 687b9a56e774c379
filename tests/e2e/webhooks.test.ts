/**
 * The webhook endpoints over HTTP (app/routes/webhooks.carrier.tsx, webhooks.payments.tsx) against a real
 * order on the real worker: an order sold to a request is checked out through the pages (capture + pickup
 * booked: ship_order with a tracking number), then
 * - the same carrier event delivered 20 times (one after another, and 20 at once) has one effect: one
 *   webhook_events row, one carrierEvent signal in the workflow's history, the read model moved once;
 * - a forged or missing signature, malformed JSON and a bad payload get 400 and store nothing; an unknown
 *   tracking number 404;
 * - a payment event delivered 20 times: one row, one paymentEvent signal; a stale Stripe-Signature is 400;
 * - staff's simulateCarrierEvent goes through the same endpoint (delivery);
 * - the inbox (docs/decisions/0042-webhook-inbox.md): an event stored by a web process that died before its
 *   signal (the test calls storeCarrierEvent, the endpoint's store step, and nothing after it) is delivered by
 *   the worker's relay and moves the order, though the carrier's retry is answered "duplicate"; the same event
 *   posted twice at the same moment is stored once, answered once as a duplicate, and acted on once; a real web
 *   process (workers/web.mjs) killed after it stored an event and before the signal left (its Temporal
 *   connection held by a proxy) gives the sender no answer, and the relay still delivers the event.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signCarrierEvent } from "../../activities/carrier/signature";
import {
  signWebhookBody,
  simulateCarrierEvent,
  storeCarrierEvent,
} from "../../app/utils/webhooks.server";
import { getEnv } from "../../app/utils/env.server";
import type { DbHandle } from "../../db/client";
import { getOrderRow } from "../../db/queries/orders";
import { orders, payments, shipmentEvents, shipments, webhookEvents } from "../../db/schema";
import { buildCarrierEvent, CARRIER_SIGNATURE_HEADER } from "../../domain/carrier-events";
import { ACTION } from "../../domain/action-codes";
import { COMMON_STATES, BUY_STATES } from "../../domain/states";
import { PAYMENT_SIGNATURE_HEADER } from "../../domain/webhooks";
import { createStaffUser, createWorld, DEFAULT_TEST_PASSWORD } from "../factories";
import {
  buyWorkflowId,
  closeTemporal,
  offerInCart,
  temporal,
  until,
  waitForOrderState,
  waitForReadModel,
} from "./buy-helpers";
import { dbHandle } from "./harness";
import { HttpClient } from "./http";
import { freePort, holdingProxy, WebProcess } from "./reliability-helpers";

let dbh: DbHandle;
let brand: number;
let variation: number;
const env = getEnv();

beforeAll(async () => {
  dbh = dbHandle();
  const world = await createWorld(dbh.db, { products: [{ colors: 1, priceCents: 2500 }] });
  [brand, variation] = [world.brand.id, world.variation.id];
});
afterAll(async () => {
  await closeTemporal();
  // simulateCarrierEvent used the app's db singleton in this process.
  await globalThis.__dbHandle?.close();
  globalThis.__dbHandle = undefined;
});

/** A paid order waiting for pickup (ship_order), made through the pages: an offer to a request, checked out. */
async function orderAwaitingPickup(): Promise<{ orderId: number; trackingNumber: string }> {
  const {
    requestor,
    req,
    client: s,
  } = await offerInCart(dbh, brand, variation, "M", { prefix: "wh" });
  // The seller has no card on file yet: the sell dialog's card fields put one there (selling needs it).
  const sent = await s.postForm("/checkout", {
    intent: "proceed",
    reason: "overstock",
    floor_time: "0-30",
    terms: "on",
    card_number: "4242424242424242",
    card_expiry: "12/34",
    card_cvc: "123",
  });
  expect(sent.status, sent.body.slice(0, 300)).toBe(303);
  expect(sent.location).toBe("/buy?ref=offerSent");
  const [order] = await dbh.db.select().from(orders).where(eq(orders.requestId, req.id));
  const r = new HttpClient();
  await r.signIn(requestor.email, DEFAULT_TEST_PASSWORD);
  const paid = await r.postForm(`/checkout/pay?order=${order.id}`, {
    card_choice: "new",
    card_number: "4242424242424242",
    card_expiry: "12/34",
    card_cvc: "123",
  });
  expect(paid.status, paid.body.slice(0, 300)).toBe(303);
  const view = await waitForOrderState(order.id, BUY_STATES.SHIP_ORDER);
  const trackingNumber = view.shipment!.trackingNumber;
  await until(
    "the shipment row",
    async () =>
      (
        await dbh.db.select().from(shipments).where(eq(shipments.trackingNumber, trackingNumber))
      )[0],
  );
  return { orderId: order.id, trackingNumber };
}

function carrierEvent(
  trackingNumber: string,
  status: "picked_up" | "delivered" | "pre_transit",
  eventId = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return buildCarrierEvent({
    eventId,
    trackingNumber,
    shipmentId: null,
    status,
    occurredAt: new Date().toISOString(),
  });
}

async function postCarrier(raw: string, signature: string | null) {
  const c = new HttpClient();
  return c.postRaw("/webhooks/carrier", raw, "application/json", {
    origin: null,
    headers: signature === null ? {} : { [CARRIER_SIGNATURE_HEADER]: signature },
  });
}

async function postPayment(raw: string, signature: string | null) {
  const c = new HttpClient();
  return c.postRaw("/webhooks/payments", raw, "application/json", {
    origin: null,
    headers: signature === null ? {} : { [PAYMENT_SIGNATURE_HEADER]: signature },
  });
}

async function storedRows(id: string): Promise<number> {
  const [row] = await dbh.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(eq(webhookEvents.id, id));
  return row.n;
}

async function signalsIn(orderId: number, name: string): Promise<number> {
  const history = await (await temporal()).workflow
    .getHandle(buyWorkflowId(orderId))
    .fetchHistory();
  return (history.events ?? []).filter(
    (e) => e.workflowExecutionSignaledEventAttributes?.signalName === name,
  ).length;
}

describe("carrier webhook", () => {
  it("the same event 20 times (in a row, then 20 at once) has one effect each; a late scan after delivery changes nothing", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    const secret = env.CARRIER_WEBHOOK_SECRET;

    // Picked up, delivered 20 times one after another (signed the way the sandbox carrier signs).
    const pickup = carrierEvent(trackingNumber, "picked_up");
    const raw = JSON.stringify(pickup);
    const answers: { status: number; duplicate: boolean }[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await postCarrier(raw, signCarrierEvent(raw, secret));
      answers.push({ status: r.status, duplicate: JSON.parse(r.body).duplicate === true });
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(await storedRows(`carrier:${pickup.id}`)).toBe(1);
    const inRoute = await waitForOrderState(orderId, COMMON_STATES.IN_ROUTE);
    expect(await signalsIn(orderId, "carrierEvent")).toBe(1);
    expect(inRoute.payoutReleasedAt).toBeTruthy();
    expect(inRoute.amounts.payoutCents).toBe(2500);
    await waitForReadModel(dbh, orderId, COMMON_STATES.IN_ROUTE);
    const [ship] = await dbh.db
      .select()
      .from(shipments)
      .where(eq(shipments.trackingNumber, trackingNumber));
    const events = await dbh.db
      .select()
      .from(shipmentEvents)
      .where(eq(shipmentEvents.shipmentId, ship.id));
    expect(events.filter((e) => e.providerEventId === `carrier:${pickup.id}`)).toHaveLength(1);

    // Delivered, 20 deliveries at the same moment.
    const delivered = carrierEvent(trackingNumber, "delivered");
    const raw2 = JSON.stringify(delivered);
    const sig2 = signCarrierEvent(raw2, secret);
    const burst = await Promise.all(Array.from({ length: 20 }, () => postCarrier(raw2, sig2)));
    expect(burst.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(burst.filter((r) => JSON.parse(r.body).duplicate !== true)).toHaveLength(1);
    expect(await storedRows(`carrier:${delivered.id}`)).toBe(1);
    await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    expect(await signalsIn(orderId, "carrierEvent")).toBe(2);
    const view = await waitForReadModel(dbh, orderId, COMMON_STATES.DELIVERED);
    expect(view.statename).toBe(COMMON_STATES.DELIVERED);

    // Out of order: a late "picked up" after delivery is stored and signalled, and changes nothing.
    const late = carrierEvent(trackingNumber, "picked_up");
    const rawLate = JSON.stringify(late);
    expect((await postCarrier(rawLate, signCarrierEvent(rawLate, secret))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const after = await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    expect(after.amounts.payoutCents).toBe(2500);
    expect(after.actions.filter((a) => a.code === ACTION.PAYOUT_RELEASED)).toHaveLength(1);
  });

  it("out of order: delivered before picked up releases the payout once and delivers; the late pickup changes nothing", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    const secret = env.CARRIER_WEBHOOK_SECRET;
    const delivered = JSON.stringify(carrierEvent(trackingNumber, "delivered"));
    expect((await postCarrier(delivered, signCarrierEvent(delivered, secret))).status).toBe(200);
    const view = await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    const late = JSON.stringify(carrierEvent(trackingNumber, "picked_up"));
    expect((await postCarrier(late, signCarrierEvent(late, secret))).status).toBe(200);
    await until("both signals", async () => (await signalsIn(orderId, "carrierEvent")) === 2);
    const after = await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    expect(after.actions.filter((a) => a.code === ACTION.PAYOUT_RELEASED)).toHaveLength(1);
    expect(after.actions.filter((a) => a.code === ACTION.SHIPMENT_DELIVERED)).toHaveLength(1);
    expect(after.deliveredAt).toBe(view.deliveredAt);
  });

  it("forged, missing and malformed signatures, bad JSON and bad payloads are 400 and store nothing; unknown tracking 404", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    const secret = env.CARRIER_WEBHOOK_SECRET;
    const ev = carrierEvent(trackingNumber, "picked_up");
    const raw = JSON.stringify(ev);

    const forged = await postCarrier(raw, signCarrierEvent(raw, "attacker-secret"));
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toMatchObject({
      received: false,
      error: "invalid signature (mismatch)",
    });
    expect((await postCarrier(raw, null)).status).toBe(400);
    expect((await postCarrier(raw, "sha256=deadbeef")).status).toBe(400);
    // A signature of another body (the payload was tampered with after signing).
    const tampered = raw.replace('"picked_up"', '"delivered"');
    expect((await postCarrier(tampered, signCarrierEvent(raw, secret))).status).toBe(400);
    // Signed, but not JSON / not an event.
    const notJson = "{not json";
    expect((await postCarrier(notJson, signCarrierEvent(notJson, secret))).status).toBe(400);
    const wrongShape = JSON.stringify({ id: "x", object: "Event", description: "tracker.updated" });
    const bad = await postCarrier(wrongShape, signCarrierEvent(wrongShape, secret));
    expect(bad.status).toBe(400);
    expect(bad.body).not.toMatch(/at .*\.js:\d+/);
    // Unknown tracking number: 404 and not stored (the carrier retries once our shipment exists).
    const unknown = carrierEvent("SBX00000000000000", "picked_up");
    const rawUnknown = JSON.stringify(unknown);
    expect((await postCarrier(rawUnknown, signCarrierEvent(rawUnknown, secret))).status).toBe(404);
    expect(await storedRows(`carrier:${unknown.id}`)).toBe(0);
    // GET is not an endpoint.
    expect((await new HttpClient().get("/webhooks/carrier")).status).toBe(405);

    expect(await storedRows(`carrier:${ev.id}`)).toBe(0);
    expect(await signalsIn(orderId, "carrierEvent")).toBe(0);
    expect((await waitForOrderState(orderId, BUY_STATES.SHIP_ORDER)).statename).toBe(
      BUY_STATES.SHIP_ORDER,
    );
  });
});

describe("staff's simulate pickup / delivery", () => {
  it("simulateCarrierEvent signs and posts to APP_ORIGIN/webhooks/carrier and answers once the order shows In-Route, then Delivered", async () => {
    const { orderId } = await orderAwaitingPickup();
    const picked = await simulateCarrierEvent(orderId, "picked_up");
    expect(picked).toMatchObject({ ok: true, httpStatus: 200, duplicate: false, settled: true });
    // No waiting here: the answer came after the workflow wrote the step (staff's page shows it at once).
    expect((await getOrderRow(dbh.db, orderId))?.statename).toBe(COMMON_STATES.IN_ROUTE);
    expect(await simulateCarrierEvent(orderId, "delivered")).toMatchObject({
      ok: true,
      settled: true,
    });
    expect((await getOrderRow(dbh.db, orderId))?.statename).toBe(COMMON_STATES.DELIVERED);
    expect(await storedRows(`carrier:${(picked as { eventId: string }).eventId}`)).toBe(1);
    expect(await simulateCarrierEvent(999_999_999, "delivered")).toEqual({
      ok: false,
      message: "This order has no shipment with a tracking number yet.",
    });
  });
});

/** The stored row of an event (the inbox's marks). */
async function inboxRow(id: string) {
  const [row] = await dbh.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row;
}

// At the same time (each on an order of its own): most of each test is the endpoint's 5 s hold and the relay's
// sweep going by, so the file no longer waits them out one after another.
describe.concurrent("the inbox: no acknowledged event is lost", () => {
  it("an event stored by a web process that died before its signal reaches its order through the relay", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    const secret = env.CARRIER_WEBHOOK_SECRET;
    const staff = new HttpClient();
    await staff.signIn((await createStaffUser(dbh.db, {})).email, DEFAULT_TEST_PASSWORD);
    for (const [status, state] of [
      ["picked_up", COMMON_STATES.IN_ROUTE],
      ["delivered", COMMON_STATES.DELIVERED],
    ] as const) {
      const ev = carrierEvent(trackingNumber, status);
      // The endpoint's store step, then the process "dies": no signal, no mark.
      const stored = await storeCarrierEvent(ev);
      expect(stored).toMatchObject({ inserted: true });
      expect(await inboxRow(`carrier:${ev.id}`)).toMatchObject({
        processedAt: null,
        outcome: null,
        attempts: 1,
      });
      // Staff see it waiting (within the endpoint's hold, before the relay takes it).
      const page = await staff.get("/admin/outbox");
      expect(
        Number(/waiting for delivery to their orders: (\d+)/.exec(page.body)?.[1]),
      ).toBeGreaterThanOrEqual(1);
      // The carrier retries (it never had our 200): a duplicate, answered as one.
      const raw = JSON.stringify(ev);
      const retry = await postCarrier(raw, signCarrierEvent(raw, secret));
      expect(retry.status).toBe(200);
      expect(JSON.parse(retry.body)).toMatchObject({ received: true, duplicate: true });
      // The worker's relay delivers it once the endpoint's hold (5 s) has passed.
      await waitForOrderState(orderId, state);
      await until(
        "the relay's mark",
        async () => (await inboxRow(`carrier:${ev.id}`)).outcome === "delivered",
      );
      expect((await inboxRow(`carrier:${ev.id}`)).attempts).toBe(2);
    }
    expect(await signalsIn(orderId, "carrierEvent")).toBe(2);
    await waitForReadModel(dbh, orderId, COMMON_STATES.DELIVERED);
    const order = await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    // Delivered: the receiver's rating and RMA windows count from here.
    expect(order.deliveredAt).toBeTruthy();
    expect(order.actions.filter((a) => a.code === ACTION.SHIPMENT_DELIVERED)).toHaveLength(1);
    expect(order.actions.filter((a) => a.code === ACTION.PAYOUT_RELEASED)).toHaveLength(1);
  });

  it("a real web process killed after storing an event, before its signal left: the relay delivers it", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    // A web process of its own whose Temporal connection goes through a proxy that is then held: the process
    // stores the event and waits on its signal, which cannot leave, when it is killed.
    const proxy = await holdingProxy(process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233");
    const web = new WebProcess(await freePort(), { TEMPORAL_ADDRESS: proxy.address });
    try {
      await web.start();
      proxy.hold();
      const ev = carrierEvent(trackingNumber, "picked_up");
      const raw = JSON.stringify(ev);
      const posted = fetch(`http://127.0.0.1:${web.port}/webhooks/carrier`, {
        method: "POST",
        body: raw,
        headers: {
          "content-type": "application/json",
          [CARRIER_SIGNATURE_HEADER]: signCarrierEvent(raw, env.CARRIER_WEBHOOK_SECRET),
        },
      }).then(
        (r) => r.status,
        () => "no answer",
      );
      await until("the event stored", () => inboxRow(`carrier:${ev.id}`));
      await until("its signal on the way", async () => proxy.heldBytes() > 0);
      await web.kill();
      // The carrier never had an answer; the row waits, undelivered.
      expect(await posted).toBe("no answer");
      expect(await inboxRow(`carrier:${ev.id}`)).toMatchObject({ processedAt: null, attempts: 1 });
      // Its retry is a duplicate; the worker's relay delivers the stored event after the endpoint's hold.
      const retry = await postCarrier(raw, signCarrierEvent(raw, env.CARRIER_WEBHOOK_SECRET));
      expect(JSON.parse(retry.body)).toMatchObject({ received: true, duplicate: true });
      await waitForOrderState(orderId, COMMON_STATES.IN_ROUTE);
      await until(
        "the relay's mark",
        async () => (await inboxRow(`carrier:${ev.id}`)).outcome === "delivered",
      );
      expect(await signalsIn(orderId, "carrierEvent")).toBe(1);
    } finally {
      await web.kill();
      await proxy.close();
    }
  }, 150_000);

  it("the same event posted twice at the same moment: one stored, one duplicate, the workflow acts once", async () => {
    const { orderId, trackingNumber } = await orderAwaitingPickup();
    const ev = carrierEvent(trackingNumber, "picked_up");
    const raw = JSON.stringify(ev);
    const sig = signCarrierEvent(raw, env.CARRIER_WEBHOOK_SECRET);
    const both = await Promise.all([postCarrier(raw, sig), postCarrier(raw, sig)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => JSON.parse(r.body).duplicate === true).sort()).toEqual([false, true]);
    expect(await storedRows(`carrier:${ev.id}`)).toBe(1);
    await waitForOrderState(orderId, COMMON_STATES.IN_ROUTE);
    expect(await inboxRow(`carrier:${ev.id}`)).toMatchObject({ outcome: "delivered", attempts: 1 });
    // Past the hold and a sweep: the relay has nothing left to deliver.
    await new Promise((r) => setTimeout(r, 8_000));
    expect(await signalsIn(orderId, "carrierEvent")).toBe(1);
    expect((await inboxRow(`carrier:${ev.id}`)).attempts).toBe(1);
    const order = await waitForOrderState(orderId, COMMON_STATES.IN_ROUTE);
    expect(order.actions.filter((a) => a.code === ACTION.SHIPMENT_PICKED_UP)).toHaveLength(1);
    expect(order.actions.filter((a) => a.code === ACTION.PAYOUT_RELEASED)).toHaveLength(1);
  });
});

describe("payment webhook", () => {
  it("the same event 20 times: one row, one paymentEvent signal; forged or stale signatures are 400", async () => {
    const { orderId } = await orderAwaitingPickup();
    const secret =
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? env.STRIPE_WEBHOOK_SECRET
        : env.SANDBOX_WEBHOOK_SECRET;
    const [pay] = await dbh.db.select().from(payments).where(eq(payments.orderId, orderId));
    const ev = {
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: pay?.providerRef ?? "pi_unknown",
          object: "payment_intent",
          metadata: { order_id: String(orderId) },
        },
      },
    };
    const raw = JSON.stringify(ev);
    const results = [];
    for (let i = 0; i < 20; i++) results.push(await postPayment(raw, signWebhookBody(secret, raw)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => JSON.parse(r.body).duplicate !== true)).toHaveLength(1);
    expect(await storedRows(`payment:${ev.id}`)).toBe(1);
    await until(
      "the paymentEvent signal",
      async () => (await signalsIn(orderId, "paymentEvent")) >= 1,
    );
    expect(await signalsIn(orderId, "paymentEvent")).toBe(1);

    const other = { ...ev, id: `evt_${Math.random().toString(36).slice(2)}` };
    const rawOther = JSON.stringify(other);
    expect((await postPayment(rawOther, signWebhookBody("whsec_attacker", rawOther))).status).toBe(
      400,
    );
    expect((await postPayment(rawOther, null)).status).toBe(400);
    const stale = await postPayment(
      rawOther,
      signWebhookBody(secret, rawOther, Math.floor(Date.now() / 1000) - 3600),
    );
    expect(stale.status).toBe(400);
    expect(JSON.parse(stale.body).error).toBe("invalid signature (stale)");
    expect((await postPayment("[]", signWebhookBody(secret, "[]"))).status).toBe(400);
    expect(await storedRows(`payment:${other.id}`)).toBe(0);
  });
});

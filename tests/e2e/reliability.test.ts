/**
 * Reliability of the buy workflow on the REAL Temporal dev server (the e2e suite's: TEMPORAL_ADDRESS, and its
 * database: DATABASE_URL), with a worker process of our own (`node --import tsx workers/main.ts` on a unique
 * task queue; orders are started on that queue from draft orders, as checkout starts them):
 *
 * 1. The worker is SIGKILLed mid-order at the worst moments — after the payment provider acted but before the
 *    activity could report it: during the authorisation (checkout), the capture (Approve Sale) and the payout
 *    transfer (pickup scan). A row lock on the payments read model holds each activity right after the
 *    provider's answer; the worker is killed while the activity is in flight (pending, STARTED), its stuck
 *    database session is ended, the lock released, and a new worker started. The activity times out on its
 *    heartbeat, is retried on the new worker with the same idempotency key, and the order goes on: one
 *    authorisation, one capture, one transfer at the provider and in the read model; the ledger balances.
 *    Before its kill, the capture is held 15 s on the live worker: a slow call is NOT retried (it heartbeats).
 * 2. Fifty buyers have each checked out (authorised) an order for the same last unit of one listing; the seller
 *    presses Approve Sale on all fifty at once (the approveSale update the button sends, first unconfirmed,
 *    then confirmed). Exactly one order is captured and moves to ship_order; the other 49 answer the
 *    specification's errors and are declined by the workflow (units taken by another order: 229, reason 15)
 *    with their authorisations released; the listing ends at 0 units and is never seen below 0; the provider
 *    saw exactly one capture.
 */
import { and, eq, inArray, like, sql as dsql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { beginPayment, listOrderPayments, PAYMENT_NAMES } from "../../db/queries/payments";
import { listings, orders, sandboxIdempotencyKeys, sandboxPaymentObjects, stockMovements } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { DECLINE_OTHERS_REASON } from "../../domain/reasons";
import {
  approveSaleUpdate,
  BUY_ERRORS,
  buyCommandError,
  carrierEventSignal,
  completeCheckoutUpdate,
  type BuyCommandResult,
} from "../../workflows/buy/contract";
import { createSellerWithListing } from "../db/buy-fixtures";
import { createRetailer } from "../factories";
import { closeTemporal, temporal, until } from "./buy-helpers";
import {
  activityRecords,
  holdLock,
  lockWaiters,
  pendingActivity,
  saveSellerCard,
  sleep,
  startBuyOrder,
  terminateBackends,
  uniqueQueue,
  waitForView,
  WorkerProcess,
  type BuyHandle,
} from "./reliability-helpers";

const VISA = { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" };
/** temporal.api.enums.v1.PendingActivityState.STARTED and TimeoutType.HEARTBEAT. */
const PENDING_ACTIVITY_STARTED = 2;
const TIMEOUT_HEARTBEAT = "timeout:4";

let dbh: DbHandle;
const workers: WorkerProcess[] = [];
const openHandles: BuyHandle[] = [];

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL must point at the e2e database");
  dbh = createDb(process.env.DATABASE_URL, { max: 6 });
});

afterAll(async () => {
  // Orders left open (waiting for a pickup) on a queue nobody will poll again.
  for (const h of openHandles) await h.terminate("reliability test finished").catch(() => {});
  for (const w of workers) await w.stop().catch(() => {});
  await closeTemporal();
  await dbh?.close();
});

/** The sandbox provider's idempotency keys of one workflow, with whether each has its answer stored. */
async function providerKeysOf(workflowId: string) {
  const rows = await dbh.db
    .select({ key: sandboxIdempotencyKeys.key, object: sandboxIdempotencyKeys.responseObjectId, error: sandboxIdempotencyKeys.responseError })
    .from(sandboxIdempotencyKeys)
    .where(like(sandboxIdempotencyKeys.key, `${workflowId}:%`));
  return rows.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** The provider's objects of one order: payment intents (metadata.order_id) and transfers (transfer_group). */
async function providerObjectsOf(orderId: number) {
  const intents = await dbh.db
    .select({ data: sandboxPaymentObjects.data })
    .from(sandboxPaymentObjects)
    .where(and(eq(sandboxPaymentObjects.kind, "payment_intent"), dsql`${sandboxPaymentObjects.data}->'metadata'->>'order_id' = ${String(orderId)}`));
  const transfers = await dbh.db
    .select({ data: sandboxPaymentObjects.data })
    .from(sandboxPaymentObjects)
    .where(and(eq(sandboxPaymentObjects.kind, "transfer"), dsql`${sandboxPaymentObjects.data}->>'transfer_group' = ${`order-${orderId}`}`));
  return { intents: intents.map((r) => r.data as Record<string, unknown>), transfers: transfers.map((r) => r.data as Record<string, unknown>) };
}

describe("the worker killed mid-order on the real dev server", () => {
  it("resumes authorisation, capture and payout after SIGKILLs in flight, with no double charge", { timeout: 180_000 }, async () => {
    const t0 = Date.now();
    const client = await temporal();
    const worker = new WorkerProcess(uniqueQueue("reliability-kill"));
    workers.push(worker);
    await worker.start();

    const f = await createSellerWithListing(dbh.db, { sizes: { S: 2, M: 3 } });
    const sellerId = f.seller.retailer.id;
    await saveSellerCard(dbh.db, sellerId);
    const buyerId = (await createRetailer(dbh.db, { payout: false })).retailer.id;
    const lines = [{ listingId: f.listing.id, variationId: f.variation.id, sizes: { S: 1, M: 2 }, unitPriceCents: f.priceCents }];
    const o = await startBuyOrder(client, dbh.db, worker.queue, { providerId: sellerId, receiverId: buyerId, brandId: f.brand.id, lines });
    openHandles.push(o.handle);
    const wf = o.workflowId;
    const timings: Record<string, number> = {};

    /**
     * Holds `activity` right after the provider answered `providerKey` (its payments-row update waits on a row
     * lock of ours), kills the worker while the activity is in flight, ends the dead worker's waiting database
     * session, releases the lock and starts a new worker. `trigger` starts the step (an update or a signal).
     */
    async function killAfterProvider<T>(
      step: string,
      activity: string,
      providerKey: string,
      lockedKey: string,
      trigger: () => Promise<T>,
      opts: { holdMs?: number } = {},
    ): Promise<T> {
      const lock = await holdLock(dbh.sql, "select id from payments where idempotency_key = $1 for update", [lockedKey]);
      let result: Promise<T> | undefined;
      try {
        result = trigger();
        result.catch(() => {}); // awaited by the caller
        const waiting = await until(`${step}: ${activity} waiting on the payments row`, async () => {
          const pids = await lockWaiters(dbh.sql, 'update "payments"%');
          return pids.length > 0 ? pids : null;
        }, 30_000, 50);
        // The provider has done it (its key has a stored answer) and the activity has not reported: in flight.
        const [k] = (await providerKeysOf(wf)).filter((r) => r.key === providerKey);
        expect(k?.object, `${step}: the provider answered ${providerKey} before the kill`).toBeTruthy();
        const pending = await pendingActivity(o.handle, activity);
        expect(pending, `${step}: ${activity} is pending at the kill`).toMatchObject({ state: PENDING_ACTIVITY_STARTED, attempt: 1 });
        if (opts.holdMs) {
          // A slow call on a LIVE worker is not retried: the activity heartbeats past its heartbeat timeout.
          await sleep(opts.holdMs);
          expect(await pendingActivity(o.handle, activity), `${step}: ${activity} still on its first attempt after ${opts.holdMs} ms`).toMatchObject({
            state: PENDING_ACTIVITY_STARTED,
            attempt: 1,
          });
          expect(await lockWaiters(dbh.sql, 'update "payments"%')).toEqual(waiting);
        }
        await worker.kill();
        timings[`${step}:killedAt`] = Date.now();
        // Postgres has not noticed the dead client of the waiting statement: end it, as a dropped connection would.
        await terminateBackends(dbh.sql, waiting);
      } finally {
        await lock.release();
      }
      await worker.start();
      return result as Promise<T>;
    }

    // 1. Checkout: the worker dies after the provider authorised the card. An earlier attempt of the activity
    //    got as far as the queued payments row (beginPayment, as the activity writes it); we hold that row.
    await beginPayment(dbh.db, {
      idempotencyKey: `${wf}:authorize:1`,
      orderId: o.orderId,
      retailerId: buyerId,
      name: PAYMENT_NAMES.authorization,
      txtype: "authorization",
      amountCents: o.quote.totalCents,
      paymentMethodDescription: VISA.description,
      lastFour: VISA.lastFour,
    });
    let s = Date.now();
    const checkout = await killAfterProvider("checkout", "authorizePayment", `${wf}:authorize:1`, `${wf}:authorize:1`, () =>
      o.handle.executeUpdate(completeCheckoutUpdate, { args: [{ actorRetailerId: buyerId, paymentMethod: VISA }] }),
    );
    expect(checkout).toMatchObject({ status: "ok", statename: "provider_approve_sale" });
    timings.checkout = Date.now() - s;

    // 2. Approve Sale: the worker dies after the provider captured (the authorisation row's update waits).
    s = Date.now();
    //    The capture is held 15 s first (longer than the 10 s heartbeat timeout) while the worker is alive.
    const approved = await killAfterProvider(
      "approve",
      "capturePayment",
      `${wf}:capture:1`,
      `${wf}:authorize:1`,
      () => o.handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId, confirmDeclineOthers: true }] }),
      { holdMs: 15_000 },
    );
    expect(approved).toMatchObject({ status: "ok", statename: "ship_order", redirectTo: "/orders" });
    timings.approve = Date.now() - s;
    const shipping = await waitForView(o.handle, (v) => v.statename === "ship_order", "ship_order");
    const trackingNumber = shipping.shipment?.trackingNumber as string;
    expect(trackingNumber).toBeTruthy();

    // 3. The carrier scans the package: payout transfer; the worker dies after the provider made the transfer.
    await beginPayment(dbh.db, {
      idempotencyKey: `${wf}:payout:1`,
      orderId: o.orderId,
      retailerId: sellerId,
      name: PAYMENT_NAMES.payout,
      txtype: "transfer",
      amountCents: o.quote.goodsCents,
    });
    s = Date.now();
    await killAfterProvider("pickup", "releaseSellerPayout", `${wf}:payout:1`, `${wf}:payout:1`, () =>
      o.handle.signal(carrierEventSignal, { eventId: `evt_reliability_${o.orderId}_pickup`, status: "picked_up", trackingNumber }),
    );
    const paid = await waitForView(o.handle, (v) => v.statename === "in_route" && v.payoutReleasedAt !== null, "payout released", 90_000);
    timings.pickup = Date.now() - s;

    // --- the workflow: each payment activity scheduled once, completed by its 2nd attempt after a heartbeat timeout
    const acts = await activityRecords(o.handle);
    for (const type of ["authorizePayment", "capturePayment", "releaseSellerPayout"]) {
      const recs = acts.filter((a) => a.type === type);
      expect(recs, `${type} scheduled once`).toHaveLength(1);
      expect(recs[0], `${type} retried after its worker died`).toMatchObject({ completed: true, attempt: 2, lastFailure: TIMEOUT_HEARTBEAT });
    }
    expect(worker.kills).toBe(3);

    // --- the provider: one authorisation (captured), one capture, one transfer; every key answered once
    expect((await providerKeysOf(wf)).map((k) => [k.key, Boolean(k.object), k.error])).toEqual([
      [`${wf}:authorize:1`, true, null],
      [`${wf}:authorize:1:payment-method`, true, null],
      [`${wf}:capture:1`, true, null],
      [`${wf}:payout:1`, true, null],
    ]);
    const objs = await providerObjectsOf(o.orderId);
    expect(objs.intents).toHaveLength(1);
    expect(objs.intents[0]).toMatchObject({ status: "succeeded", amount: o.quote.totalCents, amount_received: o.quote.totalCents, capture_method: "manual" });
    expect(objs.transfers).toHaveLength(1);
    expect(objs.transfers[0]).toMatchObject({ amount: o.quote.goodsCents, destination: f.seller.retailer.btMerchantId });

    // --- the read model: one row per movement, completed by the retried activities
    const pays = await listOrderPayments(dbh.db, o.orderId);
    expect(pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents, p.status, p.queued])).toEqual([
      ["authorization", `${wf}:authorize:1`, o.quote.totalCents, "captured", false],
      ["capture", `${wf}:capture:1`, o.quote.totalCents, "succeeded", false],
      ["transfer", `${wf}:payout:1`, o.quote.goodsCents, "paid", false],
    ]);
    expect(pays[0].providerRef).toBe(objs.intents[0].id);
    expect(pays[2].providerRef).toBe(objs.transfers[0].id);
    const order = await getOrderRow(dbh.db, o.orderId);
    expect(order).toMatchObject({ statename: "in_route", capturedCents: o.quote.totalCents });
    for (const ledger of [paid.ledger, order?.ledger as Record<string, unknown>]) {
      expect(ledger).toMatchObject({
        authorizedCents: o.quote.totalCents,
        buyerPaidCents: o.quote.totalCents,
        sellerPaidCents: o.quote.goodsCents,
        balanced: true,
      });
    }
    expect((await listOrderActions(dbh.db, o.orderId)).map((a) => a.code)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
      ACTION.SHIPMENT_PICKED_UP,
      ACTION.PAYOUT_RELEASED,
    ]);
    // Stock taken once.
    const moves = await dbh.db.select().from(stockMovements).where(eq(stockMovements.orderId, o.orderId));
    expect(moves.map((m) => [m.kind, m.ok])).toEqual([["decrement", true]]);
    const [listing] = await dbh.db.select({ sizes: listings.sizes }).from(listings).where(eq(listings.id, f.listing.id));
    expect(listing.sizes).toEqual({ S: 1, M: 1 });

    console.log(
      `[reliability] kill test: checkout ${timings.checkout} ms, approve ${timings.approve} ms, pickup ${timings.pickup} ms ` +
        `(each with a SIGKILL mid-payment); worker starts ${worker.startMs.join("/")} ms; total ${Date.now() - t0} ms`,
    );
  });
});

describe("fifty pending orders for the last unit approved at once", () => {
  it("captures exactly one; the other 49 are refused and declined with their authorisations released; stock never below 0", { timeout: 180_000 }, async () => {
    const N = 50;
    const t0 = Date.now();
    const client = await temporal();
    const worker = new WorkerProcess(uniqueQueue("reliability-race"));
    workers.push(worker);
    await worker.start();

    const f = await createSellerWithListing(dbh.db, { sizes: { M: 1 } });
    const sellerId = f.seller.retailer.id;
    await saveSellerCard(dbh.db, sellerId);
    const lines = [{ listingId: f.listing.id, variationId: f.variation.id, sizes: { M: 1 }, unitPriceCents: f.priceCents }];
    const buyers: number[] = [];
    for (let i = 0; i < N; i++) buyers.push((await createRetailer(dbh.db, { payout: false })).retailer.id);
    const started = await Promise.all(buyers.map((b) => startBuyOrder(client, dbh.db, worker.queue, { providerId: sellerId, receiverId: b, brandId: f.brand.id, lines })));
    const orderIds = started.map((o) => o.orderId);
    const tSetup = Date.now() - t0;

    // Every buyer checks out: the card is authorised, the order waits for the seller.
    let s = Date.now();
    const checkouts = await Promise.all(
      started.map((o, i) => o.handle.executeUpdate(completeCheckoutUpdate, { args: [{ actorRetailerId: buyers[i], paymentMethod: VISA }] })),
    );
    expect(checkouts.every((c) => c.status === "ok" && c.statename === "provider_approve_sale")).toBe(true);
    const tCheckout = Date.now() - s;

    // The seller presses Approve Sale on every order at once: the first press asks to confirm declining the others.
    s = Date.now();
    const first = await Promise.all(started.map((o) => o.handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId }] })));
    for (const [i, r] of first.entries()) {
      expect(r.status).toBe("need_confirm_decline_others");
      expect([...(r.conflictingOrderIds ?? [])].sort((a, b) => a - b)).toEqual(orderIds.filter((id) => id !== orderIds[i]).sort((a, b) => a - b));
    }
    const tFirst = Date.now() - s;

    // Confirmed, all fifty at once; meanwhile the listing's units are sampled.
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await dbh.db.select({ m: dsql<number>`(${listings.sizes}->>'M')::int`, total: listings.totalUnits }).from(listings).where(eq(listings.id, f.listing.id));
        samples.push(Math.min(Number(row.m), row.total));
        await sleep(5);
      }
    })();
    s = Date.now();
    const outcomes = await Promise.allSettled(
      started.map((o) => o.handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId, confirmDeclineOthers: true }] })),
    );
    const tRace = Date.now() - s;

    // The workflows settle: one shipping, 49 declined (the winner tells them their units were taken).
    s = Date.now();
    await until("one order shipping and 49 declined", async () => {
      const rows = await dbh.db.select({ st: orders.statename }).from(orders).where(inArray(orders.id, orderIds));
      const declined = rows.filter((r) => r.st === "declined").length;
      const shipping = rows.filter((r) => r.st === "ship_order").length;
      return declined === N - 1 && shipping === 1;
    }, 120_000, 250);
    const tSettle = Date.now() - s;
    sampling = false;
    await sampler;

    // --- the answers: exactly one ok; every other is the specification's error for the seller
    const ok = outcomes.flatMap((r, i) => (r.status === "fulfilled" ? [{ i, v: r.value as BuyCommandResult }] : []));
    expect(ok).toHaveLength(1);
    expect(ok[0].v).toMatchObject({ status: "ok", statename: "ship_order", redirectTo: "/orders" });
    const winner = started[ok[0].i];
    const refused: Record<string, number> = {};
    for (const r of outcomes) {
      if (r.status === "fulfilled") continue;
      const e = buyCommandError(r.reason);
      expect(e, `a loser got a real error: ${String(r.reason)}`).not.toBeNull();
      expect(["units_unavailable", "wrong_state"]).toContain(e!.code);
      expect(e!.message).toBe(BUY_ERRORS[e!.code]);
      refused[e!.code] = (refused[e!.code] ?? 0) + 1;
    }
    expect(Object.values(refused).reduce((a, n) => a + n, 0)).toBe(N - 1);

    // --- stock: the last unit taken once, never below zero
    const [listing] = await dbh.db.select({ sizes: listings.sizes, total: listings.totalUnits }).from(listings).where(eq(listings.id, f.listing.id));
    expect(listing).toEqual({ sizes: { M: 0 }, total: 0 });
    expect(samples.length).toBeGreaterThan(0);
    expect(Math.min(...samples)).toBe(0);
    const moves = await dbh.db.select().from(stockMovements).where(inArray(stockMovements.orderId, orderIds));
    expect(moves.filter((m) => m.kind === "decrement" && m.ok).map((m) => m.orderId)).toEqual([winner.orderId]);
    expect(moves.filter((m) => m.kind === "restore")).toEqual([]);

    // --- the provider: one capture for the fifty orders; 49 authorisations cancelled
    const captureKeys = await dbh.db
      .select({ key: sandboxIdempotencyKeys.key })
      .from(sandboxIdempotencyKeys)
      .where(and(inArray(sandboxIdempotencyKeys.key, started.map((o) => `${o.workflowId}:capture:1`))));
    expect(captureKeys.map((k) => k.key)).toEqual([`${winner.workflowId}:capture:1`]);
    const allCaptures = await dbh.db
      .select({ key: sandboxIdempotencyKeys.key })
      .from(sandboxIdempotencyKeys)
      .where(and(inArray(dsql`split_part(${sandboxIdempotencyKeys.key}, ':', 2)`, orderIds.map(String)), like(sandboxIdempotencyKeys.key, "buy-order:%:capture:%")));
    expect(allCaptures).toHaveLength(1);

    for (const o of started) {
      const objs = await providerObjectsOf(o.orderId);
      expect(objs.intents, `order ${o.orderId}: one authorisation`).toHaveLength(1);
      const pays = await listOrderPayments(dbh.db, o.orderId);
      const order = await getOrderRow(dbh.db, o.orderId);
      const codes = (await listOrderActions(dbh.db, o.orderId)).map((a) => a.code);
      expect((order?.ledger as { balanced?: boolean } | null)?.balanced, `order ${o.orderId}: ledger balances`).toBe(true);
      if (o === winner) {
        expect(objs.intents[0]).toMatchObject({ status: "succeeded", amount_received: o.quote.totalCents });
        expect(pays.map((p) => [p.txtype, p.status])).toEqual([["authorization", "captured"], ["capture", "succeeded"]]);
        expect(codes).toEqual([ACTION.CHECKOUT_COMPLETED, ACTION.PROVIDER_APPROVE_SALE, ACTION.PAYMENT_CAPTURED, ACTION.CALL_TAG_SCHEDULED_ORDER]);
        expect(order?.ledger).toMatchObject({ buyerPaidCents: o.quote.totalCents, balanced: true });
      } else {
        expect(objs.intents[0], `order ${o.orderId}: authorisation released`).toMatchObject({ status: "canceled", amount_received: 0, amount_capturable: 0 });
        expect(pays.map((p) => [p.txtype, p.status])).toEqual([["authorization", "canceled"], ["release", "canceled"]]);
        expect(order).toMatchObject({ statename: "declined", capturedCents: 0 });
        expect(order?.reasons).toMatchObject({ provider_decline_buy_reason: DECLINE_OTHERS_REASON });
        expect(codes).toEqual([ACTION.CHECKOUT_COMPLETED, ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER, ACTION.AUTHORIZATION_RELEASED]);
        expect(order?.ledger).toMatchObject({ buyerPaidCents: 0, balanced: true });
      }
    }
    // The declined orders' workflows have finished; the winner waits for its pickup.
    const closed = await Promise.all(started.filter((o) => o !== winner).map(async (o) => (await o.handle.describe()).status.name));
    expect(new Set(closed)).toEqual(new Set(["COMPLETED"]));
    openHandles.push(winner.handle);

    console.log(
      `[reliability] ${N} approvals of the last unit: set-up ${tSetup} ms, ${N} checkouts ${tCheckout} ms, first press ${tFirst} ms, ` +
        `confirmed race ${tRace} ms (refused: ${JSON.stringify(refused)}), declines settled ${tSettle} ms later; ` +
        `${samples.length} stock samples, min ${Math.min(...samples)}; total ${Date.now() - t0} ms`,
    );
  });
});

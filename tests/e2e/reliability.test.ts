/**
 * Reliability of the buy workflow on the REAL Temporal dev server (the e2e suite's: TEMPORAL_ADDRESS, and its
 * database: DATABASE_URL), with a worker process of our own (`node --import tsx workers/main.ts` on a unique
 * task queue; orders are started on that queue from draft orders, as checkout starts them):
 *
 * 1. The worker is SIGKILLed mid-order at the worst moments — after the payment provider acted but before the
 *    activity could report it: during the authorisation (checkout), the capture (Approve Sale) and the payout
 *    transfer (pickup scan). A row lock on the payments read model holds each activity right after the
 *    provider's answer; the worker is killed while the call is in flight, its stuck database session is ended,
 *    the lock released, and a new worker started. A purchase's provider calls are local activities
 *    (workflows/common/policies.ts): the workflow task running the call is in flight at the kill, times out,
 *    and is replayed on the new worker, which calls again with the same idempotency key; the order goes on:
 *    one authorisation, one capture, one transfer at the provider and in the read model; the ledger balances.
 *    Before its kill, the capture is held on the live worker longer than the workflow task's timeout: a slow call
 *    is NOT started again (the worker keeps its workflow task alive past the task's timeout). The processes
 *    these tests start have a 5 s workflow-task timeout instead of the app's 10 s, so that a kill waits about
 *    a worker start-up, not 10 s (KILL_TEST_TASK_TIMEOUT_MS).
 * 2. The same for an RMA: a paid purchase, one unit reported missing, staff approve (the decideRma update); the
 *    worker is killed after the provider refunded the buyer on its payment, and again after it charged the
 *    seller's card on file. One refund and one charge at the provider and in the read model; the RMA completes
 *    with the ledger staff approved.
 * 3. The same for a swap: the receiver's payment (one activity that authorises its due, then captures it) is
 *    killed after the provider authorised and again after it captured; the cash difference's payout, at the
 *    parcels' scans, after the transfer. Three intents (the pre-authorisation cancelled, each side's due captured
 *    once), one transfer, no refund.
 * 4. Fifty buyers have each checked out (authorised) an order for the same last unit of one listing; the seller
 *    presses Approve Sale on all fifty at once (the approveSale update the button sends, first unconfirmed,
 *    then confirmed). Exactly one order is captured and moves to ship_order; the other 49 answer the
 *    specification's errors and are declined by the workflow (units taken by another order: 229, reason 15)
 *    with their authorisations released; the listing ends at 0 units and is never seen below 0; the provider
 *    saw exactly one capture.
 *
 * The three kill tests run at the same time (`describe.concurrent`), each on its own worker process and task
 * queue, and each watching only its own row locks' waiters: they mostly wait (a killed worker's task timing
 * out, a new worker starting), and one after another they took the sum of those waits. The fifty-order race
 * runs after them, alone: it keeps its worker and the dev server busy.
 */
import type { WorkflowHandle } from "@temporalio/client";
import { and, eq, inArray, like, sql as dsql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import {
  beginPayment,
  listOrderPayments,
  PAYMENT_NAMES,
  sandboxObjectsOfOrders,
} from "../../db/queries/payments";
import { createRma } from "../../db/queries/rmas";
import {
  listings,
  orderContributions,
  orders,
  sandboxIdempotencyKeys,
  stockMovements,
} from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { DECLINE_OTHERS_REASON } from "../../domain/reasons";
import { rmaSettlement } from "../../domain/rma-money";
import {
  approveSaleUpdate,
  BUY_ERRORS,
  buyCommandError,
  carrierEventSignal,
  completeCheckoutUpdate,
  type BuyCommandResult,
} from "../../workflows/buy/contract";
import { createSellerWithListing } from "../db/buy-fixtures";
import { swapValuation } from "../../domain/fees";
import { createSwapOrder } from "../../db/queries/swap-orders";
import {
  approveSwapUpdate,
  chooseItemsUpdate,
  makePaymentUpdate,
  SWAP_WORKFLOW_TYPE,
  swapCarrierEventSignal,
  swapCheckoutUpdate,
  swapViewQuery,
  swapWorkflowId,
  type SwapView,
} from "../../workflows/swap/contract";
import type { swapOrderWorkflow } from "../../workflows/swap/workflow";
import {
  decideRmaUpdate,
  RMA_WORKFLOW_TYPE,
  rmaViewQuery,
  rmaWorkflowId,
} from "../../workflows/rma/contract";
import type { rmaWorkflow } from "../../workflows/rma/workflow";
import { createRetailer, createStaffUser } from "../factories";
import { closeTemporal, temporal, until } from "./buy-helpers";
import {
  activityRecords,
  holdLock,
  KILL_TEST_SLOW_CALL_MS,
  KILL_TEST_TASK_TIMEOUT_MS,
  localActivityTypes,
  lockWaiters,
  paidPurchase,
  pendingWorkflowTask,
  saveSellerCard,
  sleep,
  startBuyOrder,
  terminateBackends,
  uniqueQueue,
  waitForView,
  WorkerProcess,
  workflowTaskTimeouts,
  type HeldLock,
} from "./reliability-helpers";

const VISA = { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" };
/** temporal.api.enums.v1.PendingWorkflowTaskState.STARTED. */
const PENDING_WORKFLOW_TASK_STARTED = 2;

let dbh: DbHandle;
const workers: WorkerProcess[] = [];
const openHandles: WorkflowHandle[] = [];

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL must point at the e2e database");
  // The kill tests run at the same time and keep up to five transactions open between them (their row locks).
  dbh = createDb(process.env.DATABASE_URL, { max: 12 });
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
    .select({
      key: sandboxIdempotencyKeys.key,
      object: sandboxIdempotencyKeys.responseObjectId,
      error: sandboxIdempotencyKeys.responseError,
    })
    .from(sandboxIdempotencyKeys)
    .where(like(sandboxIdempotencyKeys.key, `${workflowId}:%`));
  return rows.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** The provider's objects of one order (or RMA): db/queries/payments sandboxObjectsOfOrders. */
async function providerObjectsOf(orderId: number) {
  return (await sandboxObjectsOfOrders(dbh.db, [orderId])).get(orderId)!;
}

/** A payments row locked FOR UPDATE: the activity that completes it after the provider answered waits on it. */
const LOCK_PAYMENT_ROW = "select id from payments where idempotency_key = $1 for update";

/**
 * With `lock` held on the payments row that `activity` updates right after the provider answered `providerKey`:
 * waits until the activity waits on it, checks that the provider has done it (its key has a stored answer) and
 * that the workflow task running the call (provider calls are local activities: workflows/common/
 * policies.ts) is in flight, optionally holds it `holdMs` on the live worker first, then kills the worker,
 * ends the dead worker's waiting database session (as a dropped connection would), releases the lock and
 * starts a new worker. Returns the moment of the kill.
 */
async function killWhileHeld(
  v: { handle: WorkflowHandle; workflowId: string; worker: WorkerProcess },
  step: string,
  activity: string,
  providerKey: string,
  lock: HeldLock,
  opts: { holdMs?: number } = {},
): Promise<number> {
  let killedAt = 0;
  try {
    const waiting = await until(
      `${step}: ${activity} waiting on the payments row`,
      async () => {
        const pids = await lockWaiters(dbh.sql, 'update "payments"%', lock);
        return pids.length > 0 ? pids : null;
      },
      30_000,
      50,
    );
    const [k] = (await providerKeysOf(v.workflowId)).filter((r) => r.key === providerKey);
    expect(k?.object, `${step}: the provider answered ${providerKey} before the kill`).toBeTruthy();
    expect(
      await pendingWorkflowTask(v.handle),
      `${step}: the workflow task running ${activity} in flight at the kill`,
    ).toMatchObject({
      state: PENDING_WORKFLOW_TASK_STARTED,
    });
    if (opts.holdMs) {
      // A slow call on a LIVE worker is not started again: the worker keeps its workflow task alive past the
      // task's timeout, and the same database session still waits.
      await sleep(opts.holdMs);
      expect(
        await pendingWorkflowTask(v.handle),
        `${step}: still in flight after ${opts.holdMs} ms`,
      ).toMatchObject({
        state: PENDING_WORKFLOW_TASK_STARTED,
      });
      expect(await lockWaiters(dbh.sql, 'update "payments"%', lock)).toEqual(waiting);
    }
    await v.worker.kill();
    killedAt = Date.now();
    await terminateBackends(dbh.sql, waiting);
  } finally {
    await lock.release();
  }
  await v.worker.start();
  return killedAt;
}

/** A worker process of our own on a fresh task queue, polling (stopped after the file). */
async function startedWorker(prefix: string): Promise<WorkerProcess> {
  const worker = new WorkerProcess(uniqueQueue(prefix));
  workers.push(worker);
  await worker.start();
  return worker;
}

/** A seller with a listing (S×2, M×3) and a card on file, a buyer, and the lines of a purchase of S×1, M×2. */
async function sellerWithCardAndBuyer() {
  const f = await createSellerWithListing(dbh.db, { sizes: { S: 2, M: 3 } });
  const sellerId = f.seller.retailer.id;
  await saveSellerCard(dbh.db, sellerId);
  const buyerId = (await createRetailer(dbh.db, { payout: false })).retailer.id;
  const lines = [
    {
      listingId: f.listing.id,
      variationId: f.variation.id,
      sizes: { S: 1, M: 2 },
      unitPriceCents: f.priceCents,
    },
  ];
  return { f, sellerId, buyerId, lines };
}

describe.concurrent("the worker killed mid-order on the real dev server", () => {
  it(
    "resumes authorisation, capture and payout after SIGKILLs in flight, with no double charge",
    { timeout: 180_000 },
    async () => {
      const t0 = Date.now();
      const client = await temporal();
      const worker = await startedWorker("reliability-kill");

      const { f, sellerId, buyerId, lines } = await sellerWithCardAndBuyer();
      const o = await startBuyOrder(
        client,
        dbh.db,
        worker.queue,
        { providerId: sellerId, receiverId: buyerId, brandId: f.brand.id, lines },
        { workflowTaskTimeoutMs: KILL_TEST_TASK_TIMEOUT_MS },
      );
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
        const lock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [lockedKey]);
        const result = trigger();
        result.catch(() => {}); // awaited by the caller
        timings[`${step}:killedAt`] = await killWhileHeld(
          { handle: o.handle, workflowId: wf, worker },
          step,
          activity,
          providerKey,
          lock,
          opts,
        );
        return result;
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
      const checkout = await killAfterProvider(
        "checkout",
        "authorizePayment",
        `${wf}:authorize:1`,
        `${wf}:authorize:1`,
        () =>
          o.handle.executeUpdate(completeCheckoutUpdate, {
            args: [{ actorRetailerId: buyerId, paymentMethod: VISA }],
          }),
      );
      expect(checkout).toMatchObject({ status: "ok", statename: "provider_approve_sale" });
      timings.checkout = Date.now() - s;

      // 2. Approve Sale: the worker dies after the provider captured (the authorisation row's update waits).
      s = Date.now();
      //    The capture is held first, longer than the workflow task's timeout, while the worker is alive.
      const approved = await killAfterProvider(
        "approve",
        "capturePayment",
        `${wf}:capture:1`,
        `${wf}:authorize:1`,
        () =>
          o.handle.executeUpdate(approveSaleUpdate, {
            args: [{ actorRetailerId: sellerId, confirmDeclineOthers: true }],
          }),
        { holdMs: KILL_TEST_SLOW_CALL_MS },
      );
      expect(approved).toMatchObject({
        status: "ok",
        statename: "ship_order",
        redirectTo: "/orders",
      });
      timings.approve = Date.now() - s;
      const shipping = await waitForView(
        o.handle,
        (v) => v.statename === "ship_order",
        "ship_order",
      );
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
      await killAfterProvider(
        "pickup",
        "releaseSellerPayout",
        `${wf}:payout:1`,
        `${wf}:payout:1`,
        () =>
          o.handle.signal(carrierEventSignal, {
            eventId: `evt_reliability_${o.orderId}_pickup`,
            status: "picked_up",
            trackingNumber,
          }),
      );
      const paid = await waitForView(
        o.handle,
        (v) => v.statename === "in_route" && v.payoutReleasedAt !== null,
        "payout released",
        90_000,
      );
      timings.pickup = Date.now() - s;

      // --- the workflow: each payment call recorded once (a local activity's marker), after the workflow task that
      //     ran it first timed out with its worker (one timeout per kill) and was replayed on the new worker
      const locals = await localActivityTypes(o.handle);
      for (const type of ["authorizePayment", "capturePayment", "releaseSellerPayout"]) {
        expect(
          locals.filter((t) => t === type),
          `${type} recorded once`,
        ).toHaveLength(1);
      }
      expect(await activityRecords(o.handle), "no provider call as a regular activity").toEqual([]);
      expect(await workflowTaskTimeouts(o.handle)).toBe(3);
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
      expect(objs.intents[0]).toMatchObject({
        status: "succeeded",
        amount: o.quote.totalCents,
        amount_received: o.quote.totalCents,
        capture_method: "manual",
      });
      expect(objs.transfers).toHaveLength(1);
      expect(objs.transfers[0]).toMatchObject({
        amount: o.quote.goodsCents,
        destination: f.seller.retailer.btMerchantId,
      });

      // --- the read model: one row per movement, completed by the retried activities
      const pays = await listOrderPayments(dbh.db, o.orderId);
      expect(
        pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents, p.status, p.queued]),
      ).toEqual([
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
      const moves = await dbh.db
        .select()
        .from(stockMovements)
        .where(eq(stockMovements.orderId, o.orderId));
      expect(moves.map((m) => [m.kind, m.ok])).toEqual([["decrement", true]]);
      const [listing] = await dbh.db
        .select({ sizes: listings.sizes })
        .from(listings)
        .where(eq(listings.id, f.listing.id));
      expect(listing.sizes).toEqual({ S: 1, M: 1 });

      console.log(
        `[reliability] kill test: checkout ${timings.checkout} ms, approve ${timings.approve} ms, pickup ${timings.pickup} ms ` +
          `(each with a SIGKILL mid-payment); worker starts ${worker.startMs.join("/")} ms; total ${Date.now() - t0} ms`,
      );
    },
  );
});

describe.concurrent("the worker killed mid-RMA on the real dev server", () => {
  it(
    "refunds the victim and charges the perpetrator exactly once after SIGKILLs in flight",
    { timeout: 180_000 },
    async () => {
      const t0 = Date.now();
      const client = await temporal();
      const worker = await startedWorker("reliability-rma");

      // A paid purchase; the seller has a card on file (an RMA charges the perpetrator on it).
      const { f, sellerId, buyerId, lines } = await sellerWithCardAndBuyer();
      const staff = await createStaffUser(dbh.db, {});
      const purchase = await paidPurchase(dbh.db, {
        providerId: sellerId,
        receiverId: buyerId,
        brandId: f.brand.id,
        lines,
      });
      const [line] = await dbh.db
        .select({ id: orderContributions.id })
        .from(orderContributions)
        .where(eq(orderContributions.orderId, purchase.orderId));

      // The buyer reports one unit missing (nothing ships back: staff's approval refunds and charges at once).
      const queue = worker.queue;
      const start = await createRma(dbh.db, {
        orderId: purchase.orderId,
        victimId: buyerId,
        contact: {
          name: "Pat Buyer",
          email: "pat@example.test",
          phone: "555-0100",
          packingSlipName: "Pat",
        },
        lines: [{ sourceId: line.id, quantity: 1, reason: 2 }],
        workflowIdFor: (id) => `${rmaWorkflowId(id)}:${queue}`,
      });
      const wf = start.workflowId;
      const handle = await client.workflow.start<typeof rmaWorkflow>(RMA_WORKFLOW_TYPE, {
        taskQueue: queue,
        workflowId: wf,
        workflowTaskTimeout: KILL_TEST_TASK_TIMEOUT_MS,
        args: [{ ...start }],
      });
      openHandles.push(handle);
      await until(
        "the RMA waiting for staff",
        async () => {
          const v = await handle.query(rmaViewQuery);
          return v.stage === "rmarequested" && !v.busy;
        },
        60_000,
        200,
      );
      const approved = start.lines.map((l) => ({ lineId: l.lineId, approvedQuantity: 1 }));
      const expected = rmaSettlement(
        start.order,
        start.lines.map((l) => ({
          unitPriceCents: l.unitPriceCents,
          requestedQuantity: l.requestedQuantity,
          approvedQuantity: 1,
          reason: l.reason,
        })),
        0,
      );
      expect(expected.victimRefundCents).toBeGreaterThan(0);
      expect(expected.perpetratorChargeCents).toBeGreaterThan(0);

      // Staff approve. The worker dies after the provider refunded the buyer, then again after it charged the
      // seller's card: the payments rows of both, as their first attempts write them, are held until each kill.
      const refundKey = `${wf}:rma-refund:1`;
      const chargeKey = `${wf}:rma-charge:1`;
      await beginPayment(dbh.db, {
        idempotencyKey: refundKey,
        orderId: start.rmaId,
        retailerId: buyerId,
        name: PAYMENT_NAMES.refund,
        txtype: "refund",
        amountCents: expected.victimRefundCents,
        paymentMethodDescription: VISA.description,
        lastFour: VISA.lastFour,
      });
      await beginPayment(dbh.db, {
        idempotencyKey: chargeKey,
        orderId: start.rmaId,
        retailerId: sellerId,
        name: PAYMENT_NAMES.rmaCharge,
        txtype: "penalty",
        amountCents: expected.perpetratorChargeCents,
        paymentMethodDescription: "Mastercard",
        lastFour: "4444",
      });
      const refundLock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [refundKey]);
      const chargeLock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [chargeKey]);
      const s = Date.now();
      const decided = handle.executeUpdate(decideRmaUpdate, {
        args: [{ staffUserId: staff.id, rmaFeeCents: 0, lines: approved }],
      });
      decided.catch(() => {}); // awaited below
      const victim = { handle, workflowId: wf, worker };
      try {
        await killWhileHeld(victim, "refund", "refundVictim", refundKey, refundLock);
      } catch (err) {
        await chargeLock.release();
        throw err;
      }
      await killWhileHeld(victim, "charge", "chargePerpetrator", chargeKey, chargeLock);
      expect(await decided).toMatchObject({ stage: "rmacompleted" });
      const decideMs = Date.now() - s;

      // --- the workflow: each money call recorded once (a local activity's marker, workflows/common/policies.ts),
      //     after the workflow task running it timed out with its worker (one timeout per kill)
      const locals = await localActivityTypes(handle);
      for (const type of ["refundVictim", "chargePerpetrator"]) {
        expect(
          locals.filter((t) => t === type),
          `${type} recorded once`,
        ).toHaveLength(1);
      }
      expect(await activityRecords(handle), "no provider call as a regular activity").toEqual([]);
      expect(await workflowTaskTimeouts(handle)).toBe(2);
      expect(worker.kills).toBe(2);

      // --- the provider: one refund on the purchase's payment, one charge of the seller's card; each key answered once
      expect((await providerKeysOf(wf)).map((k) => [k.key, Boolean(k.object), k.error])).toEqual([
        [chargeKey, true, null],
        [refundKey, true, null],
      ]);
      const charged = await providerObjectsOf(start.rmaId);
      expect(charged.refunds).toEqual([
        expect.objectContaining({
          amount: expected.victimRefundCents,
          payment_intent: purchase.paymentIntentId,
          status: "succeeded",
        }),
      ]);
      expect(charged.intents).toEqual([
        expect.objectContaining({
          status: "succeeded",
          amount: expected.perpetratorChargeCents,
          amount_received: expected.perpetratorChargeCents,
        }),
      ]);
      expect(charged.transfers).toEqual([]);
      expect((await providerObjectsOf(purchase.orderId)).intents).toHaveLength(1);

      // --- the read model: one row per movement, completed by the retried activities; the ledger as settled
      const pays = await listOrderPayments(dbh.db, start.rmaId);
      expect(pays.map((p) => [p.txtype, p.idempotencyKey, p.amountCents, p.status])).toEqual([
        ["refund", refundKey, expected.victimRefundCents, "succeeded"],
        ["penalty", chargeKey, expected.perpetratorChargeCents, "succeeded"],
      ]);
      expect(pays[0].providerRef).toBe(charged.refunds[0].id);
      expect(pays[1].providerRef).toBe(charged.intents[0].id);
      const rma = await getOrderRow(dbh.db, start.rmaId);
      expect(rma).toMatchObject({ stage: "rmacompleted", completed: true });
      expect(rma?.ledger).toMatchObject({
        victimRefundCents: expected.victimRefundCents,
        perpetratorChargeCents: expected.perpetratorChargeCents,
        rmaKeptCents: expected.perpetratorChargeCents - expected.victimRefundCents,
        chargeQueued: false,
      });
      console.log(
        `[reliability] RMA kill test: decision to completed ${decideMs} ms with two SIGKILLs; worker starts ${worker.startMs.join("/")} ms; total ${Date.now() - t0} ms`,
      );
    },
  );
});

describe.concurrent("the worker killed mid-swap on the real dev server", () => {
  it(
    "charges the receiver and pays out the cash difference exactly once after SIGKILLs in flight",
    { timeout: 180_000 },
    async () => {
      const t0 = Date.now();
      const client = await temporal();
      const worker = await startedWorker("reliability-swap");

      // The provider gives 2 units; the receiver 1 of the same price: the receiver pays the difference in cash,
      // paid out to the provider when both parcels are scanned.
      const p = await createSellerWithListing(dbh.db, { sizes: { S: 2, M: 3 } });
      const r = await createSellerWithListing(dbh.db, {
        sizes: { L: 4 },
        priceCents: p.priceCents,
      });
      const providerId = p.seller.retailer.id;
      const receiverId = r.seller.retailer.id;
      const providerLines = [
        {
          listingId: p.listing.id,
          variationId: p.variation.id,
          sizes: { M: 2 },
          unitPriceCents: p.priceCents,
        },
      ];
      const receiverLines = [
        {
          listingId: r.listing.id,
          variationId: r.variation.id,
          sizes: { L: 1 },
          unitPriceCents: r.priceCents,
        },
      ];
      const queue = worker.queue;
      const order = await createSwapOrder(dbh.db, {
        providerId,
        receiverId,
        brandId: p.brand.id,
        providerLines,
        workflowIdFor: (id) => `${swapWorkflowId(id)}:${queue}`,
      });
      const wf = order.workflowId;
      const handle = await client.workflow.start<typeof swapOrderWorkflow>(SWAP_WORKFLOW_TYPE, {
        taskQueue: queue,
        workflowId: wf,
        workflowTaskTimeout: KILL_TEST_TASK_TIMEOUT_MS,
        args: [
          {
            orderId: order.orderId,
            externalId: order.externalId,
            providerId,
            receiverId,
            providerLines,
          },
        ],
      });
      openHandles.push(handle);
      const view = (what: string, pred: (x: SwapView) => boolean, timeoutMs = 60_000) =>
        until(
          what,
          async () => {
            const x = await handle.query(swapViewQuery);
            return !x.busy && pred(x) ? x : null;
          },
          timeoutMs,
          200,
        );
      const v = swapValuation({
        provider: { goodsCents: 2 * p.priceCents, units: 2 },
        receiver: { goodsCents: r.priceCents, units: 1 },
        callItEven: false,
      });
      expect(v.differenceCents).toBe(p.priceCents);

      // Checkout, the provider's choice, both approve, the provider pays.
      await handle.executeUpdate(swapCheckoutUpdate, {
        args: [{ actorRetailerId: receiverId, paymentMethod: VISA }],
      });
      await handle.executeUpdate(chooseItemsUpdate, {
        args: [{ actorRetailerId: providerId, lines: receiverLines }],
      });
      await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: providerId }] });
      await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: receiverId }] });
      await view("the swap waiting for payments", (x) => x.statename === "payment");
      await handle.executeUpdate(makePaymentUpdate, {
        args: [
          {
            actorRetailerId: providerId,
            paymentMethod: { ...VISA, paymentMethodId: "tok_mastercard" },
          },
        ],
      });

      // 1. The receiver's payment: one activity that authorises its due, then captures it. The worker dies after
      //    the provider authorised, and again (on the activity's second attempt) after it captured.
      const victim = { handle, workflowId: wf, worker };
      const chargeKey = `${wf}:swap-charge:receiver:1`;
      const authKey = `${chargeKey}:authorize`;
      const captureKey = `${chargeKey}:capture`;
      const due = v.receiver.totalDueCents;
      const card = { paymentMethodDescription: VISA.description, lastFour: VISA.lastFour };
      await beginPayment(dbh.db, {
        idempotencyKey: authKey,
        orderId: order.orderId,
        retailerId: receiverId,
        name: PAYMENT_NAMES.authorization,
        txtype: "authorization",
        amountCents: due,
        ...card,
      });
      await beginPayment(dbh.db, {
        idempotencyKey: captureKey,
        orderId: order.orderId,
        retailerId: receiverId,
        name: PAYMENT_NAMES.capture,
        txtype: "capture",
        amountCents: due,
        ...card,
      });
      const authLock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [authKey]);
      const captureLock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [captureKey]);
      let s = Date.now();
      const paid = handle.executeUpdate(makePaymentUpdate, {
        args: [{ actorRetailerId: receiverId, paymentMethod: VISA }],
      });
      paid.catch(() => {}); // awaited below
      try {
        await killWhileHeld(victim, "authorise", "chargeSwapSide", authKey, authLock);
      } catch (err) {
        await captureLock.release();
        throw err;
      }
      await killWhileHeld(victim, "capture", "chargeSwapSide", captureKey, captureLock);
      expect(await paid).toMatchObject({ redirectTo: "/orders/sentswaps/" });
      const payMs = Date.now() - s;
      const shipping = await view(
        "both parcels booked",
        (x) => x.statename === "ship_swap" && Boolean(x.provider.shipment && x.receiver.shipment),
      );

      // 2. Both parcels scanned: the cash difference is paid out to the provider; the worker dies after the transfer.
      const payoutKey = `${wf}:swap-payout:provider:1`;
      await beginPayment(dbh.db, {
        idempotencyKey: payoutKey,
        orderId: order.orderId,
        retailerId: providerId,
        name: PAYMENT_NAMES.payout,
        txtype: "transfer",
        amountCents: v.differenceCents,
      });
      const payoutLock = await holdLock(dbh.sql, LOCK_PAYMENT_ROW, [payoutKey]);
      s = Date.now();
      for (const side of ["provider", "receiver"] as const) {
        await handle.signal(swapCarrierEventSignal, {
          eventId: `evt_reliability_swap_${order.orderId}_${side}`,
          status: "picked_up",
          trackingNumber: shipping[side].shipment!.trackingNumber,
        });
      }
      await killWhileHeld(victim, "payout", "payOutSwapSide", payoutKey, payoutLock);
      await view("in route, the difference paid out", (x) => x.statename === "in_route", 90_000);
      const payoutMs = Date.now() - s;

      // --- the workflow: each side's charge and the payout recorded once (local activities' markers,
      //     workflows/common/policies.ts), after one workflow-task timeout per kill
      const locals = await localActivityTypes(handle);
      expect(
        locals.filter((t) => t === "chargeSwapSide"),
        "the provider's charge, then the receiver's",
      ).toHaveLength(2);
      expect(locals.filter((t) => t === "payOutSwapSide")).toHaveLength(1);
      expect(await activityRecords(handle), "no provider call as a regular activity").toEqual([]);
      expect(await workflowTaskTimeouts(handle)).toBe(3);
      expect(worker.kills).toBe(3);

      // --- the provider: every key answered once; three intents (the pre-authorisation cancelled, each side's
      //     due captured once), one transfer of the difference, no refund
      const keys = await providerKeysOf(wf);
      expect(keys.filter((k) => !k.object || k.error)).toEqual([]);
      expect(keys.map((k) => k.key).filter((k) => k.startsWith(chargeKey))).toEqual([
        authKey,
        `${authKey}:payment-method`,
        captureKey,
      ]);
      const objs = await providerObjectsOf(order.orderId);
      expect(objs.intents.map((i) => [i.status, i.amount_received]).sort()).toEqual(
        [
          ["canceled", 0],
          ["succeeded", v.provider.totalDueCents],
          ["succeeded", v.receiver.totalDueCents],
        ].sort(),
      );
      expect(objs.transfers).toEqual([
        expect.objectContaining({
          amount: v.differenceCents,
          destination: p.seller.retailer.btMerchantId,
        }),
      ]);
      expect(objs.refunds).toEqual([]);

      // --- the read model: one row per movement
      const pays = await listOrderPayments(dbh.db, order.orderId);
      const count = (txtype: string) => pays.filter((x) => x.txtype === txtype).length;
      expect([
        count("authorization"),
        count("capture"),
        count("release"),
        count("transfer"),
      ]).toEqual([3, 2, 1, 1]);
      expect(pays.find((x) => x.idempotencyKey === captureKey)).toMatchObject({
        status: "succeeded",
        amountCents: due,
      });
      expect(pays.find((x) => x.idempotencyKey === payoutKey)).toMatchObject({
        status: "paid",
        amountCents: v.differenceCents,
        providerRef: objs.transfers[0].id,
      });
      console.log(
        `[reliability] swap kill test: payment ${payMs} ms, scans to payout ${payoutMs} ms (three SIGKILLs); worker starts ${worker.startMs.join("/")} ms; total ${Date.now() - t0} ms`,
      );
    },
  );
});

describe("fifty pending orders for the last unit approved at once", () => {
  it(
    "captures exactly one; the other 49 are refused and declined with their authorisations released; stock never below 0",
    { timeout: 180_000 },
    async () => {
      const N = 50;
      const t0 = Date.now();
      const client = await temporal();
      const worker = new WorkerProcess(uniqueQueue("reliability-race"));
      workers.push(worker);
      await worker.start();

      const f = await createSellerWithListing(dbh.db, { sizes: { M: 1 } });
      const sellerId = f.seller.retailer.id;
      await saveSellerCard(dbh.db, sellerId);
      const lines = [
        {
          listingId: f.listing.id,
          variationId: f.variation.id,
          sizes: { M: 1 },
          unitPriceCents: f.priceCents,
        },
      ];
      const buyers = await Promise.all(
        Array.from(
          { length: N },
          async () => (await createRetailer(dbh.db, { payout: false })).retailer.id,
        ),
      );
      const started = await Promise.all(
        buyers.map((b) =>
          startBuyOrder(client, dbh.db, worker.queue, {
            providerId: sellerId,
            receiverId: b,
            brandId: f.brand.id,
            lines,
          }),
        ),
      );
      const orderIds = started.map((o) => o.orderId);
      const tSetup = Date.now() - t0;

      // Every buyer checks out: the card is authorised, the order waits for the seller.
      let s = Date.now();
      const checkouts = await Promise.all(
        started.map((o, i) =>
          o.handle.executeUpdate(completeCheckoutUpdate, {
            args: [{ actorRetailerId: buyers[i], paymentMethod: VISA }],
          }),
        ),
      );
      expect(
        checkouts.every((c) => c.status === "ok" && c.statename === "provider_approve_sale"),
      ).toBe(true);
      const tCheckout = Date.now() - s;

      // The seller presses Approve Sale on every order at once: the first press asks to confirm declining the others.
      s = Date.now();
      const first = await Promise.all(
        started.map((o) =>
          o.handle.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: sellerId }] }),
        ),
      );
      for (const [i, r] of first.entries()) {
        expect(r.status).toBe("need_confirm_decline_others");
        expect([...(r.conflictingOrderIds ?? [])].sort((a, b) => a - b)).toEqual(
          orderIds.filter((id) => id !== orderIds[i]).sort((a, b) => a - b),
        );
      }
      const tFirst = Date.now() - s;

      // Confirmed, all fifty at once; meanwhile the listing's units are sampled.
      const samples: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const [row] = await dbh.db
            .select({ m: dsql<number>`(${listings.sizes}->>'M')::int`, total: listings.totalUnits })
            .from(listings)
            .where(eq(listings.id, f.listing.id));
          samples.push(Math.min(Number(row.m), row.total));
          await sleep(5);
        }
      })();
      s = Date.now();
      const outcomes = await Promise.allSettled(
        started.map((o) =>
          o.handle.executeUpdate(approveSaleUpdate, {
            args: [{ actorRetailerId: sellerId, confirmDeclineOthers: true }],
          }),
        ),
      );
      const tRace = Date.now() - s;

      // The workflows settle: one shipping, 49 declined (the winner tells them their units were taken).
      s = Date.now();
      await until(
        "one order shipping and 49 declined",
        async () => {
          const rows = await dbh.db
            .select({ st: orders.statename })
            .from(orders)
            .where(inArray(orders.id, orderIds));
          const declined = rows.filter((r) => r.st === "declined").length;
          const shipping = rows.filter((r) => r.st === "ship_order").length;
          return declined === N - 1 && shipping === 1;
        },
        120_000,
        250,
      );
      const tSettle = Date.now() - s;
      sampling = false;
      await sampler;

      // --- the answers: exactly one ok; every other is the specification's error for the seller
      const ok = outcomes.flatMap((r, i) =>
        r.status === "fulfilled" ? [{ i, v: r.value as BuyCommandResult }] : [],
      );
      expect(ok).toHaveLength(1);
      expect(ok[0].v).toMatchObject({
        status: "ok",
        statename: "ship_order",
        redirectTo: "/orders",
      });
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
      const [listing] = await dbh.db
        .select({ sizes: listings.sizes, total: listings.totalUnits })
        .from(listings)
        .where(eq(listings.id, f.listing.id));
      expect(listing).toEqual({ sizes: { M: 0 }, total: 0 });
      expect(samples.length).toBeGreaterThan(0);
      expect(Math.min(...samples)).toBe(0);
      const moves = await dbh.db
        .select()
        .from(stockMovements)
        .where(inArray(stockMovements.orderId, orderIds));
      expect(moves.filter((m) => m.kind === "decrement" && m.ok).map((m) => m.orderId)).toEqual([
        winner.orderId,
      ]);
      expect(moves.filter((m) => m.kind === "restore")).toEqual([]);

      // --- the provider: one capture for the fifty orders; 49 authorisations cancelled
      const captureKeys = await dbh.db
        .select({ key: sandboxIdempotencyKeys.key })
        .from(sandboxIdempotencyKeys)
        .where(
          and(
            inArray(
              sandboxIdempotencyKeys.key,
              started.map((o) => `${o.workflowId}:capture:1`),
            ),
          ),
        );
      expect(captureKeys.map((k) => k.key)).toEqual([`${winner.workflowId}:capture:1`]);
      const allCaptures = await dbh.db
        .select({ key: sandboxIdempotencyKeys.key })
        .from(sandboxIdempotencyKeys)
        .where(
          and(
            inArray(dsql`split_part(${sandboxIdempotencyKeys.key}, ':', 2)`, orderIds.map(String)),
            like(sandboxIdempotencyKeys.key, "buy-order:%:capture:%"),
          ),
        );
      expect(allCaptures).toHaveLength(1);

      for (const o of started) {
        const objs = await providerObjectsOf(o.orderId);
        expect(objs.intents, `order ${o.orderId}: one authorisation`).toHaveLength(1);
        const pays = await listOrderPayments(dbh.db, o.orderId);
        const order = await getOrderRow(dbh.db, o.orderId);
        const codes = (await listOrderActions(dbh.db, o.orderId)).map((a) => a.code);
        expect(
          (order?.ledger as { balanced?: boolean } | null)?.balanced,
          `order ${o.orderId}: ledger balances`,
        ).toBe(true);
        if (o === winner) {
          expect(objs.intents[0]).toMatchObject({
            status: "succeeded",
            amount_received: o.quote.totalCents,
          });
          expect(pays.map((p) => [p.txtype, p.status])).toEqual([
            ["authorization", "captured"],
            ["capture", "succeeded"],
          ]);
          expect(codes).toEqual([
            ACTION.CHECKOUT_COMPLETED,
            ACTION.PROVIDER_APPROVE_SALE,
            ACTION.PAYMENT_CAPTURED,
            ACTION.CALL_TAG_SCHEDULED_ORDER,
          ]);
          expect(order?.ledger).toMatchObject({
            buyerPaidCents: o.quote.totalCents,
            balanced: true,
          });
        } else {
          expect(objs.intents[0], `order ${o.orderId}: authorisation released`).toMatchObject({
            status: "canceled",
            amount_received: 0,
            amount_capturable: 0,
          });
          expect(pays.map((p) => [p.txtype, p.status])).toEqual([
            ["authorization", "canceled"],
            ["release", "canceled"],
          ]);
          expect(order).toMatchObject({ statename: "declined", capturedCents: 0 });
          expect(order?.reasons).toMatchObject({
            provider_decline_buy_reason: DECLINE_OTHERS_REASON,
          });
          expect(codes).toEqual([
            ACTION.CHECKOUT_COMPLETED,
            ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER,
            ACTION.AUTHORIZATION_RELEASED,
          ]);
          expect(order?.ledger).toMatchObject({ buyerPaidCents: 0, balanced: true });
        }
      }
      // The declined orders' workflows have finished; the winner waits for its pickup.
      const closed = await Promise.all(
        started
          .filter((o) => o !== winner)
          .map(async (o) => (await o.handle.describe()).status.name),
      );
      expect(new Set(closed)).toEqual(new Set(["COMPLETED"]));
      openHandles.push(winner.handle);

      console.log(
        `[reliability] ${N} approvals of the last unit: set-up ${tSetup} ms, ${N} checkouts ${tCheckout} ms, first press ${tFirst} ms, ` +
          `confirmed race ${tRace} ms (refused: ${JSON.stringify(refused)}), declines settled ${tSettle} ms later; ` +
          `${samples.length} stock samples, min ${Math.min(...samples)}; total ${Date.now() - t0} ms`,
      );
    },
  );
});

/**
 * buyOrderWorkflow on the time-skipping test server with in-memory activities (fakes/buy-activities.ts):
 * one test per timer path of docs/product/windows.md, plus the command round trips (updates with their
 * validators), webhook deduplication and out-of-order delivery, and replays of the recorded histories
 * (tests/histories/buy-*.json; regenerate with RECORD_HISTORIES=1 after an intended change).
 *
 * Timers are driven with shared.env.sleep (waiting on an update does not advance time on this server); after a
 * sleep the state is read with the orderView query, polled until the workflow has processed the timer.
 */
import fs from "node:fs";
import path from "node:path";
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from "@temporalio/client";
import { describe, expect, test } from "vitest";
import { ACTION } from "../../domain/action-codes";
import {
  addBusinessDays,
  HOUR_MS,
  DAY_MS,
  MINUTE_MS,
  ratingDeadline,
} from "../../domain/business-days";
import {
  CANCEL_REASON_REQUIRED,
  CARD_DECLINED,
  RATING_SAVED,
  TOTAL_TOO_HIGH,
  UPDATE_YOUR_LISTINGS,
} from "../../domain/messages";
import { orderQuote, type OrderLine } from "../../domain/order-money";
import { storeApprovalMessage, TEAM_MSG } from "../../domain/teams";
import {
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  BUY_ERRORS,
  BUY_WORKFLOW_TYPE,
  buyCommandError,
  buyWorkflowId,
  cancelShipmentUpdate,
  canRequestRmaQuery,
  carrierEventSignal,
  completeCheckoutUpdate,
  confirmReceivedUpdate,
  declineCheckoutUpdate,
  declineModifiedPurchaseUpdate,
  declineSaleUpdate,
  modifySaleUpdate,
  orderViewQuery,
  paymentEventSignal,
  rateOrderUpdate,
  staffBookPickupUpdate,
  storeApprovePurchaseUpdate,
  storeDeclinePurchaseUpdate,
  WRONG_PARTY_MESSAGES,
  type BuyOrderInput,
  type BuyOrderView,
} from "../../workflows/buy/contract";
import { refusedAtSeq } from "../../app/utils/temporal.server";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import { HISTORIES, useSharedFakeWorker } from "./fakes/shared-worker";
import { closedStatus, viewWaiter, sleepUntil } from "../setup/temporal";
import {
  buyInput,
  createFakeBuyActivities,
  DECLINED_CARD,
  OK_CARD,
  SELLER_CARD,
  type FakeBuyActivities,
} from "./fakes/buy-activities";

const shared = useSharedFakeWorker("buy", () => createFakeBuyActivities());

const SELLER = 21;
const BUYER = 34;
const LINES: OrderLine[] = [
  { listingId: 501, variationId: 9001, sizes: { "8": 2, "9": 1 }, unitPriceCents: 4500 },
  { listingId: 502, variationId: 9002, sizes: { M: 2 }, unitPriceCents: 2000 },
];
// 3 x $45 + 2 x $20 = $175.00; fee $17.50; 5 units ship for $27.75; pre-authorisation $220.25.
const REQUESTED = orderQuote(LINES);
const MODIFIED = [{ listingId: 501, sizes: { "8": 1 } }];
// 1 x $45; fee $4.50; shipping $19.75: capture $69.25.
const MODIFIED_TOTAL = 4500 + 450 + 1975;

/** The answer of the step that approves and pays: the pickup is booked. */
const PICKUP_SCHEDULED = {
  status: "ok",
  statename: "ship_order",
  displayStatus: "Pickup Scheduled",
  redirectTo: "/orders",
};

type Handle = WorkflowHandle<typeof buyOrderWorkflow>;

function orderInput(orderId: number, overrides: Partial<BuyOrderInput> = {}): BuyOrderInput {
  return buyInput(orderId, SELLER, BUYER, LINES, {
    expectedQuote: {
      goodsCents: REQUESTED.goodsCents,
      feeCents: REQUESTED.feeCents,
      shippingCents: REQUESTED.shippingCents,
      totalCents: REQUESTED.totalCents,
    },
    ...overrides,
  });
}

/** Runs a scenario with `fake` behind the shared worker's activities. */
async function withWorker<T>(
  fake: FakeBuyActivities,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  return shared.withFake(fake, () => fn(shared.taskQueue));
}

function start(taskQueue: string, input: BuyOrderInput): Promise<Handle> {
  return shared.env.client.workflow.start<typeof buyOrderWorkflow>(BUY_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: buyWorkflowId(input.orderId),
    args: [input],
    workflowIdReusePolicy: "REJECT_DUPLICATE",
  });
}

/** Polls the view until `pred` holds (the workflow may still be processing a fired timer or a signal). */
const waitFor = viewWaiter(orderViewQuery, (v) => `state ${v?.statename}`, 200);
/** The state is reached and the step that reached it has finished its activities (e-mails included). */
const inState = (handle: Handle, state: string) =>
  waitFor(handle, (v) => v.statename === state && !v.busy, state);

/** Waits until the run has closed (tests/setup/temporal.ts closedStatus). */
const closed = (handle: Handle): Promise<string> => closedStatus(handle);

async function expectRejected(
  p: Promise<unknown>,
  code: keyof typeof BUY_ERRORS,
  message: string = BUY_ERRORS[code],
): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (code !== "wrong_state")
    expect(err, `expected ${code}`).toBeInstanceOf(WorkflowUpdateFailedError);
  expect(buyCommandError(err)).toEqual({ code, message });
}

async function completeCheckout(handle: Handle, card = OK_CARD) {
  return handle.executeUpdate(completeCheckoutUpdate, {
    args: [{ actorRetailerId: BUYER, paymentMethod: card }],
  });
}

/**
 * A deadline passes: `early` before it the order still waits in `waiting`; a minute after it, it is in `end`
 * with the step's activities done. Returns the view there.
 */
async function pastDeadline(
  handle: Handle,
  deadline: string | null,
  waiting: string,
  end: string,
  early = HOUR_MS,
): Promise<BuyOrderView> {
  await sleepUntil(shared.env, deadline as string, -early);
  expect((await handle.query(orderViewQuery)).statename).toBe(waiting);
  await sleepUntil(shared.env, deadline as string, MINUTE_MS);
  return inState(handle, end);
}

/** An approved order's codes from the approval to the seller's payout at the pickup scan. */
const APPROVED_TO_PAYOUT = [
  ACTION.PROVIDER_APPROVE_SALE,
  ACTION.PAYMENT_CAPTURED,
  ACTION.CALL_TAG_SCHEDULED_ORDER,
  ACTION.SHIPMENT_PICKED_UP,
  ACTION.PAYOUT_RELEASED,
];

const key = (orderId: number, step: string, attempt = 1) =>
  `${buyWorkflowId(orderId)}:${step}:${attempt}`;

describe("checkout", () => {
  test("a declined card answers the specification's message; a second card is attempt 2; duplicate starts are rejected", async () => {
    const fake = createFakeBuyActivities();
    const orderId = 4102;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const dup = await start(tq, orderInput(orderId)).catch((e: unknown) => e);
      expect(dup).toBeInstanceOf(WorkflowExecutionAlreadyStartedError);

      await expectRejected(
        handle.executeUpdate(completeCheckoutUpdate, {
          args: [{ actorRetailerId: SELLER, paymentMethod: OK_CARD }],
        }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.receiver,
      );
      await expectRejected(completeCheckout(handle, DECLINED_CARD), "card_declined", CARD_DECLINED);
      expect((await handle.query(orderViewQuery)).statename).toBe("complete_order_checkout");
      const ok = await completeCheckout(handle);
      expect(ok).toEqual({
        status: "ok",
        statename: "provider_approve_sale",
        displayStatus: "Awaiting Approval",
      });
      const v = await handle.query(orderViewQuery);
      expect(v).toMatchObject({
        authorizeAttempts: 2,
        paymentMethod: { lastFour: "4242", description: "Visa" },
        actionNeeded: "provider",
      });
      await handle.terminate("test done");
    });
    expect(fake.payments(orderId)).toEqual([
      ["authorizePayment", key(orderId, "authorize", 1), REQUESTED.totalCents],
      ["authorizePayment", key(orderId, "authorize", 2), REQUESTED.totalCents],
    ]);
    expect(fake.codesOf(orderId)).toEqual([ACTION.CARD_DECLINED, ACTION.CHECKOUT_COMPLETED]);
    expect(fake.mailsTo(orderId)).toEqual(["provider:approve_sale_needed"]);
  });
});

describe("checkout that starts the purchase (update-with-start, as the app's checkout does)", () => {
  test("the order is written once, by the checkout's step (no opening write before it), and goes on as any other", async () => {
    const fake = sellerFake();
    const orderId = 4103;
    await withWorker(fake, async (tq) => {
      const startOp = new WithStartWorkflowOperation<typeof buyOrderWorkflow>(BUY_WORKFLOW_TYPE, {
        taskQueue: tq,
        workflowId: buyWorkflowId(orderId),
        workflowIdConflictPolicy: "USE_EXISTING",
        workflowIdReusePolicy: "REJECT_DUPLICATE",
        args: [orderInput(orderId)],
      } as ConstructorParameters<typeof WithStartWorkflowOperation<typeof buyOrderWorkflow>>[1]);
      const ok = await shared.env.client.workflow.executeUpdateWithStart(completeCheckoutUpdate, {
        args: [{ actorRetailerId: BUYER, paymentMethod: OK_CARD }],
        startWorkflowOperation: startOp,
      });
      expect(ok).toEqual({
        status: "ok",
        statename: "provider_approve_sale",
        displayStatus: "Awaiting Approval",
      });
      // One write: the checkout's, the order's first (sequence 1), with its code and the seller's notice.
      expect(fake.readModelOf(orderId)).toMatchObject({
        writes: 1,
        latest: { statename: "provider_approve_sale", sequence: 1 },
      });
      expect(fake.codesOf(orderId)).toEqual([ACTION.CHECKOUT_COMPLETED]);
      expect(fake.mailsTo(orderId)).toEqual(["provider:approve_sale_needed"]);

      const handle = await startOp.workflowHandle();
      expect(await approve(handle)).toEqual(PICKUP_SCHEDULED);
      expect(fake.readModelOf(orderId)).toMatchObject({
        writes: 2,
        latest: { statename: "ship_order", sequence: 2 },
      });
      await shared.keepHistory(handle, "checkout-starts-it");
      await handle.terminate("test done");
    });
    expect(fake.payments(orderId)).toEqual([
      ["authorizePayment", key(orderId, "authorize", 1), REQUESTED.totalCents],
      ["capturePayment", key(orderId, "capture", 1), REQUESTED.totalCents],
    ]);
  });
});

/** Seller has a card on file unless told otherwise. */
function sellerFake(opts: Parameters<typeof createFakeBuyActivities>[0] = {}) {
  return createFakeBuyActivities({ cardsOnFile: { [SELLER]: SELLER_CARD }, ...opts });
}

async function approve(handle: Handle, confirmDeclineOthers = false) {
  return handle.executeUpdate(approveSaleUpdate, {
    args: [{ actorRetailerId: SELLER, confirmDeclineOthers }],
  });
}

/** Checkout + Approve Sale: ship_order. */
async function toShipOrder(handle: Handle): Promise<BuyOrderView> {
  await completeCheckout(handle);
  expect(await approve(handle)).toEqual(PICKUP_SCHEDULED);
  return handle.query(orderViewQuery);
}

let carrierEventSeq = 0;
async function carrier(
  handle: Handle,
  status: "picked_up" | "in_transit" | "delivered",
  eventId = `evt_${++carrierEventSeq}`,
) {
  await handle.signal(carrierEventSignal, { eventId, status, trackingNumber: "TRK" });
}

/** Checkout, approval and a delivery webhook (the pickup scan never reported: delivered implies it). */
async function toDelivered(handle: Handle): Promise<BuyOrderView> {
  await toShipOrder(handle);
  await carrier(handle, "delivered");
  return inState(handle, "delivered");
}

describe("seller", () => {
  test("seller answers: card on file asked for (payment, 810), other orders for the units declined on confirmation, capture, stock, call tag; payout at the pickup scan", async () => {
    const a = 4202;
    const b = 4203;
    const fake = createFakeBuyActivities({
      conflicts: { [a]: [b] },
      stock: { "501:8": 2, "501:9": 1, "502:M": 2 },
    });
    await withWorker(fake, async (tq) => {
      const ha = await start(tq, orderInput(a));
      const hb = await start(tq, orderInput(b));
      await completeCheckout(ha);
      await completeCheckout(hb);

      await expectRejected(
        ha.executeUpdate(approveSaleUpdate, { args: [{ actorRetailerId: BUYER }] }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.provider,
      );
      await expectRejected(
        ha.executeUpdate(rateOrderUpdate, {
          args: [
            {
              actorRetailerId: BUYER,
              stars: { condition: 5, packaging: 5, timeliness: 5, overall: 5 },
            },
          ],
        }),
        "wrong_state",
      );
      expect(await approve(ha)).toEqual({
        status: "need_payment_method",
        statename: "payment",
        displayStatus: "Payment Method Needed",
      });
      expect((await ha.query(orderViewQuery)).allowedActions.provider).toEqual([
        "addPaymentMethod",
        "declineSale",
      ]);
      await expectRejected(
        ha.executeUpdate(addPaymentMethodUpdate, {
          args: [{ actorRetailerId: SELLER, paymentMethod: DECLINED_CARD }],
        }),
        "card_declined",
        CARD_DECLINED,
      );
      expect(
        await ha.executeUpdate(addPaymentMethodUpdate, {
          args: [{ actorRetailerId: SELLER, paymentMethod: SELLER_CARD }],
        }),
      ).toEqual({
        status: "need_confirm_decline_others",
        statename: "provider_approve_sale",
        displayStatus: "Awaiting Approval",
        conflictingOrderIds: [b],
      });
      expect(await approve(ha, true)).toEqual(PICKUP_SCHEDULED);

      const va = await ha.query(orderViewQuery);
      expect(va).toMatchObject({
        stage: "approved",
        actionNeeded: null,
        shipment: { callTag: `CT-${a}-1`, attempt: 1 },
        approvedLines: LINES,
      });
      expect(Date.parse(va.deadlines.pickupBy as string)).toBe(
        addBusinessDays(va.approvedAt as string, 2),
      );
      expect(va.allowedActions.provider).toEqual(["cancelShipment"]);

      // The other pending order for the same units is declined (229, reason 15) and its authorisation released.
      const vb = await inState(hb, "declined");
      expect(vb.reasons).toEqual({ provider_decline_buy_reason: 15 });
      expect(await closed(hb)).toBe("COMPLETED");
      await shared.keepHistory(hb, "units-taken-by-other-order");

      // The pickup scan, delivered 20 times, has one effect: In-Route (110) and one payout (816).
      for (let i = 0; i < 20; i++) await carrier(ha, "picked_up", "evt_pickup_a");
      await carrier(ha, "in_transit");
      const route = await waitFor(
        ha,
        (v) => v.statename === "in_route" && v.payoutReleasedAt !== null && !v.busy,
        "payout",
      );
      expect(route).toMatchObject({
        displayStatus: "In-Route",
        stage: "shipping",
        amounts: { payoutCents: 17500 },
      });
      await expectRejected(
        ha.executeUpdate(cancelShipmentUpdate, { args: [{ actorRetailerId: SELLER, reason: 52 }] }),
        "wrong_state",
      );

      await carrier(ha, "delivered");
      const delivered = await inState(ha, "delivered");
      await sleepUntil(shared.env, delivered.deadlines.ratingBy as string, MINUTE_MS);
      await inState(ha, "completed");
      expect(await closed(ha)).toBe("COMPLETED");
      await shared.keepHistory(ha, "seller-answers");
    });
    expect(fake.payments(a)).toEqual([
      ["authorizePayment", key(a, "authorize"), 22025],
      ["saveCardOnFile", key(a, "save-card", 1), undefined],
      ["saveCardOnFile", key(a, "save-card", 2), undefined],
      ["capturePayment", key(a, "capture"), 22025],
      ["releaseSellerPayout", key(a, "payout"), 17500],
    ]);
    expect(fake.of("decrementStock", a).map((c) => c.idempotencyKey)).toEqual([
      key(a, "decrement-stock"),
    ]);
    expect(fake.of("bookPickup", a)).toMatchObject([
      { idempotencyKey: key(a, "book-pickup"), attempt: 1, units: 5 },
    ]);
    expect([...fake.stock.values()]).toEqual([0, 0, 0]);
    expect(fake.codesOf(a)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PAYMENT,
      ACTION.CARD_DECLINED,
      ACTION.PAYMENT_METHOD_ADDED,
      ...APPROVED_TO_PAYOUT,
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RATING_WINDOW_CLOSED,
      ACTION.ORDER_COMPLETED,
    ]);
    expect(fake.readModelOf(a).latest.ledger).toMatchObject({
      buyerPaidCents: 22025,
      sellerPaidCents: 17500,
      feeKeptCents: 1750,
      shippingKeptCents: 2775,
      escrowCents: 0,
      balanced: true,
    });
    expect(fake.payments(b)).toEqual([
      ["authorizePayment", key(b, "authorize"), 22025],
      ["releaseAuthorization", key(b, "release-authorization"), 22025],
    ]);
    expect(fake.codesOf(b)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(fake.readModelOf(b).latest).toMatchObject({
      statename: "declined",
      reasons: { provider_decline_buy_reason: 15 },
    });
  });

  test("seller declines for unavailable units: sent to active listings with the update-your-listings message", async () => {
    const fake = sellerFake();
    const orderId = 4204;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await completeCheckout(handle);
      await expectRejected(
        handle.executeUpdate(declineSaleUpdate, {
          args: [{ actorRetailerId: SELLER, reason: 99 }],
        }),
        "decline_reason_required",
      );
      expect(
        await handle.executeUpdate(declineSaleUpdate, {
          args: [{ actorRetailerId: SELLER, reason: 14 }],
        }),
      ).toEqual({
        status: "ok",
        statename: "declined",
        displayStatus: "Declined",
        redirectTo: "/active/listings",
        message: UPDATE_YOUR_LISTINGS,
      });
      expect(await closed(handle)).toBe("COMPLETED");
    });
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_DECLINE_SALE,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(fake.readModelOf(orderId).latest.reasons).toEqual({ provider_decline_buy_reason: 14 });
    expect(fake.payments(orderId).map((p) => p[1])).toEqual([
      key(orderId, "authorize"),
      key(orderId, "release-authorization"),
    ]);
  });
});

/** Sends the seller's modification of the lines. */
async function modify(
  handle: Handle,
  lines: { listingId: number; sizes: Record<string, number> }[],
) {
  return handle.executeUpdate(modifySaleUpdate, { args: [{ actorRetailerId: SELLER, lines }] });
}

/** Modifications the seller may not send: more than the buyer asked for, nothing, unknown or unchanged units. */
const REFUSED_MODIFICATIONS: [
  lines: { listingId: number; sizes: Record<string, number> }[],
  code: keyof typeof BUY_ERRORS,
  message?: string,
][] = [
  [[{ listingId: 501, sizes: { "8": 3 } }], "total_too_high", TOTAL_TOO_HIGH],
  [[{ listingId: 501, sizes: { "10": 1 } }], "total_too_high", TOTAL_TOO_HIGH],
  [[{ listingId: 501, sizes: { "8": 0 } }], "no_units"],
  [[{ listingId: 777, sizes: { "8": 1 } }], "invalid_units"],
  [
    [
      { listingId: 501, sizes: { "8": 2, "9": 1 } },
      { listingId: 502, sizes: { M: 2 } },
    ],
    "unchanged",
  ],
];

const requestInput = (orderId: number) =>
  orderInput(orderId, {
    kind: "for_request",
    requestId: 77,
    sellInfo: { reason: "overstock", floorTime: "31-60" },
  });

/** A step nobody answers (docs/product/windows.md): the order waits until its deadline, then ends. */
type Unanswered = {
  name: string;
  orderId: number;
  fake: () => FakeBuyActivities;
  input?: (orderId: number) => BuyOrderInput;
  /** Brings the order to the waiting step, checks it there and returns its view. */
  reach: (handle: Handle) => Promise<BuyOrderView>;
  deadline: keyof BuyOrderView["deadlines"];
  /** The deadline is this long after the instant `from` reads from the view. */
  period?: [from: (v: BuyOrderView) => string, ms: number];
  waiting: string;
  end: string;
  endView?: Partial<BuyOrderView>;
  /** Checks on the ended run, before its history is kept. */
  after?: (handle: Handle) => Promise<void>;
  history: string;
  payments: (orderId: number) => unknown[];
  codes: number[];
  latest: Record<string, unknown>;
  ledger?: Record<string, unknown>;
  mails: string[];
};

const authorisedThenReleased = (orderId: number) => [
  ["authorizePayment", key(orderId, "authorize"), 22025],
  ["releaseAuthorization", key(orderId, "release-authorization"), 22025],
];

/** A buyer of BUYER's store over its limit, and an approver of that store (docs/product/teams.md). */
const PLACER = 901;
const APPROVER = 902;
const OVER_LIMIT = { reason: "order_limit", limitCents: 10_000, placedByUserId: PLACER } as const;

/** Checkout over the placer's limit: authorised, then waiting for the buyer's store. */
async function checkoutOverLimit(handle: Handle) {
  return handle.executeUpdate(completeCheckoutUpdate, {
    args: [{ actorRetailerId: BUYER, paymentMethod: OK_CARD, storeApproval: OVER_LIMIT }],
  });
}

const UNANSWERED: Unanswered[] = [
  {
    name: "store approval runs out: cancelled after 2 business days (308), the authorisation released (813)",
    orderId: 4051,
    fake: () => sellerFake(),
    reach: async (handle) => {
      const res = await checkoutOverLimit(handle);
      expect(res).toMatchObject({
        statename: "store_approve_purchase",
        message: storeApprovalMessage(OVER_LIMIT),
      });
      const v = await inState(handle, "store_approve_purchase");
      expect(v).toMatchObject({
        actionNeeded: "receiver",
        displayStatus: "Awaiting Store Approval",
      });
      expect(v.allowedActions).toEqual({
        provider: [],
        receiver: ["storeApprovePurchase", "storeDeclinePurchase"],
      });
      // The placer itself is refused, with the message.
      await expectRejected(
        handle.executeUpdate(storeApprovePurchaseUpdate, {
          args: [{ actorRetailerId: BUYER, actorUserId: PLACER }],
        }),
        "own_order",
      );
      const deadline = Date.parse(v.deadlines.storeApprovalBy as string);
      expect(deadline).toBe(
        addBusinessDays(Date.parse(v.actions.at(-1)?.at as string), 2, "America/New_York"),
      );
      return v;
    },
    deadline: "storeApprovalBy",
    waiting: "store_approve_purchase",
    end: "cancelled",
    endView: {
      displayStatus: "Cancelled",
      completed: false,
      reasons: { system_reason: 43 },
    },
    history: "store-approval-runs-out",
    payments: (orderId) => [
      ["authorizePayment", key(orderId, "authorize"), 22025],
      ["releaseAuthorization", key(orderId, "release-authorization"), 22025],
    ],
    codes: [
      ACTION.STORE_APPROVAL_REQUESTED,
      ACTION.STORE_APPROVAL_EXPIRED,
      ACTION.AUTHORIZATION_RELEASED,
    ],
    latest: { statename: "cancelled", displayStatus: "Cancelled", completed: false },
    ledger: {
      authorizedCents: 22025,
      authorizationReleasedCents: 22025,
      buyerPaidCents: 0,
      balanced: true,
    },
    // The seller never heard of it.
    mails: ["receiver:store_approval_needed", "receiver:store_approval_expired"],
  },
  {
    name: "checkout abandoned: the draft expires after 24 hours (301), nothing is charged",
    orderId: 4101,
    fake: () => createFakeBuyActivities(),
    reach: async (handle) => {
      const v = await inState(handle, "complete_order_checkout");
      expect(v.actionNeeded).toBe("receiver");
      expect(v.allowedActions).toEqual({ provider: [], receiver: ["completeCheckout"] });
      expect(v.amounts.requested).toEqual({
        units: 5,
        goodsCents: 17500,
        feeCents: 1750,
        shippingCents: 2775,
        totalCents: 22025,
      });
      return v;
    },
    deadline: "checkoutBy",
    waiting: "complete_order_checkout",
    end: "expired",
    endView: {
      displayStatus: "Expired",
      stage: "declined",
      completed: false,
      actionNeeded: null,
      reasons: { system_reason: 41 },
    },
    // A command on the finished order is refused (the client's WorkflowNotFoundError, read as wrong_state).
    after: (handle) => expectRejected(completeCheckout(handle), "wrong_state"),
    history: "checkout-abandoned",
    payments: () => [],
    codes: [ACTION.CHECKOUT_EXPIRED],
    latest: {
      statename: "expired",
      displayStatus: "Expired",
      stage: "declined",
      completed: false,
      actionNeeded: null,
    },
    ledger: { authorizedCents: 0, buyerPaidCents: 0, balanced: true },
    mails: ["receiver:order_expired"],
  },
  {
    name: "seller never answers: auto-declined after 5 calendar days (302) and the authorisation released (813)",
    orderId: 4201,
    fake: () => sellerFake(),
    reach: async (handle) => {
      await completeCheckout(handle);
      const v = await handle.query(orderViewQuery);
      expect(v).toMatchObject({ statename: "provider_approve_sale", actionNeeded: "provider" });
      expect(v.allowedActions.provider).toEqual(["approveSale", "modifySale", "declineSale"]);
      return v;
    },
    deadline: "sellerResponseBy",
    period: [(v) => v.actions.at(-1)?.at as string, 5 * DAY_MS],
    waiting: "provider_approve_sale",
    end: "declined",
    endView: { stage: "declined", completed: false, reasons: { system_reason: 40 } },
    history: "seller-never-answers",
    payments: authorisedThenReleased,
    codes: [
      ACTION.CHECKOUT_COMPLETED,
      ACTION.SELLER_RESPONSE_EXPIRED,
      ACTION.AUTHORIZATION_RELEASED,
    ],
    latest: {
      statename: "declined",
      displayStatus: "Declined",
      stage: "declined",
      completed: false,
      reasons: { system_reason: 40 },
    },
    ledger: {
      authorizedCents: 22025,
      authorizationReleasedCents: 22025,
      buyerPaidCents: 0,
      balanced: true,
    },
    mails: ["provider:approve_sale_needed", "receiver:order_declined", "provider:order_declined"],
  },
  {
    name: "modified purchase unanswered: auto-declined after 1 day (303), the authorisation released",
    orderId: 4301,
    fake: () => sellerFake(),
    reach: async (handle) => {
      await completeCheckout(handle);
      for (const [lines, code, message] of REFUSED_MODIFICATIONS)
        await expectRejected(modify(handle, lines), code, message);
      expect(await modify(handle, MODIFIED)).toEqual({
        status: "ok",
        statename: "receiver_approve_modified_purchase",
        displayStatus: "Approve/Decline Modified Purchase",
      });
      const v = await handle.query(orderViewQuery);
      expect(v).toMatchObject({
        isModified: true,
        actionNeeded: "receiver",
        amounts: { pending: { totalCents: MODIFIED_TOTAL }, authorizedCents: 22025 },
      });
      expect(v.allowedActions.receiver).toEqual([
        "approveModifiedPurchase",
        "declineModifiedPurchase",
      ]);
      await expectRejected(
        handle.executeUpdate(approveModifiedPurchaseUpdate, {
          args: [{ actorRetailerId: SELLER }],
        }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.receiver,
      );
      return v;
    },
    deadline: "modifiedResponseBy",
    period: [(v) => v.actions.at(-1)?.at as string, DAY_MS],
    waiting: "receiver_approve_modified_purchase",
    end: "declined",
    history: "modified-purchase-unanswered",
    payments: authorisedThenReleased,
    codes: [
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_MODIFY_SALE,
      ACTION.MODIFIED_PURCHASE_EXPIRED,
      ACTION.AUTHORIZATION_RELEASED,
    ],
    latest: {
      statename: "declined",
      isModified: true,
      reasons: { system_reason: 40 },
      amounts: { quote: { totalCents: MODIFIED_TOTAL }, capturedCents: 0 },
    },
    mails: [
      "provider:approve_sale_needed",
      "receiver:modified_purchase_needed",
      "provider:order_declined",
    ],
  },
  {
    name: "order for a request never checked out: expires after 3 days (304)",
    orderId: 4401,
    fake: () => sellerFake(),
    input: requestInput,
    reach: async (handle) => {
      const v = await inState(handle, "complete_order_checkout");
      expect(v.allowedActions.receiver).toEqual(["completeCheckout", "declineCheckout"]);
      return v;
    },
    deadline: "checkoutBy",
    period: [(v) => v.actions[0].at, 3 * DAY_MS],
    waiting: "complete_order_checkout",
    end: "expired",
    history: "request-never-checked-out",
    payments: () => [],
    codes: [ACTION.ORDER_CREATED_FOR_REQUEST, ACTION.REQUEST_CHECKOUT_EXPIRED],
    latest: {
      statename: "expired",
      stage: "declined",
      floorTime: "31-60",
      reasons: { system_reason: 41 },
    },
    mails: ["receiver:checkout_needed", "provider:order_expired"],
  },
];

describe("a step left unanswered: just before its deadline the order waits, just after it ends", () => {
  test.each(UNANSWERED)("$name", async (row) => {
    const { orderId } = row;
    const fake = row.fake();
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, (row.input ?? orderInput)(orderId));
      const v = await row.reach(handle);
      const deadline = v.deadlines[row.deadline];
      if (row.period) {
        const [from, ms] = row.period;
        expect(Date.parse(deadline as string)).toBe(Date.parse(from(v)) + ms);
      }
      const end = await pastDeadline(handle, deadline ?? null, row.waiting, row.end);
      if (row.endView) expect(end).toMatchObject(row.endView);
      expect(await closed(handle)).toBe("COMPLETED");
      await row.after?.(handle);
      await shared.keepHistory(handle, row.history);
    });
    expect(fake.payments(orderId)).toEqual(row.payments(orderId));
    expect(fake.codesOf(orderId)).toEqual(row.codes);
    const rm = fake.readModelOf(orderId).latest;
    expect(rm).toMatchObject(row.latest);
    if (row.ledger) expect(rm.ledger).toMatchObject(row.ledger);
    expect(fake.mailsTo(orderId)).toEqual(row.mails);
  });
});

describe("a purchase over the placer's limit (docs/product/teams.md, 'Limits and approval')", () => {
  test("an approver approves: the seller's turn with its own 5 days, the approver kept; the seller approves and it ships", async () => {
    const orderId = 4061;
    const fake = sellerFake();
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await checkoutOverLimit(handle);
      await inState(handle, "store_approve_purchase");
      // The seller cannot answer yet.
      await expectRejected(approve(handle), "wrong_state");
      const res = await handle.executeUpdate(storeApprovePurchaseUpdate, {
        args: [{ actorRetailerId: BUYER, actorUserId: APPROVER }],
      });
      expect(res).toMatchObject({ statename: "provider_approve_sale", message: TEAM_MSG.approved });
      const v = await inState(handle, "provider_approve_sale");
      expect(Date.parse(v.deadlines.sellerResponseBy as string)).toBe(
        Date.parse(v.actions.at(-1)?.at as string) + 5 * DAY_MS,
      );
      await approve(handle);
      await inState(handle, "ship_order");
      await shared.keepHistory(handle, "store-approves");
    });
    expect(fake.codesOf(orderId).slice(0, 4)).toEqual([
      ACTION.STORE_APPROVAL_REQUESTED,
      ACTION.STORE_APPROVED,
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
    ]);
    const rm = fake.readModelOf(orderId);
    expect(rm.latest.approvedByUserId).toBe(APPROVER);
    expect(fake.mailsTo(orderId).slice(0, 2)).toEqual([
      "receiver:store_approval_needed",
      "provider:approve_sale_needed",
    ]);
  });

  test("an approver declines: declined (234), the authorisation released, the seller never told", async () => {
    const orderId = 4071;
    const fake = sellerFake();
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await checkoutOverLimit(handle);
      await inState(handle, "store_approve_purchase");
      const res = await handle.executeUpdate(storeDeclinePurchaseUpdate, {
        args: [{ actorRetailerId: BUYER, actorUserId: APPROVER }],
      });
      expect(res).toMatchObject({ statename: "declined", message: TEAM_MSG.declinedByStore });
      expect(await closed(handle)).toBe("COMPLETED");
    });
    expect(fake.payments(orderId)).toEqual(authorisedThenReleased(orderId));
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.STORE_APPROVAL_REQUESTED,
      ACTION.STORE_DECLINED,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(fake.mailsTo(orderId)).toEqual([
      "receiver:store_approval_needed",
      "receiver:order_declined",
    ]);
  });
});

describe("modified purchase", () => {
  test("the buyer declines a modified purchase: default reason 30", async () => {
    const fake = sellerFake();
    const orderId = 4302;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await completeCheckout(handle);
      await modify(handle, MODIFIED);
      await expectRejected(
        handle.executeUpdate(declineModifiedPurchaseUpdate, {
          args: [{ actorRetailerId: BUYER, reason: 14 }],
        }),
        "decline_reason_required",
      );
      const r = await handle.executeUpdate(declineModifiedPurchaseUpdate, {
        args: [{ actorRetailerId: BUYER }],
      });
      expect(r).toMatchObject({ status: "ok", statename: "declined" });
      expect(await closed(handle)).toBe("COMPLETED");
    });
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_MODIFY_SALE,
      ACTION.RECEIVER_DECLINE_MODIFIED_PURCHASE,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(fake.readModelOf(orderId).latest.reasons).toEqual({
      receiver_decline_modified_purchase_reason: 30,
    });
  });
});

describe("order for a request", () => {
  test("the requestor completes checkout: authorised and captured at once (220, 812, 920); or declines it (226)", async () => {
    const fake = sellerFake();
    const [paid, declined] = [4402, 4403];
    await withWorker(fake, async (tq) => {
      const h1 = await start(tq, requestInput(paid));
      expect(await completeCheckout(h1)).toEqual(PICKUP_SCHEDULED);
      await h1.terminate("test done");
      const h2 = await start(tq, requestInput(declined));
      await expectRejected(
        h2.executeUpdate(declineCheckoutUpdate, { args: [{ actorRetailerId: BUYER, reason: 30 }] }),
        "decline_reason_required",
      );
      expect(
        await h2.executeUpdate(declineCheckoutUpdate, {
          args: [{ actorRetailerId: BUYER, reason: 1 }],
        }),
      ).toMatchObject({
        status: "ok",
        statename: "declined",
      });
      expect(await closed(h2)).toBe("COMPLETED");
    });
    expect(fake.payments(paid)).toEqual([
      ["authorizePayment", key(paid, "authorize"), 22025],
      ["capturePayment", key(paid, "capture"), 22025],
    ]);
    expect(fake.codesOf(paid)).toEqual([
      ACTION.ORDER_CREATED_FOR_REQUEST,
      ACTION.RECEIVER_APPROVE_PURCHASE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
    ]);
    expect(fake.payments(declined)).toEqual([]);
    expect(fake.codesOf(declined)).toEqual([
      ACTION.ORDER_CREATED_FOR_REQUEST,
      ACTION.RECEIVER_DECLINE_CHECKOUT,
    ]);
    expect(fake.readModelOf(declined).latest.reasons).toEqual({
      receiver_decline_checkout_reason: 1,
    });
  });
});

describe("shipping", () => {
  test("pickup missed once then made: rescheduled (ship_order_try2, 921) with 2 more business days, then picked up", async () => {
    const fake = sellerFake();
    const orderId = 4501;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await completeCheckout(handle);
      await handle.executeUpdate(modifySaleUpdate, {
        args: [{ actorRetailerId: SELLER, lines: MODIFIED }],
      });
      expect(
        await handle.executeUpdate(approveModifiedPurchaseUpdate, {
          args: [{ actorRetailerId: BUYER }],
        }),
      ).toMatchObject({
        status: "ok",
        statename: "ship_order",
      });
      const v1 = await handle.query(orderViewQuery);
      expect(Date.parse(v1.deadlines.pickupBy as string)).toBe(
        addBusinessDays(v1.approvedAt as string, 2),
      );

      const v2 = await pastDeadline(
        handle,
        v1.deadlines.pickupBy,
        "ship_order",
        "ship_order_try2",
        MINUTE_MS,
      );
      expect(v2).toMatchObject({
        displayStatus: "Pickup Scheduled",
        shipment: { callTag: `CT-${orderId}-2`, attempt: 2 },
      });
      expect(Date.parse(v2.deadlines.pickupBy as string)).toBe(
        addBusinessDays(v2.pickupWindowStartedAt as string, 2),
      );

      await sleepUntil(shared.env, v2.deadlines.pickupBy as string, -HOUR_MS);
      for (let i = 0; i < 20; i++) await carrier(handle, "picked_up", "evt_pickup_once");
      await waitFor(
        handle,
        (v) => v.statename === "in_route" && v.payoutReleasedAt !== null && !v.busy,
        "in_route with payout",
      );
      // Past the second window: nothing happens any more, the goods are on their way.
      await sleepUntil(shared.env, v2.deadlines.pickupBy as string, HOUR_MS);
      expect((await handle.query(orderViewQuery)).statename).toBe("in_route");
      await carrier(handle, "delivered");
      const d = await inState(handle, "delivered");
      await sleepUntil(shared.env, d.deadlines.ratingBy as string, MINUTE_MS);
      await inState(handle, "completed");
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "pickup-missed-once");
    });
    expect(fake.payments(orderId)).toEqual([
      ["authorizePayment", key(orderId, "authorize"), 22025],
      ["capturePayment", key(orderId, "capture"), MODIFIED_TOTAL],
      ["releaseSellerPayout", key(orderId, "payout"), 4500],
    ]);
    expect(fake.of("bookPickup", orderId).map((c) => [c.idempotencyKey, c.attempt])).toEqual([
      [key(orderId, "book-pickup", 1), 1],
      [key(orderId, "book-pickup", 2), 2],
    ]);
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_MODIFY_SALE,
      ACTION.RECEIVER_APPROVE_PURCHASE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
      ACTION.CALL_TAG_RESCHEDULED_ORDER,
      ACTION.SHIPMENT_PICKED_UP,
      ACTION.PAYOUT_RELEASED,
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RATING_WINDOW_CLOSED,
      ACTION.ORDER_COMPLETED,
    ]);
    const rm = fake.readModelOf(orderId).latest;
    expect(rm).toMatchObject({
      statename: "completed",
      stage: "complete",
      completed: true,
      lines: [{ listingId: 501, sizes: { "8": 1 } }],
    });
    expect(rm.ledger).toMatchObject({
      authorizedCents: 22025,
      buyerPaidCents: MODIFIED_TOTAL,
      sellerPaidCents: 4500,
      feeKeptCents: 450,
      shippingKeptCents: 1975,
      escrowCents: 0,
      balanced: true,
    });
    expect(fake.mailsTo(orderId)).toContain("provider:pickup_rescheduled");
  });

  test("pickup missed twice: cancelled (117) with a full refund to the buyer and the 10% penalty to the seller", async () => {
    const fake = sellerFake({ stock: { "501:8": 2, "501:9": 1, "502:M": 2 } });
    const orderId = 4502;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const v1 = await toShipOrder(handle);
      await sleepUntil(shared.env, v1.deadlines.pickupBy as string, MINUTE_MS);
      const v2 = await inState(handle, "ship_order_try2");
      const end = await pastDeadline(
        handle,
        v2.deadlines.pickupBy,
        "ship_order_try2",
        "cancelled",
        MINUTE_MS,
      );
      expect(end).toMatchObject({
        displayStatus: "Cancelled",
        stage: "cancelled",
        completed: false,
        reasons: { system_reason: 42 },
      });
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "pickup-missed-twice");
    });
    expect(fake.payments(orderId)).toEqual([
      ["authorizePayment", key(orderId, "authorize"), 22025],
      ["capturePayment", key(orderId, "capture"), 22025],
      ["refundPayment", key(orderId, "refund"), 22025],
      ["chargeSellerPenalty", key(orderId, "penalty"), 1750],
    ]);
    expect(fake.of("cancelPickup", orderId)).toHaveLength(1);
    expect(fake.of("restoreStock", orderId)).toHaveLength(0);
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
      ACTION.CALL_TAG_RESCHEDULED_ORDER,
      ACTION.PROVIDER_ORDER_NON_SHIPMENT,
      ACTION.REFUND_ISSUED,
      ACTION.PENALTY_CHARGED,
    ]);
    const rm = fake.readModelOf(orderId).latest;
    expect(rm).toMatchObject({ statename: "cancelled", stage: "cancelled", completed: false });
    expect(rm.ledger).toMatchObject({
      buyerPaidCents: 22025,
      buyerRefundedCents: 22025,
      buyerNetCents: 0,
      sellerPaidCents: 0,
      sellerPenaltyCents: 1750,
      penaltyKeptCents: 1750,
      feeKeptCents: 0,
      escrowCents: 0,
      balanced: true,
    });
    expect(fake.mailsTo(orderId)).toEqual(
      expect.arrayContaining([
        "receiver:order_cancelled",
        "provider:order_cancelled",
        "provider:pickup_rescheduled",
      ]),
    );
  });

  test("staff's Schedule pickup books a new call tag once (922), the pickup window starting over; a repeat books nothing", async () => {
    const fake = sellerFake();
    const orderId = 4590;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const v1 = await toShipOrder(handle);
      const replacesCallTag = v1.shipment?.callTag as string;
      await sleepUntil(shared.env, v1.deadlines.pickupBy as string, -HOUR_MS);
      const book = () =>
        handle.executeUpdate(staffBookPickupUpdate, { args: [{ replacesCallTag }] });
      expect(await book()).toMatchObject({ status: "ok", statename: "ship_order" });
      const v2 = await handle.query(orderViewQuery);
      expect(v2.shipment).toMatchObject({ callTag: `CT-${orderId}-2`, attempt: 2 });
      expect(Date.parse(v2.deadlines.pickupBy as string)).toBe(
        addBusinessDays(v2.pickupWindowStartedAt as string, 2),
      );
      expect(Date.parse(v2.deadlines.pickupBy as string)).toBeGreaterThan(
        Date.parse(v1.deadlines.pickupBy as string),
      );
      // The same click again (the call tag it replaces is gone): nothing booked, nothing recorded.
      expect(await book()).toMatchObject({ status: "ok", statename: "ship_order" });
      expect((await handle.query(orderViewQuery)).shipment).toMatchObject({ attempt: 2 });
      await carrier(handle, "picked_up");
      await inState(handle, "in_route");
      await expectRejected(book(), "wrong_state", BUY_ERRORS.wrong_state);
      await handle.terminate("test done");
    });
    expect(fake.of("bookPickup", orderId).map((c) => [c.idempotencyKey, c.attempt])).toEqual([
      [key(orderId, "book-pickup", 1), 1],
      [key(orderId, "book-pickup", 2), 2],
    ]);
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
      ACTION.CALL_TAG_BOOKED_BY_STAFF_ORDER,
      ACTION.SHIPMENT_PICKED_UP,
      ACTION.PAYOUT_RELEASED,
    ]);
  });

  test("the seller cancels the shipment with a reason: refund, units back on the listing, penalty (118)", async () => {
    const fake = sellerFake({ stock: { "501:8": 2, "501:9": 1, "502:M": 2 } });
    const orderId = 4503;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await toShipOrder(handle);
      expect([...fake.stock.values()]).toEqual([0, 0, 0]);
      await expectRejected(
        handle.executeUpdate(cancelShipmentUpdate, {
          args: [{ actorRetailerId: SELLER, reason: 0 }],
        }),
        "cancel_reason_required",
        CANCEL_REASON_REQUIRED,
      );
      await expectRejected(
        handle.executeUpdate(cancelShipmentUpdate, {
          args: [{ actorRetailerId: BUYER, reason: 52 }],
        }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.provider,
      );
      expect(
        await handle.executeUpdate(cancelShipmentUpdate, {
          args: [{ actorRetailerId: SELLER, reason: 52 }],
        }),
      ).toEqual({
        status: "ok",
        statename: "cancelled",
        displayStatus: "Cancelled",
      });
      expect(await closed(handle)).toBe("COMPLETED");
    });
    expect(
      fake.payments(orderId).map(([n, k, amt]) => [n, k.slice(k.indexOf(":", 10) + 1), amt]),
    ).toEqual([
      ["authorizePayment", "authorize:1", 22025],
      ["capturePayment", "capture:1", 22025],
      ["refundPayment", "refund:1", 22025],
      ["chargeSellerPenalty", "penalty:1", 1750],
    ]);
    expect([...fake.stock.values()]).toEqual([2, 1, 2]);
    expect(fake.codesOf(orderId).slice(-3)).toEqual([
      ACTION.SHIPMENT_CANCELLED,
      ACTION.REFUND_ISSUED,
      ACTION.PENALTY_CHARGED,
    ]);
    expect(fake.readModelOf(orderId).latest.reasons).toEqual({
      provider_cancel_shipment_reason: 52,
    });
  });
});

describe("after delivery", () => {
  test("a command sent while the previous step is still running (its database write) waits for it instead of being refused", async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const writing = new Promise<void>((resolve) => (entered = resolve));
    const fake = sellerFake({ holdRecord: { statename: "delivered", until, entered } });
    const orderId = 4605;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      await toShipOrder(handle);
      await carrier(handle, "delivered");
      // The delivery step's write (state, action rows, rating notice: one local activity) is in flight.
      await writing;
      expect(fake.readModelOf(orderId).latest.statename).toBe("in_route");
      const answer = handle.executeUpdate(confirmReceivedUpdate, {
        args: [{ actorRetailerId: BUYER }],
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.codesOf(orderId)).not.toContain(ACTION.RECEIVER_CONFIRM_ORDER);
      release();
      await expect(answer).resolves.toMatchObject({ status: "ok", statename: "delivered" });
      const v = await waitFor(handle, (x) => x.receivedConfirmed && !x.busy, "received confirmed");
      expect(v.actions.map((a) => a.code)).toContain(ACTION.RECEIVER_CONFIRM_ORDER);
      // A command that is no longer valid once the running step ends is refused with the specification's error,
      // carrying the workflow's write sequence: here the read model's, so a page would not send it again.
      const again = handle.executeUpdate(confirmReceivedUpdate, {
        args: [{ actorRetailerId: BUYER }],
      });
      await expectRejected(again, "wrong_state");
      expect(refusedAtSeq(await again.catch((e: unknown) => e))).toBe(
        fake.readModelOf(orderId).latest.sequence,
      );
    });
  });

  test("rating left: 'Rating saved!' (222, 230); the order completes when the 48-hour RMA window closes", async () => {
    const fake = sellerFake();
    const orderId = 4601;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const d = await toDelivered(handle);
      expect(d).toMatchObject({
        actionNeeded: "receiver",
        rmaOpen: true,
        payoutReleasedAt: expect.any(String),
      });
      expect(d.allowedActions.receiver).toEqual(["confirmReceived", "rateOrder", "requestRma"]);
      const stars = { condition: 5, packaging: 4, timeliness: 5, overall: 4 };
      await expectRejected(
        handle.executeUpdate(rateOrderUpdate, {
          args: [{ actorRetailerId: BUYER, stars: { ...stars, overall: 6 } }],
        }),
        "rating_invalid",
      );
      await expectRejected(
        handle.executeUpdate(rateOrderUpdate, { args: [{ actorRetailerId: SELLER, stars }] }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.receiver,
      );
      expect(
        await handle.executeUpdate(rateOrderUpdate, {
          args: [{ actorRetailerId: BUYER, stars, comments: " Well packed. " }],
        }),
      ).toEqual({
        status: "ok",
        statename: "delivered",
        displayStatus: "Delivered",
        message: RATING_SAVED,
        redirectTo: "/",
      });
      await expectRejected(
        handle.executeUpdate(rateOrderUpdate, { args: [{ actorRetailerId: BUYER, stars }] }),
        "already_rated",
      );
      const rated = await handle.query(orderViewQuery);
      expect(rated).toMatchObject({
        statename: "delivered",
        actionNeeded: null,
        rating: { ...stars, comments: "Well packed." },
        receivedConfirmed: true,
      });
      expect(rated.allowedActions.receiver).toEqual(["requestRma"]);
      await pastDeadline(handle, d.deadlines.rmaBy, "delivered", "completed", MINUTE_MS);
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "rating-left");
    });
    expect(fake.of("saveOrderRating", orderId)).toMatchObject([
      {
        idempotencyKey: key(orderId, "rating"),
        raterId: BUYER,
        rateeId: SELLER,
        role: "receiver",
        comments: "Well packed.",
      },
    ]);
    expect(fake.payments(orderId).map((p) => p[0])).toEqual([
      "authorizePayment",
      "capturePayment",
      "releaseSellerPayout",
    ]);
    expect(fake.codesOf(orderId)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ...APPROVED_TO_PAYOUT,
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RECEIVER_CONFIRM_ORDER,
      ACTION.RECEIVER_RATED,
      ACTION.ORDER_COMPLETED,
    ]);
    expect(fake.readModelOf(orderId).latest).toMatchObject({
      statename: "completed",
      stage: "complete",
      completed: true,
      rating: { overall: 4 },
    });
    expect(fake.mailsTo(orderId)).toContain("receiver:rate_order");
  });

  test("rating not left: the order completes after 3 business days (305, 390)", async () => {
    const fake = sellerFake();
    const orderId = 4602;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const d = await toDelivered(handle);
      expect(Date.parse(d.deadlines.ratingBy as string)).toBe(
        ratingDeadline(d.deliveredAt as string),
      );
      await expectRejected(
        handle.executeUpdate(confirmReceivedUpdate, { args: [{ actorRetailerId: SELLER }] }),
        "wrong_party",
        WRONG_PARTY_MESSAGES.receiver,
      );
      expect(
        await handle.executeUpdate(confirmReceivedUpdate, { args: [{ actorRetailerId: BUYER }] }),
      ).toMatchObject({
        status: "ok",
        statename: "delivered",
      });
      await sleepUntil(shared.env, d.deadlines.ratingBy as string, -MINUTE_MS);
      const late = await handle.query(orderViewQuery);
      expect(late).toMatchObject({ statename: "delivered", rmaOpen: false });
      expect(late.allowedActions.receiver).toEqual(["rateOrder"]);
      await sleepUntil(shared.env, d.deadlines.ratingBy as string, MINUTE_MS);
      await inState(handle, "completed");
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "rating-not-left");
    });
    expect(fake.codesOf(orderId).slice(-4)).toEqual([
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RECEIVER_CONFIRM_ORDER,
      ACTION.RATING_WINDOW_CLOSED,
      ACTION.ORDER_COMPLETED,
    ]);
    expect(fake.of("saveOrderRating", orderId)).toHaveLength(0);
    expect(fake.readModelOf(orderId).latest).toMatchObject({
      statename: "completed",
      rating: null,
    });
  });

  test("the 'request RMA' button shows within 48 hours of delivery and not after", async () => {
    const fake = sellerFake();
    const orderId = 4603;
    await withWorker(fake, async (tq) => {
      const handle = await start(tq, orderInput(orderId));
      const d = await toDelivered(handle);
      const deliveredAt = Date.parse(d.deliveredAt as string);
      expect(Date.parse(d.deadlines.rmaBy as string)).toBe(deliveredAt + 48 * HOUR_MS);
      expect(await handle.query(canRequestRmaQuery)).toBe(true);
      expect(
        await handle.query(canRequestRmaQuery, new Date(deliveredAt + 47 * HOUR_MS).toISOString()),
      ).toBe(true);
      expect(
        await handle.query(canRequestRmaQuery, new Date(deliveredAt + 49 * HOUR_MS).toISOString()),
      ).toBe(false);

      await sleepUntil(shared.env, d.deliveredAt as string, 47 * HOUR_MS);
      expect(await handle.query(canRequestRmaQuery)).toBe(true);
      expect((await handle.query(orderViewQuery)).allowedActions.receiver).toContain("requestRma");
      await sleepUntil(shared.env, d.deliveredAt as string, 49 * HOUR_MS);
      const after = await waitFor(handle, (v) => !v.rmaOpen && !v.busy, "RMA window closed");
      expect(after.statename).toBe("delivered");
      expect(after.allowedActions.receiver).not.toContain("requestRma");
      expect(await handle.query(canRequestRmaQuery)).toBe(false);
      await sleepUntil(shared.env, d.deadlines.ratingBy as string, MINUTE_MS);
      await inState(handle, "completed");
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "rma-window");
    });
    expect(fake.codesOf(orderId).slice(-3)).toEqual([
      ACTION.SHIPMENT_DELIVERED,
      ACTION.RATING_WINDOW_CLOSED,
      ACTION.ORDER_COMPLETED,
    ]);
  });
});

describe("cancellation and payment webhooks", () => {
  test("a withdrawn draft ends without writes; a cancelled order awaiting the seller releases its authorisation", async () => {
    const fake = sellerFake();
    const [draft, pending] = [4701, 4702];
    await withWorker(fake, async (tq) => {
      const h1 = await start(tq, orderInput(draft));
      await inState(h1, "complete_order_checkout");
      await h1.cancel();
      expect(await closed(h1)).toBe("CANCELLED");
      const h2 = await start(tq, orderInput(pending));
      await completeCheckout(h2);
      // The same payment webhook delivered 20 times is recorded once.
      for (let i = 0; i < 20; i++)
        await h2.signal(paymentEventSignal, {
          eventId: "evt_pay_1",
          type: "payment_intent.amount_capturable_updated",
          paymentRef: "pi_x",
        });
      await waitFor(
        h2,
        () => fake.of("recordPaymentEvent", pending).length > 0,
        "payment event recorded",
      );
      await h2.cancel();
      expect(await closed(h2)).toBe("CANCELLED");
    });
    expect(fake.of("recordOrderState", draft)).toHaveLength(1); // the start only
    expect(fake.payments(draft)).toEqual([]);
    expect(fake.of("recordPaymentEvent", pending)).toEqual([
      {
        orderId: pending,
        eventId: "evt_pay_1",
        type: "payment_intent.amount_capturable_updated",
        paymentRef: "pi_x",
        occurredAt: undefined,
      },
    ]);
    expect(fake.payments(pending)).toEqual([
      ["authorizePayment", key(pending, "authorize"), 22025],
      ["releaseAuthorization", key(pending, "release-authorization"), 22025],
    ]);
    expect(fake.codesOf(pending)).toEqual([
      ACTION.CHECKOUT_COMPLETED,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(fake.readModelOf(pending).latest).toMatchObject({
      statename: "declined",
      ledger: { authorizationReleasedCents: 22025, balanced: true },
    });
  });
});

describe("a purchase from an accepted offer (docs/product/offers.md; ADR 0056)", () => {
  test("opens at the seller's approval: captured on the offer's hold, to pickup, payout and the end of its rating window", async () => {
    const orderId = 4951;
    const fake = sellerFake();
    const hold = {
      offerId: 77,
      paymentIntentId: "pi_offer_77",
      amountCents: REQUESTED.totalCents,
      heldAt: new Date(Date.now()).toISOString(),
    };
    await withWorker(fake, async (tq) => {
      const handle = await start(
        tq,
        buyInput(orderId, SELLER, BUYER, LINES, { kind: "from_offer", offerHold: hold }),
      );
      const v = await inState(handle, "ship_order");
      // Nothing for the buyer to check out: the acceptance was the approval.
      expect(v.allowedActions.receiver).not.toContain("completeCheckout");
      await carrier(handle, "picked_up");
      await carrier(handle, "delivered");
      const delivered = await inState(handle, "delivered");
      await sleepUntil(shared.env, delivered.deadlines.ratingBy as string, MINUTE_MS);
      await inState(handle, "completed");
      expect(await closed(handle)).toBe("COMPLETED");
      await shared.keepHistory(handle, "from-offer");
    });
    // No authorisation of its own: the capture is against the offer's hold, then the seller's payout.
    expect(fake.payments(orderId)).toEqual([
      ["capturePayment", key(orderId, "capture"), REQUESTED.totalCents],
      ["releaseSellerPayout", key(orderId, "payout"), REQUESTED.goodsCents],
    ]);
    expect(fake.readModelOf(orderId).latest).toMatchObject({
      statename: "completed",
      ledger: { buyerPaidCents: REQUESTED.totalCents, balanced: true },
    });
  });
});

describe("replay", () => {
  shared.replayTests(
    "every timer path",
    [
      "buy-checkout-abandoned.json",
      // Started by its checkout (update-with-start): no opening write beside the checkout's step.
      "buy-checkout-starts-it.json",
      // A purchase from an accepted offer: opened at the seller's approval on the offer's hold.
      "buy-from-offer.json",
      "buy-modified-purchase-unanswered.json",
      "buy-pickup-missed-once.json",
      "buy-pickup-missed-twice.json",
      "buy-rating-left.json",
      "buy-rating-not-left.json",
      "buy-request-never-checked-out.json",
      "buy-rma-window.json",
      "buy-seller-answers.json",
      "buy-seller-never-answers.json",
      // Over the placer's limit: approved by the store, then the seller's turn; or nobody of the store answers.
      "buy-store-approves.json",
      "buy-store-approval-runs-out.json",
      "buy-units-taken-by-other-order.json",
    ],
    (history, file) => expect(history.events.length, file).toBeGreaterThan(10),
  );

  test("replay has teeth: a history whose steps differ from the code is a determinism violation", async () => {
    // A recorded history whose refund (a local activity: its type is in the marker's data) was another call.
    const json = JSON.parse(
      fs.readFileSync(path.join(HISTORIES, "buy-pickup-missed-twice.json"), "utf8"),
    );
    type Payload = { data?: string };
    type Marker = {
      markerRecordedEventAttributes?: { details?: { data?: { payloads: Payload[] } } };
    };
    const dataOf = (e: Marker) => e.markerRecordedEventAttributes?.details?.data?.payloads[0];
    const decode = (p: Payload | undefined) =>
      p?.data ? Buffer.from(p.data, "base64").toString("utf8") : "";
    const refund = dataOf(
      json.events.find((e: Marker) =>
        decode(dataOf(e)).includes('"activity_type":"refundPayment"'),
      ),
    ) as Payload;
    refund.data = Buffer.from(
      decode(refund).replace('"refundPayment"', '"chargeSomethingElse"'),
    ).toString("base64");
    await expect(shared.replay(json, "buy-replay-bad")).rejects.toThrow(/nondetermin/i);
  });
});

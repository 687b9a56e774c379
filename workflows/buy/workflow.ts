/**
 * The buy (purchase / sale) workflow: one run per order (id buyWorkflowId(orderId)). A thin Temporal driver
 * (workflows/common/driver.ts) around the order's state machine: the model and its validators are
 * workflows/buy/model.ts, the steps and the effects they need are workflows/buy/machine.ts (pure, table-tested
 * without Temporal). State names, display statuses and action codes are domain/'s (ADR 0002, ADR 0009);
 * the shape is ADR 0015.
 *
 * Here: the activity options of each kind of effect, the updates (retailer commands), signals (webhooks,
 * other orders) and queries, and the main loop. Deterministic: imports only @temporalio/workflow, domain/
 * (through the machine), the contract and activity types.
 */
import { patched, proxyLocalActivities, setHandler, workflowInfo, type LocalActivityOptions, type RetryPolicy } from "@temporalio/workflow";
import type { ApprovalFactsInput, ApprovalFactsResult, BuyActivities } from "../../activities/buy/types";
import { OrderDriver, asFailure, type Proxies } from "../common/driver";
import { providerCalls, waitedForPaymentRetry } from "../common/provider-calls";
import {
  BUY_INVALID_INPUT,
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  canRequestRmaQuery,
  cancelShipmentUpdate,
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
  unitsTakenSignal,
  type BuyOrderInput,
  type BuyOrderResult,
} from "./contract";
import { BUY_COMMANDS, afterCancellation, buyResult, isFinished, nextQueuedStep, onDeadline, openOrder, settleDelivered } from "./machine";
import {
  acceptCarrierEvent,
  acceptPaymentEvent,
  acceptUnitsTaken,
  buySearchFacts,
  buyView,
  canRequestRma,
  createBuyModel,
  currentDeadline,
  type BuyModel,
} from "./model";
import { COMMON_STATES } from "../../domain/states";

/** Retried until it succeeds (a reused idempotency key with other parameters is a bug: not retried). */
const untilDone: RetryPolicy = { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", nonRetryableErrorTypes: ["IdempotencyConflict"] };

/** Each kind of provider call's options (workflows/common/provider-calls.ts: local, or regular before the patch). */
const PROVIDER_CALL_OPTIONS = {
  /** The carrier (pickups, call tags): retried until it succeeds. */
  carrier: { startToCloseTimeout: "30s", retry: untilDone },
  /** Payments a retailer waits for (authorise, capture, save a card): a few tries, then the command fails. */
  payNow: { startToCloseTimeout: "60s", retry: waitedForPaymentRetry("IdempotencyConflict", "PaymentRejected") },
  /** Payments that must happen (releases, refunds, penalties, payouts): retried until the provider accepts. */
  payEventually: {
    startToCloseTimeout: "60s",
    retry: { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] },
  },
} satisfies Record<string, LocalActivityOptions>;

/**
 * A purchase's provider calls run as local activities since this patch (workflows/common/provider-calls.ts):
 * pay, approve and the pickup's payout are one workflow task each (were 2, 3 and 2). Orders started before it
 * replay their regular activities, which heartbeat (activities/buy/index.ts keepAlive, every 3 s).
 */
export const BUY_PROVIDER_CALLS_LOCAL_PATCH = "buy-provider-calls-local";

/**
 * The two reads of a seller's approval or modification (its card on file, the conflicting pending orders) are
 * one local activity (approvalFacts) since this patch: one round trip less in each. One replayed from before it
 * ran getCardOnFile, then (with a card) findConflictingOrders: the same answer, assembled here. (Modifications
 * took the patch later: one recorded before then has no marker and replays through the same old path.)
 */
export const BUY_APPROVAL_FACTS_PATCH = "buy-approval-facts";

/**
 * A purchase that its checkout starts (update-with-start: completeCheckout is already running when the main
 * function reaches the opening write) is written once, by the checkout's step, since this patch: one local
 * activity and one transaction less in the order's first workflow task. One replayed from before it runs its
 * opening write; an order started without a command (tests, an order made for a request) still opens with it.
 */
export const BUY_OPEN_WITH_CHECKOUT_PATCH = "buy-open-with-checkout";

const localActivities = proxyLocalActivities<BuyActivities>({ startToCloseTimeout: "30s", retry: untilDone });

async function approvalFactsBeforePatch(input: ApprovalFactsInput): Promise<ApprovalFactsResult> {
  const card = await localActivities.getCardOnFile({ retailerId: input.providerId });
  if (card === null) return { cardOnFile: false, conflictingOrderIds: [] };
  const r = await localActivities.findConflictingOrders(input);
  return { cardOnFile: true, conflictingOrderIds: r.orderIds };
}

const proxies: Proxies = {
  /**
   * The step's database work (read model with its action rows and the outbox rows of its notices, stock,
   * conflicts, ratings, the card-on-file lookup): LOCAL activities, run by the worker inside the workflow task
   * and recorded with it, so a step costs no server round trip per write (ADR 0015). Each is one transaction
   * and idempotent (dedupe keys, idempotency keys), so a rerun after a worker dies (the workflow task times
   * out and another worker replays it) changes nothing twice. Retried until they succeed: an outage delays,
   * never loses, a step.
   */
  local: new Proxy(localActivities, {
    get: (target, name) => (name === "approvalFacts" && !patched(BUY_APPROVAL_FACTS_PATCH) ? approvalFactsBeforePatch : target[name as keyof BuyActivities]),
  }) as unknown as Proxies["local"],
  carrier: providerCalls(BUY_PROVIDER_CALLS_LOCAL_PATCH, PROVIDER_CALL_OPTIONS.carrier),
  payNow: providerCalls(BUY_PROVIDER_CALLS_LOCAL_PATCH, PROVIDER_CALL_OPTIONS.payNow),
  payEventually: providerCalls(BUY_PROVIDER_CALLS_LOCAL_PATCH, PROVIDER_CALL_OPTIONS.payEventually),
};

function newModel(input: BuyOrderInput): BuyModel {
  try {
    return createBuyModel(input, workflowInfo().workflowId, Date.now());
  } catch (err) {
    throw asFailure(err, BUY_INVALID_INPUT);
  }
}

export async function buyOrderWorkflow(input: BuyOrderInput): Promise<BuyOrderResult> {
  const driver = new OrderDriver(newModel(input), proxies, BUY_INVALID_INPUT, buySearchFacts);
  const m = driver.model;

  driver.command(completeCheckoutUpdate, BUY_COMMANDS.completeCheckout);
  driver.command(declineCheckoutUpdate, BUY_COMMANDS.declineCheckout);
  driver.command(approveSaleUpdate, BUY_COMMANDS.approveSale);
  driver.command(addPaymentMethodUpdate, BUY_COMMANDS.addPaymentMethod);
  driver.command(modifySaleUpdate, BUY_COMMANDS.modifySale);
  driver.command(declineSaleUpdate, BUY_COMMANDS.declineSale);
  driver.command(approveModifiedPurchaseUpdate, BUY_COMMANDS.approveModifiedPurchase);
  driver.command(declineModifiedPurchaseUpdate, BUY_COMMANDS.declineModifiedPurchase);
  driver.command(cancelShipmentUpdate, BUY_COMMANDS.cancelShipment);
  driver.command(confirmReceivedUpdate, BUY_COMMANDS.confirmReceived);
  driver.command(rateOrderUpdate, BUY_COMMANDS.rateOrder);

  driver.signal(carrierEventSignal, acceptCarrierEvent);
  driver.signal(paymentEventSignal, acceptPaymentEvent);
  driver.signal(unitsTakenSignal, acceptUnitsTaken);

  setHandler(orderViewQuery, () => buyView(m, Date.now(), driver.busy));
  setHandler(canRequestRmaQuery, (at?: string) => canRequestRma(m, at));

  // The opening write, unless the checkout that started the purchase is already running its step, which writes
  // the order (BUY_OPEN_WITH_CHECKOUT_PATCH). Before the patch it ran beside that step: the read model keeps
  // the higher write sequence, so the later state wins whichever write finishes last.
  const checkoutOpens = driver.busy && m.kind === "from_listing" && patched(BUY_OPEN_WITH_CHECKOUT_PATCH);
  if (!checkoutOpens) {
    await driver.run(openOrder(m, driver.ctx)).catch((err) => {
      throw asFailure(err, BUY_INVALID_INPUT);
    });
  }
  await driver.loop({
    isFinished,
    nextQueuedStep,
    settle: (model, ctx) => (model.statename === COMMON_STATES.DELIVERED ? settleDelivered(model, ctx) : null),
    currentDeadline,
    onDeadline,
    afterCancellation,
  });
  return buyResult(m);
}

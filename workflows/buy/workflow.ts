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
import { patched, proxyActivities, proxyLocalActivities, setHandler, workflowInfo, type LocalActivityOptions } from "@temporalio/workflow";
import type { BuyActivities } from "../../activities/buy/types";
import { OrderDriver, asFailure, type Proxies } from "../common/driver";
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

/**
 * Every regular buy activity (the provider calls of orders from before BUY_PROVIDER_CALLS_LOCAL_PATCH)
 * heartbeats while it runs longer than a few seconds (activities/buy/index.ts keepAlive, every 3 s), so an
 * activity whose worker died (killed, OOM, host lost) times out after this and is retried on another worker
 * within seconds, instead of after its whole startToCloseTimeout (30–60 s, kept as the bound for a live but
 * hung call). Retries reuse the idempotency key: nothing is charged twice.
 */
const HEARTBEAT_TIMEOUT = "10s";

/** The database work of a step: see `proxies.local` below. */
const databaseCalls = proxyLocalActivities<BuyActivities>({
  startToCloseTimeout: "30s",
  retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", nonRetryableErrorTypes: ["IdempotencyConflict"] },
}) as unknown as Proxies["local"];

/** Each kind of provider call's options, as a regular activity (orders before the patch) or a local one. */
const PROVIDER_CALL_OPTIONS = {
  /** The carrier (pickups, call tags): retried until it succeeds. */
  carrier: {
    startToCloseTimeout: "30s",
    retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", nonRetryableErrorTypes: ["IdempotencyConflict"] },
  },
  /** Payments a retailer waits for (authorise, capture, save a card): a few tries, then the command fails. */
  payNow: {
    startToCloseTimeout: "60s",
    retry: {
      initialInterval: "2s",
      backoffCoefficient: 2,
      maximumInterval: "20s",
      maximumAttempts: 5,
      nonRetryableErrorTypes: ["IdempotencyConflict", "PaymentRejected"],
    },
  },
  /** Payments that must happen (releases, refunds, penalties, payouts): retried until the provider accepts. */
  payEventually: {
    startToCloseTimeout: "60s",
    retry: { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] },
  },
} satisfies Record<string, LocalActivityOptions>;

type ProviderPolicy = keyof typeof PROVIDER_CALL_OPTIONS;

/**
 * Provider calls as regular activities, as orders started before BUY_PROVIDER_CALLS_LOCAL_PATCH made them:
 * heartbeating (activities/buy/index.ts keepAlive, every 3 s), so one whose worker died times out after
 * HEARTBEAT_TIMEOUT and is retried on another worker.
 */
const regularProviderCalls = (policy: ProviderPolicy) =>
  proxyActivities<BuyActivities>({ ...PROVIDER_CALL_OPTIONS[policy], heartbeatTimeout: HEARTBEAT_TIMEOUT }) as unknown as Proxies[ProviderPolicy];

/**
 * Provider calls (the payment provider, the carrier) run as LOCAL activities too, since this patch (issue 9,
 * "one trip per step"): a step that pays or books is one workflow task instead of one per call (pay 2 → 1,
 * approve 3 → 1, pickup 2 → 1), and no activity task goes through the server. Their idempotency keys are
 * the model's (workflow id + step + the step's attempt), the same on every retry and rerun: when a worker
 * dies mid-call, the workflow task times out, another worker replays it and calls again with the same key,
 * and the provider answers the first call's result (tests/e2e/reliability.test.ts, npm run bench:kills).
 * An order whose history has provider calls as regular activities (started before the patch) replays them
 * as such; patched() records the switch in new histories (ADR 0015 "Versioning").
 */
export const BUY_PROVIDER_CALLS_LOCAL_PATCH = "buy-provider-calls-local";

function providerCalls(policy: ProviderPolicy): Proxies[ProviderPolicy] {
  const regular = regularProviderCalls(policy);
  const local = proxyLocalActivities<BuyActivities>(PROVIDER_CALL_OPTIONS[policy]) as unknown as Proxies[ProviderPolicy];
  return new Proxy({} as Proxies[ProviderPolicy], {
    get: (_target, name) => (input: unknown) => (patched(BUY_PROVIDER_CALLS_LOCAL_PATCH) ? local : regular)[name as string](input),
  });
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
  local: databaseCalls,
  carrier: providerCalls("carrier"),
  payNow: providerCalls("payNow"),
  payEventually: providerCalls("payEventually"),
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

  // The opening write runs beside a command that arrives with the start (update-with-start): the read model
  // keeps the higher write sequence, so the later state wins whichever write finishes last.
  await driver.run(openOrder(m, driver.ctx)).catch((err) => {
    throw asFailure(err, BUY_INVALID_INPUT);
  });
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

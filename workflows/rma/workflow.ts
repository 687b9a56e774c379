/**
 * The RMA workflow: one run per RMA (id rmaWorkflowId(rmaId)), the shared driver (workflows/common/driver.ts)
 * around the RMA's machine (model.ts, machine.ts). Decisions: ADR 0017. Registered in workflows/index.ts; its
 * activities are activities/rma/index.ts (an RMA is an order of type 3 in the read model: db/queries/rmas.ts).
 */
import { proxyLocalActivities, setHandler, workflowInfo, type RetryPolicy } from "@temporalio/workflow";
import type { RmaActivities } from "../../activities/rma/types";
import { OrderDriver, asFailure, type Proxies } from "../common/driver";
import { providerCalls } from "../common/provider-calls";
import { RMA_INVALID_INPUT, cardOnFileSignal, decideRmaUpdate, rmaCarrierEventSignal, rmaViewQuery, type RmaInput, type RmaStage } from "./contract";
import { RMA_DECIDE, isRmaFinished, nextRmaStep, onRmaDeadline, openRma } from "./machine";
import { acceptCardOnFile, acceptCarrierEvent, createRmaModel, rmaDeadline, rmaSearchFacts, rmaView, type RmaModel } from "./model";

const retryForever: RetryPolicy = { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] };

/**
 * An RMA's provider calls (the refund, the charge, the return parcel's booking) run as local activities since
 * this patch, as a purchase's do (workflows/common/provider-calls.ts); RMAs started before it replay their
 * regular activities.
 */
export const RMA_PROVIDER_CALLS_LOCAL_PATCH = "rma-provider-calls-local";

const providers = providerCalls(RMA_PROVIDER_CALLS_LOCAL_PATCH, { startToCloseTimeout: "60s", retry: retryForever });
const proxies: Proxies = {
  local: proxyLocalActivities<RmaActivities>({ startToCloseTimeout: "30s", retry: retryForever }) as unknown as Proxies["local"],
  carrier: providers,
  payNow: providers,
  payEventually: providers,
};

function newModel(input: RmaInput): RmaModel {
  try {
    return createRmaModel(input, workflowInfo().workflowId, Date.now());
  } catch (err) {
    throw asFailure(err, RMA_INVALID_INPUT);
  }
}

export async function rmaWorkflow(input: RmaInput): Promise<{ stage: RmaStage; charged: boolean }> {
  const driver = new OrderDriver(newModel(input), proxies, RMA_INVALID_INPUT, rmaSearchFacts);
  const m = driver.model;
  driver.command(decideRmaUpdate, RMA_DECIDE);
  driver.signal(rmaCarrierEventSignal, acceptCarrierEvent);
  driver.signal(cardOnFileSignal, acceptCardOnFile);
  setHandler(rmaViewQuery, () => rmaView(m, driver.busy));
  await driver.exclusive(() => openRma(m, driver.ctx));
  await driver.loop({ isFinished: isRmaFinished, nextQueuedStep: nextRmaStep, currentDeadline: rmaDeadline, onDeadline: onRmaDeadline });
  return { stage: m.stage, charged: m.charged };
}

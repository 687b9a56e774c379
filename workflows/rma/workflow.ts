/**
 * The RMA workflow: one run per RMA (id rmaWorkflowId(rmaId)), the shared driver (workflows/common/driver.ts)
 * around the RMA's machine (model.ts, machine.ts). Decisions: ADR 0017. Registered in workflows/index.ts; its
 * activities are activities/rma/index.ts (an RMA is an order of type 3 in the read model: db/queries/rmas.ts).
 */
import { proxyActivities, proxyLocalActivities, setHandler, workflowInfo, type RetryPolicy } from "@temporalio/workflow";
import type { RmaActivities } from "../../activities/rma/types";
import { OrderDriver, asFailure, type Proxies } from "../common/driver";
import { RMA_INVALID_INPUT, cardOnFileSignal, decideRmaUpdate, rmaCarrierEventSignal, rmaViewQuery, type RmaInput, type RmaStage } from "./contract";
import { RMA_DECIDE, isRmaFinished, nextRmaStep, onRmaDeadline, openRma } from "./machine";
import { acceptCardOnFile, acceptCarrierEvent, createRmaModel, rmaDeadline, rmaSearchFacts, rmaView, type RmaModel } from "./model";

const retryForever: RetryPolicy = { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] };
const regular = proxyActivities<RmaActivities>({ startToCloseTimeout: "60s", heartbeatTimeout: "10s", retry: retryForever });
const proxies: Proxies = {
  local: proxyLocalActivities<RmaActivities>({ startToCloseTimeout: "30s", retry: retryForever }) as unknown as Proxies["local"],
  carrier: regular as unknown as Proxies["carrier"],
  payNow: regular as unknown as Proxies["payNow"],
  payEventually: regular as unknown as Proxies["payEventually"],
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

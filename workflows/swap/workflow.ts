/**
 * The swap workflow: one run per swap order (id swapWorkflowId(orderId)), the shared driver
 * (workflows/common/driver.ts) around the swap's machine (model.ts, machine.ts). Decisions: ADR 0019, 0021.
 * Registered in workflows/index.ts; its activities are activities/swap/index.ts.
 */
import { proxyLocalActivities, setHandler, workflowInfo, type RetryPolicy } from "@temporalio/workflow";
import type { SwapActivities } from "../../activities/swap/types";
import { COMMON_STATES } from "../../domain/states";
import { OrderDriver, asFailure, type Proxies } from "../common/driver";
import { providerCalls, waitedForPaymentRetry } from "../common/provider-calls";
import {
  SWAP_INVALID_INPUT,
  acceptDeclineUpdate,
  approveSwapUpdate,
  callItEvenUpdate,
  cancelSwapShipmentUpdate,
  chooseItemsUpdate,
  confirmSwapReceivedUpdate,
  declineSwapUpdate,
  makePaymentUpdate,
  modifySwapUpdate,
  rateSwapUpdate,
  swapCarrierEventSignal,
  swapCheckoutUpdate,
  swapViewQuery,
  type SwapInput,
} from "./contract";
import { SWAP_COMMANDS, nextSwapStep, onSwapDeadline, settleSwap } from "./machine";
import { acceptSwapCarrierEvent, createSwapModel, currentSwapDeadline, isSwapFinished, swapSearchFacts, swapView, type SwapModel } from "./model";

const untilDone: RetryPolicy = { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] };

/**
 * A swap's provider calls (its payments, the carrier) run as local activities since this patch, as a
 * purchase's do (workflows/common/provider-calls.ts); swaps started before it replay their regular activities.
 */
export const SWAP_PROVIDER_CALLS_LOCAL_PATCH = "swap-provider-calls-local";

const proxies: Proxies = {
  local: proxyLocalActivities<SwapActivities>({ startToCloseTimeout: "30s", retry: untilDone }) as unknown as Proxies["local"],
  carrier: providerCalls(SWAP_PROVIDER_CALLS_LOCAL_PATCH, { startToCloseTimeout: "30s", retry: untilDone }),
  payNow: providerCalls(SWAP_PROVIDER_CALLS_LOCAL_PATCH, { startToCloseTimeout: "60s", retry: waitedForPaymentRetry("IdempotencyConflict", "PaymentRejected") }),
  payEventually: providerCalls(SWAP_PROVIDER_CALLS_LOCAL_PATCH, { startToCloseTimeout: "60s", retry: untilDone }),
};

function newModel(input: SwapInput): SwapModel {
  try {
    return createSwapModel(input, workflowInfo().workflowId, Date.now());
  } catch (err) {
    throw asFailure(err, SWAP_INVALID_INPUT);
  }
}

export async function swapOrderWorkflow(input: SwapInput): Promise<{ statename: string }> {
  const driver = new OrderDriver(newModel(input), proxies, SWAP_INVALID_INPUT, swapSearchFacts);
  const m = driver.model;
  driver.command(swapCheckoutUpdate, SWAP_COMMANDS.completeCheckout);
  driver.command(chooseItemsUpdate, SWAP_COMMANDS.chooseItems);
  driver.command(modifySwapUpdate, SWAP_COMMANDS.modifySwap);
  driver.command(approveSwapUpdate, SWAP_COMMANDS.approveSwap);
  driver.command(declineSwapUpdate, SWAP_COMMANDS.declineSwap);
  driver.command(callItEvenUpdate, SWAP_COMMANDS.callItEven);
  driver.command(acceptDeclineUpdate, SWAP_COMMANDS.acceptDecline);
  driver.command(makePaymentUpdate, SWAP_COMMANDS.makePayment);
  driver.command(cancelSwapShipmentUpdate, SWAP_COMMANDS.cancelShipment);
  driver.command(rateSwapUpdate, SWAP_COMMANDS.rateSwap);
  driver.command(confirmSwapReceivedUpdate, SWAP_COMMANDS.confirmReceived);
  driver.signal(swapCarrierEventSignal, acceptSwapCarrierEvent);
  setHandler(swapViewQuery, () => swapView(m, driver.busy));
  await driver.loop({
    isFinished: isSwapFinished,
    nextQueuedStep: nextSwapStep,
    settle: (model, ctx) => (model.statename === COMMON_STATES.DELIVERED ? settleSwap(model, ctx) : null),
    currentDeadline: currentSwapDeadline,
    onDeadline: onSwapDeadline,
  });
  return { statename: m.statename };
}

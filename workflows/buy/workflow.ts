/**
 * The buy (purchase / sale) workflow: one run per order (id buyWorkflowId(orderId)). The shared driver
 * (workflows/common/driver.ts) around the order's machine (machine.ts buyMachine, over model.ts; pure,
 * table-tested without Temporal). State names, display statuses and action codes are domain/'s (ADR 0002,
 * ADR 0009); the shape is ADR 0015, the kit it is made of ADR 0023.
 *
 * Here: the retailer commands (each answers its update: machine.ts BUY_COMMANDS), the signals (payment
 * webhooks, other orders) and queries, the opening write and the main loop. Deterministic: imports only @temporalio/workflow, domain/ (through the
 * machine), the contract and activity types.
 */
import { setHandler } from "@temporalio/workflow";
import { OrderDriver } from "../common/driver";
import {
  BUY_INVALID_INPUT,
  canRequestRmaQuery,
  orderViewQuery,
  paymentEventSignal,
  unitsTakenSignal,
  type BuyOrderInput,
  type BuyOrderResult,
} from "./contract";
import { BUY_COMMANDS, buyMachine, buyResult } from "./machine";
import { acceptPaymentEvent, acceptUnitsTaken, buyView, canRequestRma } from "./model";

export async function buyOrderWorkflow(input: BuyOrderInput): Promise<BuyOrderResult> {
  const driver = new OrderDriver(buyMachine, input, BUY_INVALID_INPUT);
  const m = driver.model;

  driver.commands(BUY_COMMANDS);
  driver.signal(paymentEventSignal, acceptPaymentEvent);
  driver.signal(unitsTakenSignal, acceptUnitsTaken);

  setHandler(orderViewQuery, () => buyView(m, Date.now(), driver.busy));
  setHandler(canRequestRmaQuery, (at?: string) => canRequestRma(m, at));

  // The opening write, unless the checkout that started the purchase (update-with-start) is already running
  // its step, which writes the order.
  const checkoutOpens = driver.busy && m.kind === "from_listing";
  if (!checkoutOpens) await driver.open();
  await driver.loop();
  return buyResult(m);
}

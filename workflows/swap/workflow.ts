/**
 * The swap workflow: one run per swap order (id swapWorkflowId(orderId)), the shared driver
 * (workflows/common/driver.ts) around the swap's machine (machine.ts swapMachine, over model.ts). Decisions:
 * ADR 0019, 0021; the kit it is made of: ADR 0023. Registered in workflows/index.ts; its activities are
 * activities/swap/index.ts. Nothing is written until the receiver checks out (the draft is the cart's).
 */
import { setHandler } from "@temporalio/workflow";
import { OrderDriver } from "../common/driver";
import { SWAP_INVALID_INPUT, swapViewQuery, type SwapInput } from "./contract";
import { SWAP_COMMANDS, swapMachine } from "./machine";
import { swapView } from "./model";

export async function swapOrderWorkflow(input: SwapInput): Promise<{ statename: string }> {
  const driver = new OrderDriver(swapMachine, input, SWAP_INVALID_INPUT);
  const m = driver.model;
  driver.commands(SWAP_COMMANDS);
  setHandler(swapViewQuery, () => swapView(m, driver.busy));
  await driver.loop();
  return { statename: m.statename };
}

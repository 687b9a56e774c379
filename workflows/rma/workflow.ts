/**
 * The RMA workflow: one run per RMA (id rmaWorkflowId(rmaId)), the shared driver (workflows/common/driver.ts)
 * around the RMA's machine (machine.ts rmaMachine, over model.ts). Decisions: ADR 0017; the kit it is made
 * of: ADR 0023. Registered in workflows/index.ts; its activities are activities/rma/index.ts (an RMA is an
 * order of type 3 in the read model: db/queries/rmas.ts).
 */
import { setHandler } from "@temporalio/workflow";
import { OrderDriver } from "../common/driver";
import {
  RMA_INVALID_INPUT,
  cardOnFileSignal,
  rmaViewQuery,
  type RmaInput,
  type RmaStage,
} from "./contract";
import { RMA_COMMANDS, rmaMachine } from "./machine";
import { acceptCardOnFile, rmaView } from "./model";

export async function rmaWorkflow(input: RmaInput): Promise<{ stage: RmaStage; charged: boolean }> {
  const driver = new OrderDriver(rmaMachine, input, RMA_INVALID_INPUT);
  const m = driver.model;
  driver.commands(RMA_COMMANDS);
  driver.signal(cardOnFileSignal, acceptCardOnFile);
  setHandler(rmaViewQuery, () => rmaView(m, driver.busy));
  await driver.open();
  await driver.loop();
  return { stage: m.stage, charged: m.charged };
}

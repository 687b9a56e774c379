/**
 * Starts a workflow, or joins the run of that id still going: a finished run's id may run again
 * (ALLOW_DUPLICATE). What a held movement's retry needs (docs/decisions/0044-payments-needing-attention.md):
 * staff's second click, or the relay's second pass, while one runs joins it; a finished retry may go again, as
 * it asks the provider before it sends anything.
 */
import { WorkflowExecutionAlreadyStartedError } from "@temporalio/common";

/** What of a Temporal client it uses (the app's and the worker's @temporalio/client Client). */
export interface WorkflowStarter {
  workflow: {
    start(
      workflowType: string,
      options: {
        taskQueue: string;
        workflowId: string;
        workflowIdReusePolicy: "ALLOW_DUPLICATE";
        args: unknown[];
      },
    ): Promise<unknown>;
  };
}

export async function startOrJoin(
  client: WorkflowStarter,
  opts: { taskQueue: string; workflowType: string; workflowId: string; args: unknown[] },
): Promise<"started" | "running"> {
  try {
    await client.workflow.start(opts.workflowType, {
      taskQueue: opts.taskQueue,
      workflowId: opts.workflowId,
      workflowIdReusePolicy: "ALLOW_DUPLICATE",
      args: opts.args,
    });
    return "started";
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return "running";
    throw err;
  }
}

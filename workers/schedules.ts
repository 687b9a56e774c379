/**
 * The Temporal Schedules the platform runs (no cron of its own), created by the worker when missing: staff's
 * daily e-mail of the held payments (docs/decisions/0044-payments-needing-attention.md) and the nightly
 * reconciliation of the ledger with the provider (docs/decisions/0045-nightly-reconciliation.md). An existing
 * schedule is left as it is (an operator may have paused it or changed its time in the Web UI).
 */
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from "@temporalio/client";
import {
  HELD_PAYMENTS_DIGEST_SCHEDULE_ID,
  HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE,
} from "../workflows/held-payments/contract";
import {
  RECONCILIATION_SCHEDULE_ID,
  RECONCILIATION_WORKFLOW_TYPE,
} from "../workflows/reconciliation/contract";

/** When staff's list goes out: 07:00 in the marketplace's zone. */
export const HELD_PAYMENTS_DIGEST_HOUR = 7;
/** When the reconciliation runs: 02:00 in the marketplace's zone (before the digest, which lists what it found). */
export const RECONCILIATION_HOUR = 2;

type Ensured = "created" | "exists";

/** One daily schedule at `hour` (its workflow id is the schedule's id: a run never overlaps the one before). */
async function ensureDaily(
  client: Client,
  opts: { taskQueue: string; timeZone: string },
  scheduleId: string,
  workflowType: string,
  hour: number,
): Promise<Ensured> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { calendars: [{ hour, minute: 0 }], timezone: opts.timeZone },
      action: {
        type: "startWorkflow",
        workflowType,
        workflowId: scheduleId,
        taskQueue: opts.taskQueue,
        args: [],
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: "1 day" },
    });
    return "created";
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return "exists";
    throw err;
  }
}

export async function ensureSchedules(
  client: Client,
  opts: { taskQueue: string; timeZone: string },
): Promise<{ digest: Ensured; reconciliation: Ensured }> {
  return {
    digest: await ensureDaily(
      client,
      opts,
      HELD_PAYMENTS_DIGEST_SCHEDULE_ID,
      HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE,
      HELD_PAYMENTS_DIGEST_HOUR,
    ),
    reconciliation: await ensureDaily(
      client,
      opts,
      RECONCILIATION_SCHEDULE_ID,
      RECONCILIATION_WORKFLOW_TYPE,
      RECONCILIATION_HOUR,
    ),
  };
}

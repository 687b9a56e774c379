/**
 * The Temporal Schedules the platform runs (no cron of its own), created by the worker when missing: staff's
 * daily e-mail of the held payments (docs/decisions/0044-payments-needing-attention.md), the nightly
 * reconciliation of the ledger with the provider (docs/decisions/0045-nightly-reconciliation.md) and the day's
 * markdown steps at the start of the marketplace's day (docs/decisions/0055-markdowns-by-one-daily-update.md).
 * An existing schedule is left as it is (an operator may have paused it or changed its time in the Web UI).
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
import { MARKDOWN_DAY_WORKFLOW_TYPE, MARKDOWN_SCHEDULE_ID } from "../workflows/markdown/contract";

/** When staff's list goes out: 07:00 in the marketplace's zone. */
export const HELD_PAYMENTS_DIGEST_HOUR = 7;
/** When the reconciliation runs: 02:00 in the marketplace's zone (before the digest, which lists what it found). */
export const RECONCILIATION_HOUR = 2;
/** When the day's markdown steps are taken: 00:00 in the marketplace's zone (docs/product/markdowns.md). */
export const MARKDOWN_HOUR = 0;

type Ensured = "created" | "exists";

/** One daily schedule at `hour` (its workflow id is the schedule's id: a run never overlaps the one before). */
async function ensureDaily(
  client: Client,
  opts: { taskQueue: string; timeZone: string },
  scheduleId: string,
  workflowType: string,
  hour: number,
  args: unknown[] = [],
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
        args,
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
): Promise<{ digest: Ensured; reconciliation: Ensured; markdowns: Ensured }> {
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
    markdowns: await ensureDaily(
      client,
      opts,
      MARKDOWN_SCHEDULE_ID,
      MARKDOWN_DAY_WORKFLOW_TYPE,
      MARKDOWN_HOUR,
      [{ timeZone: opts.timeZone }],
    ),
  };
}

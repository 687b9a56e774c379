/**
 * The Temporal Schedules the platform runs (no cron of its own), created by the worker when missing: staff's
 * daily e-mail of the held payments (docs/decisions/0044-payments-needing-attention.md). An existing schedule is
 * left as it is (an operator may have paused it or changed its time in the Web UI).
 */
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from "@temporalio/client";
import {
  HELD_PAYMENTS_DIGEST_SCHEDULE_ID,
  HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE,
} from "../workflows/held-payments/contract";

/** When staff's list goes out: 07:00 in the marketplace's zone. */
export const HELD_PAYMENTS_DIGEST_HOUR = 7;

export async function ensureSchedules(
  client: Client,
  opts: { taskQueue: string; timeZone: string },
): Promise<"created" | "exists"> {
  try {
    await client.schedule.create({
      scheduleId: HELD_PAYMENTS_DIGEST_SCHEDULE_ID,
      spec: {
        calendars: [{ hour: HELD_PAYMENTS_DIGEST_HOUR, minute: 0 }],
        timezone: opts.timeZone,
      },
      action: {
        type: "startWorkflow",
        workflowType: HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE,
        workflowId: HELD_PAYMENTS_DIGEST_SCHEDULE_ID,
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

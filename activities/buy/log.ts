/** The buy activities' logger and the translation of the errors every one of them may meet. */
import { ApplicationFailure, log as activityLog } from "@temporalio/activity";
import { StockIdempotencyConflictError } from "../../db/queries/stock";
import { CarrierIdempotencyConflictError } from "../carrier/sandbox";
import { IdempotencyConflictError } from "../payments/port";

/** The activity logger inside a worker; the console when called directly (tests, scripts). */
export const log = {
  info: (msg: string, meta?: Record<string, unknown>) => logWith("info", msg, meta),
  warn: (msg: string, meta?: Record<string, unknown>) => logWith("warn", msg, meta),
  error: (msg: string, meta?: Record<string, unknown>) => logWith("error", msg, meta),
};
function logWith(
  level: "info" | "warn" | "error",
  msg: string,
  meta?: Record<string, unknown>,
): void {
  try {
    activityLog[level](msg, meta);
  } catch {
    console[level](`[buy activities] ${msg}`, meta ?? "");
  }
}

/** A reused idempotency key (with other parameters) is a bug: a non-retryable "IdempotencyConflict". */
export function translate(err: unknown): unknown {
  if (
    err instanceof IdempotencyConflictError ||
    err instanceof StockIdempotencyConflictError ||
    err instanceof CarrierIdempotencyConflictError
  ) {
    return ApplicationFailure.nonRetryable(err.message, "IdempotencyConflict");
  }
  return err;
}

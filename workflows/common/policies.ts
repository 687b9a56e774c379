/**
 * How an order's effects are run, written once for every kind: the retry policies by name, the options of
 * each call policy (workflows/common/steps.ts CallPolicy), and the activity proxies the driver runs effects
 * with. Every call is a local activity, run inside the step's workflow task (ADR 0035, ADR 0023): the step's
 * database work, and the provider calls (payments, the carrier), whose idempotency keys make a call again
 * after a worker died answer the first call's result (tests/e2e/reliability.test.ts). The set-up processes
 * (card on file, payout setup) schedule theirs on the server, with the same policies (SETUP_CALLS).
 */
import {
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
  type RetryPolicy,
} from "@temporalio/workflow";
import type { CallPolicy } from "./steps";

/** An idempotency key reused with other parameters is a bug: never retried. */
const KEY_MISUSE = "IdempotencyConflict";

/**
 * Payments a retailer waits for (authorise, capture, save a card, set up a payout account): a few tries with the
 * same idempotency key, then the command fails; the `nonRetryable` failure types (a rejection, a reused key) at once.
 */
function waitedForPaymentRetry(...nonRetryable: string[]): RetryPolicy {
  return {
    initialInterval: "2s",
    backoffCoefficient: 2,
    maximumInterval: "20s",
    maximumAttempts: 5,
    nonRetryableErrorTypes: nonRetryable,
  };
}

/** The retry policies by name. */
export const RETRY = Object.freeze({
  /** The database and the carrier: retried until done, at most 30 s apart (an outage delays, never loses, a step). */
  untilDone: {
    initialInterval: "1s",
    backoffCoefficient: 2,
    maximumInterval: "30s",
    nonRetryableErrorTypes: [KEY_MISUSE],
  },
  /** Payments that must happen: retried until the provider accepts, at most 5 min apart. */
  payEventually: {
    initialInterval: "2s",
    backoffCoefficient: 2,
    maximumInterval: "5m",
    nonRetryableErrorTypes: [KEY_MISUSE],
  },
  /** Payments a retailer waits for: a few tries, then the command fails. */
  payNow: waitedForPaymentRetry(KEY_MISUSE, "PaymentRejected"),
  /** What may be lost without harm (a confirmation e-mail after the work is done): five tries, then given up. */
  bestEffort: { initialInterval: "1s", maximumAttempts: 5 },
} satisfies Record<string, RetryPolicy>);

/** The options of each call policy. */
export const CALL_OPTIONS: Readonly<Record<CallPolicy, LocalActivityOptions>> = Object.freeze({
  /** The step's database work: one transaction each, idempotent (dedupe keys, idempotency keys). */
  local: { startToCloseTimeout: "30s", retry: RETRY.untilDone },
  /** The carrier (pickups, call tags). */
  carrier: { startToCloseTimeout: "30s", retry: RETRY.untilDone },
  /** Payments a retailer waits for. */
  payNow: { startToCloseTimeout: "60s", retry: RETRY.payNow },
  /** Payments that must happen (releases, refunds, charges, payouts). */
  payEventually: { startToCloseTimeout: "60s", retry: RETRY.payEventually },
});

/** The activity functions of one call policy. */
export type Calls = Record<string, (input: unknown) => Promise<unknown>>;
/** The activity proxies a process runs its effects with, one per call policy. */
export type Proxies = Record<CallPolicy, Calls>;

/** The proxies of every order process (any activity name, with its policy's options). */
export function orderCalls(): Proxies {
  const calls = (policy: CallPolicy) =>
    proxyLocalActivities(CALL_OPTIONS[policy]) as unknown as Calls;
  return {
    local: calls("local"),
    carrier: calls("carrier"),
    payNow: calls("payNow"),
    payEventually: calls("payEventually"),
  };
}

/**
 * The options of a set-up process's activities (card on file, payout setup), scheduled by the server. Its
 * database work is retried until done, as an order step's: a database down for minutes after the provider
 * answered delays the run, it never fails it (a second run would make a second account or card).
 */
export const SETUP_CALLS = Object.freeze({
  /** Reads and writes of our database. */
  database: { startToCloseTimeout: "30s", retry: RETRY.untilDone },
  /** The confirmation e-mail (an outbox row): best effort, a failure never undoes a finished setup. */
  mail: { startToCloseTimeout: "30s", retry: RETRY.bestEffort },
  /**
   * A payment that must reach an answer, scheduled by the server (a held movement's retry,
   * workflows/held-payments): retried until the provider answers, as an order's payEventually.
   */
  payEventually: { startToCloseTimeout: "60s", retry: RETRY.payEventually },
} satisfies Record<string, ActivityOptions>);

/**
 * A payment a person waits for, run as a local activity (payNow), whose own `rejection` failure type (a card
 * declined for an offer's hold) is not retried either.
 */
export function payNowRefusing(rejection: string): LocalActivityOptions {
  return {
    ...CALL_OPTIONS.payNow,
    retry: waitedForPaymentRetry(KEY_MISUSE, "PaymentRejected", rejection),
  };
}

/** The payment provider in a set-up process: a few tries with the same idempotency key; its `rejection` failure type at once. */
export function setupProviderCalls(rejection: string): ActivityOptions {
  return { startToCloseTimeout: "60s", retry: waitedForPaymentRetry(rejection, KEY_MISUSE) };
}

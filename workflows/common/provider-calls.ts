/**
 * Provider calls (the payment provider, the carrier) as local activities, behind a patch (issue 9, "one trip
 * per step"; ADR 0015 "Versioning"). A regular activity costs a workflow task of its own to schedule what
 * follows it, and the Temporal server's CPU follows the workflow tasks; as a local activity the call runs
 * inside the step's workflow task, with the same options (less the heartbeat, which a local activity cannot
 * send: its worker keeps the workflow task alive while it runs) and the same idempotency keys. The keys are
 * the model's (workflow id + step + the step's own attempt), so when a worker dies mid-call the workflow task
 * times out, another worker replays it and calls again with the same key, and the provider answers the first
 * call's result (tests/e2e/reliability.test.ts; npm run bench:kills).
 *
 * An order whose history has its provider calls as regular activities (started before its kind's patch)
 * replays them as such; an order that reaches a provider call on the new code records the patch marker and
 * calls locally from then on.
 */
import { patched, proxyActivities, proxyLocalActivities, type ActivityOptions, type LocalActivityOptions, type RetryPolicy } from "@temporalio/workflow";
import type { Proxies } from "./driver";

type Calls = Proxies["local"];

/**
 * Payments a retailer waits for (authorise, capture, save a card, set up a payout account): a few tries with the
 * same idempotency key, then the command fails; the `nonRetryable` failure types (a rejection, a reused key) at once.
 */
export function waitedForPaymentRetry(...nonRetryable: string[]): RetryPolicy {
  return { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "20s", maximumAttempts: 5, nonRetryableErrorTypes: nonRetryable };
}

/**
 * The calls of one policy: local once `patchId` is patched in, else regular activities with `heartbeatTimeout`
 * (activities that run longer than a few seconds heartbeat, so one whose worker died is retried within seconds).
 */
export function providerCalls(patchId: string, options: LocalActivityOptions, heartbeatTimeout: ActivityOptions["heartbeatTimeout"] = "10s"): Calls {
  const regular = proxyActivities({ ...options, heartbeatTimeout }) as unknown as Calls;
  const local = proxyLocalActivities(options) as unknown as Calls;
  return new Proxy({} as Calls, {
    get: (_target, name) => (input: unknown) => (patched(patchId) ? local : regular)[name as string](input),
  });
}

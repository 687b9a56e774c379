/**
 * Held money movements' processes (docs/decisions/0044-payments-needing-attention.md): ids, inputs and results.
 * No Temporal imports, no I/O: the staff screen, the card and payout workflows and the worker's schedule name
 * them from here.
 *
 * - heldPaymentsRetryWorkflow: asks the provider whether a held movement's latest attempt happened, and makes a
 *   new attempt only when it did not; started by staff ("retry now"), and by the worker's relay for a movement
 *   whose retailer has since added a card or set up its payout account (workers/held-payments-relay.ts).
 * - heldPaymentsDigestWorkflow: staff's daily e-mail of what is open, run by a Temporal Schedule.
 */
export const HELD_PAYMENTS_RETRY_WORKFLOW_TYPE = "heldPaymentsRetryWorkflow";
export const HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE = "heldPaymentsDigestWorkflow";

/** The schedule that starts the daily digest (created by the worker when missing). */
export const HELD_PAYMENTS_DIGEST_SCHEDULE_ID = "held-payments-digest";

/** A retry of one movement: one run per attempt it has had (a double click, or the relay again, joins the run). */
export function heldRetryWorkflowId(paymentId: number, attempts: number): string {
  return `held-payment:${paymentId}:after-attempt-${attempts}`;
}

export interface HeldRetryInput {
  paymentId: number;
  /** The staff user who asked, or null (the relay). */
  actorId: number | null;
}

/** How one retry ended: paid (now, or the earlier attempt after all), still held, already ended, or another retry holds it. */
export type HeldRetryOutcome = "paid" | "held" | "ended" | "busy";

export interface HeldRetryResult {
  paymentId: number;
  outcome: HeldRetryOutcome;
}

/** The start of a movement's retry (temporal/start-or-join.ts startOrJoin takes it with a client and queue). */
export function heldRetryStart(input: HeldRetryInput & { attempts: number }) {
  const { attempts, ...args } = input;
  return {
    workflowType: HELD_PAYMENTS_RETRY_WORKFLOW_TYPE,
    workflowId: heldRetryWorkflowId(input.paymentId, attempts),
    args: [args],
  };
}

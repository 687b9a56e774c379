/**
 * The activities of the held movements' workflows (./workflow.ts): the interface only, implemented by
 * activities/held-payments.ts.
 */
import type { HeldRetryResult } from "./contract";

export interface HeldPaymentActivities {
  /**
   * One retry of a held movement: the provider is asked about its latest key; a new attempt (a new key) only
   * when that did not happen. A refusal keeps it held (returned); an outage is thrown, for Temporal to retry.
   */
  retryHeldPayment(input: { paymentId: number; actorId: number | null }): Promise<HeldRetryResult>;
  /** Staff's daily e-mail of the open held movements (`day`: the schedule's date, YYYY-MM-DD). */
  queueHeldPaymentsDigest(input: { day: string }): Promise<{ queued: number }>;
}

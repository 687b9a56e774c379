/**
 * Held money movements (./contract.ts; docs/decisions/0044-payments-needing-attention.md).
 *
 * Deterministic: imports only @temporalio/workflow, the kit's policies, domain/ and its activities' interface.
 */
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import { SETUP_CALLS } from "../common/policies";
import type { HeldPaymentActivities } from "./activities";
import type { HeldRetryInput, HeldRetryResult } from "./contract";

const readModel = proxyActivities<HeldPaymentActivities>(SETUP_CALLS.database);
/** A retry must reach an answer: an outage is retried until the provider answers (payEventually). */
const provider = proxyActivities<HeldPaymentActivities>(SETUP_CALLS.payEventually);

/** One retry of one held movement; still refused, it stays held (its retailer told again). */
export async function heldPaymentsRetryWorkflow(input: HeldRetryInput): Promise<HeldRetryResult> {
  return provider.retryHeldPayment(input);
}

/** Staff's daily list, for the day the schedule fired (its start time, in UTC). */
export async function heldPaymentsDigestWorkflow(): Promise<{ queued: number }> {
  const day = workflowInfo().startTime.toISOString().slice(0, 10);
  return readModel.queueHeldPaymentsDigest({ day });
}

/**
 * The nightly reconciliation (./contract.ts; docs/decisions/0045-nightly-reconciliation.md), run by a Temporal
 * Schedule: the day's ledger movements against the provider's records, a page at a time.
 *
 * Deterministic: imports only @temporalio/workflow, the kit's policies, domain/ and its activities' interface.
 */
import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import { reconciledDay } from "../../domain/reconciliation";
import { SETUP_CALLS } from "../common/policies";
import type { ReconciliationActivities } from "./activities";
import {
  RECONCILIATION_PAGE,
  type ReconciliationInput,
  type ReconciliationResult,
} from "./contract";

/** The provider is asked until it answers (an outage delays the run, it does not end it). */
const provider = proxyActivities<ReconciliationActivities>(SETUP_CALLS.payEventually);

export async function reconciliationWorkflow(
  input: ReconciliationInput = {},
): Promise<ReconciliationResult> {
  const day = input.day ?? reconciledDay(workflowInfo().startTime);
  let afterId = 0;
  let checked = 0;
  let recorded = 0;
  for (;;) {
    const page = await provider.reconcilePage({ day, afterId, limit: RECONCILIATION_PAGE });
    checked += page.checked;
    recorded += page.recorded;
    afterId = page.lastId;
    if (page.done) break;
  }
  const providerSide = await provider.reconcileProviderSide({ day });
  recorded += providerSide.recorded;
  // The run's last step: the statements read which days have a finished run.
  await provider.recordReconciliationRun({
    runId: workflowInfo().runId,
    day,
    checked,
    listed: providerSide.listed,
    recorded,
  });
  return { day, checked, recorded };
}

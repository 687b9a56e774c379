/**
 * The activities of the nightly reconciliation (./workflow.ts): the interface only, implemented by
 * activities/reconciliation.ts.
 */
import type { ReconciliationPage } from "./contract";

export interface ReconciliationActivities {
  /**
   * Checks one page of the day's sent movements with the provider (by the key each carries) and records the
   * differences. An outage is thrown, for Temporal to retry (a page again records nothing twice).
   */
  reconcilePage(input: {
    day: string;
    afterId: number;
    limit: number;
  }): Promise<ReconciliationPage>;
  /**
   * The provider's movements created on the day whose key the ledger does not hold ("missing with us"), recorded;
   * `listed` is null when the provider's adapter cannot list them.
   */
  reconcileProviderSide(input: {
    day: string;
  }): Promise<{ listed: number | null; recorded: number }>;
  /**
   * The run is finished: its day, when and what it counted are stored, once per workflow run
   * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
   */
  recordReconciliationRun(input: {
    runId: string;
    day: string;
    checked: number;
    listed: number | null;
    recorded: number;
  }): Promise<void>;
}

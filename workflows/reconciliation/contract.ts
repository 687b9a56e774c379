/**
 * The nightly reconciliation (docs/decisions/0045-nightly-reconciliation.md): ids, inputs and results. No Temporal
 * imports, no I/O: the worker's schedule names them from here.
 */
export const RECONCILIATION_WORKFLOW_TYPE = "reconciliationWorkflow";

/** The schedule that starts the nightly run (created by the worker when missing). */
export const RECONCILIATION_SCHEDULE_ID = "payments-reconciliation";

/** How many movements one activity checks with the provider. */
export const RECONCILIATION_PAGE = 100;

export interface ReconciliationInput {
  /** The UTC day to reconcile (YYYY-MM-DD); the schedule's run takes the day before it fired. */
  day?: string;
}

export interface ReconciliationPage {
  /** The last payments id checked (the next page starts after it). */
  lastId: number;
  checked: number;
  /** Differences newly recorded. */
  recorded: number;
  done: boolean;
}

export interface ReconciliationResult {
  day: string;
  checked: number;
  recorded: number;
}

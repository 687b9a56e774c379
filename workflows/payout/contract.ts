/**
 * The payout-setup workflow's contract: ids, names, input and result types, failure types. Imported by the
 * Remix action (at runtime: ids and constants only), the workflow and the activities. No Temporal imports,
 * no I/O, so the web bundle can import it without pulling in workflow code.
 */
import type { PayoutDetails, PayoutField } from "../../domain/payout";
import type { PayoutSubmission } from "../../domain/payout-tokens";

/** The workflow's type name: routes start it by this name (type-only import of the function). */
export const PAYOUT_SETUP_WORKFLOW_TYPE = "payoutSetupWorkflow";

/** One id per form submission: a duplicate submit of the same form attaches to the same run. */
export function payoutSetupWorkflowId(retailerId: number, submissionId: string): string {
  return `payout-setup:retailer-${retailerId}:${submissionId}`;
}

/** Steps of the workflow that call out (payment provider, mail); part of every idempotency key. */
export const PAYOUT_STEPS = {
  createAccount: "create-account",
  confirmationEmail: "confirmation-email",
} as const;
export type PayoutStep = (typeof PAYOUT_STEPS)[keyof typeof PAYOUT_STEPS];

/** Idempotency key = workflow id + step + attempt of that step (the one rule of every workflow). */
export { idempotencyKey } from "../common/contract";

export interface PayoutSetupInput {
  retailerId: number;
  submissionId: string;
  /**
   * What the page received (ADR 0050): the provider's tokens, the tax id's last four and the fields that are not
   * bank or identity numbers.
   */
  submission?: PayoutSubmission;
  /**
   * The full form, as pages sent it before ADR 0050: only in runs started then, which finish the old way.
   * Never set by the page now.
   */
  details?: PayoutDetails;
  /** When and from where the retailer accepted the provider's terms (ISO string, client IP). */
  tosAcceptance: { date: string; ip: string; userAgent?: string };
  /** Where the confirmation e-mail goes (the retailer's store e-mail or the form's e-mail). */
  notifyEmail?: string;
}

export interface PayoutSetupResult {
  status: "done";
  accountId: string;
}

/** ApplicationFailure type of a provider rejection (non-retryable; shown as form errors). */
export const PAYOUT_REJECTED = "PayoutRejected";
/** ApplicationFailure type of invalid workflow input (non-retryable). */
export const PAYOUT_INVALID_INPUT = "PayoutInvalidInput";

/** Details carried by a PayoutRejected failure: field errors (form field names) and form-level errors. */
export interface PayoutRejection {
  message: string;
  code?: string;
  field?: PayoutField;
}

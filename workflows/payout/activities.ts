/**
 * The activities the payout-setup workflow (workflows/payout/workflow.ts) calls: the interface only, owned by
 * the workflow. Implemented by activities/payout.ts (the payments port, the mail outbox) and
 * activities/readmodel/payout.ts (payout_setups, payout_profiles, retailers, listings), which import it as a
 * type. A provider rejection is a non-retryable PayoutRejected failure (./contract PAYOUT_REJECTED).
 */
import type { PayoutDetails, PayoutProfile } from "../../domain/payout";
import type { PayoutTokens } from "../../domain/payout-tokens";

/** The connected account from the browser's provider tokens (ADR 0050). */
export interface CreateConnectedAccountFromTokensActivityInput {
  idempotencyKey: string;
  retailerId: number;
  tokens: PayoutTokens;
  email: string;
  businessName: string;
}

/** The connected account from the full form: runs started before ADR 0050 only. */
export interface CreateConnectedAccountFromDetailsActivityInput {
  idempotencyKey: string;
  retailerId: number;
  details: PayoutDetails;
  tosAcceptance: { date: number; ip: string; userAgent?: string };
}

export type CreateConnectedAccountActivityInput =
  | CreateConnectedAccountFromTokensActivityInput
  | CreateConnectedAccountFromDetailsActivityInput;

export interface RecordPayoutAccountInput {
  retailerId: number;
  workflowId: string;
  accountId: string;
  /** Already redacted by the workflow: last four digits only. */
  profile: PayoutProfile;
}

export interface PayoutActivities {
  payoutSetupStarted(input: { retailerId: number; workflowId: string }): Promise<void>;
  payoutSetupFailed(input: {
    retailerId: number;
    workflowId: string;
    error: string;
  }): Promise<void>;
  /** One transaction: bt_merchant_id, payout profile, listings → active, setup done. Idempotent. */
  recordPayoutAccount(
    input: RecordPayoutAccountInput,
  ): Promise<{ recorded: boolean; listingsActivated: number }>;
  /** The connected account, through the payments port (retries reuse the idempotency key). */
  createConnectedAccount(
    input: CreateConnectedAccountActivityInput,
  ): Promise<{ accountId: string; bankAccountLast4: string }>;
  /** Confirmation e-mail into the outbox, once per workflow (dedupe key = workflow id + step). */
  sendPayoutConfirmation(input: {
    to: string;
    dedupeKey: string;
    accountLast4: string;
    businessName: string;
  }): Promise<void>;
}

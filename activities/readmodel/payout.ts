/** Read-model writes of the payout-setup workflow (payout_setups, payout_profiles, retailers, listings). */
import type { Db } from "../../db/client";
import {
  markPayoutSetupFailed,
  markPayoutSetupStarted,
  recordPayoutAccount as recordPayoutAccountQuery,
  type RecordPayoutAccountResult,
} from "../../db/queries/payout";
import type { PayoutProfile } from "../../domain/payout";

export interface RecordPayoutAccountInput {
  retailerId: number;
  workflowId: string;
  accountId: string;
  /** Already redacted by the workflow: last four digits only. */
  profile: PayoutProfile;
}

export function createPayoutReadModelActivities(db: Db) {
  return {
    async payoutSetupStarted(input: { retailerId: number; workflowId: string }): Promise<void> {
      await markPayoutSetupStarted(db, input);
    },
    async payoutSetupFailed(input: { retailerId: number; workflowId: string; error: string }): Promise<void> {
      await markPayoutSetupFailed(db, input);
    },
    /** One transaction: bt_merchant_id, payout profile, listings → active, setup done. Idempotent. */
    async recordPayoutAccount(input: RecordPayoutAccountInput): Promise<RecordPayoutAccountResult> {
      return recordPayoutAccountQuery(db, input);
    },
  };
}

/** Read-model writes of the payout-setup workflow (payout_setups, payout_profiles, retailers, listings). */
import type { Db } from "../../db/client";
import {
  markPayoutSetupFailed,
  markPayoutSetupStarted,
  recordPayoutAccount as recordPayoutAccountQuery,
} from "../../db/queries/payout";
import type { PayoutActivities } from "../../workflows/payout/activities";

export function createPayoutReadModelActivities(
  db: Db,
): Pick<PayoutActivities, "payoutSetupStarted" | "payoutSetupFailed" | "recordPayoutAccount"> {
  return {
    async payoutSetupStarted(input) {
      await markPayoutSetupStarted(db, input);
    },
    async payoutSetupFailed(input) {
      await markPayoutSetupFailed(db, input);
    },
    async recordPayoutAccount(input) {
      return recordPayoutAccountQuery(db, input);
    },
  };
}

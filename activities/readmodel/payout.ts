/** Read-model writes of the payout-setup workflow (payout_setups, payout_profiles, retailers, listings). */
import type { Db } from "../../db/client";
import {
  markPayoutSetupFailed,
  markPayoutSetupStarted,
  recordPayoutAccount as recordPayoutAccountQuery,
} from "../../db/queries/payout";
import { markHeldPaymentsDue } from "../../db/queries/held-payments";
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
      const recorded = await recordPayoutAccountQuery(db, input);
      // Payouts held for want of an account go again (docs/decisions/0044-payments-needing-attention.md).
      await markHeldPaymentsDue(db, input.retailerId, "payout");
      return recorded;
    },
  };
}

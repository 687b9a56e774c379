/** Read-model reads and writes of the card-on-file workflow (payment_methods). */
import type { Db } from "../../db/client";
import { markHeldPaymentsDue } from "../../db/queries/held-payments";
import { rmaWorkflowsAwaitingCharge } from "../../db/queries/rmas";
import { getPaymentCustomerId, recordPaymentMethod } from "../../db/queries/settings";
import type { CardActivities } from "../../workflows/card/activities";

export function createCardReadModelActivities(
  db: Db,
): Pick<CardActivities, "cardCustomerId" | "recordCard" | "rmasAwaitingCharge"> {
  return {
    async cardCustomerId(input) {
      return getPaymentCustomerId(db, input.retailerId);
    },
    async recordCard(input) {
      const recorded = await recordPaymentMethod(db, input);
      // Penalties held for want of a card go again (docs/decisions/0044-payments-needing-attention.md).
      await markHeldPaymentsDue(db, input.retailerId, "card");
      return recorded;
    },
    async rmasAwaitingCharge(input) {
      return rmaWorkflowsAwaitingCharge(db, input.retailerId);
    },
  };
}

/** Read-model reads and writes of the card-on-file workflow (payment_methods). */
import type { Db } from "../../db/client";
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
      return recordPaymentMethod(db, input);
    },
    async rmasAwaitingCharge(input) {
      return rmaWorkflowsAwaitingCharge(db, input.retailerId);
    },
  };
}

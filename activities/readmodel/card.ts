/** Read-model reads and writes of the card-on-file workflow (payment_methods). */
import type { Db } from "../../db/client";
import { rmaWorkflowsAwaitingCharge } from "../../db/queries/rmas";
import { getPaymentCustomerId, recordPaymentMethod } from "../../db/queries/settings";

export function createCardReadModelActivities(db: Db) {
  return {
    async cardCustomerId(input: { retailerId: number }): Promise<string | null> {
      return getPaymentCustomerId(db, input.retailerId);
    },
    async recordCard(input: {
      retailerId: number;
      providerPaymentMethodId: string;
      providerCustomerId: string | null;
      description: string;
      lastFour: string;
    }): Promise<{ recorded: boolean }> {
      return recordPaymentMethod(db, input);
    },
    /** The RMA workflows whose charge to this retailer waits for a card (told once the card is on file). */
    async rmasAwaitingCharge(input: { retailerId: number }): Promise<string[]> {
      return rmaWorkflowsAwaitingCharge(db, input.retailerId);
    },
  };
}

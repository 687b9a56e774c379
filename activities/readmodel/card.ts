/** Read-model reads and writes of the card-on-file workflow (payment_methods). */
import type { Db } from "../../db/client";
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
  };
}

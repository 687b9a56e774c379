/**
 * The card-on-file workflow's provider activities (the payments port), as its interface says
 * (workflows/card/activities.ts). Read-model writes: readmodel/card.ts.
 */
import { ApplicationFailure } from "@temporalio/activity";
import { CARD_MESSAGES } from "../domain/cards";
import type { CardActivities } from "../workflows/card/activities";
import { CARD_REJECTED, type CardRejection } from "../workflows/card/contract";
import { IdempotencyConflictError, PaymentRejectedError, type PaymentsPort } from "./payments/port";

/** Provider refusals become a non-retryable CardRejected failure with the message to show. */
function rejected(err: PaymentRejectedError): ApplicationFailure {
  const message = err.code === "card_declined" ? CARD_MESSAGES.declined : err.message;
  const rejection: CardRejection = { code: err.code, message };
  return ApplicationFailure.nonRetryable(message, CARD_REJECTED, rejection);
}

function translate(err: unknown): unknown {
  if (err instanceof PaymentRejectedError) return rejected(err);
  if (err instanceof IdempotencyConflictError)
    return ApplicationFailure.nonRetryable(err.message, "IdempotencyConflict");
  return err;
}

export function createCardActivities(deps: {
  payments: PaymentsPort;
}): Pick<CardActivities, "createTestCardPaymentMethod" | "attachCard"> {
  return {
    async createTestCardPaymentMethod(input) {
      try {
        const pm = await deps.payments.createPaymentMethodFromTestCard(input);
        return { paymentMethodId: pm.id, brand: pm.brand, last4: pm.last4 };
      } catch (err) {
        throw translate(err);
      }
    },
    async attachCard(input) {
      try {
        return await deps.payments.attachPaymentMethod(input);
      } catch (err) {
        throw translate(err);
      }
    },
  };
}

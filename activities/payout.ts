/** The payout-setup workflow's provider and mail activities, as its interface says (workflows/payout/activities.ts). */
import { ApplicationFailure } from "@temporalio/activity";
import type { PayoutActivities } from "../workflows/payout/activities";
import { PAYOUT_REJECTED, type PayoutRejection } from "../workflows/payout/contract";
import type { Mailer } from "./mail";
import { IdempotencyConflictError, PaymentRejectedError, type PaymentsPort } from "./payments/port";

export function createPayoutActivities(deps: {
  payments: PaymentsPort;
  mail: Mailer;
  appOrigin: string;
}): Pick<PayoutActivities, "createConnectedAccount" | "sendPayoutConfirmation"> {
  return {
    /**
     * Creates the connected account through the payments port: from the browser's tokens, or (a run started
     * before ADR 0050) from the full form. A provider rejection (bad routing
     * number, ...) is a non-retryable PayoutRejected failure carrying the field to show it under;
     * outages and 5xx stay retryable (the same idempotency key makes retries safe).
     */
    async createConnectedAccount(input) {
      try {
        const account =
          "tokens" in input
            ? await deps.payments.createConnectedAccountFromTokens(input)
            : await deps.payments.createConnectedAccount(input);
        return { accountId: account.id, bankAccountLast4: account.bankAccountLast4 };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          const rejection: PayoutRejection = {
            message: err.message,
            code: err.code,
            field: err.field,
          };
          throw ApplicationFailure.nonRetryable(err.message, PAYOUT_REJECTED, rejection);
        }
        if (err instanceof IdempotencyConflictError) {
          throw ApplicationFailure.nonRetryable(err.message, "IdempotencyConflict");
        }
        throw err;
      }
    },

    async sendPayoutConfirmation(input) {
      await deps.mail.send({
        to: input.to,
        kind: "payout-setup",
        dedupeKey: input.dedupeKey,
        subject: "Your payout details are set up",
        text: [
          `Hello,`,
          ``,
          `The payout details for ${input.businessName} are saved. Payouts will go to the bank account ending in ${input.accountLast4}.`,
          `Your listings are now visible to other retailers.`,
          ``,
          `You can review these details any time under Settings → Payout Info: ${new URL("/settings/payout", deps.appOrigin).toString()}`,
        ].join("\n"),
      });
    },
  };
}

/**
 * Payout setup: one run per submission of the merchant form (id from payoutSetupWorkflowId).
 *   1. record "started" in payout_setups
 *   2. create the connected account through the payments port (idempotency key <wf>:create-account:1)
 *   3. in one transaction: bt_merchant_id, payout profile (last four digits only), listings → active, done
 *   4. confirmation e-mail into the outbox (dedupe key <wf>:confirmation-email:1); best effort
 * A provider rejection fails the run with a non-retryable PayoutRejected failure whose details say which
 * form field to show the message under; the page shows it as a form error (400).
 *
 * Deterministic: imports only @temporalio/workflow, domain/ and its own activities' interface (./activities).
 */
import {
  ActivityFailure,
  ApplicationFailure,
  log,
  proxyActivities,
  workflowInfo,
} from "@temporalio/workflow";
import { SETUP_CALLS, setupProviderCalls } from "../common/policies";
import {
  lastFour,
  PAYOUT_PROVIDER_MESSAGES,
  payoutDetailsSchema,
  payoutProfileFromDetails,
  type PayoutField,
} from "../../domain/payout";
import {
  idempotencyKey,
  PAYOUT_INVALID_INPUT,
  PAYOUT_REJECTED,
  PAYOUT_STEPS,
  type PayoutRejection,
  type PayoutSetupInput,
  type PayoutSetupResult,
} from "./contract";
import type { PayoutActivities } from "./activities";

/** Database work: retried until done (workflows/common/policies.ts SETUP_CALLS). */
const readModel = proxyActivities<PayoutActivities>(SETUP_CALLS.database);
/** The payment provider: a few retries with the same idempotency key; rejections are not retried. */
const provider = proxyActivities<PayoutActivities>(setupProviderCalls(PAYOUT_REJECTED));
/** The confirmation e-mail is best effort: a failure never undoes a finished setup. */
const mail = proxyActivities<PayoutActivities>(SETUP_CALLS.mail);

function rejectionOf(err: unknown): PayoutRejection | undefined {
  if (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === PAYOUT_REJECTED
  ) {
    const detail = err.cause.details?.[0] as PayoutRejection | undefined;
    return detail ?? { message: err.cause.message };
  }
  return undefined;
}

export async function payoutSetupWorkflow(input: PayoutSetupInput): Promise<PayoutSetupResult> {
  const { workflowId } = workflowInfo();
  const { retailerId } = input;
  await readModel.payoutSetupStarted({ retailerId, workflowId });

  // The page validated already; the workflow re-checks its own input with the same schema.
  const parsed = payoutDetailsSchema.safeParse(input.details);
  if (!parsed.success) {
    const rejections: PayoutRejection[] = parsed.error.issues.map((i) => ({
      message: i.message,
      code: "invalid_input",
      field: typeof i.path[0] === "string" ? (i.path[0] as PayoutField) : undefined,
    }));
    await readModel.payoutSetupFailed({
      retailerId,
      workflowId,
      error: rejections[0]?.message ?? "Invalid details",
    });
    throw ApplicationFailure.nonRetryable(
      "The payout details are not valid",
      PAYOUT_INVALID_INPUT,
      ...rejections,
    );
  }
  const details = parsed.data;

  let account: { accountId: string; bankAccountLast4: string };
  try {
    account = await provider.createConnectedAccount({
      idempotencyKey: idempotencyKey(workflowId, PAYOUT_STEPS.createAccount, 1),
      retailerId,
      details,
      tosAcceptance: {
        date: Math.floor(Date.parse(input.tosAcceptance.date) / 1000),
        ip: input.tosAcceptance.ip,
        userAgent: input.tosAcceptance.userAgent,
      },
    });
  } catch (err) {
    const rejection = rejectionOf(err);
    const reason = rejection?.message ?? PAYOUT_PROVIDER_MESSAGES.unavailable;
    await readModel.payoutSetupFailed({ retailerId, workflowId, error: reason });
    if (rejection) throw ApplicationFailure.nonRetryable(reason, PAYOUT_REJECTED, rejection);
    throw ApplicationFailure.nonRetryable(reason, "PayoutProviderUnavailable");
  }

  const profile = payoutProfileFromDetails(details, input.tosAcceptance.date);
  await readModel.recordPayoutAccount({
    retailerId,
    workflowId,
    accountId: account.accountId,
    profile,
  });

  if (input.notifyEmail) {
    try {
      await mail.sendPayoutConfirmation({
        to: input.notifyEmail,
        dedupeKey: idempotencyKey(workflowId, PAYOUT_STEPS.confirmationEmail, 1),
        accountLast4: lastFour(details.account_number),
        businessName: details.buslegal_name,
      });
    } catch (err) {
      log.warn("payout confirmation e-mail failed", { workflowId, error: String(err) });
    }
  }

  return { status: "done", accountId: account.accountId };
}

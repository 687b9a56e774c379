/**
 * Payout setup: one run per submission of the merchant form (id from payoutSetupWorkflowId).
 *   1. record "started" in payout_setups
 *   2. create the connected account through the payments port (idempotency key <wf>:create-account:1), from
 *      the provider tokens the browser made (ADR 0050; a run started before it carries the full form instead)
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
  type PayoutProfile,
} from "../../domain/payout";
import {
  payoutProfileFromSubmission,
  payoutSubmissionSchema,
  payoutTokensOf,
} from "../../domain/payout-tokens";
import {
  idempotencyKey,
  PAYOUT_INVALID_INPUT,
  PAYOUT_REJECTED,
  PAYOUT_STEPS,
  type PayoutRejection,
  type PayoutSetupInput,
  type PayoutSetupResult,
} from "./contract";
import type { CreateConnectedAccountActivityInput, PayoutActivities } from "./activities";

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

/** What a run needs of its input, checked: the provider call's part, then the profile and mail from its answer. */
type Plan =
  | { ok: false; issues: { message: string; path: (string | number)[] }[] }
  | {
      ok: true;
      account: Omit<CreateConnectedAccountActivityInput, "idempotencyKey" | "retailerId">;
      profile: (bankAccountLast4: string) => PayoutProfile;
      accountLast4: (bankAccountLast4: string) => string;
      businessName: string;
    };

/** A page's submission (ADR 0050): the provider's tokens; the workflow re-checks it with the page's schema. */
function planOfSubmission(input: PayoutSetupInput): Plan {
  const parsed = payoutSubmissionSchema.safeParse(input.submission);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues };
  const s = parsed.data;
  return {
    ok: true,
    account: { tokens: payoutTokensOf(s), email: s.email, businessName: s.buslegal_name },
    profile: (last4) =>
      payoutProfileFromSubmission(s, {
        accountLast4: last4,
        tosAcceptedAt: input.tosAcceptance.date,
      }),
    accountLast4: (last4) => last4,
    businessName: s.buslegal_name,
  };
}

/** A run started before ADR 0050 with the full form: it finishes the way it started. */
function planOfDetails(input: PayoutSetupInput): Plan {
  const parsed = payoutDetailsSchema.safeParse(input.details);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues };
  const details = parsed.data;
  return {
    ok: true,
    account: {
      details,
      tosAcceptance: {
        date: Math.floor(Date.parse(input.tosAcceptance.date) / 1000),
        ip: input.tosAcceptance.ip,
        userAgent: input.tosAcceptance.userAgent,
      },
    },
    profile: () => payoutProfileFromDetails(details, input.tosAcceptance.date),
    accountLast4: () => lastFour(details.account_number),
    businessName: details.buslegal_name,
  };
}

export async function payoutSetupWorkflow(input: PayoutSetupInput): Promise<PayoutSetupResult> {
  const { workflowId } = workflowInfo();
  const { retailerId } = input;
  await readModel.payoutSetupStarted({ retailerId, workflowId });

  // The page validated already; the workflow re-checks its own input with the same schema.
  const plan = input.details !== undefined ? planOfDetails(input) : planOfSubmission(input);
  if (!plan.ok) {
    const rejections: PayoutRejection[] = plan.issues.map((i) => ({
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

  let account: { accountId: string; bankAccountLast4: string };
  try {
    account = await provider.createConnectedAccount({
      idempotencyKey: idempotencyKey(workflowId, PAYOUT_STEPS.createAccount, 1),
      retailerId,
      ...plan.account,
    } as CreateConnectedAccountActivityInput);
  } catch (err) {
    const rejection = rejectionOf(err);
    const reason = rejection?.message ?? PAYOUT_PROVIDER_MESSAGES.unavailable;
    await readModel.payoutSetupFailed({ retailerId, workflowId, error: reason });
    if (rejection) throw ApplicationFailure.nonRetryable(reason, PAYOUT_REJECTED, rejection);
    throw ApplicationFailure.nonRetryable(reason, "PayoutProviderUnavailable");
  }

  await readModel.recordPayoutAccount({
    retailerId,
    workflowId,
    accountId: account.accountId,
    profile: plan.profile(account.bankAccountLast4),
  });

  if (input.notifyEmail) {
    try {
      await mail.sendPayoutConfirmation({
        to: input.notifyEmail,
        dedupeKey: idempotencyKey(workflowId, PAYOUT_STEPS.confirmationEmail, 1),
        accountLast4: plan.accountLast4(account.bankAccountLast4),
        businessName: plan.businessName,
      });
    } catch (err) {
      log.warn("payout confirmation e-mail failed", { workflowId, error: String(err) });
    }
  }

  return { status: "done", accountId: account.accountId };
}

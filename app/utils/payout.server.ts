/**
 * Server side of the payout (merchant details) form, shared by /getpaid/ and Settings → Payout Info:
 * the loader data (prefill from payout_profiles, a fresh submission id, where the browser loads the provider's
 * Stripe.js from) and the action (Conform + Zod, then the payoutSetupWorkflow started by type name and awaited).
 * The bank account, the tax id and the date of birth go from the browser to the payment provider only; this
 * action receives its tokens (ADR 0050) and drops those fields if a hand-made post carries them.
 */
import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { ApplicationFailure, WorkflowFailedError, type WorkflowHandle } from "@temporalio/client";
import { z } from "zod";
import { getLatestPayoutSetup, getPayoutProfile } from "../../db/queries/payout";
import { PAYOUT_PROVIDER_MESSAGES, type PayoutField } from "../../domain/payout";
import {
  PAYOUT_PROVIDER_ONLY_FIELDS,
  payoutErrorList,
  payoutSubmissionSchema,
} from "../../domain/payout-tokens";
import {
  PAYOUT_INVALID_INPUT,
  PAYOUT_REJECTED,
  PAYOUT_SETUP_WORKFLOW_TYPE,
  payoutSetupWorkflowId,
  type PayoutRejection,
  type PayoutSetupInput,
} from "../../workflows/payout/contract";
import type { payoutSetupWorkflow } from "../../workflows/payout/workflow";
import { readFormData, requireRetailer } from "./auth.server";
import { parseSubmission } from "./form.server";
import { db } from "./db.server";
import { getEnv, paymentsProvider, type Env } from "./env.server";
import {
  getTemporalClient,
  isTemporalUnavailable,
  startWorkflowOnce,
  withTimeout,
} from "./temporal.server";

/** How long the page waits for the (short) workflow before showing "still processing". */
const RESULT_WAIT_MS = 25_000;

export const EXPIRED_FORM_MESSAGE = "This form has expired. Please submit it again.";

/** The form's submission id (one workflow per submission): the loader's UUID, else the form has expired. */
const SubmissionIdSchema = z.object({ submission_id: z.string().uuid() });

export type PayoutActionData = {
  result: SubmissionResult<string[]>;
  submissionId: string;
  /** The server's list of errors, shown in the "Errors" dialog. */
  errors: string[];
  /** Saved: where the page moves on to after its 2 s (docs/product/screens.md, "Settings and payout"). */
  next?: string;
};

/** Where the browser's Stripe.js comes from: Stripe's with its publishable key, the sandbox's stand-in, or none. */
export type PayoutTokenizer = { src: string; publishableKey: string } | null;

export function payoutTokenizer(env: Env = getEnv()): PayoutTokenizer {
  if (paymentsProvider(env) === "sandbox")
    return { src: "/sandbox/stripe.js", publishableKey: "pk_sandbox" };
  return env.STRIPE_PUBLISHABLE_KEY
    ? { src: "https://js.stripe.com/v3/", publishableKey: env.STRIPE_PUBLISHABLE_KEY }
    : null;
}

export async function payoutLoader(request: Request) {
  const auth = await requireRetailer(request);
  const retailer = auth.retailer;
  const [profile, latest] = await Promise.all([
    getPayoutProfile(db, retailer.id),
    getLatestPayoutSetup(db, retailer.id),
  ]);
  const defaultValue: Partial<Record<PayoutField, string>> = profile
    ? {
        first_name: profile.firstName,
        last_name: profile.lastName,
        email: profile.email,
        street_address: profile.streetAddress,
        locality: profile.locality,
        region: profile.region,
        postal_code: profile.postalCode,
        buslegal_name: profile.buslegalName,
        busstreet_address: profile.busstreetAddress,
        buslocality: profile.buslocality,
        busregion: profile.busregion,
        buspostal_code: profile.buspostalCode,
      }
    : { email: retailer.storeEmail || auth.contact?.email || "" };
  return {
    submissionId: randomUUID(),
    payoutSet: Boolean(retailer.btMerchantId),
    saved: profile
      ? {
          accountLast4: profile.accountLast4,
          bustaxIdLast4: profile.bustaxIdLast4,
          updatedAt: profile.updatedAt.toISOString(),
        }
      : null,
    pending: latest?.status === "started" && Date.now() - latest.createdAt.getTime() < 10 * 60_000,
    isStaff: auth.user.isStaff,
    tokenizer: payoutTokenizer(),
    defaultValue,
  };
}

function clientIp(request: Request, fromContext?: string): string {
  if (fromContext && /^[0-9a-fA-F:.]+$/.test(fromContext))
    return fromContext.replace(/^::ffff:/, "");
  const fwd = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = fwd || request.headers.get("x-real-ip")?.trim();
  return ip && /^[0-9a-fA-F:.]+$/.test(ip) ? ip : "127.0.0.1";
}

function summarise(result: SubmissionResult<string[]>): string[] {
  return payoutErrorList(result.error ?? {});
}

function rejectionsOf(err: unknown): PayoutRejection[] | null {
  if (!(err instanceof WorkflowFailedError)) return null;
  const cause = err.cause;
  if (
    cause instanceof ApplicationFailure &&
    (cause.type === PAYOUT_REJECTED || cause.type === PAYOUT_INVALID_INPUT)
  ) {
    const details = (cause.details ?? []) as PayoutRejection[];
    return details.length > 0 ? details : [{ message: cause.message }];
  }
  return null;
}

/**
 * Validates, starts payoutSetupWorkflow (one id per submission; a duplicate submit attaches to the run
 * already started) and waits for its result. Success answers with where to go next (retailers home, staff
 * /admin, settings back to the tab, each with a notice): the form shows its saved page 2 s first.
 */
export async function payoutAction(
  request: Request,
  opts: { successPath?: (isStaff: boolean) => string; context?: unknown } = {},
) {
  const auth = await requireRetailer(request);
  const retailerId = auth.retailer.id;
  const formData = await readFormData(request);
  // Never parsed, echoed or passed on: these go to the payment provider only.
  for (const field of PAYOUT_PROVIDER_ONLY_FIELDS) formData.delete(field);
  const submission = parseSubmission(formData, { schema: payoutSubmissionSchema });
  const submitted = parseSubmission(formData, { schema: SubmissionIdSchema });
  const submittedId = submitted.status === "success" ? submitted.value.submission_id : null;

  const reply = (result: SubmissionResult<string[]>, status: number, submissionId: string) =>
    data<PayoutActionData>({ result, submissionId, errors: summarise(result) }, { status });

  if (submission.status !== "success")
    return reply(submission.reply(), 400, submittedId ?? randomUUID());
  if (!submittedId)
    return reply(submission.reply({ formErrors: [EXPIRED_FORM_MESSAGE] }), 400, randomUUID());

  const submissionId = submittedId;
  const env = getEnv();
  const workflowId = payoutSetupWorkflowId(retailerId, submissionId);
  const input: PayoutSetupInput = {
    retailerId,
    submissionId,
    submission: submission.value,
    tosAcceptance: {
      date: new Date().toISOString(),
      ip: clientIp(request, (opts.context as { clientIp?: string } | undefined)?.clientIp),
      userAgent: request.headers.get("user-agent")?.slice(0, 300) || undefined,
    },
    notifyEmail: auth.retailer.storeEmail || submission.value.email,
  };
  const unavailable = () =>
    reply(
      submission.reply({ formErrors: [PAYOUT_PROVIDER_MESSAGES.unavailable] }),
      503,
      submissionId,
    );

  let handle: WorkflowHandle<typeof payoutSetupWorkflow>;
  try {
    handle = await startWorkflowOnce<typeof payoutSetupWorkflow>(
      await getTemporalClient(),
      PAYOUT_SETUP_WORKFLOW_TYPE,
      workflowId,
      [input],
    );
  } catch (err) {
    if (isTemporalUnavailable(err)) {
      console.error(
        `[payout] Temporal unavailable starting ${workflowId}:`,
        (err as Error).message,
      );
      return unavailable();
    }
    throw err;
  }

  try {
    const outcome = await withTimeout(handle.result(), RESULT_WAIT_MS);
    if (outcome === "timeout") throw redirect(`${new URL(request.url).pathname}?pending=1`);
  } catch (err) {
    if (err instanceof Response) throw err;
    const rejections = rejectionsOf(err);
    if (rejections) {
      const fieldErrors: Record<string, string[]> = {};
      const formErrors: string[] = [];
      for (const r of rejections) {
        if (r.field) (fieldErrors[r.field] ??= []).push(r.message);
        else formErrors.push(r.message);
      }
      // A corrected resubmission is a new submission: a new id, hence a new workflow.
      return reply(submission.reply({ fieldErrors, formErrors }), 400, randomUUID());
    }
    if (isTemporalUnavailable(err) || err instanceof WorkflowFailedError) {
      console.error(`[payout] ${workflowId} did not complete:`, (err as Error).message);
      return reply(
        submission.reply({ formErrors: [PAYOUT_PROVIDER_MESSAGES.unavailable] }),
        503,
        randomUUID(),
      );
    }
    throw err;
  }

  const target = opts.successPath
    ? opts.successPath(auth.user.isStaff)
    : auth.user.isStaff
      ? "/admin"
      : "/";
  // The saved page shows for 2 s, then moves on (PayoutForm).
  return data<PayoutActionData>({
    result: submission.reply({ resetForm: true }),
    submissionId: randomUUID(),
    errors: [],
    next: `${target}${target.includes("?") ? "&" : "?"}ref=payoutSaved`,
  });
}

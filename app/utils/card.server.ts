/**
 * Server side of Settings → Card On File: the loader data and the action, which validates the form and
 * runs cardOnFileWorkflow (started by type name, awaited like the payout setup).
 * - sandbox (no STRIPE_SECRET_KEY) and Stripe without a publishable key: the test card form; the number
 *   becomes the provider's test token here (domain/cards.ts) and is dropped.
 * - Stripe with STRIPE_PUBLISHABLE_KEY: Stripe Elements in the browser; the form posts the PaymentMethod id.
 */
import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import { WorkflowFailedError, ApplicationFailure, type WorkflowHandle } from "@temporalio/client";
import { z } from "zod";
import { getCardOnFile } from "../../db/queries/settings";
import { CARD_FIELDS, CARD_FORM_MESSAGES } from "../../domain/card-form";
import { CARD_MESSAGES } from "../../domain/cards";
import { SELLER_CARD_NEEDED } from "../../domain/messages";
import {
  CARD_ON_FILE_WORKFLOW_TYPE,
  CARD_REJECTED,
  cardOnFileWorkflowId,
  type CardOnFileInput,
  type CardRejection,
} from "../../workflows/card/contract";
import type { cardOnFileWorkflow } from "../../workflows/card/workflow";
import { readFormData, requireRetailer, type RetailerRow } from "./auth.server";
import { errorsReply, parseSubmission } from "./form.server";
import { parseCardForm } from "./card-form.server";
import { db } from "./db.server";
import { getEnv, paymentsProvider } from "./env.server";
import {
  getTemporalClient,
  isTemporalUnavailable,
  startWorkflowOnce,
  withTimeout,
} from "./temporal.server";

const RESULT_WAIT_MS = 25_000;

export type CardFormMode = "test_card" | "elements";

/**
 * What every page that takes a card shows (settings, checkout's payment, a swap's checkout): the retailer's
 * card on file (type and last four only), and how a new card is taken (Elements with Stripe's publishable
 * key, else the test card form).
 */
export async function cardFormData(retailerId: number) {
  const env = getEnv();
  const card = await getCardOnFile(db, retailerId);
  const mode: CardFormMode =
    env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY ? "elements" : "test_card";
  return {
    card: card
      ? {
          description: card.description,
          lastFour: card.lastFour,
          savedAt: card.createdAt.toISOString(),
        }
      : null,
    mode,
    provider: paymentsProvider(env),
    publishableKey: mode === "elements" ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
  };
}

export async function cardLoader(request: Request) {
  const auth = await requireRetailer(request);
  return { ...(await cardFormData(auth.retailer.id)), submissionId: randomUUID() };
}

/** A refused card: Conform's reply (per field, card_number / card_expiry / card_cvc, or the form's) and a new submission id. */
export interface CardActionData {
  result: SubmissionResult<string[]>;
  submissionId: string;
}

function fail(status: number, errors: Record<string, string>, submissionId = randomUUID()) {
  return data<CardActionData>({ result: errorsReply(errors), submissionId }, { status });
}

function rejectionOf(err: unknown): CardRejection | null {
  if (!(err instanceof WorkflowFailedError)) return null;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type === CARD_REJECTED) {
    return (
      (cause.details?.[0] as CardRejection | undefined) ?? {
        code: "card_error",
        message: cause.message,
      }
    );
  }
  return null;
}

/** The outcome of saving a card from a form: saved, or the errors to show (per field or "" for the form). */
export type SaveCardOutcome =
  | { ok: true }
  | { ok: false; status: number; errors: Record<string, string> };

/**
 * Puts the card of a form (card-form.server.ts: a Stripe Elements PaymentMethod id or the test card fields) on
 * file for the retailer (cardOnFileWorkflow, id per submission). Used by Settings → Card On File and by the
 * sell dialog (selling to a request needs a card).
 */
export async function saveCardFromForm(
  retailer: RetailerRow,
  submissionId: string,
  form: FormData,
): Promise<SaveCardOutcome> {
  const failed = (status: number, errors: Record<string, string>): SaveCardOutcome => ({
    ok: false,
    status,
    errors,
  });
  const parsed = parseCardForm(form);
  if (!parsed.ok) return failed(400, parsed.errors);
  if (parsed.card.source === "saved") return failed(400, { "": CARD_FORM_MESSAGES.chooseCard });
  const card: CardOnFileInput["card"] =
    parsed.card.source === "payment_method"
      ? { source: "payment_method", paymentMethodId: parsed.card.paymentMethodId }
      : { source: "test_card", testToken: parsed.card.testToken };

  const workflowId = cardOnFileWorkflowId(retailer.id, submissionId);
  const input: CardOnFileInput = {
    retailerId: retailer.id,
    submissionId,
    card,
    email: retailer.storeEmail || undefined,
  };
  let handle: WorkflowHandle<typeof cardOnFileWorkflow>;
  try {
    handle = await startWorkflowOnce<typeof cardOnFileWorkflow>(
      await getTemporalClient(),
      CARD_ON_FILE_WORKFLOW_TYPE,
      workflowId,
      [input],
    );
  } catch (err) {
    if (isTemporalUnavailable(err)) return failed(503, { "": CARD_MESSAGES.unavailable });
    throw err;
  }

  try {
    const outcome = await withTimeout(handle.result(), RESULT_WAIT_MS);
    if (outcome === "timeout") return failed(202, { "": CARD_MESSAGES.pending });
  } catch (err) {
    const rejection = rejectionOf(err);
    // A second card after a decline is a new submission: a new id, hence a new workflow (attempt).
    if (rejection)
      return failed(
        400,
        card.source === "test_card"
          ? { card_number: rejection.message }
          : { "": rejection.message },
      );
    if (isTemporalUnavailable(err) || err instanceof WorkflowFailedError)
      return failed(503, { "": CARD_MESSAGES.unavailable });
    throw err;
  }
  return { ok: true };
}

/**
 * Selling to a request counts as the seller's approval, and a seller approving a sale needs a card on file
 * (docs/product/orders.md, "Purchase from a listing"), as the buy flow's approval asks (need_payment_method): with a card on file, nothing
 * to do; else the card fields of the same form are saved first; without them, 402 with SELLER_CARD_NEEDED.
 */
export async function ensureSellerCard(
  retailer: RetailerRow,
  form: FormData,
): Promise<SaveCardOutcome> {
  if (await getCardOnFile(db, retailer.id)) return { ok: true };
  const sent = parseSubmission(form, { schema: SellerCardSchema });
  const typed =
    sent.status === "success" && (sent.value.card_number || sent.value.payment_method_id);
  if (!typed) return { ok: false, status: 402, errors: { "": SELLER_CARD_NEEDED } };
  return saveCardFromForm(retailer, sent.value.submission_id ?? randomUUID(), form);
}

/** The card's submission id (one card-on-file workflow per submission): a UUID the form carries. */
const submissionId = z.string().uuid();

/** Whether the sell dialog's card fields were filled in, and their submission (a new one when missing or malformed). */
const SellerCardSchema = z.object({
  [CARD_FIELDS.number]: z.string().trim().optional(),
  [CARD_FIELDS.paymentMethodId]: z.string().trim().optional(),
  submission_id: submissionId.optional().catch(undefined),
});

/** Settings → Card On File's form: its submission id (the card fields are card-form.server.ts's). */
const CardOnFileSchema = z.object({ submission_id: submissionId });

export async function cardAction(request: Request) {
  const auth = await requireRetailer(request);
  const form = await readFormData(request);
  const submitted = parseSubmission(form, { schema: CardOnFileSchema });
  if (submitted.status !== "success")
    return fail(400, { "": "This form has expired. Please submit it again." });
  const saved = await saveCardFromForm(auth.retailer, submitted.value.submission_id, form);
  if (!saved.ok) return fail(saved.status, saved.errors);
  return redirect("/settings/card?ref=cardSaved", 303);
}

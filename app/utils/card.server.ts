/**
 * Server side of Settings → Card On File: the loader data and the action, which validates the form and
 * runs cardOnFileWorkflow (started by type name, awaited like the payout setup).
 * - sandbox (no STRIPE_SECRET_KEY) and Stripe without a publishable key: the test card form; the number
 *   becomes the provider's test token here (domain/cards.ts) and is dropped.
 * - Stripe with STRIPE_PUBLISHABLE_KEY: Stripe Elements in the browser; the form posts the PaymentMethod id.
 */
import { randomUUID } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { WorkflowFailedError, ApplicationFailure, type WorkflowHandle } from "@temporalio/client";
import { z } from "zod";
import { getCardOnFile } from "../../db/queries/settings";
import { CARD_MESSAGES, PaymentMethodIdSchema, testCardFormSchema } from "../../domain/cards";
import { CARD_ON_FILE_WORKFLOW_TYPE, CARD_REJECTED, cardOnFileWorkflowId, type CardOnFileInput, type CardRejection } from "../../workflows/card/contract";
import type { cardOnFileWorkflow } from "../../workflows/card/workflow";
import { readFormData, requireRetailer } from "./auth.server";
import { db } from "./db.server";
import { getEnv, paymentsProvider } from "./env.server";
import { getTemporalClient, isTemporalUnavailable, startWorkflowOnce, withTimeout } from "./temporal.server";

const RESULT_WAIT_MS = 25_000;

export type CardFormMode = "test_card" | "elements";

export async function cardLoader(request: Request) {
  const auth = await requireRetailer(request);
  const env = getEnv();
  const card = await getCardOnFile(db, auth.retailer.id);
  const mode: CardFormMode = env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY ? "elements" : "test_card";
  return {
    card: card ? { description: card.description, lastFour: card.lastFour, savedAt: card.createdAt.toISOString() } : null,
    mode,
    provider: paymentsProvider(env),
    publishableKey: mode === "elements" ? env.STRIPE_PUBLISHABLE_KEY! : null,
    submissionId: randomUUID(),
  };
}

export interface CardActionData {
  ok: false;
  /** Per field (card_number, card_expiry, card_cvc) or "" for the form. */
  errors: Record<string, string>;
  submissionId: string;
}

function fail(status: number, errors: Record<string, string>, submissionId = randomUUID()) {
  return data<CardActionData>({ ok: false, errors, submissionId }, { status });
}

function rejectionOf(err: unknown): CardRejection | null {
  if (!(err instanceof WorkflowFailedError)) return null;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure && cause.type === CARD_REJECTED) {
    return (cause.details?.[0] as CardRejection | undefined) ?? { code: "card_error", message: cause.message };
  }
  return null;
}

export async function cardAction(request: Request) {
  const auth = await requireRetailer(request);
  const form = await readFormData(request);
  const submitted = z.string().uuid().safeParse(form.get("submission_id"));
  if (!submitted.success) return fail(400, { "": "This form has expired. Please submit it again." });
  const submissionId = submitted.data;

  let card: CardOnFileInput["card"];
  const pmRaw = form.get("payment_method_id");
  if (typeof pmRaw === "string" && pmRaw !== "") {
    const pm = PaymentMethodIdSchema.safeParse(pmRaw);
    if (!pm.success || paymentsProvider() !== "stripe") return fail(400, { "": pm.success ? CARD_MESSAGES.onlyTestCards : pm.error.issues[0].message });
    card = { source: "payment_method", paymentMethodId: pm.data };
  } else {
    const now = new Date();
    const parsed = testCardFormSchema({ year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 }).safeParse({
      card_number: form.get("card_number") ?? undefined,
      card_expiry: form.get("card_expiry") ?? undefined,
      card_cvc: form.get("card_cvc") ?? undefined,
    });
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const i of parsed.error.issues) {
        const k = String(i.path[0] ?? "");
        errors[k] ??= i.message;
      }
      return fail(400, errors);
    }
    card = { source: "test_card", testToken: parsed.data.testToken };
  }

  const env = getEnv();
  const retailerId = auth.retailer.id;
  const workflowId = cardOnFileWorkflowId(retailerId, submissionId);
  const input: CardOnFileInput = { retailerId, submissionId, card, email: auth.retailer.storeEmail || undefined };
  let handle: WorkflowHandle<typeof cardOnFileWorkflow>;
  try {
    handle = await startWorkflowOnce<typeof cardOnFileWorkflow>(await getTemporalClient(), CARD_ON_FILE_WORKFLOW_TYPE, workflowId, [input]);
  } catch (err) {
    if (isTemporalUnavailable(err)) return fail(503, { "": CARD_MESSAGES.unavailable });
    throw err;
  }

  try {
    const outcome = await withTimeout(handle.result(), RESULT_WAIT_MS);
    if (outcome === "timeout") return fail(202, { "": CARD_MESSAGES.pending });
  } catch (err) {
    const rejection = rejectionOf(err);
    // A second card after a decline is a new submission: a new id, hence a new workflow (attempt).
    if (rejection) return fail(400, card.source === "test_card" ? { card_number: rejection.message } : { "": rejection.message });
    if (isTemporalUnavailable(err) || err instanceof WorkflowFailedError) return fail(503, { "": CARD_MESSAGES.unavailable });
    throw err;
  }
  return redirect("/settings/card?ref=cardSaved", 303);
}

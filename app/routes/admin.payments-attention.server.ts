/**
 * /admin/payments-attention's server half (docs/decisions/0044-payments-needing-attention.md): the open held
 * movements as staff see them, and one function per intent: retry now (a retry workflow that asks the provider
 * before it sends anything), settled outside the platform (with a note), write off. Each is checked against
 * the staff user's permissions map first and written to the movement's audit (held_payment_events).
 */
import { data, redirect } from "@remix-run/node";
import {
  getHeldPayment,
  listOpenHeldPayments,
  resolveHeldPayment,
} from "../../db/queries/held-payments";
import {
  heldActionSchema,
  heldAge,
  heldKindLabel,
  heldReasonText,
  PAYMENTS_ATTENTION_PERMISSION,
  type HeldAction,
} from "../../domain/held-payments";
import { formatCents } from "../../domain/money";
import { differenceLabel } from "../../domain/reconciliation";
import { listOpenDifferences } from "../../db/queries/reconciliation";
import { startOrJoin } from "../../temporal/start-or-join";
import { heldRetryStart } from "../../workflows/held-payments/contract";
import { readFormData } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";
import { requireStaffRight } from "~/utils/permissions.server";
import { getTemporalClient } from "~/utils/temporal.server";

/** Notices named by ?done= after an action. */
export const DONE_NOTICES = {
  retry: "A new attempt was started. The list shows its outcome in a moment.",
  settle: "Recorded as settled outside the platform.",
  writeOff: "Written off.",
} as const;

export async function paymentsAttentionPage(request: Request) {
  await requireStaffRight(request, PAYMENTS_ATTENTION_PERMISSION);
  const now = new Date();
  const rows = await listOpenHeldPayments(db);
  const differences = await listOpenDifferences(db);
  const done = new URL(request.url).searchParams.get("done");
  return {
    notice:
      done && Object.hasOwn(DONE_NOTICES, done)
        ? DONE_NOTICES[done as keyof typeof DONE_NOTICES]
        : null,
    items: rows.map((r) => ({
      paymentId: r.paymentId,
      order: r.orderExternalId,
      orderId: r.orderId,
      retailer: r.storeName,
      kind: heldKindLabel(r.kind),
      amount: formatCents(r.amountCents),
      reason: heldReasonText(r.reason),
      age: heldAge(r.heldAt, now),
      attempts: r.attempts,
    })),
    // The nightly reconciliation's open differences (docs/decisions/0045-nightly-reconciliation.md).
    differences: differences.map((d) => ({
      id: d.id,
      day: d.day,
      difference: differenceLabel(d.kind),
      order: d.orderExternalId,
      retailer: d.storeName,
      kind: d.movementKind ? heldKindLabel(d.movementKind) : null,
      ledger: d.ledgerCents === null ? null : formatCents(d.ledgerCents),
      provider: d.providerCents === null ? null : formatCents(d.providerCents),
      key: d.idempotencyKey,
      providerRef: d.providerRef,
    })),
  };
}

type Reply = ReturnType<ReturnType<typeof parseSubmission>["reply"]>;
const refused = (paymentId: number | null, result: Reply, status: number) =>
  data({ paymentId, result }, { status });

export async function paymentsAttentionAction(request: Request) {
  const ctx = await requireStaffRight(request, PAYMENTS_ATTENTION_PERMISSION);
  const submission = parseSubmission(await readFormData(request), { schema: heldActionSchema });
  if (submission.status !== "success") {
    const id = Number(submission.payload.paymentId);
    return refused(Number.isSafeInteger(id) ? id : null, submission.reply(), 400);
  }
  const action = submission.value;
  const held = await getHeldPayment(db, action.paymentId);
  if (!held || held.resolvedAt)
    return refused(
      action.paymentId,
      submission.reply({ formErrors: ["This payment is no longer held."] }),
      409,
    );
  return action.intent === "retry"
    ? retryNow(ctx.user.id, held.attempts, action)
    : resolve(
        ctx.user.id,
        action,
        submission.reply({ formErrors: ["This payment is no longer held."] }),
      );
}

/** Retry now: a retry workflow (the provider is asked about the last attempt before a new one). */
async function retryNow(actorId: number, attempts: number, action: HeldAction) {
  await startOrJoin(await getTemporalClient(), {
    taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
    ...heldRetryStart({ paymentId: action.paymentId, attempts, actorId }),
  });
  return redirect("/admin/payments-attention?done=retry");
}

/** Settled outside the platform, or written off: ended without the provider, with the note in the audit. */
async function resolve(actorId: number, action: HeldAction, gone: Reply) {
  if (action.intent === "retry") throw new Error("unreachable");
  const ended = await resolveHeldPayment(db, {
    paymentId: action.paymentId,
    actorId,
    resolution: action.intent === "settle" ? "settled" : "written_off",
    note: action.note || null,
  });
  if (!ended) return refused(action.paymentId, gone, 409);
  return redirect(`/admin/payments-attention?done=${action.intent}`);
}

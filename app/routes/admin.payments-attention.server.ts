/**
 * /admin/payments-attention's server half (docs/decisions/0044-payments-needing-attention.md): the open held
 * movements as staff see them, and one function per intent: retry now (a retry workflow that asks the provider
 * before it sends anything), settled outside the platform (with a note), write off. Each is checked against
 * the staff user's permissions map first and written to the movement's audit (held_payment_events). Below
 * them, the nightly reconciliation's differences: staff resolve an open one with a note, checked and audited
 * the same way (reconciliation_difference_events;
 * docs/decisions/0052-reconciliation-actions-and-reconciled-months.md); the latest resolved are listed with
 * who resolved each, when and why.
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
import { formatDateTime } from "../../domain/date-format";
import { differenceLabel, resolveDifferenceSchema } from "../../domain/reconciliation";
import {
  listOpenDifferences,
  listResolvedDifferences,
  resolveDifference,
} from "../../db/queries/reconciliation";
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
  resolveDifference: "The difference is resolved.",
} as const;

type DifferenceRow = Awaited<ReturnType<typeof listOpenDifferences>>[number];

/** A difference as staff's table shows it (open or resolved). */
function differenceView(d: DifferenceRow) {
  return {
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
  };
}

export async function paymentsAttentionPage(request: Request) {
  await requireStaffRight(request, PAYMENTS_ATTENTION_PERMISSION);
  const now = new Date();
  const rows = await listOpenHeldPayments(db);
  const [differences, resolved] = await Promise.all([
    listOpenDifferences(db),
    listResolvedDifferences(db),
  ]);
  const zone = getEnv().MARKETPLACE_TZ;
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
    // The nightly reconciliation's open differences (docs/decisions/0045-nightly-reconciliation.md), and the
    // latest resolved (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
    differences: differences.map(differenceView),
    resolved: resolved.map((d) => ({
      ...differenceView(d),
      resolvedBy: d.resolvedByEmail,
      resolvedAt: formatDateTime(d.resolvedAt, zone),
      note: d.resolutionNote,
    })),
  };
}

type Reply = ReturnType<ReturnType<typeof parseSubmission>["reply"]>;
/** A refusal, for the row whose form it came from: a held movement's, or a difference's. */
const refused = (
  row: { paymentId?: number | null; differenceId?: number | null },
  result: Reply,
  status: number,
) =>
  data(
    { paymentId: row.paymentId ?? null, differenceId: row.differenceId ?? null, result },
    { status },
  );

const rowId = (raw: unknown) => {
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
};

/** One function per intent: a difference's resolution, or a held movement's actions. */
export async function paymentsAttentionAction(request: Request) {
  const ctx = await requireStaffRight(request, PAYMENTS_ATTENTION_PERMISSION);
  const formData = await readFormData(request);
  return formData.get("intent") === "resolveDifference"
    ? resolveDifferenceAction(ctx.user.id, formData)
    : heldAction(ctx.user.id, formData);
}

/** Resolve a difference: a note is required; one resolved meanwhile is refused (409), nothing written. */
async function resolveDifferenceAction(actorId: number, formData: FormData) {
  const submission = parseSubmission(formData, { schema: resolveDifferenceSchema });
  if (submission.status !== "success")
    return refused(
      { differenceId: rowId(submission.payload.differenceId) },
      submission.reply(),
      400,
    );
  const { differenceId, note } = submission.value;
  if (!(await resolveDifference(db, { differenceId, actorId, note })))
    return refused(
      { differenceId },
      submission.reply({ formErrors: ["This difference is no longer open."] }),
      409,
    );
  return redirect("/admin/payments-attention?done=resolveDifference");
}

async function heldAction(actorId: number, formData: FormData) {
  const submission = parseSubmission(formData, { schema: heldActionSchema });
  if (submission.status !== "success")
    return refused({ paymentId: rowId(submission.payload.paymentId) }, submission.reply(), 400);
  const action = submission.value;
  const held = await getHeldPayment(db, action.paymentId);
  if (!held || held.resolvedAt)
    return refused(
      { paymentId: action.paymentId },
      submission.reply({ formErrors: ["This payment is no longer held."] }),
      409,
    );
  return action.intent === "retry"
    ? retryNow(actorId, held.attempts, action)
    : resolve(
        actorId,
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
  if (!ended) return refused({ paymentId: action.paymentId }, gone, 409);
  return redirect(`/admin/payments-attention?done=${action.intent}`);
}

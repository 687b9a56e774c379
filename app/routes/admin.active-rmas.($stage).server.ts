/**
 * /admin/active-rmas's server half: the page's list and open card, and one function per intent of its
 * action (review the decision's amounts, decide; the carrier tools of the Shipping tab are
 * utils/carrier-tools.server.ts). Every answer is a Conform reply (parseSubmission, submission.reply(); a
 * refusal as formError). The decision goes to the RMA's workflow (decideRma), which books the return or
 * settles at once (docs/product/orders.md).
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { rowIdDigits } from "../../domain/ids";
import { getOrderDetail } from "../../db/queries/order-views/order-detail";
import {
  ADMIN_RMA_STATUSES,
  ADMIN_RMA_TABS,
  getRmaView,
  listAdminRmas,
  type AdminRmaStatus,
  type AdminRmaTab,
  type RmaPageView,
} from "../../db/queries/rmas";
import { dollarsInputSchema } from "../../domain/money";
import { rmaSettlement, type RmaSettlement } from "../../domain/rma-money";
import { decideRmaUpdate, RMA_ERRORS, type RmaDecisionCommand } from "../../workflows/rma/contract";
import {
  RMA_CARD_TABS,
  type AdminRmaActionData,
  type RmaCardTab,
} from "~/components/rma/AdminRmaCard";
import { db } from "~/utils/db.server";
import { paymentsDashboardBase } from "~/utils/env.server";
import { formError, parseSubmission } from "~/utils/form.server";
import { sendOrderCommand } from "~/utils/temporal.server";

export const isRmaTab = (v: string): v is AdminRmaTab => Object.hasOwn(ADMIN_RMA_TABS, v);
export const isRmaStatus = (v: string): v is AdminRmaStatus =>
  (ADMIN_RMA_STATUSES as readonly string[]).includes(v);

/** The list of a tab (25 a page, by status) and, with ?rma= (or ?order=, where the carrier tools come back), one RMA's card. */
export async function adminRmasPage(url: URL, stage: string | undefined) {
  const tabRaw = stage ?? "all";
  if (!isRmaTab(tabRaw)) throw new Response("Unknown tab", { status: 404 });
  const offsetRaw = url.searchParams.get("offset") ?? "0";
  if (!/^\d{1,7}$/.test(offsetRaw)) throw new Response("Bad offset", { status: 400 });
  const openRaw = url.searchParams.get("rma") ?? url.searchParams.get("order");
  if (openRaw !== null && !/^\d{1,9}$/.test(openRaw))
    throw new Response("Bad RMA", { status: 400 });
  const cardTabRaw = url.searchParams.get("tab") ?? "summary";
  const cardTab: RmaCardTab = (RMA_CARD_TABS as readonly string[]).includes(cardTabRaw)
    ? (cardTabRaw as RmaCardTab)
    : "summary";
  const statusRaw = url.searchParams.get("status") ?? "";
  if (statusRaw !== "" && !isRmaStatus(statusRaw))
    throw new Response("Unknown status", { status: 400 });
  const status = statusRaw === "" ? undefined : (statusRaw as AdminRmaStatus);
  const page = await listAdminRmas(db, {
    tab: tabRaw,
    status,
    offset: Number(offsetRaw),
    limit: 25,
  });
  const open = openRaw ? await getRmaView(db, Number(openRaw)) : null;
  const detail = open
    ? await getOrderDetail(db, open.id, { retailerId: null, isStaff: true })
    : null;
  const decidedRaw = url.searchParams.get("decided");
  const decided = decidedRaw !== null && /^\d{1,9}$/.test(decidedRaw) ? Number(decidedRaw) : null;
  return {
    tab: tabRaw,
    status: status ?? "",
    page,
    open,
    detail,
    cardTab,
    notice: url.searchParams.get("notice"),
    decided,
    now: Date.now(),
    dashboardBase: paymentsDashboardBase(),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Staff's decision: the one parser of the decision form and the amounts it would move, shown before staff
// confirm. Fields: rma, fee (dollars, empty = $0.00), and per line lines[i].id, lines[i].decision
// (approve | deny), lines[i].qty (approved units, 1 to the units requested), lines[i].comment.

const MAX_COMMENT = 1000;

function decisionSchema(rma: RmaPageView) {
  const requested = new Map(rma.lines.map((l) => [l.lineId, l.requested]));
  const line = z
    .object({
      id: z.coerce
        .number()
        .int()
        .refine((id) => requested.has(id), RMA_ERRORS.unknown_line),
      decision: z.enum(["approve", "deny"], {
        errorMap: () => ({ message: RMA_ERRORS.lines_pending }),
      }),
      qty: z.coerce
        .number({ invalid_type_error: "Enter a number of units." })
        .int("Enter a whole number of units.")
        .optional(),
      comment: z
        .string()
        .trim()
        .max(MAX_COMMENT, `A comment has at most ${MAX_COMMENT} characters.`)
        .optional(),
    })
    .superRefine((l, ctx) => {
      if (l.decision !== "approve") return;
      if (l.qty === undefined || l.qty < 1)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["qty"],
          message: "Approve at least one unit, or deny the line.",
        });
      else if (l.qty > (requested.get(l.id) ?? 0))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["qty"],
          message: RMA_ERRORS.approved_too_many,
        });
    });
  return z.object({
    rma: z.coerce
      .number()
      .int()
      .refine((id) => id === rma.id, "Choose an RMA."),
    // Empty (Conform sends no value) is $0.00.
    fee: dollarsInputSchema(RMA_ERRORS.bad_fee)
      .optional()
      .transform((cents) => cents ?? 0),
    lines: z
      .array(line)
      .max(rma.lines.length, RMA_ERRORS.unknown_line)
      .refine(
        (ls) => new Set(ls.map((l) => l.id)).size === rma.lines.length,
        RMA_ERRORS.lines_pending,
      ),
  });
}

/** What the decision would move, by the same function the RMA's workflow settles with (domain/rma-money). */
function rmaDecisionAmounts(rma: RmaPageView, cmd: RmaDecisionCommand): RmaSettlement | null {
  if (!rma.original) return null;
  const approved = new Map(cmd.lines.map((l) => [l.lineId, l.approvedQuantity]));
  try {
    return rmaSettlement(
      rma.original,
      rma.lines.map((l) => ({
        unitPriceCents: l.unitPriceCents,
        requestedQuantity: l.requested,
        approvedQuantity: approved.get(l.lineId) ?? null,
        reason: l.reason ?? 0,
        otherText: l.reasonOther,
      })),
      cmd.rmaFeeCents,
    );
  } catch (err) {
    if (err instanceof RangeError) return null; // the original order no longer matches the request
    throw err;
  }
}

/** The RMA a decision is about (its schema depends on the RMA's lines). */
const RmaChoice = z.object({ rma: rowIdDigits() });

/** A refusal: a form-level error with its status. */
const refuse = (status: number, message: string) =>
  data<AdminRmaActionData>(formError(message), { status });

/** The form's RMA, still pending, and staff's decision on it as the workflow's command; else the refusal. */
async function readDecision(form: FormData, staffUserId: number) {
  const chosen = parseSubmission(form, { schema: RmaChoice });
  const rma = chosen.status === "success" ? await getRmaView(db, chosen.value.rma) : null;
  if (!rma) return refuse(404, "Choose an RMA.");
  if (rma.stage !== "rmarequested") return refuse(409, RMA_ERRORS.wrong_state);
  const submission = parseSubmission(form, { schema: decisionSchema(rma) });
  if (submission.status !== "success")
    return data<AdminRmaActionData>(submission.reply(), { status: 400 });
  const v = submission.value;
  const cmd: RmaDecisionCommand = {
    staffUserId,
    rmaFeeCents: v.fee,
    lines: v.lines.map((l) => ({
      lineId: l.id,
      approvedQuantity: l.decision === "approve" ? (l.qty ?? 0) : 0,
      comment: l.comment ?? "",
    })),
  };
  return { rma, cmd, reply: submission.reply() };
}

/** "Process RMA": the amounts the decision would move; nothing is sent to the workflow yet. */
export async function reviewDecision(form: FormData, staffUserId: number) {
  const decision = await readDecision(form, staffUserId);
  if (!("rma" in decision)) return decision;
  const { rma, cmd, reply } = decision;
  const s = rmaDecisionAmounts(rma, cmd);
  if (!s)
    return refuse(409, "This RMA no longer matches its order: ask an engineer to look at it.");
  return data<AdminRmaActionData>({
    ...reply,
    review: {
      rmaId: rma.id,
      cmd,
      victimRefundCents: s.victimRefundCents,
      perpetratorChargeCents: s.perpetratorChargeCents,
      approvedValueCents: s.approvedValueCents,
      returnShippingCents: s.rmaShippingCents,
      rmaFeeCents: s.rmaFeeCents,
      feeRefundCents: s.feeRefundCents,
      originalShippingCents: s.originalShippingRefundCents,
      declined: s.declined,
    },
  });
}

/**
 * "Confirm and process": the decision sent to the RMA's workflow. After a successful save the card closes:
 * staff go back to the list they were on, with a notice that links to the RMA (docs/product/screens.md).
 */
export async function decide(
  request: Request,
  stage: string | undefined,
  form: FormData,
  staffUserId: number,
) {
  const decision = await readDecision(form, staffUserId);
  if (!("rma" in decision)) return decision;
  const { rma, cmd } = decision;
  const out = await sendOrderCommand("rma", rma, decideRmaUpdate, cmd);
  if (!out.ok) return refuse(out.status, out.message);
  const from = new URL(request.url).searchParams;
  const back = new URLSearchParams({ notice: "decided", decided: String(rma.id) });
  const status = from.get("status");
  if (status && isRmaStatus(status)) back.set("status", status);
  throw redirect(`/admin/active-rmas/${stage && isRmaTab(stage) ? stage : "all"}?${back}`, 303);
}

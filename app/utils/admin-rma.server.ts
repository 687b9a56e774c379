/**
 * Staff's decision on an RMA (/admin/active-rmas; docs/product/screens.md, "Staff: RMAs"): the one parser of the decision form
 * (Conform + Zod) and the amounts it would move, shown before staff confirm.
 *
 * Fields: rma, fee (dollars, empty = $0.00), and per line lines[i].id, lines[i].decision (approve | deny),
 * lines[i].qty (approved units, 1 to the units requested), lines[i].comment.
 */
import { z } from "zod";
import type { RmaPageView } from "../../db/queries/rmas";
import { dollarsInputSchema } from "../../domain/money";
import { rmaSettlement, type RmaSettlement } from "../../domain/rma-money";
import { RMA_ERRORS, type RmaDecisionCommand } from "../../workflows/rma/contract";
import { parseSubmission } from "./form.server";

const MAX_COMMENT = 1000;

function decisionSchema(rma: RmaPageView) {
  const requested = new Map(rma.lines.map((l) => [l.lineId, l.requested]));
  const line = z
    .object({
      id: z.coerce.number().int().refine((id) => requested.has(id), RMA_ERRORS.unknown_line),
      decision: z.enum(["approve", "deny"], { errorMap: () => ({ message: RMA_ERRORS.lines_pending }) }),
      qty: z.coerce.number({ invalid_type_error: "Enter a number of units." }).int("Enter a whole number of units.").optional(),
      comment: z.string().trim().max(MAX_COMMENT, `A comment has at most ${MAX_COMMENT} characters.`).optional(),
    })
    .superRefine((l, ctx) => {
      if (l.decision !== "approve") return;
      if (l.qty === undefined || l.qty < 1) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["qty"], message: "Approve at least one unit, or deny the line." });
      else if (l.qty > (requested.get(l.id) ?? 0)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["qty"], message: RMA_ERRORS.approved_too_many });
    });
  return z.object({
    rma: z.coerce.number().int().refine((id) => id === rma.id, "Choose an RMA."),
    // Empty (Conform sends no value) is $0.00.
    fee: dollarsInputSchema(RMA_ERRORS.bad_fee)
      .optional()
      .transform((cents) => cents ?? 0),
    lines: z
      .array(line)
      .max(rma.lines.length, RMA_ERRORS.unknown_line)
      .refine((ls) => new Set(ls.map((l) => l.id)).size === rma.lines.length, RMA_ERRORS.lines_pending),
  });
}

export type RmaDecisionParse = { ok: true; cmd: RmaDecisionCommand } | { ok: false; error: string; fieldErrors: Record<string, string> };

/** The decision form of `rma` as the workflow's command, or its first error and one error per field. */
export function parseRmaDecision(form: FormData, rma: RmaPageView, staffUserId: number): RmaDecisionParse {
  const submission = parseSubmission(form, { schema: decisionSchema(rma) });
  if (submission.status !== "success") {
    const fieldErrors: Record<string, string> = {};
    for (const [name, messages] of Object.entries(submission.error ?? {})) if (messages?.[0]) fieldErrors[name] = messages[0];
    return { ok: false, error: Object.values(fieldErrors)[0] ?? RMA_ERRORS.lines_pending, fieldErrors };
  }
  const v = submission.value;
  return {
    ok: true,
    cmd: {
      staffUserId,
      rmaFeeCents: v.fee,
      lines: v.lines.map((l) => ({ lineId: l.id, approvedQuantity: l.decision === "approve" ? (l.qty ?? 0) : 0, comment: l.comment ?? "" })),
    },
  };
}

/** What the decision would move, by the same function the RMA's workflow settles with (domain/rma-money). */
export function rmaDecisionAmounts(rma: RmaPageView, cmd: RmaDecisionCommand): RmaSettlement | null {
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

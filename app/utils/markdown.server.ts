/**
 * The seller's markdown schedule on their listing's edit page (docs/product/markdowns.md): what the panel shows
 * and its four intents (markdown = set or replace, markdown-pause, markdown-resume, markdown-cancel). A refusal
 * comes back with its message, a 4xx and nothing written (db/queries/markdowns.ts).
 */
import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { z } from "zod";
import {
  commandMarkdown,
  daysToSell,
  getMarkdownView,
  setMarkdown,
} from "../../db/queries/markdowns";
import { localDateISO } from "../../domain/business-days";
import {
  MarkdownCommandSchema,
  MarkdownFormSchema,
  suggestedTerms,
  termsProblems,
  type MarkdownSchedule,
  type MarkdownTerms,
} from "../../domain/markdown";
import { formatCents } from "../../domain/money";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { parseSubmission } from "~/utils/form.server";

export interface MarkdownPanelData {
  /** The schedule in words, or null without one. */
  summary: string | null;
  status: MarkdownSchedule["status"] | null;
  next: string | null;
  /** Without a schedule: the marketplace's suggestion (median days to sell, at least 20 sales), or null. */
  suggestion: string | null;
  history: { day: string; from: string; to: string }[];
  defaultValue: Record<string, string>;
  today: string;
}

export interface MarkdownActionData {
  markdown: { result: SubmissionResult<string[]>; message: string | null };
}

function today(): string {
  return localDateISO(Date.now(), getEnv().MARKETPLACE_TZ);
}

/** The schedule in the seller's words: "10% every 7 days, floor $24.00, until 2026-12-31". */
function summaryOf(s: MarkdownSchedule): string {
  const step = s.stepKind === "percent" ? `${s.stepValue}%` : formatCents(s.stepValue);
  const until = s.endDate ? `, until ${s.endDate}` : "";
  return `${step} every ${s.everyDays} ${s.everyDays === 1 ? "day" : "days"}, floor ${formatCents(s.floorCents)}${until}`;
}

/** The form's values of a schedule's terms. */
function formValues(t: MarkdownTerms): Record<string, string> {
  return {
    stepKind: t.stepKind,
    step: t.stepKind === "percent" ? String(t.stepValue) : (t.stepValue / 100).toFixed(2),
    everyDays: String(t.everyDays),
    floorKind: t.floorKind,
    floor: t.floorKind === "percent" ? String(t.floorValue) : (t.floorValue / 100).toFixed(2),
    endDate: t.endDate ?? "",
  };
}

export async function markdownPanel(listingId: number): Promise<MarkdownPanelData> {
  const v = await getMarkdownView(db, listingId);
  const s = v?.schedule;
  const figures = s ? null : await daysToSell(db, listingId);
  const suggested =
    figures?.medianDays != null ? suggestedTerms(figures.medianDays, figures.sales) : null;
  return {
    summary: s ? summaryOf(s) : null,
    status: s?.status ?? null,
    next: v?.next?.text ?? null,
    suggestion:
      suggested && figures
        ? `Suggested from ${figures.sales} sales of this brand and category (median ${Math.round(figures.medianDays ?? 0)} days to sell): ${suggested.stepValue}% every ${suggested.everyDays} days, floor ${suggested.floorValue}% of the catalogue price.`
        : null,
    history: (v?.history ?? []).map((h) => ({
      day: h.day,
      from: formatCents(h.fromCents),
      to: formatCents(h.toCents),
    })),
    defaultValue: s
      ? formValues(s)
      : suggested
        ? formValues(suggested)
        : { stepKind: "percent", everyDays: "7", floorKind: "percent" },
    today: today(),
  };
}

/** One of the panel's intents on the seller's (`retailerId`) listing. */
export async function markdownAction(form: FormData, listingId: number, retailerId: number) {
  const reply = (result: SubmissionResult<string[]>, message: string | null, status = 200) =>
    data<MarkdownActionData>({ markdown: { result, message } }, { status });
  if (form.get("intent") === "markdown") {
    const submission = parseSubmission(form, { schema: MarkdownFormSchema });
    if (submission.status !== "success") return reply(submission.reply(), null, 400);
    const r = await setMarkdown(db, {
      listingId,
      retailerId,
      terms: submission.value,
      today: today(),
    });
    if (!r.ok) {
      const fieldErrors = Object.fromEntries(
        Object.entries(r.fieldErrors ?? {}).map(([k, m]) => [k, [m]]),
      );
      return reply(
        submission.reply(r.fieldErrors ? { fieldErrors } : { formErrors: [r.message] }),
        null,
        r.status,
      );
    }
    return reply(submission.reply(), r.message);
  }
  const submission = parseSubmission(form, { schema: MarkdownCommandSchema });
  if (submission.status !== "success") return reply(submission.reply(), null, 400);
  const command = submission.value.intent.replace("markdown-", "") as "pause" | "resume" | "cancel";
  const r = await commandMarkdown(db, { listingId, retailerId, command, today: today() });
  if (!r.ok) return reply(submission.reply({ formErrors: [r.message] }), null, r.status);
  return reply(submission.reply(), r.message);
}

/** The wizard's box "Lower the price on a schedule" (its fields are the panel's form's, MarkdownFormSchema). */
const WizardMarkdownBox = z.object({ markdown: z.literal("on").optional() });

/**
 * The optional schedule of the listing wizard's last stage (a new listing's price is the catalogue's), checked
 * before the listing is saved: null when the box is not ticked, its terms, or the messages that refuse it, by
 * field (MarkdownFields shows each under its field; nothing is saved then).
 */
export function wizardMarkdown(
  form: FormData,
  catalogueCents: number,
):
  | { ok: true; terms: MarkdownTerms | null }
  | { ok: false; fieldErrors: Record<string, string[]> } {
  const box = parseSubmission(form, { schema: WizardMarkdownBox });
  if (box.status !== "success" || box.value.markdown !== "on") return { ok: true, terms: null };
  const fields = new FormData();
  for (const [k, v] of form) fields.append(k, v);
  fields.set("intent", "markdown");
  const submission = parseSubmission(fields, { schema: MarkdownFormSchema });
  if (submission.status !== "success") {
    const fieldErrors: Record<string, string[]> = {};
    for (const [name, errors] of Object.entries(submission.error ?? {}))
      if (errors?.length) fieldErrors[name] = errors;
    return { ok: false, fieldErrors };
  }
  const problems = termsProblems(submission.value, {
    catalogueCents,
    currentCents: catalogueCents,
    today: today(),
  });
  const fieldErrors = Object.fromEntries(
    Object.entries(problems).flatMap(([name, message]) => (message ? [[name, [message]]] : [])),
  );
  return Object.keys(fieldErrors).length > 0
    ? { ok: false, fieldErrors }
    : { ok: true, terms: submission.value };
}

/** The wizard's schedule on the listing it has just saved (checked by wizardMarkdown first). */
export async function setWizardMarkdown(
  listingId: number,
  retailerId: number,
  terms: MarkdownTerms,
) {
  return setMarkdown(db, { listingId, retailerId, terms, today: today() });
}

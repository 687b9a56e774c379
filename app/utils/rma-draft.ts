/**
 * The RMA wizard's draft as the pages carry it (shared by the route's component and app/utils/rma.server.ts):
 * the steps, the draft's shape and its hidden fields. q.<line> units, r.<line> reason, o.<line> the "other"
 * text, p.<line> stored picture names (repeated), and the four contact fields.
 */
import type { SubmissionResult } from "@conform-to/react";

export const RMA_STEPS = ["units", "pictures", "contact", "confirm"] as const;
export type RmaStepName = (typeof RMA_STEPS)[number];
export const RMA_STEP_LABELS: Record<RmaStepName, string> = {
  units: "Select Unit(s)",
  pictures: "Pictures",
  contact: "Contact Info",
  confirm: "Confirm",
};

export interface RmaDraftLine {
  quantity: number;
  reason: number | null;
  other: string;
  pictures: string[];
}
export interface RmaDraft {
  lines: Record<number, RmaDraftLine>;
  contact: {
    contact_name: string;
    contact_email: string;
    contact_phone: string;
    packing_slip_name: string;
  };
}
export type RmaErrors = Record<string, string>;

/** What the wizard's page shows: the step, the draft so far, its amount, its pictures' URLs, the action's reply. */
export type RmaStepData = {
  step: RmaStepName;
  draft: RmaDraft;
  amountCents: number;
  pictureUrls: Record<string, string>;
  result: SubmissionResult<string[]> | null;
};

/** The draft as hidden fields (every step's form carries the others' answers). */
export function draftFields(d: RmaDraft, except: RmaStepName): [string, string][] {
  const out: [string, string][] = [];
  for (const [id, l] of Object.entries(d.lines)) {
    if (except !== "units") {
      out.push([`q.${id}`, String(Math.max(0, l.quantity))]);
      if (l.reason !== null) out.push([`r.${id}`, String(l.reason)]);
      if (l.other) out.push([`o.${id}`, l.other]);
    }
    for (const p of l.pictures) out.push([`p.${id}`, p]);
  }
  if (except !== "contact") for (const [k, v] of Object.entries(d.contact)) if (v) out.push([k, v]);
  return out;
}

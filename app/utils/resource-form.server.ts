/**
 * The generic form screen's server half (docs/product/screens.md, "Staff: generic lists and forms"): a row as form values, the choosers'
 * first options, and the save: parse with the resource's Zod schema (schemaFor), then db/queries. Bad input is
 * answered with field errors and a 400, nothing saved.
 */
import { data } from "@remix-run/node";
import { formatSortableDate } from "../../domain/date-format";
import { centsToDecimalString } from "../../domain/money";
import {
  CHOOSER_LIMIT,
  schemaFor,
  type ResourceDef,
  type ResourceName,
  type ResourceValues,
} from "../../domain/resources";
import {
  chooserOptions,
  getResourceRow,
  saveResource,
  type SaveResult,
} from "../../db/queries/admin-resources";
import {
  getBrandLink,
  noticeBrandLinkChange,
  setRetailerStatus,
} from "../../db/queries/retailer-status";
import type { RetailerStatus } from "../../db/queries/retailers";
import { db } from "./db.server";
import { getEnv } from "./env.server";
import { parseSubmission, readFormData } from "./form.server";
import { noticeLinks } from "./mail.server";

/** The generic form's values as the page holds them (strings; lists as string arrays). */
export type FormValue = string | string[];
export type FormValues = Record<string, FormValue>;
/** One option of a relationship field's chooser. */
export type ChooserOption = { id: number; display_name: string };

/** A database row as the form's values (strings; lists as string arrays; cents as dollars). */
export function rowToFormValues(
  def: ResourceDef,
  row: Record<string, unknown>,
  zone: string = getEnv().MARKETPLACE_TZ,
): FormValues {
  const out: FormValues = {};
  for (const f of def.fields) {
    const v = row[f.name];
    if (v === null || v === undefined) out[f.name] = "";
    else if (Array.isArray(v)) out[f.name] = v.map(String);
    else if (f.type === "decimal" && typeof v === "number") out[f.name] = centsToDecimalString(v);
    // A date input shows the instant's day in the marketplace zone (docs/product/windows.md, "Time zone"), not UTC's.
    else if (v instanceof Date) out[f.name] = formatSortableDate(v, zone);
    else out[f.name] = String(v);
  }
  return out;
}

/** The first options of every relationship field (filtered ones by their parent's value) and the chosen labels. */
export async function chooserData(
  def: ResourceDef,
  values: FormValues,
  labels: Record<string, Record<number, string>> = {},
): Promise<Record<string, { options: ChooserOption[]; label?: string }>> {
  const out: Record<string, { options: ChooserOption[]; label?: string }> = {};
  for (const f of def.fields) {
    if (f.type !== "field" || !f.relationship_resource) continue;
    const filters: Record<string, string> = { ...(f.extra_filters ?? {}) };
    let options: ChooserOption[] = [];
    if (f.filter) {
      const parent = values[f.filter.field];
      if (typeof parent === "string" && parent !== "") filters[f.filter.param] = parent;
    }
    if (!f.read_only && (!f.filter || filters[f.filter.param])) {
      options = await chooserOptions(db, f.relationship_resource as ResourceName, {
        filters,
        limit: CHOOSER_LIMIT,
      });
    }
    const chosen = Number(values[f.name]);
    out[f.name] = { options, label: labels[f.name]?.[chosen] };
  }
  return out;
}

export async function loadEditRow(name: ResourceName, def: ResourceDef, id: number) {
  const found = await getResourceRow(db, name, id);
  if (!found) return null;
  const values = rowToFormValues(def, found.row);
  const images =
    (found.row.images as { id: number; url: string; thumbnailUrl: string }[] | undefined) ?? [];
  return { values, images, choosers: await chooserData(def, values, found.labels) };
}

/**
 * Parses and saves a create (id null) or edit: the saved row's id, else the reply (Conform's, with the fields'
 * errors and the form's) to answer with, a 400 (404 when the row is gone).
 * `fixed` values are set by the server (a wizard's company), never read from the form.
 */
export async function saveResourceForm(
  request: Request,
  name: ResourceName,
  def: ResourceDef,
  id: number | null,
  fixed: ResourceValues = {},
) {
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: schemaFor(def) });
  if (submission.status !== "success") {
    return {
      reply: data(submission.reply({ formErrors: ["Please fix the fields in red."] }), {
        status: 400,
      }),
    };
  }
  const result = await saveWithNotices(name, id, {
    ...(submission.value as ResourceValues),
    ...fixed,
  });
  if (!result.ok) {
    const fieldErrors = Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [k, [v]]));
    const reply = submission.reply({
      formErrors: result.formError ? [result.formError] : [],
      fieldErrors,
    });
    return {
      reply: data(reply, { status: result.formError === "That row no longer exists." ? 404 : 400 }),
    };
  }
  return { savedId: result.id };
}

/**
 * Saves the row. A retailer's status goes through setRetailerStatus after its other columns, and a saved brand
 * link is compared with what it was: both tell the retailer (docs/product/screens.md, "Notices to retailers").
 */
async function saveWithNotices(
  name: ResourceName,
  id: number | null,
  values: ResourceValues,
): Promise<SaveResult> {
  if (name === "retailer" && id !== null && typeof values.status === "string") {
    const { status, ...columns } = values;
    const result = await saveResource(db, name, id, columns);
    if (result.ok) await setRetailerStatus(db, id, status as RetailerStatus, noticeLinks());
    return result;
  }
  if (name === "retailerbrand") {
    const before = id !== null ? await getBrandLink(db, id) : null;
    const result = await saveResource(db, name, id, values);
    if (result.ok) await noticeBrandLinkChange(db, before, await getBrandLink(db, result.id));
    return result;
  }
  return saveResource(db, name, id, values);
}

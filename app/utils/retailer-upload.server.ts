/**
 * Bulk retailer upload (docs/product/screens.md, "Staff: retailer setup and bulk upload"; ADR 0018): reading the file into checked rows (Upload → Preview) and
 * creating them (Submit → Summary). Each good row is created all-or-nothing with its welcome e-mail
 * (db/queries/retailer-upload createUploadedRetailer); a row whose contact e-mail already has a login is
 * skipped, so the same file can be submitted again without duplicates.
 */
import {
  BULK_UPLOAD_COLUMNS,
  BULK_UPLOAD_EXAMPLE,
  BULK_UPLOAD_LIMITS,
  BULK_UPLOAD_OPTIONAL,
  checkUploadRow,
  crossRowProblems,
  retailerColumns,
} from "../../domain/retailer-admin";
import type { RetailerUploadResultJson, RetailerUploadRowJson } from "../../db/schema";
import {
  brandIdsByName,
  createUploadedRetailer,
  registeredEmails,
} from "../../db/queries/retailer-upload";
import { db } from "./db.server";
import { absoluteUrl } from "./mail.server";
import { generateResetToken, hashResetToken } from "./password.server";
import { WELCOME_TOKEN_TTL_MS, welcomeMailText } from "./retailer-admin.server";
import { checkXlsxZip, readFirstSheet, writeSheet, XlsxRejected } from "./xlsx.server";

export { XlsxRejected };

/** The template: the header row (required columns marked "*") and one example row. */
export function uploadTemplate(): Promise<Buffer> {
  return writeSheet(
    "retailers",
    BULK_UPLOAD_COLUMNS.map((c) => ({ name: c, required: !BULK_UPLOAD_OPTIONAL.has(c) })),
    [BULK_UPLOAD_COLUMNS.map((c) => BULK_UPLOAD_EXAMPLE[c])],
  );
}

/**
 * The file's rows, each with every problem found (field rules, the same contact e-mail twice, unknown brands)
 * and a note for contact e-mails that already have a login (they will be skipped). Throws XlsxRejected for a
 * file that is not a readable workbook or has no header row naming our columns.
 */
export async function previewUpload(file: Buffer): Promise<RetailerUploadRowJson[]> {
  checkXlsxZip(file, BULK_UPLOAD_LIMITS);
  const sheet = await readFirstSheet(file, BULK_UPLOAD_LIMITS.maxRows);
  const known = new Set<string>(BULK_UPLOAD_COLUMNS);
  if (!sheet.headers.some((h) => known.has(h)))
    throw new XlsxRejected("no header row with the template's columns");
  const brandsByName = await brandIdsByName(db);
  const cross = crossRowProblems(sheet.rows, (name) => brandsByName.has(name));
  const taken = await registeredEmails(
    db,
    sheet.rows.map((r) => r.values.contact_email ?? "").filter(Boolean),
  );
  return sheet.rows.map(({ line, values }) => {
    const problems = [...checkUploadRow(values).problems, ...(cross.get(line) ?? [])];
    const email = (values.contact_email ?? "").trim().toLowerCase();
    const picked: Record<string, string> = {};
    for (const c of BULK_UPLOAD_COLUMNS) if (values[c] !== undefined) picked[c] = values[c];
    return {
      line,
      values: picked,
      problems,
      ...(email && taken.has(email) ? { note: "already registered: will be skipped" } : {}),
    };
  });
}

/** Runs `fn` over `items` with at most `n` at a time, results in order. */
async function pool<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

/** Creates every good row (checked again: brands may have changed since the preview) and says what happened to each. */
export async function submitUpload(
  rows: RetailerUploadRowJson[],
): Promise<RetailerUploadResultJson[]> {
  const brandsByName = await brandIdsByName(db);
  const cross = crossRowProblems(rows, (name) => brandsByName.has(name));
  return pool(rows, 4, async ({ line, values }): Promise<RetailerUploadResultJson> => {
    const check = checkUploadRow(values);
    const problems = [...check.problems, ...(cross.get(line) ?? [])];
    if (!check.ok || problems.length > 0)
      return { line, outcome: "failed", reason: problems.join(" ") };
    const v = check.row;
    const token = generateResetToken();
    try {
      const res = await createUploadedRetailer(db, {
        retailer: retailerColumns(v),
        contact: {
          firstName: v.contact_first_name,
          lastName: v.contact_last_name,
          email: v.contact_email,
          jobTitle: v.contact_job_title,
          phone: v.contact_phone,
          celphone: v.contact_celphone,
        },
        brandIds: v.brands
          .map((b) => brandsByName.get(b.toLowerCase())!)
          .filter((id) => id !== undefined),
        tokenHash: hashResetToken(token),
        tokenExpiresAt: new Date(Date.now() + WELCOME_TOKEN_TTL_MS),
        welcome: (userId) => ({
          subject: "Welcome to Wholesale Exchange",
          text: welcomeMailText(
            v.store_name,
            v.contact_first_name,
            absoluteUrl(`/password-reset/${userId}/${token}`),
          ),
        }),
      });
      return res.status === "created"
        ? { line, outcome: "created", reason: "", retailerId: res.retailerId }
        : { line, outcome: "skipped", reason: `${v.contact_email} already has a login.` };
    } catch (err) {
      console.error(`[retailer-upload] line ${line} failed`, err);
      return {
        line,
        outcome: "failed",
        reason: "The database refused this row; nothing of it was saved.",
      };
    }
  });
}

/**
 * /admin/retailer-upload's server half: one function per intent, upload (the .xlsx read into a preview) and
 * submit (the good rows created after the confirmation). Refusals are Conform replies with their 4xx.
 */
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { RowId } from "../../domain/ids";
import { BULK_UPLOAD_LIMITS, BULK_UPLOAD_MSG } from "../../domain/retailer-admin";
import {
  getRetailerUpload,
  recordRetailerUploadResults,
  saveRetailerUpload,
} from "../../db/queries/retailer-upload";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { previewUpload, submitUpload, XlsxRejected } from "~/utils/retailer-upload.server";

/** The action: the form read within the file's size cap, then the intent's function. */
export async function retailerUploadAction(request: Request, uploadedBy: number) {
  let formData: FormData;
  try {
    formData = await readFormData(request, {
      maxBytes: BULK_UPLOAD_LIMITS.maxFileBytes + 64 * 1024,
    });
  } catch (e) {
    // A file over the size cap is a bad file, said the spec's way.
    if (e instanceof Response && e.status === 413)
      return data(formError(BULK_UPLOAD_MSG.fileHasIssues), { status: 413 });
    throw e;
  }
  switch (formData.get("intent") ?? "upload") {
    case "upload":
      return uploadSpreadsheet(formData, uploadedBy);
    case "submit":
      return submitSpreadsheet(formData);
    default:
      return data(formError("Unknown action."), { status: 400 });
  }
}

/** An empty file input is sent as no file at all. */
const UploadSchema = z.object({ excel_file: z.instanceof(File) });

/** Upload: the spreadsheet read and checked row by row, saved as a preview. */
async function uploadSpreadsheet(formData: FormData, uploadedBy: number) {
  const submission = parseSubmission(formData, { schema: UploadSchema });
  if (submission.status !== "success")
    return data(submission.reply({ formErrors: [BULK_UPLOAD_MSG.invalidInput] }), { status: 400 });
  const refuse = (message: string) =>
    data(submission.reply({ formErrors: [message] }), { status: 400 });
  const file = submission.value.excel_file;
  if (!/\.xlsx$/i.test(file.name)) return refuse(BULK_UPLOAD_MSG.fileHasIssues);
  let rows;
  try {
    rows = await previewUpload(Buffer.from(await file.arrayBuffer()));
  } catch (e) {
    if (e instanceof XlsxRejected) return refuse(BULK_UPLOAD_MSG.fileHasIssues);
    throw e;
  }
  if (rows.length === 0)
    return refuse(`${BULK_UPLOAD_MSG.fileHasIssues}: no rows under the header.`);
  const saved = await saveRetailerUpload(db, {
    uploadedBy,
    fileName: file.name.slice(0, 200),
    rows,
  });
  return redirect(`/admin/retailer-upload?upload=${saved.id}`, 303);
}

const SubmitSchema = z.object({ upload: RowId, confirmed: z.string().optional() });

/** Submit: first the confirmation (many retailer e-mails may be sent), then the good rows created. */
async function submitSpreadsheet(formData: FormData) {
  const submission = parseSubmission(formData, { schema: SubmitSchema });
  const upload =
    submission.status === "success" ? await getRetailerUpload(db, submission.value.upload) : null;
  if (!upload || submission.status !== "success")
    return data(submission.reply({ formErrors: ["No such upload."] }), { status: 404 });
  if (submission.value.confirmed !== "yes")
    return redirect(`/admin/retailer-upload?upload=${upload.id}&confirm=1`, 303);
  const results = await submitUpload(upload.rows);
  await recordRetailerUploadResults(db, upload.id, results);
  return redirect(`/admin/retailer-upload?upload=${upload.id}`, 303);
}

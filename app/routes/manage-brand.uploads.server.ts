/**
 * Collection Uploads' server half: one function per intent, load (a .zip read into an upload to preview) and
 * save (the upload's products written to the collection). A refusal is a Conform reply with the error on the
 * part of the page it is about: `collection`, `file` or `upload` (or the form's, for an unknown intent).
 * Below the intents, the upload's source adapter (port: domain/catalogue-upload.ts CollectionSource).
 */
import { Readable } from "node:stream";
import { data, redirect } from "@remix-run/node";
import ExcelJS from "exceljs";
import { unzipSync } from "fflate";
import { z } from "zod";
import {
  readUploadRows,
  UPLOAD_ERROR_FLAG,
  type SourceFolder,
} from "../../domain/catalogue-upload";
import { RowId } from "../../domain/ids";
import { checkPhoto } from "../../domain/listing-forms";
import { createCollectionUpload, saveCollectionUpload } from "../../db/queries/collection-uploads";
import { removeStaleCollectionUploads, storeCatalogueImage } from "~/utils/catalogue-images.server";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { notFound } from "~/utils/permissions.server";

type Upload = {
  brandId: number;
  collectionId: number;
  uploadId: number | null;
  uploadedBy: number;
};

/** The action of a collection (none chosen: refused); then the intent's function. */
export async function collectionUploadAction(
  request: Request,
  target: Omit<Upload, "collectionId"> & { collectionId: number | null },
) {
  const { collectionId } = target;
  if (collectionId === null)
    return data(formError("Choose a collection first.", "collection"), { status: 400 });
  let formData: FormData;
  try {
    formData = await readFormData(request, { maxBytes: MAX_ZIP_BYTES + 64 * 1024 });
  } catch (e) {
    if (e instanceof Response && e.status === 413)
      return data(formError("The file is larger than 15 MB.", "file"), { status: 413 });
    throw e;
  }
  const intent = formData.get("intent");
  if (intent === "load") return loadFolder(formData, { ...target, collectionId });
  if (intent === "save") return saveFolder(formData, { ...target, collectionId });
  return data(formError("Unknown action."), { status: 400 });
}

const back = (u: Upload, extra: string) =>
  redirect(`/manage-brand/uploads?brand=${u.brandId}&collection=${u.collectionId}${extra}`);

/** An empty file input is sent as no file at all. */
const LoadSchema = z.object({ file: z.instanceof(File).refine((f) => f.size > 0) });

/** Load Folder: the .zip's spreadsheet rows and pictures, checked, stored as an upload to preview. */
async function loadFolder(formData: FormData, u: Upload) {
  const submission = parseSubmission(formData, { schema: LoadSchema });
  const refuse = (message: string) =>
    data(submission.reply({ fieldErrors: { file: [message] } }), { status: 400 });
  if (submission.status !== "success")
    return data(submission.reply({ fieldErrors: { file: ["Choose a .zip file."] } }), {
      status: 400,
    });
  const { file } = submission.value;
  if (!/\.zip$/i.test(file.name))
    return refuse("The file must be a .zip holding the spreadsheet and the pictures.");
  let folder;
  try {
    folder = await readZipFolder(new Uint8Array(await file.arrayBuffer()));
  } catch (e) {
    if (e instanceof BadZip) return refuse(e.message);
    throw e;
  }
  const { rows, problems } = readUploadRows(folder, (name, bytes) => checkPhoto(name, bytes).ok);
  if (problems.length) return refuse(problems.join(" "));
  const images: Record<string, string> = {};
  for (const name of new Set(rows.flatMap((r) => r.images))) {
    const bytes = folder.images.get(name)!;
    const checked = checkPhoto(name, bytes);
    if (checked.ok) images[name] = await storeCatalogueImage(bytes, checked.type);
  }
  const id = await createCollectionUpload(db, {
    collectionId: u.collectionId,
    uploadedBy: u.uploadedBy,
    fileName: file.name.slice(0, 200),
    rows,
    images,
  });
  await removeStaleCollectionUploads().catch((err) =>
    console.error("[collection uploads] discarding unsaved uploads failed", err),
  );
  return back(u, `&upload=${id}&done=loaded`);
}

/** The upload the form names, else the one of the URL. */
const SaveSchema = z.object({ upload: RowId.optional() });

/** save products: the upload's rows become the collection's products (once; never a second time). */
async function saveFolder(formData: FormData, u: Upload) {
  const submission = parseSubmission(formData, { schema: SaveSchema });
  const refuse = (message: string, status: number) =>
    data(submission.reply({ fieldErrors: { upload: [message] } }), { status });
  const uploadId =
    submission.status !== "success"
      ? null
      : formData.has("upload")
        ? (submission.value.upload ?? null)
        : u.uploadId;
  if (uploadId === null) return refuse("Pick an upload.", 400);
  const r = await saveCollectionUpload(db, u.collectionId, uploadId);
  if (r.ok) return back(u, `&upload=${uploadId}&done=saved`);
  if (r.reason === "missing") throw notFound();
  if (r.reason === "saved") return refuse("This upload has already been saved.", 409);
  if (r.reason === "duplicate")
    return refuse(
      `This folder was saved before: the collection already has ${r.skus.join(", ")}.`,
      409,
    );
  if (r.reason === "barcodes") return refuse(r.messages.join(" "), 409);
  return refuse(UPLOAD_ERROR_FLAG, 400);
}

// ------------------------------------------------------------------------------------------------------
// The collection upload's source adapter (docs/product/screens.md, "Staff: collection uploads"): an uploaded
// .zip holding one spreadsheet (.xlsx read by exceljs, or .csv) and the pictures. The zip is read by fflate
// with caps on the entries' declared sizes (no zip bomb gets inflated).

const MAX_ZIP_BYTES = 15 * 1024 * 1024;
const MAX_ENTRY_BYTES = 10 * 1024 * 1024;
const MAX_TOTAL_BYTES = 60 * 1024 * 1024;
const MAX_ENTRIES = 500;

class BadZip extends Error {}

const base = (p: string) => p.split("/").pop() ?? p;

/** The spreadsheet (as text cells) and pictures of a zip, or BadZip with a message for the user. */
async function readZipFolder(bytes: Uint8Array): Promise<SourceFolder> {
  let files: Record<string, Uint8Array>;
  let total = 0;
  let entries = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        entries += 1;
        if (entries > MAX_ENTRIES)
          throw new BadZip(`The zip holds more than ${MAX_ENTRIES} files.`);
        if (f.name.endsWith("/") || f.name.startsWith("__MACOSX/") || base(f.name).startsWith("."))
          return false;
        if (f.originalSize > MAX_ENTRY_BYTES)
          throw new BadZip(`"${base(f.name).slice(0, 60)}" is larger than 10 MB.`);
        total += f.originalSize;
        if (total > MAX_TOTAL_BYTES) throw new BadZip("The zip unpacks to more than 60 MB.");
        return true;
      },
    });
  } catch (e) {
    if (e instanceof BadZip) throw e;
    throw new BadZip("The file is not a readable .zip.");
  }
  const names = Object.keys(files);
  const sheets = names.filter((n) => /\.(xlsx|csv)$/i.test(n));
  if (sheets.length !== 1)
    throw new BadZip(
      sheets.length
        ? "The zip holds more than one spreadsheet."
        : "The zip holds no spreadsheet (.xlsx or .csv).",
    );
  const images = new Map<string, Uint8Array>();
  for (const n of names) if (n !== sheets[0]) images.set(base(n), files[n]);
  return { sheet: await readSheet(sheets[0], files[sheets[0]]), images };
}

async function readSheet(name: string, bytes: Uint8Array): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  let ws: ExcelJS.Worksheet | undefined;
  try {
    if (/\.csv$/i.test(name)) ws = await wb.csv.read(Readable.from([Buffer.from(bytes)]));
    else {
      await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
      ws = wb.worksheets[0];
    }
  } catch {
    throw new BadZip(`The spreadsheet "${base(name).slice(0, 60)}" cannot be read.`);
  }
  if (!ws) throw new BadZip("The spreadsheet has no sheet.");
  const out: string[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= Math.min(row.cellCount, 50); i++) cells.push(cellText(row.getCell(i)));
    out.push(cells);
  });
  return out;
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return String(v);
  if (typeof v === "object" && "formula" in v) return "=" + String(v.formula);
  return cell.text ?? String(v);
}

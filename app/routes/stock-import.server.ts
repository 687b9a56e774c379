/**
 * /stock-import's server half (docs/product/screens.md, "Stock file import"; ADR 0029): the loader's data and
 * one function per intent: upload (the file read, then the preview or the column mapping), map (the mapping
 * chosen and remembered), confirm (the import). Refusals are Conform replies with their 4xx; nothing is
 * written for a refused file.
 */
import { createHash } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { RowId } from "../../domain/ids";
import { WIZARD_MESSAGES } from "../../domain/listing-forms";
import {
  autoMapping,
  mappingFits,
  REQUIRED_STOCK_FIELDS,
  STOCK_FIELDS,
  STOCK_IMPORT_LIMITS,
  STOCK_MSG,
  type StockMapping,
} from "../../domain/stock-import";
import { choiceProblems, choicesFromPicks } from "../../domain/stock-import-choices";
import {
  claimImport,
  createImport,
  getImport,
  getMapping,
  listImports,
  recordImportResults,
  saveMapping,
  setImportPreview,
  type StockImport,
} from "../../db/queries/stock-import";
import type { AuthContext } from "~/utils/auth.server";
import type { RetailerRow } from "../../db/queries/retailers";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { readStockFile, runStockImport, StockFileRejected } from "~/utils/stock-import.server";

type Auth = AuthContext & { retailer: RetailerRow };

/** The page's data: the upload form with recent imports, or one import (mapping, preview or results). */
export async function stockImportLoader(request: Request, auth: Auth) {
  const retailerId = auth.retailer.id;
  const hasPayout = Boolean(auth.retailer.btMerchantId);
  const raw = new URL(request.url).searchParams.get("import");
  if (raw === null) {
    const recent = await listImports(db, retailerId);
    return {
      stage: "upload" as const,
      hasPayout,
      recent: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString().slice(0, 16) })),
    };
  }
  const id = RowId.safeParse(raw);
  const imp = id.success ? await getImport(db, id.data, retailerId) : null;
  if (!imp)
    throw new Response("No such import.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const base = { id: imp.id, fileName: imp.fileName, wholeSurplus: imp.wholeSurplus, hasPayout };
  if (imp.status === "mapping") {
    const saved = (await getMapping(db, retailerId)) as StockMapping | null;
    return {
      stage: "mapping" as const,
      ...base,
      headers: imp.cells[0].filter(Boolean),
      mapping: saved ?? autoMapping(imp.cells[0]) ?? {},
    };
  }
  if (imp.status === "confirmed")
    return { stage: "results" as const, ...base, rows: imp.results ?? [] };
  return {
    stage: "preview" as const,
    ...base,
    rows: imp.preview ?? [],
    busy: imp.status === "confirming",
  };
}

export async function stockImportAction(request: Request, auth: Auth) {
  if (auth.retailer.status !== "active")
    return data(formError(WIZARD_MESSAGES.inactiveRetailer), { status: 403 });
  let formData: FormData;
  try {
    formData = await readFormData(request, {
      maxBytes: STOCK_IMPORT_LIMITS.maxFileBytes + 64 * 1024,
      maxEntries: 2000,
    });
  } catch (e) {
    if (e instanceof Response && e.status === 413)
      return data(formError(STOCK_MSG.tooLarge), { status: 413 });
    throw e;
  }
  switch (formData.get("intent") ?? "upload") {
    case "upload":
      return uploadFile(formData, auth);
    case "map":
      return chooseMapping(formData, auth);
    case "confirm":
      return confirmImport(formData, auth);
    default:
      return data(formError("Unknown action."), { status: 400 });
  }
}

const UploadSchema = z.object({
  file: z.instanceof(File, { message: STOCK_MSG.chooseFile }),
  wholeSurplus: z.boolean().optional(),
});

/** Upload: the file read and refused as a whole when unreadable; then the preview, or the mapping to choose. */
async function uploadFile(formData: FormData, auth: Auth) {
  const submission = parseSubmission(formData, { schema: UploadSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { file, wholeSurplus } = submission.value;
  const bytes = Buffer.from(await file.arrayBuffer());
  let cells: string[][];
  try {
    cells = await readStockFile(file.name, bytes);
  } catch (e) {
    if (e instanceof StockFileRejected)
      return data(submission.reply({ formErrors: [e.message] }), { status: 400 });
    throw e;
  }
  const imp = await createImport(db, {
    retailerId: auth.retailer.id,
    uploadedBy: auth.user.id,
    fileName: file.name.slice(0, 200),
    fileSha256: createHash("sha256").update(bytes).digest("hex"),
    wholeSurplus: wholeSurplus === true,
    cells,
  });
  const mapping = await mappingFor(auth.retailer.id, cells[0]);
  if (mapping) await preview(imp, mapping);
  return redirect(`/stock-import?import=${imp.id}`, 303);
}

/** The retailer's remembered mapping when it fits the file's headers, else the one found from the headers' names. */
async function mappingFor(retailerId: number, headers: string[]): Promise<StockMapping | null> {
  const saved = (await getMapping(db, retailerId)) as StockMapping | null;
  return mappingFits(saved, headers) ? saved : autoMapping(headers);
}

async function preview(imp: StockImport, mapping: StockMapping) {
  const rows = await runStockImport(db, {
    retailerId: imp.retailerId,
    cells: imp.cells,
    mapping,
    wholeSurplus: imp.wholeSurplus,
  });
  await setImportPreview(db, imp.id, rows);
}

const MapSchema = z.object(
  Object.fromEntries([
    ["import", RowId],
    ...STOCK_FIELDS.map((f) => [f, z.string().max(200).optional()]),
  ]) as Record<string, z.ZodTypeAny>,
);

/** Map: the columns chosen for the fields (required ones present, no column twice), remembered for the retailer. */
async function chooseMapping(formData: FormData, auth: Auth) {
  const submission = parseSubmission(formData, {
    schema: MapSchema.superRefine((v, ctx) => {
      for (const f of REQUIRED_STOCK_FIELDS)
        if (!v[f])
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [f], message: STOCK_MSG.mapRequired });
      const used = STOCK_FIELDS.map((f) => v[f] as string | undefined).filter(Boolean);
      if (new Set(used).size !== used.length)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [], message: STOCK_MSG.mapTwice });
    }),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const imp = await getImport(db, submission.value.import as number, auth.retailer.id);
  if (!imp || imp.status !== "mapping")
    return data(submission.reply({ formErrors: ["No such import to map."] }), { status: 404 });
  const mapping: Record<string, string> = {};
  for (const f of STOCK_FIELDS) if (submission.value[f]) mapping[f] = submission.value[f] as string;
  if (!mappingFits(mapping, imp.cells[0]))
    return data(submission.reply({ formErrors: [STOCK_MSG.missingColumns] }), { status: 400 });
  await saveMapping(db, auth.retailer.id, mapping);
  await preview(imp, mapping);
  return redirect(`/stock-import?import=${imp.id}`, 303);
}

/** Confirmed guesses: code[i] (a line's code) with pick[i] (a variation id, or "" for none). */
const ConfirmSchema = z.object({
  import: RowId,
  code: z.array(z.string().max(80)).max(STOCK_IMPORT_LIMITS.maxRows).optional(),
  pick: z.array(z.string().max(20).optional()).max(STOCK_IMPORT_LIMITS.maxRows).optional(),
});

/** Confirm: the import run again from the file with the confirmed guesses, once. */
async function confirmImport(formData: FormData, auth: Auth) {
  const submission = parseSubmission(formData, { schema: ConfirmSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const imp = await getImport(db, submission.value.import, auth.retailer.id);
  if (!imp) return data(submission.reply({ formErrors: ["No such import."] }), { status: 404 });
  const mapping = await mappingFor(auth.retailer.id, imp.cells[0]);
  if (!mapping)
    return data(submission.reply({ formErrors: [STOCK_MSG.missingColumns] }), { status: 400 });
  const choices = choicesFromPicks(submission.value.code ?? [], submission.value.pick ?? []);
  const problems = choiceProblems(imp.preview ?? [], choices);
  if (problems.length) return data(submission.reply({ formErrors: problems }), { status: 400 });
  if (!(await claimImport(db, imp.id)))
    return data(submission.reply({ formErrors: ["This import was already confirmed."] }), {
      status: 409,
    });
  const results = await runStockImport(db, {
    retailerId: auth.retailer.id,
    cells: imp.cells,
    mapping,
    wholeSurplus: imp.wholeSurplus,
    choices,
    confirm: { importId: imp.id },
  });
  await recordImportResults(db, imp.id, results);
  return redirect(`/stock-import?import=${imp.id}`, 303);
}

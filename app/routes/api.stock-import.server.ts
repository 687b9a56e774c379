/**
 * POST /api/stock-import's server half (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API";
 * public/api/openapi.json): a retailer's token, then the same file reading, preview and import as
 * /stock-import (runStockImport), answered as JSON. Every refusal is a JSON { error } with its 4xx and writes
 * nothing (a valid token's last use excepted).
 */
import { createHash } from "node:crypto";
import { API_LIMITS, API_MSG, bearerToken } from "../../domain/api-tokens";
import {
  autoMapping,
  mappingFits,
  STOCK_IMPORT_LIMITS,
  STOCK_MSG,
  type StockMapping,
} from "../../domain/stock-import";
import {
  choiceProblems,
  choicesFromPairs,
  MAX_STOCK_CHOICES,
} from "../../domain/stock-import-choices";
import { touchApiToken, verifyApiToken } from "../../db/queries/api-tokens";
import { getRetailer } from "../../db/queries/retailers";
import {
  claimImport,
  createImport,
  getMapping,
  recordImportResults,
  setImportPreview,
} from "../../db/queries/stock-import";
import { apiImportCount } from "../../db/queries/throttle";
import { db } from "~/utils/db.server";
import { readBytes, readFormData } from "~/utils/form.server";
import { readStockFile, runStockImport, StockFileRejected } from "~/utils/stock-import.server";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const apiError = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ error }, { status, headers: { "Cache-Control": "no-store", ...headers } });

const flag = (v: FormDataEntryValue | string | null | undefined) => v === "1" || v === "true";

interface Upload {
  name: string;
  bytes: Buffer;
  confirm: boolean;
  whole: boolean;
  /** The guesses confirmed: `choose` fields or query parameters, "CODE:variationId" each. */
  choose: string[];
}

const strings = (values: FormDataEntryValue[]) =>
  values.filter((v): v is string => typeof v === "string");

/** The file's name and bytes, the flags and the choices, from a multipart form (field "file") or a raw CSV / .xlsx body. */
async function readUpload(request: Request): Promise<Upload | Response> {
  const url = new URL(request.url);
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const maxBytes = STOCK_IMPORT_LIMITS.maxFileBytes + 64 * 1024;
  try {
    if (type === "multipart/form-data") {
      const form = await readFormData(request, {
        maxBytes,
        maxEntries: MAX_STOCK_CHOICES + 10,
        refuseControl: true,
      });
      const file = form.get("file");
      if (!(file instanceof File)) return apiError(400, STOCK_MSG.chooseFile);
      return {
        name: file.name,
        bytes: Buffer.from(await file.arrayBuffer()),
        confirm: flag(form.get("confirm")) || flag(url.searchParams.get("confirm")),
        whole: flag(form.get("whole_surplus")) || flag(url.searchParams.get("whole_surplus")),
        choose: [...strings(form.getAll("choose")), ...url.searchParams.getAll("choose")],
      };
    }
    const bytes = Buffer.from(await readBytes(request, maxBytes));
    if (bytes.length === 0) return apiError(400, STOCK_MSG.chooseFile);
    return {
      name: type === XLSX_TYPE ? "upload.xlsx" : "upload.csv",
      bytes,
      confirm: flag(url.searchParams.get("confirm")),
      whole: flag(url.searchParams.get("whole_surplus")),
      choose: url.searchParams.getAll("choose"),
    };
  } catch (e) {
    if (e instanceof Response)
      return apiError(
        e.status === 413 ? 413 : 400,
        e.status === 413 ? STOCK_MSG.tooLarge : await e.text(),
      );
    throw e;
  }
}

/** The whole request: token, rate limit, file, mapping, preview and (confirm=1) the import. */
export async function stockImportApi(request: Request): Promise<Response> {
  const raw = request.headers.get("Authorization");
  const token = bearerToken(raw);
  if (!token)
    return apiError(401, raw ? API_MSG.badToken : API_MSG.noToken, {
      "WWW-Authenticate": "Bearer",
    });
  const key = await verifyApiToken(db, token);
  if (!key) return apiError(401, API_MSG.badToken, { "WWW-Authenticate": "Bearer" });
  const store = new URL(request.url).searchParams.get("store");
  if (store !== null && store !== String(key.retailerId))
    return apiError(401, API_MSG.otherStore, { "WWW-Authenticate": "Bearer" });
  const retailer = await getRetailer(db, key.retailerId);
  if (!retailer || retailer.status !== "active") return apiError(403, API_MSG.inactive);
  const since = new Date(Date.now() - API_LIMITS.windowMs);
  if ((await apiImportCount(db, key.id, since)) >= API_LIMITS.importsPerWindow)
    return apiError(429, API_MSG.tooMany, {
      "Retry-After": String(Math.ceil(API_LIMITS.windowMs / 1000)),
    });
  await touchApiToken(db, key.id);
  const upload = await readUpload(request);
  if (upload instanceof Response) return upload;
  let cells: string[][];
  try {
    cells = await readStockFile(upload.name, upload.bytes);
  } catch (e) {
    if (e instanceof StockFileRejected) return apiError(400, e.message);
    throw e;
  }
  const saved = (await getMapping(db, key.retailerId)) as StockMapping | null;
  const mapping = mappingFits(saved, cells[0]) ? saved : autoMapping(cells[0]);
  if (!mapping) return apiError(400, STOCK_MSG.missingColumns);
  const picked = choicesFromPairs(upload.choose);
  if (!picked.ok) return choiceError(picked.problems);
  const input = { retailerId: key.retailerId, cells, mapping, wholeSurplus: upload.whole };
  let rows = await runStockImport(db, input);
  // The choices are checked against the preview's guesses as the page's are, before anything is written.
  const choices = picked.choices;
  if (Object.keys(choices).length > 0) {
    const problems = choiceProblems(rows, choices);
    if (problems.length) return choiceError(problems);
    rows = await runStockImport(db, { ...input, choices });
  }
  const imp = await createImport(db, {
    retailerId: key.retailerId,
    uploadedBy: key.createdBy,
    apiTokenId: key.id,
    fileName: upload.name.slice(0, 200),
    fileSha256: createHash("sha256").update(upload.bytes).digest("hex"),
    wholeSurplus: upload.whole,
    cells,
  });
  await setImportPreview(db, imp.id, rows);
  if (!upload.confirm)
    return Response.json(
      { import: imp.id, status: "preview", rows },
      { headers: { "Cache-Control": "no-store" } },
    );
  if (!(await claimImport(db, imp.id))) return apiError(409, API_MSG.alreadyConfirmed);
  const results = await runStockImport(db, { ...input, choices, confirm: { importId: imp.id } });
  await recordImportResults(db, imp.id, results);
  return Response.json(
    { import: imp.id, status: "confirmed", rows: results },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** A refused choice: 400 with one message per choice (also joined as the error), nothing written. */
function choiceError(problems: string[]): Response {
  return Response.json(
    { error: problems.join(" "), problems },
    { status: 400, headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * Stock file import and stock sync (docs/product/screens.md, "Stock file import"; ADR 0029): the service.
 *
 *   readStockFile(name, bytes)        the file's cells (header first), or StockFileRejected with the message
 *   runStockImport(db, input)         from the cells and a retailer id: the preview rows, or (confirm: true)
 *                                     the import itself, one transaction per variation, and its results
 *
 * runStockImport is the one entry point: the page (/stock-import) calls it, and so does POST /api/stock-import.
 * It runs db/queries/stock-import-run.ts on the marketplace's day (MARKETPLACE_TZ) unless given one.
 */
import ExcelJS from "exceljs";
import type { Db } from "../../db/client";
import type { StockImportRowJson } from "../../db/schema";
import {
  runStockImport as runStockImportOn,
  type StockImportInput,
} from "../../db/queries/stock-import-run";
import {
  refuseFormulas,
  STOCK_IMPORT_LIMITS,
  STOCK_MSG,
  StockFileRejected,
} from "../../domain/stock-import";
import { readCsv } from "./stock-csv.server";
import { getEnv } from "~/utils/env.server";
import { localDateISO } from "../../domain/business-days";
import { checkXlsxZip, XlsxRejected } from "./xlsx.server";

export { StockFileRejected };

/** The file's cells, header row first. CSV (UTF-8) or .xlsx (first sheet), by name; formulas refused. */
export async function readStockFile(fileName: string, bytes: Buffer): Promise<string[][]> {
  if (bytes.length > STOCK_IMPORT_LIMITS.maxFileBytes)
    throw new StockFileRejected(STOCK_MSG.tooLarge);
  let rows: string[][];
  // A NUL (U+0000) cannot be stored in a text column: taken out of every cell before anything reads them.
  const withoutNul = (cells: string[][]) =>
    cells.map((r) => r.map((c) => (c.includes("\u0000") ? c.replace(/\u0000/g, "") : c)));
  if (/\.csv$/i.test(fileName)) {
    rows = withoutNul(await readCsv(bytes));
    refuseFormulas(rows);
  } else if (/\.xlsx$/i.test(fileName)) rows = withoutNul(await readXlsx(bytes));
  else throw new StockFileRejected(STOCK_MSG.wrongType);
  if (rows.length < 2) throw new StockFileRejected(STOCK_MSG.noRows);
  if (rows[0].filter((h) => h.trim()).length < 3)
    throw new StockFileRejected(STOCK_MSG.missingColumns);
  return rows.map((r) => r.slice(0, STOCK_IMPORT_LIMITS.maxColumns).map((c) => c.trim()));
}

async function readXlsx(bytes: Buffer): Promise<string[][]> {
  try {
    checkXlsxZip(bytes, {
      maxEntries: STOCK_IMPORT_LIMITS.maxEntries,
      maxUnzippedBytes: STOCK_IMPORT_LIMITS.maxUnzippedBytes,
    });
  } catch (e) {
    if (e instanceof XlsxRejected) throw new StockFileRejected(STOCK_MSG.notWorkbook);
    throw e;
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new StockFileRejected(STOCK_MSG.notWorkbook);
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new StockFileRejected(STOCK_MSG.noRows);
  if (ws.actualRowCount > STOCK_IMPORT_LIMITS.maxRows + 1)
    throw new StockFileRejected(STOCK_MSG.tooManyRows);
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      if (cell.type === ExcelJS.ValueType.Formula)
        throw new StockFileRejected(STOCK_MSG.formula(line));
      cells[col - 1] = cell.text ?? "";
    });
    const filled = Array.from(cells, (c) => c ?? "");
    if (filled.some((c) => c.trim())) rows.push(filled);
  });
  return rows;
}

/** The preview rows (no confirm) or the results (confirm); `today` defaults to the marketplace's day. */
export function runStockImport(
  db: Db,
  input: Omit<StockImportInput, "today"> & { today?: string },
): Promise<StockImportRowJson[]> {
  // The import's day in the marketplace's zone (a markdown schedule's first day), one for the whole run.
  return runStockImportOn(db, {
    ...input,
    today: input.today ?? localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  });
}

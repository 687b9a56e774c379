/**
 * The collection upload's source adapter (docs/product/screens.md, "Staff: collection uploads"; port:
 * domain/catalogue-upload.ts
 * CollectionSource): an uploaded .zip holding one spreadsheet (.xlsx read by exceljs, or .csv) and the
 * pictures. The zip is read by fflate with caps on the entries' declared sizes (no zip bomb gets inflated).
 */
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { unzipSync } from "fflate";
import type { SourceFolder } from "../../domain/catalogue-upload";

export const MAX_ZIP_BYTES = 15 * 1024 * 1024;
const MAX_ENTRY_BYTES = 10 * 1024 * 1024;
const MAX_TOTAL_BYTES = 60 * 1024 * 1024;
const MAX_ENTRIES = 500;

export class BadZip extends Error {}

const base = (p: string) => p.split("/").pop() ?? p;

/** The spreadsheet (as text cells) and pictures of a zip, or BadZip with a message for the user. */
export async function readZipFolder(bytes: Uint8Array): Promise<SourceFolder> {
  let files: Record<string, Uint8Array>;
  let total = 0;
  let entries = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        entries += 1;
        if (entries > MAX_ENTRIES) throw new BadZip(`The zip holds more than ${MAX_ENTRIES} files.`);
        if (f.name.endsWith("/") || f.name.startsWith("__MACOSX/") || base(f.name).startsWith(".")) return false;
        if (f.originalSize > MAX_ENTRY_BYTES) throw new BadZip(`"${base(f.name).slice(0, 60)}" is larger than 10 MB.`);
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
    throw new BadZip(sheets.length ? "The zip holds more than one spreadsheet." : "The zip holds no spreadsheet (.xlsx or .csv).");
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

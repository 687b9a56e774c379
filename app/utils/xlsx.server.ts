/**
 * Reading an uploaded .xlsx safely, and writing one (the bulk-upload template).
 *
 * An .xlsx is a zip. Before the spreadsheet library sees it, `checkXlsxZip` reads the zip's central directory
 * itself and refuses (XlsxRejected) anything that is not a workbook: not a zip at all (a renamed program),
 * too many entries, an entry declared larger than the cap, encrypted or unknown compression, no
 * xl/workbook.xml, and, since declared sizes can lie, every entry is inflated with zlib's maxOutputLength so
 * a zip bomb stops at the cap instead of filling memory.
 */
import { inflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";

export class XlsxRejected extends Error {}

export type XlsxLimits = { maxEntries: number; maxUnzippedBytes: number };

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;

/** Throws XlsxRejected unless `buf` is a plain (not zip64, not encrypted) zip holding an Excel workbook within the limits. */
export function checkXlsxZip(buf: Buffer, limits: XlsxLimits): void {
  if (buf.length < 22 || buf.readUInt32LE(0) !== LOC_SIG) throw new XlsxRejected("not a zip");
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new XlsxRejected("no zip directory");
  const count = buf.readUInt16LE(eocd + 10);
  const cenSize = buf.readUInt32LE(eocd + 12);
  const cenOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cenOffset === 0xffffffff) throw new XlsxRejected("zip64");
  if (count > limits.maxEntries) throw new XlsxRejected("too many entries");
  if (cenOffset + cenSize > buf.length) throw new XlsxRejected("directory out of range");
  let p = cenOffset;
  let total = 0;
  const names = new Set<string>();
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN_SIG)
      throw new XlsxRejected("bad directory entry");
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const declared = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 0x1) throw new XlsxRejected("encrypted entry");
    if (method !== 0 && method !== 8) throw new XlsxRejected("unknown compression");
    total += declared;
    if (declared > limits.maxUnzippedBytes || total > limits.maxUnzippedBytes)
      throw new XlsxRejected("too large when unzipped");
    names.add(name);
    // The entry's data: after its local header (whose name and extra lengths may differ from the directory's).
    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== LOC_SIG)
      throw new XlsxRejected("bad local header");
    const start =
      localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (start + compressed > buf.length) throw new XlsxRejected("entry out of range");
    if (method === 8) {
      // One byte more than declared is enough to catch a lie; the declared total is already within the cap.
      let out: Buffer;
      try {
        out = inflateRawSync(buf.subarray(start, start + compressed), {
          maxOutputLength: declared + 1,
        });
      } catch {
        throw new XlsxRejected("entry does not inflate within the limit");
      }
      if (out.length !== declared)
        throw new XlsxRejected("entry size differs from its declaration");
    } else if (compressed !== declared) {
      throw new XlsxRejected("stored entry size mismatch");
    }
  }
  if (!names.has("xl/workbook.xml") || !names.has("[Content_Types].xml"))
    throw new XlsxRejected("not an Excel workbook");
}

/** The first worksheet as rows of cell text keyed by the header row's names (lower-cased, "*" and spaces dropped). */
export async function readFirstSheet(
  buf: Buffer,
  maxRows: number,
): Promise<{ headers: string[]; rows: { line: number; values: Record<string, string> }[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw new XlsxRejected("unreadable workbook");
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new XlsxRejected("no worksheet");
  if (ws.actualRowCount > maxRows + 1) throw new XlsxRejected("too many rows");
  const headers: string[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    headers[col] = cellText(cell).toLowerCase().replace(/\*/g, "").trim().replace(/\s+/g, "_");
  });
  const rows: { line: number; values: Record<string, string> }[] = [];
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    if (line === 1) return;
    const values: Record<string, string> = {};
    let any = false;
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const h = headers[col];
      if (!h) return;
      const t = cellText(cell).trim();
      if (t) any = true;
      values[h] = t;
    });
    if (any) rows.push({ line, values });
  });
  return { headers: headers.filter(Boolean), rows };
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === "object" && "text" in v && typeof v.text === "string") return v.text; // hyperlink
  if (typeof v === "object" && "richText" in v) return v.richText.map((r) => r.text).join("");
  if (typeof v === "object" && "result" in v)
    return v.result === undefined || v.result === null ? "" : String(v.result); // formula: its cached value
  return cell.text ?? "";
}

/** A one-sheet workbook: a bold header row (names marked "*" when required), then the rows. */
export async function writeSheet(
  sheetName: string,
  columns: { name: string; required?: boolean; width?: number }[],
  rows: string[][],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({
    header: c.required ? `${c.name}*` : c.name,
    width: c.width ?? Math.max(14, c.name.length + 4),
  }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  // Every cell is text: a ZIP code or phone number keeps its leading zeros and dashes.
  ws.columns.forEach((col) => {
    col.numFmt = "@";
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

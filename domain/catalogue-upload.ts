/**
 * Collection uploads (docs/product/screens.md, "Staff: collection uploads"): the rows of a product spreadsheet,
 * checked. The product's "external folder service" is a port (CollectionSource, below); the adapter that runs here reads an uploaded
 * .zip holding one spreadsheet (.xlsx or .csv) and the pictures (app/routes/manage-brand.uploads.server.ts).
 *
 * Spreadsheet columns (header row, any case; extra columns ignored):
 *   sku*, display_name* (or name), description, color*, price* (dollars), sizes ("S|M|L" or "S, M, L"),
 *   image1 .. image4 (file names inside the zip).
 */
import { parseDollars } from "./money";

export const UPLOAD_ERROR_FLAG =
  "one or more missing or incorrect data were found. please fix it here!";
/** Days a loaded collection upload waits to be saved before it is discarded with its pictures. */
export const UNSAVED_UPLOAD_DAYS = 7;
export const UNSAVED_UPLOAD_TTL_MS = UNSAVED_UPLOAD_DAYS * 24 * 60 * 60 * 1000;

export const MAX_IMAGES_PER_ROW = 4;
export const MAX_UPLOAD_ROWS = 2000;

/** What a source gives for one folder: the sheet as text cells, and its pictures by file name. */
export type SourceFolder = { sheet: string[][]; images: Map<string, Uint8Array> };

/** The port: list what can be imported, read one. */
export interface CollectionSource {
  listFolders(): Promise<{ id: string; name: string }[]>;
  readFolder(id: string): Promise<SourceFolder>;
}

export type UploadRow = {
  line: number;
  sku: string;
  displayName: string;
  description: string;
  color: string;
  priceCents: number | null;
  sizes: string[];
  images: string[];
  problems: string[];
};

const FORMULA_START = /^[=+\-@\t\r]/;
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

function header(cells: string[]): Map<string, number> {
  const m = new Map<string, number>();
  cells.forEach((c, i) => {
    const k = c.trim().toLowerCase().replace(/\s+/g, "_");
    if (!m.has(k)) m.set(k, i);
  });
  if (!m.has("display_name") && m.has("name")) m.set("display_name", m.get("name")!);
  return m;
}

/**
 * The rows of a sheet, each with its problems (missing or wrong values, pictures missing from the folder or
 * not pictures). `isImage` checks a picture's bytes (content, not name).
 */
export function readUploadRows(
  folder: SourceFolder,
  isImage: (name: string, bytes: Uint8Array) => boolean,
): { rows: UploadRow[]; problems: string[] } {
  const [head, ...body] = folder.sheet;
  if (!head) return { rows: [], problems: ["The spreadsheet is empty."] };
  const h = header(head);
  const missing = ["sku", "display_name", "color", "price"].filter((c) => !h.has(c));
  if (missing.length)
    return { rows: [], problems: [`The spreadsheet has no column ${missing.join(", ")}.`] };
  if (body.length > MAX_UPLOAD_ROWS)
    return { rows: [], problems: [`At most ${MAX_UPLOAD_ROWS} rows per upload.`] };
  const get = (row: string[], k: string) => (h.has(k) ? (row[h.get(k)!] ?? "").trim() : "");
  const rows: UploadRow[] = [];
  const skus = new Map<string, number>();
  body.forEach((cells, i) => {
    if (cells.every((c) => (c ?? "").trim() === "")) return;
    const line = i + 2;
    const problems: string[] = [];
    const text = (k: string, label: string, required: boolean, max: number) => {
      const v = get(cells, k);
      if (required && !v) problems.push(`${label} is missing.`);
      else if (v.length > max) problems.push(`${label} is longer than ${max} characters.`);
      else if (CONTROL.test(v)) problems.push(`${label} has control characters.`);
      else if (FORMULA_START.test(v)) problems.push(`${label} may not start with = + - or @.`);
      return v;
    };
    const sku = text("sku", "sku", true, 60);
    const displayName = text("display_name", "display_name", true, 200);
    const description = text("description", "description", false, 2000);
    const color = text("color", "color", true, 80);
    const rawPrice = get(cells, "price");
    const priceCents = rawPrice ? parseDollars(rawPrice) : null;
    if (!rawPrice) problems.push("price is missing.");
    else if (priceCents === null)
      problems.push(`price "${rawPrice.slice(0, 20)}" is not an amount in dollars.`);
    const sizes = [
      ...new Set(
        get(cells, "sizes")
          .split(/[|,;]/)
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (sizes.some((s) => s.length > 40))
      problems.push("a size label is longer than 40 characters.");
    const images: string[] = [];
    for (let n = 1; n <= MAX_IMAGES_PER_ROW; n++) {
      const name = get(cells, `image${n}`);
      if (!name) continue;
      const bytes = folder.images.get(name);
      if (!bytes) problems.push(`image${n} "${name.slice(0, 60)}" is not in the folder.`);
      else if (!isImage(name, bytes))
        problems.push(`image${n} "${name.slice(0, 60)}" is not a .jpg or .png picture.`);
      else images.push(name);
    }
    const key = `${sku.toLowerCase()}|${color.toLowerCase()}`;
    if (sku && color && skus.has(key))
      problems.push(`the same sku and color as line ${skus.get(key)}.`);
    else skus.set(key, line);
    rows.push({ line, sku, displayName, description, color, priceCents, sizes, images, problems });
  });
  if (rows.length === 0) return { rows, problems: ["The spreadsheet has no product rows."] };
  return { rows, problems: [] };
}

/** Products of the rows: one per sku (its first row's name, description and price), one variation per color. */
export function groupUploadRows(rows: UploadRow[]): {
  sku: string;
  displayName: string;
  description: string;
  priceCents: number;
  sizes: string[];
  variations: UploadRow[];
}[] {
  const bySku = new Map<string, ReturnType<typeof groupUploadRows>[number]>();
  for (const r of rows) {
    const k = r.sku.toLowerCase();
    let p = bySku.get(k);
    if (!p) {
      p = {
        sku: r.sku,
        displayName: r.displayName,
        description: r.description,
        priceCents: r.priceCents ?? 0,
        sizes: [],
        variations: [],
      };
      bySku.set(k, p);
    }
    for (const s of r.sizes) if (!p.sizes.includes(s)) p.sizes.push(s);
    p.variations.push(r);
  }
  return [...bySku.values()];
}

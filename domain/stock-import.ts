/**
 * Stock file import and stock sync (docs/product/screens.md, "Stock file import"; ADR 0029): the pure half.
 * A CSV's separator, the columns and their mapping, the check of each line, the ranking of guesses, and the
 * plan of one variation's listing (create, update, unchanged, withdraw). The CSV reader (csv-parse, streaming)
 * is app/utils/stock-csv.server.ts; the database look-ups and the writes are in db/queries/stock-import.ts;
 * the service that runs a file is app/utils/stock-import.server.ts.
 */
import { MARKDOWN_MESSAGES, parseMarkdownCell, type MarkdownTerms } from "./markdown";
import { formatCents, parseDollars } from "./money";
import { LISTING_REASONS } from "./reasons";
import { MAX_UNITS_PER_SIZE, WIZARD_MESSAGES } from "./listing-forms";

export const STOCK_IMPORT_LIMITS = Object.freeze({
  maxRows: 10_000,
  maxFileBytes: 5 * 1024 * 1024,
  maxColumns: 50,
  /** An .xlsx: entries and unzipped bytes (a zip bomb stops there). */
  maxEntries: 200,
  maxUnzippedBytes: 60 * 1024 * 1024,
});

/** The fields a stock file maps its columns to; the first three are required. */
export const STOCK_FIELDS = [
  "code",
  "size",
  "units",
  "price",
  "listing_type",
  "reason",
  "markdown",
] as const;
export type StockField = (typeof STOCK_FIELDS)[number];
export const REQUIRED_STOCK_FIELDS: readonly StockField[] = ["code", "size", "units"];
export const STOCK_FIELD_LABELS: Record<StockField, string> = {
  code: "Product code or UPC/EAN",
  size: "Size",
  units: "Units",
  price: "Price (optional)",
  listing_type: "Listing type (optional)",
  reason: "Reason (optional)",
  markdown: "Markdown schedule (optional)",
};

/** Header names recognised without a mapping (compared lower-case, spaces and dashes as "_"). */
const SYNONYMS: Record<StockField, string[]> = {
  code: [
    "product_code",
    "code",
    "sku",
    "style",
    "style_code",
    "upc",
    "ean",
    "barcode",
    "gtin",
    "upc/ean",
    "item_code",
  ],
  size: ["size", "size_label"],
  units: ["units", "qty", "quantity", "on_hand", "stock", "available"],
  price: ["price", "wholesale_price", "wholesale", "cost"],
  listing_type: ["listing_type", "type"],
  reason: ["reason"],
  markdown: ["markdown", "markdown_schedule"],
};

/** The template's columns: each field under the first header name it is recognised by without a mapping. */
export const TEMPLATE_HEADERS: readonly string[] = STOCK_FIELDS.map((f) => SYNONYMS[f][0]);
/** The template's example line; its markdown cell is 10 % off every 7 days down to 60 % of wholesale cost. */
export const TEMPLATE_EXAMPLE = ["ABC123-BLK", "M", "4", "42.50", "sell", "overstock", "10%/7/60%"];

export const STOCK_MSG = Object.freeze({
  notUtf8: 'The file is not UTF-8 text. Save it as "CSV UTF-8" (or as .xlsx) and upload it again.',
  notText: "The file is not a CSV text file. Upload a .csv or an .xlsx.",
  notWorkbook:
    "The file is not a readable .xlsx workbook (or it unpacks to too much). Upload a .csv or an .xlsx.",
  wrongType: "Only .csv and .xlsx files can be imported.",
  tooLarge: `The file is larger than ${STOCK_IMPORT_LIMITS.maxFileBytes / 1024 / 1024} MB.`,
  tooManyRows: `The file has more than ${STOCK_IMPORT_LIMITS.maxRows.toLocaleString("en-US")} rows. Split it into smaller files.`,
  noRows: "The file has no rows under its header row.",
  missingColumns:
    "The file needs at least three columns: a product code or UPC/EAN, a size and units.",
  formula: (line: number) =>
    `Line ${line} holds a formula. Save the file with values only (no formulas) and upload it again.`,
  badQuotes: (line: number) => `Line ${line} has a quote that is never closed.`,
  chooseFile: "Choose a .csv or .xlsx file to import.",
  mapRequired: "Choose the column for this field.",
  mapTwice: "Each column can be used for one field only.",
});

export type StockMapping = Partial<Record<StockField, string>>;

/** Header text as compared: trimmed, lower-case, "*" dropped, spaces and dashes as "_". */
export function headerKey(h: string): string {
  return h
    .replace(/\*/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The mapping found from the headers' names alone; null unless every required field is found. */
export function autoMapping(headers: readonly string[]): StockMapping | null {
  const keys = new Map(headers.map((h) => [headerKey(h), h]));
  const out: StockMapping = {};
  for (const f of STOCK_FIELDS) {
    const hit = SYNONYMS[f].find((s) => keys.has(s));
    if (hit) out[f] = keys.get(hit);
  }
  return REQUIRED_STOCK_FIELDS.every((f) => out[f]) ? out : null;
}

/** A saved mapping still fits this file when every column it names is among the file's headers. */
export function mappingFits(mapping: StockMapping | null, headers: readonly string[]): boolean {
  if (!mapping) return false;
  const set = new Set(headers);
  return (
    REQUIRED_STOCK_FIELDS.every((f) => mapping[f] && set.has(mapping[f]!)) &&
    Object.values(mapping).every((h) => !h || set.has(h))
  );
}

export class StockFileRejected extends Error {}

/** A number as a spreadsheet reads one: an optional sign, digits (thousands commas allowed), decimals, exponent. */
const PLAIN_NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A cell a spreadsheet would run as a formula: one that starts with = + - or @ (after the blanks, tabs and
 * line breaks a spreadsheet skips) and is not a plain number. "-5" and "+1.5" stay numbers; "-2+3+cmd|' /C
 * calc'!A0" (a sign, a digit, then a formula) is a formula.
 */
export function isFormulaText(s: string): boolean {
  const t = s.trim();
  if (!/^[=+\-@]/.test(t) || t === "+" || t === "-") return false;
  return !(/^[+-]/.test(t) && /\d/.test(t) && PLAIN_NUMBER.test(t));
}

/** A CSV file's separator: ";" when its header line holds more semicolons than commas, else ",". */
export function csvSeparator(headerLine: string): "," | ";" {
  return (headerLine.match(/;/g)?.length ?? 0) > (headerLine.match(/,/g)?.length ?? 0) ? ";" : ",";
}

/** One line of the file, its cells keyed by field (after the mapping). */
export interface StockLine {
  line: number;
  values: Partial<Record<StockField, string>>;
}

/** Rows of cells (first = header) → the file's lines through the mapping. Refuses formula cells. */
export function linesFromRows(rows: string[][], mapping: StockMapping, firstLine = 1): StockLine[] {
  const headers = rows[0] ?? [];
  const index = new Map<StockField, number>();
  for (const f of STOCK_FIELDS) {
    const h = mapping[f];
    if (h) index.set(f, headers.indexOf(h));
  }
  return rows.slice(1).map((cells, i) => {
    const values: Partial<Record<StockField, string>> = {};
    for (const [f, col] of index) if (col >= 0) values[f] = (cells[col] ?? "").trim();
    return { line: firstLine + 1 + i, values };
  });
}

/** Throws StockFileRejected for the first cell that is a formula. */
export function refuseFormulas(rows: string[][], firstLine = 1): void {
  rows.forEach((cells, i) => {
    if (cells.some((c) => isFormulaText(c)))
      throw new StockFileRejected(STOCK_MSG.formula(firstLine + i));
  });
}

// --- A line checked on its own -------------------------------------------------------------------------------

export interface CheckedLine {
  line: number;
  code: string;
  size: string;
  units: number;
  priceCents: number | null;
  listingType: "sell" | "swap" | null;
  reason: string | null;
  /** The listing's markdown schedule (docs/product/markdowns.md; parseMarkdownCell), or null. */
  markdown?: MarkdownTerms;
}

const TYPE_WORDS: Record<string, "sell" | "swap"> = {
  sell: "sell",
  sale: "sell",
  swap: "swap",
  trade: "swap",
};

/** The line's own checks (no catalogue needed): a value or the problems. */
export function checkLine(
  l: StockLine,
): { ok: true; value: CheckedLine } | { ok: false; problems: string[] } {
  const v = l.values;
  const problems: string[] = [];
  const code = (v.code ?? "").trim();
  const size = (v.size ?? "").trim();
  if (!code) problems.push("No product code or UPC/EAN.");
  else if (code.length > 60) problems.push("The product code is longer than 60 characters.");
  if (!size) problems.push("No size.");
  else if (size.length > 40) problems.push("The size is longer than 40 characters.");
  const unitsText = (v.units ?? "").trim();
  let units = 0;
  if (!/^\d+$/.test(unitsText)) problems.push(WIZARD_MESSAGES.sizeWholeNumber);
  else {
    units = Number(unitsText);
    if (units > MAX_UNITS_PER_SIZE) problems.push(WIZARD_MESSAGES.sizeTooLarge);
  }
  let priceCents: number | null = null;
  if (v.price) {
    priceCents = parseDollars(v.price);
    if (priceCents === null)
      problems.push(`"${v.price.slice(0, 20)}" is not a price in dollars, like 42.50.`);
  }
  let listingType: "sell" | "swap" | null = null;
  if (v.listing_type) {
    listingType = TYPE_WORDS[v.listing_type.toLowerCase()] ?? null;
    if (!listingType) problems.push(WIZARD_MESSAGES.chooseListingType);
  }
  let reason: string | null = null;
  if (v.reason) {
    const r = v.reason.toLowerCase();
    reason =
      LISTING_REASONS.find((c) => c.value === r || c.label.toLowerCase() === r)?.value ?? null;
    if (!reason)
      problems.push(
        `"${v.reason.slice(0, 40)}" is not a reason: use ${LISTING_REASONS.map((c) => c.value).join(", ")}.`,
      );
  }
  let markdown: MarkdownTerms | null = null;
  if (v.markdown) {
    const md = parseMarkdownCell(v.markdown);
    if (md.ok) markdown = md.terms;
    else problems.push(md.message);
    if (listingType === "swap") problems.push(MARKDOWN_MESSAGES.notSellListing);
  }
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    value: {
      line: l.line,
      code,
      size,
      units,
      priceCents,
      listingType,
      reason,
      ...(markdown ? { markdown } : {}),
    },
  };
}

/** A code as compared: upper-case letters and digits only ("abc-123 " = "ABC123"). */
export function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length - 1; i++) out.push(s.slice(i, i + 2));
  return out;
}

/** One letter off: one substitution, insertion or deletion, or two neighbours swapped (a typo). */
export function oneLetterOff(x: string, y: string): boolean {
  if (x === y || Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (x.length === y.length) {
    if (x.slice(i + 1) === y.slice(i + 1)) return true;
    return x[i] === y[i + 1] && x[i + 1] === y[i] && x.slice(i + 2) === y.slice(i + 2);
  }
  return x.length > y.length ? x.slice(i + 1) === y.slice(i) : x.slice(i) === y.slice(i + 1);
}

/** A typo's score: above a product code inside the typed one (weighted in rankGuesses), below a variation code containing it. */
export const ONE_LETTER_OFF_SCORE = 0.9;

/**
 * How alike two codes are, 0..1: equal when normalised 1, one inside the other 0.8+, one letter off (codes of
 * 4 or more) ONE_LETTER_OFF_SCORE, else bigram overlap.
 */
export function codeSimilarity(a: string, b: string): number {
  const x = normaliseCode(a);
  const y = normaliseCode(b);
  if (!x || !y) return 0;
  if (x === y) return 1;
  if (x.includes(y) || y.includes(x))
    return 0.8 + 0.2 * (Math.min(x.length, y.length) / Math.max(x.length, y.length));
  if (Math.min(x.length, y.length) >= 4 && oneLetterOff(x, y)) return ONE_LETTER_OFF_SCORE;
  const bx = bigrams(x);
  const by = bigrams(y);
  if (!bx.length || !by.length) return 0;
  const pool = [...by];
  let common = 0;
  for (const g of bx) {
    const k = pool.indexOf(g);
    if (k >= 0) {
      common++;
      pool.splice(k, 1);
    }
  }
  return (0.8 * (2 * common)) / (bx.length + by.length);
}

export interface Candidate {
  variationId: number;
  sku: string;
  productSku: string;
  productName: string;
  color: string;
}

export const MAX_GUESSES = 3;
export const MIN_GUESS_SCORE = 0.35;

/** The best guesses for a code, best first (score, then code, then id): at most MAX_GUESSES, none below MIN_GUESS_SCORE. */
export function rankGuesses(
  code: string,
  candidates: readonly Candidate[],
): (Candidate & { score: number })[] {
  return candidates
    .map((c) => ({
      ...c,
      // A product code counts a little less than a variation's: "IM-909-DX" is a typo of the variation
      // IM-909-DI before it is any colour of the product IM-909.
      score: Math.max(codeSimilarity(code, c.sku), codeSimilarity(code, c.productSku) * 0.9),
    }))
    .filter((c) => c.score >= MIN_GUESS_SCORE)
    .sort(
      (a, b) => b.score - a.score || a.sku.localeCompare(b.sku) || a.variationId - b.variationId,
    )
    .slice(0, MAX_GUESSES);
}

// --- One variation's plan -------------------------------------------------------------------------------------

export type SizesMap = Record<string, number>;

export interface ExistingListing {
  id: number;
  sizes: SizesMap;
  listingType: "sell" | "swap";
  reason: string;
  /** Orders still waiting for an answer that take units from it. */
  inFlight: number;
  /** An earlier import marked it to be withdrawn when those orders end. */
  withdrawPending?: boolean;
}

export type PlanAction =
  | { kind: "create"; sizes: SizesMap; listingType: "sell" | "swap"; reason: string }
  | {
      kind: "update";
      listingId: number;
      sizes: SizesMap;
      listingType: "sell" | "swap";
      reason: string;
    }
  | { kind: "unchanged"; listingId: number }
  | { kind: "withdraw"; listingId: number }
  | { kind: "kept"; listingId: number; message: string }
  | { kind: "nothing" };

/** Said of a listing to withdraw that an order waiting for an answer takes units from (docs/guides/stock-import.md "Sync"). */
export const IN_FLIGHT_KEPT =
  "In an order waiting for an answer: it will be withdrawn when that order ends.";
/** Said of a listing marked so by an earlier import that this file lists again with units. */
export const WITHDRAWAL_CALLED_OFF =
  "Listed again: it will no longer be withdrawn when its order ends.";

export function sameSizes(a: SizesMap, b: SizesMap): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? 0) !== (b[k] ?? 0)) return false;
  return true;
}

/**
 * What a file's lines for one variation do to the retailer's live listing of it: the listing's sizes become
 * the file's (every size of the run; a size the file does not name is 0). Type and reason come from the file,
 * else the listing's, else sell / overstock. A total of 0 withdraws the listing, unless an order is in flight.
 */
export function planVariation(
  run: readonly string[],
  lines: readonly CheckedLine[],
  existing: ExistingListing | null,
): PlanAction {
  const sizes: SizesMap = {};
  for (const label of run) sizes[label] = 0;
  for (const l of lines) sizes[l.size] = l.units;
  const total = Object.values(sizes).reduce((a, n) => a + n, 0);
  const listingType =
    lines.find((l) => l.listingType)?.listingType ?? existing?.listingType ?? "sell";
  const reason = lines.find((l) => l.reason)?.reason ?? existing?.reason ?? "overstock";
  if (!existing)
    return total > 0 ? { kind: "create", sizes, listingType, reason } : { kind: "nothing" };
  if (total === 0) return planWithdrawal(existing);
  if (
    sameSizes(sizes, existing.sizes) &&
    listingType === existing.listingType &&
    reason === existing.reason
  )
    return { kind: "unchanged", listingId: existing.id };
  return { kind: "update", listingId: existing.id, sizes, listingType, reason };
}

/**
 * A listing absent from a whole-surplus file (or at 0 units): withdrawn now, or, while an order is in flight,
 * kept and marked to be withdrawn when its last such order ends (db/queries/deferred-withdrawals.ts).
 */
export function planWithdrawal(existing: ExistingListing): PlanAction {
  return existing.inFlight > 0
    ? { kind: "kept", listingId: existing.id, message: IN_FLIGHT_KEPT }
    : { kind: "withdraw", listingId: existing.id };
}

/** The price rule: listings sell at the catalogue's wholesale price, so a price given must be that one. */
export function priceProblem(given: number | null, catalogueCents: number): string | null {
  if (given === null || given === catalogueCents) return null;
  return `The price ${formatCents(given)} is not the catalogue's wholesale price ${formatCents(catalogueCents)}: listings sell at the catalogue price.`;
}

/**
 * The demo year's listings and requests (ADR 0063), made as the product makes them, so each goes through the
 * matches' hook (db/queries/matches.ts; docs/product/screens.md, "Matches") on its way in:
 *
 * - a listing saved by the listing wizard (createListingChecked), with its markdown schedule set after it as the
 *   wizard's last stage sets it (setMarkdown; docs/product/markdowns.md, "Where a seller sets it");
 * - a month's stock sent as a file (/stock-import): the import made, previewed, claimed and confirmed as the page
 *   does (db/queries/stock-import-run.ts runStockImport), the markdown column on the lines that have one;
 * - a request saved by the wizard (createRequestChecked).
 *
 * A style the seller already lists live is refused by the wizard ("already listed"), so a planned listing takes
 * the next style of its brand the seller does not list yet; when it lists them all, the units come as a restock:
 * a stock file whose lines give that listing's units plus the new ones (the file states the stock on hand).
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/client";
import { createListingChecked, createRequestChecked } from "../../db/queries/listing-write";
import { setMarkdown } from "../../db/queries/markdowns";
import {
  claimImport,
  createImport,
  liveListings,
  recordImportResults,
  setImportPreview,
  type LiveListing,
} from "../../db/queries/stock-import";
import { runStockImport } from "../../db/queries/stock-import-run";
import { localDateISO } from "../../domain/business-days";
import type { MarkdownTerms } from "../../domain/markdown";
import { autoMapping, TEMPLATE_HEADERS } from "../../domain/stock-import";
import type { PlannedListing, PlannedMarkdown, PlannedRequest } from "./plan";

export interface DemoVariation {
  id: number;
  sku: string;
  priceCents: number;
}

export interface Listed {
  id: number;
  variationId: number;
  priceCents: number;
  providerId: number;
}

export interface ListingContext {
  db: Db;
  timeZone: string;
  /** Server ms now (the marketplace's day of a schedule or an import). */
  now(): Promise<number>;
  retailerId(n: number): number;
  userId(n: number): number;
  /** The variations of a demo brand (DEMO_BRANDS index), in the seed's order. */
  variationsOf(brand: number): DemoVariation[];
  listed: Map<number, Listed>;
  count(what: "imports" | "markdowns" | "requests"): void;
}

const termsOf = (m: PlannedMarkdown): MarkdownTerms => ({
  stepKind: "percent",
  stepValue: m.stepPercent,
  everyDays: m.everyDays,
  floorKind: "percent",
  floorValue: m.floorPercent,
  endDate: null,
});

/** The stock file's markdown cell (domain/markdown.ts parseMarkdownCell): "10%/7/60%". */
const cellOf = (m: PlannedMarkdown) => `${m.stepPercent}%/${m.everyDays}/${m.floorPercent}%`;

/** The seller's live listings (units left) by style, newest first, as the wizard and the import find them. */
async function liveByVariation(db: Db, providerId: number): Promise<Map<number, LiveListing>> {
  const out = new Map<number, LiveListing>();
  for (const l of await liveListings(db, providerId))
    if (!out.has(l.variationId)) out.set(l.variationId, l);
  return out;
}

/** The planned style, or the next of its brand not in `busy` (the seller's live styles). */
function freeVariation(
  ctx: ListingContext,
  l: PlannedListing,
  busy: { has(id: number): boolean },
): DemoVariation | null {
  const vs = ctx.variationsOf(l.brand);
  for (let i = 0; i < vs.length; i++) {
    const v = vs[(l.variation + i) % vs.length];
    if (!busy.has(v.id)) return v;
  }
  return null;
}

/** A listing saved by the wizard, and its markdown schedule. */
export async function wizardListing(ctx: ListingContext, l: PlannedListing): Promise<void> {
  const providerId = ctx.retailerId(l.seller);
  const busy = new Set((await liveByVariation(ctx.db, providerId)).keys());
  for (;;) {
    const v = freeVariation(ctx, l, busy);
    if (!v) return importListings(ctx, [l], `restock-day-${l.day}-store-${l.seller}.csv`);
    const res = await createListingChecked(ctx.db, {
      providerId,
      variationId: v.id,
      listingType: l.type,
      reason: "overstock",
      sizes: l.sizes,
      terms: true,
    });
    if (!res.ok && res.reason === "already_listed") {
      busy.add(v.id);
      continue;
    }
    if (!res.ok) throw new Error(`demo listing ${l.key}: ${JSON.stringify(res)}`);
    ctx.listed.set(l.key, {
      id: res.listing.id,
      variationId: v.id,
      priceCents: res.listing.priceCents || v.priceCents,
      providerId,
    });
    if (l.markdown) {
      const md = await setMarkdown(ctx.db, {
        listingId: res.listing.id,
        retailerId: providerId,
        terms: termsOf(l.markdown),
        today: localDateISO(await ctx.now(), ctx.timeZone),
      });
      if (!md.ok) throw new Error(`demo listing ${l.key}: markdown refused: ${md.message}`);
      ctx.count("markdowns");
    }
    return;
  }
}

/** The template's columns but the price (the catalogue's price is the listing's). */
const FILE_HEADERS = TEMPLATE_HEADERS.filter((h) => h !== "price");

/**
 * A seller's stock file of the month: one line per size of each planned listing, imported as the page imports
 * an upload confirmed at once. A line the import refuses (it should not) fails the year.
 */
export async function importListings(
  ctx: ListingContext,
  file: PlannedListing[],
  name: string,
): Promise<void> {
  const seller = file[0].seller;
  const retailerId = ctx.retailerId(seller);
  const live = await liveByVariation(ctx.db, retailerId);
  const inFile = new Set<number>();
  const busy = { has: (id: number) => live.has(id) || inFile.has(id) };
  const chosen = file.map((l) => {
    const v = freeVariation(ctx, l, busy) ?? restockOf(ctx, l, live, inFile);
    inFile.add(v.id);
    return v;
  });
  const cells = [
    FILE_HEADERS,
    ...file.flatMap((l, i) => {
      // A restock's lines: the listing's units plus the new ones, every size it has.
      const sizes = { ...(live.get(chosen[i].id)?.sizes ?? {}) };
      for (const [size, units] of Object.entries(l.sizes)) sizes[size] = (sizes[size] ?? 0) + units;
      return Object.entries(sizes)
        .filter(([, units]) => units > 0)
        .map(([size, units], k) => [
          chosen[i].sku,
          size,
          String(units),
          l.type,
          "overstock",
          l.markdown && k === 0 ? cellOf(l.markdown) : "",
        ]);
    }),
  ];
  const bytes = Buffer.from(cells.map((r) => r.join(",")).join("\r\n") + "\r\n");
  const imp = await createImport(ctx.db, {
    retailerId,
    uploadedBy: ctx.userId(seller),
    fileName: name,
    fileSha256: createHash("sha256").update(bytes).digest("hex"),
    wholeSurplus: false,
    cells,
  });
  const input = {
    retailerId,
    cells,
    mapping: autoMapping(cells[0])!,
    wholeSurplus: false,
    today: localDateISO(await ctx.now(), ctx.timeZone),
  };
  await setImportPreview(ctx.db, imp.id, await runStockImport(ctx.db, input));
  if (!(await claimImport(ctx.db, imp.id))) throw new Error(`demo import ${name}: claimed twice`);
  const results = await runStockImport(ctx.db, { ...input, confirm: { importId: imp.id } });
  await recordImportResults(ctx.db, imp.id, results);
  for (const [i, l] of file.entries()) {
    const row = results.find((r) => r.variationId === chosen[i].id);
    if ((row?.action !== "create" && row?.action !== "update") || row.listingId === null)
      throw new Error(`demo import ${name}: listing ${l.key}: ${JSON.stringify(row)}`);
    ctx.listed.set(l.key, {
      id: row.listingId,
      variationId: chosen[i].id,
      priceCents: chosen[i].priceCents,
      providerId: retailerId,
    });
    if (row.messages.includes("Markdown schedule set.")) ctx.count("markdowns");
  }
  ctx.count("imports");
}

/** A live listing of the planned brand and type to restock (none in the file yet); the year fails without one. */
function restockOf(
  ctx: ListingContext,
  l: PlannedListing,
  live: Map<number, LiveListing>,
  inFile: Set<number>,
): DemoVariation {
  const vs = ctx.variationsOf(l.brand);
  for (let i = 0; i < vs.length; i++) {
    const v = vs[(l.variation + i) % vs.length];
    if (live.get(v.id)?.listingType === l.type && !inFile.has(v.id)) return v;
  }
  throw new Error(`demo listing ${l.key}: no style of its brand to list or restock`);
}

/** A request for the style of a listing of the year; none when the requestor lists or requests it already. */
export async function wizardRequest(ctx: ListingContext, r: PlannedRequest): Promise<void> {
  const res = await createRequestChecked(ctx.db, {
    requestorId: ctx.retailerId(r.requestor),
    variationId: ctx.listed.get(r.listing)!.variationId,
    reason: "best_seller",
    sizes: r.sizes,
  });
  if (res.ok) ctx.count("requests");
  else if (res.reason !== "already_requested" && res.reason !== "own_listing_exists")
    throw new Error(`demo request: ${JSON.stringify(res)}`);
}

/**
 * The marketplace's URL state (docs/product/screens.md, "Marketplace"): offset, limit, viewAll=on, category, brand, sizes (comma
 * list), variantId, id, units, search, ordering, and the named route's retailer__id (only that retailer's
 * listings, or on /sell/ its requests: the swap cart's "one provider" view). Pure (zod only): the loader parses with it and the page
 * builds its links with it, so both agree. Bad values are reported (the loader answers 400), never guessed.
 */
import { z } from "zod";
import { CONTROL_CHARACTER, CONTROL_CHARACTERS_MESSAGE, text } from "../../domain/text";
import { MAX_ROW_ID } from "../../domain/ids";

export type MarketTab = "buy" | "swap" | "sell";
export const MARKET_TABS: readonly MarketTab[] = ["buy", "swap", "sell"];

/** Tab labels (verbatim). */
export const TAB_LABELS: Readonly<Record<MarketTab, string>> = Object.freeze({
  buy: "Listings Available to Buy",
  swap: "Listings Available to Swap",
  sell: "Requests of Authorized Retailers",
});

/** Ordering choices (verbatim labels), URL value -> label. "recent" is the default. */
export const ORDERINGS = [
  { value: "recent", label: "Most Recent" },
  { value: "sku", label: "A-Z by Product Code" },
  { value: "-sku", label: "Z-A by Product Code" },
  { value: "price", label: "Price Low to High" },
  { value: "-price", label: "Price High to Low" },
] as const;
export type Ordering = (typeof ORDERINGS)[number]["value"];

/** Page sizes (docs/product/screens.md, "Limits"). */
export const PAGE_SIZE = 20;
export const VIEW_ALL_SIZE = 100;
export const LOAD_MORE_SIZE = 40;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 100_000;
/** The search starts after more than 2 characters (or on submit). */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_MAX_CHARS = 60;

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A whole number parameter with clear messages ("abc" -> "limit must be a whole number."). */
function intParam(what: string, min: number, max: number) {
  return z.coerce
    .number({ invalid_type_error: `${what} must be a whole number.` })
    .refine((n) => !Number.isNaN(n), `${what} must be a whole number.`)
    .pipe(
      z
        .number()
        .int(`${what} must be a whole number.`)
        .min(
          min,
          min === 1 ? `${what} must be a positive number.` : `${what} must be ${min} or more.`,
        )
        .max(max, `${what} must be at most ${max}.`),
    );
}

const idParam = (what: string) =>
  z.preprocess(blankToUndefined, intParam(what, 1, MAX_ROW_ID).optional());

const SizeLabel = text().min(1).max(40, "Each size must be at most 40 characters.");

export const MarketQuerySchema = z.object({
  offset: z.preprocess(blankToUndefined, intParam("offset", 0, MAX_OFFSET).default(0)),
  limit: z.preprocess(blankToUndefined, intParam("limit", 1, MAX_LIMIT).optional()),
  viewAll: z.preprocess(
    blankToUndefined,
    z.enum(["on", "off"], { errorMap: () => ({ message: 'viewAll must be "on".' }) }).optional(),
  ),
  category: idParam("category"),
  brand: idParam("brand"),
  retailer__id: idParam("retailer__id"),
  variantId: idParam("variantId"),
  id: idParam("id"),
  units: z.preprocess(blankToUndefined, intParam("units", 0, 100_000).optional()),
  sizes: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(400, "sizes is too long.")
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(SizeLabel, { invalid_type_error: "sizes must be a comma-separated list." })
          .max(40, "Choose at most 40 sizes."),
      )
      .optional(),
  ),
  search: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    text().max(SEARCH_MAX_CHARS, `Search for at most ${SEARCH_MAX_CHARS} characters.`).optional(),
  ),
  ordering: z.preprocess(
    blankToUndefined,
    z
      .enum(["recent", "sku", "-sku", "price", "-price"], {
        errorMap: () => ({
          message: `ordering must be one of ${ORDERINGS.map((o) => o.value).join(", ")}.`,
        }),
      })
      .default("recent"),
  ),
});

export interface MarketQuery {
  offset: number;
  /** Per brand; defaults to 20, or 100 in view-all mode. */
  limit: number;
  viewAll: boolean;
  category?: number;
  brand?: number;
  /** retailer__id: only this retailer's listings (buy, swap) or requests (sell). */
  retailerId?: number;
  variantId?: number;
  id?: number;
  units?: number;
  sizes?: string[];
  search?: string;
  ordering: Ordering;
}

export type ParsedQuery = { ok: true; query: MarketQuery } | { ok: false; message: string };

const KNOWN = [
  "offset",
  "limit",
  "viewAll",
  "category",
  "brand",
  "retailer__id",
  "variantId",
  "id",
  "units",
  "sizes",
  "search",
  "ordering",
] as const;

/**
 * Parses the URL's parameters (unknown ones are ignored; a parameter given twice is an error). `pathBrand`
 * is the optional /buy/{brand} path segment; it must agree with ?brand= when both are given.
 */
export function parseMarketQuery(params: URLSearchParams, pathBrand?: string): ParsedQuery {
  const raw: Record<string, string> = {};
  for (const k of KNOWN) {
    const all = params.getAll(k);
    if (all.length > 1) return { ok: false, message: `Give ${k} only once.` };
    if (all.length === 1) raw[k] = all[0];
  }
  if (pathBrand !== undefined) {
    if (raw.brand !== undefined && raw.brand !== pathBrand)
      return { ok: false, message: "Two different brands were given." };
    raw.brand = pathBrand;
  }
  // Control characters are refused where input is parsed (domain/text.ts): here, for the URL.
  const control = Object.keys(raw).find((k) => CONTROL_CHARACTER.test(raw[k]));
  if (control) return { ok: false, message: `${control}: ${CONTROL_CHARACTERS_MESSAGE}` };
  // No parameter at all (the default page, the most requested): the schema's defaults, without zod.
  if (Object.keys(raw).length === 0)
    return { ok: true, query: { offset: 0, limit: PAGE_SIZE, viewAll: false, ordering: "recent" } };
  const r = MarketQuerySchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = String(issue.path[0] ?? "query");
    const msg = issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
    return { ok: false, message: msg };
  }
  const d = r.data;
  const viewAll = d.viewAll === "on";
  if (viewAll && d.brand === undefined)
    return { ok: false, message: "viewAll shows one brand: give a brand too." };
  return {
    ok: true,
    query: {
      offset: d.offset,
      limit: d.limit ?? (viewAll ? VIEW_ALL_SIZE : PAGE_SIZE),
      viewAll,
      category: d.category,
      brand: d.brand,
      retailerId: d.retailer__id,
      variantId: d.variantId,
      id: d.id,
      units: d.units && d.units > 0 ? d.units : undefined,
      sizes: d.sizes && d.sizes.length > 0 ? d.sizes : undefined,
      search: d.search ? d.search : undefined,
      ordering: d.ordering,
    },
  };
}

/** The URL of a marketplace page with these parameters (defaults left out). */
export function marketHref(tab: MarketTab, q: Partial<MarketQuery>): string {
  const p = new URLSearchParams();
  if (q.viewAll) p.set("viewAll", "on");
  if (q.brand !== undefined) p.set("brand", String(q.brand));
  if (q.retailerId !== undefined) p.set("retailer__id", String(q.retailerId));
  if (q.search) p.set("search", q.search);
  if (q.ordering && q.ordering !== "recent") p.set("ordering", q.ordering);
  if (q.category !== undefined) p.set("category", String(q.category));
  if (q.sizes && q.sizes.length > 0) p.set("sizes", q.sizes.join(","));
  if (q.units !== undefined) p.set("units", String(q.units));
  if (q.variantId !== undefined) p.set("variantId", String(q.variantId));
  if (q.id !== undefined) p.set("id", String(q.id));
  const defaultLimit = q.viewAll ? VIEW_ALL_SIZE : PAGE_SIZE;
  if (q.offset) p.set("offset", String(q.offset));
  if (q.limit !== undefined && q.limit !== defaultLimit) p.set("limit", String(q.limit));
  const s = p.toString();
  return `/${tab}/${s ? `?${s}` : ""}`;
}

/** The filters that carry over between brands and into view-all (not paging, not view-all itself). */
export function filtersOf(q: MarketQuery): Partial<MarketQuery> {
  return {
    search: q.search,
    ordering: q.ordering,
    category: q.category,
    sizes: q.sizes,
    units: q.units,
    variantId: q.variantId,
    id: q.id,
    retailerId: q.retailerId,
  };
}

/** Shown when a variation has no image. */
export const PLACEHOLDER_IMAGE = "/images/placeholder-product.svg";

/** Where a card opens (/listing/buy/{id}; a request: /listing/sell/{id}). */
export function itemHref(tab: MarketTab, id: number): string {
  return `/listing/${tab}/${id}`;
}

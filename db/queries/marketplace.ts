/**
 * The marketplace (docs/product/screens.md, "Marketplace"): listings available to buy or swap, and requests of
 * authorized retailers, grouped by brand. The ONLY place the marketplace SQL lives.
 *
 * Shape (docs/guides/marketplace.md, docs/performance.md):
 * - one statement per page: `unnest(brand ids) CROSS JOIN LATERAL (top N of that brand)`; each lateral is
 *   an index scan of a partial index (brand_id[, listing_type], <ordering key>, id) WHERE visible, stopped
 *   by LIMIT — so the cost is (brands x page size), never the table size;
 * - the ordering keys (sku_key = lower(sku), price_cents) are copied onto listings/requests by a trigger;
 * - "is there more?" is answered by fetching one row more than shown (no COUNT(*));
 * - the cards come back as one json value (json_agg), not a row each: decoding ~200 rows field by field
 *   was a visible part of the web process's CPU per page;
 * - the provider/requestor's store name is selected only for staff (anonymity: it never leaves the database
 *   for anyone else).
 */
import { sql, type SQL } from "drizzle-orm";
import type { SizesMap } from "../schema";
import type { DbOrTx } from "../client";
import { isRowId } from "../../domain/ids";

export type MarketTab = "buy" | "swap" | "sell";
export const MARKET_ORDERINGS = ["recent", "sku", "-sku", "price", "-price"] as const;
export type MarketOrdering = (typeof MARKET_ORDERINGS)[number];

/** Our cap on one page per brand (view all + many "load more"); the page sizes are the caller's. */
export const MARKET_MAX_LIMIT = 1000;

export interface MarketFilters {
  /** products.category_id */
  category?: number;
  /** Only listings/requests with units > 0 in at least one of these size labels. */
  sizes?: string[];
  variantId?: number;
  id?: number;
  /** Minimum total units. */
  units?: number;
  /** Product-code search (case-insensitive "contains"); the caller enforces the 3-character minimum. */
  search?: string;
  /**
   * retailer__id (the named route buyswap's parameter): only this retailer's listings (its provider id) or,
   * on the requests tab, its requests (requestor id). Read through listings_provider_idx /
   * listing_requests_requestor_idx (the "ranked" page shape).
   */
  retailerId?: number;
}

export interface MarketPageQuery {
  tab: MarketTab;
  /** The brands to show, in display order (already restricted to what the viewer may see). */
  brandIds: number[];
  ordering: MarketOrdering;
  /** Per brand. */
  offset: number;
  limit: number;
  filters: MarketFilters;
  /**
   * The viewer's retailer (null for staff as admin). Its own requests are never shown to it on the
   * requests tab (docs/product/glossary.md, "Roles and permissions"); its own listings are shown (marked `own`; the cart refuses them).
   */
  viewerRetailerId: number | null;
  /** Staff: select the other party's store name too. */
  withNames: boolean;
}

export interface MarketCard {
  id: number;
  brandId: number;
  variationId: number;
  productName: string;
  sku: string;
  color: string;
  priceCents: number;
  totalUnits: number;
  thumbnailUrl: string | null;
  /** The provider (listings) or requestor (requests). */
  partyId: number;
  /** Only when `withNames` (staff); otherwise null and never read from the database. */
  partyName: string | null;
  /** The viewer's own listing. */
  own: boolean;
}

export interface MarketBrandPage {
  cards: MarketCard[];
  /** More cards exist after this page. */
  hasMore: boolean;
}

interface Source {
  table: SQL;
  party: SQL;
  visible: SQL;
}

function source(tab: MarketTab): Source {
  if (tab === "sell") {
    return {
      table: sql`listing_requests`,
      party: sql`t.requestor_id`,
      visible: sql`t.total_units > 0`,
    };
  }
  const type = tab === "buy" ? "sell" : "swap";
  return {
    table: sql`listings`,
    party: sql`t.provider_id`,
    // Matches the partial indexes' predicate (migration 0004) so they can be used.
    visible: sql.raw(`t.listing_type = '${type}' and t.status = 'active' and t.total_units > 0`),
  };
}

/** ORDER BY of the inner (per-brand) scan; every one ends with id for a stable order. */
function orderBy(o: MarketOrdering, alias: "t" | "x"): SQL {
  const a = sql.raw(alias);
  switch (o) {
    case "recent":
      return sql`${a}.created_at desc, ${a}.id desc`;
    case "sku":
      return sql`${a}.sku_key asc, ${a}.id asc`;
    case "-sku":
      return sql`${a}.sku_key desc, ${a}.id desc`;
    case "price":
      return sql`${a}.price_cents asc, ${a}.id asc`;
    case "-price":
      return sql`${a}.price_cents desc, ${a}.id desc`;
  }
}

/** `%` and `_` typed by the user match themselves. */
function likeContains(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filterSql(f: MarketFilters, party: SQL, excludeRetailerId: number | null): SQL {
  const parts: SQL[] = [];
  if (excludeRetailerId !== null) parts.push(sql`${party} <> ${excludeRetailerId}`);
  if (f.retailerId !== undefined) parts.push(sql`${party} = ${f.retailerId}`);
  if (f.id !== undefined) parts.push(sql`t.id = ${f.id}`);
  if (f.variantId !== undefined) parts.push(sql`t.variation_id = ${f.variantId}`);
  if (f.units !== undefined) parts.push(sql`t.total_units >= ${f.units}`);
  if (f.search) parts.push(sql`t.sku_key like ${likeContains(f.search)}`);
  if (f.sizes && f.sizes.length > 0) {
    const labels = `{${f.sizes.map((s) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`;
    parts.push(
      sql`exists (select 1 from jsonb_each_text(t.sizes) s where s.key = any(${labels}::text[]) and s.value::int > 0)`,
    );
  }
  if (f.category !== undefined) {
    parts.push(
      sql`exists (select 1 from product_variations fv join products fp on fp.id = fv.product_id where fv.id = t.variation_id and fp.category_id = ${f.category})`,
    );
  }
  // Inactive (or pending/denied) retailers' listings and requests are hidden.
  parts.push(
    sql`exists (select 1 from retailers pr where pr.id = ${party} and pr.status = 'active')`,
  );
  return sql.join(parts, sql` and `);
}

function intArray(ids: number[]): string {
  for (const id of ids)
    if (!Number.isSafeInteger(id)) throw new RangeError("brand ids must be integers");
  return `{${ids.join(",")}}`;
}

/**
 * How the per-brand top N is read:
 * - "lateral": for each brand, an index scan in the ordering's index stopped by LIMIT (cost: brands x
 *   page, whatever the table size). With a search the planner may scan the trigram index instead, once
 *   per brand.
 * - "ranked": the matches of a selective product-code search are read ONCE from the trigram index and
 *   ranked per brand (row_number). Cheaper than repeating the trigram scan for each of many brands, but
 *   only when the matches are few. Also the shape of a retailer__id page: that one retailer's listings
 *   (or requests) are read once through its provider (requestor) index and ranked per brand, instead of
 *   walking each brand's ordering index past every other retailer's rows.
 */
export type PageShape = "lateral" | "ranked";

/** A search expected to match at most this many rows (over the viewer's brands) is "ranked". */
export const RANKED_SEARCH_MAX_ROWS = 2000;

/** A node of EXPLAIN (FORMAT JSON). */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows"?: number;
  Plans?: PlanNode[];
  [k: string]: unknown;
}

/** Every node of a plan tree. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** A sequential scan of listings or listing_requests anywhere in the plan (what the benchmark forbids). */
export function hasSeqScan(
  plan: PlanNode,
  tables: readonly string[] = ["listings", "listing_requests"],
): boolean {
  return planNodes(plan).some(
    (n) => n["Node Type"] === "Seq Scan" && tables.includes(n["Relation Name"] ?? ""),
  );
}

/** Picks the shape from the planner's own estimate of the search's matches (a plan, not a run: ~0.2 ms). */
export async function choosePageShape(db: DbOrTx, q: MarketPageQuery): Promise<PageShape> {
  if (q.filters.retailerId !== undefined && q.brandIds.length > 0) return "ranked";
  if (!q.filters.search || q.brandIds.length < 2) return "lateral";
  const src = source(q.tab);
  const rows = (await db.execute(sql`
    explain (format json) select 1 from ${src.table} t
    where t.brand_id = any(${intArray(q.brandIds)}::int[]) and ${src.visible} and t.sku_key like ${likeContains(q.filters.search)}
  `)) as unknown as { "QUERY PLAN": [{ Plan: PlanNode }] }[];
  const plan = rows[0]?.["QUERY PLAN"]?.[0]?.Plan;
  const estimate = plan?.["Plan Rows"];
  // Ranked only when the matches are few AND the planner reads them through an index (a match set large
  // enough for a sequential scan is better served by the per-brand index scans).
  return typeof estimate === "number" &&
    estimate <= RANKED_SEARCH_MAX_ROWS &&
    plan &&
    !hasSeqScan(plan)
    ? "ranked"
    : "lateral";
}

/** The FROM clause (the per-brand top N joined to variation and product) and the card's computed columns. */
function pageParts(
  q: MarketPageQuery,
  shape: PageShape,
): { from: SQL; thumbnail: SQL; partyName: SQL | null; order: SQL } {
  const limit = Math.max(1, Math.min(q.limit, MARKET_MAX_LIMIT));
  const offset = Math.max(0, q.offset);
  const src = source(q.tab);
  const cols = sql`t.id, t.brand_id, t.variation_id, ${src.party} as party_id, t.total_units, t.price_cents, t.sku_key, t.created_at,
             ${q.tab === "sell" ? sql`null::text` : sql`case when jsonb_array_length(t.images) > 0 then '/uploads/' || (t.images->>0) end`} as photo`;
  const where = sql`${src.visible} and ${filterSql(q.filters, src.party, q.tab === "sell" ? q.viewerRetailerId : null)}`;
  const brandList = sql`unnest(${intArray(q.brandIds)}::int[]) with ordinality as b(brand_id, ord)`;
  const perBrand =
    shape === "ranked"
      ? sql`(
        select * from (
          select ${cols}, row_number() over (partition by t.brand_id order by ${orderBy(q.ordering, "t")}) as rn
          from ${src.table} t
          where t.brand_id = any(${intArray(q.brandIds)}::int[]) and ${where}
        ) w where w.rn > ${offset} and w.rn <= ${offset + limit + 1}
      ) x join ${brandList} on b.brand_id = x.brand_id`
      : sql`${brandList}
      cross join lateral (
        select ${cols}
        from ${src.table} t
        where t.brand_id = b.brand_id and ${where}
        order by ${orderBy(q.ordering, "t")}
        limit ${limit + 1} offset ${offset}
      ) x`;
  return {
    from: sql`${perBrand}
    join product_variations v on v.id = x.variation_id
    join products p on p.id = v.product_id`,
    thumbnail: sql`coalesce(
             (select vi.thumbnail_url from variation_images vi where vi.variation_id = x.variation_id order by vi.position, vi.id limit 1),
             x.photo
           )`,
    // Staff only: the other party's store name (anonymity: never selected for anyone else).
    partyName: q.withNames
      ? sql`(select pn.store_name from retailers pn where pn.id = x.party_id)`
      : null,
    order: sql`b.ord, ${orderBy(q.ordering, "x")}`,
  };
}

/** The page's one statement, a row per card (exported for the plan checks of tests and the benchmark). */
export function marketplacePageSql(q: MarketPageQuery, shape: PageShape): SQL {
  const p = pageParts(q, shape);
  return sql`
    select x.brand_id, x.id, x.variation_id, x.party_id, x.total_units, x.price_cents,
           p.display_name as product_name, v.sku, v.color, ${p.thumbnail} as thumbnail_url
           ${p.partyName ? sql`, ${p.partyName} as party_name` : sql``}
    from ${p.from}
    order by ${p.order}
  `;
}

/**
 * The same statement as it runs: the cards as ONE json value (an array of arrays in page order, the
 * columns of marketplacePageSql in that order). One value parsed by JSON.parse costs the web process far
 * less than ~200 rows of ten fields decoded one by one by the driver.
 */
export function marketplacePageJsonSql(q: MarketPageQuery, shape: PageShape): SQL {
  const p = pageParts(q, shape);
  return sql`
    select coalesce(json_agg(json_build_array(
             x.brand_id, x.id, x.variation_id, x.party_id, x.total_units, x.price_cents,
             p.display_name, v.sku, v.color, ${p.thumbnail}${p.partyName ? sql`, ${p.partyName}` : sql``}
           ) order by ${p.order}), '[]'::json) as cards
    from ${p.from}
  `;
}

type CardRow = [
  brandId: number,
  id: number,
  variationId: number,
  partyId: number,
  totalUnits: number,
  priceCents: number,
  productName: string,
  sku: string,
  color: string,
  thumbnailUrl: string | null,
  partyName?: string | null,
];

/**
 * One page of the marketplace: for each brand of `q.brandIds`, `q.limit` cards after `q.offset` in the
 * chosen ordering, and whether there are more. Brands without cards map to an empty page.
 */
export async function marketplacePage(
  db: DbOrTx,
  q: MarketPageQuery,
): Promise<Map<number, MarketBrandPage>> {
  const out = new Map<number, MarketBrandPage>();
  for (const id of q.brandIds) out.set(id, { cards: [], hasMore: false });
  if (q.brandIds.length === 0) return out;
  const limit = Math.max(1, Math.min(q.limit, MARKET_MAX_LIMIT));
  const shape = await choosePageShape(db, q);
  const [row] = (await db.execute(marketplacePageJsonSql(q, shape))) as unknown as {
    cards: CardRow[] | string;
  }[];
  const rows: CardRow[] = typeof row.cards === "string" ? JSON.parse(row.cards) : row.cards;

  for (const [
    brandId,
    id,
    variationId,
    partyId,
    totalUnits,
    priceCents,
    productName,
    sku,
    color,
    thumbnailUrl,
    partyName,
  ] of rows) {
    const page = out.get(brandId)!;
    if (page.cards.length >= limit) {
      page.hasMore = true;
      continue;
    }
    page.cards.push({
      id,
      brandId,
      variationId,
      productName,
      sku,
      color,
      priceCents,
      totalUnits,
      thumbnailUrl,
      partyId,
      partyName: q.withNames ? (partyName ?? null) : null,
      own: partyId === q.viewerRetailerId,
    });
  }
  return out;
}

export interface MarketItemDetail {
  kind: "listing" | "request";
  id: number;
  /** Listings: sell or swap; requests: null. */
  listingType: "sell" | "swap" | null;
  brandId: number;
  brandName: string;
  variationId: number;
  productName: string;
  description: string;
  sku: string;
  color: string;
  priceCents: number;
  /** Size label -> units, in the product's size order (labels without a size row last). */
  sizes: [string, number][];
  totalUnits: number;
  /** Full-size images: the listing's own photos first, then the variation's. */
  images: { url: string; alt: string }[];
  partyId: number;
  partyName: string | null;
  /** The viewer's own listing (shown, but it cannot buy or swap it). */
  own: boolean;
}

export interface MarketItemQuery {
  kind: "listing" | "request";
  id: number;
  /** Brands the viewer may see; null = every active brand (staff as admin). */
  brandIds: number[] | null;
  viewerRetailerId: number | null;
  withNames: boolean;
}

/**
 * One listing or request as the marketplace shows it, or null when the viewer may not see it: gone, zero
 * units, payout missing, inactive retailer, a brand it is not authorized for, or its own request.
 */
export async function getMarketItem(
  db: DbOrTx,
  q: MarketItemQuery,
): Promise<MarketItemDetail | null> {
  if (!isRowId(q.id)) return null;
  const isListing = q.kind === "listing";
  const table = isListing ? sql`listings` : sql`listing_requests`;
  const party = isListing ? sql`t.provider_id` : sql`t.requestor_id`;
  const visible = isListing
    ? sql`t.status = 'active' and t.total_units > 0`
    : sql`t.total_units > 0`;
  const brandOk =
    q.brandIds === null ? sql`b.is_active` : sql`t.brand_id = any(${intArray(q.brandIds)}::int[])`;
  const names = q.withNames ? sql`pr.store_name` : sql`null::text`;
  const rows = (await db.execute(sql`
    select t.id, ${isListing ? sql`t.listing_type::text` : sql`null::text`} as listing_type, t.brand_id, b.display_name as brand_name,
           t.variation_id, p.display_name as product_name, p.description, v.sku, v.color, v.price_cents, t.sizes, t.total_units,
           ${isListing ? sql`t.images` : sql`'[]'::jsonb`} as photos, ${party} as party_id, ${names} as party_name,
           p.id as product_id
    from ${table} t
    join brands b on b.id = t.brand_id
    join product_variations v on v.id = t.variation_id
    join products p on p.id = v.product_id
    join retailers pr on pr.id = ${party}
    where t.id = ${q.id} and ${visible} and pr.status = 'active' and ${brandOk}
      ${!isListing && q.viewerRetailerId !== null ? sql`and ${party} <> ${q.viewerRetailerId}` : sql``}
  `)) as unknown as {
    id: number;
    listing_type: "sell" | "swap" | null;
    brand_id: number;
    brand_name: string;
    variation_id: number;
    product_name: string;
    description: string;
    sku: string;
    color: string;
    price_cents: number;
    sizes: SizesMap;
    total_units: number;
    photos: string[];
    party_id: number;
    party_name: string | null;
    product_id: number;
  }[];
  const r = rows[0];
  if (!r) return null;

  const [sizeRows, imageRows] = await Promise.all([
    db.execute(
      sql`select label from product_sizes where product_id = ${r.product_id} order by position, id`,
    ) as unknown as Promise<{ label: string }[]>,
    db.execute(
      sql`select url, description from variation_images where variation_id = ${r.variation_id} order by position, id limit 20`,
    ) as unknown as Promise<{ url: string; description: string }[]>,
  ]);
  const order = new Map(sizeRows.map((s, i) => [s.label, i]));
  const sizes = Object.entries(r.sizes).sort(
    ([a], [b]) =>
      (order.get(a) ?? Number.MAX_SAFE_INTEGER) - (order.get(b) ?? Number.MAX_SAFE_INTEGER) ||
      a.localeCompare(b),
  );
  const images = [
    ...(Array.isArray(r.photos) ? r.photos : []).map((name, i) => ({
      url: `/uploads/${name}`,
      alt: `${r.product_name}, photo ${i + 1}`,
    })),
    ...imageRows.map((im) => ({
      url: im.url,
      alt: im.description || `${r.product_name}, ${r.color}`,
    })),
  ];
  return {
    kind: q.kind,
    id: r.id,
    listingType: r.listing_type,
    brandId: r.brand_id,
    brandName: r.brand_name,
    variationId: r.variation_id,
    productName: r.product_name,
    description: r.description,
    sku: r.sku,
    color: r.color,
    priceCents: r.price_cents,
    sizes,
    totalUnits: r.total_units,
    images,
    partyId: r.party_id,
    partyName: q.withNames ? r.party_name : null,
    own: r.party_id === q.viewerRetailerId,
  };
}

/** EXPLAIN (FORMAT JSON[, ANALYZE]) of the statement marketplacePage runs for `q`, and its shape. */
export async function explainMarketplacePage(
  db: DbOrTx,
  q: MarketPageQuery,
  opts: { analyze?: boolean } = {},
): Promise<{ shape: PageShape; plan: PlanNode }> {
  const shape = await choosePageShape(db, q);
  const stmt = marketplacePageJsonSql(q, shape);
  const rows = (await db.execute(
    opts.analyze ? sql`explain (analyze, format json) ${stmt}` : sql`explain (format json) ${stmt}`,
  )) as unknown as { "QUERY PLAN": [{ Plan: PlanNode }] }[];
  return { shape, plan: rows[0]["QUERY PLAN"][0].Plan };
}

export interface MarketBrowseContext {
  /** The brands the viewer may browse, by display name (active brands; a retailer's authorized ones). */
  brands: { id: number; name: string }[];
  /** Product categories for the category filter, by name. */
  categories: { id: number; name: string }[];
}

/** Our cap on the brands of staff browsing as admin (the catalogue has well under this many). */
export const MARKET_ADMIN_BRAND_LIMIT = 1000;

/**
 * What every marketplace page needs before its page query, in ONE statement (each statement costs the
 * web process a round trip): the brands `retailerId` is authorized for (status 'authorized', brand
 * active), or every active brand for staff browsing as admin (null), each named by its display name
 * (else its name); and the product categories of the category filter.
 */
export async function marketBrowseContext(
  db: DbOrTx,
  retailerId: number | null,
): Promise<MarketBrowseContext> {
  if (retailerId !== null && !Number.isSafeInteger(retailerId))
    throw new RangeError("retailer id must be an integer");
  const brandRows =
    retailerId === null
      ? sql`select b.id, b.name, b.display_name from brands b where b.is_active
            order by lower(b.display_name), b.id limit ${MARKET_ADMIN_BRAND_LIMIT}`
      : sql`select b.id, b.name, b.display_name from retailer_brands rb join brands b on b.id = rb.brand_id
            where rb.retailer_id = ${retailerId} and rb.status = 'authorized' and b.is_active`;
  const rows = (await db.execute(sql`
    select
      coalesce((select json_agg(json_build_array(x.id, coalesce(nullif(x.display_name, ''), x.name)) order by lower(x.display_name), x.id)
                from (${brandRows}) x), '[]'::json) as brands,
      coalesce((select json_agg(json_build_array(c.id, c.name) order by lower(c.name), c.id)
                from (select id, name from categories order by lower(name), id limit 500) c), '[]'::json) as categories
  `)) as unknown as {
    brands: [number, string][] | string;
    categories: [number, string][] | string;
  }[];
  const parse = (v: [number, string][] | string): [number, string][] =>
    typeof v === "string" ? JSON.parse(v) : v;
  return {
    brands: parse(rows[0].brands).map(([id, name]) => ({ id, name })),
    categories: parse(rows[0].categories).map(([id, name]) => ({ id, name })),
  };
}

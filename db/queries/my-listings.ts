/**
 * "My Listings" and "My Requests" (docs/product/screens.md, "My Listings and Requests"): a retailer's own listings / requests grouped by
 * the brands it is authorized for, with product-code search and paging per brand; one item for the edit
 * screens (owner-scoped: another retailer's id is simply not found); the edit itself (sizes, listing type,
 * reason, modified_reason) with total_units kept in the same UPDATE. Pending-transaction detection: db/queries/pending-transactions.ts.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import {
  brands,
  listingRequests,
  listings,
  productSizes,
  products,
  productVariations,
  retailers,
  variationImages,
  type SizesMap,
} from "../schema";
import { authorizedBrandsForRetailer } from "./catalogue";
import { clearDeferredWithdrawal } from "./deferred-withdrawals";
import { recordMatchesForListing } from "./matches";

export type MyKind = "listings" | "requests";

/** My lists show 4 per brand by default, overridable (docs/product/screens.md, "Limits"). */
export const MY_LIST_DEFAULT_LIMIT = 4;
export const MY_LIST_MAX_LIMIT = 100;

export interface SizeCount {
  label: string;
  count: number;
}

/** One card of My Listings / My Requests. */
export interface MyItemCard {
  id: number;
  brandId: number;
  variationId: number;
  productName: string;
  sku: string;
  color: string;
  /** Sizes with units (count > 0), in the product's size order. */
  sizes: SizeCount[];
  totalUnits: number;
  imageUrl: string | null;
  /** Listings only: 'payoutneeded' | 'active'. Requests: null. */
  status: "payoutneeded" | "active" | null;
  listingType: "sell" | "swap" | null;
  /** Listings only: changed by someone else (staff); the owner must re-list it. */
  corrected: boolean;
  createdAt: Date;
}

export interface MyBrandSection {
  id: number;
  name: string;
  displayName: string;
  /** Items of this brand matching the search (all pages). */
  count: number;
  offset: number;
  limit: number;
  items: MyItemCard[];
}

export interface MyItemsOptions {
  kind: MyKind;
  retailerId: number;
  /** Product-code search (variation sku, case-insensitive substring). */
  search?: string | null;
  limit?: number;
  /** Offset per brand id (missing brands start at 0). */
  offsets?: ReadonlyMap<number, number> | Record<number, number>;
}

/** Escapes LIKE wildcards so a search is a plain substring match. */
export function likeSubstring(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function clampLimit(limit: number | undefined | null): number {
  if (limit === undefined || limit === null || !Number.isSafeInteger(limit) || limit < 1)
    return MY_LIST_DEFAULT_LIMIT;
  return Math.min(limit, MY_LIST_MAX_LIMIT);
}

function offsetOf(offsets: MyItemsOptions["offsets"], brandId: number): number {
  if (!offsets) return 0;
  const v =
    offsets instanceof Map ? offsets.get(brandId) : (offsets as Record<number, number>)[brandId];
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : 0;
}

/** Orders sizes by the product's run (then any extra labels in map order); keeps only counts > 0. */
export function orderedSizes(
  sizes: SizesMap,
  run: readonly string[],
  keepZero = false,
): SizeCount[] {
  const out: SizeCount[] = [];
  const seen = new Set<string>();
  for (const label of run) {
    seen.add(label);
    const count = sizes[label] ?? 0;
    if (keepZero || count > 0) out.push({ label, count });
  }
  for (const [label, count] of Object.entries(sizes)) {
    if (seen.has(label)) continue;
    if (keepZero || count > 0) out.push({ label, count });
  }
  return out;
}

async function sizeRuns(db: DbOrTx, productIds: number[]): Promise<Map<number, string[]>> {
  const runs = new Map<number, string[]>();
  if (productIds.length === 0) return runs;
  const rows = await db
    .select({ productId: productSizes.productId, label: productSizes.label })
    .from(productSizes)
    .where(inArray(productSizes.productId, [...new Set(productIds)]))
    .orderBy(asc(productSizes.productId), asc(productSizes.position), asc(productSizes.id));
  for (const r of rows) {
    const list = runs.get(r.productId) ?? [];
    list.push(r.label);
    runs.set(r.productId, list);
  }
  return runs;
}

/** A listing is shown to its owner while it has units, or while it waits to be re-listed after a correction. */
function visibleListing(): SQL {
  return sql`(${listings.totalUnits} > 0 OR ${listings.correctedAt} IS NOT NULL)`;
}

/**
 * The retailer's listings or requests, one section per authorized brand (sorted by brand name), each with
 * its count and one page (`limit` items from that brand's offset), newest first. Brands with nothing show
 * as empty sections (the page prints the empty state). Two queries whatever the number of brands: counts
 * per brand, and a page per brand through a window function.
 */
export async function myItemsByBrand(db: DbOrTx, opts: MyItemsOptions): Promise<MyBrandSection[]> {
  const limit = clampLimit(opts.limit);
  const authorized = await authorizedBrandsForRetailer(db, opts.retailerId);
  if (authorized.length === 0) return [];
  const brandIds = authorized.map((b) => b.id);
  const term = opts.search?.trim() ? likeSubstring(opts.search.trim()) : null;
  const offsetsJson = JSON.stringify(
    Object.fromEntries(brandIds.map((id) => [String(id), offsetOf(opts.offsets, id)])),
  );

  const isListings = opts.kind === "listings";
  const t = isListings ? listings : listingRequests;
  const owner = isListings ? listings.providerId : listingRequests.requestorId;
  const where = and(
    eq(owner, opts.retailerId),
    inArray(t.brandId, brandIds),
    isListings ? visibleListing() : sql`${listingRequests.totalUnits} > 0`,
    term ? sql`${productVariations.sku} ILIKE ${term}` : undefined,
  );

  const counts = await db
    .select({ brandId: t.brandId, n: sql<number>`count(*)::int` })
    .from(t)
    .innerJoin(productVariations, eq(productVariations.id, t.variationId))
    .where(where)
    .groupBy(t.brandId);
  const countByBrand = new Map(counts.map((c) => [c.brandId, Number(c.n)]));

  const withItems = [...countByBrand.values()].some((n) => n > 0);
  const inner = db
    .select({
      id: t.id,
      brandId: t.brandId,
      variationId: t.variationId,
      productId: sql<number>`${products.id}`.as("product_id"),
      productName: sql<string>`${products.displayName}`.as("product_name"),
      sku: productVariations.sku,
      color: productVariations.color,
      sizes: t.sizes,
      totalUnits: t.totalUnits,
      status: (isListings ? sql`${listings.status}` : sql`NULL`).as("status"),
      listingType: (isListings ? sql`${listings.listingType}` : sql`NULL`).as("listing_type"),
      correctedAt: (isListings ? sql`${listings.correctedAt}` : sql`NULL::timestamptz`).as(
        "corrected_at",
      ),
      createdAt: t.createdAt,
      imageUrl: sql<
        string | null
      >`(SELECT vi.thumbnail_url FROM ${variationImages} vi WHERE vi.variation_id = ${t.variationId} ORDER BY vi.position, vi.id LIMIT 1)`.as(
        "image_url",
      ),
      rn: sql<number>`row_number() OVER (PARTITION BY ${t.brandId} ORDER BY ${t.createdAt} DESC, ${t.id} DESC)`.as(
        "rn",
      ),
    })
    .from(t)
    .innerJoin(productVariations, eq(productVariations.id, t.variationId))
    .innerJoin(products, eq(products.id, productVariations.productId))
    .where(where)
    .as("mine");
  // Each brand's page: row numbers (offset, offset + limit] of that brand, the offsets passed as JSON.
  const rows = withItems
    ? await db
        .select()
        .from(inner)
        .where(
          sql`${inner.rn} > coalesce((${offsetsJson}::jsonb ->> ${inner.brandId}::text)::int, 0)
              AND ${inner.rn} <= coalesce((${offsetsJson}::jsonb ->> ${inner.brandId}::text)::int, 0) + ${limit}::int`,
        )
        .orderBy(asc(inner.brandId), asc(inner.rn))
    : [];
  const runs = await sizeRuns(
    db,
    rows.map((r) => Number(r.productId)),
  );

  return authorized.map((b) => {
    const items = rows
      .filter((r) => r.brandId === b.id)
      .map<MyItemCard>((r) => ({
        id: r.id,
        brandId: r.brandId,
        variationId: r.variationId,
        productName: r.productName,
        sku: r.sku,
        color: r.color,
        sizes: orderedSizes(r.sizes, runs.get(Number(r.productId)) ?? []),
        totalUnits: r.totalUnits,
        imageUrl: r.imageUrl,
        status: (r.status as MyItemCard["status"]) ?? null,
        listingType: (r.listingType as MyItemCard["listingType"]) ?? null,
        corrected: r.correctedAt !== null && r.correctedAt !== undefined,
        createdAt: r.createdAt,
      }));
    return {
      id: b.id,
      name: b.name,
      displayName: b.displayName,
      count: countByBrand.get(b.id) ?? 0,
      offset: offsetOf(opts.offsets, b.id),
      limit,
      items,
    };
  });
}

// ------------------------------------------------------------------------------------------------------
// One item, for the edit screens.

export interface MyItemDetail {
  id: number;
  kind: MyKind;
  ownerId: number;
  /** The owner's store name: only sent to the owner itself or to staff (the edit screens check). */
  ownerStoreName: string;
  brandId: number;
  brandName: string;
  variationId: number;
  productName: string;
  sku: string;
  color: string;
  priceCents: number;
  imageUrl: string | null;
  /** Every size of the product's run (and any extra label of the map), with its count (0 included). */
  sizes: SizeCount[];
  totalUnits: number;
  reason: string;
  modifiedReason: string;
  listingType: "sell" | "swap" | null;
  status: "payoutneeded" | "active" | null;
  correctedAt: Date | null;
  updatedAt: Date;
}

/**
 * A listing or request of `ownerId` (null = any owner: staff browsing as admin). Another retailer's item,
 * an unknown id or a bad id all give null, which the pages answer with 404.
 */
export async function getMyItem(
  db: DbOrTx,
  kind: MyKind,
  id: number,
  ownerId: number | null,
): Promise<MyItemDetail | null> {
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  if (ownerId !== null && (!Number.isSafeInteger(ownerId) || ownerId <= 0)) return null;
  const isListings = kind === "listings";
  const t = isListings ? listings : listingRequests;
  const owner = isListings ? listings.providerId : listingRequests.requestorId;
  const [row] = await db
    .select({
      id: t.id,
      ownerId: owner,
      ownerStoreName: retailers.storeName,
      brandId: t.brandId,
      brandName: brands.displayName,
      variationId: t.variationId,
      productId: products.id,
      productName: products.displayName,
      sku: productVariations.sku,
      color: productVariations.color,
      // The listing's current price (a markdown's, docs/product/markdowns.md); a request's is the catalogue's.
      priceCents: t.priceCents,
      sizes: t.sizes,
      totalUnits: t.totalUnits,
      reason: t.reason,
      modifiedReason: t.modifiedReason,
      listingType: isListings ? listings.listingType : sql<null>`NULL`,
      status: isListings ? listings.status : sql<null>`NULL`,
      correctedAt: isListings ? listings.correctedAt : sql<null>`NULL`,
      updatedAt: t.updatedAt,
      imageUrl: sql<
        string | null
      >`(SELECT vi.url FROM ${variationImages} vi WHERE vi.variation_id = ${t.variationId} ORDER BY vi.position, vi.id LIMIT 1)`,
    })
    .from(t)
    .innerJoin(productVariations, eq(productVariations.id, t.variationId))
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(brands, eq(brands.id, t.brandId))
    .innerJoin(retailers, eq(retailers.id, owner))
    .where(and(eq(t.id, id), ownerId === null ? undefined : eq(owner, ownerId)))
    .limit(1);
  if (!row) return null;
  const runs = await sizeRuns(db, [row.productId]);
  return {
    id: row.id,
    kind,
    ownerId: row.ownerId,
    ownerStoreName: row.ownerStoreName,
    brandId: row.brandId,
    brandName: row.brandName,
    variationId: row.variationId,
    productName: row.productName,
    sku: row.sku,
    color: row.color,
    priceCents: row.priceCents,
    imageUrl: row.imageUrl,
    sizes: orderedSizes(row.sizes, runs.get(row.productId) ?? [], true),
    totalUnits: row.totalUnits,
    reason: row.reason,
    modifiedReason: row.modifiedReason,
    listingType: row.listingType as MyItemDetail["listingType"],
    status: row.status as MyItemDetail["status"],
    correctedAt: (row.correctedAt as Date | null) ?? null,
    updatedAt: row.updatedAt,
  };
}

// ------------------------------------------------------------------------------------------------------
// Edits.

export interface MyItemUpdate {
  id: number;
  /** The owner the edit is scoped to; null = any owner (staff browsing as admin). */
  ownerId: number | null;
  sizes: SizesMap;
  reason: string;
  modifiedReason: string;
  /** Listings only. */
  listingType?: "sell" | "swap";
  /**
   * Listings only. true: the edit is a correction by someone other than the owner (corrected_at = now(),
   * the owner sees the re-list notice). false: the owner saved it (the notice goes away).
   */
  correction?: boolean;
}

function checkSizes(sizes: SizesMap): number {
  let total = 0;
  for (const [label, n] of Object.entries(sizes)) {
    if (label.length === 0 || label.length > 40) throw new Error("invalid size label");
    if (!Number.isSafeInteger(n) || n < 0 || n > 100000)
      throw new Error(`invalid unit count for size ${label}`);
    total += n;
  }
  return total;
}

/**
 * Saves an edit in ONE statement, scoped to the owner: sizes, total_units (their sum), reason,
 * modified_reason (and for listings the type and the correction flag). All sizes zero = deleted.
 * Returns the id and new total, or null when no such item belongs to the owner.
 */
export async function updateMyListing(
  db: DbOrTx,
  u: MyItemUpdate,
): Promise<{ id: number; totalUnits: number } | null> {
  const total = checkSizes(u.sizes);
  if (!Number.isSafeInteger(u.id) || u.id <= 0) return null;
  const rows = await db
    .update(listings)
    .set({
      sizes: u.sizes,
      totalUnits: total,
      reason: u.reason,
      modifiedReason: u.modifiedReason,
      ...(u.listingType ? { listingType: u.listingType } : {}),
      correctedAt: u.correction ? sql`now()` : null,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(listings.id, u.id),
        u.ownerId === null ? undefined : eq(listings.providerId, u.ownerId),
      ),
    )
    .returning({ id: listings.id, totalUnits: listings.totalUnits });
  if (rows[0] && rows[0].totalUnits > 0) {
    // The owner set units: a stock import's withdrawal waiting for its orders to end is called off (docs/guides/stock-import.md "Sync").
    if (!u.correction) await clearDeferredWithdrawal(db, rows[0].id);
    // Re-listed or more sizes: matches it now makes (ADR 0030; idempotent).
    await recordMatchesForListing(db, rows[0].id);
  }
  return rows[0] ?? null;
}

export async function updateMyRequest(
  db: DbOrTx,
  u: Omit<MyItemUpdate, "listingType" | "correction">,
): Promise<{ id: number; totalUnits: number } | null> {
  const total = checkSizes(u.sizes);
  if (!Number.isSafeInteger(u.id) || u.id <= 0) return null;
  const rows = await db
    .update(listingRequests)
    .set({
      sizes: u.sizes,
      totalUnits: total,
      reason: u.reason,
      modifiedReason: u.modifiedReason,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(listingRequests.id, u.id),
        u.ownerId === null ? undefined : eq(listingRequests.requestorId, u.ownerId),
      ),
    )
    .returning({ id: listingRequests.id, totalUnits: listingRequests.totalUnits });
  return rows[0] ?? null;
}

/** Marks a listing as corrected by someone other than its owner (e.g. staff tools): the owner must re-list. */
export async function markListingCorrected(db: DbOrTx, listingId: number): Promise<boolean> {
  const rows = await db
    .update(listings)
    .set({ correctedAt: sql`now()` })
    .where(eq(listings.id, listingId))
    .returning({ id: listings.id });
  return rows.length === 1;
}

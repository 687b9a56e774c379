/**
 * Writes and look-ups of the "List a style" / "Request a style" wizards (docs/product/screens.md,
 * "List and request wizards"): variation
 * search by product code, a product with its colours and size run, duplicate checks, and the creation of a
 * listing or request (with the duplicate check and the insert under one lock, so two submits of the same
 * style cannot both get through).
 */
import { and, asc, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import {
  brands,
  collections,
  listingRequests,
  listings,
  productSizes,
  products,
  productVariations,
  retailerBrands,
  retailers,
  type SizesMap,
} from "../schema";
import { SizesMapSchema } from "../schema/_types";
import { recordMatchesForListing, recordMatchesForRequest } from "./matches";

export const VARIATION_SEARCH_MAX = 60;

export interface VariationHit {
  variationId: number;
  productId: number;
  productName: string;
  /** The variation's product code. */
  sku: string;
  color: string;
  priceCents: number;
  thumbnailUrl: string | null;
}

/** First picture's thumbnail of the outer query's variation. Written with qualified names: Drizzle drops the
 * table name from columns of a single-table select, which would bind "id" to variation_images inside. */
const thumbnailOf = sql<string | null>`(select vi.thumbnail_url from variation_images vi
  where vi.variation_id = "product_variations"."id" order by vi.position, vi.id limit 1)`;

/** `%`, `_` and `\` in a search text match themselves. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Active variations of a brand whose product code (the variation's or the product's) or product name
 * contains `q` (case-insensitive); at most 60, by product code then colour.
 */
export async function searchVariations(
  db: DbOrTx,
  brandId: number,
  q: string,
  limit = VARIATION_SEARCH_MAX,
): Promise<VariationHit[]> {
  const term = q.trim();
  const pattern = likePattern(term);
  return db
    .select({
      variationId: productVariations.id,
      productId: products.id,
      productName: products.displayName,
      sku: productVariations.sku,
      color: productVariations.color,
      priceCents: productVariations.priceCents,
      thumbnailUrl: thumbnailOf,
    })
    .from(productVariations)
    .innerJoin(products, eq(products.id, productVariations.productId))
    .where(
      and(
        eq(productVariations.brandId, brandId),
        eq(productVariations.isActive, true),
        eq(products.isActive, true),
        term
          ? sql`(${productVariations.sku} ilike ${pattern} or ${products.sku} ilike ${pattern} or ${products.displayName} ilike ${pattern})`
          : undefined,
      ),
    )
    .orderBy(asc(productVariations.sku), asc(productVariations.color), asc(productVariations.id))
    .limit(Math.max(1, Math.min(limit, VARIATION_SEARCH_MAX)));
}

export interface ProductChoice {
  id: number;
  brandId: number;
  brandName: string;
  sku: string;
  displayName: string;
  priceCents: number;
  collection: { year: number; name: string };
  /** The size run, in display order. */
  sizes: string[];
  /** Active colour variations. */
  variations: {
    id: number;
    sku: string;
    color: string;
    priceCents: number;
    thumbnailUrl: string | null;
  }[];
}

/** An active product with its colours and size run; null when it does not exist or is inactive. */
export async function getProductChoice(
  db: DbOrTx,
  productId: number,
): Promise<ProductChoice | null> {
  const [p] = await db
    .select({
      id: products.id,
      brandId: products.brandId,
      brandName: brands.displayName,
      sku: products.sku,
      displayName: products.displayName,
      priceCents: products.priceCents,
      year: collections.year,
      collectionName: collections.name,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(collections, eq(collections.id, products.collectionId))
    .where(and(eq(products.id, productId), eq(products.isActive, true)))
    .limit(1);
  if (!p) return null;
  const [sizes, variations] = await Promise.all([
    sizeRunOfProduct(db, productId),
    db
      .select({
        id: productVariations.id,
        sku: productVariations.sku,
        color: productVariations.color,
        priceCents: productVariations.priceCents,
        thumbnailUrl: thumbnailOf,
      })
      .from(productVariations)
      .where(and(eq(productVariations.productId, productId), eq(productVariations.isActive, true)))
      .orderBy(asc(productVariations.color), asc(productVariations.id)),
  ]);
  return {
    id: p.id,
    brandId: p.brandId,
    brandName: p.brandName,
    sku: p.sku,
    displayName: p.displayName,
    priceCents: p.priceCents,
    collection: { year: p.year, name: p.collectionName },
    sizes,
    variations,
  };
}

/** Size labels of a product, in display order. */
export async function sizeRunOfProduct(db: DbOrTx, productId: number): Promise<string[]> {
  const rows = await db
    .select({ label: productSizes.label })
    .from(productSizes)
    .where(eq(productSizes.productId, productId))
    .orderBy(asc(productSizes.position), asc(productSizes.id));
  return rows.map((r) => r.label);
}

/** Size labels of a variation's product, in display order. */
export async function sizesOfVariation(db: DbOrTx, variationId: number): Promise<string[]> {
  const rows = await db
    .select({ label: productSizes.label })
    .from(productVariations)
    .innerJoin(productSizes, eq(productSizes.productId, productVariations.productId))
    .where(eq(productVariations.id, variationId))
    .orderBy(asc(productSizes.position), asc(productSizes.id));
  return rows.map((r) => r.label);
}

export interface RetailerChoice {
  id: number;
  storeName: string;
  hasPayout: boolean;
}

/** Staff choosing a provider or requestor: active retailers authorized for the brand, by store name. */
export async function retailersAuthorizedForBrand(
  db: DbOrTx,
  brandId: number,
): Promise<RetailerChoice[]> {
  const rows = await db
    .select({ id: retailers.id, storeName: retailers.storeName, bt: retailers.btMerchantId })
    .from(retailerBrands)
    .innerJoin(retailers, eq(retailers.id, retailerBrands.retailerId))
    .where(
      and(
        eq(retailerBrands.brandId, brandId),
        eq(retailerBrands.status, "authorized"),
        eq(retailers.status, "active"),
      ),
    )
    .orderBy(sql`lower(${retailers.storeName})`, asc(retailers.id));
  return rows.map((r) => ({ id: r.id, storeName: r.storeName, hasPayout: Boolean(r.bt) }));
}

/** The retailer's own live listing (units left) of this variation: the duplicate the wizard refuses. */
export async function findOwnListing(
  db: DbOrTx,
  providerId: number,
  variationId: number,
): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: listings.id })
    .from(listings)
    .where(
      and(
        eq(listings.providerId, providerId),
        eq(listings.variationId, variationId),
        gt(listings.totalUnits, 0),
      ),
    )
    .orderBy(desc(listings.createdAt), desc(listings.id))
    .limit(1);
  return row ?? null;
}

/** The retailer's own live request (units wanted) of this variation. */
export async function findOwnRequest(
  db: DbOrTx,
  requestorId: number,
  variationId: number,
): Promise<{ id: number } | null> {
  const [row] = await db
    .select({ id: listingRequests.id })
    .from(listingRequests)
    .where(
      and(
        eq(listingRequests.requestorId, requestorId),
        eq(listingRequests.variationId, variationId),
        gt(listingRequests.totalUnits, 0),
      ),
    )
    .orderBy(desc(listingRequests.createdAt), desc(listingRequests.id))
    .limit(1);
  return row ?? null;
}

/**
 * A live, active listing of this variation by another retailer (what the requestor could buy or swap for
 * now): sell listings first. Null when there is none.
 */
export async function findOtherListing(
  db: DbOrTx,
  retailerId: number,
  variationId: number,
): Promise<{ id: number; listingType: "sell" | "swap" } | null> {
  const [row] = await db
    .select({ id: listings.id, listingType: listings.listingType })
    .from(listings)
    .where(
      and(
        eq(listings.variationId, variationId),
        ne(listings.providerId, retailerId),
        eq(listings.status, "active"),
        gt(listings.totalUnits, 0),
      ),
    )
    .orderBy(
      sql`case when ${listings.listingType} = 'sell' then 0 else 1 end`,
      desc(listings.createdAt),
      desc(listings.id),
    )
    .limit(1);
  return row ?? null;
}

type Refusal =
  | { ok: false; reason: "variation_not_found" }
  | { ok: false; reason: "retailer_not_found" }
  | { ok: false; reason: "retailer_inactive" }
  | { ok: false; reason: "not_authorized" }
  | { ok: false; reason: "invalid_sizes"; message: string };

export interface CreateListingInput {
  providerId: number;
  variationId: number;
  listingType: "sell" | "swap";
  reason: string;
  sizes: SizesMap;
  images?: string[];
  terms: boolean;
}

export type CreateListingResult =
  | { ok: true; listing: typeof listings.$inferSelect }
  | { ok: false; reason: "already_listed"; listingId: number }
  | Refusal;

/** Checks shared by both creations: variation, retailer, authorization, sizes (against the size run). */
async function checkCreation(
  tx: DbOrTx,
  retailerId: number,
  variationId: number,
  sizes: SizesMap,
): Promise<
  | Refusal
  | { ok: true; brandId: number; bt: string | null; variationPriceCents: number; sku: string }
> {
  const [v] = await tx
    .select({
      brandId: productVariations.brandId,
      productId: productVariations.productId,
      priceCents: productVariations.priceCents,
      sku: productVariations.sku,
    })
    .from(productVariations)
    .innerJoin(products, eq(products.id, productVariations.productId))
    .where(
      and(
        eq(productVariations.id, variationId),
        eq(productVariations.isActive, true),
        eq(products.isActive, true),
      ),
    )
    .limit(1);
  if (!v) return { ok: false, reason: "variation_not_found" };
  const [r] = await tx
    .select({ status: retailers.status, bt: retailers.btMerchantId })
    .from(retailers)
    .where(eq(retailers.id, retailerId))
    .limit(1);
  if (!r) return { ok: false, reason: "retailer_not_found" };
  if (r.status !== "active") return { ok: false, reason: "retailer_inactive" };
  const [auth] = await tx
    .select({ id: retailerBrands.id })
    .from(retailerBrands)
    .where(
      and(
        eq(retailerBrands.retailerId, retailerId),
        eq(retailerBrands.brandId, v.brandId),
        eq(retailerBrands.status, "authorized"),
      ),
    )
    .limit(1);
  if (!auth) return { ok: false, reason: "not_authorized" };
  const parsed = SizesMapSchema.safeParse(sizes);
  if (!parsed.success)
    return { ok: false, reason: "invalid_sizes", message: "The sizes are not valid unit counts." };
  const run = new Set(await sizeRunOfProduct(tx, v.productId));
  const unknown = Object.keys(sizes).filter((l) => !run.has(l));
  if (unknown.length > 0)
    return {
      ok: false,
      reason: "invalid_sizes",
      message: `This product has no size ${unknown[0]}.`,
    };
  if (Object.values(sizes).reduce((a, n) => a + n, 0) <= 0)
    return {
      ok: false,
      reason: "invalid_sizes",
      message: "The total of the sizes must be more than 0.",
    };
  return { ok: true, brandId: v.brandId, bt: r.bt, variationPriceCents: v.priceCents, sku: v.sku };
}

/** Serialises creations of the same (kind, retailer, variation) until the transaction ends. */
async function lockStyle(
  tx: DbOrTx,
  kind: "listing" | "request",
  retailerId: number,
  variationId: number,
): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`wizard:${kind}:${retailerId}:${variationId}`}))`,
  );
}

/**
 * Creates a listing unless the provider already has a live listing of the variation ("already listed").
 * Status: active when the provider has payout set up (bt_merchant_id), else payoutneeded.
 */
export async function createListingChecked(
  db: Db,
  input: CreateListingInput,
): Promise<CreateListingResult> {
  return db.transaction(async (tx) => {
    await lockStyle(tx, "listing", input.providerId, input.variationId);
    const check = await checkCreation(tx, input.providerId, input.variationId, input.sizes);
    if (!check.ok) return check;
    const dup = await findOwnListing(tx, input.providerId, input.variationId);
    if (dup) return { ok: false, reason: "already_listed", listingId: dup.id };
    const total = Object.values(input.sizes).reduce((a, n) => a + n, 0);
    const [listing] = await tx
      .insert(listings)
      .values({
        variationId: input.variationId,
        brandId: check.brandId,
        providerId: input.providerId,
        listingType: input.listingType,
        reason: input.reason,
        sizes: input.sizes,
        totalUnits: total,
        status: check.bt ? "active" : "payoutneeded",
        terms: input.terms,
        images: input.images ?? [],
      })
      .returning();
    // Visible now: it becomes a match of the requests it fills and the saved searches it fits (ADR 0030).
    if (listing.status === "active") await recordMatchesForListing(tx, listing.id);
    return { ok: true, listing };
  });
}

export interface CreateRequestInput {
  requestorId: number;
  variationId: number;
  reason: string;
  sizes: SizesMap;
}

export type CreateRequestResult =
  | {
      ok: true;
      request: typeof listingRequests.$inferSelect;
      listingExists: { id: number; listingType: "sell" | "swap" } | null;
    }
  | { ok: false; reason: "already_requested"; requestId: number }
  | { ok: false; reason: "own_listing_exists"; listingId: number }
  | Refusal;

/**
 * Creates a request unless the requestor already requests the variation ("already requested") or lists
 * it itself (own_listing_exists). The result says whether another retailer already lists it (listing_exists).
 */
export async function createRequestChecked(
  db: Db,
  input: CreateRequestInput,
): Promise<CreateRequestResult> {
  return db.transaction(async (tx) => {
    await lockStyle(tx, "request", input.requestorId, input.variationId);
    const check = await checkCreation(tx, input.requestorId, input.variationId, input.sizes);
    if (!check.ok) return check;
    const dup = await findOwnRequest(tx, input.requestorId, input.variationId);
    if (dup) return { ok: false, reason: "already_requested", requestId: dup.id };
    const own = await findOwnListing(tx, input.requestorId, input.variationId);
    if (own) return { ok: false, reason: "own_listing_exists", listingId: own.id };
    const total = Object.values(input.sizes).reduce((a, n) => a + n, 0);
    const [request] = await tx
      .insert(listingRequests)
      .values({
        variationId: input.variationId,
        brandId: check.brandId,
        requestorId: input.requestorId,
        reason: input.reason,
        sizes: input.sizes,
        totalUnits: total,
      })
      .returning();
    const listingExists = await findOtherListing(tx, input.requestorId, input.variationId);
    // The listings that already fill it are its matches at once, shown by the wizard (ADR 0030).
    await recordMatchesForRequest(tx, request.id);
    return { ok: true, request, listingExists };
  });
}

import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { brands, collections, companies, retailerBrands } from "../schema";

export type BrandRow = typeof brands.$inferSelect;
export type CollectionRow = typeof collections.$inferSelect;

/** Brand lookups return at most 100 (docs/product/screens.md, "Limits"). */
export const BRAND_LOOKUP_LIMIT = 100;

export interface ListBrandsOptions {
  limit?: number;
  offset?: number;
  /** Only active brands (default true). */
  activeOnly?: boolean;
}

/** Brands ordered by display name (case-insensitive). */
export async function listBrands(db: DbOrTx, opts: ListBrandsOptions = {}): Promise<BrandRow[]> {
  const limit = Math.max(1, Math.min(opts.limit ?? BRAND_LOOKUP_LIMIT, 1000));
  const offset = Math.max(0, opts.offset ?? 0);
  return db
    .select()
    .from(brands)
    .where(opts.activeOnly === false ? undefined : eq(brands.isActive, true))
    .orderBy(sql`lower(${brands.displayName})`, asc(brands.id))
    .limit(limit)
    .offset(offset);
}

export interface BrandDetail extends BrandRow {
  company: typeof companies.$inferSelect | null;
  collections: (CollectionRow & { displayName: string })[];
}

/** One brand with its company and its collections (newest year first); null when it does not exist. */
export async function getBrand(db: DbOrTx, brandId: number): Promise<BrandDetail | null> {
  if (!Number.isSafeInteger(brandId) || brandId <= 0) return null;
  const [brand] = await db.select().from(brands).where(eq(brands.id, brandId)).limit(1);
  if (!brand) return null;
  const [company] = brand.companyId
    ? await db.select().from(companies).where(eq(companies.id, brand.companyId)).limit(1)
    : [];
  const cols = await db
    .select()
    .from(collections)
    .where(eq(collections.brandId, brandId))
    .orderBy(sql`${collections.year} desc`, asc(collections.name), asc(collections.id));
  return {
    ...brand,
    company: company ?? null,
    collections: cols.map((c) => ({
      ...c,
      displayName: collectionDisplayName(brand.displayName, c),
    })),
  };
}

/** "Ridgeline Outfitters 2025 Spring" (with the sub-brand when there is one). */
export function collectionDisplayName(
  brandDisplayName: string,
  c: Pick<CollectionRow, "year" | "name" | "subbrand">,
): string {
  return [brandDisplayName, c.subbrand, String(c.year), c.name].filter(Boolean).join(" ");
}

export interface AuthorizedBrand {
  /** The brand's id. */
  id: number;
  name: string;
  displayName: string;
  /** The retailer-brand link. */
  linkId: number;
  status: string;
  authorizedAt: Date;
}

/** The brands a retailer is authorized for (link status 'authorized', brand active), by display name. */
export async function authorizedBrandsForRetailer(
  db: DbOrTx,
  retailerId: number,
): Promise<AuthorizedBrand[]> {
  return db
    .select({
      id: brands.id,
      name: brands.name,
      displayName: brands.displayName,
      linkId: retailerBrands.id,
      status: retailerBrands.status,
      authorizedAt: retailerBrands.createdAt,
    })
    .from(retailerBrands)
    .innerJoin(brands, eq(brands.id, retailerBrands.brandId))
    .where(
      and(
        eq(retailerBrands.retailerId, retailerId),
        eq(retailerBrands.status, "authorized"),
        eq(brands.isActive, true),
      ),
    )
    .orderBy(sql`lower(${brands.displayName})`, asc(brands.id));
}

export interface BrandChoice {
  id: number;
  name: string;
}

/** Choices for the "Request Brands" wizard step and the brand-request form: active brands by name. */
export async function brandChoices(db: DbOrTx): Promise<BrandChoice[]> {
  return db
    .select({ id: brands.id, name: brands.displayName })
    .from(brands)
    .where(and(eq(brands.isActive, true), eq(brands.isValid, true)))
    .orderBy(sql`lower(${brands.displayName})`, asc(brands.id))
    .limit(BRAND_LOOKUP_LIMIT);
}

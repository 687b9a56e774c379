/**
 * Validation tools (docs/product/screens.md, "Staff: validation tools"): external brands (is_valid false: made from what retailers
 * typed in brand requests and at registration, db/queries/external-brands.ts) to accept or map onto an existing brand, and listed
 * products without a category. Catalogue entries: db/queries/catalogue-entries.ts.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { authorizeBrands } from "./retailer-status";
import {
  brandRequests,
  brands,
  categories,
  collections,
  listingRequests,
  listings,
  productVariations,
  products,
  retailerBrands,
  retailers,
  users,
} from "../schema";

export const VALIDATE_LIMIT = 200;

/** A brand request that named the external brand: which retailer, where it typed it, and what became of it. */
export type BrandSource = { requestId: number; store: string; source: string; status: string };

export type ExternalBrand = {
  id: number;
  name: string;
  listingCount: number;
  stores: string[];
  emails: string[];
  requests: BrandSource[];
};

/** Brands to validate: not valid, still active (a mapped brand is switched off), most listed first. */
export async function listExternalBrands(
  db: Db,
  extraIds: number[] = [],
): Promise<ExternalBrand[]> {
  const listed = sql<number>`(select count(*)::int from ${listings} l where l.brand_id = ${brands.id})`;
  const rows = await db
    .select({
      id: brands.id,
      name: brands.name,
      listingCount: listed,
      stores: sql<
        string[]
      >`array(select distinct r.store_name from ${retailers} r where r.id in (select l.provider_id from ${listings} l where l.brand_id = ${brands.id} union select br.retailer_id from ${brandRequests} br where br.brand_id = ${brands.id}) limit 10)`,
      emails: sql<
        string[]
      >`array(select distinct u.email from ${users} u where u.retailer_id in (select l.provider_id from ${listings} l where l.brand_id = ${brands.id} union select br.retailer_id from ${brandRequests} br where br.brand_id = ${brands.id}) limit 10)`,
    })
    .from(brands)
    .where(
      extraIds.length
        ? sql`(${brands.isValid} = false and ${brands.isActive}) or ${inArray(brands.id, extraIds)}`
        : and(eq(brands.isValid, false), eq(brands.isActive, true)),
    )
    .orderBy(desc(listed), asc(brands.id))
    .limit(VALIDATE_LIMIT);
  const requests = rows.length
    ? await db
        .select({
          brandId: brandRequests.brandId,
          requestId: brandRequests.id,
          store: retailers.storeName,
          source: brandRequests.source,
          status: brandRequests.status,
        })
        .from(brandRequests)
        .innerJoin(retailers, eq(retailers.id, brandRequests.retailerId))
        .where(
          inArray(
            brandRequests.brandId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(brandRequests.id))
    : [];
  return rows.map((r) => ({
    ...r,
    listingCount: Number(r.listingCount),
    requests: requests.filter((q) => q.brandId === r.id).map(({ brandId: _, ...q }) => q),
  }));
}

export async function isExternalBrand(db: Db, id: number): Promise<boolean> {
  const [b] = await db
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(brands.id, id), eq(brands.isValid, false), eq(brands.isActive, true)));
  return !!b;
}

/**
 * The brand requests naming `brandId` once staff made it valid or mapped an external brand onto it: each active
 * retailer that asked for it is authorized for it and told (authorizeBrands: the link, the request settled,
 * the e-mail); a pending retailer's request stays, its brand checked on the activation form.
 */
async function settleBrandRequests(tx: DbOrTx, brandId: number): Promise<void> {
  const asking = await tx
    .selectDistinct({ retailerId: brandRequests.retailerId })
    .from(brandRequests)
    .innerJoin(retailers, eq(retailers.id, brandRequests.retailerId))
    .where(
      and(
        eq(brandRequests.brandId, brandId),
        eq(brandRequests.status, "requested"),
        eq(retailers.status, "active"),
      ),
    );
  for (const r of asking) await authorizeBrands(tx, r.retailerId, [brandId]);
}

/** Add Brand: the external brand becomes a valid brand; the retailers that requested it are settled. */
export async function acceptBrand(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(brands).set({ isValid: true }).where(eq(brands.id, id));
    await settleBrandRequests(tx, id);
  });
}

/**
 * Change to Existing Brand: everything of the external brand moves to the valid one (collections, products,
 * variations, listings, requests, retailer links, brand requests); the external brand stays, switched off,
 * with the target's name as its alias (a later request typing its name reads the target). The retailers that
 * requested it are settled. One transaction.
 */
export async function mapBrand(db: Db, fromId: number, toId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [to] = await tx
      .select()
      .from(brands)
      .where(and(eq(brands.id, toId), eq(brands.isValid, true), ne(brands.id, fromId)));
    if (!to) return false;
    await tx.update(collections).set({ brandId: toId }).where(eq(collections.brandId, fromId));
    await tx.update(products).set({ brandId: toId }).where(eq(products.brandId, fromId));
    await tx
      .update(productVariations)
      .set({ brandId: toId })
      .where(eq(productVariations.brandId, fromId));
    await tx.update(listings).set({ brandId: toId }).where(eq(listings.brandId, fromId));
    await tx
      .update(listingRequests)
      .set({ brandId: toId })
      .where(eq(listingRequests.brandId, fromId));
    await tx.update(brandRequests).set({ brandId: toId }).where(eq(brandRequests.brandId, fromId));
    await tx.execute(
      sql`insert into ${retailerBrands} (retailer_id, brand_id, status) select retailer_id, ${toId}, status from ${retailerBrands} where brand_id = ${fromId} on conflict do nothing`,
    );
    await tx.delete(retailerBrands).where(eq(retailerBrands.brandId, fromId));
    await tx.update(brands).set({ isActive: false, alias: to.name }).where(eq(brands.id, fromId));
    await settleBrandRequests(tx, toId);
    return true;
  });
}

/** Listing sample of a brand (20). */
export async function listingSample(db: Db, brandId: number) {
  return db
    .select({
      id: listings.id,
      sku: productVariations.sku,
      color: productVariations.color,
      units: listings.totalUnits,
      store: retailers.storeName,
    })
    .from(listings)
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .innerJoin(retailers, eq(retailers.id, listings.providerId))
    .where(eq(listings.brandId, brandId))
    .orderBy(desc(listings.id))
    .limit(20);
}

/** Products with listings but no category (the category stage), with a mini listing preview. */
export async function listUncategorised(db: Db, extraIds: number[] = []) {
  const where = extraIds.length
    ? sql`(${isNull(products.categoryId)} or ${inArray(products.id, extraIds)})`
    : isNull(products.categoryId);
  return db
    .select({
      id: products.id,
      sku: products.sku,
      displayName: products.displayName,
      brand: brands.displayName,
      category: categories.name,
      listingCount: sql<number>`(select count(*)::int from ${listings} l join ${productVariations} v on v.id = l.variation_id where v.product_id = ${products.id})`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .leftJoin(categories, eq(categories.id, products.categoryId))
    .where(
      and(
        where,
        sql`exists (select 1 from ${listings} l join ${productVariations} v on v.id = l.variation_id where v.product_id = ${products.id})`,
      ),
    )
    .orderBy(asc(products.id))
    .limit(VALIDATE_LIMIT);
}

/** The typeahead's categories (up to 1000 matches). */
export async function categoryChoices(db: Db, search = "") {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(
      search
        ? ilike(categories.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
        : undefined,
    )
    .orderBy(asc(categories.name))
    .limit(1000);
}

export async function setProductCategory(
  db: Db,
  productId: number,
  categoryId: number,
): Promise<boolean> {
  const [c] = await db.select({ n: count() }).from(categories).where(eq(categories.id, categoryId));
  if (!c || c.n === 0) return false;
  const rows = await db
    .update(products)
    .set({ categoryId })
    .where(eq(products.id, productId))
    .returning({ id: products.id });
  return rows.length > 0;
}

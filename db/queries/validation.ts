/**
 * Validation tools (docs/product/screens.md, "Staff: validation tools"): external brands (is_valid false: made from what retailers
 * typed) to accept or map onto an existing brand, and listed products without a category.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../client";
import {
  brandRequests,
  brands,
  catalogueEntries,
  categories,
  collections,
  listingRequests,
  listings,
  productVariations,
  products,
  retailerBrands,
  retailers,
  users,
  variationImages,
} from "../schema";

export const VALIDATE_LIMIT = 200;

export type ExternalBrand = { id: number; name: string; listingCount: number; stores: string[]; emails: string[] };

/** Brands to validate: not valid, still active (a mapped brand is switched off), most listed first. */
export async function listExternalBrands(db: Db, extraIds: number[] = []): Promise<ExternalBrand[]> {
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
  return rows.map((r) => ({ ...r, listingCount: Number(r.listingCount) }));
}

export async function isExternalBrand(db: Db, id: number): Promise<boolean> {
  const [b] = await db
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(brands.id, id), eq(brands.isValid, false), eq(brands.isActive, true)));
  return !!b;
}

/** Add Brand: the external brand becomes a valid brand. */
export async function acceptBrand(db: Db, id: number): Promise<void> {
  await db.update(brands).set({ isValid: true }).where(eq(brands.id, id));
}

/**
 * Change to Existing Brand: everything of the external brand moves to the valid one (collections, products,
 * variations, listings, requests, retailer links, brand requests); the external brand stays, switched off,
 * with the target's name as its alias. One transaction.
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
    await tx.update(productVariations).set({ brandId: toId }).where(eq(productVariations.brandId, fromId));
    await tx.update(listings).set({ brandId: toId }).where(eq(listings.brandId, fromId));
    await tx.update(listingRequests).set({ brandId: toId }).where(eq(listingRequests.brandId, fromId));
    await tx.update(brandRequests).set({ brandId: toId }).where(eq(brandRequests.brandId, fromId));
    await tx.execute(
      sql`insert into ${retailerBrands} (retailer_id, brand_id, status) select retailer_id, ${toId}, status from ${retailerBrands} where brand_id = ${fromId} on conflict do nothing`,
    );
    await tx.delete(retailerBrands).where(eq(retailerBrands.brandId, fromId));
    await tx.update(brands).set({ isActive: false, alias: to.name }).where(eq(brands.id, fromId));
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
  const where = extraIds.length ? sql`(${isNull(products.categoryId)} or ${inArray(products.id, extraIds)})` : isNull(products.categoryId);
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
    .where(search ? ilike(categories.name, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined)
    .orderBy(asc(categories.name))
    .limit(1000);
}

export async function setProductCategory(db: Db, productId: number, categoryId: number): Promise<boolean> {
  const [c] = await db.select({ n: count() }).from(categories).where(eq(categories.id, categoryId));
  if (!c || c.n === 0) return false;
  const rows = await db.update(products).set({ categoryId }).where(eq(products.id, productId)).returning({ id: products.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Unresolved catalogue entries ("Validate products")

export type EntryMatch = {
  productId: number;
  /** Trigram similarity of the names (0..1), shown as the match strength. */
  strength: number;
  name: string;
  description: string;
  priceCents: number;
  brandName: string;
  sku: string;
  variations: { id: number; color: string; sku: string; images: string[] }[];
};

export type UnresolvedEntry = {
  id: number;
  brandName: string;
  name: string;
  description: string;
  priceCents: number | null;
  image: string;
  retailer: string | null;
  resolvedProductId: number | null;
  matches: EntryMatch[];
};

/**
 * Unresolved entries (plus the ids just fixed), each with its five best candidate products: trigram
 * similarity of the entry's name with the product's name (and sku), brands whose name resembles the entry's
 * brand first.
 */
export async function listUnresolvedEntries(db: Db, extraIds: number[] = []): Promise<UnresolvedEntry[]> {
  const where = extraIds.length
    ? sql`(${isNull(catalogueEntries.resolvedAt)} or ${inArray(catalogueEntries.id, extraIds)})`
    : isNull(catalogueEntries.resolvedAt);
  const entries = await db
    .select({
      id: catalogueEntries.id,
      brandName: catalogueEntries.brandName,
      name: catalogueEntries.name,
      description: catalogueEntries.description,
      priceCents: catalogueEntries.priceCents,
      image: catalogueEntries.image,
      retailer: retailers.storeName,
      resolvedProductId: catalogueEntries.resolvedProductId,
    })
    .from(catalogueEntries)
    .leftJoin(retailers, eq(retailers.id, catalogueEntries.retailerId))
    .where(where)
    .orderBy(asc(catalogueEntries.id))
    .limit(VALIDATE_LIMIT);
  const out: UnresolvedEntry[] = [];
  for (const e of entries) {
    const strength = sql<number>`round((greatest(similarity(${products.displayName}, ${e.name}), similarity(${products.sku}, ${e.name})) * 0.8 + similarity(${brands.name}, ${e.brandName}) * 0.2)::numeric, 2)::float8`;
    const matches = await db
      .select({
        productId: products.id,
        strength,
        name: products.displayName,
        description: products.description,
        priceCents: products.priceCents,
        brandName: brands.displayName,
        sku: products.sku,
      })
      .from(products)
      .innerJoin(brands, eq(brands.id, products.brandId))
      .where(
        sql`(${products.displayName} % ${e.name} or ${brands.name} % ${e.brandName} or ${products.sku} ilike ${
          "%" + e.name.replace(/[\\%_]/g, "") + "%"
        })`,
      )
      .orderBy(desc(strength), asc(products.id))
      .limit(5);
    const ids = matches.map((m) => m.productId);
    const vars = ids.length
      ? await db
          .select({
            id: productVariations.id,
            productId: productVariations.productId,
            color: productVariations.color,
            sku: productVariations.sku,
            images: sql<
              string[]
            >`array(select i.thumbnail_url from ${variationImages} i where i.variation_id = ${productVariations.id} order by i.position limit 4)`,
          })
          .from(productVariations)
          .where(inArray(productVariations.productId, ids))
          .orderBy(asc(productVariations.id))
      : [];
    out.push({
      ...e,
      matches: matches.map((m) => ({ ...m, strength: Number(m.strength), variations: vars.filter((v) => v.productId === m.productId) })),
    });
  }
  return out;
}

/** Resolves an entry to one of our products; false when either is unknown or the entry is already resolved. */
export async function resolveEntry(db: Db, entryId: number, productId: number): Promise<boolean> {
  const [p] = await db.select({ id: products.id }).from(products).where(eq(products.id, productId));
  if (!p) return false;
  const rows = await db
    .update(catalogueEntries)
    .set({ resolvedProductId: productId, resolvedAt: new Date() })
    .where(and(eq(catalogueEntries.id, entryId), isNull(catalogueEntries.resolvedAt)))
    .returning({ id: catalogueEntries.id });
  return rows.length > 0;
}

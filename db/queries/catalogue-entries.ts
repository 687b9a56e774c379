/**
 * Catalogue entries, the validation stage "products" (docs/product/screens.md, "Staff: validation tools"; ADR
 * 0032): a product as a source described it, waiting for staff. A saved collection upload's product
 * code new to its brand makes one (addUploadEntries); staff match it to another of our products, validate the
 * product the upload made, or reject it.
 */
import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import {
  brands,
  catalogueEntries,
  collectionUploads,
  productVariations,
  products,
  retailers,
  variationImages,
} from "../schema";
import { VALIDATE_LIMIT } from "./validation";

/** A product code compared as the entries' unique index compares it: letters and digits only, lower case. */
const codeKey = (v: SQL | string) => sql`lower(regexp_replace(${v}, '[^[:alnum:]]', '', 'g'))`;

/** Of `skus`, those the brand has a product for already (case, spaces and punctuation ignored). */
export async function knownProductCodes(
  db: DbOrTx,
  brandId: number,
  skus: string[],
): Promise<Set<string>> {
  if (skus.length === 0) return new Set();
  const rows = await db.execute<{ sku: string }>(sql`
    select x.sku from unnest(array[${sql.join(
      skus.map((s) => sql`${s}`),
      sql`, `,
    )}]::text[]) as x(sku)
    where exists (select 1 from ${products} p where p.brand_id = ${brandId} and ${codeKey(sql`p.sku`)} = ${codeKey(sql`x.sku`)})`);
  return new Set([...rows].map((r) => r.sku));
}

/** A product a collection upload's save made from one of its lines. */
export type UploadedProduct = {
  productId: number;
  sku: string;
  line: number;
  name: string;
  description: string;
  priceCents: number;
  image: string;
};

/**
 * In a collection upload's save: each product whose code was new to the brand becomes a catalogue entry for
 * staff to validate, remembering the brand, the upload, the line and the product (its initial product). One
 * entry per brand and code: a code with an entry already makes none.
 */
export async function addUploadEntries(
  db: DbOrTx,
  brandId: number,
  uploadId: number,
  made: UploadedProduct[],
): Promise<void> {
  if (made.length === 0) return;
  const [b] = await db
    .select({ name: brands.name, displayName: brands.displayName })
    .from(brands)
    .where(eq(brands.id, brandId));
  await db
    .insert(catalogueEntries)
    .values(
      made.map((m) => ({
        brandId,
        brandName: b?.displayName || b?.name || "",
        sku: m.sku,
        name: m.name,
        description: m.description,
        priceCents: m.priceCents,
        image: m.image,
        uploadId,
        uploadLine: m.line,
        initialProductId: m.productId,
      })),
    )
    .onConflictDoNothing();
}

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
  sku: string;
  description: string;
  priceCents: number | null;
  image: string;
  retailer: string | null;
  uploadId: number | null;
  uploadLine: number | null;
  uploadFile: string | null;
  initialProductId: number | null;
  resolvedProductId: number | null;
  matches: EntryMatch[];
};

/**
 * The five products most like the entry (its own initial product left out), with their variations: of its
 * brand when the entry knows it (an upload's: read through the brand's index), else of any brand whose name,
 * product name or code resembles it.
 */
async function candidates(
  db: Db,
  e: { name: string; brandName: string; brandId: number | null; initialProductId: number | null },
): Promise<EntryMatch[]> {
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
      and(
        e.brandId !== null
          ? eq(products.brandId, e.brandId)
          : sql`(${products.displayName} % ${e.name} or ${brands.name} % ${e.brandName} or ${products.sku} ilike ${
              "%" + e.name.replace(/[\\%_]/g, "") + "%"
            })`,
        e.initialProductId === null ? undefined : ne(products.id, e.initialProductId),
      ),
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
  return matches.map((m) => ({
    ...m,
    strength: Number(m.strength),
    variations: vars.filter((v) => v.productId === m.productId),
  }));
}

/**
 * Unresolved entries (plus the ids just fixed), each with its five best candidate products: trigram
 * similarity of the entry's name with the product's name (and sku), brands whose name resembles the entry's
 * brand first.
 */
export async function listUnresolvedEntries(
  db: Db,
  extraIds: number[] = [],
): Promise<UnresolvedEntry[]> {
  const where = extraIds.length
    ? sql`(${isNull(catalogueEntries.resolvedAt)} or ${inArray(catalogueEntries.id, extraIds)})`
    : isNull(catalogueEntries.resolvedAt);
  const entries = await db
    .select({
      id: catalogueEntries.id,
      brandName: catalogueEntries.brandName,
      name: catalogueEntries.name,
      sku: catalogueEntries.sku,
      description: catalogueEntries.description,
      priceCents: catalogueEntries.priceCents,
      image: catalogueEntries.image,
      retailer: retailers.storeName,
      brandId: catalogueEntries.brandId,
      uploadId: catalogueEntries.uploadId,
      uploadLine: catalogueEntries.uploadLine,
      uploadFile: collectionUploads.fileName,
      initialProductId: catalogueEntries.initialProductId,
      resolvedProductId: catalogueEntries.resolvedProductId,
    })
    .from(catalogueEntries)
    .leftJoin(retailers, eq(retailers.id, catalogueEntries.retailerId))
    .leftJoin(collectionUploads, eq(collectionUploads.id, catalogueEntries.uploadId))
    .where(where)
    .orderBy(asc(catalogueEntries.id))
    .limit(VALIDATE_LIMIT);
  const out: UnresolvedEntry[] = [];
  for (const { brandId, ...e } of entries)
    out.push({ ...e, matches: await candidates(db, { ...e, brandId }) });
  return out;
}

/** What staff decide about an entry: it is another of our products, the product made from it is right, or it is wrong. */
export type EntryDecision =
  | { intent: "match"; productId: number }
  | { intent: "validate" }
  | { intent: "reject" };

/** ok, or why not: the entry is unknown or resolved already; the product is unknown or the entry's own; nothing was made from it. */
export type EntryOutcome = "ok" | "no-entry" | "no-product" | "no-initial";

/**
 * Resolves an unresolved entry, and what it came from: matched to another product or rejected, the product
 * its upload line made is switched off (no new listings of it; staff may switch it back on); validated, that
 * product is the entry's. One transaction, the entry locked.
 */
export async function resolveEntry(
  db: Db,
  entryId: number,
  d: EntryDecision,
): Promise<EntryOutcome> {
  return db.transaction(async (tx) => {
    const [e] = await tx
      .select({ initialProductId: catalogueEntries.initialProductId })
      .from(catalogueEntries)
      .where(and(eq(catalogueEntries.id, entryId), isNull(catalogueEntries.resolvedAt)))
      .for("update");
    if (!e) return "no-entry";
    let productId: number | null = null;
    if (d.intent === "match") {
      const [p] = await tx
        .select({ id: products.id })
        .from(products)
        .where(eq(products.id, d.productId));
      if (!p || p.id === e.initialProductId) return "no-product";
      productId = p.id;
    } else if (d.intent === "validate") {
      if (e.initialProductId === null) return "no-initial";
      productId = e.initialProductId;
    }
    if (d.intent !== "validate" && e.initialProductId !== null) {
      await tx.update(products).set({ isActive: false }).where(eq(products.id, e.initialProductId));
    }
    const resolution =
      d.intent === "match" ? "matched" : d.intent === "validate" ? "validated" : "rejected";
    await tx
      .update(catalogueEntries)
      .set({ resolvedProductId: productId, resolvedAt: new Date(), resolution })
      .where(eq(catalogueEntries.id, entryId));
    return "ok";
  });
}

/** A collection upload's lines that made catalogue entries, and what staff decided (null: waiting). */
export async function uploadLineEntries(db: Db, uploadId: number) {
  return db
    .select({
      line: catalogueEntries.uploadLine,
      entryId: catalogueEntries.id,
      resolution: catalogueEntries.resolution,
    })
    .from(catalogueEntries)
    .where(eq(catalogueEntries.uploadId, uploadId))
    .orderBy(asc(catalogueEntries.uploadLine));
}

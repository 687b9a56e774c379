/** The variation editor (docs/product/screens.md, "Staff: variation editor"): one variation, its product's sizes and its images. */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { collections, productSizes, productVariations, products, variationImages } from "../schema";
import { variationSummaryColumns } from "./admin-resources";

export async function getVariationForEditor(db: Db, id: number) {
  const [v] = await db
    .select({
      ...variationSummaryColumns,
      productName: products.displayName,
      collectionName: collections.name,
      collectionYear: collections.year,
    })
    .from(productVariations)
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(collections, eq(collections.id, products.collectionId))
    .where(eq(productVariations.id, id))
    .limit(1);
  if (!v) return null;
  const [sizes, images] = await Promise.all([
    db
      .select({ id: productSizes.id, label: productSizes.label })
      .from(productSizes)
      .where(eq(productSizes.productId, v.productId))
      .orderBy(asc(productSizes.position), asc(productSizes.id)),
    db
      .select({
        id: variationImages.id,
        url: variationImages.url,
        thumbnailUrl: variationImages.thumbnailUrl,
      })
      .from(variationImages)
      .where(eq(variationImages.variationId, id))
      .orderBy(asc(variationImages.position), asc(variationImages.id)),
  ]);
  return { ...v, sizes, images };
}

export async function updateVariation(
  db: Db,
  id: number,
  v: { sku: string; priceCents: number; isActive: boolean },
): Promise<boolean> {
  const rows = await db
    .update(productVariations)
    .set(v)
    .where(eq(productVariations.id, id))
    .returning({ id: productVariations.id });
  return rows.length > 0;
}

/** Adds size labels to the product's run (after the last; a label it already has is skipped). */
export async function addProductSizes(
  db: Db,
  productId: number,
  labels: string[],
): Promise<number> {
  if (labels.length === 0) return 0;
  const [{ last }] = await db
    .select({ last: sql<number>`coalesce(max(${productSizes.position}), -1)` })
    .from(productSizes)
    .where(eq(productSizes.productId, productId));
  const rows = await db
    .insert(productSizes)
    .values(labels.map((label, i) => ({ productId, label, position: Number(last) + 1 + i })))
    .onConflictDoNothing()
    .returning({ id: productSizes.id });
  return rows.length;
}

export async function addVariationImage(db: Db, variationId: number, url: string): Promise<void> {
  const [{ last }] = await db
    .select({ last: sql<number>`coalesce(max(${variationImages.position}), -1)` })
    .from(variationImages)
    .where(eq(variationImages.variationId, variationId));
  await db
    .insert(variationImages)
    .values({ variationId, url, thumbnailUrl: url, position: Number(last) + 1 });
}

/** Deletes one image of the variation; its URL (to remove the file), or null when it is not one of its images. */
export async function deleteVariationImage(
  db: Db,
  variationId: number,
  imageId: number,
): Promise<string | null> {
  const rows = await db
    .delete(variationImages)
    .where(and(eq(variationImages.id, imageId), eq(variationImages.variationId, variationId)))
    .returning({ url: variationImages.url });
  return rows[0]?.url ?? null;
}

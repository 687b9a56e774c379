/**
 * Collection uploads (docs/product/screens.md, "Staff: collection uploads"): the uploads of a collection, and saving one as
 * products (its product codes new to the brand also become catalogue entries for staff to validate).
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { groupUploadRows } from "../../domain/catalogue-upload";
import type { Db } from "../client";
import { addUploadEntries, knownProductCodes, type UploadedProduct } from "./catalogue-entries";
import {
  collections,
  collectionUploads,
  productSizes,
  productVariations,
  products,
  variationImages,
  type CollectionUploadRowJson,
} from "../schema";

export type CollectionUploadRow = typeof collectionUploads.$inferSelect;

export async function createCollectionUpload(
  db: Db,
  v: {
    collectionId: number;
    uploadedBy: number;
    fileName: string;
    rows: CollectionUploadRowJson[];
    images: Record<string, string>;
  },
): Promise<number> {
  const [row] = await db
    .insert(collectionUploads)
    .values(v)
    .returning({ id: collectionUploads.id });
  return row.id;
}

/**
 * Deletes uploads loaded but never saved before `before` and returns their pictures' URLs (files to
 * remove). Saved uploads stay: their pictures are the variations' images.
 */
export async function takeStaleCollectionUploads(
  db: Db,
  before: Date,
  limit = 100,
): Promise<string[]> {
  const rows = await db.execute<{ images: Record<string, string> }>(sql`
    delete from ${collectionUploads} where ${collectionUploads.id} in (
      select id from ${collectionUploads} where status = 'previewed' and created_at < ${before.toISOString()}::timestamptz
      order by id limit ${limit} for update skip locked
    ) returning images`);
  return [...rows].flatMap((r) => Object.values(r.images ?? {}));
}

/** The "folders" to pick from: this collection's uploads, newest first. */
export async function listCollectionUploads(db: Db, collectionId: number) {
  return db
    .select({
      id: collectionUploads.id,
      fileName: collectionUploads.fileName,
      status: collectionUploads.status,
      createdAt: collectionUploads.createdAt,
      rowCount: sql<number>`jsonb_array_length(${collectionUploads.rows})`,
    })
    .from(collectionUploads)
    .where(eq(collectionUploads.collectionId, collectionId))
    .orderBy(desc(collectionUploads.id))
    .limit(100);
}

export async function getCollectionUpload(
  db: Db,
  collectionId: number,
  id: number,
): Promise<CollectionUploadRow | null> {
  const [row] = await db
    .select()
    .from(collectionUploads)
    .where(and(eq(collectionUploads.id, id), eq(collectionUploads.collectionId, collectionId)))
    .limit(1);
  return row ?? null;
}

export type SaveUploadResult =
  | { ok: true; products: number; variations: number }
  | { ok: false; reason: "missing" | "saved" | "invalid" }
  /** The folder's products are in the collection already (the same folder saved before, loaded again). */
  | { ok: false; reason: "duplicate"; skus: string[] };

/**
 * Saves an upload's rows as products of its collection (one per sku, one variation per color, the sizes, the
 * pictures), once: the upload row is locked and marked saved in the same transaction, so a second save (or
 * two at once) finds it saved. An upload with a row at fault is not saved.
 */
export async function saveCollectionUpload(
  db: Db,
  collectionId: number,
  id: number,
): Promise<SaveUploadResult> {
  return db.transaction(async (tx) => {
    const [u] = await tx
      .select()
      .from(collectionUploads)
      .where(and(eq(collectionUploads.id, id), eq(collectionUploads.collectionId, collectionId)))
      .for("update")
      .limit(1);
    if (!u) return { ok: false, reason: "missing" } as const;
    if (u.status === "saved") return { ok: false, reason: "saved" } as const;
    if (u.rows.some((r) => r.problems.length > 0)) return { ok: false, reason: "invalid" } as const;
    const [c] = await tx
      .select({ brandId: collections.brandId })
      .from(collections)
      .where(eq(collections.id, collectionId));
    let variations = 0;
    const groups = groupUploadRows(u.rows.map((r) => ({ ...r, priceCents: r.priceCents })));
    // A saved folder cannot be saved again (docs/product/screens.md, "Staff: collection uploads"). Loaded again, it is a new upload: its product codes,
    // already in the collection, say it was saved.
    const already = groups.length
      ? await tx
          .select({ sku: products.sku })
          .from(products)
          .where(
            and(
              eq(products.collectionId, collectionId),
              inArray(
                products.sku,
                groups.map((g) => g.sku),
              ),
            ),
          )
      : [];
    if (already.length)
      return {
        ok: false,
        reason: "duplicate",
        skus: [...new Set(already.map((a) => a.sku))].sort(),
      } as const;
    // Codes new to the brand become catalogue entries for staff to validate (after the products are made).
    const known = await knownProductCodes(
      tx,
      c.brandId,
      groups.map((g) => g.sku),
    );
    const unmatched: UploadedProduct[] = [];
    for (const g of groups) {
      const [p] = await tx
        .insert(products)
        .values({
          collectionId,
          brandId: c.brandId,
          sku: g.sku,
          displayName: g.displayName,
          description: g.description,
          priceCents: g.priceCents,
        })
        .returning({ id: products.id });
      if (!known.has(g.sku)) {
        const first = g.variations[0];
        const image = first.images.map((name) => u.images[name]).find(Boolean) ?? "";
        unmatched.push({
          productId: p.id,
          sku: g.sku,
          line: first.line,
          name: g.displayName,
          description: g.description,
          priceCents: g.priceCents,
          image,
        });
      }
      if (g.sizes.length)
        await tx
          .insert(productSizes)
          .values(g.sizes.map((label, position) => ({ productId: p.id, label, position })));
      for (const r of g.variations) {
        const [v] = await tx
          .insert(productVariations)
          .values({
            productId: p.id,
            brandId: c.brandId,
            sku: r.sku,
            color: r.color,
            priceCents: r.priceCents ?? g.priceCents,
            options: { color: r.color },
          })
          .returning({ id: productVariations.id });
        variations += 1;
        const urls = r.images.map((name) => u.images[name]).filter(Boolean);
        if (urls.length)
          await tx.insert(variationImages).values(
            urls.map((url, position) => ({
              variationId: v.id,
              url,
              thumbnailUrl: url,
              position,
            })),
          );
      }
    }
    await addUploadEntries(tx, c.brandId, id, unmatched);
    await tx
      .update(collectionUploads)
      .set({ status: "saved", savedAt: new Date() })
      .where(eq(collectionUploads.id, id));
    return { ok: true, products: groups.length, variations } as const;
  });
}

/** Variations' barcodes (domain/barcodes.ts): which codes other variations hold already. */
import { and, ne, sql } from "drizzle-orm";
import { gtin14 } from "../../domain/barcodes";
import type { DbOrTx } from "../client";
import { productVariations } from "../schema";

/**
 * Serialises the writers of barcodes until the transaction ends (a variation's save, a collection upload's
 * save), so two of them cannot give the same barcode to two variations between a check and a write.
 */
export async function lockBarcodeWrites(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('product_variations.barcodes'))`);
}

export type TakenBarcode = { code: string; variationId: number; sku: string; color: string };

/**
 * Of `codes`, those another variation (any but `exceptVariationId`) already has, compared as 14 digits (a UPC-A
 * is the EAN-13 with a leading 0), with that variation.
 */
export async function takenBarcodes(
  db: DbOrTx,
  codes: readonly string[],
  exceptVariationId?: number,
): Promise<TakenBarcode[]> {
  if (codes.length === 0) return [];
  const wanted = new Map(codes.map((c) => [gtin14(c), c]));
  const list = sql.join(
    [...wanted.keys()].map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await db
    .select({
      variationId: productVariations.id,
      sku: productVariations.sku,
      color: productVariations.color,
      barcodes: productVariations.barcodes,
    })
    .from(productVariations)
    .where(
      and(
        sql`exists (select 1 from unnest(${productVariations.barcodes}) as b(code) where lpad(b.code, 14, '0') in (${list}))`,
        exceptVariationId === undefined ? undefined : ne(productVariations.id, exceptVariationId),
      ),
    )
    .orderBy(productVariations.id);
  return rows.flatMap(({ barcodes, ...v }) =>
    barcodes.flatMap((b) => {
      const code = wanted.get(gtin14(b));
      return code === undefined ? [] : [{ code, ...v }];
    }),
  );
}

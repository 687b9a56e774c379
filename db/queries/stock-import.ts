/**
 * Stock file import (docs/product/screens.md, "Stock file import"; ADR 0029): the look-ups a preview needs
 * (catalogue variations by code or barcode, guesses, size runs, the retailer's live listings with their
 * orders in flight), the imports and the remembered mapping, and the write of one variation's plan (one
 * transaction, under the wizard's lock of that style, with its history row; a listing created or updated goes
 * through the matches' hook, recordMatchesForListing, in that transaction).
 */
import { and, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { ExistingListing, PlanAction } from "../../domain/stock-import";
import type { Db, DbOrTx } from "../client";
import {
  apiTokens,
  brands,
  deferredWithdrawals,
  listings,
  listingStockChanges,
  orderContributions,
  orders,
  productSizes,
  products,
  productVariations,
  retailers,
  stockImportMappings,
  stockImports,
  type SizesMap,
  type StockImportRowJson,
  users,
} from "../schema";
import { clearDeferredWithdrawal, markDeferredWithdrawal } from "./deferred-withdrawals";
import { recordMatchesForListing } from "./matches";
import { PENDING_TRANSACTION_STATES } from "./pending-transactions";

export interface CatalogueHit {
  variationId: number;
  productId: number;
  brandId: number;
  brandName: string;
  sku: string;
  productSku: string;
  productName: string;
  color: string;
  priceCents: number;
  barcodes: string[];
}

const hitColumns = {
  variationId: productVariations.id,
  productId: products.id,
  brandId: productVariations.brandId,
  brandName: brands.displayName,
  sku: productVariations.sku,
  productSku: products.sku,
  productName: products.displayName,
  color: productVariations.color,
  priceCents: productVariations.priceCents,
  barcodes: productVariations.barcodes,
};

/** Active variations (of active products) with their brand, meeting `where`. */
function activeHits(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(hitColumns)
    .from(productVariations)
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(brands, eq(brands.id, productVariations.brandId))
    .where(and(eq(productVariations.isActive, true), eq(products.isActive, true), where));
}

/** Active variations whose code, product's code or barcode (domain/barcodes.ts) is one of `codes` (compared upper-case). */
export async function variationsByCodes(db: DbOrTx, codes: string[]): Promise<CatalogueHit[]> {
  if (codes.length === 0) return [];
  const upper = [...new Set(codes.map((c) => c.toUpperCase()))];
  const list = sql`(${sql.join(
    upper.map((c) => sql`${c}`),
    sql`, `,
  )})`;
  return activeHits(
    db,
    sql`(upper(${productVariations.sku}) in ${list} or upper(${products.sku}) in ${list}
      or ${productVariations.barcodes} && array[${sql.join(
        upper.map((c) => sql`${c}`),
        sql`, `,
      )}]::text[])`,
  );
}

/** Candidates for a guess: variations of these brands whose code is most like `code` (trigram similarity). */
export async function guessCandidates(
  db: DbOrTx,
  code: string,
  brandIds: number[],
  limit = 20,
): Promise<CatalogueHit[]> {
  if (brandIds.length === 0) return [];
  const term = code.toLowerCase();
  const likeness = sql`greatest(similarity(lower(${productVariations.sku}), ${term}), similarity(lower(${products.sku}), ${term}))`;
  return activeHits(db, and(inArray(productVariations.brandId, brandIds), sql`${likeness} > 0.2`))
    .orderBy(sql`${likeness} desc`)
    .limit(limit);
}

/** Size runs of these products, in display order. */
export async function sizeRuns(db: DbOrTx, productIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (productIds.length === 0) return out;
  const rows = await db
    .select({ productId: productSizes.productId, label: productSizes.label })
    .from(productSizes)
    .where(inArray(productSizes.productId, [...new Set(productIds)]))
    .orderBy(productSizes.productId, productSizes.position, productSizes.id);
  for (const r of rows) out.set(r.productId, [...(out.get(r.productId) ?? []), r.label]);
  return out;
}

const inFlightCount = sql<number>`(select count(distinct o.id)::int from ${orderContributions} oc join ${orders} o on o.id = oc.order_id
  where oc.listing_id = ${listings.id} and o.statename in (${sql.join(
    PENDING_TRANSACTION_STATES.map((s) => sql`${s}`),
    sql`, `,
  )}))`;

export type LiveListing = ExistingListing & { variationId: number; label: string };

/** The retailer's live listings (units left), newest first per variation, with the orders in flight on each. */
export async function liveListings(db: DbOrTx, retailerId: number): Promise<LiveListing[]> {
  const rows = await db
    .select({
      id: listings.id,
      variationId: listings.variationId,
      sizes: listings.sizes,
      listingType: listings.listingType,
      reason: listings.reason,
      inFlight: inFlightCount,
      withdrawPending: sql<boolean>`exists (select 1 from ${deferredWithdrawals} d where d.listing_id = ${listings.id})`,
      sku: productVariations.sku,
      color: productVariations.color,
    })
    .from(listings)
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .where(and(eq(listings.providerId, retailerId), gt(listings.totalUnits, 0)))
    .orderBy(desc(listings.createdAt), desc(listings.id));
  return rows.map((r) => ({ ...r, inFlight: Number(r.inFlight), label: `${r.sku} · ${r.color}` }));
}

export async function getMapping(
  db: DbOrTx,
  retailerId: number,
): Promise<Record<string, string> | null> {
  const [row] = await db
    .select()
    .from(stockImportMappings)
    .where(eq(stockImportMappings.retailerId, retailerId));
  return row?.mapping ?? null;
}

export async function saveMapping(
  db: DbOrTx,
  retailerId: number,
  mapping: Record<string, string>,
): Promise<void> {
  await db
    .insert(stockImportMappings)
    .values({ retailerId, mapping })
    .onConflictDoUpdate({
      target: stockImportMappings.retailerId,
      set: { mapping, updatedAt: sql`now()` },
    });
}

export type StockImport = typeof stockImports.$inferSelect;

export async function createImport(
  db: DbOrTx,
  v: {
    retailerId: number;
    uploadedBy: number | null;
    fileName: string;
    fileSha256: string;
    wholeSurplus: boolean;
    cells: string[][];
    /** Sent through the API with this token (docs/guides/stock-import.md "API"). */
    apiTokenId?: number | null;
  },
): Promise<StockImport> {
  const [row] = await db
    .insert(stockImports)
    .values({ ...v, status: "mapping" })
    .returning();
  return row;
}

/** An import of this retailer (another retailer's id: null). */
export async function getImport(
  db: DbOrTx,
  id: number,
  retailerId: number,
): Promise<StockImport | null> {
  const [row] = await db
    .select()
    .from(stockImports)
    .where(and(eq(stockImports.id, id), eq(stockImports.retailerId, retailerId)));
  return row ?? null;
}

export async function setImportPreview(
  db: DbOrTx,
  id: number,
  preview: StockImportRowJson[],
): Promise<void> {
  await db.update(stockImports).set({ status: "preview", preview }).where(eq(stockImports.id, id));
}

/** Marks the import confirmed (once: false when it already was) and records what happened to each row. */
export async function claimImport(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .update(stockImports)
    .set({ status: "confirming" })
    .where(and(eq(stockImports.id, id), eq(stockImports.status, "preview")))
    .returning({ id: stockImports.id });
  return rows.length === 1;
}

export async function recordImportResults(
  db: DbOrTx,
  id: number,
  results: StockImportRowJson[],
): Promise<void> {
  await db
    .update(stockImports)
    .set({ status: "confirmed", results, confirmedAt: sql`now()` })
    .where(eq(stockImports.id, id));
}

export async function listImports(db: DbOrTx, retailerId: number, limit = 10) {
  return db
    .select({
      id: stockImports.id,
      fileName: stockImports.fileName,
      status: stockImports.status,
      wholeSurplus: stockImports.wholeSurplus,
      createdAt: stockImports.createdAt,
    })
    .from(stockImports)
    .where(eq(stockImports.retailerId, retailerId))
    .orderBy(desc(stockImports.createdAt), desc(stockImports.id))
    .limit(limit);
}

/**
 * Staff's view of a retailer's imports (/manage-retailer/imports; docs/guides/stock-import.md "Staff"), newest first: who sent
 * it (the user, or the API token's name), when, its lines, and its refused rows (of the results once
 * confirmed, else of the preview).
 */
export async function importsForStaff(db: DbOrTx, retailerId: number, limit = 50) {
  const rows = sql`coalesce(${stockImports.results}, ${stockImports.preview}, '[]'::jsonb)`;
  return db
    .select({
      id: stockImports.id,
      fileName: stockImports.fileName,
      status: stockImports.status,
      wholeSurplus: stockImports.wholeSurplus,
      createdAt: stockImports.createdAt,
      confirmedAt: stockImports.confirmedAt,
      uploader: users.email,
      tokenName: apiTokens.name,
      lines: sql<number>`greatest(jsonb_array_length(${stockImports.cells}) - 1, 0)::int`,
      refused: sql<
        StockImportRowJson[]
      >`coalesce((select jsonb_agg(e) from jsonb_array_elements(${rows}) e where e->>'action' = 'refused'), '[]'::jsonb)`,
    })
    .from(stockImports)
    .leftJoin(users, eq(users.id, stockImports.uploadedBy))
    .leftJoin(apiTokens, eq(apiTokens.id, stockImports.apiTokenId))
    .where(eq(stockImports.retailerId, retailerId))
    .orderBy(desc(stockImports.createdAt), desc(stockImports.id))
    .limit(limit);
}

/** A listing's import history, newest first (owner-scoped by the caller). */
export async function listingImportHistory(db: DbOrTx, listingId: number) {
  return db
    .select({
      importId: listingStockChanges.importId,
      action: listingStockChanges.action,
      fileName: stockImports.fileName,
      before: listingStockChanges.before,
      after: listingStockChanges.after,
      at: listingStockChanges.createdAt,
    })
    .from(listingStockChanges)
    .innerJoin(stockImports, eq(stockImports.id, listingStockChanges.importId))
    .where(eq(listingStockChanges.listingId, listingId))
    .orderBy(desc(listingStockChanges.createdAt), desc(listingStockChanges.id));
}

export type ApplyOutcome =
  | { ok: true; listingId: number | null; changed: boolean }
  | { ok: false; message: string };

/**
 * Applies one variation's plan in one transaction, under the wizard's lock of (retailer, variation): the
 * live listing is read again and must still be the one planned (else nothing is written and the row says
 * so); a create is refused when a live listing appeared meanwhile. Each change writes a history row.
 */
export async function applyVariationPlan(
  db: Db,
  retailerId: number,
  importId: number,
  variationId: number,
  expectedListingId: number | null,
  action: PlanAction,
): Promise<ApplyOutcome> {
  if (action.kind === "nothing") return { ok: true, listingId: null, changed: false };
  if (action.kind === "unchanged") {
    // Listed again with units: an earlier import's withdrawal waiting for an order is called off.
    await clearDeferredWithdrawal(db, action.listingId);
    return { ok: true, listingId: action.listingId, changed: false };
  }
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`wizard:listing:${retailerId}:${variationId}`}))`,
    );
    const [live] = await tx
      .select({ id: listings.id, sizes: listings.sizes })
      .from(listings)
      .where(
        and(
          eq(listings.providerId, retailerId),
          eq(listings.variationId, variationId),
          gt(listings.totalUnits, 0),
        ),
      )
      .orderBy(desc(listings.createdAt), desc(listings.id))
      .limit(1)
      .for("update");
    if ((live?.id ?? null) !== expectedListingId)
      return {
        ok: false,
        message: "The listing changed since the preview: upload the file again to see it.",
      };
    if (action.kind === "kept") {
      // Withdrawn when its last order waiting for an answer ends, as done by this import (docs/guides/stock-import.md "Sync").
      await markDeferredWithdrawal(tx, live!.id, importId);
      await tx.insert(listingStockChanges).values({
        listingId: live!.id,
        importId,
        action: "kept",
        before: live!.sizes,
        after: live!.sizes,
      });
      return { ok: true, listingId: live!.id, changed: true };
    }
    if (action.kind === "create") {
      const [v] = await tx
        .select({ brandId: productVariations.brandId, bt: retailers.btMerchantId })
        .from(productVariations)
        .innerJoin(retailers, eq(retailers.id, retailerId))
        .where(eq(productVariations.id, variationId));
      const [row] = await tx
        .insert(listings)
        .values({
          variationId,
          brandId: v.brandId,
          providerId: retailerId,
          listingType: action.listingType,
          reason: action.reason,
          sizes: action.sizes,
          totalUnits: total(action.sizes),
          // Hidden from other retailers until payout is set up, as the wizard's listings.
          status: v.bt ? "active" : "payoutneeded",
          terms: true,
        })
        .returning({ id: listings.id });
      await tx.insert(listingStockChanges).values({
        listingId: row.id,
        importId,
        action: "create",
        before: null,
        after: action.sizes,
      });
      await recordMatchesForListing(tx, row.id);
      return { ok: true, listingId: row.id, changed: true };
    }
    const before = live!.sizes;
    const after: SizesMap =
      action.kind === "withdraw"
        ? Object.fromEntries(Object.keys(before).map((k) => [k, 0]))
        : (action as { sizes: SizesMap }).sizes;
    await tx
      .update(listings)
      .set({
        sizes: after,
        totalUnits: total(after),
        ...(action.kind === "update"
          ? { listingType: action.listingType, reason: action.reason }
          : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(listings.id, live!.id));
    await tx
      .insert(listingStockChanges)
      .values({ listingId: live!.id, importId, action: action.kind, before, after });
    // Matches' hook (ADR 0030): units set may fill a request now; a withdrawn listing is no longer visible.
    // Units set also call off an earlier import's withdrawal waiting for an order (docs/guides/stock-import.md "Sync").
    if (action.kind === "update") {
      await clearDeferredWithdrawal(tx, live!.id);
      await recordMatchesForListing(tx, live!.id);
    }
    return { ok: true, listingId: live!.id, changed: true };
  });
}

function total(sizes: SizesMap): number {
  return Object.values(sizes).reduce((a, n) => a + n, 0);
}

/**
 * The deferred withdrawal of a stock import (docs/product/screens.md, "Stock file import"; docs/guides/stock-import.md "Sync"):
 * a listing a file withdraws while an order waiting for an answer (PENDING_TRANSACTION_STATES) takes units
 * from it is marked (deferred_withdrawals, with the import); it is withdrawn, as done by that import (its
 * listing_stock_changes row), in the transaction that ends its last such order: the read model's step write
 * (recordStep, db/queries/order-steps.ts) and the units put back on a listing (restoreListingUnits), after
 * the units are back, so they never list it again nor make matches.
 */
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import {
  deferredWithdrawals,
  listings,
  listingStockChanges,
  orderContributions,
  type SizesMap,
} from "../schema";
import { pendingTransactionCount, PENDING_TRANSACTION_STATES } from "./pending-transactions";
import type { DbOrTx } from "../client";

/** Marks the listing to be withdrawn by this import when its orders end (a later mark replaces an earlier one). */
export async function markDeferredWithdrawal(
  db: DbOrTx,
  listingId: number,
  importId: number,
): Promise<void> {
  await db
    .insert(deferredWithdrawals)
    .values({ listingId, importId })
    .onConflictDoUpdate({
      target: deferredWithdrawals.listingId,
      set: { importId, createdAt: sql`now()` },
    });
}

/** The retailer changed its mind (units listed again by an import or on the listing's page): no withdrawal. */
export async function clearDeferredWithdrawal(db: DbOrTx, listingId: number): Promise<void> {
  await db.delete(deferredWithdrawals).where(eq(deferredWithdrawals.listingId, listingId));
}

/** The import that will withdraw this listing when its orders end, or null. */
export async function deferredWithdrawalOf(db: DbOrTx, listingId: number): Promise<number | null> {
  const [row] = await db
    .select({ importId: deferredWithdrawals.importId })
    .from(deferredWithdrawals)
    .where(eq(deferredWithdrawals.listingId, listingId));
  return row?.importId ?? null;
}

/**
 * Withdraws those of these listings that are marked, still have units and no order waiting for an answer:
 * all sizes 0, with a "withdraw" history row naming the marking import. Returns the ids withdrawn.
 */
export async function withdrawWhenOrdersEnded(db: DbOrTx, listingIds: number[]): Promise<number[]> {
  if (listingIds.length === 0) return [];
  const marked = await db
    .select({ id: listings.id, sizes: listings.sizes, importId: deferredWithdrawals.importId })
    .from(listings)
    .innerJoin(deferredWithdrawals, eq(deferredWithdrawals.listingId, listings.id))
    .where(and(inArray(listings.id, [...new Set(listingIds)]), gt(listings.totalUnits, 0)))
    .orderBy(listings.id)
    .for("update", { of: listings });
  const done: number[] = [];
  for (const l of marked) {
    if ((await pendingTransactionCount(db, l.id)) > 0) continue;
    const after: SizesMap = Object.fromEntries(Object.keys(l.sizes).map((k) => [k, 0]));
    await db
      .update(listings)
      .set({ sizes: after, totalUnits: 0, updatedAt: sql`now()` })
      .where(eq(listings.id, l.id));
    await db.insert(listingStockChanges).values({
      listingId: l.id,
      importId: l.importId,
      action: "withdraw",
      before: l.sizes,
      after,
    });
    done.push(l.id);
  }
  return done;
}

/** After an order's step: when it leaves the states waiting for an answer, its marked listings are withdrawn. */
export async function withdrawAfterOrderStep(
  db: DbOrTx,
  orderId: number,
  statename: string,
): Promise<void> {
  if (PENDING_TRANSACTION_STATES.includes(statename)) return;
  const rows = await db
    .selectDistinct({ id: deferredWithdrawals.listingId })
    .from(orderContributions)
    .innerJoin(deferredWithdrawals, eq(deferredWithdrawals.listingId, orderContributions.listingId))
    .where(eq(orderContributions.orderId, orderId));
  await withdrawWhenOrdersEnded(
    db,
    rows.map((r) => r.id),
  );
}

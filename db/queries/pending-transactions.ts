/**
 * Orders still waiting for an answer that take units from a listing (docs/product/orders.md, "Listings and
 * requests"): the edit screens ask before saving such a listing, a stock import defers its withdrawal
 * (db/queries/deferred-withdrawals.ts) and leaves its units alone (db/queries/stock-import.ts).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { BUY_STATES, SWAP_STATES } from "../../domain/states";
import type { DbOrTx } from "../client";
import { orderContributions, orders } from "../schema";

/**
 * Orders that still wait for an answer and take units from a listing: the seller has not approved yet
 * (or approved but must add a card, or the buyer must accept the seller's modification), or a swap is
 * still being negotiated. Drafts (complete_order_checkout) are not the seller's business yet.
 */
export const PENDING_TRANSACTION_STATES: readonly string[] = Object.freeze([
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
  SWAP_STATES.PROVIDER_CHOOSE_ITEMS,
  SWAP_STATES.PROVIDER_APPROVE,
  SWAP_STATES.RECEIVER_APPROVE,
]);

/**
 * How many orders still waiting for an answer (PENDING_TRANSACTION_STATES) take units from this listing.
 * Saving such a listing asks "This listing has pending transactions." first (docs/product/orders.md,
 * "Listings and requests").
 */
export async function pendingTransactionCount(db: DbOrTx, listingId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(DISTINCT ${orders.id})::int` })
    .from(orderContributions)
    .innerJoin(orders, eq(orders.id, orderContributions.orderId))
    .where(
      and(
        eq(orderContributions.listingId, listingId),
        inArray(orders.statename, [...PENDING_TRANSACTION_STATES]),
      ),
    );
  return Number(row?.n ?? 0);
}

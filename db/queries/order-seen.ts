/**
 * A retailer's seen-marking of order actions (docs/product/screens.md, "Alerts"): the alerts page and the order
 * detail mark the other party's (and the system's) actions as seen, which clears the action count of the bell.
 * A write by the pages; the lists that read it are db/queries/order-views/retailer-lists.ts.
 */
import { and, inArray, isNull, sql } from "drizzle-orm";
import { orderActions, orders } from "../schema";
import type { DbOrTx } from "../client";

/**
 * transactionactiondetail/seen: marks the other party's (and the system's) actions of these orders as seen
 * by this retailer. Orders it is not a party of are ignored. Returns the number of actions marked.
 */
export async function markOrdersSeen(
  db: DbOrTx,
  retailerId: number,
  orderIds: number[],
  at: Date = new Date(),
): Promise<number> {
  const ids = [...new Set(orderIds.filter((n) => Number.isSafeInteger(n) && n > 0))];
  if (ids.length === 0) return 0;
  const rows = await db
    .update(orderActions)
    .set({ seenAt: at })
    .where(
      and(
        inArray(orderActions.orderId, ids),
        isNull(orderActions.seenAt),
        sql`EXISTS (SELECT 1 FROM ${orders} o WHERE o.id = ${orderActions.orderId} AND (o.provider_id = ${retailerId} OR o.receiver_id = ${retailerId})
              AND ${orderActions.role} <> (CASE WHEN o.provider_id = ${retailerId} THEN 'provider' ELSE 'receiver' END))`,
      ),
    )
    .returning({ id: orderActions.id });
  return rows.length;
}

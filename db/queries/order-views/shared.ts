/**
 * What the order lists and the order detail read alike: one page of a list, the columns a list shows, and a
 * brand's name as shown.
 */
import { desc, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { brands, orders } from "../../schema";
import type { DbOrTx } from "../../client";

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** The most rows a list page holds, whatever the URL asks. */
export const MAX_PAGE_SIZE = 100;

/** A list's limit (default `defaultLimit`, at most MAX_PAGE_SIZE) and offset (default 0) from what was asked. */
export function pageArgs(
  opts: { limit?: number; offset?: number },
  defaultLimit: number,
): { limit: number; offset: number } {
  const limit =
    Number.isSafeInteger(opts.limit) && opts.limit! > 0
      ? Math.min(opts.limit!, MAX_PAGE_SIZE)
      : defaultLimit;
  const offset = Number.isSafeInteger(opts.offset) && opts.offset! >= 0 ? opts.offset! : 0;
  return { limit, offset };
}

/** The brand's display name, else its name (null without a brand row). */
export function brandNameSql(): SQL<string | null> {
  return sql<string | null>`COALESCE(NULLIF(${brands.displayName}, ''), ${brands.name})`;
}

/** The columns of an order row that every order list shows (a retailer's cards, staff's transactions). */
export const orderListColumns = {
  id: orders.id,
  externalId: orders.externalId,
  transactionType: orders.transactionType,
  providerId: orders.providerId,
  receiverId: orders.receiverId,
  statename: orders.statename,
  displayStatus: orders.displayStatus,
  stage: orders.stage,
  actionNeeded: orders.actionNeeded,
  valueCents: orders.valueCents,
  receiverGrandTotalCents: orders.receiverGrandTotalCents,
  modifiedAt: orders.modifiedAt,
};

/** One page of `query` (a select from orders, `$dynamic()`) matching `where`, newest change first, and how many match in all. */
export async function orderPage<Q extends PgSelect>(
  db: DbOrTx,
  query: Q,
  where: SQL | undefined,
  opts: { limit?: number; offset?: number },
  defaultLimit: number,
) {
  const { limit, offset } = pageArgs(opts, defaultLimit);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(orders)
    .where(where);
  const rows: Q["_"]["result"] = await query
    .where(where)
    .orderBy(desc(orders.modifiedAt), desc(orders.id))
    .limit(limit)
    .offset(offset);
  return { rows, total, limit, offset };
}

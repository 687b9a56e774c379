import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { listings, type SizesMap } from "../schema";
import { withdrawWhenOrdersEnded } from "./deferred-withdrawals";
import { recordMatchesForListing } from "./matches";

/**
 * Payout is now set up for this retailer: its listings waiting for it ('payoutneeded') become 'active'
 * and visible to other retailers. Idempotent. Returns how many listings changed.
 */
export async function activateListingsForRetailer(db: DbOrTx, retailerId: number): Promise<number> {
  const rows = await db
    .update(listings)
    .set({ status: "active", updatedAt: sql`now()` })
    .where(and(eq(listings.providerId, retailerId), eq(listings.status, "payoutneeded")))
    .returning({ id: listings.id });
  // Visible now: matches of open requests and saved searches (ADR 0030).
  for (const r of rows) await recordMatchesForListing(db, r.id);
  return rows.length;
}

/** The positive entries of a selection (size label -> units), checked; throws on anything else. */
function positiveEntries(selection: SizesMap): [string, number][] {
  const entries = Object.entries(selection).filter(([, n]) => n !== 0);
  for (const [label, n] of entries) {
    if (typeof label !== "string" || label.length === 0) throw new Error("invalid size label");
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid unit count for size ${label}`);
  }
  return entries;
}

/**
 * Takes `selection` (size label -> units) out of a listing in ONE statement: the row is changed only if
 * every selected size still has enough units, so concurrent takers can never oversell (the row lock
 * serialises them and the losers re-check the condition against the committed stock).
 * Returns true when the units were taken, false when the listing lacks them (or does not exist).
 */
export async function decrementListingUnits(
  db: DbOrTx,
  listingId: number,
  selection: SizesMap,
): Promise<boolean> {
  const entries = positiveEntries(selection);
  if (entries.length === 0) return false;
  const total = entries.reduce((a, [, n]) => a + n, 0);

  let newSizes: SQL = sql`${listings.sizes}`;
  const enough: SQL[] = [];
  for (const [label, n] of entries) {
    newSizes = sql`jsonb_set(${newSizes}, ARRAY[${label}::text], to_jsonb((${listings.sizes}->>${label}::text)::int - ${n}::int))`;
    enough.push(sql`(${listings.sizes}->>${label}::text)::int >= ${n}::int`);
  }

  const rows = await db
    .update(listings)
    .set({
      sizes: newSizes,
      totalUnits: sql`${listings.totalUnits} - ${total}::int`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(listings.id, listingId), ...enough))
    .returning({ id: listings.id });
  return rows.length === 1;
}

/**
 * Puts units back into a listing (a cancelled shipment or a declined sale after approval). Sizes that
 * are missing from the map are added. Returns false when the listing does not exist.
 */
export async function restoreListingUnits(
  db: DbOrTx,
  listingId: number,
  selection: SizesMap,
): Promise<boolean> {
  const entries = positiveEntries(selection);
  if (entries.length === 0) return true;
  const total = entries.reduce((a, [, n]) => a + n, 0);

  let newSizes: SQL = sql`${listings.sizes}`;
  for (const [label, n] of entries) {
    newSizes = sql`jsonb_set(${newSizes}, ARRAY[${label}::text], to_jsonb(coalesce((${listings.sizes}->>${label}::text)::int, 0) + ${n}::int))`;
  }
  const rows = await db
    .update(listings)
    .set({
      sizes: newSizes,
      totalUnits: sql`${listings.totalUnits} + ${total}::int`,
      updatedAt: sql`now()`,
    })
    .where(eq(listings.id, listingId))
    .returning({ id: listings.id });
  if (rows.length === 0) return false;
  // A listing a stock import withdraws once its orders end stays withdrawn (docs/guides/stock-import.md "Sync"); else units back
  // (it may have been sold out): matches it now makes (ADR 0030; idempotent).
  if ((await withdrawWhenOrdersEnded(db, [listingId])).length === 0)
    await recordMatchesForListing(db, listingId);
  return true;
}

export async function getListing(db: DbOrTx, listingId: number) {
  return (await db.query.listings.findFirst({ where: (l, { eq }) => eq(l.id, listingId) })) ?? null;
}

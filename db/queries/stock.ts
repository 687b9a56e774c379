/**
 * Stock taken by orders and put back, idempotently: one stock_movements row per idempotency key, written in
 * the same transaction as the listing change. Decrements are all-or-nothing across an order's lines and use
 * decrementListingUnits (one conditional UPDATE per listing), so concurrent approvals can never oversell and
 * stock never goes below zero. Lines without a listing (an offer to a request) move no stock.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { listings, stockMovements, type SizesMap } from "../schema";
import { decrementListingUnits, restoreListingUnits } from "./listings";

export interface StockLine {
  listingId: number | null;
  sizes: SizesMap;
}

export type StockMovementResult =
  | { ok: true }
  | { ok: false; listingId: number | null; size: string };

/** The same key was used with other lines (a bug): never retried. */
export class StockIdempotencyConflictError extends Error {
  constructor(key: string) {
    super(`stock movement ${key} was first made with other lines`);
    this.name = "StockIdempotencyConflictError";
  }
}

class NotEnough extends Error {
  constructor(
    readonly listingId: number,
    readonly size: string,
  ) {
    super("not enough units");
  }
}

function hashOf(kind: string, lines: StockLine[]): string {
  const canon = lines
    .filter((l) => l.listingId !== null)
    .map((l) => ({
      listingId: l.listingId,
      sizes: Object.fromEntries(
        Object.entries(l.sizes)
          .filter(([, n]) => n > 0)
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    }))
    .sort((a, b) => (a.listingId as number) - (b.listingId as number));
  return createHash("sha256")
    .update(`${kind}\n${JSON.stringify(canon)}`)
    .digest("hex");
}

async function priorOutcome(
  db: Db,
  key: string,
  hash: string,
): Promise<StockMovementResult | null> {
  const [prior] = await db
    .select()
    .from(stockMovements)
    .where(eq(stockMovements.idempotencyKey, key));
  if (!prior) return null;
  if (prior.requestHash !== hash) throw new StockIdempotencyConflictError(key);
  return prior.ok
    ? { ok: true }
    : { ok: false, listingId: prior.failedListingId, size: prior.failedSize ?? "" };
}

/**
 * Takes the lines' units from their listings, all or none. Same key again -> the first outcome.
 * Listings are locked in id order (no deadlock between two orders of the same listings).
 */
export async function decrementStockOnce(
  db: Db,
  input: { idempotencyKey: string; orderId: number; lines: StockLine[] },
): Promise<StockMovementResult> {
  const hash = hashOf("decrement", input.lines);
  const prior = await priorOutcome(db, input.idempotencyKey, hash);
  if (prior) return prior;
  const lines = input.lines
    .filter((l) => l.listingId !== null)
    .sort((a, b) => (a.listingId as number) - (b.listingId as number));
  try {
    return await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(stockMovements)
        .values({
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          kind: "decrement",
          requestHash: hash,
          lines: input.lines,
          ok: true,
        })
        .onConflictDoNothing()
        .returning({ key: stockMovements.idempotencyKey });
      if (claimed.length === 0) throw new AlreadyDone();
      for (const l of lines) {
        const positive = Object.fromEntries(Object.entries(l.sizes).filter(([, n]) => n > 0));
        if (Object.keys(positive).length === 0) continue;
        const ok = await decrementListingUnits(tx, l.listingId as number, positive);
        if (!ok) {
          // Which size lacked units (the first one, in the order given), for the seller's message.
          const [row] = await tx
            .select({ sizes: listings.sizes })
            .from(listings)
            .where(eq(listings.id, l.listingId as number));
          const size =
            Object.entries(positive).find(([label, n]) => (row?.sizes[label] ?? 0) < n)?.[0] ??
            Object.keys(positive)[0];
          throw new NotEnough(l.listingId as number, size);
        }
      }
      return { ok: true } as const;
    });
  } catch (err) {
    if (err instanceof AlreadyDone)
      return (await priorOutcome(db, input.idempotencyKey, hash)) as StockMovementResult;
    if (!(err instanceof NotEnough)) throw err;
    // Rolled back: nothing was taken. Record the refusal under the key (first writer wins).
    await db
      .insert(stockMovements)
      .values({
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        kind: "decrement",
        requestHash: hash,
        lines: input.lines,
        ok: false,
        failedListingId: err.listingId,
        failedSize: err.size,
      })
      .onConflictDoNothing();
    return (await priorOutcome(db, input.idempotencyKey, hash)) as StockMovementResult;
  }
}

class AlreadyDone extends Error {}

/** Puts the lines' units back on their listings, once per key (a listing deleted since is skipped). */
export async function restoreStockOnce(
  db: Db,
  input: { idempotencyKey: string; orderId: number; lines: StockLine[] },
): Promise<void> {
  const hash = hashOf("restore", input.lines);
  if (await priorOutcome(db, input.idempotencyKey, hash)) return;
  await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(stockMovements)
      .values({
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        kind: "restore",
        requestHash: hash,
        lines: input.lines,
        ok: true,
      })
      .onConflictDoNothing()
      .returning({ key: stockMovements.idempotencyKey });
    if (claimed.length === 0) return;
    for (const l of input.lines) {
      if (l.listingId === null) continue;
      const positive = Object.fromEntries(Object.entries(l.sizes).filter(([, n]) => n > 0));
      if (Object.keys(positive).length > 0) await restoreListingUnits(tx, l.listingId, positive);
    }
  });
  // A concurrent duplicate lost the race: make sure it was the same request.
  await priorOutcome(db, input.idempotencyKey, hash);
}

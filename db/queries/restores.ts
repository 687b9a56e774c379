/**
 * Restores of a backup (scripts/restore.mjs) and what they mean for an order's money
 * (docs/decisions/0048-restore-asks-the-provider.md): an order created before a restore may have moved money
 * after its backup was taken, which this database does not remember.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { orders, restores } from "../schema";

/** Records a restore (the restore script, once the databases are back). */
export async function recordRestore(
  db: Db,
  r: { backup: string; backupTakenAt: Date },
): Promise<void> {
  await db.insert(restores).values(r);
}

/** The order was created before a restore: its movements ask the provider first. */
export async function orderPredatesRestore(db: Db, orderId: number): Promise<boolean> {
  const rows = await db.execute<{ one: number }>(
    sql`select 1 as one from ${restores} r join ${orders} o on o.id = ${orderId}
        where r.restored_at > o.created_at limit 1`,
  );
  return rows.length > 0;
}

/**
 * The restore drill (docs/operations.md "Backups and restore", docs/decisions/0048-restore-asks-the-provider.md),
 * on a PostgreSQL cluster of its own (embedded, as `npm run prod` runs it) with the real buy activities and the
 * sandbox provider:
 *   1. two purchases are checked out (authorised); a backup is taken (scripts/lib/backup.mjs takeBackup);
 *   2. trading goes on: both are captured, one is refunded in part, both sellers are paid out;
 *   3. the backup is restored (restoreBackup): the ledger goes back to the two authorisations, the provider's
 *      records (the sandbox's tables) stay as they are, and a day passes, so the provider has forgotten the
 *      idempotency keys (Stripe keeps them 24 hours);
 *   4. the restored orders run their steps again with the same keys, as their restored workflows do;
 *   5. the provider's records and the ledger agree: each movement once at the provider, once in the ledger.
 * Without the question to the provider (activities/payments/ask-first.ts), step 4 sends each movement again:
 * RESTORE_DRILL_UNASKED=1 runs it so, and the first repeated capture is refused ("You cannot capture this
 * PaymentIntent because it has a status of succeeded": the restored order would fail there); the refund and the
 * payouts behind it, sent again after the provider forgot their keys, would be new objects.
 * The Temporal side of a restore (its histories are in the same cluster, so they go back to the same instant) is
 * not run here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { listOrderPayments, sandboxObjectsOfOrders } from "../../db/queries/payments";
import { restores, sandboxIdempotencyKeys } from "../../db/schema";
import * as backupLib from "../../scripts/lib/backup.mjs";
import * as pgLib from "../../scripts/lib/pg.mjs";
import { createRetailer } from "../factories";
import {
  captureThenRefund,
  checkedOutOrder,
  createSellerWithListing,
  sandboxBuyActivities,
  TEST_VISA,
} from "./buy-fixtures";

const PORT = 54_397;
const DATABASE = "marketplace_drill";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "restore-drill-"));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, "pg");
const uploadDir = path.join(root, "uploads");
const backupsDir = path.join(root, "backups");
const visa = TEST_VISA;

type Pg = { url(db: string): string; serverUrl: string; dataDir: string; stop(): Promise<void> };
// The scripts are plain JavaScript: their options typed here.
const startEmbeddedPostgres = pgLib.startEmbeddedPostgres as (o: object) => Promise<Pg>;
const takeBackup = backupLib.takeBackup as (
  o: object,
) => Promise<{ dir: string; name: string; takenAt: Date }>;
const restoreBackup = backupLib.restoreBackup as (
  o: object,
) => Promise<{ takenAt: Date; keptAside: string[]; providerBytes: number }>;
let pg: Pg | null = null;
let handle: DbHandle | null = null;

async function open(): Promise<DbHandle> {
  pg = await startEmbeddedPostgres({
    name: "restore-drill",
    dataDir,
    port: PORT,
    databases: [DATABASE],
    quiet: true,
  });
  handle = createDb(pg.url(DATABASE), { max: 3 });
  return handle;
}

async function close(): Promise<void> {
  await handle?.close();
  handle = null;
  await pg?.stop();
  pg = null;
}

const activities = (h: DbHandle) => sandboxBuyActivities(h.db);

beforeAll(async () => {
  fs.mkdirSync(uploadDir, { recursive: true });
  fs.writeFileSync(path.join(uploadDir, "before.txt"), "kept");
  await open();
  await runMigrations(pg!.url(DATABASE));
}, 120_000);

afterAll(async () => {
  await close();
  fs.rmSync(root, { recursive: true, force: true });
}, 60_000);

interface Purchase {
  orderId: number;
  workflowId: string;
  paymentIntentId: string;
  sellerId: number;
  totalCents: number;
  goodsCents: number;
}

/** What a restored workflow does next: capture, (refund), payout, with the keys of its first run. */
async function afterCheckout(
  acts: ReturnType<typeof activities>,
  p: Purchase,
  refundCents: number,
): Promise<void> {
  await captureThenRefund(acts, p, p.paymentIntentId, p.totalCents, { cents: refundCents });
  await acts.releaseSellerPayout({
    idempotencyKey: `${p.workflowId}:payout:1`,
    orderId: p.orderId,
    retailerId: p.sellerId,
    amountCents: p.goodsCents,
  });
}

describe("restore drill: back up, trade, restore, run again", () => {
  test("the provider's records and the ledger agree after the restore: each movement once", async () => {
    const h = handle!;
    let acts = activities(h);
    const buyer = (await createRetailer(h.db, {})).retailer.id;
    const purchases: Purchase[] = [];
    for (let i = 0; i < 2; i++) {
      const f = await createSellerWithListing(h.db);
      const { o, q, auth } = await checkedOutOrder(h.db, acts, f, buyer, visa);
      purchases.push({
        orderId: o.orderId,
        workflowId: o.workflowId,
        paymentIntentId: auth.paymentIntentId,
        sellerId: f.seller.retailer.id,
        totalCents: q.totalCents,
        goodsCents: q.goodsCents,
      });
    }
    const refundCents = 1_000;

    // 1. The backup, while both orders wait for their sellers.
    const backup = await takeBackup({
      serverUrl: pg!.serverUrl,
      dataDir: pg!.dataDir,
      uploadDir,
      backupsDir,
    });
    fs.writeFileSync(path.join(uploadDir, "after.txt"), "newer than the backup");

    // 2. Trading after it: captures, a refund, payouts.
    for (const [i, p] of purchases.entries())
      await afterCheckout(acts, p, i === 0 ? refundCents : 0);
    const ids = purchases.map((p) => p.orderId);
    const before = await sandboxObjectsOfOrders(h.db, ids);

    // 3. The restore (the stack stopped), then a day passes at the provider.
    await close();
    const restored = await restoreBackup({
      backupDir: backup.dir,
      dataDir,
      uploadDir,
      port: PORT,
      database: DATABASE,
    });
    expect(restored.providerBytes).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(uploadDir, "before.txt"))).toBe(true);
    expect(fs.existsSync(path.join(uploadDir, "after.txt"))).toBe(false);
    const h2 = await open();
    expect(await h2.db.select().from(restores)).toHaveLength(1);
    for (const p of purchases)
      expect((await listOrderPayments(h2.db, p.orderId)).map((r) => r.txtype)).toEqual([
        "authorization",
      ]);
    // The proof that the drill fails without the question to the provider: RESTORE_DRILL_UNASKED=1 (or
    // DRILL_NO_FIX=1) drops the restore's record, so no order asks; steps 4 and 5 then fail.
    if (process.env.RESTORE_DRILL_UNASKED || process.env.DRILL_NO_FIX) await h2.db.delete(restores);
    await h2.db
      .update(sandboxIdempotencyKeys)
      .set({ createdAt: sql`${sandboxIdempotencyKeys.createdAt} - interval '25 hours'` });

    // 4. The restored orders go on with the same keys.
    acts = activities(h2);
    for (const [i, p] of purchases.entries())
      await afterCheckout(acts, p, i === 0 ? refundCents : 0);

    // 5. Each movement once at the provider and once in the ledger, and the two agree.
    const after = await sandboxObjectsOfOrders(h2.db, ids);
    for (const p of purchases) {
      const provider = after.get(p.orderId)!;
      expect(provider).toEqual(before.get(p.orderId));
      expect(provider.intents).toHaveLength(1);
      expect(provider.transfers).toHaveLength(1);
      expect(provider.refunds).toHaveLength(p === purchases[0] ? 1 : 0);
      const ledger = await listOrderPayments(h2.db, p.orderId);
      const byType = (t: string) => ledger.filter((r) => r.txtype === t);
      expect(byType("capture")).toHaveLength(1);
      expect(byType("transfer").map((r) => r.providerRef)).toEqual(
        provider.transfers.map((t) => t.id),
      );
      expect(byType("refund").map((r) => r.providerRef)).toEqual(provider.refunds.map((r) => r.id));
      expect(ledger.every((r) => !r.status.startsWith("failed"))).toBe(true);
    }
    // New orders after the restore take ids the provider has never seen.
    const [{ next }] = await h2.db.execute<{ next: number }>(
      sql`select last_value::int as next from orders_id_seq`,
    );
    expect(Number(next)).toBeGreaterThan(Math.max(...ids) + 999_000);
    expect(
      (
        await h2.db
          .select()
          .from(restores)
          .where(inArray(restores.backup, [backup.name]))
      ).length,
    ).toBe(1);
  }, 180_000);
});

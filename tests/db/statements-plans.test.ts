/**
 * The statement queries use indexes (ADR 0026): on a marketplace of 30 retailers with 24,000 orders and two
 * payments each over two years (made with generate_series, then ANALYZE), with the planner's default
 * settings, no plan of the months list, a month's lines or its opening balance scans payments or orders
 * sequentially. (The timing benchmark of the issue is run on a quiet box, not here.)
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSeqScan } from "../../db/queries/marketplace";
import { explainStatementQueries } from "../../db/queries/statements";
import { formatMonth } from "../../domain/date-format";
import { parseStatementMonth, previousMonth } from "../../domain/statements";
import { createRetailer, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(2);
const ZONE = "America/New_York";
const tag = `STB${uniqueToken()}`;
let ids: number[] = [];

beforeAll(async () => {
  for (let i = 0; i < 30; i++) ids.push((await createRetailer(db, { user: false })).retailer.id);
  const arr = `{${ids.join(",")}}`;
  await db.execute(sql`
    insert into orders (external_id, workflow_id, transaction_type, provider_id, receiver_id, statename, display_status, created_at)
    select ${tag} || g, ${tag} || '-wf-' || g, 1, (${arr}::int[])[1 + g % 30], (${arr}::int[])[1 + (g + 7) % 30],
      'completed', 'Completed', now() - (g % 730) * interval '1 day'
    from generate_series(1, 24000) g`);
  await db.execute(sql`
    insert into payments (order_id, retailer_id, name, txtype, amount_cents, status, idempotency_key, created_at)
    select o.id, o.receiver_id, 'receiver payment', 'capture', 1000 + o.id % 500, 'succeeded', o.external_id || ':capture', o.created_at
    from orders o where o.external_id like ${tag + "%"}
    union all
    select o.id, o.provider_id, 'provider payout', 'transfer', 900, 'paid', o.external_id || ':payout', o.created_at + interval '2 days'
    from orders o where o.external_id like ${tag + "%"}`);
  await db.execute(sql`analyze payments`);
  await db.execute(sql`analyze orders`);
}, 120_000);

afterAll(async () => {
  await db.execute(sql`delete from payments where idempotency_key like ${tag + "%"}`);
  await db.execute(sql`delete from orders where external_id like ${tag + "%"}`);
});

describe("statement query plans", () => {
  it("no sequential scan of payments or orders (the months, a month's lines, its opening balance, its reconciliation)", async () => {
    const now = parseStatementMonth(formatMonth(new Date(), ZONE))!;
    for (const month of [now, previousMonth(previousMonth(now))]) {
      const plans = await explainStatementQueries(db, ids[0], month, ZONE);
      for (const [name, plan] of Object.entries(plans)) {
        expect(hasSeqScan(plan, ["payments", "orders"]), `${name}: ${JSON.stringify(plan)}`).toBe(
          false,
        );
      }
    }
  });
});

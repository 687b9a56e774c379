/**
 * The demo year (workers/demo-year, ADR 0063) on a small scale, on a database of its own (created, migrated,
 * seeded, dropped here): what a user sees on the first start. Every trade closed in a final state with its ledger
 * balanced; the dates spread over the past twelve months and none in the future; statements with figures for
 * past months; ratings on the ratings page; the surplus dashboard's figures (sales, days to sell, payouts);
 * conversations; the year's mail counted as sent; stock imports on /stock-import; matches on /alerts/matches;
 * markdown steps in a listing's history with its next price to come; and a second run plays nothing.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { runMigrations } from "../../db/migrate";
import { dashboardRows } from "../../db/queries/dashboard";
import { getMarkdownView } from "../../db/queries/markdowns";
import { listMatches } from "../../db/queries/matches";
import { listImports } from "../../db/queries/stock-import";
import { listStatementMonths } from "../../db/queries/statements";
import { seedDemo } from "../../db/seed";
import { localDateISO } from "../../domain/business-days";
import { buildDashboard, lastMonths, windowStartMs } from "../../domain/surplus-dashboard";
import { seedDemoYear, type DemoYearSummary } from "../../workers/demo-year";
import { dropOwnDatabase, ownDatabase } from "../db/helpers";

const own = ownDatabase("year");
const yearUrl = own.url;
const ZONE = "America/New_York";

let handle: DbHandle;
let summary: DemoYearSummary;
let again: DemoYearSummary;
const q = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
  (await handle.db.execute(query)) as unknown as T[];

beforeAll(async () => {
  await runMigrations(yearUrl.toString());
  handle = createDb(yearUrl.toString(), { max: 8 });
  await seedDemo(handle.db);
  summary = await seedDemoYear(handle.db, {
    scale: { purchases: 10, swaps: 1, rmaEvery: 5, days: 360 },
  });
  again = await seedDemoYear(handle.db);
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await dropOwnDatabase(own.name);
});

describe("demo year", () => {
  it("plays its trades to their end, once", async () => {
    expect(summary).toMatchObject({ played: true, purchases: 10, swaps: 1, rmas: 2 });
    expect(again.played).toBe(false);
    const states = await q<{ t: number; stage: string; n: number }>(
      sql`select transaction_type as t, stage, count(*)::int as n from orders group by 1, 2 order by 1, 2`,
    );
    expect(states).toEqual([
      { t: 1, stage: "complete", n: 10 },
      { t: 2, stage: "complete", n: 1 },
      { t: 3, stage: "rmacompleted", n: 2 },
    ]);
    const unbalanced = await q(
      sql`select id from orders where transaction_type = 1 and (ledger->>'balanced')::boolean is not true`,
    );
    expect(unbalanced).toEqual([]);
  });

  it("spreads its dates over the past twelve months, none in the future", async () => {
    const [span] = await q<{ first: Date; last: Date; future: number }>(sql`
      select min(created_at) as first, max(created_at) as last,
        (select count(*)::int from payments where created_at > now()) +
        (select count(*)::int from order_actions where created_at > now()) as future
      from orders`);
    const days = (d: Date) => (Date.now() - new Date(d).getTime()) / 86_400_000;
    expect(days(span.first)).toBeGreaterThan(330);
    expect(days(span.first)).toBeLessThan(370);
    expect(days(span.last)).toBeLessThan(40);
    expect(span.future).toBe(0);
  });

  it("shows statements for past months, ratings, conversations; its mail counted as sent", async () => {
    const [seller] = await q<{ id: number }>(
      sql`select provider_id as id from orders where transaction_type = 1 group by 1 order by count(*) desc limit 1`,
    );
    const current = lastMonths(Date.now(), ZONE, 1)[0];
    const months = await listStatementMonths(handle.db, seller.id, current, ZONE);
    const past = months.filter((m) => m.month < current && m.lines > 0);
    expect(past.length).toBeGreaterThanOrEqual(2);
    expect(past.some((m) => m.net !== 0)).toBe(true);
    const ratings = await q<{ n: number }>(sql`select count(*)::int as n from ratings`);
    expect(ratings[0].n).toBeGreaterThan(0);
    const [mail] = await q<{ queued: number; sent: number }>(sql`
      select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'sent')::int as sent
      from outbox_emails`);
    expect(mail).toMatchObject({ queued: 0 });
    expect(mail.sent).toBeGreaterThan(10);
  });

  it("fills the surplus dashboard: sales, days to sell, payouts", async () => {
    const now = Date.now();
    const rows = await dashboardRows(
      handle.db,
      { marketplace: true },
      now,
      new Date(windowStartMs(now, ZONE)),
    );
    const d = buildDashboard(rows, now, ZONE);
    // A trade is a party's side: each sale's seller, both sides of the swap.
    expect(d.trades).toBe(12);
    expect(d.medianDaysToSell).toBeGreaterThan(0);
    expect(d.totals.soldCents).toBeGreaterThan(0);
    expect(d.totals.payoutsCents).toBeGreaterThan(0);
    expect(d.months.filter((m) => m.soldCents > 0).length).toBeGreaterThanOrEqual(4);
  });

  it("shows the year's stock imports, matches and markdown steps", async () => {
    const days = (d: Date | string) => (Date.now() - new Date(d).getTime()) / 86_400_000;
    const today = localDateISO(Date.now(), ZONE);
    // /stock-import: a seller's recent imports, confirmed, dated in the past year.
    const [importer] = await q<{ id: number }>(
      sql`select retailer_id as id from stock_imports group by 1 order by count(*) desc limit 1`,
    );
    const imports = await listImports(handle.db, importer.id);
    expect(imports.length).toBeGreaterThanOrEqual(2);
    expect(imports.every((i) => i.status === "confirmed")).toBe(true);
    expect(Math.max(...imports.map((i) => days(i.createdAt)))).toBeGreaterThan(60);
    expect(summary.imports).toBeGreaterThanOrEqual(4);

    // /alerts/matches: a retailer's matches of the year's listings, the oldest months ago.
    const [matched] = await q<{ id: number }>(
      sql`select retailer_id as id from listing_matches group by 1 order by count(*) desc limit 1`,
    );
    const matches = await listMatches(handle.db, matched.id, { limit: 50, offset: 0 });
    expect(matches.total).toBeGreaterThanOrEqual(2);
    expect(Math.max(...matches.items.map((m) => days(m.createdAt)))).toBeGreaterThan(30);
    expect(summary.requests).toBeGreaterThan(0);

    // A listing's markdown history (steps in the past) and, while active, its next price to come.
    expect(summary.markdownSteps).toBeGreaterThan(0);
    const [stepped] = await q<{ id: number }>(sql`
      select s.listing_id as id from listing_markdown_steps s
      join listing_markdowns m on m.listing_id = s.listing_id and m.status = 'active'
      group by 1 order by count(*) desc limit 1`);
    const view = (await getMarkdownView(handle.db, stepped.id))!;
    expect(view.history.length).toBeGreaterThanOrEqual(2);
    expect(view.history.filter((h) => h.day > today)).toEqual([]);
    expect(view.priceCents).toBe(view.history.at(-1)!.toCents);
    expect(view.priceCents).toBeLessThan(view.catalogueCents);
    expect(view.next!.date > today).toBe(true);
  });
});

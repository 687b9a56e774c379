/**
 * The surplus dashboard's reads (db/queries/dashboard.ts) built into figures (domain/surplus-dashboard.ts):
 * a retailer sees its own listings by age and its sides of its sales and swaps; a brand sees every side of its
 * orders; the marketplace includes the brand. The reads can use indexes of orders (a retailer's provider and
 * receiver, a brand's and the marketplace's created_at), not only a sequential scan.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import {
  dashboardRows,
  dashboardRowsByBrand,
  matchesPerWeek,
  type DashboardScope,
} from "../../db/queries/dashboard";
import { buildMatchWeeks, lastWeekStarts, weekBounds } from "../../domain/staff-metrics";
import { buildDashboard, windowStartMs, type Dashboard } from "../../domain/surplus-dashboard";
import { BRAND_FIGURES, createDashboardFixture, RETAILER_A_FIGURES } from "./dashboard-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb();

const TZ = "America/New_York";
let fx: Awaited<ReturnType<typeof createDashboardFixture>>;

async function dashboardOf(scope: DashboardScope): Promise<Dashboard> {
  const now = Date.now();
  return buildDashboard(
    await dashboardRows(db, scope, now, new Date(windowStartMs(now, TZ))),
    now,
    TZ,
  );
}

beforeAll(async () => {
  fx = await createDashboardFixture(db);
});

describe("surplus dashboard", () => {
  it("a retailer's: its listings by age, its sale and its side of the swap", async () => {
    const d = await dashboardOf({ retailerId: fx.a.retailer.id });
    expect(
      d.ages.map(({ listings, units, valueCents }) => ({ listings, units, valueCents })),
    ).toEqual(RETAILER_A_FIGURES.ages);
    expect(d.listed.valueCents).toBe(RETAILER_A_FIGURES.listedCents);
    expect(d.totals).toEqual({
      soldCents: RETAILER_A_FIGURES.soldCents,
      swappedCents: RETAILER_A_FIGURES.swappedCents,
      payoutsCents: RETAILER_A_FIGURES.payoutsCents,
      swapValuesCents: RETAILER_A_FIGURES.swapValuesCents,
      feesCents: RETAILER_A_FIGURES.feesCents,
      requestsFilled: RETAILER_A_FIGURES.requestsFilled,
      recoveredCents: RETAILER_A_FIGURES.recoveredCents,
    });
    expect(d.medianDaysToSell).toBe(RETAILER_A_FIGURES.medianDaysToSell);
    expect(d.trades).toBe(2);
  });

  it("the other party of a sale counts nothing; the swap's other side counts its own", async () => {
    const buyer = await dashboardOf({ retailerId: fx.b.retailer.id });
    expect(buyer.trades).toBe(0);
    expect(buyer.totals.soldCents).toBe(0);
    const swapper = await dashboardOf({ retailerId: fx.c.retailer.id });
    expect(swapper.totals).toMatchObject({
      swappedCents: 6000,
      swapValuesCents: 2000,
      feesCents: 300,
      soldCents: 0,
    });
    expect(swapper.medianDaysToSell).toBeNull();
  });

  it("a brand's: every side of its orders, all its listings", async () => {
    const d = await dashboardOf({ brandId: fx.brand.id });
    const { listedCents, medianDaysToSell, ...totals } = BRAND_FIGURES;
    expect(d.listed.valueCents).toBe(listedCents);
    expect(d.totals).toEqual(totals);
    expect(d.medianDaysToSell).toBe(medianDaysToSell);
  });

  it("the marketplace's includes the brand's", async () => {
    const d = await dashboardOf({ marketplace: true });
    expect(d.listed.valueCents).toBeGreaterThanOrEqual(BRAND_FIGURES.listedCents);
    expect(d.totals.swappedCents).toBeGreaterThanOrEqual(BRAND_FIGURES.swappedCents);
    expect(d.totals.requestsFilled).toBeGreaterThanOrEqual(1);
  });

  it("a retailer's, a brand's and the marketplace's orders are read through indexes", async () => {
    const id = fx.a.retailer.id;
    await db.execute(sql`analyze orders`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = await tx.execute<{ "QUERY PLAN": string }>(
        sql`explain select o.id from orders o where (o.provider_id = ${id} or o.receiver_id = ${id}) and o.transaction_type in (1, 2)`,
      );
      const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text).toMatch(/orders_provider_idx/);
      expect(text).toMatch(/orders_receiver_idx/);
      const brandPlan = await tx.execute<{ "QUERY PLAN": string }>(
        sql`explain select o.id from orders o where o.brand_id = ${fx.brand.id} and o.created_at >= now() - interval '1 year'`,
      );
      // Either created_at index serves it (which one depends on the table's statistics); not a sequential scan.
      expect(brandPlan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(
        /orders_(brand_)?created_idx/,
      );
      const allPlan = await tx.execute<{ "QUERY PLAN": string }>(
        sql`explain select o.id from orders o where o.created_at >= now() - interval '1 year'`,
      );
      // The same: with the rows other files leave, the planner may read (brand_id, created_at) whole instead.
      const allText = allPlan.map((r) => r["QUERY PLAN"]).join("\n");
      expect(allText, allText).toMatch(/orders_(brand_)?created_idx/);
    });
  });
});

describe("staff's metrics of every brand (ADRs 0028, 0030)", () => {
  it("the grouped read of every brand gives each brand the dashboard of its own reads, and the marketplace all", async () => {
    const now = Date.now();
    const rows = await dashboardRowsByBrand(db, now, new Date(windowStartMs(now, TZ)));
    const mine = <T extends { brandId: number | null }>(list: T[]) =>
      list.filter((r) => r.brandId === fx.brand.id);
    const brand = buildDashboard(
      { listed: mine(rows.listed), sides: mine(rows.sides), payouts: mine(rows.payouts) },
      now,
      TZ,
    );
    const { listedCents, medianDaysToSell, ...totals } = BRAND_FIGURES;
    expect(brand.listed.valueCents).toBe(listedCents);
    expect(brand.totals).toEqual(totals);
    expect(brand.medianDaysToSell).toBe(medianDaysToSell);
    expect(brand.months[11].medianDaysToSell).toBe(medianDaysToSell);
    expect(brand).toEqual(await dashboardOf({ brandId: fx.brand.id }));
    const all = buildDashboard(rows, now, TZ);
    const market = await dashboardOf({ marketplace: true });
    expect(all.listed).toEqual(market.listed);
    expect(all.ages).toEqual(market.ages);
  });

  it("matches per week: a brand's, split by request and saved search, with what the matched retailer bought", async () => {
    const now = Date.now();
    const starts = lastWeekStarts(now, TZ);
    const bounds = weekBounds(starts, TZ);
    const weekOf = (at: Date) =>
      bounds.findIndex((b, i) => at.getTime() >= b && at.getTime() < bounds[i + 1]);
    const expected = buildMatchWeeks(
      [
        { week: weekOf(fx.matchedAt.request), requests: 1, searches: 0, traded: 1 },
        { week: weekOf(fx.matchedAt.search), requests: 0, searches: 1, traded: 0 },
      ],
      starts,
    );
    expect(weekOf(fx.matchedAt.old)).toBe(-1);
    const brand = buildMatchWeeks(
      await matchesPerWeek(db, { brandId: fx.brand.id }, bounds),
      starts,
    );
    expect(brand).toEqual(expected);
    expect(brand.reduce((s, w) => s + w.matches, 0)).toBe(2);
    const every = await matchesPerWeek(db, { everyBrand: true }, bounds);
    expect(
      buildMatchWeeks(
        every.filter((r) => r.brandId === fx.brand.id),
        starts,
      ),
    ).toEqual(expected);
    const market = buildMatchWeeks(await matchesPerWeek(db, { marketplace: true }, bounds), starts);
    expect(market).toEqual(buildMatchWeeks(every, starts));
  });

  it("the last weeks' matches are read by date, and the matched retailer's orders since the match by its index", async () => {
    await db.execute(sql`analyze listing_matches`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const plan = await tx.execute<{ "QUERY PLAN": string }>(
        sql`explain select m.id from listing_matches m where m.created_at >= now() - interval '84 days' and m.created_at < now()`,
      );
      expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/listing_matches_created_idx/);
      const orders = await tx.execute<{ "QUERY PLAN": string }>(
        sql`explain select o.id from orders o where o.receiver_id = ${fx.b.retailer.id} and o.modified_at >= now() - interval '84 days'`,
      );
      expect(orders.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/orders_receiver_idx/);
    });
  });
});

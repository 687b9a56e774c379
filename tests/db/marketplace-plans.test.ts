/**
 * Every marketplace page query uses indexes: on a moderately large marketplace (20,000 listings and 5,000
 * requests made with generate_series, then ANALYZE), with the planner's DEFAULT settings, no plan of
 * marketplacePage scans listings or listing_requests sequentially, and the per-brand pages come from the
 * marketplace indexes of migration 0004.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  explainMarketplacePage,
  hasSeqScan,
  marketplacePage,
  planNodes,
  type MarketPageQuery,
} from "../../db/queries/marketplace";
import {
  dropBulkMarketplace,
  marketPageQuery,
  seedPlanScaleMarketplace,
  type BulkResult,
} from "./marketplace-bulk";
import { openTestDb } from "./helpers";

const handle = openTestDb(2);
const db = handle.db;
let bulk: BulkResult;
let viewer: number;
let brands5: number[];

beforeAll(async () => {
  bulk = await seedPlanScaleMarketplace(handle.sql);
  viewer = bulk.retailerIds[0];
  brands5 = bulk.brandIds.slice(1, 6);
  // The settings the plans are checked under are the defaults (no enable_seqscan = off here).
  const [s] =
    (await handle.sql`select current_setting('enable_seqscan') as seq, current_setting('enable_indexscan') as idx`) as unknown as {
      seq: string;
      idx: string;
    }[];
  expect(s).toEqual({ seq: "on", idx: "on" });
}, 120_000);

afterAll(async () => {
  if (bulk) await dropBulkMarketplace(handle.sql, bulk);
  await handle.close();
});

function q(over: Partial<MarketPageQuery> = {}): MarketPageQuery {
  return marketPageQuery(viewer, brands5, over);
}

const variants: [string, () => Partial<MarketPageQuery>][] = [
  ["default", () => ({})],
  ["one brand", () => ({ brandIds: [brands5[2]] })],
  ["A-Z", () => ({ ordering: "sku" })],
  ["Z-A", () => ({ ordering: "-sku" })],
  ["price low to high", () => ({ ordering: "price" })],
  ["price high to low", () => ({ ordering: "-price" })],
  ["swap tab", () => ({ tab: "swap" })],
  ["requests tab", () => ({ tab: "sell" })],
  ["requests A-Z", () => ({ tab: "sell", ordering: "sku" })],
  ["requests price high to low", () => ({ tab: "sell", ordering: "-price" })],
  ["search, selective", () => ({ filters: { search: "000123" } })],
  ["search, a whole brand's prefix", () => ({ filters: { search: `bk${brands5[0]}-` } })],
  ["search, a colour (a quarter of all rows)", () => ({ filters: { search: "-blk" } })],
  ["search, 3 characters", () => ({ filters: { search: "blk" } })],
  ["requests search", () => ({ tab: "sell", filters: { search: "00012" } })],
  ["view all", () => ({ brandIds: [brands5[0]], limit: 100 })],
  ["load more", () => ({ brandIds: [brands5[0]], limit: 140 })],
  ["deep offset", () => ({ brandIds: [brands5[0]], offset: 400, limit: 40 })],
  ["sizes", () => ({ filters: { sizes: ["S"] } })],
  ["units", () => ({ filters: { units: 8 } })],
  ["variant", () => ({ filters: { variantId: 1 } })],
  ["id", () => ({ filters: { id: 1 } })],
  [
    "one retailer's listings (retailer__id)",
    () => ({ filters: { retailerId: bulk.retailerIds[7] } }),
  ],
  [
    "one retailer's listings, price high to low",
    () => ({ filters: { retailerId: bulk.retailerIds[7] }, ordering: "-price" }),
  ],
  [
    "one retailer's requests",
    () => ({ tab: "sell", filters: { retailerId: bulk.retailerIds[7] } }),
  ],
  [
    "staff as admin, one retailer",
    () => ({
      brandIds: bulk.brandIds,
      viewerRetailerId: null,
      withNames: true,
      filters: { retailerId: bulk.retailerIds[3] },
    }),
  ],
  [
    "staff as admin, every brand",
    () => ({ brandIds: bulk.brandIds, viewerRetailerId: null, withNames: true }),
  ],
  [
    "staff as admin, selective search",
    () => ({
      brandIds: bulk.brandIds,
      viewerRetailerId: null,
      withNames: true,
      filters: { search: "00012" },
    }),
  ],
  [
    "staff as admin, price high to low",
    () => ({
      brandIds: bulk.brandIds,
      viewerRetailerId: null,
      withNames: true,
      ordering: "-price",
    }),
  ],
];

describe("marketplace plans at 20,000 listings", () => {
  it.each(variants)("%s: no sequential scan of listings or requests", async (_name, over) => {
    const query = q(over());
    const { shape, plan } = await explainMarketplacePage(db, query);
    const scans = planNodes(plan)
      .filter((n) => n["Relation Name"] === "listings" || n["Relation Name"] === "listing_requests")
      .map((n) => `${n["Node Type"]}${n["Index Name"] ? ` ${n["Index Name"]}` : ""}`);
    expect(hasSeqScan(plan), `${shape} plan: ${scans.join(", ")}`).toBe(false);
    expect(scans.length).toBeGreaterThan(0);
    // The page itself runs and answers (what the plan was for).
    const pages = await marketplacePage(db, query);
    expect(pages.size).toBe(query.brandIds.length);
  });

  it("the default page reads each brand from the per-brand marketplace index, stopped by LIMIT", async () => {
    const { shape, plan } = await explainMarketplacePage(db, q());
    expect(shape).toBe("lateral");
    const idx = planNodes(plan)
      .filter((n) => n["Relation Name"] === "listings")
      .map((n) => n["Index Name"]);
    expect(idx).toEqual(["listings_market_recent_idx"]);
    const sku = await explainMarketplacePage(db, q({ ordering: "-sku" }));
    expect(
      planNodes(sku.plan)
        .filter((n) => n["Relation Name"] === "listings")
        .map((n) => n["Index Name"]),
    ).toEqual(["listings_market_sku_idx"]);
    const price = await explainMarketplacePage(db, q({ tab: "sell", ordering: "price" }));
    expect(
      planNodes(price.plan)
        .filter((n) => n["Relation Name"] === "listing_requests")
        .map((n) => n["Index Name"]),
    ).toEqual(["listing_requests_market_price_idx"]);
  });

  it("a search over many brands: ranked (one trigram scan) only when the planner reads the matches by index", async () => {
    for (const search of ["000123", "00012", `bk${bulk.brandIds[0]}-0001`, "blk"]) {
      const { shape, plan } = await explainMarketplacePage(
        db,
        q({ brandIds: bulk.brandIds, filters: { search } }),
      );
      expect(hasSeqScan(plan), `${search}: ${shape}`).toBe(false);
      if (shape === "ranked")
        expect(
          planNodes(plan).some((n) => n["Index Name"] === "listings_market_sku_trgm_idx"),
        ).toBe(true);
    }
  });

  it("retailer__id reads that retailer's rows once through its provider / requestor index", async () => {
    const r = bulk.retailerIds[7];
    for (const [tab, index] of [
      ["buy", "listings_provider_idx"],
      ["swap", "listings_provider_idx"],
      ["sell", "listing_requests_requestor_idx"],
    ] as const) {
      const { shape, plan } = await explainMarketplacePage(
        db,
        q({ tab, filters: { retailerId: r } }),
      );
      expect(shape).toBe("ranked");
      expect(planNodes(plan).map((n) => n["Index Name"])).toContain(index);
    }
  });

  it("work grows with the page, not the table: the default page touches few rows", async () => {
    const { plan } = await explainMarketplacePage(db, q(), { analyze: true });
    const listingScans = planNodes(plan).filter((n) => n["Relation Name"] === "listings");
    const rowsRead = listingScans.reduce(
      (a, n) => a + Number(n["Actual Rows"] ?? 0) * Number(n["Actual Loops"] ?? 1),
      0,
    );
    // 5 brands x (21 rows + the few filtered out: own, inactive providers).
    expect(rowsRead).toBeLessThan(5 * 21 * 3);
  });
});

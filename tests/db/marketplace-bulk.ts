import type postgres from "postgres";
import type { MarketPageQuery } from "../../db/queries/marketplace";
import { uniqueToken } from "../factories/util";

/**
 * A large marketplace made with generate_series in a few statements (seconds, not minutes), for EXPLAIN
 * checks of db/queries/marketplace.ts. Every row belongs to brands and retailers tagged with `tag`, so
 * `dropBulkMarketplace` removes exactly what this made (brands and retailers cascade to the rest).
 */
export interface BulkOptions {
  tag: string;
  brands: number;
  retailers: number;
  variations: number;
  listings: number;
  requests: number;
  /** How many brands each retailer is authorized for (consecutive, wrapping). */
  brandsPerRetailer?: number;
}

export interface BulkResult {
  brandIds: number[];
  retailerIds: number[];
}

export async function seedBulkMarketplace(sql: postgres.Sql, o: BulkOptions): Promise<BulkResult> {
  const per = o.brandsPerRetailer ?? 5;
  const prefix = `Bulk ${o.tag} `;
  const brandRows = await sql<{ id: number }[]>`
    insert into brands (name, display_name)
    select ${prefix} || lpad(g::text, 3, '0'), ${prefix} || lpad(g::text, 3, '0') from generate_series(1, ${o.brands}::int) g
    returning id`;
  const brandIds = brandRows.map((r) => r.id).sort((a, b) => a - b);

  await sql`
    insert into collections (brand_id, year, name)
    select id, 2025, 'Bulk' from brands where id = any(${brandIds}::int[])`;

  // One product and one variation per n; brand = n mod brands. Codes "BK<brand>-<n>-<colour>".
  await sql`
    insert into products (collection_id, brand_id, sku, display_name, price_cents)
    select c.id, c.brand_id, 'BK' || c.brand_id || '-' || lpad(g::text, 6, '0'), 'Bulk style ' || g, 1000 + (g * 7919) % 20000
    from generate_series(1, ${o.variations}::int) g
    join collections c on c.brand_id = (${brandIds}::int[])[1 + g % ${o.brands}::int]`;
  await sql`
    insert into product_variations (product_id, brand_id, sku, color, price_cents)
    select p.id, p.brand_id, p.sku || '-' || (array['BLK','NAV','OLV','RST'])[1 + p.id % 4], (array['Black','Navy','Olive','Rust'])[1 + p.id % 4], p.price_cents
    from products p where p.brand_id = any(${brandIds}::int[])`;

  // Retailers: every 20th has no payout (its listings stay 'payoutneeded'), every 50th is inactive.
  const retailerRows = await sql<{ id: number }[]>`
    insert into retailers (store_name, store_email, status, bt_merchant_id, setup_completed_at)
    select ${prefix} || 'Store ' || g, 'bulk' || g || '@example.test',
           (case when g % 50 = 0 then 'inactive' else 'active' end)::retailer_status,
           case when g % 20 = 0 then null else 'acct_bulk_' || g end, now()
    from generate_series(1, ${o.retailers}::int) g
    returning id`;
  const retailerIds = retailerRows.map((r) => r.id).sort((a, b) => a - b);

  await sql`
    insert into retailer_brands (retailer_id, brand_id)
    select r.id, (${brandIds}::int[])[1 + (r.ord + k) % ${o.brands}::int]
    from (select id, row_number() over (order by id) as ord from retailers where id = any(${retailerIds}::int[])) r
    cross join generate_series(0, ${Math.min(per, o.brands) - 1}::int) k`;

  // Listings: variation and provider picked by multiplicative hashing; a few sold out (total 0).
  await sql`
    with v as (select id, brand_id, row_number() over (order by id) as n from product_variations where brand_id = any(${brandIds}::int[])),
         r as (select id, bt_merchant_id, row_number() over (order by id) as n from retailers where id = any(${retailerIds}::int[])),
         g as (select g, 1 + (g * 7577) % ${o.variations}::int as vn, 1 + (g * 3571) % ${o.retailers}::int as rn,
                      (g * 31) % 7 as a, (g * 17) % 5 as b from generate_series(1, ${o.listings}::int) g)
    insert into listings (variation_id, brand_id, provider_id, listing_type, reason, sizes, total_units, status, terms, created_at, updated_at)
    select v.id, v.brand_id, r.id, (case when g.g % 4 = 0 then 'swap' else 'sell' end)::listing_type, 'overstock',
           case when g.g % 97 = 0 then jsonb_build_object('S', 0, 'M', 0) else jsonb_build_object('S', g.a, 'M', g.b + 1) end,
           case when g.g % 97 = 0 then 0 else g.a + g.b + 1 end,
           (case when r.bt_merchant_id is null then 'payoutneeded' else 'active' end)::listing_status, true,
           now() - make_interval(mins => g.g), now() - make_interval(mins => g.g)
    from g join v on v.n = g.vn join r on r.n = g.rn`;

  await sql`
    with v as (select id, brand_id, row_number() over (order by id) as n from product_variations where brand_id = any(${brandIds}::int[])),
         r as (select id, row_number() over (order by id) as n from retailers where id = any(${retailerIds}::int[])),
         g as (select g, 1 + (g * 7591) % ${o.variations}::int as vn, 1 + (g * 3559) % ${o.retailers}::int as rn,
                      (g * 13) % 4 as a from generate_series(1, ${o.requests}::int) g)
    insert into listing_requests (variation_id, brand_id, requestor_id, reason, sizes, total_units, created_at, updated_at)
    select v.id, v.brand_id, r.id, 'sold_out',
           case when g.g % 89 = 0 then jsonb_build_object('L', 0) else jsonb_build_object('L', g.a + 1) end,
           case when g.g % 89 = 0 then 0 else g.a + 1 end,
           now() - make_interval(mins => g.g), now() - make_interval(mins => g.g)
    from g join v on v.n = g.vn join r on r.n = g.rn`;

  // VACUUM as well as ANALYZE: the plans asserted depend on the tables' visibility map and page counts too, which
  // autovacuum would otherwise change at a moment of its own while the tests run (seen once with the suites in
  // parallel: a search planned without the trigram index).
  await sql`vacuum analyze listings`;
  await sql`vacuum analyze listing_requests`;
  await sql`vacuum analyze retailers`;
  await sql`vacuum analyze retailer_brands`;
  await sql`vacuum analyze product_variations`;
  await sql`vacuum analyze brands`;
  return { brandIds, retailerIds };
}

export async function dropBulkMarketplace(sql: postgres.Sql, r: BulkResult): Promise<void> {
  await sql`delete from retailers where id = any(${r.retailerIds}::int[])`;
  await sql`delete from brands where id = any(${r.brandIds}::int[])`;
}

/** A bulk marketplace at the scale the query plans are checked at (db/marketplace-plans, db/matches). */
export function seedPlanScaleMarketplace(sql: postgres.Sql): Promise<BulkResult> {
  return seedBulkMarketplace(sql, {
    tag: uniqueToken(),
    brands: 12,
    retailers: 300,
    variations: 3000,
    listings: 20_000,
    requests: 5_000,
    brandsPerRetailer: 5,
  });
}

/** The marketplace page's first page of the buy tab, most recent first, as `viewerRetailerId` sees it. */
export function marketPageQuery(
  viewerRetailerId: number,
  brandIds: number[],
  over: Partial<MarketPageQuery> = {},
): MarketPageQuery {
  return {
    tab: "buy",
    brandIds,
    ordering: "recent",
    offset: 0,
    limit: 20,
    filters: {},
    viewerRetailerId,
    withNames: false,
    ...over,
  };
}

/**
 * Staff reports (docs/product/screens.md, "Staff: reports and map"; ADR 0018; column meanings in ADR 0016): each CSV report is read with a
 * server-side cursor in batches, so a download of any size holds one batch in memory. Also the sales-rep
 * resource and its reports, and the retailer map's "retailers near a point".
 */
import { asc, eq, sql } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "../client";
import { salesReps } from "../schema";
import { formatSortableDate, formatSortableDateTime } from "../../domain/date-format";

/** A report: its CSV columns (in order) and its rows as an async iterable of batches. */
export type ReportSource = { columns: string[]; batches: AsyncIterable<Record<string, unknown>[]> };

const BATCH = 500;

/** States of an order that never became a trade: a checkout never completed, or its draft expired. */
const NOT_A_TRADE = ["complete_order_checkout", "expired"];
/** Stages of an order whose money was taken (approved or later, not declined or cancelled). */
const TRADED_STAGES = ["approved", "shipping", "delivered", "complete"];

const tradedStages = sql.join(
  TRADED_STAGES.map((s) => sql`${s}`),
  sql`, `,
);
/** A sale or a swap: an RMA (type 3) is a return, not a trade, though its return parcel is also "shipping". */
const NOT_AN_RMA = sql.raw("o.transaction_type <> 3");

/** The postgres.js client under Drizzle (its cursors are what Drizzle does not wrap). */
function client(db: Db): postgres.Sql {
  return (db as unknown as { $client: postgres.Sql }).$client;
}

function cursor(
  db: Db,
  query: (q: postgres.Sql) => postgres.PendingQuery<postgres.Row[]>,
): AsyncIterable<Record<string, unknown>[]> {
  return query(client(db)).cursor(BATCH) as AsyncIterable<Record<string, unknown>[]>;
}

/**
 * Dates a person reads are written by the one formatter (domain/date-format.ts) in the marketplace zone, not by
 * the database: the rows' instants are formatted here, batch by batch.
 */
/** A `created` cell selected as epoch milliseconds (a float8 the driver reads as a number, whatever its timestamp parsing). */
const instantOf = (v: unknown): Date | null =>
  v === null || v === undefined ? null : new Date(Number(v));

async function* formatCells(
  batches: AsyncIterable<Record<string, unknown>[]>,
  formats: Record<string, (v: unknown) => string>,
): AsyncIterable<Record<string, unknown>[]> {
  for await (const batch of batches) {
    yield batch.map((row) => {
      const out = { ...row };
      for (const [k, f] of Object.entries(formats)) out[k] = f(row[k]);
      return out;
    });
  }
}

/** Every shipment created in [from, to) with the value its sender declared and the carrier's tracking; times in `timeZone` (MARKETPLACE_TZ). */
export function shipmentInsuranceReport(
  db: Db,
  range: { from: Date; to: Date },
  timeZone: string,
): ReportSource {
  return {
    columns: [
      "shipment_id",
      "order_id",
      "transaction_type",
      "created",
      "carrier",
      "tracking_number",
      "status",
      "sender_id",
      "sender_store",
      "sender_state",
      "receiver_id",
      "receiver_store",
      "receiver_state",
      "units",
      "declared_value",
    ],
    batches: formatCells(
      cursor(
        db,
        (q) => q`
        select s.id as shipment_id, o.external_id as order_id,
          case o.transaction_type when 1 then 'Sale' when 2 then 'Swap' else 'RMA' end as transaction_type,
          (extract(epoch from s.created_at) * 1000)::float8 as created,
          s.carrier, coalesce(s.tracking_number, '') as tracking_number, s.status,
          s.sender_id, rs.store_name as sender_store, rs.state as sender_state,
          s.receiver_id, rr.store_name as receiver_store, rr.state as receiver_state,
          coalesce(g.units, 0)::int as units,
          to_char(coalesce(g.value_cents, 0) / 100.0, 'FM999999990.00') as declared_value
        from shipments s
        join orders o on o.id = s.order_id
        join retailers rs on rs.id = s.sender_id
        join retailers rr on rr.id = s.receiver_id
        left join lateral (
          select sum(c.quantity) as units, sum(c.value_cents) as value_cents
          from order_contributions c
          where c.order_id = o.id and c.type = 'goods'
            and c.side = case when s.sender_id = o.provider_id then 'provider' else 'receiver' end
        ) g on true
        where s.created_at >= ${range.from.toISOString()}::timestamptz and s.created_at < ${range.to.toISOString()}::timestamptz
        order by s.created_at, s.id`,
      ),
      { created: (v) => formatSortableDateTime(instantOf(v), timeZone) },
    ),
  };
}

/**
 * Per calendar month (in `timeZone`, MARKETPLACE_TZ) of order creation: counts by type, gross value and fees of
 * traded orders, trading retailers. The months are buckets the database groups by, so it writes them: the
 * instant's wall clock in the same zone (`at time zone`), as YYYY-MM — what formatMonth (domain/date-format.ts)
 * writes for it (tests/db/reports.test.ts compares the two on month boundaries).
 */
export function monthlyMetricsReport(db: Db, timeZone: string): ReportSource {
  return {
    columns: [
      "month",
      "orders",
      "swaps",
      "rmas",
      "traded_orders",
      "gross_value",
      "fees",
      "active_retailers",
      "new_retailers",
    ],
    batches: cursor(
      db,
      (q) => q`
        with o as (
          select * from orders where statename <> all(${NOT_A_TRADE})
        ), months as (
          select to_char(date_trunc('month', created_at at time zone ${timeZone}), 'YYYY-MM') as month from o
          union select to_char(date_trunc('month', created_at at time zone ${timeZone}), 'YYYY-MM') from retailers
        ), parties as (
          select to_char(date_trunc('month', created_at at time zone ${timeZone}), 'YYYY-MM') as month, provider_id as retailer_id from o
          union select to_char(date_trunc('month', created_at at time zone ${timeZone}), 'YYYY-MM'), receiver_id from o
        )
        select m.month,
          (select count(*) from o where o.transaction_type = 1 and to_char(date_trunc('month', o.created_at at time zone ${timeZone}), 'YYYY-MM') = m.month)::int as orders,
          (select count(*) from o where o.transaction_type = 2 and to_char(date_trunc('month', o.created_at at time zone ${timeZone}), 'YYYY-MM') = m.month)::int as swaps,
          (select count(*) from o where o.transaction_type = 3 and to_char(date_trunc('month', o.created_at at time zone ${timeZone}), 'YYYY-MM') = m.month)::int as rmas,
          t.traded::int as traded_orders,
          to_char(coalesce(t.value_cents, 0) / 100.0, 'FM999999990.00') as gross_value,
          to_char(coalesce(t.fee_cents, 0) / 100.0, 'FM999999990.00') as fees,
          (select count(distinct p.retailer_id) from parties p where p.month = m.month)::int as active_retailers,
          (select count(*) from retailers r where to_char(date_trunc('month', r.created_at at time zone ${timeZone}), 'YYYY-MM') = m.month)::int as new_retailers
        from months m
        left join lateral (
          select count(*) as traded, sum(o.value_cents) as value_cents, sum(o.receiver_fee_cents + o.provider_fee_cents) as fee_cents
          from o where o.stage = any(${TRADED_STAGES}) and o.transaction_type <> 3 and to_char(date_trunc('month', o.created_at at time zone ${timeZone}), 'YYYY-MM') = m.month
        ) t on true
        order by m.month`,
    ),
  };
}

/** Per brand: what is listed (active listings with units, their units and value at the variation's price) and requested. */
export function brandInventoryReport(db: Db): ReportSource {
  return {
    columns: [
      "brand_id",
      "brand",
      "is_active",
      "listings",
      "sell_listings",
      "swap_listings",
      "units",
      "value",
      "hidden_listings",
      "requests",
      "requested_units",
    ],
    batches: cursor(
      db,
      (q) => q`
        with l as (
          select brand_id,
            count(*) filter (where status = 'active') as listings,
            count(*) filter (where status = 'active' and listing_type = 'sell') as sell_listings,
            count(*) filter (where status = 'active' and listing_type = 'swap') as swap_listings,
            sum(total_units) filter (where status = 'active') as units,
            sum(total_units::bigint * price_cents) filter (where status = 'active') as value_cents,
            count(*) filter (where status = 'payoutneeded') as hidden
          from listings where total_units > 0 group by brand_id
        ), r as (
          select brand_id, count(*) as requests, sum(total_units) as units from listing_requests where total_units > 0 group by brand_id
        )
        select b.id as brand_id, b.display_name as brand, b.is_active,
          coalesce(l.listings, 0)::int as listings, coalesce(l.sell_listings, 0)::int as sell_listings,
          coalesce(l.swap_listings, 0)::int as swap_listings, coalesce(l.units, 0)::int as units,
          to_char(coalesce(l.value_cents, 0) / 100.0, 'FM999999999990.00') as value,
          coalesce(l.hidden, 0)::int as hidden_listings,
          coalesce(r.requests, 0)::int as requests, coalesce(r.units, 0)::int as requested_units
        from brands b left join l on l.brand_id = b.id left join r on r.brand_id = b.id
        order by b.display_name, b.id`,
    ),
  };
}

/** Every retailer × brand link with its status. */
export function retailerBrandsReport(db: Db, timeZone: string): ReportSource {
  return {
    columns: [
      "retailer_id",
      "store_name",
      "city",
      "state",
      "retailer_status",
      "brand_id",
      "brand",
      "status",
      "created",
    ],
    batches: formatCells(
      cursor(
        db,
        (q) => q`
        select r.id as retailer_id, r.store_name, r.city, r.state, r.status::text as retailer_status,
          b.id as brand_id, b.display_name as brand, rb.status,
          (extract(epoch from rb.created_at) * 1000)::float8 as created
        from retailer_brands rb join retailers r on r.id = rb.retailer_id join brands b on b.id = rb.brand_id
        order by r.id, b.display_name`,
      ),
      { created: (v) => formatSortableDate(instantOf(v), timeZone) },
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Sales reps

export type SalesRepRow = typeof salesReps.$inferSelect;

export async function listSalesReps(db: Db): Promise<SalesRepRow[]> {
  return db.select().from(salesReps).orderBy(asc(salesReps.territoryName), asc(salesReps.id));
}

export async function getSalesRep(db: Db, id: number): Promise<SalesRepRow | null> {
  return (await db.select().from(salesReps).where(eq(salesReps.id, id)).limit(1))[0] ?? null;
}

export type RepRetailerRow = {
  id: number;
  storeName: string;
  city: string;
  state: string;
  status: string;
  lastActiveAt: Date | null;
  orders: number;
  valueCents: number;
  listings: number;
  requests: number;
};

/**
 * A rep's traded orders since `since` and their value, each order once: an order between two of the rep's
 * retailers is one order (the per-retailer rows count it on both sides).
 */
export async function repTradeTotals(
  db: Db,
  states: string[],
  since: Date,
): Promise<{ orders: number; valueCents: number }> {
  if (states.length === 0) return { orders: 0, valueCents: 0 };
  const inStates = sql`(${sql.join(
    states.map((x) => sql`${x}`),
    sql`, `,
  )})`;
  const [row] = await db.execute<{ orders: number; value_cents: number }>(sql`
    select count(*)::int as orders, coalesce(sum(o.value_cents), 0)::int as value_cents
    from orders o
    where o.created_at >= ${since.toISOString()}::timestamptz and o.stage in (${tradedStages}) and ${NOT_AN_RMA}
      and exists (select 1 from retailers r where r.id in (o.provider_id, o.receiver_id) and upper(r.state) in ${inStates})`);
  return { orders: row?.orders ?? 0, valueCents: row?.value_cents ?? 0 };
}

/** The retailers in a rep's states with their activity since `since`: traded orders (either side) and their value, open listings and requests. */
export async function repRetailers(
  db: Db,
  states: string[],
  since: Date,
): Promise<RepRetailerRow[]> {
  if (states.length === 0) return [];
  const rows = await db.execute<{
    id: number;
    store_name: string;
    city: string;
    state: string;
    status: string;
    last_active_at: string | null;
    orders: number;
    value_cents: number;
    listings: number;
    requests: number;
  }>(sql`
    select r.id, r.store_name, r.city, r.state, r.status::text as status, r.last_active_at,
      (select count(*) from orders o where (o.provider_id = r.id or o.receiver_id = r.id) and o.created_at >= ${since.toISOString()}::timestamptz and o.stage in (${tradedStages}) and ${NOT_AN_RMA})::int as orders,
      coalesce((select sum(o.value_cents) from orders o where (o.provider_id = r.id or o.receiver_id = r.id) and o.created_at >= ${since.toISOString()}::timestamptz and o.stage in (${tradedStages}) and ${NOT_AN_RMA}), 0)::int as value_cents,
      (select count(*) from listings l where l.provider_id = r.id and l.total_units > 0)::int as listings,
      (select count(*) from listing_requests q where q.requestor_id = r.id and q.total_units > 0)::int as requests
    from retailers r
    where upper(r.state) in ${sql`(${sql.join(
      states.map((s) => sql`${s}`),
      sql`, `,
    )})`}
    order by r.state, r.store_name, r.id`);
  return rows.map((r) => ({
    id: r.id,
    storeName: r.store_name,
    city: r.city,
    state: r.state,
    status: r.status,
    lastActiveAt: r.last_active_at ? new Date(r.last_active_at) : null,
    orders: r.orders,
    valueCents: r.value_cents,
    listings: r.listings,
    requests: r.requests,
  }));
}

// ---------------------------------------------------------------------------------------------
// Retailer map

export type MapRetailer = {
  id: number;
  storeName: string;
  city: string;
  state: string;
  status: string;
  lat: number;
  lon: number;
  miles: number;
};

/**
 * Retailers with a location within `radiusMiles` of the point, nearest first, `limit` from `offset` (the map
 * fetches 100 at a time). A bounding box (index retailers_location_idx) narrows the rows before the exact
 * great-circle distance.
 */
export async function retailersNear(
  db: Db,
  p: { lat: number; lon: number; radiusMiles: number; limit: number; offset: number },
): Promise<MapRetailer[]> {
  const dLat = p.radiusMiles / 69.0;
  const dLon = p.radiusMiles / Math.max(1, 69.17 * Math.cos((p.lat * Math.PI) / 180));
  const rows = await db.execute<{
    id: number;
    store_name: string;
    city: string;
    state: string;
    status: string;
    lat: number;
    lon: number;
    miles: number;
  }>(sql`
    select * from (
      select id, store_name, city, state, status::text as status, latitude as lat, longitude as lon,
        2 * 3958.8 * asin(least(1, sqrt(power(sin(radians(latitude - ${p.lat}) / 2), 2)
          + cos(radians(${p.lat})) * cos(radians(latitude)) * power(sin(radians(longitude - ${p.lon}) / 2), 2)))) as miles
      from retailers
      where latitude is not null and longitude is not null
        and latitude between ${p.lat - dLat} and ${p.lat + dLat}
        and longitude between ${p.lon - dLon} and ${p.lon + dLon}
    ) x where miles <= ${p.radiusMiles}
    order by miles, id
    limit ${p.limit} offset ${p.offset}`);
  return rows.map((r) => ({
    id: r.id,
    storeName: r.store_name,
    city: r.city,
    state: r.state,
    status: r.status,
    lat: r.lat,
    lon: r.lon,
    miles: Number(r.miles),
  }));
}

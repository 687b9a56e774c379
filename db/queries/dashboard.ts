/**
 * The surplus dashboard's reads (docs/product/screens.md, "Surplus dashboard"; ADR 0028): what is listed now,
 * grouped by whole days since listing; each party's side of the sales and swaps traded since `from`; the
 * payouts made since `from`. domain/surplus-dashboard.ts turns them into the figures. A scope is one retailer
 * (its own listings and its sides of its orders), one brand, or the whole marketplace (every retailer's
 * sides, so its figures are the sum of the retailers' dashboards).
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import type { ListedRow, PayoutRow, TradeSideRow } from "../../domain/surplus-dashboard";
import type { WeekMatchRow } from "../../domain/staff-metrics";

export type DashboardScope = { retailerId: number } | { brandId: number } | { marketplace: true };

/** Stages of an order whose money was taken (approved or later, not declined or cancelled). */
const TRADED_STAGES = sql.raw(`('approved', 'shipping', 'delivered', 'complete')`);

function listingScope(scope: DashboardScope): SQL {
  if ("retailerId" in scope) return sql`and l.provider_id = ${scope.retailerId}`;
  if ("brandId" in scope) return sql`and l.brand_id = ${scope.brandId}`;
  return sql``;
}

/** Orders of the scope: a retailer's through the provider and receiver indexes, a brand's by its column. */
function orderScope(scope: DashboardScope): SQL {
  if ("retailerId" in scope)
    return sql`and (o.provider_id = ${scope.retailerId} or o.receiver_id = ${scope.retailerId})`;
  if ("brandId" in scope) return sql`and o.brand_id = ${scope.brandId}`;
  return sql``;
}

/** A row of the whole marketplace's reads with the brand it belongs to (null: its brand was deleted). */
export type WithBrand<T> = T & { brandId: number | null };

/** Listings with units now, grouped by whole days since listing (at `nowMs`), valued at the wholesale cost. */
export async function listedByAge(
  db: Db,
  scope: DashboardScope,
  nowMs: number,
): Promise<ListedRow[]> {
  return listedRows(db, scope, nowMs, false);
}

async function listedRows(
  db: Db,
  scope: DashboardScope,
  nowMs: number,
  byBrand: boolean,
): Promise<WithBrand<ListedRow>[]> {
  const now = new Date(nowMs).toISOString();
  const brand = byBrand ? sql`l.brand_id` : sql`null::int`;
  const rows = await db.execute<{
    age_days: number;
    listings: number;
    units: number;
    value_cents: string;
    brand_id: number | null;
  }>(sql`
    select greatest(0, floor(extract(epoch from (${now}::timestamptz - l.created_at)) / 86400))::int as age_days,
      count(*)::int as listings, sum(l.total_units)::int as units, sum(l.total_units::bigint * l.price_cents)::text as value_cents,
      ${brand} as brand_id
    from listings l
    where l.total_units > 0 ${listingScope(scope)}
    group by 1, 5 order by 1`);
  return rows.map((r) => ({
    ageDays: r.age_days,
    listings: r.listings,
    units: r.units,
    valueCents: Number(r.value_cents),
    brandId: r.brand_id,
  }));
}

/**
 * Each party's side of the sales (the seller's only) and swaps (both sides) traded and created since `from`:
 * the goods it gave and received, its fee, whether the sale filled a request, and the whole days from each
 * given line's listing to the order.
 */
export async function tradeSides(
  db: Db,
  scope: DashboardScope,
  from: Date,
): Promise<WithBrand<TradeSideRow>[]> {
  const mine = "retailerId" in scope ? sql`and s.retailer_id = ${scope.retailerId}` : sql``;
  const rows = await db.execute<{
    transaction_type: number;
    created_ms: number;
    given: string;
    received: string;
    fee: number;
    filled: boolean;
    days: number[] | null;
    brand_id: number | null;
  }>(sql`
    select o.transaction_type, o.brand_id, (extract(epoch from o.created_at) * 1000)::float8 as created_ms,
      case when o.transaction_type = 1 then o.value_cents::bigint else g.given end::text as given,
      case when o.transaction_type = 1 then 0 else g.received end::text as received,
      case s.side when 'provider' then o.provider_fee_cents else o.receiver_fee_cents end as fee,
      (o.transaction_type = 1 and o.request_id is not null) as filled,
      g.days
    from orders o
    cross join lateral (values ('provider', o.provider_id), ('receiver', o.receiver_id)) s(side, retailer_id)
    cross join lateral (
      select coalesce(sum(c.value_cents) filter (where c.side = s.side), 0)::bigint as given,
        coalesce(sum(c.value_cents) filter (where c.side <> s.side), 0)::bigint as received,
        array_agg(greatest(0, floor(extract(epoch from (o.created_at - l.created_at)) / 86400))::int)
          filter (where c.side = s.side and l.id is not null) as days
      from order_contributions c left join listings l on l.id = c.listing_id
      where c.order_id = o.id and c.type = 'goods'
    ) g
    where o.transaction_type in (1, 2) and o.stage in ${TRADED_STAGES}
      and o.created_at >= ${from.toISOString()}::timestamptz
      and (o.transaction_type = 2 or s.side = 'provider')
      ${orderScope(scope)} ${mine}`);
  return rows.map((r) => ({
    kind: r.transaction_type === 1 ? "sale" : "swap",
    createdAtMs: Number(r.created_ms),
    givenCents: Number(r.given),
    receivedCents: Number(r.received),
    feeCents: r.fee,
    filledRequest: r.filled,
    daysToSell: r.days ?? [],
    brandId: r.brand_id,
  }));
}

/** Payouts (transfers paid) of the scope's orders since `from`; a retailer's are those paid to it. */
export async function payoutsSince(
  db: Db,
  scope: DashboardScope,
  from: Date,
): Promise<WithBrand<PayoutRow>[]> {
  const mine = "retailerId" in scope ? sql`and p.retailer_id = ${scope.retailerId}` : sql``;
  const rows = await db.execute<{
    created_ms: number;
    amount_cents: number;
    brand_id: number | null;
  }>(sql`
    select (extract(epoch from p.created_at) * 1000)::float8 as created_ms, p.amount_cents, o.brand_id
    from orders o join payments p on p.order_id = o.id
    where p.txtype = 'transfer' and p.status in ('paid', 'succeeded') and p.created_at >= ${from.toISOString()}::timestamptz
      ${orderScope(scope)} ${mine}`);
  return rows.map((r) => ({
    createdAtMs: Number(r.created_ms),
    amountCents: r.amount_cents,
    brandId: r.brand_id,
  }));
}

/** Everything the dashboard reads for `scope`, at `nowMs`, since `from`. */
export async function dashboardRows(db: Db, scope: DashboardScope, nowMs: number, from: Date) {
  const [listed, sides, payouts] = await Promise.all([
    listedByAge(db, scope, nowMs),
    tradeSides(db, scope, from),
    payoutsSince(db, scope, from),
  ]);
  return { listed, sides, payouts };
}

/**
 * The whole marketplace's rows, each with its brand, for staff's CSV of every brand (ADR 0028): the same three
 * reads as the marketplace's dashboard (what is listed also grouped by brand), so the CSV costs three reads
 * whatever the number of brands; the caller partitions them by brand and builds each dashboard alike.
 */
export async function dashboardRowsByBrand(db: Db, nowMs: number, from: Date) {
  const scope = { marketplace: true } as const;
  const [listed, sides, payouts] = await Promise.all([
    listedRows(db, scope, nowMs, true),
    tradeSides(db, scope, from),
    payoutsSince(db, scope, from),
  ]);
  return { listed, sides, payouts };
}

/** A scope of the matches per week: one brand's listings, the whole marketplace's, or the marketplace's by brand. */
export type MatchesScope = { brandId: number } | { marketplace: true } | { everyBrand: true };

/**
 * The matches made (listing_matches.created_at) in the weeks of `bounds` (domain/staff-metrics.ts weekBounds:
 * week i is [bounds[i], bounds[i + 1])), grouped by week (and brand for `everyBrand`): how many fill a request,
 * how many fit a saved search, and how many of the matched listings the matched retailer then bought or swapped
 * for (an order of which it is the receiver, approved or later, created since the match, holding the listing).
 * Read through listing_matches_created_idx (or, for a brand, its listings), and for "bought or swapped" the
 * retailer's orders modified since the match (orders_receiver_idx) and their lines (order_contributions_order_idx).
 */
export async function matchesPerWeek(
  db: Db,
  scope: MatchesScope,
  bounds: readonly number[],
): Promise<WithBrand<WeekMatchRow>[]> {
  const thresholds = `{${bounds.map((b) => String(Math.trunc(b))).join(",")}}`;
  const from = new Date(bounds[0]).toISOString();
  const to = new Date(bounds[bounds.length - 1]).toISOString();
  const brand = "everyBrand" in scope ? sql`l.brand_id` : sql`null::int`;
  const where = "brandId" in scope ? sql`and l.brand_id = ${scope.brandId}` : sql``;
  const rows = await db.execute<{
    week: number;
    requests: number;
    searches: number;
    traded: number;
    brand_id: number | null;
  }>(sql`
    select width_bucket((extract(epoch from m.created_at) * 1000)::float8, ${thresholds}::float8[]) - 1 as week, ${brand} as brand_id,
      count(*) filter (where m.request_id is not null)::int as requests,
      count(*) filter (where m.request_id is null)::int as searches,
      count(*) filter (where exists (
        select 1 from orders o join order_contributions c on c.order_id = o.id
        where o.receiver_id = m.retailer_id and o.modified_at >= m.created_at and o.created_at >= m.created_at
          and o.transaction_type in (1, 2) and o.stage in ${TRADED_STAGES} and c.listing_id = m.listing_id
      ))::int as traded
    from listing_matches m join listings l on l.id = m.listing_id
    where m.created_at >= ${from}::timestamptz and m.created_at < ${to}::timestamptz ${where}
    group by 1, 2 order by 1`);
  return rows.map((r) => ({
    week: r.week,
    requests: r.requests,
    searches: r.searches,
    traded: r.traded,
    brandId: r.brand_id,
  }));
}

/** The brands staff may pick in the report: id and name, by name. */
export async function dashboardBrands(db: Db): Promise<{ id: number; name: string }[]> {
  const rows = await db.execute<{ id: number; name: string }>(
    sql`select id, display_name as name from brands order by display_name, id`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name }));
}

/**
 * Matches (docs/product/screens.md, "Matches"; docs/decisions/0030-matches.md): a listing that becomes visible
 * and fills another retailer's open request (same variation, units in a requested size) or fits its saved
 * search becomes a match for that retailer: an entry on its Matches tab and a line in its daily e-mail.
 *
 * recordMatchesForListing is THE hook: every path that makes a listing visible calls it in its transaction
 * (the wizard's creation, payout set up, units back or a re-list). It records the matches and nothing else: the
 * e-mails are composed after, by the worker's sweep (queueDueMatchDigests), never on the click's path nor once
 * per match. Its statement starts from that one listing
 * and reaches requests through listing_requests_variation_idx and saved searches through
 * saved_searches_brand_idx: its cost is the matches found, never the table sizes (tests/db/matches.test.ts
 * checks the plan). The visibility and brand rules are the marketplace's (db/queries/marketplace.ts): the
 * listing active with units, its provider and the other retailer active, the brand active and the other
 * retailer authorized for it.
 */
import { sql } from "drizzle-orm";
import { localDateISO } from "../../domain/business-days";
import {
  DIGEST_MAX_ITEMS,
  matchDigestKey,
  matchDigestMail,
  SAVED_SEARCH_MAX,
  type DigestItem,
} from "../../domain/matches";
import type { SizesMap } from "../schema";
import { retailerNoticeAddress } from "./order-steps";
import { insertOutboxEmail } from "./outbox";
import type { DbOrTx } from "../client";

/** The per-event statement (exported for the plan check). Inserts the matches; returns their retailers. */
export function recordMatchesSql(listingId: number) {
  return sql`
    with l as (
      select l.id, l.variation_id, l.brand_id, l.provider_id, l.sizes, l.sku_key, p.category_id
      from listings l
      join retailers pr on pr.id = l.provider_id and pr.status = 'active'
      join brands b on b.id = l.brand_id and b.is_active
      join product_variations v on v.id = l.variation_id
      join products p on p.id = v.product_id
      where l.id = ${listingId} and l.status = 'active' and l.total_units > 0
    ),
    -- The brand's saved searches through saved_searches_brand_idx: the brand as a value (an InitPlan), so the
    -- planner reads only that brand's rows instead of hashing the whole table against the one listing.
    ss as materialized (
      select s.id, s.retailer_id, s.category_id, s.sizes, s.search from saved_searches s
      where s.brand_id = (select brand_id from l)
    ),
    cand as (
      select r.requestor_id as retailer_id, r.id as request_id, null::int as saved_search_id, 1 as pri
      from l join listing_requests r on r.variation_id = l.variation_id and r.total_units > 0 and r.requestor_id <> l.provider_id
      where exists (select 1 from jsonb_each_text(r.sizes) w
                    where w.value::int > 0 and coalesce((l.sizes ->> w.key)::int, 0) > 0)
      union all
      select s.retailer_id, null::int, s.id, 2
      from l join ss s on s.retailer_id <> l.provider_id
      where (s.category_id is null or s.category_id = l.category_id)
        and (cardinality(s.sizes) = 0
             or exists (select 1 from jsonb_each_text(l.sizes) x where x.key = any(s.sizes) and x.value::int > 0))
        and (s.search = '' or strpos(l.sku_key, s.search) > 0)
    ),
    ok as (
      select distinct on (c.retailer_id) c.retailer_id, c.request_id, c.saved_search_id
      from cand c
      -- the retailer by its key, one lookup per candidate (a SubPlan is never turned into a scan of retailers)
      where (select q.status from retailers q where q.id = c.retailer_id) = 'active'
        and exists (select 1 from retailer_brands rb join l on rb.brand_id = l.brand_id
                    where rb.retailer_id = c.retailer_id and rb.status = 'authorized')
      order by c.retailer_id, c.pri, c.request_id, c.saved_search_id
    )
    insert into listing_matches (retailer_id, listing_id, request_id, saved_search_id)
    select ok.retailer_id, ${listingId}, ok.request_id, ok.saved_search_id from ok
    on conflict (listing_id, retailer_id) do nothing
    returning retailer_id`;
}

/**
 * Records the matches of a listing that is (now) visible: one statement. Each new match waits (digest_key null)
 * for the retailer's e-mail, which queueDueMatchDigests composes within a minute.
 * Idempotent (one match per listing and retailer); a listing that is not visible records nothing.
 * Returns the retailers newly matched.
 */
export async function recordMatchesForListing(tx: DbOrTx, listingId: number): Promise<number[]> {
  if (!Number.isSafeInteger(listingId) || listingId <= 0) return [];
  const rows = (await tx.execute(recordMatchesSql(listingId))) as unknown as {
    retailer_id: number;
  }[];
  return [...new Set(rows.map((r) => r.retailer_id))].sort((a, b) => a - b);
}

/** A Postgres text[] literal (every label quoted). */
function textArray(labels: readonly string[]): string {
  return `{${labels.map((x) => `"${x.replace(/["\\]/g, (ch) => `\\${ch}`)}"`).join(",")}}`;
}

/** A retailer made active again: each of its visible listings is matched (a staff action; one statement per listing). */
export async function recordMatchesForRetailerListings(
  tx: DbOrTx,
  retailerId: number,
): Promise<number> {
  const rows = (await tx.execute(
    sql`select id from listings where provider_id = ${retailerId} and status = 'active' and total_units > 0 order by id`,
  )) as unknown as { id: number }[];
  for (const r of rows) await recordMatchesForListing(tx, r.id);
  return rows.length;
}

function appOrigin(): string {
  return process.env.APP_ORIGIN || "http://localhost:3000";
}

/**
 * The retailer's digest of today (outbox dedupe key match-digest:{id}:{day}, the day in `timeZone`, the
 * marketplace's MARKETPLACE_TZ): at most one e-mail a day. While today's e-mail is still queued its text is
 * rewritten with the new matches; once it has gone, new matches wait for the next day's.
 */
export async function queueMatchDigest(
  tx: DbOrTx,
  retailerId: number,
  timeZone: string,
  now = new Date(),
): Promise<"queued" | "updated" | "none"> {
  const key = matchDigestKey(retailerId, now, timeZone);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`match-digest:${retailerId}`}))`);
  const to = await retailerNoticeAddress(tx, retailerId);
  if (!to) return "none";
  const [existing] = (await tx.execute(
    sql`select id, status from outbox_emails where dedupe_key = ${key}`,
  )) as unknown as {
    id: number;
    status: string;
  }[];
  if (existing && existing.status !== "queued") return "none";
  const items = (await tx.execute(sql`
    select m.listing_id, l.listing_type::text as listing_type, l.provider_id, coalesce(nullif(b.display_name, ''), b.name) as brand_name,
           v.sku, v.color, p.display_name as product_name, l.total_units,
           case when m.request_id is null then 'search' else 'request' end as source,
           count(*) over () as total
    from listing_matches m
    join listings l on l.id = m.listing_id
    join brands b on b.id = l.brand_id
    join product_variations v on v.id = l.variation_id
    join products p on p.id = v.product_id
    where m.retailer_id = ${retailerId} and (m.digest_key is null or m.digest_key = ${key})
    order by m.id
    limit ${DIGEST_MAX_ITEMS}`)) as unknown as {
    listing_id: number;
    listing_type: "sell" | "swap";
    provider_id: number;
    brand_name: string;
    sku: string;
    color: string;
    product_name: string;
    total_units: number;
    source: "request" | "search";
    total: string | number;
  }[];
  if (items.length === 0) return "none";
  const digest: DigestItem[] = items.map((i) => ({
    listingId: i.listing_id,
    listingType: i.listing_type,
    providerId: i.provider_id,
    brandName: i.brand_name,
    sku: i.sku,
    color: i.color,
    productName: i.product_name,
    totalUnits: i.total_units,
    source: i.source,
  }));
  const mail = matchDigestMail(digest, Number(items[0].total), appOrigin());
  if (existing) {
    const updated = (await tx.execute(
      sql`update outbox_emails set subject = ${mail.subject}, body_text = ${mail.text} where id = ${existing.id} and status = 'queued' returning id`,
    )) as unknown as { id: number }[];
    if (updated.length === 0) return "none";
  } else {
    await insertOutboxEmail(tx, {
      toEmail: to,
      subject: mail.subject,
      bodyText: mail.text,
      kind: "match_digest",
      dedupeKey: key,
    });
  }
  await tx.execute(
    sql`update listing_matches set digest_key = ${key} where retailer_id = ${retailerId} and digest_key is null`,
  );
  return existing ? "updated" : "queued";
}

/**
 * The sweep the worker runs every minute (workers/main.ts): each retailer with matches no e-mail has listed yet
 * gets today's digest (queued, or rewritten while still queued), today in `timeZone` (MARKETPLACE_TZ). A
 * retailer whose e-mail of today has gone is skipped until tomorrow. Returns how many e-mails were queued.
 */
export async function queueDueMatchDigests(
  db: DbOrTx,
  timeZone: string,
  now = new Date(),
): Promise<number> {
  // Today's key of each retailer is matchDigestKey's (domain/matches.ts), built in the statement for every one.
  const today = localDateISO(now.getTime(), timeZone);
  const rows = (await db.execute(sql`
    select distinct m.retailer_id from listing_matches m
    where m.digest_key is null
      and not exists (select 1 from outbox_emails o
                      where o.dedupe_key = 'match-digest:' || m.retailer_id || ':' || ${today} and o.status <> 'queued')
    order by m.retailer_id limit 1000`)) as unknown as { retailer_id: number }[];
  let n = 0;
  for (const r of rows)
    if (
      (await db.transaction((tx) => queueMatchDigest(tx, r.retailer_id, timeZone, now))) ===
      "queued"
    )
      n++;
  return n;
}

export interface FillingListing {
  id: number;
  listingType: "sell" | "swap";
  providerId: number;
  sizes: SizesMap;
  totalUnits: number;
}

/**
 * Visible listings of other retailers that fill a request of `retailerId` for this variation and sizes (the
 * request wizard's last stage): the marketplace's rules, newest first, at most `limit`.
 */
export async function listingsFillingRequest(
  db: DbOrTx,
  retailerId: number,
  variationId: number,
  wanted: SizesMap,
  limit = 10,
): Promise<FillingListing[]> {
  const wantedLabels = Object.entries(wanted)
    .filter(([, n]) => n > 0)
    .map(([k]) => k);
  if (wantedLabels.length === 0) return [];
  const labels = textArray(wantedLabels);
  const rows = (await db.execute(sql`
    select l.id, l.listing_type::text as listing_type, l.provider_id, l.sizes, l.total_units
    from listings l
    join retailers pr on pr.id = l.provider_id and pr.status = 'active'
    join brands b on b.id = l.brand_id and b.is_active
    where l.variation_id = ${variationId} and l.status = 'active' and l.total_units > 0 and l.provider_id <> ${retailerId}
      and exists (select 1 from retailer_brands rb where rb.retailer_id = ${retailerId} and rb.brand_id = l.brand_id and rb.status = 'authorized')
      and exists (select 1 from jsonb_each_text(l.sizes) x where x.key = any(${labels}::text[]) and x.value::int > 0)
    order by case when l.listing_type = 'sell' then 0 else 1 end, l.created_at desc, l.id desc
    limit ${Math.max(1, Math.min(limit, 50))}`)) as unknown as {
    id: number;
    listing_type: "sell" | "swap";
    provider_id: number;
    sizes: SizesMap;
    total_units: number;
  }[];
  return rows.map((r) => ({
    id: r.id,
    listingType: r.listing_type,
    providerId: r.provider_id,
    sizes: r.sizes,
    totalUnits: r.total_units,
  }));
}

/**
 * A request just posted: the listings that already fill it become its requestor's matches, already seen and
 * e-mailed (the wizard showed them). Returns how many.
 */
export async function recordMatchesForRequest(tx: DbOrTx, requestId: number): Promise<number> {
  const [r] = (await tx.execute(
    sql`select requestor_id, variation_id, sizes from listing_requests where id = ${requestId} and total_units > 0`,
  )) as unknown as { requestor_id: number; variation_id: number; sizes: SizesMap }[];
  if (!r) return 0;
  const found = await listingsFillingRequest(tx, r.requestor_id, r.variation_id, r.sizes, 50);
  if (found.length === 0) return 0;
  const ids = `{${found.map((f) => f.id).join(",")}}`;
  const rows = (await tx.execute(sql`
    insert into listing_matches (retailer_id, listing_id, request_id, seen_at, digest_key)
    select ${r.requestor_id}, x, ${requestId}, now(), 'shown-in-wizard' from unnest(${ids}::int[]) x
    on conflict (listing_id, retailer_id) do nothing returning id`)) as unknown as { id: number }[];
  return rows.length;
}

export interface MatchRow {
  id: number;
  listingId: number;
  listingType: "sell" | "swap";
  providerId: number;
  brandName: string;
  productName: string;
  sku: string;
  color: string;
  totalUnits: number;
  /** Still visible (active, units left, provider active). */
  available: boolean;
  source: "request" | "search";
  createdAt: string;
  isNew: boolean;
}

/** The retailer's matches, newest first. */
export async function listMatches(
  db: DbOrTx,
  retailerId: number,
  opts: { limit: number; offset: number },
): Promise<{ total: number; items: MatchRow[] }> {
  const rows = (await db.execute(sql`
    select m.id, m.listing_id, l.listing_type::text as listing_type, l.provider_id,
           coalesce(nullif(b.display_name, ''), b.name) as brand_name, p.display_name as product_name, v.sku, v.color, l.total_units,
           (l.status = 'active' and l.total_units > 0 and pr.status = 'active') as available,
           case when m.request_id is null then 'search' else 'request' end as source,
           m.created_at, m.seen_at is null as is_new, count(*) over () as total
    from listing_matches m
    join listings l on l.id = m.listing_id
    join retailers pr on pr.id = l.provider_id
    join brands b on b.id = l.brand_id
    join product_variations v on v.id = l.variation_id
    join products p on p.id = v.product_id
    where m.retailer_id = ${retailerId}
    order by m.created_at desc, m.id desc
    limit ${opts.limit} offset ${opts.offset}`)) as unknown as {
    id: number;
    listing_id: number;
    listing_type: "sell" | "swap";
    provider_id: number;
    brand_name: string;
    product_name: string;
    sku: string;
    color: string;
    total_units: number;
    available: boolean;
    source: "request" | "search";
    created_at: string | Date;
    is_new: boolean;
    total: string | number;
  }[];
  return {
    total: rows.length > 0 ? Number(rows[0].total) : 0,
    items: rows.map((r) => ({
      id: r.id,
      listingId: r.listing_id,
      listingType: r.listing_type,
      providerId: r.provider_id,
      brandName: r.brand_name,
      productName: r.product_name,
      sku: r.sku,
      color: r.color,
      totalUnits: r.total_units,
      available: r.available,
      source: r.source,
      createdAt: new Date(r.created_at).toISOString(),
      isNew: r.is_new,
    })),
  };
}

/** Matches the retailer has not opened its Matches tab on yet (the tab's bell). */
export async function unseenMatchCount(db: DbOrTx, retailerId: number): Promise<number> {
  const [r] = (await db.execute(
    sql`select count(*)::int as n from listing_matches where retailer_id = ${retailerId} and seen_at is null`,
  )) as unknown as { n: number }[];
  return r?.n ?? 0;
}

export async function markMatchesSeen(db: DbOrTx, retailerId: number): Promise<void> {
  await db.execute(
    sql`update listing_matches set seen_at = now() where retailer_id = ${retailerId} and seen_at is null`,
  );
}

export interface SavedSearchRow {
  id: number;
  brandId: number;
  brandName: string;
  categoryId: number | null;
  categoryName: string | null;
  sizes: string[];
  search: string;
}

export async function listSavedSearches(db: DbOrTx, retailerId: number): Promise<SavedSearchRow[]> {
  const rows = (await db.execute(sql`
    select s.id, s.brand_id, coalesce(nullif(b.display_name, ''), b.name) as brand_name, s.category_id, c.name as category_name, s.sizes, s.search
    from saved_searches s join brands b on b.id = s.brand_id left join categories c on c.id = s.category_id
    where s.retailer_id = ${retailerId} order by s.id`)) as unknown as {
    id: number;
    brand_id: number;
    brand_name: string;
    category_id: number | null;
    category_name: string | null;
    sizes: string[];
    search: string;
  }[];
  return rows.map((r) => ({
    id: r.id,
    brandId: r.brand_id,
    brandName: r.brand_name,
    categoryId: r.category_id,
    categoryName: r.category_name,
    sizes: r.sizes,
    search: r.search,
  }));
}

export type SaveSearchResult =
  | { ok: true; id: number }
  | { ok: false; reason: "too_many" | "unknown_brand" | "unknown_category" };

/** Saves a search for a brand the retailer is authorized for (at most SAVED_SEARCH_MAX each). */
export async function saveSearch(
  db: DbOrTx,
  retailerId: number,
  s: { brandId: number; categoryId: number | null; sizes: string[]; search: string },
): Promise<SaveSearchResult> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved-search:${retailerId}`}))`);
  const [c] = (await db.execute(
    sql`select count(*)::int as n from saved_searches where retailer_id = ${retailerId}`,
  )) as unknown as {
    n: number;
  }[];
  if ((c?.n ?? 0) >= SAVED_SEARCH_MAX) return { ok: false, reason: "too_many" };
  const [auth] = (await db.execute(sql`
    select 1 as ok from retailer_brands rb join brands b on b.id = rb.brand_id
    where rb.retailer_id = ${retailerId} and rb.brand_id = ${s.brandId} and rb.status = 'authorized' and b.is_active`)) as unknown as {
    ok: number;
  }[];
  if (!auth) return { ok: false, reason: "unknown_brand" };
  if (s.categoryId !== null) {
    const [cat] = (await db.execute(
      sql`select 1 as ok from categories where id = ${s.categoryId}`,
    )) as unknown as { ok: number }[];
    if (!cat) return { ok: false, reason: "unknown_category" };
  }
  const labels = textArray(s.sizes);
  const [row] = (await db.execute(sql`
    insert into saved_searches (retailer_id, brand_id, category_id, sizes, search)
    values (${retailerId}, ${s.brandId}, ${s.categoryId}, ${labels}::text[], ${s.search}) returning id`)) as unknown as {
    id: number;
  }[];
  return { ok: true, id: row.id };
}

/** Deletes one of the retailer's own saved searches; false when it has no such search. */
export async function deleteSavedSearch(
  db: DbOrTx,
  retailerId: number,
  id: number,
): Promise<boolean> {
  const rows = (await db.execute(
    sql`delete from saved_searches where id = ${id} and retailer_id = ${retailerId} returning id`,
  )) as unknown as { id: number }[];
  return rows.length === 1;
}

/**
 * Markdown schedules (docs/product/markdowns.md; docs/decisions/0055-markdowns-by-one-daily-update.md): the
 * seller's set / pause / resume / cancel of a listing's schedule, the buyer's "next price" notice, and the
 * daily run's one indexed statement (applyMarkdownDaySql) that takes the day's due steps.
 *
 * The price a listing sells at is listings.price_cents, the lower of its own price (own_price_cents, written
 * here) and the catalogue's; the triggers of migration 0040 keep it.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { listingMarkdowns, listingMarkdownSteps, listings, productVariations } from "../schema";
import {
  MARKDOWN_MESSAGES,
  newSchedule,
  nextPriceNotice,
  resumedNextStepDate,
  termsProblems,
  type MarkdownSchedule,
  type MarkdownStatus,
  type MarkdownTerms,
} from "../../domain/markdown";
import { BUY_STATES, TRANSACTION_TYPE } from "../../domain/states";
import { recordMatchesForListing } from "./matches";

/** The states of a purchase during which its listing does not step (docs/product/markdowns.md). */
export const IN_FLIGHT_STATES = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.STORE_APPROVE_PURCHASE,
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
];

export type MarkdownRow = typeof listingMarkdowns.$inferSelect;

export type MarkdownWrite =
  | { ok: true; message: string }
  | {
      ok: false;
      status: 400 | 404 | 409;
      message: string;
      fieldErrors?: Partial<Record<"step" | "floor" | "endDate", string>>;
    };

const notFound: MarkdownWrite = { ok: false, status: 404, message: MARKDOWN_MESSAGES.noSchedule };

function toSchedule(r: MarkdownRow): MarkdownSchedule {
  return {
    stepKind: r.stepKind as MarkdownSchedule["stepKind"],
    stepValue: r.stepValue,
    stepCents: r.stepCents,
    everyDays: r.everyDays,
    floorKind: r.floorKind as MarkdownSchedule["floorKind"],
    floorValue: r.floorValue,
    floorCents: r.floorCents,
    endDate: r.endDate,
    status: r.status as MarkdownStatus,
    nextStepDate: r.nextStepDate,
  };
}

/** The seller's listing, locked, with its prices; null when it is not theirs. */
async function lockOwnListing(tx: DbOrTx, listingId: number, retailerId: number) {
  const [row] = await tx
    .select({
      listingType: listings.listingType,
      priceCents: listings.priceCents,
      catalogueCents: productVariations.priceCents,
    })
    .from(listings)
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .where(and(eq(listings.id, listingId), eq(listings.providerId, retailerId)))
    .for("update", { of: listings });
  return row ?? null;
}

/**
 * Sets (or replaces) the schedule of the seller's sell listing on `today`: refused with a message and nothing
 * written when the terms do not fit the listing's prices (a floor at or above the current price, ...). A
 * replaced schedule steps on from the price the listing has now.
 */
export async function setMarkdown(
  db: Db,
  input: { listingId: number; retailerId: number; terms: MarkdownTerms; today: string },
): Promise<MarkdownWrite> {
  return db.transaction(async (tx): Promise<MarkdownWrite> => {
    const l = await lockOwnListing(tx, input.listingId, input.retailerId);
    if (!l) return { ok: false, status: 404, message: "Listing not found." };
    if (l.listingType !== "sell")
      return { ok: false, status: 400, message: MARKDOWN_MESSAGES.notSellListing };
    const problems = termsProblems(input.terms, {
      catalogueCents: l.catalogueCents,
      currentCents: l.priceCents,
      today: input.today,
    });
    const first = Object.values(problems)[0];
    if (first) return { ok: false, status: 400, message: first, fieldErrors: problems };
    const s = newSchedule(input.terms, l.catalogueCents, input.today);
    const values = { ...s, listingId: input.listingId, updatedAt: new Date() };
    await tx
      .insert(listingMarkdowns)
      .values(values)
      .onConflictDoUpdate({ target: listingMarkdowns.listingId, set: values });
    return { ok: true, message: MARKDOWN_MESSAGES.saved };
  });
}

/** Pause, resume or cancel the seller's schedule (cancel: the listing goes back to the catalogue price). */
export async function commandMarkdown(
  db: Db,
  input: {
    listingId: number;
    retailerId: number;
    command: "pause" | "resume" | "cancel";
    today: string;
  },
): Promise<MarkdownWrite> {
  return db.transaction(async (tx): Promise<MarkdownWrite> => {
    if (!(await lockOwnListing(tx, input.listingId, input.retailerId))) return notFound;
    const [m] = await tx
      .select()
      .from(listingMarkdowns)
      .where(eq(listingMarkdowns.listingId, input.listingId));
    if (!m || m.status === "cancelled") return notFound;
    const set = (values: Partial<MarkdownRow>) =>
      tx
        .update(listingMarkdowns)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(listingMarkdowns.listingId, input.listingId));
    if (input.command === "pause") {
      if (m.status !== "active")
        return { ok: false, status: 409, message: MARKDOWN_MESSAGES.notActive };
      await set({ status: "paused" });
      return { ok: true, message: MARKDOWN_MESSAGES.paused };
    }
    if (input.command === "resume") {
      if (m.status !== "paused")
        return { ok: false, status: 409, message: MARKDOWN_MESSAGES.notPaused };
      await set({
        status: "active",
        nextStepDate: resumedNextStepDate(m.everyDays, input.today),
      });
      return { ok: true, message: MARKDOWN_MESSAGES.resumed };
    }
    await set({ status: "cancelled" });
    await tx
      .update(listings)
      .set({ ownPriceCents: null, updatedAt: new Date() })
      .where(eq(listings.id, input.listingId));
    return { ok: true, message: MARKDOWN_MESSAGES.cancelled };
  });
}

export interface MarkdownView {
  schedule: MarkdownSchedule;
  priceCents: number;
  catalogueCents: number;
  /** The buyer's line ("Next price $x on <date>"), or null. */
  next: ReturnType<typeof nextPriceNotice>;
  history: { day: string; fromCents: number; toCents: number }[];
}

/** A listing's schedule (not cancelled), its prices, the next step and its history; null without one. */
export async function getMarkdownView(db: DbOrTx, listingId: number): Promise<MarkdownView | null> {
  const [r] = await db
    .select({
      m: listingMarkdowns,
      priceCents: listings.priceCents,
      catalogueCents: productVariations.priceCents,
    })
    .from(listingMarkdowns)
    .innerJoin(listings, eq(listings.id, listingMarkdowns.listingId))
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .where(eq(listingMarkdowns.listingId, listingId));
  if (!r || r.m.status === "cancelled") return null;
  const schedule = toSchedule(r.m);
  const history = await db
    .select({
      day: listingMarkdownSteps.day,
      fromCents: listingMarkdownSteps.fromCents,
      toCents: listingMarkdownSteps.toCents,
    })
    .from(listingMarkdownSteps)
    .where(eq(listingMarkdownSteps.listingId, listingId))
    .orderBy(asc(listingMarkdownSteps.day));
  return {
    schedule,
    priceCents: r.priceCents,
    catalogueCents: r.catalogueCents,
    next: nextPriceNotice(schedule, r.priceCents),
    history,
  };
}

/**
 * The buyer's line ("Next price $x on <date>") of each listing in `listingIds` whose schedule has a step coming,
 * by listing id, in one indexed read (the marketplace cards of a page).
 */
export async function nextPriceNotices(
  db: DbOrTx,
  listingIds: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (listingIds.length === 0) return out;
  const rows = await db
    .select({ m: listingMarkdowns, priceCents: listings.priceCents })
    .from(listingMarkdowns)
    .innerJoin(listings, eq(listings.id, listingMarkdowns.listingId))
    .where(
      and(
        inArray(listingMarkdowns.listingId, [...listingIds]),
        eq(listingMarkdowns.status, "active"),
      ),
    );
  for (const r of rows) {
    const next = nextPriceNotice(toSchedule(r.m), r.priceCents);
    if (next) out.set(r.m.listingId, next.text);
  }
  return out;
}

/**
 * The day's run in one statement (exported for the plan check and the benchmark): the due schedules through
 * markdowns_due_idx, less the listings held by a purchase in flight (they stay due: the next run takes them) and
 * those not visible or turned into swap listings (they wait the same way);
 * each steps once (domain/markdown.ts takeStep), its history row written and its schedule moved on; schedules
 * whose end date passed end. Idempotent for a day: a second run finds nothing due.
 */
export function applyMarkdownDaySql(day: string) {
  return sql`
    with due as materialized (
      select m.listing_id, l.price_cents as from_cents,
             greatest(m.floor_cents, l.price_cents - m.step_cents) as to_cents,
             m.floor_cents, m.end_date, (${day}::date + m.every_days) as next_date
      from listing_markdowns m
      join listings l on l.id = m.listing_id
      where m.status = 'active' and m.next_step_date <= ${day}::date
        and (m.end_date is null or m.end_date >= ${day}::date)
        and l.status = 'active' and l.total_units > 0 and l.listing_type = 'sell'
        and not exists (
          select 1 from order_contributions c join orders o on o.id = c.order_id
          where c.listing_id = m.listing_id and o.transaction_type = ${TRANSACTION_TYPE.SALE}
            and o.statename in (${sql.join(
              IN_FLIGHT_STATES.map((s) => sql`${s}`),
              sql`, `,
            )}))
      for update of m, l
    ),
    stepped as (
      update listings l set own_price_cents = due.to_cents, updated_at = now()
      from due where l.id = due.listing_id
      returning l.id
    ),
    moved as (
      update listing_markdowns m set
        next_step_date = due.next_date,
        status = case when due.to_cents <= due.floor_cents then 'floor'
                      when due.end_date is not null and due.next_date > due.end_date then 'ended'
                      else 'active' end,
        updated_at = now()
      from due where m.listing_id = due.listing_id
      returning m.listing_id
    ),
    history as (
      insert into listing_markdown_steps (listing_id, day, from_cents, to_cents)
      select listing_id, ${day}::date, from_cents, to_cents from due
      on conflict (listing_id, day) do nothing
      returning id
    ),
    ended as (
      update listing_markdowns m set status = 'ended', updated_at = now()
      where m.status in ('active', 'paused') and m.end_date < ${day}::date
      returning m.listing_id
    )
    select (select count(*) from stepped)::int as stepped,
           (select count(*) from moved)::int as moved,
           (select count(*) from history)::int as written,
           (select count(*) from ended)::int as ended`;
}

/** The day's run (see applyMarkdownDaySql): how many listings stepped and how many schedules ended. */
export async function applyMarkdownDay(
  db: DbOrTx,
  day: string,
): Promise<{ stepped: number; ended: number }> {
  const [r] = (await db.execute(applyMarkdownDaySql(day))) as unknown as {
    stepped: number;
    ended: number;
  }[];
  return { stepped: Number(r.stepped), ended: Number(r.ended) };
}

/**
 * The matches of a page of the day's steps (after history row `afterId`): each stepped listing goes through
 * the matches' hook, as a listing made visible does. Returns the page's last history id and its size.
 */
export async function recordMarkdownMatches(
  db: Db,
  input: { day: string; afterId: number; limit: number },
): Promise<{ lastId: number; count: number; matched: number }> {
  const rows = await db
    .select({ id: listingMarkdownSteps.id, listingId: listingMarkdownSteps.listingId })
    .from(listingMarkdownSteps)
    .where(and(eq(listingMarkdownSteps.day, input.day), gt(listingMarkdownSteps.id, input.afterId)))
    .orderBy(asc(listingMarkdownSteps.id))
    .limit(input.limit);
  let matched = 0;
  for (const r of rows) matched += (await recordMatchesForListing(db, r.listingId)).length;
  return { lastId: rows.at(-1)?.id ?? input.afterId, count: rows.length, matched };
}

/** Schedules of some listings (the seller's list of their own). */
export async function markdownsOf(
  db: DbOrTx,
  listingIds: number[],
): Promise<Map<number, MarkdownSchedule>> {
  const out = new Map<number, MarkdownSchedule>();
  if (listingIds.length === 0) return out;
  for (const r of await db
    .select()
    .from(listingMarkdowns)
    .where(inArray(listingMarkdowns.listingId, listingIds)))
    out.set(r.listingId, toSchedule(r));
  return out;
}

/**
 * The marketplace's own figures for a listing's suggested schedule (domain/markdown.ts suggestedTerms): paid
 * purchases (captured) of listings of the same brand and product category, and the median days from the
 * listing to the order. Through orders_brand_created_idx (the brand's orders), the last 12 months.
 */
export async function daysToSell(
  db: DbOrTx,
  listingId: number,
): Promise<{ sales: number; medianDays: number | null }> {
  const rows = (await db.execute(sql`
    with me as (
      select l.brand_id, p.category_id from listings l
      join product_variations v on v.id = l.variation_id join products p on p.id = v.product_id
      where l.id = ${listingId}
    )
    select count(*)::int as sales,
           percentile_cont(0.5) within group (
             order by extract(epoch from (o.created_at - l.created_at)) / 86400) as median_days
    from me
    join orders o on o.brand_id = me.brand_id and o.created_at > now() - interval '12 months'
      and o.transaction_type = ${TRANSACTION_TYPE.SALE} and o.captured_cents > 0
    join order_contributions c on c.order_id = o.id and c.side = 'provider'
    join listings l on l.id = c.listing_id
    join product_variations v on v.id = l.variation_id
    join products p on p.id = v.product_id and p.category_id is not distinct from me.category_id`)) as unknown as {
    sales: number;
    median_days: number | null;
  }[];
  const r = rows[0];
  return {
    sales: Number(r?.sales ?? 0),
    medianDays: r?.median_days == null ? null : Number(r.median_days),
  };
}

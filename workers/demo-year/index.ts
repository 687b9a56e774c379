/**
 * The demo year (`npm run dev`'s first start, after the base seed; ADR 0063): a year of trades made through the
 * order workflows and the real activities (createActivities: read model, sandbox payments, sandbox carrier,
 * outbox) on a time-skipping Temporal test server of its own, against the dev database, so the dashboard,
 * statements, matches and ratings show figures on the first start (docs/product/screens.md).
 *
 * Runs once: it claims seed_runs 'demo-year' and plays only on a database holding no orders yet (a dev database
 * with trades of its own gets no year on top). Every trade is played to its end (completed or, for an RMA,
 * settled) and the test server is thrown away after: nothing of the year is left open on any Temporal server.
 * Then shift.ts moves the year's instants so it ends about now.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DefaultLogger, Runtime } from "@temporalio/worker";
import { count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { brands, orders, productVariations, seedRuns, users } from "../../db/schema";
import {
  DEMO_BRANDS,
  DEMO_RETAILERS,
  DEMO_SEED_NAME,
  DEMO_STAFF_EMAIL,
  demoRetailerEmail,
} from "../../db/seed";
import { DAY_MS } from "../../domain/business-days";
import { startRealWorker } from "../../tests/setup/real-activities";
import { DemoClock } from "./clock";
import { importListings, wizardListing, wizardRequest, type ListingContext } from "./listings";
import { markdownRuns } from "./markdowns";
import { FULL_YEAR, planDemoYear, type DemoYearScale, type PlannedListing } from "./plan";
import { shiftYear } from "./shift";
import { playPurchase, playSwap, type TradeContext } from "./trades";

export const DEMO_YEAR_SEED_NAME = "demo-year";

/** The clock's grid (clock.ts): steps of the trades fall on the quarter days. */
const GRID_MS = 6 * 3_600_000;

/** Days the test server is advanced before the first trade: its instants then lie beyond any real-clock one. */
const LEAD_DAYS = 30;

export interface DemoYearSummary {
  played: boolean;
  purchases: number;
  swaps: number;
  rmas: number;
  ratings: number;
  messages: number;
  listings: number;
  requests: number;
  imports: number;
  /** Listings given a markdown schedule, and the steps the daily runs took. */
  markdowns: number;
  markdownSteps: number;
  ms: number;
}

const NOTHING: DemoYearSummary = {
  played: false,
  purchases: 0,
  swaps: 0,
  rmas: 0,
  ratings: 0,
  messages: 0,
  listings: 0,
  requests: 0,
  imports: 0,
  markdowns: 0,
  markdownSteps: 0,
  ms: 0,
};

/** Claims the year: only after the base seed, only once, only on a database with no orders yet. */
async function claim(db: Db, log: (m: string) => void): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [base] = await tx.select().from(seedRuns).where(eq(seedRuns.name, DEMO_SEED_NAME));
    if (!base) return false;
    await tx.execute(sql`lock table seed_runs in share row exclusive mode`);
    const [{ n }] = await tx.select({ n: count() }).from(orders);
    if (n > 0) {
      log("demo year skipped: the database already holds orders");
      return false;
    }
    const claimed = await tx
      .insert(seedRuns)
      .values({ name: DEMO_YEAR_SEED_NAME })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) log("demo year already played");
    return claimed.length > 0;
  });
}

export async function seedDemoYear(
  db: Db,
  opts: { scale?: DemoYearScale; timeZone?: string; log?: (m: string) => void } = {},
): Promise<DemoYearSummary> {
  const log = opts.log ?? (() => {});
  if (!(await claim(db, log))) return NOTHING;
  const t0 = Date.now();
  const plan = planDemoYear(opts.scale ?? FULL_YEAR);
  const timeZone = opts.timeZone ?? "America/New_York";

  // Who is who in the base seed.
  const emails = [...DEMO_RETAILERS.map((r) => demoRetailerEmail(r.n)), DEMO_STAFF_EMAIL];
  const people = await db
    .select({ email: users.email, userId: users.id, retailerId: users.retailerId })
    .from(users)
    .where(inArray(users.email, emails));
  const byEmail = new Map(people.map((p) => [p.email, p]));
  const person = (n: number) => byEmail.get(demoRetailerEmail(n))!;
  const numberOf = new Map(DEMO_RETAILERS.map((r) => [person(r.n).retailerId!, r.n]));
  const variations = await db
    .select({
      id: productVariations.id,
      sku: productVariations.sku,
      brand: brands.name,
      priceCents: productVariations.priceCents,
    })
    .from(productVariations)
    .innerJoin(brands, eq(brands.id, productVariations.brandId))
    .orderBy(productVariations.id);
  const variationsOf = (brand: number) =>
    variations.filter((v) => v.brand === DEMO_BRANDS[brand].name);

  const real = await startRealWorker(db, {
    secret: "demo-year-carrier-secret",
    prefix: "demo-year",
  });
  const counts = {
    purchases: 0,
    swaps: 0,
    rmas: 0,
    ratings: 0,
    messages: 0,
    requests: 0,
    imports: 0,
    markdowns: 0,
  };
  try {
    const clock = new DemoClock(real.env, GRID_MS);
    const markdowns = markdownRuns(db, timeZone);
    // The server ahead by LEAD_DAYS before anything is written; the year's day 0 is midnight after that.
    await real.env.sleep(LEAD_DAYS * DAY_MS);
    const realStart = Date.now();
    const startMs = Math.ceil((await clock.now()) / DAY_MS) * DAY_MS;
    // The daily markdown run from the year's first day (the Schedule's runs before it would find nothing due).
    clock.onAdvance = (ms) => markdowns.reached(ms);
    const listed: ListingContext["listed"] = new Map();
    let queue: Promise<unknown> = Promise.resolve();
    const ctx: TradeContext = {
      db,
      client: real.env.client,
      taskQueue: real.taskQueue,
      carrier: real.carrier,
      clock,
      timeZone,
      startMs,
      retailerId: (n) => person(n).retailerId!,
      userId: (n) => person(n).userId,
      userOfRetailer: (id) => person(numberOf.get(id)!).userId,
      staffUserId: byEmail.get(DEMO_STAFF_EMAIL)!.userId,
      listing: (key) => listed.get(key)!,
      serial: <T>(f: () => Promise<T>) => {
        const run = queue.then(f);
        queue = run.catch(() => {});
        return run;
      },
      count: (what) => (counts[what] += 1),
    };
    const lctx: ListingContext = {
      db,
      timeZone,
      now: () => clock.now(),
      retailerId: ctx.retailerId,
      userId: ctx.userId,
      variationsOf,
      listed,
      count: (what) => (counts[what] += 1),
    };
    const listingAt = (day: number) => clock.until(startMs + day * DAY_MS + 9 * 3_600_000);
    // A seller's lines of a month's file are one import (plan.ts: one file per seller and day).
    const files = new Map<string, PlannedListing[]>();
    for (const l of plan.listings.filter((x) => x.via === "import")) {
      const name = `stock-day-${l.day}-store-${l.seller}.csv`;
      files.set(name, [...(files.get(name) ?? []), l]);
    }
    const listingScripts = [
      ...plan.listings
        .filter((l) => l.via === "wizard")
        .map((l) => async () => {
          await listingAt(l.day);
          await ctx.serial(() => wizardListing(lctx, l));
        }),
      ...[...files].map(([name, file]) => async () => {
        await listingAt(file[0].day);
        await ctx.serial(() => importListings(lctx, file, name));
      }),
      ...plan.requests.map((r) => async () => {
        await clock.until(startMs + r.day * DAY_MS + 14 * 3_600_000);
        await ctx.serial(() => wizardRequest(lctx, r));
      }),
    ];
    await clock.play([
      ...listingScripts,
      ...plan.purchases.map((p, k) => () => playPurchase(ctx, p, k)),
      ...plan.swaps.map((s, k) => () => playSwap(ctx, s, k)),
    ]);
    await shiftYear(db, {
      realStart,
      checkpoints: clock.checkpoints,
      serverEnd: await clock.now(),
      nowMs: Date.now(),
    });
    const summary = {
      played: true,
      ...counts,
      listings: plan.listings.length,
      markdownSteps: markdowns.steps(),
      ms: Date.now() - t0,
    };
    await db
      .update(seedRuns)
      .set({ detail: counts.purchases + counts.swaps })
      .where(eq(seedRuns.name, DEMO_YEAR_SEED_NAME));
    log(
      `demo year played: ${summary.purchases} purchases, ${summary.swaps} swaps, ${summary.rmas} RMAs, ` +
        `${summary.ratings} ratings, ${summary.messages} conversations, ${summary.listings} listings ` +
        `(${summary.imports} stock imports), ${summary.requests} requests, ${summary.markdowns} markdown schedules ` +
        `(${summary.markdownSteps} steps) (${summary.ms} ms)`,
    );
    return summary;
  } finally {
    await real.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { parseEnv } = await import("../../domain/env");
  const { createDb } = await import("../../db/client");
  Runtime.install({ logger: new DefaultLogger("WARN") });
  const env = parseEnv(process.env, (file) => readFileSync(file, "utf8"));
  const handle = createDb(env.DATABASE_URL, { max: 8 });
  try {
    await seedDemoYear(handle.db, { timeZone: env.MARKETPLACE_TZ, log: (m) => console.log(m) });
  } catch (err) {
    console.error("demo year failed:", err instanceof Error ? (err.stack ?? err.message) : err);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
}

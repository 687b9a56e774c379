#!/usr/bin/env node
// npm run bench:markdowns — the cost of the daily markdown run (docs/performance.md, "Markdowns";
// docs/decisions/0055-markdowns-by-one-daily-update.md) with 100,000 scheduled listings:
//
//  1. A throw-away Postgres (:54420, .data/bench-markdowns, wiped each run), migrated with db/migrate.ts.
//  2. The marketplace of npm run bench:stock (scripts/bench-stock/seed.mjs: 200,000 listings, 50,000 open requests,
//     10,000 saved searches), then a markdown schedule on 100,000 of its active sell listings (10% every 7 days,
//     floor 60%, their first steps spread over the next 7 days), 1,000 of them in a purchase in flight, and
//     20,000 finished orders; VACUUM ANALYZE. --scale S multiplies every count (0.02 for a quick check).
//  3. The statement's plan (EXPLAIN, not run): the due schedules must come through markdowns_due_idx.
//  4. A typical day (about a seventh due): the day's statement (db/queries/markdowns.ts applyMarkdownDay) timed,
//     the same day again (nothing due), then the stepped listings through the matches (recordMarkdownMatches, pages
//     of 500, as the workflow runs them).
//  5. The worst day (every schedule due at once): the statement timed; the matches of its first 5,000 steps
//     timed and the rest extrapolated.
//  6. Table sizes; the figures printed and written into docs/performance.md (block "markdowns"; --no-write skips).
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { info, step } from "./lib/log.mjs";
import { beforeTestCommand, writeDoc } from "./lib/perf-doc.mjs";

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.join(path.dirname(SELF), "..");
const PORT = 54420;
const DATA = path.join(ROOT, ".data", "bench-markdowns");
const DB_NAME = "marketplace_bench_markdowns";
const argv = process.argv.slice(2);
const arg = (name, dflt) =>
  argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) || dflt : dflt;
const SCALE = arg("--scale", 1);
const WRITE = !argv.includes("--no-write");
const SCHEDULED = Math.max(100, Math.round(100_000 * SCALE));
const IN_FLIGHT = Math.max(10, Math.round(1_000 * SCALE));
const FINISHED = Math.max(100, Math.round(20_000 * SCALE));
const WORST_MATCHED = Math.min(5_000, SCHEDULED);
const PAGE = 500;
const DAY = "2030-03-01";
const n0 = (v) => v.toLocaleString("en-US");
const sec = (msv) => `${(msv / 1000).toFixed(2)} s`;

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/** The schedules, the orders in flight and the finished ones, in bulk SQL. */
async function seedMarkdowns(sql) {
  await sql.unsafe(`
    insert into listing_markdowns (listing_id, status, step_kind, step_value, step_cents, every_days,
      floor_kind, floor_value, floor_cents, end_date, next_step_date)
    select l.id, 'active', 'percent', 10, greatest(1, round(l.price_cents * 0.10))::int, 7,
      'percent', 60, greatest(1, ceil(l.price_cents * 0.60))::int, null, '${DAY}'::date + (l.id % 7)
    from listings l
    where l.listing_type = 'sell' and l.status = 'active' and l.total_units > 0 and l.price_cents > 1
    order by l.id limit ${SCHEDULED}`);
  const orderRows = (n, state, offset) => `
    with picked as (
      select m.listing_id, l.provider_id, l.variation_id, row_number() over (order by m.listing_id) rn
      from listing_markdowns m join listings l on l.id = m.listing_id
      order by m.listing_id offset ${offset} limit ${n}
    ),
    o as (
      insert into orders (external_id, workflow_id, transaction_type, provider_id, receiver_id, statename, display_status)
      select 'B' || p.listing_id || '-${state}', 'bench:' || p.listing_id || ':${state}', 1, p.provider_id,
        (select r.id from retailers r where r.id <> p.provider_id order by r.id limit 1), '${state}', 'x'
      from picked p
      returning id, workflow_id
    )
    insert into order_contributions (order_id, side, listing_id, variation_id, units, quantity, unit_price_cents, value_cents)
    select o.id, 'provider', p.listing_id, p.variation_id, '{}'::jsonb, 1, 100, 100
    from o join picked p on o.workflow_id = 'bench:' || p.listing_id || ':${state}'`;
  await sql.unsafe(orderRows(IN_FLIGHT, "provider_approve_sale", 0));
  await sql.unsafe(orderRows(FINISHED, "complete", IN_FLIGHT));
  await sql.unsafe("vacuum analyze");
  const [{ n }] = await sql`select count(*)::int n from listing_markdowns`;
  return n;
}

async function prepare() {
  const { benchDatabase } = await import("./lib/stack.mjs");
  const S = await import("./bench-stock/seed.mjs");
  step(`Postgres :${PORT} (${path.relative(ROOT, DATA)}, wiped)`);
  const { pg, url, h } = await benchDatabase({
    name: "pg-bench-markdowns",
    dataDir: DATA,
    port: PORT,
    dbName: DB_NAME,
  });
  const c = S.countsAt(SCALE);
  const t0 = performance.now();
  const ids = await S.seedCatalogue(h.sql, c);
  await S.seedMarketplace(h.sql, c, ids);
  const scheduled = await seedMarkdowns(h.sql);
  info(
    `seeded ${n0(c.listings)} listings, ${n0(scheduled)} scheduled in ${sec(performance.now() - t0)}`,
  );
  return { pg, url, h, c, scheduled };
}

/** All of a day's steps through the matches, pages of PAGE (at most `cap` steps); time and counts. */
async function matchesOf(db, day, cap) {
  const { recordMarkdownMatches } = await import("../db/queries/markdowns.ts");
  let afterId = 0;
  let count = 0;
  let matched = 0;
  const t0 = performance.now();
  for (;;) {
    const page = await recordMarkdownMatches(db, {
      day,
      afterId,
      limit: Math.min(PAGE, cap - count),
    });
    afterId = page.lastId;
    count += page.count;
    matched += page.matched;
    if (page.count < PAGE || count >= cap) break;
  }
  return { ms: performance.now() - t0, count, matched };
}

async function main() {
  const prep = await prepare();
  const { h } = prep;
  const { applyMarkdownDay, applyMarkdownDaySql } = await import("../db/queries/markdowns.ts");
  try {
    const load = os.loadavg().map((x) => x.toFixed(2));
    step("plan");
    const { PgDialect } = await import("drizzle-orm/pg-core");
    const q = new PgDialect().sqlToQuery(applyMarkdownDaySql(DAY));
    const plan = (await h.sql.unsafe(`explain ${q.sql}`, q.params)).map((r) => r["QUERY PLAN"]);
    const usesIndex = plan.some((l) => l.includes("markdowns_due_idx"));

    step(`a typical day (${DAY})`);
    const typical = await timed(() => applyMarkdownDay(h.db, DAY));
    const again = await timed(() => applyMarkdownDay(h.db, DAY));
    const typicalMatches = await matchesOf(h.db, DAY, Number.MAX_SAFE_INTEGER);

    const WORST = "2030-03-20";
    step(`the worst day (${WORST}: every schedule due)`);
    await h.sql.unsafe(
      `update listing_markdowns set next_step_date = '${WORST}' where status = 'active'`,
    );
    await h.sql.unsafe("vacuum analyze listing_markdowns");
    const worst = await timed(() => applyMarkdownDay(h.db, WORST));
    const worstMatches = await matchesOf(h.db, WORST, WORST_MATCHED);
    const perStep = worstMatches.ms / Math.max(1, worstMatches.count);
    const sizes = await h.sql`
      select relname, pg_size_pretty(pg_total_relation_size(oid)) size from pg_class
      where relname in ('listing_markdowns', 'listing_markdown_steps') order by relname`;

    const report = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (load average ${load.join(" / ")} at the start), ` +
        `Node ${process.version}, a fresh Postgres :${PORT}; ${n0(prep.c.listings)} listings, ` +
        `${n0(prep.scheduled)} with a schedule (10% every 7 days, first steps spread over 7 days), ` +
        `${n0(IN_FLIGHT)} of them in a purchase in flight, ${n0(FINISHED)} finished orders.`,
      "",
      "| run | listings stepped | the day's statement | matches of the steps |",
      "| --- | ---: | ---: | ---: |",
      `| a typical day | ${n0(typical.result.stepped)} | ${sec(typical.ms)} | ${sec(typicalMatches.ms)} (${n0(typicalMatches.count)} listings, ${n0(typicalMatches.matched)} new matches) |`,
      `| the same day again | ${n0(again.result.stepped)} | ${sec(again.ms)} | |`,
      `| the worst day (all due) | ${n0(worst.result.stepped)} | ${sec(worst.ms)} | ${sec(worstMatches.ms)} for the first ${n0(worstMatches.count)}; about ${sec(perStep * worst.result.stepped)} for all |`,
      "",
      `The statement reads the due schedules through markdowns_due_idx: ${usesIndex ? "yes" : "NO"}. ` +
        `Sizes after the two runs: ${sizes.map((s) => `${s.relname} ${s.size}`).join(", ")}.`,
    ].join("\n");
    console.log(`\n${report}\n\n${plan.join("\n")}\n`);
    if (WRITE) {
      writeDoc({
        key: "markdowns",
        by: "npm run bench:markdowns",
        report,
        place: beforeTestCommand(
          (block) =>
            `## Markdowns\n\n\`npm run bench:markdowns\` (scripts/bench-markdowns.mjs) rewrites the block below ` +
            `(docs/decisions/0055-markdowns-by-one-daily-update.md).\n\n${block}\n`,
        ),
      });
      info("figures written to docs/performance.md (block markdowns)");
    }
    if (!usesIndex) process.exitCode = 1;
  } finally {
    await h.close();
    await prep.pg.stop().catch(() => {});
  }
}

if (!process.env.BENCH_MARKDOWNS_UNDER_TSX) {
  // The queries are TypeScript: run under tsx.
  const child = spawn(process.execPath, ["--import", "tsx", SELF, ...argv], {
    stdio: "inherit",
    env: { ...process.env, BENCH_MARKDOWNS_UNDER_TSX: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  step(`bench-markdowns: the daily markdown run at scale ${SCALE}`);
  await main().catch((e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  });
}

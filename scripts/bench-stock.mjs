#!/usr/bin/env node
// npm run bench:stock — two measures (docs/performance.md, "Stock import" and "Matches"):
//   - a 5,000-row stock file previewed and confirmed: time and peak RSS (ADR 0029);
//   - matching a new listing with 200,000 listings and 50,000 open requests: p95 ≤ 20 ms and no sequential scan
//     of listings, listing_requests, saved_searches, retailer_brands or retailers in the plans (ADR 0030).
//
//  1. A throw-away Postgres (:54410, .data/bench-stock, wiped each run), migrated with db/migrate.ts.
//  2. The data set in bulk SQL (scripts/bench-stock/seed.mjs): 40 brands, 5,000 products of three size runs
//     with four colours each (20,000 variations, a UPC each), 2,000 retailers authorized for 8 brands each,
//     200,000 listings, 50,000 open requests (and 2,500 closed), 10,000 saved searches; then VACUUM ANALYZE.
//     --scale S multiplies the counts (0.02 for a quick check of the script).
//  3. Import: two retailers (the tests' factories) authorized for 8 brands (1,000 products, 4,000 variations),
//     each with listings of 1 in 8 of the file's variations already; a stock file of 5,000 lines (with lines a
//     retailer gets wrong: codes to confirm, mistyped codes, bad units, sizes and prices, another brand's code)
//     as a CSV for one and an .xlsx for the other. Each phase in a process of its own
//     (scripts/bench-stock/import-phase.mjs: the page's server functions with the Request a browser sends),
//     so its peak RSS is that phase's: upload + preview, confirm + results, then the same file again.
//  4. Matching, in this process: --n N (500) new listings after 20 untimed, each inserted and matched by
//     recordMatchesForListing in one transaction (the hook alone timed); N sweeps of the worker's
//     queueDueMatchDigests, each after one more matched listing (the e-mails it composes); N whole creations through
//     the wizard's createListingChecked (lock, checks, insert, the hook, commit); N reads of listingsFillingRequest
//     (the request wizard's side). Then each again 7 times with auto_explain (ANALYZE, BUFFERS), so the generic
//     plan a prepared statement switches to is seen too: any Seq Scan of the five tables is named.
//     --matching-only skips step 3.
//  5. Prints the figures and writes them into docs/performance.md (blocks "stock-import" and "matches";
//     --no-write skips). Exit 1 when the matching goal is missed or a plan scans one of the five tables.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { autoExplainDb, planNodes } from "./lib/auto-explain.mjs";
import { fmtMs, info, step, warn } from "./lib/log.mjs";
import { beforeTestCommand, writeDoc } from "./lib/perf-doc.mjs";
import { summary } from "./lib/stats.mjs";

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.join(path.dirname(SELF), "..");
const PORT = 54410;
const DATA = path.join(ROOT, ".data", "bench-stock");
const FILES = path.join(ROOT, ".data", "bench-stock-files");
const DB_NAME = "marketplace_bench_stock";
const argv = process.argv.slice(2);
const arg = (name, dflt) =>
  argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) || dflt : dflt;
const SCALE = arg("--scale", 1);
const N = arg("--n", 500);
const WARM = 20;
const WRITE = !argv.includes("--no-write");
const KEEP = argv.includes("--keep");
/** Matching only: no import phases, and only the "matches" block written. */
const MATCHING_ONLY = argv.includes("--matching-only");
const GOAL_P95_MS = 20;
const SCANNED = ["listings", "listing_requests", "saved_searches", "retailer_brands", "retailers"];
const IMPORT_BRANDS = 8;
/** The matching calls timed (matchingCalls): each takes WARM + N + 7 picks of its own. */
const MATCHING_CALLS = 4;

/** The box's load average (1, 5, 15 min) when the timing began. */
let loadAtStart = [];
const n0 = (v) => v.toLocaleString("en-US");
const ms = (v) => `${v.toFixed(1)} ms`;

/** A retailer with a user, payout set up and the first brands authorized (the tests' factories). */
async function importRetailer(db, brandIds) {
  const F = await import("../tests/factories/index.ts");
  const { retailer, user } = await F.createRetailer(db, { payout: true });
  for (const b of brandIds.slice(0, IMPORT_BRANDS)) await F.authorizeBrand(db, retailer.id, b);
  return { retailerId: retailer.id, userId: user.id };
}

/** Listings the retailer already has: 1 in 8 of the file's variations, one unit of its first size. */
async function existingListings(sql, retailerId, listed) {
  const some = listed.filter((_, i) => i % 8 === 3);
  if (some.length === 0) return;
  await sql.unsafe(`
    insert into listings (variation_id, brand_id, provider_id, reason, sizes, total_units, status, terms)
    select v.id, v.brand_id, ${retailerId}, 'overstock', jsonb_build_object(x.size, 1), 1, 'active', true
    from unnest(array[${some.map((l) => l.variationId).join(",")}], array[${some.map((l) => `'${l.firstSize}'`).join(",")}]) x(id, size)
    join product_variations v on v.id = x.id`);
}

/** The files: the stock file as CSV and .xlsx, and a small warm-up CSV. */
async function writeFiles(file, warmRows) {
  const { stringify } = await import("csv-stringify/sync");
  const ExcelJS = (await import("exceljs")).default;
  fs.mkdirSync(FILES, { recursive: true });
  const csv = path.join(FILES, "stock.csv");
  fs.writeFileSync(csv, stringify([file.header, ...file.rows]));
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Stock");
  ws.addRow(file.header);
  // Units and prices as numbers, as a spreadsheet holds them; codes as text (a UPC keeps its leading zeros).
  for (const r of file.rows)
    ws.addRow([
      r[0],
      r[1],
      /^\d+$/.test(r[2]) ? Number(r[2]) : r[2],
      r[3] ? Number(r[3]) : "",
      r[4],
      r[5],
    ]);
  const xlsx = path.join(FILES, "stock.xlsx");
  fs.writeFileSync(xlsx, Buffer.from(await wb.xlsx.writeBuffer()));
  const warm = path.join(FILES, "warm.csv");
  fs.writeFileSync(warm, stringify([file.header, ...warmRows]));
  return { csv, xlsx, warm };
}

/** The fresh cluster, migrated and filled; its URL, the import's parties and files, and the counts. */
async function prepare() {
  const { benchDatabase } = await import("./lib/stack.mjs");
  const S = await import("./bench-stock/seed.mjs");
  step(`Postgres :${PORT} (${path.relative(ROOT, DATA)}, wiped)`);
  const { pg, url, h } = await benchDatabase({
    name: "pg-bench-stock",
    dataDir: DATA,
    port: PORT,
    dbName: DB_NAME,
  });
  const c = S.countsAt(SCALE);
  const t0 = performance.now();
  const ids = await S.seedCatalogue(h.sql, c);
  await S.seedMarketplace(h.sql, c, ids);
  const cat = await S.importCatalogue(h.sql, ids.brandIds.slice(0, IMPORT_BRANDS));
  const [foreign] = await S.importCatalogue(h.sql, [ids.brandIds[IMPORT_BRANDS + 1]]);
  const file = S.stockFile(cat, c.importRows, foreign.sku);
  const parties = {
    csv: await importRetailer(h.db, ids.brandIds),
    xlsx: await importRetailer(h.db, ids.brandIds),
  };
  parties.warm = await importRetailer(h.db, ids.brandIds);
  for (const p of [parties.csv, parties.xlsx])
    await existingListings(h.sql, p.retailerId, file.listed);
  await h.sql`vacuum analyze`;
  const [counts] = await h.sql`select (select count(*) from listings)::int listings,
    (select count(*) from listings where status = 'active' and total_units > 0)::int visible,
    (select count(*) from listing_requests where total_units > 0)::int open_requests,
    (select count(*) from listing_requests)::int requests, (select count(*) from saved_searches)::int saved_searches,
    (select count(*) from retailers)::int retailers, (select count(*) from product_variations)::int variations,
    (select count(*) from products)::int products`;
  info(`data set in ${fmtMs(performance.now() - t0)}: ${JSON.stringify(counts)}`);
  await h.close();
  const files = await writeFiles(
    file,
    file.rows.slice(0, 20).map((r) => [...r]),
  );
  return {
    pg,
    url,
    ids,
    counts,
    parties,
    files,
    fileRows: file.rows.length,
    catalogue: cat.length,
  };
}

/** One phase in its own process (scripts/bench-stock/import-phase.mjs under tsx); its result. */
function runPhase(job) {
  const jobFile = path.join(FILES, `job-${process.pid}.json`);
  const out = path.join(FILES, `out-${process.pid}.json`);
  fs.rmSync(out, { force: true });
  fs.writeFileSync(jobFile, JSON.stringify({ ...job, out }));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts", "bench-stock", "import-phase.mjs"), jobFile],
      {
        cwd: ROOT,
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    child.on("exit", (code) =>
      code === 0 && fs.existsSync(out)
        ? resolve(JSON.parse(fs.readFileSync(out, "utf8")))
        : reject(new Error(`import phase exited ${code}`)),
    );
  });
}

/** The file uploaded and confirmed, then the same file again, for one retailer: four phases. */
async function importRuns(prep, kind) {
  const p = prep.parties[kind];
  const base = {
    url: prep.url,
    retailerId: p.retailerId,
    userId: p.userId,
    file: prep.files[kind],
    fileName: path.basename(prep.files[kind]),
    warm: { ...prep.parties.warm, file: prep.files.warm, fileName: "warm.csv" },
  };
  const out = [];
  for (const run of ["first", "again"]) {
    const preview = await runPhase({ ...base, phase: "preview" });
    const confirm = await runPhase({ ...base, phase: "confirm", importId: preview.importId });
    out.push({ kind, run, preview, confirm });
    info(
      `${kind} (${run}): upload + preview ${fmtMs(preview.ms)} (peak RSS ${preview.peakRssMb.toFixed(0)} MB), confirm + results ${fmtMs(confirm.ms)} (peak RSS ${confirm.peakRssMb.toFixed(0)} MB): ${JSON.stringify(confirm.counts)}`,
    );
  }
  return out;
}

/** Deterministic picks for the matching calls: a variation, an active retailer with payout authorized for its brand (no live listing of it), two sizes. */
async function matchingPicks(sql, ids, count) {
  const vars = await sql.unsafe(`
    select v.id, v.brand_id, array_position(array[${ids.brandIds.join(",")}], v.brand_id) - 1 as bi,
      array(select label from product_sizes s where s.product_id = v.product_id order by s.position) as run
    from product_variations v where v.brand_id = any(array[${ids.brandIds.join(",")}]) order by v.id`);
  const rets = await sql.unsafe(`
    select r.id, array_agg(array_position(array[${ids.brandIds.join(",")}], rb.brand_id) - 1) as bis
    from retailers r join retailer_brands rb on rb.retailer_id = r.id and rb.status = 'authorized'
    where r.id = any(array[${ids.retailerIds.join(",")}]) and r.status = 'active' and r.bt_merchant_id is not null group by r.id order by r.id`);
  // A retailer with a live listing of the variation would be refused ("already listed"): each pair once, never an existing one.
  const used = new Set(
    (await sql`select provider_id, variation_id from listings where total_units > 0`).map(
      (l) => `${l.provider_id}:${l.variation_id}`,
    ),
  );
  const picks = [];
  for (let i = 0; picks.length < count; i++) {
    const v = vars[(i * 7919 + 13) % vars.length];
    const able = rets.filter((x) => x.bis.includes(v.bi) && !used.has(`${x.id}:${v.id}`));
    if (able.length === 0) continue;
    const r = able[(i * 31) % able.length];
    used.add(`${r.id}:${v.id}`);
    const a = v.run[i % v.run.length];
    const b = v.run[(i + 2) % v.run.length];
    picks.push({
      variationId: v.id,
      brandId: v.brand_id,
      retailerId: r.id,
      sizes: { [a]: 1 + (i % 3), [b]: 1 },
    });
  }
  return picks;
}

/** The matching calls, each a function of a pick; the hook's records how many retailers it matched. */
async function matchingCalls(db, matched) {
  const { listings } = await import("../db/schema/index.ts");
  const { recordMatchesForListing, queueDueMatchDigests, listingsFillingRequest } = await import(
    "../db/queries/matches.ts"
  );
  const { createListingChecked } = await import("../db/queries/listing-write.ts");
  const insertListing = async (tx, p) => {
    const [row] = await tx
      .insert(listings)
      .values({
        variationId: p.variationId,
        brandId: p.brandId,
        providerId: p.retailerId,
        reason: "overstock",
        sizes: p.sizes,
        totalUnits: Object.values(p.sizes).reduce((a, x) => a + x, 0),
        status: "active",
        terms: true,
      })
      .returning({ id: listings.id });
    return row.id;
  };
  return [
    {
      key: "hook",
      what: "`recordMatchesForListing` on a new visible listing (the hook alone, in the listing's transaction)",
      run: (p) =>
        db.transaction(async (tx) => {
          const id = await insertListing(tx, p);
          const t = performance.now();
          const found = await recordMatchesForListing(tx, id);
          matched?.push(found.length);
          return performance.now() - t;
        }),
    },
    {
      key: "sweep",
      what: "the worker's sweep after one more listing (`queueDueMatchDigests`, every minute, off the click's path: its matched retailers' daily e-mails composed, or rewritten while queued)",
      run: async (p) => {
        await db.transaction(async (tx) => recordMatchesForListing(tx, await insertListing(tx, p)));
        const t = performance.now();
        await queueDueMatchDigests(db, "America/New_York");
        return performance.now() - t;
      },
    },
    {
      key: "create",
      what: "the wizard's whole creation (`createListingChecked`: lock, checks, insert, the hook, commit)",
      run: async (p) => {
        const t = performance.now();
        const res = await createListingChecked(db, {
          providerId: p.retailerId,
          variationId: p.variationId,
          listingType: "sell",
          reason: "overstock",
          sizes: p.sizes,
          terms: true,
        });
        if (!res.ok) throw new Error(`createListingChecked: ${res.reason}`);
        return performance.now() - t;
      },
    },
    {
      key: "filling",
      what: "`listingsFillingRequest` (the request wizard's visible listings that fill a request)",
      run: async (p) => {
        const t = performance.now();
        await listingsFillingRequest(db, p.retailerId, p.variationId, p.sizes);
        return performance.now() - t;
      },
    },
  ];
}

/** N timed calls of each after WARM untimed (each call its own pick: a new listing each time). */
async function timeMatching(url, picks) {
  const { createDb } = await import("../db/client.ts");
  const h = createDb(url);
  const matched = [];
  const out = [];
  for (const [ci, call] of (await matchingCalls(h.db, matched)).entries()) {
    const times = [];
    for (let i = 0; i < WARM + N; i++) {
      const took = await call.run(picks[(ci * (WARM + N) + i) % picks.length]);
      if (i >= WARM) times.push(took);
    }
    const s = summary(times);
    out.push({ ...call, ...s });
    info(`${call.key.padEnd(8)} p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  max ${ms(s.max)}`);
  }
  await h.close();
  return { results: out, matched: summary(matched.slice(WARM)) };
}

/** Each call 7 times on one connection with auto_explain (ANALYZE, BUFFERS); Seq Scans and indexes of the five tables. */
async function explainMatching(url, picks) {
  const { createDb } = await import("../db/client.ts");
  const { h, plansOf } = await autoExplainDb(createDb, url);
  const plans = new Map();
  const out = [];
  for (const [ci, call] of (await matchingCalls(h.db)).entries()) {
    const found = await plansOf(async () => {
      for (let i = 0; i < 7; i++) await call.run(picks[picks.length - 1 - ci * 7 - i]);
    });
    plans.set(call.key, found);
    const seq = new Set();
    const indexes = new Set();
    const where = new Set();
    for (const p of found)
      for (const n of planNodes(p.Plan)) {
        if (n["Node Type"] === "Seq Scan" && SCANNED.includes(n["Relation Name"])) {
          seq.add(n["Relation Name"]);
          where.add(
            `${n["Relation Name"]} in "${p["Query Text"].replace(/\s+/g, " ").trim().slice(0, 70)}…"`,
          );
        }
        if (SCANNED.includes(n["Relation Name"]) && n["Index Name"]) indexes.add(n["Index Name"]);
      }
    out.push({ key: call.key, seq: [...seq], indexes: [...indexes].sort() });
    if (seq.size) warn(`${call.key}: Seq Scan of ${[...where].join("; ")}`);
  }
  fs.writeFileSync(
    path.join(ROOT, ".data", "bench-stock-plans.json"),
    JSON.stringify(Object.fromEntries(plans), null, 1),
  );
  await h.close();
  return out;
}

function header(counts) {
  const load = os.loadavg().map((x) => x.toFixed(2));
  return (
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`npm run bench:stock${SCALE === 1 ? "" : ` -- --scale ${SCALE}`}\` on ${os.cpus().length} cores ` +
    `(load average ${loadAtStart.join(" / ")} when the timing began, ${load.join(" / ")} at the end), Node ${process.version}, a fresh Postgres :${PORT} with ` +
    `${n0(counts.listings)} listings (${n0(counts.visible)} visible), ${n0(counts.open_requests)} open requests (of ${n0(counts.requests)}), ` +
    `${n0(counts.saved_searches)} saved searches, ${n0(counts.retailers)} retailers and ${n0(counts.variations)} variations of ${n0(counts.products)} products.`
  );
}

function stockImportReport(prep, runs) {
  const mb = (phase) => `${phase.peakRssMb.toFixed(0)} MB (${phase.rssBeforeMb.toFixed(0)} MB)`;
  // Every action a row can end with (app/utils/stock-import.server.ts): the usual ones always, the others when they occur.
  const cnt = (c) =>
    [...new Set(["create", "update", "unchanged", "refused", ...Object.keys(c)])]
      .map((k) => `${c[k] ?? 0} ${k}`)
      .join(", ");
  return [
    header(prep.counts),
    "",
    `The file: ${n0(prep.fileRows)} lines for a retailer authorized for ${IMPORT_BRANDS} brands (${n0(prep.catalogue)} variations), ` +
      `who already has listings of 1 in 8 of the file's variations; among the lines, product codes shared by four colours and mistyped ` +
      `codes (guesses to confirm: the first guess picked), units that are not a number, sizes and prices that are not the catalogue's, and another ` +
      `brand's code. Each phase runs in a process of its own (the page's server functions with the Request a browser sends, after an untimed ` +
      `20-line warm-up): its time is the action and the page's data after it; peak RSS is the process's maximum resident set (Node, the app's ` +
      `modules and the phase).`,
    "",
    "| file | run | upload + preview | peak RSS (before the phase) | confirm + results | peak RSS (before the phase) | rows after confirm (one per variation, refused line or guess) |",
    "|---|---|---|---|---|---|---|",
    ...runs.map(
      (r) =>
        `| ${r.kind === "csv" ? "CSV" : ".xlsx"} | ${r.run === "first" ? "first" : "same file again"} | **${fmtMs(r.preview.ms)}** | ${mb(r.preview)} | **${fmtMs(r.confirm.ms)}** | ${mb(r.confirm)} | ${cnt(r.confirm.counts)}; ${r.preview.counts.choose ?? 0} guesses confirmed |`,
    ),
  ].join("\n");
}

function planCell(p) {
  return p.seq.length
    ? `**Seq Scan of ${p.seq.join(", ")}**`
    : `no Seq Scan of the five tables (${p.indexes.join(", ") || "no index of them"})`;
}

function matchesReport(prep, timing, plans) {
  const verdict = (r) => (r.key === "hook" ? (r.p95 <= GOAL_P95_MS ? "met" : "**missed**") : "");
  return [
    header(prep.counts),
    "",
    `${N} timed calls of each after ${WARM} untimed, one after another, in the bench's process; each call a new listing (a variation, ` +
      `an active retailer with payout authorized for its brand, two sizes). The hook matched ${timing.matched.mean.toFixed(1)} retailers a ` +
      `listing on average (max ${timing.matched.max}), their e-mails left to the sweep. Plans: each call 7 more times with ` +
      `auto_explain (ANALYZE, BUFFERS), so a prepared statement's generic plan is seen too; the five tables are listings, listing_requests, ` +
      `saved_searches, retailer_brands and retailers.`,
    "",
    `| call | p50 | p95 | max | goal p95 ≤ ${GOAL_P95_MS} ms | plans |`,
    "|---|---|---|---|---|---|",
    ...timing.results.map(
      (r) =>
        `| ${r.what} | ${ms(r.p50)} | **${ms(r.p95)}** | ${ms(r.max)} | ${verdict(r)} | ${planCell(plans.find((p) => p.key === r.key))} |`,
    ),
  ].join("\n");
}

function writeDocs(stock, matches) {
  console.log(`\n${stock ?? ""}\n\n${matches}\n`);
  if (!WRITE) return;
  const section = (title) => (block) =>
    `## ${title}\n\n\`npm run bench:stock\` (scripts/bench-stock.mjs) rewrites the block below.\n\n${block}\n`;
  if (stock)
    writeDoc({
      key: "stock-import",
      by: "npm run bench:stock",
      report: stock,
      place: beforeTestCommand(section("Stock import")),
    });
  writeDoc({
    key: "matches",
    by: "npm run bench:stock",
    report: matches,
    place: beforeTestCommand(section("Matches")),
  });
  info("figures written to docs/performance.md (blocks stock-import and matches)");
}

async function main() {
  const prep = await prepare();
  process.env.DATABASE_URL = prep.url;
  try {
    loadAtStart = os.loadavg().map((x) => x.toFixed(2));
    if (!MATCHING_ONLY)
      step(
        `import: ${n0(prep.fileRows)} lines, CSV then .xlsx (load average ${loadAtStart.join(" / ")})`,
      );
    const runs = MATCHING_ONLY
      ? []
      : [...(await importRuns(prep, "csv")), ...(await importRuns(prep, "xlsx"))];
    const { createDb } = await import("../db/client.ts");
    const h = createDb(prep.url, { max: 1 });
    const picks = await matchingPicks(h.sql, prep.ids, MATCHING_CALLS * (WARM + N + 7));
    await h.close();
    step(`matching: ${N} calls of each after ${WARM} untimed`);
    const timing = await timeMatching(prep.url, picks);
    step("explain (auto_explain, ANALYZE, BUFFERS)");
    const plans = await explainMatching(prep.url, picks);
    writeDocs(
      MATCHING_ONLY ? null : stockImportReport(prep, runs),
      matchesReport(prep, timing, plans),
    );
    const hook = timing.results.find((r) => r.key === "hook");
    const scans = plans.filter((p) => p.seq.length).map((p) => `${p.key} (${p.seq.join(", ")})`);
    if (hook.p95 > GOAL_P95_MS) warn(`the hook's p95 ${ms(hook.p95)} is above ${GOAL_P95_MS} ms`);
    if (scans.length) warn(`SEQUENTIAL SCANS: ${scans.join("; ")}`);
    if (hook.p95 > GOAL_P95_MS || scans.length) process.exitCode = 1;
  } finally {
    if (KEEP) {
      info(
        `--keep: Postgres left running at ${prep.url} (pid ${prep.pg.pid()}); stop it with kill -INT ${prep.pg.pid()}`,
      );
      await new Promise(() => {});
    }
    await prep.pg.stop().catch(() => {});
  }
}

if (!process.env.BENCH_STOCK_UNDER_TSX) {
  // The factories and the queries are TypeScript: run under tsx.
  const child = spawn(process.execPath, ["--import", "tsx", SELF, ...argv], {
    stdio: "inherit",
    env: { ...process.env, BENCH_STOCK_UNDER_TSX: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  step(`bench-stock: a stock file and matching at scale ${SCALE}`);
  await main().catch((e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  });
}

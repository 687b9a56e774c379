#!/usr/bin/env node
// npm run bench:marketplace — the marketplace under a large dataset: pages and query plans under load (docs/performance.md, "Marketplace").
//
//  1. Postgres: its own embedded cluster on :54350 (.data/pg-bench), or BENCH_DATABASE_URL. Configured once
//     for auto_explain (session_preload_libraries, JSON plans, logging collector into <data>/log; the
//     embedded cluster is restarted once for that). Seeded by scripts/seed-large.mjs unless the seed in the
//     database already matches the current migrations and seed script (--reseed forces it).
//  2. The production build (REMIX_BUILD_DIR=.data/bench-build npx remix build; --no-build reuses it),
//     served by `node workers/web.mjs` (NODE_ENV=production, PORT 3650), signed in as a bench retailer.
//     Then warmed up: --warmup requests (default 300) of every variant at c=4, not measured, so the JIT's
//     warm-up does not land in the first variant's figures.
//  3. EXPLAIN: with auto_explain.log_min_duration = 0 (log_analyze on, log_timing off), a few requests
//     of every variant; the plans of the statements touching listings / listing_requests are printed, and
//     the script FAILS (exit 1) when one of them has a Seq Scan on listings or listing_requests.
//  4. Load: autocannon on loopback, every variant at concurrency 1 and 16 (--duration seconds each,
//     default 10): requests/s and p50 / p95 / p99 (exact, from every response time), plus the same for
//     a static page of the same app (/pricing: Remix render + the root loader's session lookup) and for
//     /healthz (Express alone) as the framework's ceiling.
//  5. Where the time goes (every variant): SQL time (auto_explain durations of that request's statements,
//     the marketplace ones apart), the loaders + serialization alone (the single-fetch `<path>.data`
//     request, no HTML), and the full HTML page, each as the median of sequential requests.
//  6. Goals: c=1 p95 <= 50 ms for every variant; c=16 p95 <= 3 x the static page's c=16 p95 (the static
//     page is measured again right after each variant's c=16 row: the shared box's load drifts).
//     Also the CPU time per request of the web process and of Postgres (/proc), which does not drift.
//     Figures go into docs/performance.md between <!-- marketplace:begin --> and <!-- marketplace:end -->
//     (--no-write skips).
//
//  7. A CPU profile of the web process (node --cpu-prof) while it serves /buy/ at c=16: self time by
//     component (React render, turbo-stream serialization, Postgres driver, Drizzle, Remix, app code, GC).
//
// Options: --duration=<s> (default 10), --warmup=<requests per variant> (default 300), --no-build, --reseed, --no-write, --no-profile, --keep (leave
// Postgres and the app running), --only=<variant,...> (default, brand, search, viewall, order:<o>, retailer, swap, sell, listing).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { c, fmtMs, info, step, warn } from "./lib/log.mjs";
import { cpuSnapshot } from "./lib/cpu.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { beforeTestCommand, writeDoc } from "./lib/perf-doc.mjs";
import { isPortOpen, onShutdown, run, sleep, startService, waitForHttp } from "./lib/proc.mjs";
import { median, percentile } from "./lib/stats.mjs";
import {
  BENCH_LOGINS,
  BENCH_PASSWORD,
  isSeeded,
  seedLarge,
  startBenchPostgres,
} from "./seed-large.mjs";

const APP_PORT = 3650;
const BASE = `http://localhost:${APP_PORT}`;
const BUILD_DIR = path.join(DATA_DIR, "bench-build");

const arg = (name, dflt) => {
  const a = process.argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (!a) return dflt;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : true;
};
const DURATION = Number(arg("duration", 10));
const BUILD = !arg("no-build", false);
const RESEED = Boolean(arg("reseed", false));
const WRITE = !arg("no-write", false);
const KEEP = Boolean(arg("keep", false));
const ONLY = arg("only", null)?.split(",");
const PROFILE = !arg("no-profile", false);
const PROF_DIR = path.join(DATA_DIR, "bench-logs", "cpu-profile");
const CONCURRENCIES = [1, 16];
const GOAL_C1_P95_MS = 50;
const GOAL_C16_FACTOR = 3;
/** Requests per variant before anything is measured (JIT warm-up), and their concurrency. */
const WARMUP_REQUESTS = Number(arg("warmup", 300));
const WARMUP_CONNECTIONS = 4;

// The marketplace's query parameters (app/routes/buy.tsx, db/queries/marketplace.ts MARKET_ORDERINGS).
const ORDER_PARAM = "ordering";
const ORDERINGS = ["recent", "sku", "-sku", "price", "-price"];

const LOGIN = BENCH_LOGINS.retailers[0]; // retailer 1: authorized for brands 1..10

let pg = null;
let web = null;
async function cleanup() {
  if (KEEP) return;
  await web?.stop({ signal: "SIGTERM", timeoutMs: 8000 }).catch(() => {});
  if (pg && !pg.reused) await pg.stop().catch(() => {});
}
onShutdown(cleanup);

// ------------------------------------------------------------------------------------------------ postgres

async function sqlFor(url, max = 1) {
  const { default: postgres } = await import("postgres");
  return postgres(url, { max, onnotice: () => {}, connect_timeout: 10 });
}

const AUTO_EXPLAIN = {
  logging_collector: "on",
  log_directory: "log",
  log_filename: "bench-postgresql.log",
  log_rotation_size: "0",
  session_preload_libraries: "auto_explain",
  "auto_explain.log_format": "json",
  "auto_explain.log_min_duration": "-1",
  "auto_explain.log_analyze": "on",
  "auto_explain.log_timing": "off",
  "auto_explain.log_nested_statements": "off",
};

/** auto_explain + a log file we can read with pg_read_file; restarts the embedded cluster when needed. */
async function configureAutoExplain(url) {
  let sql = await sqlFor(url);
  let needsRestart = false;
  try {
    await sql`load 'auto_explain'`;
    for (const [k, v] of Object.entries(AUTO_EXPLAIN)) {
      const current = (await sql.unsafe(`select current_setting('${k}', true) as v`))[0]?.v;
      if (current !== v && !(k === "log_rotation_size" && current === "0")) {
        await sql.unsafe(`alter system set ${k} = '${v}'`);
        if (k === "logging_collector") needsRestart = true;
      }
    }
    await sql`select pg_reload_conf()`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (needsRestart) {
    if (!pg)
      throw new Error(
        "logging_collector must be on for the EXPLAIN check: restart the server at BENCH_DATABASE_URL once (ALTER SYSTEM was done)",
      );
    info("restarting the bench Postgres once (logging_collector for auto_explain)");
    await pg.stop();
    const again = await startBenchPostgres();
    pg = again.pg;
  }
  sql = await sqlFor(url);
  try {
    const [{ v }] = await sql`select current_setting('logging_collector') as v`;
    if (v !== "on") throw new Error("logging_collector is still off");
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function setExplain(admin, on) {
  await admin.unsafe(`alter system set auto_explain.log_min_duration = '${on ? 0 : -1}'`);
  await admin`select pg_reload_conf()`;
  await sleep(300); // backends apply SIGHUP before their next statement
}

/** Reads what the server logged since `offset`: [{ durationMs, plan (auto_explain JSON) }], new offset. */
async function readLog(admin, offset) {
  const [{ f }] = await admin`select pg_current_logfile() as f`;
  const [{ size }] = await admin`select (pg_stat_file(${f})).size as size`;
  const n = Number(size);
  if (n <= offset) return { entries: [], offset: n };
  const [{ t }] = await admin`select pg_read_file(${f}, ${offset}, ${n - offset}) as t`;
  const entries = [];
  for (const chunk of t.split(/^(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] )/m)) {
    const m = chunk.match(/LOG:\s+duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/);
    if (!m) continue;
    try {
      entries.push({ durationMs: Number(m[1]), plan: JSON.parse(m[2]) });
    } catch {
      /* a plan split by a concurrent write: skip */
    }
  }
  return { entries, offset: n };
}

function walkPlan(node, fn, depth = 0) {
  if (!node) return;
  fn(node, depth);
  for (const ch of node.Plans ?? []) walkPlan(ch, fn, depth + 1);
}

const MARKET_TABLES = new Set(["listings", "listing_requests"]);
function touchesMarket(entry) {
  let hit = false;
  walkPlan(entry.plan.Plan, (n) => {
    if (MARKET_TABLES.has(n["Relation Name"])) hit = true;
  });
  return hit;
}

function planText(entry) {
  const lines = [];
  walkPlan(entry.plan.Plan, (n, d) => {
    const rel = n["Relation Name"]
      ? ` on ${n["Relation Name"]}${n.Alias && n.Alias !== n["Relation Name"] ? ` ${n.Alias}` : ""}`
      : "";
    const idx = n["Index Name"] ? ` using ${n["Index Name"]}` : "";
    const rows =
      n["Actual Rows"] !== undefined
        ? ` (rows=${n["Actual Rows"]} loops=${n["Actual Loops"]})`
        : "";
    const seq =
      n["Node Type"] === "Seq Scan" && MARKET_TABLES.has(n["Relation Name"])
        ? c.red("  <-- SEQUENTIAL SCAN")
        : "";
    lines.push(`${"  ".repeat(d)}-> ${n["Node Type"]}${rel}${idx}${rows}${seq}`);
  });
  return lines.join("\n");
}

function seqScans(entry) {
  const out = [];
  walkPlan(entry.plan.Plan, (n) => {
    if (n["Node Type"] === "Seq Scan") out.push(n["Relation Name"]);
  });
  return out;
}

// ------------------------------------------------------------------------------------------------ http

let cookie = "";

async function get(urlPath, { headers = {} } = {}) {
  const t = performance.now();
  const res = await fetch(BASE + urlPath, { headers: { cookie, ...headers }, redirect: "manual" });
  const body = await res.text();
  return {
    status: res.status,
    body,
    ms: performance.now() - t,
    location: res.headers.get("location"),
  };
}

async function signIn(email) {
  const res = await fetch(`${BASE}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams({ email, password: BENCH_PASSWORD }),
  });
  const set = res.headers
    .getSetCookie()
    .map((l) => l.split(";")[0])
    .filter((p) => !p.endsWith("="));
  if (res.status !== 302 || set.length === 0)
    throw new Error(
      `sign-in as ${email} failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`,
    );
  cookie = set.join("; ");
}

/**
 * CPU time of the web process and of Postgres (the postmaster with its backends and the children it reaped),
 * from /proc (scripts/lib/cpu.mjs). Backends come and go; the app's pool keeps its connections, so a
 * before/after difference works.
 */
function cpuNow() {
  const pgPid = pg?.pid?.();
  return cpuSnapshot({ web: web?.pid ? [web.pid] : [], postgres: pgPid ? { tree: pgPid } : null });
}

/** Warm-up load, not measured: WARMUP_REQUESTS requests at a small concurrency; fails on errors. */
async function warmUp(urlPath) {
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({
    url: BASE + urlPath,
    connections: WARMUP_CONNECTIONS,
    amount: WARMUP_REQUESTS,
    headers: { cookie },
    timeout: 30,
  });
  if (result.errors + result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `warm-up of ${urlPath}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

async function load(urlPath, connections, seconds) {
  const { default: autocannon } = await import("autocannon");
  const times = [];
  let bad = 0;
  const cpu0 = cpuNow();
  const result = await new Promise((resolve, reject) => {
    const inst = autocannon(
      { url: BASE + urlPath, connections, duration: seconds, headers: { cookie }, timeout: 30 },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    inst.on("response", (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (status < 200 || status >= 300) bad += 1;
    });
  });
  times.sort((a, b) => a - b);
  const cpu1 = cpuNow();
  return {
    webCpuMsPerReq: times.length ? (cpu1.web - cpu0.web) / times.length : NaN,
    pgCpuMsPerReq:
      cpu0.postgres != null && times.length ? (cpu1.postgres - cpu0.postgres) / times.length : NaN,
    requests: times.length,
    rps: times.length / (result.duration || seconds),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    non2xx: bad,
    errors: result.errors + result.timeouts,
    bytes: result.throughput?.average
      ? Math.round(result.throughput.total / Math.max(1, times.length))
      : null,
  };
}

// ------------------------------------------------------------------------------------------------ run

const LOAD_AT_START = os.loadavg()[0];

/** The data set's counts, and the variants to measure (of a brand the signed-in retailer is authorized for). */
async function variantsOf(admin) {
  const [counts] = await admin`
    select (select count(*) from brands)::int brands, (select count(*) from retailers)::int retailers,
           (select count(*) from product_variations)::int variations, (select count(*) from listings)::int listings,
           (select count(*) from listing_requests)::int requests,
           (select count(*) from listings where status = 'active' and total_units > 0 and listing_type = 'sell')::int visible_sell`;
  info(
    `dataset: ${Object.entries(counts)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}`,
  );

  // The variants: brand = one the signed-in retailer is authorized for; search = a product code of that brand.
  const [{ brand_id: brandId }] =
    await admin`select brand_id from retailer_brands where retailer_id = ${LOGIN.retailerId} order by brand_id offset 2 limit 1`;
  const [{ sku }] = await admin`
    select v.sku from listings l join product_variations v on v.id = l.variation_id
    where l.brand_id = ${brandId} and l.status = 'active' and l.total_units > 0 and l.listing_type = 'sell' and l.provider_id <> ${LOGIN.retailerId}
    order by l.id limit 1`;
  const searchTerm = sku.split("-").slice(0, 2).join("-"); // the product code, e.g. "AD-1011" (variation sku minus the colour)
  const [{ listing_id: listingId, provider_id: providerId }] = await admin`
    select id as listing_id, provider_id from listings where brand_id = ${brandId} and status = 'active' and total_units > 0 and listing_type = 'sell'
      and provider_id <> ${LOGIN.retailerId} order by id limit 1`;
  const [{ matches }] =
    await admin`select count(*)::int as matches from listings where sku_key like ${"%" + searchTerm.toLowerCase() + "%"} and status = 'active' and total_units > 0`;

  const variants = [
    { key: "default", label: "/buy/ (default)", path: "/buy/" },
    {
      key: "brand",
      label: `/buy/ brand filter (brand ${brandId})`,
      path: `/buy/?brand=${brandId}`,
    },
    {
      key: "search",
      label: `/buy/ search "${searchTerm}" (${matches} listings match)`,
      path: `/buy/?search=${encodeURIComponent(searchTerm)}`,
    },
    {
      key: "viewall",
      label: `/buy/ brand ${brandId}, viewAll=on (100 cards)`,
      path: `/buy/?brand=${brandId}&viewAll=on`,
    },
    ...ORDERINGS.map((o) => ({
      key: `order:${o}`,
      label: `/buy/ ${ORDER_PARAM}=${o}`,
      path: `/buy/?${ORDER_PARAM}=${encodeURIComponent(o)}`,
    })),
    {
      key: "retailer",
      label: `/buy/ retailer__id=${providerId} (one retailer's listings)`,
      path: `/buy/?retailer__id=${providerId}`,
    },
    { key: "swap", label: "/swap/ (default)", path: "/swap/" },
    { key: "sell", label: "/sell/ (requests)", path: "/sell/" },
    { key: "listing", label: `/listing/buy/${listingId}`, path: `/listing/buy/${listingId}` },
  ].filter((v) => !ONLY || ONLY.includes(v.key));
  const statics = [
    {
      key: "static",
      label: "/pricing (static page, same session)",
      path: "/pricing",
      static: true,
    },
    { key: "healthz", label: "/healthz (Express only)", path: "/healthz", static: true },
  ];
  return { counts, variants, statics };
}

/** The production build (unless --no-build finds one), the app started on APP_PORT and signed in; startWeb(nodeFlags) restarts it. */
async function buildAndStart(url) {
  if (BUILD || !fs.existsSync(path.join(BUILD_DIR, "index.js"))) {
    step("production build (remix build → .data/bench-build)");
    const t = performance.now();
    const r = await run("npx", ["remix", "build"], {
      env: { REMIX_BUILD_DIR: path.relative(ROOT, BUILD_DIR), NODE_ENV: "production" },
      quiet: true,
    });
    if (r.code !== 0) throw new Error(`remix build failed:\n${r.output.slice(-3000)}`);
    info(`built in ${fmtMs(performance.now() - t)}`);
  }
  if (await isPortOpen(APP_PORT))
    throw new Error(`port ${APP_PORT} is taken: stop what listens there`);
  const startWeb = async (nodeFlags = []) => {
    web = startService("web", process.execPath, [...nodeFlags, "workers/web.mjs"], {
      env: {
        NODE_ENV: "production",
        PORT: String(APP_PORT),
        APP_ORIGIN: BASE,
        REMIX_BUILD_DIR: path.relative(ROOT, BUILD_DIR),
        DATABASE_URL: url,
        TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS || "127.0.0.1:7533",
        TEMPORAL_TASK_QUEUE: "bench-marketplace",
        APP_ENV: "local",
      },
      filter: (line) => /error|warn/i.test(line),
    });
    await waitForHttp(`${BASE}/healthz`, { svc: web, timeoutMs: 60_000 });
  };
  step(`starting the app (production) on :${APP_PORT}`);
  await startWeb();
  await signIn(LOGIN.email);
  info(`signed in as ${LOGIN.email} (retailer ${LOGIN.retailerId}, authorized for 10 brands)`);
  return startWeb;
}

/** Each variant's first answer (one not 200 or still a placeholder is noted and left out), then the JIT warm-up. */
async function availableVariants(variants, statics, notes) {
  step(
    `availability, then warm-up (${WARMUP_REQUESTS} requests per variant at c=${WARMUP_CONNECTIONS}, not measured)`,
  );
  const measured = [];
  for (const v of [...variants, ...statics]) {
    const first = await get(v.path);
    if (first.status !== 200) {
      warn(
        `${v.label}: HTTP ${first.status}${first.location ? ` → ${first.location}` : ""}; not measured`,
      );
      notes.push(
        `${v.label}: HTTP ${first.status}${first.location ? ` → ${first.location}` : ""}, not measured`,
      );
      continue;
    }
    if (!v.static && /coming soon/i.test(first.body)) {
      warn(`${v.label}: the page is still a "coming soon" placeholder; not measured`);
      notes.push(`${v.label}: still a placeholder, not measured`);
      continue;
    }
    v.htmlBytes = Buffer.byteLength(first.body);
    measured.push(v);
  }
  // JIT warm-up: without it the first variant measured pays for the compilation of the render and
  // serialization paths every page shares (its c=1 p95/p99 showed it). Every variant, so each one's own
  // code paths (orderings, search, the listing view) are hot too.
  const tWarm = performance.now();
  for (const v of measured) await warmUp(v.path);
  info(`warmed up in ${fmtMs(performance.now() - tWarm)}`);
  return measured;
}

/** A statement plan touching the marketplace's tables, recorded once per distinct plan; a sequential scan fails. */
function notePlan(x, v, e) {
  const text = planText(e);
  const bad = seqScans(e).filter((t) => MARKET_TABLES.has(t));
  if (bad.length)
    x.planFailures.push({ variant: v.label, tables: bad, query: e.plan["Query Text"], plan: text });
  const sig = text.replace(/\(rows=\d+ loops=\d+\)/g, "");
  const same = x.seenPlans.get(sig);
  if (same) {
    if (!same.variants.includes(v.label)) same.variants.push(v.label);
    return;
  }
  const entry = { variants: [v.label], query: e.plan["Query Text"], plan: text, seq: bad };
  x.seenPlans.set(sig, entry);
  x.planReport.push(entry);
}

/** One request of a variant with auto_explain on: its statements' durations; the first one's plans noted. */
async function explainRequest(admin, x, v, rep, { pages, notes }) {
  ({ offset: x.offset } = await readLog(admin, x.offset)); // drop what came before
  const r = await get(v.path);
  if (r.status !== 200) throw new Error(`${v.path}: HTTP ${r.status} during the EXPLAIN phase`);
  await sleep(400);
  const got = await readLog(admin, x.offset);
  x.offset = got.offset;
  const market = got.entries.filter(touchesMarket);
  v.sqlRuns.push({
    allMs: got.entries.reduce((a, e) => a + e.durationMs, 0),
    marketMs: market.reduce((a, e) => a + e.durationMs, 0),
    statements: got.entries.length,
    marketStatements: market.length,
  });
  if (rep > 0) return;
  if (v === pages[0]) {
    console.log(c.bold(`statements of one ${v.label} request:`));
    for (const e of got.entries)
      console.log(
        `  ${e.durationMs.toFixed(2).padStart(7)} ms  ${oneLine(e.plan["Query Text"]).slice(0, 150)}`,
      );
  }
  if (market.length === 0 && !v.static)
    notes.push(`${v.label}: no statement touched listings/listing_requests (check the page)`);
  for (const e of market) notePlan(x, v, e);
  const others = got.entries.filter((e) => !touchesMarket(e)).flatMap(seqScans);
  if (others.length) v.otherSeqScans = [...new Set(others)];
}

/** EXPLAIN: the plans of every statement each page runs; { planReport, planFailures, verdict }. */
async function explainPhase(admin, measured, pages, notes) {
  step(
    "EXPLAIN: the plans of every statement each page runs (auto_explain, one request at a time)",
  );
  const x = {
    offset: (await readLog(admin, 0)).offset,
    planFailures: [],
    planReport: [],
    seenPlans: new Map(),
  };
  await setExplain(admin, true);
  try {
    for (const v of measured.filter((m) => m.key !== "healthz")) {
      v.sqlRuns = [];
      for (let rep = 0; rep < 3; rep++) await explainRequest(admin, x, v, rep, { pages, notes });
    }
  } finally {
    await setExplain(admin, false);
  }
  const { planReport, planFailures } = x;
  for (const p of planReport) {
    console.log(`\n${c.bold(p.variants.join(" | "))}\n${c.dim(oneLine(p.query))}\n${p.plan}`);
  }
  const verdict =
    planFailures.length > 0
      ? "FAIL"
      : pages.length === 0 || planReport.length === 0
        ? "NOT RUN (no marketplace page answered)"
        : "PASS";
  console.log(
    `\n${verdict === "PASS" ? c.green("EXPLAIN: PASS") : c.red(`EXPLAIN: ${verdict}`)} — ${planReport.length} distinct plans touching listings/listing_requests; ` +
      `${planFailures.length} with a sequential scan of listings or listing_requests`,
  );
  for (const v of pages)
    if (v.otherSeqScans)
      info(
        `${v.label}: sequential scans of small tables elsewhere on the page: ${v.otherSeqScans.join(", ")}`,
      );
  return { planReport, planFailures, verdict };
}

/** Where the time goes: 30 sequential requests of each variant, the full page and the loaders alone. */
async function sequentialPhase(measured) {
  step("where the time goes (30 sequential requests each: full page vs loaders only)");
  for (const v of measured) {
    const html = [];
    const data = [];
    const dataPath = v.static && v.key === "healthz" ? null : singleFetchPath(v.path);
    for (let i = 0; i < 30; i++) {
      html.push((await get(v.path)).ms);
      if (dataPath) {
        const r = await get(dataPath);
        if (r.status === 200) data.push(r.ms);
      }
    }
    v.seqHtmlMs = median(html);
    v.seqDataMs = data.length ? median(data) : null;
    v.sqlMs = v.sqlRuns ? median(v.sqlRuns.map((r) => r.allMs)) : null;
    v.marketSqlMs = v.sqlRuns ? median(v.sqlRuns.map((r) => r.marketMs)) : null;
    v.statements = v.sqlRuns?.[0]?.statements ?? null;
  }
}

/** Load: autocannon at each concurrency (c=16 paired with the static page right after). */
async function loadPhase(measured) {
  step(
    `load: autocannon, ${DURATION} s per variant and concurrency (${CONCURRENCIES.join(", ")}), loopback`,
  );
  const staticPath = measured.find((x) => x.key === "static")?.path;
  for (const v of measured) {
    v.load = {};
    for (const conn of CONCURRENCIES) {
      v.load[conn] = await load(v.path, conn, DURATION);
      const l = v.load[conn];
      // The box is shared: the c=16 goal compares with the static page measured right after (paired).
      if (conn === 16 && !v.static && staticPath) {
        v.paired16 = await load(staticPath, 16, Math.max(5, Math.round(DURATION / 2)));
        console.log(
          c.dim(
            `  ${"  paired static /pricing".padEnd(56)} c=16 ${v.paired16.rps.toFixed(1).padStart(7)} req/s  p95 ${ms(v.paired16.p95)}`,
          ),
        );
      }
      console.log(
        `  ${v.label.padEnd(56)} c=${String(conn).padEnd(2)} ${l.rps.toFixed(1).padStart(7)} req/s  p50 ${ms(l.p50)}  p95 ${ms(l.p95)}  p99 ${ms(l.p99)}  CPU/req web ${ms(l.webCpuMsPerReq)} pg ${ms(l.pgCpuMsPerReq)}` +
          (l.non2xx || l.errors ? c.red(`  (${l.non2xx} non-2xx, ${l.errors} errors)`) : ""),
      );
    }
  }
}

/** A CPU profile of the app while it serves the default variant at c=16 (node --cpu-prof); null when not taken. */
async function profilePhase(pages, startWeb) {
  let profile = null;
  const profiled = pages.find((v) => v.key === "default");
  if (PROFILE && profiled) {
    step(`CPU profile of the app: ${profiled.label} at c=16 for ${DURATION} s (node --cpu-prof)`);
    await web.stop({ signal: "SIGTERM", timeoutMs: 8000 });
    fs.rmSync(PROF_DIR, { recursive: true, force: true });
    fs.mkdirSync(PROF_DIR, { recursive: true });
    await startWeb(["--cpu-prof", `--cpu-prof-dir=${PROF_DIR}`]);
    await warmUp(profiled.path);
    const fromUs = Number(process.hrtime.bigint() / 1000n); // CLOCK_MONOTONIC, like V8's profile timestamps
    const l = await load(profiled.path, 16, DURATION);
    const toUs = Number(process.hrtime.bigint() / 1000n);
    await web.stop({ signal: "SIGTERM", timeoutMs: 15000 });
    web = null;
    const file = fs.readdirSync(PROF_DIR).find((f) => f.endsWith(".cpuprofile"));
    if (file) {
      profile = summarizeProfile(
        JSON.parse(fs.readFileSync(path.join(PROF_DIR, file), "utf8")),
        fromUs,
        toUs,
      );
      profile.label = profiled.label;
      profile.rps = l.rps;
      console.log(profileText(profile));
    } else warn("no CPU profile was written");
  }
  return profile;
}

async function main() {
  const t0 = performance.now();
  const notes = [];

  step("Postgres");
  const started = await startBenchPostgres();
  pg = started.pg;
  const url = started.url;
  await configureAutoExplain(url);
  let seed = null;
  if (RESEED || !(await isSeeded(url))) {
    step("seeding the large marketplace (scripts/seed-large.mjs)");
    seed = await seedLarge(url);
  } else {
    info(
      "the bench database is already seeded with the current migrations and seed script (--reseed to redo)",
    );
  }

  const admin = await sqlFor(url);
  await admin`load 'auto_explain'`;
  await admin`set auto_explain.log_min_duration = -1`; // this session's own statements stay out of the log
  try {
    const { counts, variants, statics } = await variantsOf(admin);
    const startWeb = await buildAndStart(url);
    const measured = await availableVariants(variants, statics, notes);
    const pages = measured.filter((v) => !v.static);
    const { planReport, planFailures, verdict } = await explainPhase(admin, measured, pages, notes);
    await sequentialPhase(measured);
    await loadPhase(measured);
    const profile = await profilePhase(pages, startWeb);

    const staticPage = measured.find((v) => v.key === "static");
    const ceiling16 = staticPage?.load?.[16]?.p95 ?? NaN;
    for (const v of pages) {
      v.ceiling16 = v.paired16?.p95 ?? ceiling16;
      v.goalC1 = v.load[1].p95 <= GOAL_C1_P95_MS;
      v.goalC16 = v.load[16].p95 <= GOAL_C16_FACTOR * v.ceiling16;
    }
    const missed = pages.filter((v) => !v.goalC1 || !v.goalC16);
    const report = renderReport({
      measured,
      pages,
      staticPage,
      ceiling16,
      verdict,
      planReport,
      planFailures,
      notes,
      seed,
      counts,
      missed,
      profile,
    });
    console.log(`\n${report}`);
    if (WRITE) {
      writeMarketplaceDoc(report);
      info(`docs/performance.md: Marketplace figures written`);
    }
    info(`benchmark done in ${fmtMs(performance.now() - t0)}`);
    if (planFailures.length) {
      for (const f of planFailures)
        console.error(
          c.red(
            `Seq Scan on ${f.tables.join(", ")} in ${f.variant}:\n${oneLine(f.query)}\n${f.plan}`,
          ),
        );
      process.exitCode = 1;
    }
    if (missed.length) warn(`goals missed by: ${missed.map((v) => v.label).join("; ")}`);
  } finally {
    await admin.end({ timeout: 5 });
    await cleanup();
  }
}

/** Where the web process spent its CPU: self time by component, and the top functions. */
function summarizeProfile(prof, fromUs, toUs) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = prof.timeDeltas ?? [];
  // Only the samples taken while the load ran (not start-up, module loading or shutdown).
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    t += deltas[i] ?? 0;
    if (fromUs !== undefined && (t < fromUs || t > toUs)) continue;
    const id = prof.samples[i];
    self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  }
  const cat = (n) => {
    const url = n.callFrame.url || "";
    const fn = n.callFrame.functionName;
    if (fn === "(idle)") return "idle (waiting for I/O)";
    if (fn === "(garbage collector)") return "garbage collection";
    if (fn === "(program)") return "V8 / native (program)";
    if (/node_modules\/react-dom\//.test(url)) return "React server render (react-dom)";
    if (/node_modules\/turbo-stream\//.test(url)) return "serialization (turbo-stream)";
    if (/node_modules\/postgres\//.test(url)) return "Postgres driver (postgres.js)";
    if (/node_modules\/drizzle-orm\//.test(url)) return "Drizzle (query building, row mapping)";
    if (/node_modules\/(@remix-run|@oslojs|lucia|@lucia-auth)\//.test(url))
      return "Remix runtime / auth libraries";
    if (
      /node_modules\/(express|body-parser|send|router|finalhandler|cookie|qs|on-finished|mime)/.test(
        url,
      )
    )
      return "Express";
    if (/bench-build\/index\.js/.test(url)) return "app code (server build: loaders, components)";
    if (/node_modules\//.test(url)) return "other packages";
    if (/^node:|^internal\//.test(url) || url === "")
      return "Node internals (http, streams, zlib, ...)";
    return "other";
  };
  if (self.size === 0 && fromUs !== undefined) {
    warn(
      "the CPU profile's clock does not match ours: counting the whole profile (start-up included)",
    );
    return summarizeProfile(prof);
  }
  const cats = new Map();
  const fns = new Map();
  let total = 0;
  for (const [id, t] of self) {
    const n = byId.get(id);
    const k = cat(n);
    cats.set(k, (cats.get(k) ?? 0) + t);
    total += t;
    if (k.startsWith("idle")) continue;
    const where = (n.callFrame.url || "")
      .replace(/^.*node_modules\//, "")
      .replace(/^file:\/\/.*\/\.data\//, ".data/");
    const fk = `${n.callFrame.functionName || "(anonymous)"} ${where}:${n.callFrame.lineNumber + 1}`;
    fns.set(fk, (fns.get(fk) ?? 0) + t);
  }
  const busy = total - (cats.get("idle (waiting for I/O)") ?? 0);
  return {
    totalMs: total,
    busyMs: busy,
    categories: [...cats].sort((a, b) => b[1] - a[1]),
    top: [...fns].sort((a, b) => b[1] - a[1]).slice(0, 12),
  };
}

function profileText(p, markdown = false) {
  const pct = (t, of) => `${((100 * t) / of).toFixed(1)} %`;
  const lines = [];
  if (markdown) {
    lines.push(
      `CPU profile of the web process (\`node --cpu-prof\`) while serving ${p.label} at c=16 for ${DURATION} s (${p.rps.toFixed(1)} req/s): ` +
        `busy ${pct(p.busyMs, p.totalMs)} of the time. Self time by component (share of busy time):`,
    );
    lines.push("");
    lines.push("| component | share of busy CPU |");
    lines.push("|---|---|");
    for (const [k, t] of p.categories)
      if (!k.startsWith("idle")) lines.push(`| ${k} | ${pct(t, p.busyMs)} |`);
    lines.push("");
    lines.push(
      "Top functions by self time: " +
        p.top
          .slice(0, 8)
          .map(([k, t]) => `\`${k.trim()}\` ${pct(t, p.busyMs)}`)
          .join(", ") +
        ".",
    );
  } else {
    lines.push(`CPU profile (${p.label}, c=16): busy ${pct(p.busyMs, p.totalMs)}`);
    for (const [k, t] of p.categories)
      lines.push(
        `  ${k.padEnd(48)} ${pct(t, k.startsWith("idle") ? p.totalMs : p.busyMs).padStart(7)}`,
      );
    lines.push("  top functions (self time):");
    for (const [k, t] of p.top) lines.push(`    ${pct(t, p.busyMs).padStart(7)}  ${k}`);
  }
  return lines.join("\n");
}

function singleFetchPath(p) {
  const u = new URL(p, BASE);
  u.pathname = u.pathname === "/" ? "/_root.data" : `${u.pathname.replace(/\/$/, "")}.data`;
  return u.pathname + u.search;
}

const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms`.padStart(9) : "      —  ");
const f1 = (x) => (x == null || !Number.isFinite(x) ? "—" : x.toFixed(1));
const oneLine = (q) =>
  String(q ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 600);

/** The load table: every variant at each concurrency, with its goal. */
function loadTable(measured, staticPage) {
  const lines = [];
  lines.push(
    "| variant | c | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req web | CPU ms/req Postgres | goal |",
  );
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const v of measured) {
    for (const conn of CONCURRENCIES) {
      const l = v.load[conn];
      let goal = "—";
      if (!v.static) {
        const lim = GOAL_C16_FACTOR * v.ceiling16;
        goal =
          conn === 1
            ? l.p95 <= GOAL_C1_P95_MS
              ? "✓ ≤ 50"
              : "✗ > 50"
            : `${l.p95 <= lim ? "✓ ≤" : "✗ >"} 3 × ${f1(v.ceiling16)} (${(l.p95 / v.ceiling16).toFixed(1)}×)`;
      } else if (v === staticPage) goal = "ceiling";
      const bad = l.non2xx || l.errors ? ` (${l.non2xx} non-2xx)` : "";
      lines.push(
        `| ${v.label}${bad} | ${conn} | ${l.rps.toFixed(1)} | ${f1(l.p50)} | ${f1(l.p95)} | ${f1(l.p99)} | ${f1(l.webCpuMsPerReq)} | ${f1(l.pgCpuMsPerReq)} | ${goal} |`,
      );
    }
  }
  return lines;
}

function renderReport({
  measured,
  pages,
  staticPage,
  ceiling16,
  verdict,
  planReport,
  planFailures,
  notes,
  seed,
  counts,
  missed,
  profile,
}) {
  const cpu = os.cpus();
  const lines = [];
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpu.length} cores (${cpu[0]?.model?.trim() ?? "?"}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, load average ${LOAD_AT_START.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end (the box is shared with other work); ` +
      `autocannon ${DURATION} s per row on loopback, the app (\`node workers/web.mjs\`, production build) and Postgres on the same machine.`,
  );
  lines.push("");
  lines.push(
    `Dataset: ${counts.brands} brands, ${counts.retailers.toLocaleString("en-US")} retailers (each authorized for 10 brands), ` +
      `${counts.variations.toLocaleString("en-US")} variations, ${counts.listings.toLocaleString("en-US")} listings ` +
      `(${counts.visible_sell.toLocaleString("en-US")} visible on the buy tab across all brands), ${counts.requests.toLocaleString("en-US")} requests` +
      (seed
        ? `; seeded in ${fmtMs(seed.totalMs)} (${seed.timings
            .filter((t) => /^listing/.test(t.what))
            .map((t) => `${t.what} ${fmtMs(t.ms)}`)
            .join(", ")})`
        : "") +
      `. Signed in as ${LOGIN.email}: /buy/ shows 10 brands × 20 cards.`,
  );
  lines.push("");
  lines.push(...loadTable(measured, staticPage));
  lines.push("");
  lines.push(
    "CPU ms/req: user + system CPU time the web process (and all Postgres processes) spent per answered request during that row " +
      "(from /proc, 10 ms ticks): what a request costs regardless of how busy the shared box was; on 2 idle cores c=1 latency is roughly web + Postgres CPU.",
  );
  lines.push("");
  lines.push(
    `Goals: c=1 p95 ≤ ${GOAL_C1_P95_MS} ms; c=16 p95 ≤ ${GOAL_C16_FACTOR} × the static page's c=16 p95, the static page being measured again ` +
      `right after each variant's c=16 row (${Math.max(5, Math.round(DURATION / 2))} s; the goal column shows that paired p95 and the ratio), because the load on the shared box drifts; ` +
      `the static rows of the table are one measurement (${f1(ceiling16)} ms at c=16). ` +
      (missed.length
        ? `**Missed by ${missed.length} of ${pages.length} variants.**`
        : `**Met by all ${pages.length} variants.**`),
  );
  lines.push("");
  lines.push(
    "Where the time goes (medians of sequential requests, c=1, no load): SQL = the sum of the auto_explain durations of every statement the request ran (marketplace = those reading listings/listing_requests); loaders = the single-fetch `.data` request (every loader + turbo-stream encoding, no HTML); page = the full HTML request.",
  );
  lines.push("");
  lines.push(
    "| variant | HTML KiB | statements | SQL ms (marketplace) | loaders only ms | full page ms | render ≈ page − loaders |",
  );
  lines.push("|---|---|---|---|---|---|---|");
  for (const v of measured) {
    if (v.key === "healthz") continue;
    const render = v.seqDataMs != null ? v.seqHtmlMs - v.seqDataMs : null;
    lines.push(
      `| ${v.label} | ${(v.htmlBytes / 1024).toFixed(0)} | ${v.statements ?? "—"} | ${v.sqlMs != null ? `${f1(v.sqlMs)} (${f1(v.marketSqlMs)})` : "—"} | ${f1(v.seqDataMs)} | ${f1(v.seqHtmlMs)} | ${f1(render)} |`,
    );
  }
  lines.push("");
  if (profile) {
    lines.push(profileText(profile, true));
    lines.push("");
  }
  lines.push(
    `EXPLAIN verdict: **${verdict}** — ${planReport.length} distinct plans of statements touching listings/listing_requests, ` +
      `${planFailures.length} with a sequential scan of listings or listing_requests.`,
  );
  lines.push("");
  lines.push("<details><summary>plans (auto_explain, actual rows)</summary>");
  lines.push("");
  for (const p of planReport) {
    lines.push(`${p.variants.join(", ")}:`);
    lines.push("");
    lines.push("```");
    lines.push(p.plan.replace(/\x1b\[[0-9;]*m/g, ""));
    lines.push("```");
    lines.push("");
  }
  lines.push("</details>");
  if (notes.length) {
    lines.push("");
    lines.push("Notes: " + notes.join("; ") + ".");
  }
  return lines.join("\n");
}

/** The figures into docs/performance.md (their own section, before "## Test command", when missing). */
function writeMarketplaceDoc(report) {
  const section = (block) =>
    "## Marketplace\n\n" +
    "`npm run bench:marketplace` seeds (once) a large marketplace in its own Postgres (`npm run bench:seed`: port 54350, " +
    "`.data/pg-bench`), builds the app in production mode, serves it on :3650, signs in as a retailer and measures /buy/ " +
    "and its variants with autocannon, then rewrites the block below. It also prints the plan of every statement that reads " +
    "listings or listing_requests (auto_explain) and fails on a sequential scan of either.\n\n" +
    `${block}\n`;
  writeDoc({
    key: "marketplace",
    by: "npm run bench:marketplace",
    report,
    place: beforeTestCommand(section),
  });
}

main().catch(async (e) => {
  console.error(c.red(e?.stack ?? String(e)));
  if (web) console.error(c.dim(web.tail()));
  await cleanup();
  process.exit(1);
});

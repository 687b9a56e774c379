#!/usr/bin/env node
// node scripts/bench-reports.mjs — the staff CSV reports on the benchmark data set (scripts/seed-large.mjs:
// 2,000 retailers, 200,000 listings, 50,000 requests) and the retailer map with 2,000 retailers.
//
//  1. Postgres: the bench cluster (.data/pg-bench on :54350, or BENCH_DATABASE_URL), seeded unless it already is.
//     The bench staff user gets the "retailer" permission, and 20,000 sales with a shipment each are added once
//     (the seed has no orders), so every report has rows. The seed puts every retailer around Springfield, IL:
//     the map is centred there.
//  2. The production build in .data/bench-build (--no-build reuses it), `node workers/web.mjs` on :3651.
//  3. Each report is downloaded by streaming (the body is read and dropped as it arrives; rows counted, header
//     checked) while the web process's resident memory (VmRSS in /proc) is sampled every 10 ms: prints rows,
//     bytes, time and peak RSS over the idle baseline. Goal: under +100 MB for each. Then the map at 20 fetches
//     (2,000 dots): the Server-Timing of the page. Exit 1 when a goal is missed.
import fs from "node:fs";
import path from "node:path";
import { fmtMs, info, step, warn } from "./lib/log.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { isPortOpen, onShutdown, run, sleep, startService, waitForHttp } from "./lib/proc.mjs";
import {
  BENCH_LOGINS,
  BENCH_PASSWORD,
  isSeeded,
  seedLarge,
  startBenchPostgres,
} from "./seed-large.mjs";

const APP_PORT = 3651;
const BASE = `http://localhost:${APP_PORT}`;
const BUILD_DIR = path.join(DATA_DIR, "bench-build");
const BUILD = !process.argv.includes("--no-build");
const GOAL_RSS_MB = 100;
const GOAL_MAP_MS = 300;

let pg = null;
let web = null;
onShutdown(async () => {
  await web?.stop({ signal: "SIGTERM", timeoutMs: 8000 }).catch(() => {});
  if (pg && !pg.reused) await pg.stop().catch(() => {});
});

function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The bench Postgres, seeded, with the staff's permission and (once) 20,000 sales with a shipment each; its URL. */
async function prepareData() {
  step("Postgres");
  const started = await startBenchPostgres();
  pg = started.pg;
  const url = started.url;
  if (!(await isSeeded(url))) {
    step("seeding the benchmark data set (scripts/seed-large.mjs)");
    await seedLarge(url);
  }
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`update users set admin_permissions = array['retailer','salesrep']::text[] where email = ${BENCH_LOGINS.staff.email}`;
  // The seed has no orders: 20,000 completed sales with one goods line and one shipment each, once.
  const [{ n: shipments }] = await sql`select count(*)::int n from shipments`;
  if (shipments === 0) {
    info("adding 20,000 sales with a shipment each (the seed has no orders)");
    await sql`insert into orders (external_id, workflow_id, transaction_type, brand_id, provider_id, receiver_id, statename, display_status, stage, completed,
        value_cents, receiver_fee_cents, receiver_shipping_cents, receiver_grand_total_cents, created_at, modified_at)
      select 'BENCH' || g, 'bench-order:' || g, 1, 1 + g % 50, 1 + g % 2000, 1 + (g * 7 + 1) % 2000, 'completed', 'Completed', 'complete', true,
        4250 * (1 + g % 5), 425 * (1 + g % 5), 2375, 4250 * (1 + g % 5) + 425 * (1 + g % 5) + 2375, now() - (g % 400) * interval '1 day', now()
      from generate_series(1, 20000) g`;
    await sql`insert into order_contributions (order_id, side, type, units, quantity, unit_price_cents, value_cents)
      select id, 'provider', 'goods', jsonb_build_object('M', 1 + id % 5), 1 + id % 5, 4250, value_cents from orders where external_id like 'BENCH%'`;
    await sql`insert into shipments (order_id, sender_id, receiver_id, tracking_number, call_tag, status, created_at)
      select id, provider_id, receiver_id, '1ZBENCH' || id, 'CTBENCH' || id, 'delivered', created_at from orders where external_id like 'BENCH%'`;
  }
  const [counts] =
    await sql`select (select count(*) from retailers)::int retailers, (select count(*) from listings)::int listings,
    (select count(*) from listing_requests)::int requests, (select count(*) from retailer_brands)::int links, (select count(*) from shipments)::int shipments`;
  info(
    `dataset: ${Object.entries(counts)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}`,
  );
  await sql.end();
  return url;
}

/** The production build served by `node workers/web.mjs` on APP_PORT, and the staff's session cookie. */
async function startWebSignedIn(url) {
  if (BUILD || !fs.existsSync(path.join(BUILD_DIR, "index.js"))) {
    step("production build (.data/bench-build)");
    const r = await run("npx", ["remix", "build"], {
      env: { REMIX_BUILD_DIR: path.relative(ROOT, BUILD_DIR), NODE_ENV: "production" },
      quiet: true,
    });
    if (r.code !== 0) throw new Error(`remix build failed:\n${r.output.slice(-3000)}`);
  }
  if (await isPortOpen(APP_PORT)) throw new Error(`port ${APP_PORT} is taken`);
  web = startService("web", process.execPath, ["workers/web.mjs"], {
    env: {
      NODE_ENV: "production",
      PORT: String(APP_PORT),
      APP_ORIGIN: BASE,
      REMIX_BUILD_DIR: path.relative(ROOT, BUILD_DIR),
      DATABASE_URL: url,
      APP_ENV: "local",
      TEMPORAL_ADDRESS: "127.0.0.1:7533",
    },
    filter: (line) => /error|warn/i.test(line),
  });
  await waitForHttp(`${BASE}/healthz`, { svc: web, timeoutMs: 60_000 });
  const res = await fetch(`${BASE}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams({ email: BENCH_LOGINS.staff.email, password: BENCH_PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((l) => l.split(";")[0])
    .filter((p) => !p.endsWith("="))
    .join("; ");
  if (res.status !== 302 || !cookie) throw new Error(`staff sign-in failed: ${res.status}`);
  return cookie;
}

/** Each CSV report streamed while the web process's RSS is sampled; false when one missed its goal. */
async function csvPeaks(cookie) {
  let allMet = true;
  const reports = [
    "/admin/reports/shipment-insurance.csv?from=2020-01-01&to=2029-12-31",
    "/admin/reports/monthly-metrics.csv",
    "/admin/reports/brand-inventory.csv",
    "/admin/reports/retailer-brands.csv",
  ];
  // Warm the process (JIT, pools) with one small request of each, then let it settle.
  for (const r of reports) await (await fetch(BASE + r, { headers: { cookie } })).arrayBuffer();
  await sleep(1500);
  step("CSV reports: peak RSS of the web process over its idle baseline");
  for (const r of reports) {
    globalThis.gc?.();
    const base = rssMb(web.pid);
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, rssMb(web.pid))), 10);
    const t = performance.now();
    const resp = await fetch(BASE + r, { headers: { cookie } });
    let bytes = 0;
    let lines = 0;
    let head = "";
    for await (const chunk of resp.body) {
      bytes += chunk.length;
      if (head.length < 400)
        head += Buffer.from(chunk).toString("utf8", 0, Math.min(chunk.length, 400));
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    }
    clearInterval(timer);
    peak = Math.max(peak, rssMb(web.pid));
    const extra = peak - base;
    const ok = resp.status === 200 && extra < GOAL_RSS_MB;
    if (!ok) allMet = false;
    info(
      `${ok ? "ok  " : "FAIL"} ${r.split("?")[0]}: HTTP ${resp.status}, ${(lines - 1).toLocaleString("en-US")} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${fmtMs(performance.now() - t)}; RSS ${base.toFixed(0)} MB -> peak ${peak.toFixed(0)} MB (+${extra.toFixed(1)} MB); header ${head.split("\n")[0]}`,
    );
  }
  return allMet;
}

/** The retailer map's server time over 5 loads; false when it missed its goal. */
async function mapTimes(cookie) {
  step("retailer map, 20 fetches (2,000 dots)");
  // The seed puts its 2,000 retailers around Springfield, IL: the map is centred there.
  const view = "lat=39.8&lon=-89.7&zoom=7&pages=20";
  await fetch(`${BASE}/admin/retailer-map?${view}`, { headers: { cookie } }).then((r) => r.text());
  const times = [];
  for (let i = 0; i < 5; i++) {
    const m = await fetch(`${BASE}/admin/retailer-map?${view}`, { headers: { cookie } });
    const body = await m.text();
    const dots = (body.match(/class="dot"/g) ?? []).length;
    const timing = m.headers.get("server-timing") ?? "";
    times.push(Number(/map;dur=([\d.]+)/.exec(timing)?.[1]));
    if (i === 4) info(`${dots} dots; Server-Timing ${timing}`);
  }
  const worst = Math.max(...times);
  info(
    `map server time (5 runs): ${times.map((t) => t.toFixed(0)).join(", ")} ms (goal < ${GOAL_MAP_MS} ms)`,
  );
  return worst < GOAL_MAP_MS;
}

async function main() {
  const url = await prepareData();
  const cookie = await startWebSignedIn(url);
  const csvOk = await csvPeaks(cookie);
  const mapOk = await mapTimes(cookie);
  if (!csvOk || !mapOk) {
    warn("a goal was missed");
    process.exitCode = 1;
  }
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await web?.stop({ signal: "SIGTERM", timeoutMs: 8000 }).catch(() => {});
    if (pg && !pg.reused) await pg.stop().catch(() => {});
  });

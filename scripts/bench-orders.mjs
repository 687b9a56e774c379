#!/usr/bin/env node
// npm run bench:orders — N purchases through the whole buy flow on the running dev stack (`npm run dev`, or with
// --prod a production build the bench starts itself; modes below),
// driven over HTTP the way a browser's form posts are (issue 4, "Must show": orders per second and p95
// latency from a retailer's click to the page showing the new state).
//
//  1. Data: in the dev database (DATABASE_URL), with the shared factories (tests/factories, as the seed and
//     the tests use them): one brand, one product, and per order an independent pair of retailers with
//     logins (seller with payout and a listing of S×2 M×2, buyer), plus one staff login. Names and e-mails
//     carry a run tag (bench-orders-<tag>-…@bench.test), so re-runs never clash and the demo data is not
//     touched. Sellers put a card on file through /settings/card (the page's form, the card workflow).
//  2. Each order, over HTTP with a cookie-keeping client (tests/e2e/http.ts), every form read from the page
//     the user is on (scripts/lib/html-forms.mjs) and posted as a browser without JavaScript posts it:
//       buyer   /listing/buy/<id> "Add to cart" → /checkout terms → review → "Continue to payment" →
//               pay with the test card 4242… → /buy?ref=checkoutComplete ("Thank you! …")
//       seller  /alerts → the order → "Approve Sale" → /orders shows the order
//       staff   admin order card, Shipping tab: "Simulate pickup" → the card shows state in_route;
//               "Simulate delivery" → state delivered (signed carrier webhook → signal: asynchronous, so
//               the card is reloaded every --poll-ms until it shows the state, as staff would refresh)
//       buyer   the order → /rate/<id> "I received the package" → rating (4 criteria + comments) →
//               "Rating saved!"
//     Per click: from sending the POST until the page the user lands on (redirect followed) shows the new
//     state; split into the action (POST answer), the landing page (GET) and waiting (reloads).
//  3. Prints per step count, p50 / p95 / p99 / max, orders per second (completed orders / wall time of the
//     timed phase), errors; the CPU time the stack's processes (web, worker, Temporal, Postgres) and the
//     rest of the box used meanwhile (/proc); and, from the orders' Temporal histories, where each step's
//     time went inside the workflow (workflow-task and activity queue waits and run times per activity).
//     Exit 1 when an order failed. Figures go into docs/performance.md between <!-- orders:begin --> and
//     <!-- orders:end --> (--no-write skips).
//
// Options: --orders N (20), --concurrency C (default N: all at once), --warmup W (1 order before timing,
// not counted), --poll-ms (250; 50 with --commands-only), --timeout-ms per step (60000), --base-url
// (BENCH_BASE_URL, else http://localhost:3000), --database-url (BENCH_DATABASE_URL / DATABASE_URL, else the dev
// database on 54320), --temporal-address (TEMPORAL_ADDRESS, else 127.0.0.1:7233), --task-queue
// (TEMPORAL_TASK_QUEUE, else marketplace: only to find the worker process for CPU figures), --no-write.
//
// Modes (issue 9; they combine, e.g. --prod --commands-only; the default above is unchanged):
//   --prod               no running stack needed: the bench starts and stops its own production-like one
//                        (scripts/lib/prod-stack.mjs): remix build into .data/bench-orders/build + the workflow
//                        bundle (build/workflow-bundle.js) unless --no-build; fresh embedded Postgres :54360 and
//                        file-backed Temporal dev server :7253 under .data/bench-orders, migrated + demo seed as
//                        `npm run dev` does; the worker and `node workers/web.mjs` (:3200) with NODE_ENV=production,
//                        APP_ENV=staging and throwaway random webhook secrets (the production secret checks run
//                        unchanged). Never collides with `npm run dev`, `npm test` or the other benchmarks.
//                        --base-url / --database-url / --temporal-address are ignored. Figures labelled
//                        "production build".
//   --open-loop RATE --duration S   (e.g. --open-loop 2 --duration 60): order k starts at k/RATE s whatever the
//                        earlier ones are doing (RATE × S orders, each its whole flow, concurrently); prints each
//                        step's p50/p95/max, completed orders, errors, the achieved arrival rate and start lag
//                        (whether the rate was kept), the orders in flight and whether order durations grow.
//   --commands-only      the same orders through the same Remix actions, but only the POSTs: no page is loaded
//                        and no redirect followed; asynchronous steps poll the order's read-model row (orders.
//                        statename, a ratings row for "rate") through the bench's database connection every
//                        --poll-ms. The forms are the warm-up order's (clicked through its pages as above, so it
//                        needs --warmup ≥ 1) with each order's listing and order ids: the workflow ceiling in
//                        orders/s. Each POST goes where the hydrated app's <Form> sends it (Remix single fetch:
//                        <path>.data, the action's data alone, a redirect as 202): no page is rendered. With
//                        --document-posts, the POSTs of a browser without JavaScript instead (the path itself:
//                        an action that answers 200 renders the whole page after it, as before 2026-11-27 08:00).
//   --swaps              swaps instead of purchases (issue 10), full pages, with or without --prod / --open-loop:
//                        per swap a pair of retailers with a swap listing each; the receiver puts the provider's
//                        listing in its swap cart → /checkout terms → /checkout/swap pre-authorises its card →
//                        the provider chooses 1 unit of the receiver's swap listing and approves → the receiver
//                        approves → each side makes its payment → staff simulate both parcels' pickups and
//                        deliveries on the admin card → each side rates what it received. Figures: swaps/s and
//                        click → page showing the new state per step; block <!-- orders-swaps:… -->.
//   --mix                purchases, swaps and returns (issue 14), full pages: the pairs take turns, a purchase (as
//                        above), a swap (as --swaps) and a purchase followed by its RMA: the buyer asks one unit back
//                        through the four steps of /create-rma/<id> ("Missing units", or every second time "Other"
//                        with a text asking to ship it back, which books a return parcel), staff approve it on the admin RMA card (Process RMA →
//                        Confirm), simulate the return parcel's pickup and delivery when there is one, and the RMA
//                        ends refunded and charged (rmacompleted). Block <!-- orders-mix:… -->.
//   --kill-worker-every MS   with --prod (full pages; purchases, --swaps or --mix): a random worker is SIGKILLed
//                        every MS/2..3MS/2 ms and replaced while the orders run; block <!-- orders-kills:… -->.
//                        npm run bench:kills runs 100 kills over --mix. The worker CPU figure counts every worker
//                        that ran (a killed one up to its kill, a replacement with its start-up).
// Every run checks each completed transaction in the read model and at the payment provider (its sandbox objects),
// by kind: a purchase one payment intent captured once, one transfer to the seller, no refund; a swap three
// intents (the receiver's checkout pre-authorisation, cancelled, and each side's payment, captured once), one
// transfer of the cash difference, no refund; an RMA its purchase's objects, plus one refund of the victim on the purchase's intent and
// one charge of the perpetrator's card on file, of the amounts its ledger shows. Anything more is a double.
//   --scale N            with --prod: N web processes (on the ports after :3200) behind a round-robin proxy on
//                        :3200 (scripts/lib/rr-proxy.mjs) and N workers on the one task queue, against the one
//                        Temporal server and Postgres (issue 14: scale-out on one box); block <!-- orders-scale:… -->.
// Each mode writes its own block of docs/performance.md: <!-- orders:… --> (default), <!-- orders-prod:… -->
// (--prod), <!-- orders-open:… --> (--open-loop, with or without --prod), <!-- orders-swaps:… --> (--swaps), <!-- orders-commands:… -->
// (--commands-only, any combination); missing markers are created under "Orders". Every report states the mode,
// the build, the date, the box (cores) and the command, and ends with the figures issue 9 asks for: Temporal
// server CPU per completed order, pay and approve p50 (one at a time with --concurrency 1), orders/s at the
// run's concurrency with every step's p95 (target ≥ 3/s at 20 on the production build), the open loop's p95, and
// the commands-only orders/s (target ≥ 8/s).
//
// Runs under tsx (it imports the TypeScript factories and HTTP client): it re-executes itself with
// `node --import tsx` when started with plain node.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);
/** Stops what the run started (--prod's stack), for an unexpected error. */
let cleanup = null;

// ------------------------------------------------------------------------------------------------ options

function options() {
  const argv = process.argv.slice(2);
  const get = (name, dflt) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i < 0) return dflt;
    const a = argv[i];
    if (a.includes("=")) return a.slice(a.indexOf("=") + 1);
    const next = argv[i + 1];
    return next !== undefined && !next.startsWith("--") ? next : true;
  };
  const int = (name, dflt, min = 0) => {
    const v = Number(get(name, dflt));
    if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return v;
  };
  const num = (name, dflt, min) => {
    const v = Number(get(name, dflt));
    if (!Number.isFinite(v) || v <= min) throw new Error(`--${name} must be a number > ${min}`);
    return v;
  };
  const prod = argv.includes("--prod");
  const commandsOnly = argv.includes("--commands-only");
  const documentPosts = argv.includes("--document-posts");
  if (documentPosts && !commandsOnly) throw new Error("--document-posts is a variant of --commands-only");
  const swaps = argv.includes("--swaps");
  const mix = argv.includes("--mix");
  if (mix && (swaps || commandsOnly)) throw new Error("--mix runs purchases, swaps and returns through full pages: not with --swaps or --commands-only");
  const scale = int("scale", 1, 1);
  if (scale > 1 && !prod) throw new Error("--scale N starts N web processes and N workers of its own: use it with --prod");
  const killEvery = int("kill-worker-every", 0, 0);
  if (killEvery > 0 && (!prod || commandsOnly)) throw new Error("--kill-worker-every MS kills the bench's own workers: use it with --prod and full pages");
  if (swaps && commandsOnly) throw new Error("--swaps runs full pages only (no --commands-only)");
  const openLoop = get("open-loop", null);
  const rate = openLoop === null ? null : num("open-loop", 2, 0);
  const duration = openLoop === null ? null : num("duration", 60, 0);
  // Open loop: the number of orders follows from the rate and the duration; all may be in flight at once.
  const orders = rate ? Math.max(1, Math.round(rate * duration)) : int("orders", 20, 1);
  const warmup = int("warmup", 1, 0);
  if (commandsOnly && warmup < 1) throw new Error("--commands-only needs a warm-up order (--warmup ≥ 1): its forms are the commands' templates");
  return {
    orders,
    concurrency: rate ? orders : Math.min(orders, int("concurrency", orders, 1)),
    warmup,
    // Commands only polls the orders table (cheap) rather than reloading pages.
    pollMs: int("poll-ms", commandsOnly ? 50 : 250, 10),
    timeoutMs: int("timeout-ms", 60_000, 1000),
    baseUrl: String(get("base-url", process.env.BENCH_BASE_URL ?? "http://localhost:3000")).replace(/\/$/, ""),
    databaseUrl: String(get("database-url", process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:54320/marketplace")),
    temporalAddress: String(get("temporal-address", process.env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233")),
    taskQueue: String(get("task-queue", process.env.TEMPORAL_TASK_QUEUE ?? "marketplace")),
    namespace: process.env.TEMPORAL_NAMESPACE ?? "default",
    write: !argv.includes("--no-write"),
    prod,
    build: !argv.includes("--no-build"),
    commandsOnly,
    documentPosts,
    rate,
    duration,
    swaps,
    mix,
    scale,
    killEvery,
    /** The docs/performance.md block this run writes. */
    block: killEvery > 0 ? "orders-kills" : scale > 1 ? "orders-scale" : mix ? "orders-mix" : swaps ? "orders-swaps" : commandsOnly ? "orders-commands" : rate ? "orders-open" : prod ? "orders-prod" : "orders",
    pollGiven: argv.some((a) => a === "--poll-ms" || a.startsWith("--poll-ms=")),
  };
}

/** --mix: what each pair does, in turn. */
const KINDS = ["buy", "swap", "rma"];
const KIND_TEXT = { buy: "purchases", swap: "swaps", rma: "purchases with an RMA" };
/** What the check expects of each kind (checkTransactions). */
const CHECK_TEXT = {
  buy: "a purchase delivered and rated, one payment intent captured once in full, one transfer, no refund, its ledger balanced",
  swap: "a swap rated by both sides, three intents (the pre-authorisation cancelled, each side's payment captured once, of the ledger's dues), one transfer of the cash difference, no refund",
  rma: "an RMA completed, with its purchase as above plus one refund on the purchase's intent and one charge of the perpetrator, both of the RMA ledger's amounts",
};

/** The bench's own production-like stack (--prod): ports and data folder no other script uses. */
const PROD_PORTS = { app: 3200, temporal: 7253, postgres: 54360 };
const PROD_DIR = path.join(path.dirname(SELF), "..", ".data", "bench-orders");

// ------------------------------------------------------------------------------------------------ stats

const now = () => performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN;
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.length ? s[s.length - 1] : NaN, mean };
}
const ms = (v) => (Number.isFinite(v) ? String(Math.round(v)) : "—");
/** A duration for prose: "744 ms", "28.4 s". */
const dur = (v) => (Number.isFinite(v) ? (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`) : "—");
const f0 = (v) => (Number.isFinite(v) ? String(Math.round(v)) : "—");

// ------------------------------------------------------------------------------------------------ /proc

function ssListeners() {
  const r = spawnSync("ss", ["-ltnpH"], { encoding: "utf8" });
  const out = new Map();
  for (const line of (r.stdout || "").split("\n")) {
    const port = line.match(/:(\d+)\s+\S+:\*/)?.[1];
    const pid = line.match(/pid=(\d+)/)?.[1];
    if (port && pid && !out.has(Number(port))) out.set(Number(port), Number(pid));
  }
  return out;
}

function readStat(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = s.slice(s.lastIndexOf(")") + 2).split(" ");
    // fields after the command: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17)
    return { ppid: Number(rest[1]), utime: Number(rest[11]), stime: Number(rest[12]), cutime: Number(rest[13]), cstime: Number(rest[14]) };
  } catch {
    return null;
  }
}

function readEnviron(pid) {
  try {
    return Object.fromEntries(
      fs
        .readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
  } catch {
    return {};
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

/** The stack's processes: web (app port), Temporal (its port), Postgres (postmaster + backends), worker(s). */
function stackProcesses(o) {
  const listeners = ssListeners();
  const appPort = Number(new URL(o.baseUrl).port || 80);
  const pgPort = Number(new URL(o.databaseUrl).port || 5432);
  const temporalPort = Number(o.temporalAddress.split(":").pop());
  const workers = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const pid = Number(d);
    if (!/workers\/main\.ts/.test(cmdline(pid))) continue;
    const env = readEnviron(pid);
    const queue = env.TEMPORAL_TASK_QUEUE ?? "marketplace";
    const addr = env.TEMPORAL_ADDRESS ?? "127.0.0.1:7233";
    if (queue === o.taskQueue && addr.split(":").pop() === String(temporalPort)) workers.push(pid);
  }
  // --scale: the proxy on the app's port and the web processes on the ports after it.
  const web = [appPort, ...Array.from({ length: o.scale > 1 ? o.scale : 0 }, (_, i) => appPort + 1 + i)].map((p) => listeners.get(p)).filter(Boolean);
  return { web, temporal: listeners.get(temporalPort) ?? null, postmaster: listeners.get(pgPort) ?? null, workers };
}

const TICK_MS = 1000 / 100; // USER_HZ

/**
 * How fast this box runs JavaScript right now: a fixed single-threaded workload (serialise, parse and sort
 * 2,000 small rows, 60 times; the best of three), in ms. The same code measured minutes apart on this shared
 * virtual machine varies by ±15 % in CPU per order; the probe, taken just before and just after the timed run,
 * lets a reader tell a slower box from slower code.
 */
function speedProbe() {
  const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row-${i}`, sizes: { S: i % 3, M: i % 5 }, priceCents: (i * 7919) % 10007 }));
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (let k = 0; k < 60; k++) {
      sink += JSON.parse(JSON.stringify(rows)).length;
      sink += [...rows].sort((a, b) => a.priceCents - b.priceCents || a.id - b.id)[0].id;
    }
    best = Math.min(best, performance.now() - t0);
  }
  if (sink < 0) console.log(sink); // keeps the work observable
  return best;
}

/** CPU ms per component (utime + stime), Postgres including its backends and reaped children. */
function cpuSnapshot(procs) {
  const cpu = (pid) => {
    const s = pid ? readStat(pid) : null;
    return s ? (s.utime + s.stime) * TICK_MS : 0;
  };
  let pg = 0;
  if (procs.postmaster) {
    const pm = readStat(procs.postmaster);
    if (pm) pg += (pm.utime + pm.stime + pm.cutime + pm.cstime) * TICK_MS;
    for (const d of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      const s = readStat(Number(d));
      if (s && s.ppid === procs.postmaster) pg += (s.utime + s.stime) * TICK_MS;
    }
  }
  const stat = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const busy = (stat[0] + stat[1] + stat[2] + stat[5] + stat[6] + stat[7]) * TICK_MS;
  return {
    web: procs.web.reduce((a, p) => a + cpu(p), 0),
    worker: procs.workers.reduce((a, p) => a + cpu(p), 0),
    temporal: cpu(procs.temporal),
    postgres: pg,
    bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    box: busy,
  };
}

// ------------------------------------------------------------------------------------------------ main

async function main() {
  const o = options();
  const { c, fmtMs, info, step, warn } = await import("./lib/log.mjs");
  // --prod: the bench's own production-like stack, stopped at the end (and on Ctrl-C).
  let prodStack = null;
  let stopping = null;
  const stopStack = () => (stopping ??= prodStack ? prodStack.stop() : Promise.resolve());
  cleanup = stopStack;
  /** Stops what the bench started, then exits. */
  const finish = async (code) => {
    await stopStack();
    process.exit(code);
  };
  if (o.prod) {
    const { onShutdown } = await import("./lib/proc.mjs");
    const { startProdStack, INHERITED_STACK_VARS } = await import("./lib/prod-stack.mjs");
    onShutdown(async () => {
      warn("interrupted: stopping the bench's stack");
      await stopStack();
    });
    for (const k of INHERITED_STACK_VARS) delete process.env[k];
    try {
      prodStack = await startProdStack({ ports: PROD_PORTS, dataDir: PROD_DIR, build: o.build, taskQueue: "marketplace", scale: o.scale });
    } catch (e) {
      console.error(c.red(`--prod: the production stack did not start: ${e?.stack ?? e}`));
      process.exit(2);
    }
    Object.assign(o, { baseUrl: prodStack.baseUrl, databaseUrl: prodStack.databaseUrl, temporalAddress: prodStack.temporalAddress, taskQueue: "marketplace", namespace: "default" });
  }
  // The HTTP client sends the app's own Origin (the app refuses foreign ones): point it at our base URL.
  process.env.E2E_BASE_URL = o.baseUrl;
  const { HttpClient } = await import("../tests/e2e/http.ts");
  const { createDb } = await import("../db/client.ts");
  const F = await import("../tests/factories/index.ts");
  const { findForm, forms, fill, dataAttr, htmlDecode } = await import("./lib/html-forms.mjs");
  const hasField = (f, name, value) => f.fields.some(([k, v]) => k === name && v === value);

  const health = await fetch(`${o.baseUrl}/signin`).catch((e) => e);
  if (!(health instanceof Response) || health.status !== 200) {
    console.error(c.red(`The app does not answer at ${o.baseUrl}/signin: start the dev stack (npm run dev), pass --base-url, or use --prod.`));
    await finish(2);
  }

  const total = o.orders + o.warmup;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  step(
    `bench-orders ${tag}: ${o.orders} orders (+${o.warmup} warm-up), ${o.rate ? `open loop ${o.rate}/s for ${o.duration} s` : `concurrency ${o.concurrency}`}, ` +
      `${o.commandsOnly ? "commands only" : "full pages"}, ${o.prod ? "production build" : "dev stack"}, app ${o.baseUrl}, poll ${o.pollMs} ms`,
  );

  // --- 1. data -----------------------------------------------------------------------------------------------
  const dbh = createDb(o.databaseUrl, { max: o.commandsOnly ? 8 : 4 });
  const tSetup = now();
  const brand = await F.createBrand(dbh.db, { name: `Bench Orders ${tag}` });
  const coll = await F.createCollection(dbh.db, { brandId: brand.id, name: "Bench" });
  const product = await F.createProduct(dbh.db, { collectionId: coll.id, sizes: F.SIZE_RUNS.apparel, colors: 1, priceCents: 4200 });
  const variationId = product.variations[0].id;
  const staffEmail = `bench-orders-${tag}-staff@bench.test`;
  await F.createStaffUser(dbh.db, { email: staffEmail });
  const pairs = [];
  for (let i = 1; i <= total; i++) {
    const seller = await F.createRetailer(dbh.db, { payout: true, storeName: `Bench Seller ${tag}-${i}`, user: { email: `bench-orders-${tag}-seller${i}@bench.test` } });
    const buyer = await F.createRetailer(dbh.db, { payout: true, storeName: `Bench Buyer ${tag}-${i}`, user: { email: `bench-orders-${tag}-buyer${i}@bench.test` } });
    await F.authorizeBrand(dbh.db, seller.retailer.id, brand.id);
    await F.authorizeBrand(dbh.db, buyer.retailer.id, brand.id);
    // What the pair does: --mix takes turns (purchase, swap, purchase + RMA; the RMAs alternate between
    // "Missing units" (2) and "Other" (4) with a text that asks to ship it back, which books a return parcel).
    const kind = o.mix ? KINDS[(i - 1) % KINDS.length] : o.swaps ? "swap" : "buy";
    const rmaReason = Math.floor((i - 1) / KINDS.length) % 2 === 0 ? 2 : 4;
    // A swap: the seller is its provider, the buyer its receiver; both give goods (swap listings).
    const swap = kind === "swap";
    const listing = await F.createListing(dbh.db, { variationId, providerId: seller.retailer.id, sizes: { S: 2, M: 2 }, ...(swap ? { listingType: "swap" } : {}) });
    const buyerListing = swap ? await F.createListing(dbh.db, { variationId, providerId: buyer.retailer.id, sizes: { L: 2 }, listingType: "swap" }) : null;
    pairs.push({ i, kind, rmaReason, seller: { r: seller.retailer, email: seller.user.email }, buyer: { r: buyer.retailer, email: buyer.user.email }, listingId: listing.id, buyerListingId: buyerListing?.id ?? null });
  }
  info(`${total} seller/buyer pairs, brand ${brand.id} "${brand.name}", listings ${pairs[0].listingId}…${pairs.at(-1).listingId} (${Math.round(now() - tSetup)} ms)`);

  // Sign in everyone (a few at a time: argon2 on the server) and put the sellers' cards on file.
  const staff = new HttpClient(o.baseUrl);
  await staff.signIn(staffEmail, F.DEFAULT_TEST_PASSWORD);
  const limit = async (items, n, fn) => {
    const q = [...items];
    await Promise.all(Array.from({ length: Math.min(n, q.length) }, async () => {
      while (q.length) await fn(q.shift());
    }));
  };
  await limit(pairs, 4, async (p) => {
    p.buyer.http = new HttpClient(o.baseUrl);
    p.seller.http = new HttpClient(o.baseUrl);
    await p.buyer.http.signIn(p.buyer.email, F.DEFAULT_TEST_PASSWORD);
    await p.seller.http.signIn(p.seller.email, F.DEFAULT_TEST_PASSWORD);
    const page = await p.seller.http.get("/settings/card");
    const form = findForm(page.body, { testId: "card-form" });
    if (!form) throw new Error(`seller ${p.i}: no card form on /settings/card (${page.status})`);
    const r = await p.seller.http.postForm(form.action || "/settings/card", fill(form, { card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }));
    const landed = r.location ? await p.seller.http.get(r.location, { follow: true }) : r;
    if (!landed.body.includes('data-testid="card-on-file"')) throw new Error(`seller ${p.i}: the card was not saved (${r.status} ${landed.body.match(/data-testid="card-error"[^>]*>([^<]*)/)?.[1] ?? ""})`);
  });
  info(`signed in ${2 * total + 1} users, ${total} cards on file (${Math.round(now() - tSetup)} ms in all)`);

  // --- 2. the flow --------------------------------------------------------------------------------------------
  const samples = []; // { step, total, action, page, wait, polls, warm }
  const views = []; // page views between clicks (GET), ms
  class StepError extends Error {}
  const BUSY_TEXT = "This order is being updated right now. Please try again in a moment.";

  const stripComments = (html) => html.replace(/<!-- -->/g, "");
  const errorText = (html) =>
    stripComments(html).match(/data-testid="(?:action-error|pay-error|pay-order-error|cart-error|checkout-form-error|admin-error|rate-error|card-error)"[^>]*>([^<]*)/)?.[1] ?? "";

  async function view(http, path, warm) {
    const t0 = now();
    const r = await http.get(path, { follow: true });
    if (!warm) views.push(now() - t0);
    if (r.status !== 200) throw new StepError(`GET ${path}: ${r.status}`);
    return r;
  }

  /**
   * One click: POST the form, follow the redirect to the landing page, then (for asynchronous steps) reload
   * `reload` every pollMs until `shows(html)`. Times: total (click → page shows the state), action, page, wait.
   */
  async function click(ctx, stepName, http, form, values, { shows, reload, expectStatus } = {}) {
    const body = fill(form, values);
    const target = form.action || ctx.pageUrl;
    const t0 = now();
    let r = await http.postForm(target, body);
    // Workflow code before 4edd0e7 refused a command while the previous step was still running (409, "try
    // again in a moment"); a user would click again. Commands now wait instead, so this should count 0: kept
    // so that a regression shows in the "refused busy" column; the time counts from the first click.
    let busy = 0;
    while (r.status === 409 && r.body.includes(BUSY_TEXT) && now() - t0 < o.timeoutMs) {
      busy++;
      await sleep(o.pollMs);
      r = await http.postForm(target, body);
    }
    const tAction = now();
    let landing = r;
    if (r.status >= 300 && r.status < 400 && r.location) landing = await http.get(r.location, { follow: true });
    const tPage = now();
    if (expectStatus && r.status !== expectStatus) throw new StepError(`${stepName}: POST ${target} answered ${r.status}${r.location ? ` → ${r.location}` : ""} ${errorText(r.body)}`);
    if (landing.status !== 200) throw new StepError(`${stepName}: landed on ${landing.url} with ${landing.status} ${errorText(landing.body)}`);
    let polls = 0;
    while (shows && !shows(landing.body)) {
      // A synchronous step (no `reload`) must land on the new state at once.
      if (!reload) throw new StepError(`${stepName}: ${landing.url} does not show the new state ${errorText(landing.body)}`);
      if (now() - t0 > o.timeoutMs) throw new StepError(`${stepName}: the page did not show the new state within ${o.timeoutMs} ms ${errorText(landing.body)}`);
      await sleep(o.pollMs);
      polls++;
      landing = await http.get(reload ?? landing.url, { follow: true });
      if (landing.status !== 200) throw new StepError(`${stepName}: reloading ${reload ?? landing.url} answered ${landing.status}`);
    }
    const tDone = now();
    samples.push({ step: stepName, order: ctx.i, total: tDone - t0, action: tAction - t0, page: tPage - tAction, wait: tDone - tPage, polls, busy, warm: ctx.warm });
    // --commands-only: the warm-up order's forms are the templates of the timed orders' commands.
    if (ctx.capture) {
      const u = new URL(target, o.baseUrl);
      ctx.capture.forms[stepName] = { target: u.pathname + u.search, fields: [...body], expectStatus: expectStatus ?? r.status };
      await captureState(ctx, stepName);
    }
    return landing;
  }

  // ------------------------------------------------------------------ --commands-only
  // The timed orders post the same forms (the warm-up order's, with this order's ids) to the same Remix actions,
  // without following the redirects or loading any page; the new state is read from the order's read-model row
  // (orders.statename, and a rating row for "rate") every pollMs. The states each step must reach are those the
  // warm-up order's pages showed after it (or any later one of the flow).
  const readOrder = async (id) =>
    (await dbh.sql`select o.statename, exists (select 1 from ratings r where r.order_id = o.id) as rated from orders o where o.id = ${id}`)[0] ?? null;

  async function captureState(ctx, stepName) {
    if (!ctx.orderId) return;
    const row = await readOrder(ctx.orderId);
    ctx.capture.states.push({ step: stepName, statename: row?.statename ?? null, rated: Boolean(row?.rated) });
  }

  let templates = null; // { forms: { step: { target, fields, expectStatus } }, states: [{ step, statename, rated }], listingId, orderId }

  /** The warm-up's form for `stepName` with this order's listing and order ids (and a fresh form_id). */
  function commandFor(stepName, p, orderId) {
    const t = templates.forms[stepName];
    if (!t) throw new StepError(`${stepName}: no template (the warm-up order did not post this form)`);
    const W = { order: String(templates.orderId), listing: String(templates.listingId) };
    const swapIn = (s, which, to) => s.replace(new RegExp(`(?<=[/=])${W[which]}(?=$|[&/?#])`, "g"), String(to));
    const swapPath = (s) => (/\/listing\//.test(s) ? swapIn(s, "listing", p.listingId) : orderId ? swapIn(s, "order", orderId) : s);
    const body = new URLSearchParams();
    for (const [k, v] of t.fields) {
      if (k === "form_id") body.append(k, crypto.randomUUID());
      else if (k === "listingId" && v === W.listing) body.append(k, String(p.listingId));
      else if (/^(order|orderId|order_id|id)$/.test(k) && v === W.order && orderId) body.append(k, String(orderId));
      else if (k === "returnTo" || k === "redirectTo") body.append(k, swapPath(v));
      else body.append(k, v);
    }
    const target = swapPath(t.target);
    if (o.documentPosts) return { target, body, expectStatus: t.expectStatus };
    // As Remix's single fetch posts a <Form> (singleFetchUrl): <path>.data ("/" → /_root.data), the query kept;
    // a redirect comes back as 202 with its location in the body.
    const u = new URL(target, o.baseUrl);
    u.pathname = u.pathname === "/" ? "/_root.data" : `${u.pathname.replace(/\/$/, "")}.data`;
    return { target: u.pathname + u.search, body, expectStatus: t.expectStatus === 303 ? 202 : t.expectStatus };
  }

  /** The states step `stepName` may leave the order in: the warm-up's state after it, or any later one. */
  function statesAfter(stepName) {
    const i = templates.states.findIndex((x) => x.step === stepName);
    return i < 0 ? null : new Set(templates.states.slice(i).map((x) => x.statename));
  }

  /** One command: POST (redirect not followed), then poll the read model until it shows the step's state. */
  async function command(ctx, stepName, http, p, { until } = {}) {
    const cmd = commandFor(stepName, p, ctx.orderId);
    const t0 = now();
    let r = await http.postForm(cmd.target, cmd.body);
    let busy = 0;
    while (r.status === 409 && r.body.includes(BUSY_TEXT) && now() - t0 < o.timeoutMs) {
      busy++;
      await sleep(o.pollMs);
      r = await http.postForm(cmd.target, cmd.body);
    }
    const tAction = now();
    if (r.status !== cmd.expectStatus) throw new StepError(`${stepName}: POST ${cmd.target} answered ${r.status}${r.location ? ` → ${r.location}` : ""} ${errorText(r.body)}`);
    let polls = 0;
    if (until) {
      for (;;) {
        const v = await until();
        if (v) break;
        if (now() - t0 > o.timeoutMs) throw new StepError(`${stepName}: the read model did not show the new state within ${o.timeoutMs} ms`);
        polls++;
        await sleep(o.pollMs);
      }
    }
    const tDone = now();
    samples.push({ step: stepName, order: ctx.i, total: tDone - t0, action: tAction - t0, page: 0, wait: tDone - tAction, polls, busy, warm: ctx.warm });
    return r;
  }

  async function runOrderCommands(p) {
    const ctx = { i: p.i, warm: false, orderId: null };
    const t0 = now();
    const buyer = p.buyer.http;
    const seller = p.seller.http;
    const reached = (stepName) => {
      const ok = statesAfter(stepName);
      return async () => {
        const row = await readOrder(ctx.orderId);
        return row && (!ok || ok.has(row.statename)) && (stepName !== "rate" || row.rated);
      };
    };
    try {
      await command(ctx, "add to cart", buyer, p);
      await command(ctx, "accept terms", buyer, p, {
        until: async () => {
          const [row] = await dbh.sql`select id from orders where receiver_id = ${p.buyer.r.id} and provider_id = ${p.seller.r.id} order by id desc limit 1`;
          if (row) ctx.orderId = row.id;
          return row ? reached("accept terms")() : false;
        },
      });
      await command(ctx, "pay", buyer, p, { until: reached("pay") });
      await command(ctx, "approve", seller, p, { until: reached("approve") });
      await command(ctx, "pickup", staff, p, { until: reached("pickup") });
      await command(ctx, "delivery", staff, p, { until: reached("delivery") });
      await command(ctx, "confirm received", buyer, p, { until: reached("confirm received") });
      await command(ctx, "rate", buyer, p, { until: reached("rate") });
      results.push({ i: p.i, kind: "buy", orderId: ctx.orderId, ok: true, ms: now() - t0, warm: false, start: t0 });
    } catch (err) {
      const msg = err instanceof StepError ? err.message : `${err?.stack ?? err}`;
      results.push({ i: p.i, kind: "buy", orderId: ctx.orderId, ok: false, error: msg, ms: now() - t0, warm: false, start: t0 });
      console.error(c.red(`✗ order ${p.i}${ctx.orderId ? ` (#${ctx.orderId})` : ""}: ${msg}`));
    }
  }

  /** Waits (reloading like the user would) until the page shows something; counts as a page view. */
  async function viewUntil(ctx, http, path, shows, what) {
    const t0 = now();
    for (;;) {
      const r = await view(http, path, ctx.warm);
      if (shows(r.body)) return r;
      if (now() - t0 > o.timeoutMs) throw new StepError(`${what}: not shown on ${path} within ${o.timeoutMs} ms`);
      ctx.lagMs = (ctx.lagMs ?? 0) + o.pollMs;
      await sleep(o.pollMs);
    }
  }

  const orderCardOf = (html, id) => {
    const s = stripComments(html);
    const at = s.indexOf(`data-testid="admin-order-card" data-order-id="${id}"`);
    if (at < 0) return "";
    const next = s.indexOf('data-testid="admin-order-card"', at + 10);
    return s.slice(at, next < 0 ? undefined : next);
  };

  const results = []; // { i, orderId, ok, error, ms, warm }

  /** The admin card's section of one side's parcel (a swap ships both ways). */
  const parcelOf = (html, id, side) => {
    const card = orderCardOf(html, id);
    const at = card.indexOf(`data-testid="admin-parcel-${side}"`);
    if (at < 0) return "";
    const end = card.indexOf('data-testid="admin-parcel-', at + 10);
    return card.slice(at, end < 0 ? undefined : end);
  };

  /** One swap through its pages (--swaps): see the header. Steps are named per side. */
  async function runSwap(p, warm) {
    const ctx = { i: p.i, warm, orderId: null, lagMs: 0, capture: null };
    const receiver = p.buyer.http;
    const provider = p.seller.http;
    const t0 = now();
    let at = "start";
    const card = { card_choice: "new", card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" };
    const detail = () => `/transaction/swap/${ctx.orderId}`;
    /** The detail page of `http`, then one of its forms posted; the page it lands on must show `shows`. */
    const onDetail = async (stepName, http, formOf, values, shows, expectStatus = 200, reload = detail()) => {
      at = stepName;
      // The swap's forms come from its workflow: while no worker answers (one was just killed), the page says
      // so ("We could not reach the order service…") and the user reloads it.
      const page = await viewUntil(ctx, http, detail(), (h) => formOf(h) !== null, `${stepName}: the form on the swap's page`);
      const form = formOf(page.body);
      ctx.pageUrl = page.url;
      return click(ctx, stepName, http, form, values, { expectStatus, shows, reload });
    };
    try {
      at = "cart";
      let page = await view(receiver, `/listing/swap/${p.listingId}`, warm);
      let form = findForm(page.body, { intent: "add" });
      if (!form) throw new StepError(`no add-to-cart form on /listing/swap/${p.listingId}`);
      ctx.pageUrl = page.url;
      await click(ctx, "add to cart", receiver, form, { "size.S": 2 }, { expectStatus: 303, shows: (h) => h.includes("Added to your cart.") });

      at = "checkout";
      page = await view(receiver, "/checkout", warm);
      form = findForm(page.body, { testId: "checkout-form" });
      if (!form) throw new StepError("no checkout form on /checkout");
      ctx.pageUrl = page.url;
      page = await click(ctx, "accept terms", receiver, form, { terms: "on" }, { expectStatus: 303, shows: (h) => h.includes('data-testid="swap-review"') });
      ctx.orderId = Number(dataAttr(page.body, "swap-review", "order-id"));
      if (!ctx.orderId) throw new StepError("the swap review shows no order id");

      at = "pay";
      form = findForm(page.body, { testId: "pay-form" });
      if (!form) throw new StepError(`no pay form on ${page.url}`);
      ctx.pageUrl = page.url;
      // Spec 000 §4: the swap checkout lands on /buy with its success notice.
      await click(ctx, "pay", receiver, form, card, { expectStatus: 303, shows: (h) => h.includes("Your swap request was sent to the other retailer.") });

      const status = (h) => htmlDecode(stripComments(h).match(/data-testid="swap-status"[^>]*>([^<]*)/)?.[1] ?? "");
      await onDetail("choose (provider)", provider, (h) => findForm(h, { testId: "swap-choose-form" }), { [`units.${p.buyerListingId}.L`]: 1 }, (h) => h.includes('data-testid="swap-approve-form"'));
      await onDetail("approve (provider)", provider, (h) => findForm(h, { testId: "swap-approve-form" }), { intent: "approve" }, (h) => status(h) === "awaiting retailer's response");
      await onDetail("approve (receiver)", receiver, (h) => findForm(h, { testId: "swap-approve-form" }), { intent: "approve" }, (h) => h.includes('data-testid="swap-pay-form"'));
      // Each payment lands on /orders/sentswaps/, which lists the swap once that side has paid.
      const paid = (h) => h.includes(`data-testid="order-card" data-order-id="${ctx.orderId}"`);
      await onDetail("payment (provider)", provider, (h) => findForm(h, { testId: "swap-pay-form" }), card, paid, 303, "/orders/sentswaps/");
      await onDetail("payment (receiver)", receiver, (h) => findForm(h, { testId: "swap-pay-form" }), card, paid, 303, "/orders/sentswaps/");

      // Staff: each parcel's pickup, then each parcel's delivery, from the admin card's Shipping tab.
      const cardUrl = `/admin/active-transactions?order=${ctx.orderId}&tab=shipping`;
      for (const [stepName, side, event, shown] of [
        ["pickup (provider)", "provider", "picked_up", "In-Route"],
        ["pickup (receiver)", "receiver", "picked_up", "In-Route"],
        ["delivery (provider)", "provider", "delivered", "Delivered"],
        ["delivery (receiver)", "receiver", "delivered", "Delivered"],
      ]) {
        at = stepName;
        page = await viewUntil(ctx, staff, cardUrl, (h) => forms(parcelOf(h, ctx.orderId, side)).length > 0, `${side}'s parcel on the admin card`);
        form = forms(parcelOf(page.body, ctx.orderId, side)).find((f) => hasField(f, "intent", "carrier") && hasField(f, "status", event));
        if (!form) throw new StepError(`no "${event}" carrier form for the ${side}'s parcel`);
        ctx.pageUrl = page.url;
        await click(ctx, stepName, staff, form, {}, { expectStatus: 303, shows: (h) => parcelOf(h, ctx.orderId, side).includes(shown), reload: cardUrl });
      }

      // Each side rates what it received (the modal's fields, posted to /rate/<id>).
      for (const [stepName, http] of [
        ["rate (receiver)", receiver],
        ["rate (provider)", provider],
      ]) {
        at = stepName;
        page = await viewUntil(ctx, http, detail(), (h) => h.includes('data-testid="rate-link"'), `${stepName}: the rate link`);
        page = await view(http, `/rate/${ctx.orderId}`, warm);
        ctx.pageUrl = page.url;
        await click(ctx, stepName, http, { action: "", fields: [["intent", "rate"]] }, { condition: 5, packaging: 4, timeliness: 5, overall: 4, comments: "Bench: well packed." }, {
          expectStatus: 200,
          shows: (h) => h.includes('data-testid="rating-saved"'),
        });
      }
      results.push({ i: p.i, kind: "swap", orderId: ctx.orderId, ok: true, ms: now() - t0, warm, lagMs: ctx.lagMs, start: t0 });
    } catch (err) {
      const msg = err instanceof StepError ? err.message : `${at}: ${err?.stack ?? err}`;
      results.push({ i: p.i, kind: "swap", orderId: ctx.orderId, ok: false, error: msg, ms: now() - t0, warm, start: t0 });
      console.error(c.red(`✗ swap ${p.i}${ctx.orderId ? ` (#${ctx.orderId})` : ""}: ${msg}`));
    }
  }

  async function runOrder(p, warm) {
    if (p.kind === "swap") return runSwap(p, warm);
    if (o.commandsOnly && !warm) return runOrderCommands(p);
    const ctx = { i: p.i, warm, orderId: null, lagMs: 0, capture: o.commandsOnly && warm ? { forms: {}, states: [] } : null };
    const buyer = p.buyer.http;
    const seller = p.seller.http;
    const t0 = now();
    let at = "start";
    try {
      // Buyer: the listing → Add to cart (S×2, M×1).
      at = "cart";
      let page = await view(buyer, `/listing/buy/${p.listingId}`, warm);
      let form = findForm(page.body, { intent: "add" });
      if (!form) throw new StepError(`no add-to-cart form on /listing/buy/${p.listingId}`);
      ctx.pageUrl = page.url;
      await click(ctx, "add to cart", buyer, form, { "size.S": 2, "size.M": 1 }, { expectStatus: 303, shows: (h) => h.includes("Added to your cart.") });

      // /checkout: accept the terms → the review shows the draft order.
      at = "checkout";
      page = await view(buyer, "/checkout", warm);
      form = findForm(page.body, { testId: "checkout-form" });
      if (!form) throw new StepError("no checkout form on /checkout");
      ctx.pageUrl = page.url;
      page = await click(ctx, "accept terms", buyer, form, { terms: "on" }, { expectStatus: 303, shows: (h) => h.includes('data-testid="draft-order"') });
      ctx.orderId = Number(dataAttr(page.body, "draft-order", "order-id"));
      if (!ctx.orderId) throw new StepError("the review shows no order id");
      if (ctx.capture) await captureState(ctx, "accept terms");

      // "Continue to payment" (a link) → /checkout/pay?order=<id> → pay with the test card.
      at = "pay";
      page = await view(buyer, "/checkout/pay", warm);
      form = findForm(page.body, { testId: "pay-form" });
      if (!form) throw new StepError(`no pay form on ${page.url}`);
      ctx.pageUrl = page.url;
      await click(ctx, "pay", buyer, form, { card_choice: "new", card_number: "4242 4242 4242 4242", card_expiry: "12/34", card_cvc: "123" }, {
        expectStatus: 303,
        shows: (h) => h.includes("Thank you! Your order was sent to the seller."),
      });

      // Seller: /alerts (Sales) shows the order → its detail → Approve Sale → /orders lists it.
      at = "approve";
      await viewUntil(ctx, seller, "/alerts?tab=sales", (h) => h.includes(`data-testid="order-card" data-order-id="${ctx.orderId}"`), "the order in the seller's alerts");
      page = await view(seller, `/transaction/buy/${ctx.orderId}`, warm);
      if (dataAttr(page.body, "order-detail", "statename") !== "provider_approve_sale") throw new StepError(`seller's detail in ${dataAttr(page.body, "order-detail", "statename")}, not provider_approve_sale`);
      form = findForm(page.body, { testId: "form-respond" });
      if (!form) throw new StepError("no approve form on the seller's detail");
      ctx.pageUrl = page.url;
      await click(ctx, "approve", seller, form, {}, { expectStatus: 303, shows: (h) => h.includes(`data-testid="order-card" data-order-id="${ctx.orderId}"`) });

      // Staff: the admin order card's Shipping tab → Simulate pickup → the card shows in_route; then delivery.
      for (const [stepName, status, state] of [
        ["pickup", "picked_up", "in_route"],
        ["delivery", "delivered", "delivered"],
      ]) {
        at = stepName;
        const cardUrl = `/admin/active-transactions?order=${ctx.orderId}&tab=shipping`;
        page = await view(staff, cardUrl, warm);
        form = forms(page.body).find((f) => hasField(f, "intent", "carrier") && hasField(f, "status", status) && hasField(f, "order", String(ctx.orderId)));
        if (!form) throw new StepError(`no "${status}" carrier form on the admin card`);
        ctx.pageUrl = page.url;
        await click(ctx, stepName, staff, form, {}, {
          expectStatus: 303,
          shows: (h) => orderCardOf(h, ctx.orderId).includes(`state ${state} ·`),
          reload: cardUrl,
        });
      }

      // Buyer: the order (delivered) → /rate/<id> → I received the package → the rating → "Rating saved!".
      at = "rate";
      page = await view(buyer, `/transaction/buy/${ctx.orderId}`, warm);
      if (!page.body.includes('data-testid="rate-link"')) throw new StepError(`buyer's detail shows no rate link (state ${dataAttr(page.body, "order-detail", "statename")})`);
      page = await view(buyer, `/rate/${ctx.orderId}`, warm);
      form = findForm(page.body, { intent: "confirm_received" });
      if (!form) throw new StepError("no 'I received the package' form on the rating page");
      ctx.pageUrl = page.url;
      page = await click(ctx, "confirm received", buyer, form, {}, { expectStatus: 200, shows: (h) => h.includes("the package is confirmed as received") });
      // The rating form is rendered only after the "Rate this Transaction" button opens the modal (client
      // state): the fields are the modal's (intent=rate, four criteria, comments), posted to the page.
      const rateForm = findForm(page.body, { intent: "rate" }) ?? { action: "", fields: [["intent", "rate"]] };
      await click(ctx, "rate", buyer, rateForm, { condition: 5, packaging: 4, timeliness: 5, overall: 4, comments: "Bench: well packed." }, {
        expectStatus: 200,
        shows: (h) => h.includes('data-testid="rating-saved"'),
      });
      if (p.kind === "rma") {
        at = "rma";
        await runRma(ctx, p);
      }
      results.push({ i: p.i, kind: p.kind, orderId: ctx.orderId, rmaId: ctx.rmaId ?? null, ok: true, ms: now() - t0, warm, lagMs: ctx.lagMs, start: t0 });
      if (ctx.capture) templates = { ...ctx.capture, listingId: p.listingId, orderId: ctx.orderId };
    } catch (err) {
      const msg = err instanceof StepError ? err.message : `${at}: ${err?.stack ?? err}`;
      results.push({ i: p.i, kind: p.kind, orderId: ctx.orderId, rmaId: ctx.rmaId ?? null, ok: false, error: msg, ms: now() - t0, warm, start: t0 });
      console.error(c.red(`✗ ${p.kind === "rma" ? "order + RMA" : "order"} ${p.i}${ctx.orderId ? ` (#${ctx.orderId}${ctx.rmaId ? `, RMA #${ctx.rmaId}` : ""})` : ""}: ${msg}`));
    }
  }

  /**
   * --mix: the buyer of a delivered, rated purchase asks one unit of its first line back (the wizard's four
   * steps, posted as a browser without JavaScript posts them); staff approve it on the admin RMA card; with a
   * return parcel ("Other"), staff simulate its pickup and delivery. It ends refunded and charged.
   */
  async function runRma(ctx, p) {
    const buyer = p.buyer.http;
    const wizard = `/create-rma/${ctx.orderId}`;
    let page = await view(buyer, wizard, ctx.warm);
    let form = findForm(page.body, { testId: "rma-units-form" });
    if (!form) throw new StepError(`no units form on ${wizard}`);
    const units = form.fields.find(([k]) => k.startsWith("q."))?.[0];
    if (!units) throw new StepError(`${wizard} lists no line to return`);
    const line = units.slice(2);
    const other = p.rmaReason === 4;
    const stepOf = (h) => dataAttr(h, "rma-wizard", "step");
    ctx.pageUrl = page.url;
    page = await click(ctx, "rma: units (buyer)", buyer, form, { [units]: 1, [`r.${line}`]: p.rmaReason, [`o.${line}`]: other ? "Bench: not the colour ordered; ship it back." : "" }, {
      expectStatus: 200,
      shows: (h) => stepOf(h) === "pictures",
    });
    form = findForm(page.body, { testId: "rma-pictures-form" });
    page = await click(ctx, "rma: pictures (buyer)", buyer, form, { intent: "continue" }, { expectStatus: 200, shows: (h) => stepOf(h) === "contact" });
    form = findForm(page.body, { testId: "rma-contact-form" });
    const contact = { contact_name: `Bench Buyer ${p.i}`, contact_email: p.buyer.email, contact_phone: "555-0100", packing_slip_name: `Bench ${p.i}` };
    page = await click(ctx, "rma: contact (buyer)", buyer, form, contact, { expectStatus: 200, shows: (h) => stepOf(h) === "confirm" });
    form = findForm(page.body, { testId: "rma-confirm-form" });
    await click(ctx, "rma: request (buyer)", buyer, form, {}, { expectStatus: 303, shows: (h) => h.includes('data-testid="rma-complete"') });
    const [rma] = await dbh.sql`select id from orders where rma_for_id = ${ctx.orderId} and transaction_type = 3`;
    if (!rma) throw new StepError(`no RMA row for order #${ctx.orderId} after "Process RMA"`);
    ctx.rmaId = rma.id;

    // Staff: Process RMA (every line approved) shows the amounts; Confirm sends the decision to the workflow.
    const cardUrl = `/admin/active-rmas?rma=${ctx.rmaId}`;
    const stage = (h) => dataAttr(h, "admin-rma-card", "stage");
    page = await viewUntil(ctx, staff, cardUrl, (h) => findForm(h, { testId: "rma-decision-form" }) !== null, "the RMA's decision form on its admin card");
    form = findForm(page.body, { testId: "rma-decision-form" });
    const decisions = Object.fromEntries(form.fields.filter(([k]) => /^lines\[\d+\]\.id$/.test(k)).map(([k]) => [k.replace(/\.id$/, ".decision"), "approve"]));
    ctx.pageUrl = page.url;
    page = await click(ctx, "rma: review (staff)", staff, form, decisions, { expectStatus: 200, shows: (h) => h.includes('data-testid="rma-review"') });
    form = findForm(page.body, { testId: "rma-review" });
    await click(ctx, "rma: decide (staff)", staff, form, {}, { expectStatus: 303, shows: (h) => stage(h) === (other ? "shipping" : "rmacompleted"), reload: cardUrl });
    if (!other) return;

    // The return parcel: its pickup, then its delivery, from the card's Shipping tab; delivered, the RMA pays out.
    const shipUrl = `${cardUrl}&tab=shipping`;
    for (const [stepName, status, done] of [
      ["rma: return pickup (staff)", "picked_up", (h) => shipmentStatus(h) === "In-Route"],
      ["rma: return delivery (staff)", "delivered", (h) => stage(h) === "rmacompleted"],
    ]) {
      page = await viewUntil(ctx, staff, shipUrl, (h) => h.includes('data-testid="carrier-tools"'), "the return parcel's carrier tools");
      form = forms(page.body).find((f) => hasField(f, "intent", "carrier") && hasField(f, "status", status));
      if (!form) throw new StepError(`no "${status}" carrier form for RMA #${ctx.rmaId}'s return parcel`);
      ctx.pageUrl = page.url;
      await click(ctx, stepName, staff, form, {}, { expectStatus: 303, shows: done, reload: shipUrl });
    }
  }
  const shipmentStatus = (h) => htmlDecode(stripComments(h).match(/data-testid="shipment-status"[^>]*>([^<]*)/)?.[1] ?? "");

  const warmPairs = pairs.slice(0, o.warmup);
  const timedPairs = pairs.slice(o.warmup);
  if (warmPairs.length) {
    step(`warm-up: ${warmPairs.length} order(s) one after the other (not counted)`);
    for (const p of warmPairs) await runOrder(p, true);
    const bad = results.filter((r) => r.warm && !r.ok);
    if (templates) info(c.dim(`command templates from warm-up order #${templates.orderId}; read-model state after each step: ${templates.states.map((x) => `${x.step} → ${x.statename}${x.rated ? " (rated)" : ""}`).join(", ")}`));
    if (bad.length) {
      console.error(c.red("the warm-up order failed: not starting the timed run"));
      await dbh.close();
      await finish(1);
    }
  }

  const procs = stackProcesses(o);
  if (procs.web.length === 0 || !procs.postmaster || !procs.temporal || procs.workers.length === 0) warn(`stack processes found: ${JSON.stringify(procs)}`);
  const speed0 = speedProbe();
  const load0 = os.loadavg();
  const cpu0 = cpuSnapshot(procs);
  const tRun0 = now();
  const arrivals = []; // open loop: { due, lag } ms after the start
  let inFlight = 0;
  let maxInFlight = 0;
  // --kill-worker-every: a worker (a random one of --scale) is SIGKILLed at random moments (uniform between
  // half and one and a half times the interval) and replaced, until the last order is done.
  const kills = [];
  let killing = o.killEvery > 0;
  // A killed worker's CPU, read just before its SIGKILL (its /proc entry goes with it), and the pids of the
  // replacements: the worker figure counts every worker that ran, a replacement's start-up included.
  let killedWorkerCpu = 0;
  const workerPids = killing ? [...prodStack.pids.worker] : [];
  const killer = killing
    ? (async () => {
        while (killing) {
          await sleep(o.killEvery * (0.5 + Math.random()));
          if (!killing) break;
          const worker = Math.floor(Math.random() * prodStack.workerCount);
          const t = now();
          const busy = inFlight;
          const before = readStat(workerPids[worker]);
          killedWorkerCpu += before ? (before.utime + before.stime) * TICK_MS : 0;
          workerPids[worker] = await prodStack.killWorker(worker);
          kills.push({ at: t - tRun0, worker, inFlight: busy, restartMs: now() - t });
          info(c.dim(`killed worker ${worker + 1} at ${((t - tRun0) / 1000).toFixed(1)} s with ${busy} orders in flight; its replacement polled after ${fmtMs(now() - t)}`));
        }
      })()
    : null;
  if (o.rate) {
    // Open loop: order k starts at k / rate seconds, whatever the earlier ones are doing.
    const interval = 1000 / o.rate;
    step(`timed: open loop, a new order every ${Math.round(interval)} ms (${o.rate}/s) for ${o.duration} s = ${timedPairs.length} orders`);
    const running = [];
    let done = 0;
    for (let k = 0; k < timedPairs.length; k++) {
      const due = k * interval;
      const wait = tRun0 + due - now();
      if (wait > 0) await sleep(wait);
      arrivals.push({ due, lag: now() - tRun0 - due });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      running.push(
        runOrder(timedPairs[k], false).finally(() => {
          inFlight--;
          done++;
        }),
      );
      if ((k + 1) % Math.max(1, Math.round(o.rate * 10)) === 0) info(c.dim(`${k + 1}/${timedPairs.length} started, ${done} finished, ${inFlight} in flight (${((now() - tRun0) / 1000).toFixed(1)} s)`));
    }
    info(c.dim(`all ${timedPairs.length} started; waiting for the ${inFlight} in flight`));
    await Promise.all(running);
  } else {
    step(`timed: ${timedPairs.length} orders, ${o.concurrency} at a time`);
    const q = [...timedPairs];
    let done = 0;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (q.length) {
          inFlight++;
          await runOrder(q.shift(), false);
          inFlight--;
          done++;
          if (done % Math.max(1, Math.floor(timedPairs.length / 4)) === 0) info(c.dim(`${done}/${timedPairs.length} orders (${((now() - tRun0) / 1000).toFixed(1)} s)`));
        }
      }),
    );
  }
  killing = false;
  await killer;
  const wallMs = now() - tRun0;
  if (o.killEvery > 0) procs.workers = workerPids;
  const cpu1 = cpuSnapshot(procs);
  cpu1.worker += killedWorkerCpu;
  const load1 = os.loadavg();
  const speed1 = speedProbe();

  // --- 3. read model check + Temporal histories ---------------------------------------------------------------
  const timed = results.filter((r) => !r.warm);
  const completed = timed.filter((r) => r.ok);
  const failed = timed.filter((r) => !r.ok);
  const ids = completed.map((r) => r.orderId);
  // Each completed transaction in the read model and at the payment provider, by kind (see the header).
  const checked = await checkTransactions(dbh, completed);
  for (const p of checked.problems) console.error(c.red(`✗ ${p}`));
  await dbh.close();

  // The histories' breakdown names the buy workflow's updates: purchases only.
  const buyIds = completed.filter((r) => r.kind === "buy").map((r) => r.orderId);
  const breakdown = !buyIds.length || o.mix ? null : await temporalBreakdown(o, buyIds).catch((e) => {
    warn(`Temporal histories not read: ${e?.message ?? e}`);
    return null;
  });

  // --- 4. report ----------------------------------------------------------------------------------------------
  const BUY_STEPS = ["add to cart", "accept terms", "pay", "approve", "pickup", "delivery", "confirm received", "rate"];
  const SWAP_STEPS = [
    "add to cart", "accept terms", "pay", "choose (provider)", "approve (provider)", "approve (receiver)", "payment (provider)", "payment (receiver)",
    "pickup (provider)", "pickup (receiver)", "delivery (provider)", "delivery (receiver)", "rate (receiver)", "rate (provider)",
  ];
  const RMA_STEPS = [
    "rma: units (buyer)", "rma: pictures (buyer)", "rma: contact (buyer)", "rma: request (buyer)", "rma: review (staff)", "rma: decide (staff)",
    "rma: return pickup (staff)", "rma: return delivery (staff)",
  ];
  // --mix: a purchase's steps (its add to cart, terms and pay also count the swaps'), the swaps' own, the RMAs'.
  const STEPS = o.mix ? [...BUY_STEPS, ...SWAP_STEPS.filter((x) => !BUY_STEPS.includes(x)), ...RMA_STEPS] : o.swaps ? SWAP_STEPS : BUY_STEPS;
  const rows = STEPS.map((s) => {
    const xs = samples.filter((x) => x.step === s && !x.warm);
    return {
      step: s,
      total: summary(xs.map((x) => x.total)),
      action: summary(xs.map((x) => x.action)),
      page: summary(xs.map((x) => x.page)),
      wait: summary(xs.map((x) => x.wait)),
      polls: xs.reduce((a, x) => a + x.polls, 0),
      busy: xs.reduce((a, x) => a + x.busy, 0),
    };
  });
  const clicksAll = summary(samples.filter((x) => !x.warm).map((x) => x.total));
  const viewsAll = summary(views);
  const orderMs = summary(completed.map((r) => r.ms));
  const busyTotal = samples.filter((x) => !x.warm).reduce((a, x) => a + x.busy, 0);
  const ops = completed.length / (wallMs / 1000);
  const cpuUsed = Object.fromEntries(Object.keys(cpu0).map((k) => [k, cpu1[k] - cpu0[k]]));
  const stackMs = cpuUsed.web + cpuUsed.worker + cpuUsed.temporal + cpuUsed.postgres;
  const others = Math.max(0, cpuUsed.box - stackMs - cpuUsed.bench);

  const lines = [];
  const cpuInfo = os.cpus();
  const cmd = commandLine(o);
  const stackText = o.prod
    ? `against the bench's own **production build** (${o.baseUrl}: ${o.scale > 1 ? `**${o.scale} web processes** (:${prodStack.webPorts.join(", :")}) behind a round-robin proxy (scripts/lib/rr-proxy.mjs), each ` : ""}\`NODE_ENV=production node workers/web.mjs\` serving \`remix build\` output; ${o.scale > 1 ? `**${o.scale} workers**` : "worker"} \`NODE_ENV=production\` ` +
      `with workflows ${prodStack.workflows === "prebuilt bundle" ? "from the prebuilt bundle (build/workflow-bundle.js)" : `**${prodStack.workflows}** (the bundle was missing or older than the sources)`}, ` +
      `task queue \`${o.taskQueue}\`; its own Temporal dev server ${o.temporalAddress} (file-backed, fresh) and Postgres ${new URL(o.databaseUrl).port} (fresh, migrated + demo seed); ` +
      `APP_ENV=staging with throwaway webhook secrets, sandbox payments)`
    : `against the running \`npm run dev\` stack (${o.baseUrl}: remix dev build, worker on task queue \`${o.taskQueue}\`, Temporal dev server ${o.temporalAddress}, Postgres ${new URL(o.databaseUrl).port})`;
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpuInfo.length} cores (${cpuInfo[0]?.model?.trim() ?? "?"}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${stackText}; load average ` +
      `${load0[0].toFixed(1)} at the start and ${load1[0].toFixed(1)} at the end (the box is shared with other work); ` +
      `speed probe (a fixed JavaScript workload, lower = faster box) ${Math.round(speed0)} ms before the run and ${Math.round(speed1)} ms after.`,
  );
  lines.push("");
  const modeText = o.rate
    ? `open loop: a new order started every ${Math.round(1000 / o.rate)} ms (${o.rate} orders/s) for ${o.duration} s, each running its whole flow on its own`
    : `closed loop: ${o.concurrency} at a time`;
  const flowText = o.mix
    ? "purchases, swaps and purchases followed by an RMA in turn (a purchase 8 clicks; a swap 14; an RMA 4 wizard steps by the buyer, Process RMA and Confirm by staff and, every second one, the return parcel's pickup and delivery), no think time"
    : o.swaps
    ? "each swap 14 clicks by the receiver, the provider and staff (pre-authorisation, choice, both approvals, both payments, both pickups and deliveries, both ratings), no think time"
    : o.commandsOnly
    ? `each order 8 commands: the POSTs of the same forms to the same Remix actions, ${o.documentPosts ? "as a browser without JavaScript sends them (an action that answers 200 renders its page)" : "as the hydrated app's forms send them (single fetch, <path>.data: the action's data alone, no page rendered)"}, redirects not followed and no page loaded; asynchronous steps polled in the order's read-model row every ${o.pollMs} ms`
    : "each order 8 clicks and 9 page views by three users, no think time";
  const unit = o.commandsOnly ? "command" : "click";
  const noun = o.mix ? "transactions" : o.swaps ? "swaps" : "orders";
  lines.push(
    `\`${cmd}\` (${o.commandsOnly ? "**commands only**" : "full pages"}, ${o.rate ? "**open loop**" : "closed loop"}, ${o.prod ? "**production build**" : "dev build"}): ` +
      `**${completed.length} of ${timed.length} ${noun} completed in ${(wallMs / 1000).toFixed(1)} s = ` +
      `${ops.toFixed(2)} ${noun}/s**, ${modeText} (${flowText}; ${o.warmup} warm-up order before${o.commandsOnly ? ", clicked through its pages: its forms are the commands' templates" : ""}). ` +
      `Every ${unit}: p50 ${dur(clicksAll.p50)}, **p95 ${dur(clicksAll.p95)}**, max ${dur(clicksAll.max)}. ` +
      (o.commandsOnly ? "" : `Page views between clicks (GET, ${viewsAll.n}): p50 ${dur(viewsAll.p50)}, p95 ${dur(viewsAll.p95)}. `) +
      `One ${o.mix ? "transaction from its" : o.swaps ? "swap from the receiver's" : "order from the buyer's"} first ${unit} to ${o.commandsOnly ? "its rating in the read model" : '"Rating saved!"'}: p50 ${dur(orderMs.p50)}, p95 ${dur(orderMs.p95)}. ` +
      `Errors: ${failed.length}${busyTotal ? ` (and ${busyTotal} ${busyTotal === 1 ? unit : `${unit}s`} refused with "This order is being updated right now. Please try again in a moment." and sent again, counted in their step's time)` : ""}. ` +
      `Checked afterwards in the read model and at the payment provider: **${checked.ok} of ${completed.length}** exactly as expected ` +
      `(${Object.entries(checked.kinds).map(([k, v]) => `${KIND_TEXT[k]} ${v.ok} of ${v.n}`).join(", ")}: ${Object.keys(checked.kinds).map((k) => CHECK_TEXT[k]).join("; ")}), ` +
      `**${checked.doubles} with a second authorisation, capture, transfer, refund or charge**.`,
  );
  if (o.killEvery > 0) {
    const restart = summary(kills.map((k) => k.restartMs));
    lines.push("");
    lines.push(
      `Worker kills: **${kills.length} SIGKILLs** (one every ${o.killEvery / 2}–${(o.killEvery * 3) / 2} ms at random, of a random one of the ${prodStack.workerCount} worker${prodStack.workerCount > 1 ? "s" : ""}), ` +
        `with ${summary(kills.map((k) => k.inFlight)).p50} order(s) in flight at the median kill (${kills.filter((k) => k.inFlight > 0).length} kills with at least one); a replacement polled after p50 ${fmtMs(restart.p50)}, max ${fmtMs(restart.max)}. ` +
        `Step latencies below include the retries a kill forces (an activity in flight is retried after its timeout; a workflow task after the workflow task timeout), and the worker CPU figures count only the first processes.`,
    );
  }
  if (o.rate) {
    const lag = summary(arrivals.map((x) => x.lag));
    const span = arrivals.length > 1 ? (arrivals.at(-1).due + arrivals.at(-1).lag - arrivals[0].lag) / 1000 : 0;
    const achieved = span > 0 ? (arrivals.length - 1) / span : NaN;
    const kept = arrivals.length === timed.length && (arrivals.length < 2 || achieved >= 0.97 * o.rate) && lag.max < 1000 / o.rate;
    const thirds = [0, 1, 2].map((t) => summary(timed.filter((_, k) => Math.floor((3 * k) / timed.length) === t && timed[k].ok).map((r) => r.ms)).p50);
    lines.push("");
    lines.push(
      `Arrivals: ${arrivals.length} orders started at ${Number.isFinite(achieved) ? achieved.toFixed(2) : "—"} orders/s against ${o.rate} asked; start lag behind the schedule p50 ${ms(lag.p50)} ms, ` +
        `p95 ${ms(lag.p95)} ms, max ${ms(lag.max)} ms: **arrival rate ${kept ? "kept" : "NOT kept"}**. Orders in flight at most ${maxInFlight}; ` +
        `completions ${ops.toFixed(2)} orders/s over the whole run (arrivals + drain). One order's duration, p50 of the first / middle / last third of the arrivals: ` +
        `${dur(thirds[0])} / ${dur(thirds[1])} / ${dur(thirds[2])} (growing = the stack does not keep up with the rate).`,
    );
  }
  lines.push("");
  lines.push(
    o.commandsOnly
      ? `Latency from the command (POST sent) to the read model showing the new state, ms; action = until the POST's answer (redirect not followed), wait = polling the order's row every ${o.pollMs} ms until it shows the state:`
      : "Latency from the click (POST sent) to the page showing the new state, ms; action = until the POST's answer, page = the landing page (redirect followed), wait = reloading every " + `${o.pollMs} ms until the state shows:`,
  );
  lines.push("");
  lines.push(`| step (who) | count | p50 | p95 | p99 | max | action p50 | page p50 | wait p50 / p95 | ${o.commandsOnly ? "polls" : "reloads"} | refused busy |`);
  lines.push("|---|---|---|---|---|---|---|---|---|---|---|");
  const WHO = o.mix
    ? { "add to cart": "buyer or receiver", "accept terms": "buyer or receiver", pay: "buyer or receiver", approve: "seller", pickup: "staff", delivery: "staff", "confirm received": "buyer", rate: "buyer" }
    : o.swaps
    ? { "add to cart": "receiver", "accept terms": "receiver", pay: "receiver" }
    : { "add to cart": "buyer", "accept terms": "buyer", pay: "buyer", approve: "seller", pickup: "staff", delivery: "staff", "confirm received": "buyer", rate: "buyer" };
  for (const r of rows) {
    lines.push(
      `| ${r.step}${WHO[r.step] ? ` (${WHO[r.step]})` : r.step.startsWith("pickup") || r.step.startsWith("delivery") ? " (staff)" : ""} | ${r.total.n} | ${ms(r.total.p50)} | **${ms(r.total.p95)}** | ${ms(r.total.p99)} | ${ms(r.total.max)} | ${ms(r.action.p50)} | ${o.commandsOnly ? "—" : ms(r.page.p50)} | ${ms(r.wait.p50)} / ${ms(r.wait.p95)} | ${r.polls} | ${r.busy} |`,
    );
  }
  lines.push("");
  const pctOf = (v) => `${((100 * v) / Math.max(1, cpuUsed.box)).toFixed(0)} %`;
  lines.push(
    `CPU during the timed run (${(wallMs / 1000).toFixed(1)} s × ${cpuInfo.length} cores = ${((wallMs * cpuInfo.length) / 1000).toFixed(0)} core-s; from /proc): ` +
      `web ${(cpuUsed.web / 1000).toFixed(1)} s, worker ${(cpuUsed.worker / 1000).toFixed(1)} s, Temporal ${(cpuUsed.temporal / 1000).toFixed(1)} s, ` +
      `Postgres ${(cpuUsed.postgres / 1000).toFixed(1)} s, this script ${(cpuUsed.bench / 1000).toFixed(1)} s, everything else on the box ${(others / 1000).toFixed(1)} s ` +
      `(box busy ${(cpuUsed.box / 1000).toFixed(1)} s: stack ${pctOf(stackMs)}, others ${pctOf(others)}). ` +
      (completed.length ? `Per completed order: web ${f0(cpuUsed.web / completed.length)} ms, worker ${f0(cpuUsed.worker / completed.length)} ms, Temporal ${f0(cpuUsed.temporal / completed.length)} ms, Postgres ${f0(cpuUsed.postgres / completed.length)} ms of CPU.` : ""),
  );
  lines.push("");
  lines.push(
    o.mix
      ? `Mixed figures: **${ops.toFixed(2)} transactions/s** (${o.rate ? `open loop ${o.rate}/s` : `${o.concurrency} at a time`}, ${o.prod ? "production build" : "dev build"}); click → page showing the new state p95 **${ms(clicksAll.p95)} ms**; Temporal server CPU per completed transaction **${completed.length ? f0(cpuUsed.temporal / completed.length) : "—"} ms**.`
      : o.swaps
      ? `Issue 10 figures: **${ops.toFixed(2)} swaps/s** (${o.rate ? `open loop ${o.rate}/s` : `${o.concurrency} at a time`}, ${o.prod ? "production build" : "dev build"}); click → page showing the new state p95 **${ms(clicksAll.p95)} ms** (every step's in the table); Temporal server CPU per completed swap **${completed.length ? f0(cpuUsed.temporal / completed.length) : "—"} ms**.`
      : issue9Text(o, { rows, ops, completed, cpuUsed, clicksAll, prodWorkflows: prodStack?.workflows }),
  );
  if (breakdown) {
    lines.push("");
    lines.push(breakdownText(breakdown));
  }
  if (failed.length) {
    lines.push("");
    lines.push("Failed orders:");
    for (const f of failed) lines.push(`- order ${f.i}${f.orderId ? ` (#${f.orderId})` : ""}: ${f.error.split("\n")[0]}`);
  }
  if (checked.problems.length) {
    lines.push("");
    lines.push("Found by the check afterwards:");
    for (const p of checked.problems) lines.push(`- ${p}`);
  }
  const report = lines.join("\n");
  console.log("");
  console.log(report);
  console.log("");

  if (o.write) {
    writeDoc(report, o.block);
    info(c.dim(`figures written to docs/performance.md (<!-- ${o.block}:begin --> … <!-- ${o.block}:end -->)`));
  }
  await finish(failed.length > 0 || completed.length === 0 || checked.problems.length > 0 ? 1 : 0);
}

// ------------------------------------------------------------------------------------------------ checks

/**
 * Each completed transaction (the results of one kind: buy, swap or rma) in the read model and at the payment
 * provider, whose sandbox keeps every object it made (sandbox_payment_objects): intents by metadata.order_id,
 * transfers by transfer_group, refunds by metadata.order_id (an RMA's refund names the RMA). Expected:
 * - buy: its purchase delivered and rated; one intent, captured once in full; one transfer; no refund; ledger balanced.
 * - swap: rated by both sides; three intents (the receiver's pre-authorisation cancelled, each side's payment
 *   captured once, of the dues its ledger shows); one transfer of the cash difference (none when even); no refund.
 * - rma: its purchase as a buy; the RMA rmacompleted with one refund on the purchase's intent and one charge of
 *   the perpetrator (an intent captured at once), of the amounts the RMA's ledger shows; no transfer.
 * More objects than expected is a double; fewer, or another amount, a miss: both are problems.
 */
async function checkTransactions(dbh, done) {
  const sql = dbh.sql;
  const out = { ok: 0, doubles: 0, problems: [], kinds: {} };
  if (!done.length) return out;
  const ids = [...done.map((r) => r.orderId), ...done.filter((r) => r.rmaId).map((r) => r.rmaId)];
  const rows = new Map(
    (await sql`select o.id, o.statename, o.stage, o.ledger, (select count(*) from ratings r where r.order_id = o.id)::int as ratings from orders o where o.id = any(${ids})`).map((r) => [r.id, r]),
  );
  // The provider's objects of each order, as the reliability tests read them (db/queries/payments).
  const { sandboxObjectsOfOrders } = await import("../db/queries/payments.ts");
  const objects = await sandboxObjectsOfOrders(dbh.db, ids); // an entry (maybe empty lists) for every id
  const objectsOf = (id) => {
    const { intents: xs, transfers, refunds } = objects.get(id);
    return {
      intents: xs.length,
      captured: xs.filter((d) => d.status === "succeeded" && d.amount_received === d.amount).length,
      cancelled: xs.filter((d) => d.status === "canceled").length,
      transfers: transfers.length,
      refunds: refunds.length,
    };
  };
  const differs = (got, want) => Object.keys(want).filter((k) => got[k] !== want[k]);
  const PURCHASE = { intents: 1, captured: 1, cancelled: 0, transfers: 1, refunds: 0 };
  // A swap's transfer: the cash difference, paid out to the side with the larger goods (none when even).
  const swapWanted = (ledger) => ({ intents: 3, captured: 2, cancelled: 1, transfers: !ledger?.callItEven && ledger?.differenceCents > 0 ? 1 : 0, refunds: 0 });
  const RMA = { intents: 1, captured: 1, cancelled: 0, transfers: 0, refunds: 1 };
  for (const r of done) {
    const problems = [];
    const k = (out.kinds[r.kind] ??= { n: 0, ok: 0 });
    k.n += 1;
    const order = rows.get(r.orderId);
    const what = r.kind === "swap" ? `swap #${r.orderId}` : `order #${r.orderId}`;
    let double = false;
    const expect = (id, name, want) => {
      const got = objectsOf(id);
      const bad = differs(got, want);
      if (bad.length) problems.push(`${name}: at the provider ${bad.map((b) => `${b} ${got[b]} (expected ${want[b]})`).join(", ")}`);
      if (bad.some((b) => got[b] > want[b])) double = true;
    };
    if (r.kind === "swap") {
      if (!order || order.ratings < 2) problems.push(`${what}: ${order?.ratings ?? 0} ratings, not 2`);
      const ledger = order?.ledger ?? {};
      expect(r.orderId, what, swapWanted(ledger));
      // The provider's amounts are the ledger's: each side's payment its due, the transfer the difference.
      const paid = objects.get(r.orderId).intents.filter((d) => d.status === "succeeded").map((d) => d.amount_received).sort((a, b) => a - b);
      const due = [ledger.providerDueCents, ledger.receiverDueCents].sort((a, b) => a - b);
      if (paid.join() !== due.join()) problems.push(`${what}: the sides paid ${paid.join(" and ")}, the ledger says ${due.join(" and ")}`);
      const sent = objects.get(r.orderId).transfers.map((d) => d.amount);
      if (sent.length === 1 && sent[0] !== ledger.differenceCents) problems.push(`${what}: transferred ${sent[0]}, the ledger's difference is ${ledger.differenceCents}`);
    } else {
      if (!order || !["delivered", "completed"].includes(order.statename) || order.ratings < 1) problems.push(`${what}: ${order?.statename ?? "no row"}, ${order?.ratings ?? 0} ratings`);
      if (order?.ledger?.balanced !== true) problems.push(`${what}: its ledger does not balance`);
      expect(r.orderId, what, PURCHASE);
    }
    if (r.kind === "rma") {
      const rma = rows.get(r.rmaId);
      const name = `RMA #${r.rmaId} of order #${r.orderId}`;
      if (!rma || rma.stage !== "rmacompleted") problems.push(`${name}: stage ${rma?.stage ?? "no row"}, not rmacompleted`);
      expect(r.rmaId, name, RMA);
      const refund = objects.get(r.rmaId).refunds[0];
      const charge = objects.get(r.rmaId).intents[0];
      const purchaseIntent = objects.get(r.orderId).intents[0];
      const ledger = rma?.ledger ?? {};
      if (refund && (refund.amount !== ledger.victimRefundCents || refund.payment_intent !== purchaseIntent?.id)) problems.push(`${name}: refund of ${refund.amount} on ${refund.payment_intent}, the ledger says ${ledger.victimRefundCents} on ${purchaseIntent?.id}`);
      if (charge && charge.amount !== ledger.perpetratorChargeCents) problems.push(`${name}: charge of ${charge.amount}, the ledger says ${ledger.perpetratorChargeCents}`);
    }
    if (double) out.doubles += 1;
    if (problems.length) out.problems.push(...problems);
    else {
      out.ok += 1;
      k.ok += 1;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ report helpers

/** The command that reproduces this run (normalised: every option that shapes it, defaults included). */
function commandLine(o) {
  const a = [];
  if (o.prod) a.push("--prod");
  if (o.prod && !o.build) a.push("--no-build");
  if (o.scale > 1) a.push(`--scale ${o.scale}`);
  if (o.killEvery > 0) a.push(`--kill-worker-every ${o.killEvery}`);
  if (o.commandsOnly) a.push("--commands-only");
  if (o.documentPosts) a.push("--document-posts");
  if (o.swaps) a.push("--swaps");
  if (o.mix) a.push("--mix");
  if (o.rate) a.push(`--open-loop ${o.rate}`, `--duration ${o.duration}`);
  else a.push(`--orders ${o.orders}`, `--concurrency ${o.concurrency}`);
  if (o.pollGiven) a.push(`--poll-ms ${o.pollMs}`);
  if (o.timeoutMs !== 60_000) a.push(`--timeout-ms ${o.timeoutMs}`);
  return `npm run bench:orders -- ${a.join(" ")}`;
}

/**
 * The figures issue 9 asks these modes to show, each with the configuration it was measured in; a target is
 * judged only when the run's configuration is the one the target names.
 */
function issue9Text(o, { rows, ops, completed, cpuUsed, clicksAll, prodWorkflows }) {
  const total = (name) => rows.find((r) => r.step === name)?.total ?? summary([]);
  const verdict = (ok) => (ok ? "**met**" : "**not met**");
  const build = o.prod ? "production build" : "dev build";
  const parts = [];
  parts.push(`Temporal server CPU per completed order: **${completed.length ? f0(cpuUsed.temporal / completed.length) : "—"} ms** (${build})`);
  const oneAtATime = !o.rate && o.concurrency === 1;
  parts.push(
    `pay p50 **${ms(total("pay").p50)} ms**, approve p50 **${ms(total("approve").p50)} ms** ` +
      (oneAtATime ? `one order at a time (${build}${o.commandsOnly ? ", commands only" : ""})` : `at ${o.rate ? `${o.rate} arrivals/s` : `${o.concurrency} concurrent orders`} (the one-at-a-time figure needs \`--concurrency 1\`)`),
  );
  if (!o.rate && !o.commandsOnly) {
    const slowest = rows.reduce((m, r) => (Number.isFinite(r.total.p95) && (!m || r.total.p95 > m.total.p95) ? r : m), null);
    const target = o.prod && o.scale === 1 && o.concurrency === 20 && prodWorkflows === "prebuilt bundle";
    parts.push(
      `**${ops.toFixed(2)} orders/s** at ${o.concurrency} concurrent orders on the ${build}, every step's p95 in the table (slowest: ${slowest ? `${slowest.step} ${ms(slowest.total.p95)} ms` : "—"}); ` +
        `target ≥ 3 orders/s at 20 concurrent orders on the production build: ${target ? verdict(ops >= 3) : "not this configuration (needs `--prod --orders 20 --concurrency 20`, one web process and one worker)"}`,
    );
  }
  if (o.rate) parts.push(`open loop ${o.rate}/s for ${o.duration} s (${build}${o.commandsOnly ? ", commands only" : ""}): every ${o.commandsOnly ? "command" : "click"} p95 **${ms(clicksAll.p95)} ms**, per step in the table`);
  if (o.commandsOnly) {
    parts.push(
      `commands only: **${ops.toFixed(2)} orders/s** ${o.rate ? `at ${o.rate} arrivals/s` : `at ${o.concurrency} concurrent orders`} (${build}); target ≥ 8 orders/s: ` +
        (o.rate ? "not this configuration (closed loop measures the ceiling)" : verdict(ops >= 8)),
    );
  }
  return `Issue 9 figures: ${parts.join("; ")}.`;
}

// ------------------------------------------------------------------------------------------------ Temporal

/** Event time in ms. */
function evMs(e) {
  const t = e.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
}
/** The JSON text of an activity's input payloads (json/plain), for matching. */
function payloadText(input) {
  try {
    return (input?.payloads ?? []).map((p) => Buffer.from(p.data ?? []).toString("utf8")).join("\n");
  } catch {
    return "";
  }
}
/** The event's kind from its attributes field (activityTaskScheduledEventAttributes → activityTaskScheduled). */
function evKind(e) {
  for (const k of Object.keys(e)) if (k.endsWith("EventAttributes") && e[k]) return k.slice(0, -"EventAttributes".length);
  return "";
}
function evAttrs(e) {
  return e[`${evKind(e)}EventAttributes`] ?? {};
}

const UPDATE_STEP = { completeCheckout: "pay", approveSale: "approve", confirmReceived: "confirm received", rateOrder: "rate" };

/**
 * From each order's history: the window of every step inside Temporal (update: from the workflow task that
 * admitted it to UpdateCompleted; carrier signal: from Signaled to the end of the first read-model write
 * after it), and what filled it: workflow tasks (queue wait + run) and activities (queue wait + run, by
 * activity type).
 */
async function temporalBreakdown(o, orderIds) {
  if (orderIds.length === 0) return null;
  const { Client, Connection } = await import("@temporalio/client");
  const { buyWorkflowId } = await import("../workflows/buy/contract.ts");
  const connection = await Connection.connect({ address: o.temporalAddress });
  const client = new Client({ connection, namespace: o.namespace });
  const steps = new Map(); // step -> [{ window, wftWait, wftRun, actWait, actRun, activities }]
  const activities = new Map(); // type -> { wait: [], run: [] }
  const wftWait = [];
  const wftRun = [];
  const retries = []; // activity attempts after the first: { order, type, attempt, failure }
  try {
    for (const id of orderIds) {
      const h = await client.workflow.getHandle(buyWorkflowId(id)).fetchHistory();
      const ev = h.events ?? [];
      const byId = new Map(ev.map((e) => [Number(e.eventId), e]));
      // Workflow tasks and activities as intervals.
      const wfts = [];
      const acts = [];
      const locals = []; // local activities (e.g. recordOrderState): a marker at the end of their workflow task
      if (process.env.BENCH_ORDERS_DUMP_HISTORY && id === orderIds[0]) fs.writeFileSync(process.env.BENCH_ORDERS_DUMP_HISTORY, JSON.stringify(ev, null, 1));
      for (const e of ev) {
        const k = evKind(e);
        const a = evAttrs(e);
        if (k === "markerRecorded") {
          const text = Object.values(a.details ?? {}).map(payloadText).join("\n");
          const type = text.match(/"activity_?[tT]ype"\s*:\s*"([^"]+)"/)?.[1];
          if (type) locals.push({ type, e: evMs(e) });
        }
        if (k === "workflowTaskCompleted" || k === "workflowTaskFailed" || k === "workflowTaskTimedOut") {
          const sched = byId.get(Number(a.scheduledEventId));
          const started = byId.get(Number(a.startedEventId));
          if (sched && started) wfts.push({ s: evMs(sched), st: evMs(started), e: evMs(e) });
        }
        if (k === "activityTaskStarted" && Number(a.attempt ?? 1) > 1) {
          const sched = byId.get(Number(a.scheduledEventId));
          retries.push({ order: id, type: sched ? evAttrs(sched).activityType?.name : "?", attempt: Number(a.attempt), failure: a.lastFailure?.message ?? "?" });
        }
        if (k === "activityTaskCompleted" || k === "activityTaskFailed" || k === "activityTaskTimedOut") {
          const sched = byId.get(Number(a.scheduledEventId));
          const started = byId.get(Number(a.startedEventId));
          if (sched && started) {
            const type = evAttrs(sched).activityType?.name ?? "?";
            acts.push({ type, s: evMs(sched), st: evMs(started), e: evMs(e), input: payloadText(evAttrs(sched).input) });
          }
        }
      }
      for (const w of wfts) {
        wftWait.push(w.st - w.s);
        wftRun.push(w.e - w.st);
      }
      for (const a of acts) {
        if (!activities.has(a.type)) activities.set(a.type, { wait: [], run: [] });
        activities.get(a.type).wait.push(a.st - a.s);
        activities.get(a.type).run.push(a.e - a.st);
      }
      // Step windows.
      const windows = [];
      let carrierSeen = 0;
      for (let i = 0; i < ev.length; i++) {
        const e = ev[i];
        const k = evKind(e);
        const a = evAttrs(e);
        if (k === "workflowExecutionUpdateAccepted") {
          const name = a.acceptedRequest?.input?.name;
          const step = UPDATE_STEP[name];
          if (!step) continue;
          const updateId = a.protocolInstanceId ?? a.acceptedRequest?.meta?.updateId;
          // The admitting workflow task: the last one scheduled before the acceptance.
          let start = evMs(e);
          for (let j = i - 1; j >= 0; j--) if (evKind(ev[j]) === "workflowTaskScheduled") { start = evMs(ev[j]); break; }
          const done = ev.slice(i + 1).find((x) => evKind(x) === "workflowExecutionUpdateCompleted" && (evAttrs(x).meta?.updateId === updateId || !updateId));
          if (done) windows.push({ step, s: start, e: evMs(done) });
        }
        if (k === "workflowExecutionSignaled" && a.signalName === "carrierEvent") {
          const step = carrierSeen++ === 0 ? "pickup" : "delivery";
          // The write that shows the step's state (a delivery may arrive while the pickup's writes still run).
          const state = step === "pickup" ? "in_route" : "delivered";
          const write = acts
            .filter((x) => x.type === "recordOrderState" && x.s >= evMs(e) && x.input.includes(`"statename":"${state}"`))
            .sort((x, y) => x.e - y.e)[0];
          // Since the read-model write became a local activity: its marker, the first after the signal.
          const local = write ? null : locals.find((x) => x.type === "recordOrderState" && x.e >= evMs(e));
          if (write) windows.push({ step, s: evMs(e), e: write.e });
          else if (local) windows.push({ step, s: evMs(e), e: local.e });
        }
      }
      for (const w of windows) {
        const inW = (x) => x.s >= w.s && x.e <= w.e;
        const ws = wfts.filter(inW);
        const as = acts.filter(inW);
        const entry = {
          window: w.e - w.s,
          wftWait: ws.reduce((t, x) => t + (x.st - x.s), 0),
          wftRun: ws.reduce((t, x) => t + (x.e - x.st), 0),
          wfts: ws.length,
          actWait: as.reduce((t, x) => t + (x.st - x.s), 0),
          actRun: as.reduce((t, x) => t + (x.e - x.st), 0),
          acts: [...as.map((x) => x.type), ...locals.filter((x) => x.e >= w.s && x.e <= w.e).map((x) => `${x.type} (local)`)],
        };
        if (!steps.has(w.step)) steps.set(w.step, []);
        steps.get(w.step).push(entry);
      }
    }
  } finally {
    await connection.close().catch(() => {});
  }
  return { steps, activities, retries, wftWait: summary(wftWait), wftRun: summary(wftRun), orders: orderIds.length };
}

function breakdownText(b) {
  const out = [];
  out.push(
    `Inside Temporal (from the ${b.orders} orders' histories; ms, medians unless marked): the step's window = update: from the workflow task that admitted it to UpdateCompleted; ` +
      "carrier event: from Signaled to the end of the read-model write (recordOrderState) of the new state (in_route, delivered; when recordOrderState runs as a local activity, to the marker of the first one after the signal). Local activities are listed “(local)”: their time is inside the workflow tasks'. Activities run one after the other, each costing a workflow task to schedule the next.",
  );
  out.push("");
  out.push("| step | window p50 | window p95 | workflow tasks: count, queue + run each, in all | activities: queue + run, in all | activities in the window |");
  out.push("|---|---|---|---|---|---|");
  for (const step of ["pay", "approve", "pickup", "delivery", "confirm received", "rate"]) {
    const xs = b.steps.get(step) ?? [];
    if (!xs.length) continue;
    const med = (f) => summary(xs.map(f)).p50;
    const names = xs[0].acts.reduce((m, a) => m.set(a, (m.get(a) ?? 0) + 1), new Map());
    out.push(
      `| ${step} | ${ms(med((x) => x.window))} | ${ms(summary(xs.map((x) => x.window)).p95)} | ${f0(med((x) => x.wfts))}, ${ms(med((x) => x.wftWait / Math.max(1, x.wfts)))} + ${ms(med((x) => x.wftRun / Math.max(1, x.wfts)))}, ${ms(med((x) => x.wftWait + x.wftRun))} | ` +
        `${ms(med((x) => x.actWait))} + ${ms(med((x) => x.actRun))}, ${ms(med((x) => x.actWait + x.actRun))} | ${[...names].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ")} |`,
    );
  }
  out.push("");
  out.push(
    `Every workflow task of these orders: queue wait p50 ${ms(b.wftWait.p50)} / p95 ${ms(b.wftWait.p95)}, run p50 ${ms(b.wftRun.p50)} / p95 ${ms(b.wftRun.p95)} (${b.wftWait.n} tasks). ` +
      (b.retries.length
        ? `Activity attempts after a first one: ${b.retries.length} (${b.retries.map((r) => `order #${r.order} ${r.type} attempt ${r.attempt} after "${r.failure}"`).join("; ")}).`
        : "No activity needed a second attempt."),
  );
  out.push("");
  out.push("| activity | count | queue wait p50 / p95 | run p50 / p95 |");
  out.push("|---|---|---|---|");
  for (const [type, v] of [...b.activities].sort((x, y) => summary(y[1].run).p50 * y[1].run.length - summary(x[1].run).p50 * x[1].run.length)) {
    const w = summary(v.wait);
    const r = summary(v.run);
    out.push(`| ${type} | ${r.n} | ${ms(w.p50)} / ${ms(w.p95)} | ${ms(r.p50)} / ${ms(r.p95)} |`);
  }
  return out.join("\n");
}

// ------------------------------------------------------------------------------------------------ docs

/** What each block of docs/performance.md holds (for the markers the script creates when missing). */
const BLOCK_TITLES = {
  orders: "Default: the running dev stack, full pages, closed loop",
  "orders-prod": "`--prod`: the production build, full pages, closed loop",
  "orders-open": "`--open-loop RATE --duration S`: open loop",
  "orders-commands": "`--commands-only`: the commands alone (the workflow ceiling)",
  "orders-swaps": "`--swaps`: swaps, full pages (issue 10)",
  "orders-scale": "`--prod --scale 2`: two web processes behind a round-robin proxy and two workers (issue 14)",
  "orders-mix": "`--mix`: purchases, swaps and returns in turn, full pages (issue 14)",
  "orders-kills": "`--prod --kill-worker-every MS`: workers SIGKILLed at random moments while purchases, swaps and returns run (issue 14)",
};

function writeDoc(report, key = "orders") {
  const file = path.join(path.dirname(SELF), "..", "docs", "performance.md");
  let doc = fs.readFileSync(file, "utf8");
  const begin = `<!-- ${key}:begin (written by npm run bench:orders) -->`;
  const block = `${begin}\n${report}\n<!-- ${key}:end -->`;
  const re = new RegExp(`<!-- ${key}:begin[^>]*-->[\\s\\S]*?<!-- ${key}:end -->`);
  if (re.test(doc)) doc = doc.replace(re, () => block);
  else if (key !== "orders" && /<!-- orders:end -->/.test(doc)) {
    // A mode's block goes under the Orders section, after the blocks already there.
    const ends = [...doc.matchAll(/<!-- orders(?:-[a-z]+)?:end -->/g)];
    const at = ends.at(-1).index + ends.at(-1)[0].length;
    doc = `${doc.slice(0, at)}\n\n#### ${BLOCK_TITLES[key]}\n\n${block}${doc.slice(at)}`;
  } else if (key === "orders") {
    const section =
      "## Orders\n\n" +
      "`npm run bench:orders` runs purchases through the whole buy flow on the running dev stack, over HTTP as a browser's form posts " +
      "(scripts/bench-orders.mjs: data from the shared factories with a run tag, then per order buyer, seller and staff clicks), and rewrites the block below.\n\n" +
      `${block}\n`;
    doc = /\n## Test command/.test(doc) ? doc.replace(/\n## Test command/, `\n${section}\n## Test command`) : doc.trimEnd() + "\n\n" + section;
  } else doc = `${doc.trimEnd()}\n\n## Orders\n\n#### ${BLOCK_TITLES[key]}\n\n${block}\n`;
  fs.writeFileSync(file, doc);
}

// ------------------------------------------------------------------------------------------------ start

if (!process.env.BENCH_ORDERS_UNDER_TSX) {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_ORDERS_UNDER_TSX: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await main().catch(async (e) => {
    console.error(e?.stack ?? e);
    await cleanup?.();
    process.exit(1);
  });
}

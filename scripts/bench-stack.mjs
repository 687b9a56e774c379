#!/usr/bin/env node
// npm run bench:stack — starts the development stack exactly as `npm run dev` does (same code:
// scripts/lib/stack.mjs) and prints:
//   cold start   no data (fresh Postgres cluster + Temporal db, migrations + seed from zero) and no
//                Remix build or build cache; tools and node_modules ARE cached (rebuilding the Go tools
//                takes many minutes and is not what a developer pays on a normal start)
//   warm start   the same again with the data and build kept
// each until http://localhost:<port>/signin answers, then the resident memory (VmRSS, plus PSS which
// does not double-count shared pages) of every process of the warm stack and the sum.
// It writes the figures into docs/performance.md between <!-- stack:begin --> and <!-- stack:end -->
// (skip with --no-write).
//
// To run beside a live `npm run dev` it uses its own ports and data folder (.data/bench):
// Postgres 54340, Temporal 7293 / UI 8293, app 3900, and builds into .data/bench/build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { c, fmtMs, info, step, warn } from "./lib/log.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { writeDoc } from "./lib/perf-doc.mjs";
import { onShutdown, sleep } from "./lib/proc.mjs";
import { ensureNodeModules, ensureTemporal } from "./lib/tools.mjs";

const PORTS = { postgres: 54340, temporal: 7293, temporalUi: 8293, app: 3900 };
const BENCH_DIR = path.join(DATA_DIR, "bench");
const BUILD_DIR = path.join(BENCH_DIR, "build");
const write = !process.argv.includes("--no-write");

// The stack reads these; the bench must not inherit a developer's overrides.
for (const k of ["DATABASE_URL", "TEMPORAL_ADDRESS", "APP_ORIGIN", "TEMPORAL_UI_URL"])
  delete process.env[k];
process.env.REMIX_BUILD_DIR = path.relative(ROOT, BUILD_DIR);

let stack = null;
onShutdown(async () => {
  await stack?.stop();
});

// ------------------------------------------------------------------ /proc helpers

function procStatus(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const get = (k) => s.match(new RegExp(`^${k}:\\s+(.+)$`, "m"))?.[1];
    return {
      name: get("Name"),
      ppid: Number(get("PPid")),
      rssKiB: Number((get("VmRSS") ?? "0 kB").split(/\s+/)[0]),
    };
  } catch {
    return null;
  }
}

function pssKiB(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return Number(s.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function cmdline(pid) {
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .filter(Boolean)
      .map((a) => a.replace(ROOT + "/", ""))
      .join(" ");
  } catch {
    return "";
  }
}

/** pid plus every descendant. */
function tree(rootPid) {
  const children = new Map();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const st = procStatus(Number(d));
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(d));
  }
  const out = [];
  const walk = (p) => {
    out.push(p);
    for (const ch of children.get(p) ?? []) walk(ch);
  };
  walk(rootPid);
  return out;
}

function describe(pid) {
  const cmd = cmdline(pid);
  const st = procStatus(pid);
  if (/postgres: /.test(cmd)) return cmd.replace(/^postgres: /, "postgres: ").slice(0, 60);
  if (/temporal server start-dev/.test(cmd)) return "temporal server start-dev (server + UI)";
  if (/@remix-run\/dev\/dist\/cli\.js dev/.test(cmd)) return "remix dev (compiler, watcher)";
  if (/workers\/web\.mjs/.test(cmd)) return "node workers/web.mjs (web server)";
  if (/remix-serve|@remix-run\/serve/.test(cmd)) return "remix-serve (web server)";
  if (/workers\/main\.ts/.test(cmd)) return "node --import tsx workers/main.ts (worker)";
  if (/esbuild/.test(cmd)) return "esbuild service (remix dev)";
  if (/^\S*postgres -D/.test(cmd)) return "postgres (postmaster)";
  return `${st?.name ?? "?"}: ${cmd.slice(0, 50)}`;
}

function memoryTable(services) {
  const rows = [];
  const seen = new Set();
  const roots = [
    ...services.filter((s) => s.pid),
    { name: "orchestrator", pid: process.pid, self: true },
  ];
  for (const s of roots) {
    const pids = s.self ? [s.pid] : tree(s.pid);
    for (const pid of pids) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      const st = procStatus(pid);
      if (!st || st.rssKiB === 0) continue;
      rows.push({
        service: s.name,
        pid,
        what: s.self ? "node scripts/dev.mjs equivalent (this script)" : describe(pid),
        rssKiB: st.rssKiB,
        pssKiB: pssKiB(pid),
      });
    }
  }
  return rows;
}

const mib = (kib) => (kib / 1024).toFixed(0);

// ------------------------------------------------------------------ run

async function timedStart(label) {
  const { startDevStack } = await import("./lib/stack.mjs");
  step(`${label} start...`);
  const t0 = Date.now();
  stack = await startDevStack({
    ports: PORTS,
    dataDir: BENCH_DIR,
    reuse: false,
    logDir: path.join(BENCH_DIR, "logs"),
  });
  const ms = Date.now() - t0;
  info(`${label} start: ${c.bold(fmtMs(ms))} until /signin answered`);
  return ms;
}

async function waitForWorker(timeoutMs = 60_000) {
  const log = path.join(BENCH_DIR, "logs", "worker.log");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (/state: 'RUNNING'|RUNNING/.test(fs.readFileSync(log, "utf8"))) return true;
    } catch {
      /* not yet */
    }
    await sleep(500);
  }
  return false;
}

await ensureNodeModules();
await ensureTemporal();

step(
  `cold start: removing ${path.relative(ROOT, BENCH_DIR)} (Postgres cluster, Temporal db, Remix build + cache)`,
);
fs.rmSync(BENCH_DIR, { recursive: true, force: true });
const cold = await timedStart("cold");
await stack.stop();
stack = null;
await sleep(1000);

const warm = await timedStart("warm");
step("waiting for the worker to run and the stack to settle");
const workerUp = await waitForWorker();
if (!workerUp) warn("the worker did not report RUNNING within 60 s");
// Exercise the app a little so the memory reflects a served page, then let it settle.
for (let i = 0; i < 5; i++)
  await fetch(`http://localhost:${PORTS.app}/signin`)
    .then((r) => r.arrayBuffer())
    .catch(() => {});
await sleep(5000);
const rows = memoryTable(stack.services);
await stack.stop();
stack = null;

const totalRss = rows.reduce((a, r) => a + r.rssKiB, 0);
const totalPss = rows.reduce((a, r) => a + r.pssKiB, 0);
const byService = new Map();
for (const r of rows) byService.set(r.service, (byService.get(r.service) ?? 0) + r.rssKiB);

console.log("");
console.log(
  c.bold(
    `${"service".padEnd(13)}${"pid".padStart(8)}  ${"RSS MiB".padStart(8)} ${"PSS MiB".padStart(8)}  process`,
  ),
);
for (const r of rows)
  console.log(
    `${r.service.padEnd(13)}${String(r.pid).padStart(8)}  ${mib(r.rssKiB).padStart(8)} ${mib(r.pssKiB).padStart(8)}  ${r.what}`,
  );
console.log(
  `${"TOTAL".padEnd(13)}${"".padStart(8)}  ${mib(totalRss).padStart(8)} ${mib(totalPss).padStart(8)}  (${rows.length} processes)`,
);
console.log("");
console.log(
  `cold start ${fmtMs(cold)} (goal: none), warm start ${fmtMs(warm)} (goal ≤ 45 s), total RSS ${mib(totalRss)} MiB (goal ≤ 1536 MiB)`,
);

if (write) {
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const machine = `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, load average at start ${os.loadavg()[0].toFixed(1)}`;
  const report = [
    `Measured ${when} UTC on ${machine}.`,
    "",
    "| start | time until /signin answers | goal |",
    "|---|---|---|",
    `| cold (no data, no Remix build/cache; tools + node_modules cached) | ${fmtMs(cold)} | — |`,
    `| warm (data and build kept) | ${fmtMs(warm)} | ≤ 45 s |`,
    "",
    `Resident memory of the warm stack after the worker started and /signin was served 5 times: **${mib(totalRss)} MiB RSS** (goal ≤ 1536 MiB; PSS ${mib(totalPss)} MiB, which counts shared pages such as Postgres shared buffers once).`,
    "",
    "| service | RSS MiB |",
    "|---|---|",
    ...[...byService].map(([s, k]) => `| ${s} | ${mib(k)} |`),
    `| **total** | **${mib(totalRss)}** |`,
    "",
    "<details><summary>every process</summary>",
    "",
    "| service | process | RSS MiB | PSS MiB |",
    "|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.service} | ${r.what.replace(/\|/g, "\\|")} | ${mib(r.rssKiB)} | ${mib(r.pssKiB)} |`,
    ),
    "",
    "</details>",
  ].join("\n");
  // A missing block goes right under the "## Stack" heading, else into a new Stack section at the end.
  const place = (doc, block) =>
    /^## Stack\s*$/m.test(doc)
      ? doc.replace(/^## Stack\s*$/m, () => `## Stack\n\n${block}`)
      : `${doc}\n## Stack\n\n${block}\n`;
  writeDoc({ key: "stack", by: "npm run bench:stack", report, place });
  info(`figures written to docs/performance.md`);
}
process.exit(0);

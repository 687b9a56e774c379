#!/usr/bin/env node
// npm run bench:topology — the cost of purchases on the production topology: `npm run bench:orders`
// (scripts/bench-orders.mjs, full pages, every order checked afterwards) against `npm run prod`'s topology
// (scripts/lib/prod-topology.mjs: production build, embedded PostgreSQL, the Temporal server as four service
// processes — frontend, history, matching, worker — on PostgreSQL, N web processes behind the round-robin proxy,
// M workers), started here on a data folder and ports of its own (.data/bench-topology; app :4300, webs :4301…,
// Temporal :7433…, PostgreSQL :54380, Mailpit :1135, metrics from :9500), fresh each run (the PostgreSQL data is
// wiped), with the demo seed as `npm run prod --seed` and bench:orders --prod have. It never collides with
// `npm run dev`, `npm run prod`, `npm test` or the other benchmarks.
//
//   (default)   the topology: 20 × 20 (--orders, --concurrency), then with --open-loop RATE --duration S the
//               open loop; prints one table: per run orders/s, click p95 and CPU seconds per completed order by
//               process (each web process, the proxy, each worker, each Temporal service, PostgreSQL split by
//               database, this bench's load generator, the rest of the box)
//   --compare   first the dev-server stack (bench:orders --prod: the same production build, one web process and
//               one worker, the Temporal CLI's dev server on SQLite, fresh), then the topology, each 20 × 20 and
//               (with --open-loop) the open loop at the same rate, one after the other; writes the table into
//               docs/performance.md between <!-- orders-topology:begin --> and <!-- orders-topology:end -->
//               ("The production topology against the dev server", under "Orders") unless --no-write
//
// Options: --web N (2), --workers M (2), --orders N (20), --concurrency C (20), --open-loop RATE --duration S,
// --timeout-ms, --no-build (keep the builds of an earlier run), --no-write.
// CPU: bench-orders.mjs --json (its processes.mjs and pg-split.mjs, read from /proc during the timed run only).
// PostgreSQL serves the app's database and Temporal's two: its client backends' CPU is split by the database each
// serves (pg_stat_activity sampled every second); the postmaster, its background processes and the last second of
// backends that ended between two readings are "other". Both stacks take both cores: run it on a quiet box.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { c, fail, info, step } from "./lib/log.mjs";
import { DATA_DIR, DB_NAMES, ROOT } from "./lib/paths.mjs";
import { writeDoc } from "./lib/perf-doc.mjs";
import { onShutdown, stopAll } from "./lib/proc.mjs";
import { readProdSettings } from "./lib/prod-settings.mjs";
import { INHERITED_STACK_VARS } from "./lib/prod-stack.mjs";
import {
  ensureMailpit,
  ensureNodeModules,
  ensureTemporal,
  ensureTemporalServer,
} from "./lib/tools.mjs";

const DATA = path.join(DATA_DIR, "bench-topology");
/** The topology's base ports (scripts/lib/prod-settings.mjs derives the rest), away from every other stack's. */
const PORT_ENV = {
  PORT: "4300",
  TEMPORAL_PORT: "7433",
  TEMPORAL_UI_PORT: "8433",
  POSTGRES_PORT: "54380",
  MAILPIT_SMTP_PORT: "1135",
  MAILPIT_UI_PORT: "8135",
  METRICS_PORT_BASE: "9500",
};

const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const int = (name, dflt) => {
  const v = Number(arg(name) ?? dflt);
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return v;
};
const o = {
  web: int("web", 2),
  workers: int("workers", 2),
  orders: int("orders", 20),
  concurrency: int("concurrency", arg("orders") ?? 20),
  rate: arg("open-loop") === undefined ? null : Number(arg("open-loop")),
  duration: Number(arg("duration") ?? 60),
  timeoutMs: arg("timeout-ms"),
  compare: argv.includes("--compare"),
  build: !argv.includes("--no-build"),
  write: argv.includes("--compare") && !argv.includes("--no-write"),
};
if (o.rate !== null && !(o.rate > 0 && o.duration > 0))
  throw new Error("--open-loop RATE --duration S: both positive numbers");

for (const k of INHERITED_STACK_VARS) delete process.env[k];
let topology = null;
let child = null;
onShutdown(async () => {
  child?.kill("SIGINT");
  await (topology ? topology.stop() : stopAll());
});

/** The bench:orders arguments of each loop. */
const loops = () => [
  { key: "closed", args: ["--orders", String(o.orders), "--concurrency", String(o.concurrency)] },
  ...(o.rate
    ? [{ key: "open", args: ["--open-loop", String(o.rate), "--duration", String(o.duration)] }]
    : []),
];

/** One bench:orders run (its output shown as it goes); its --json figures, or { error } when it wrote none. */
async function benchRun(label, args) {
  const json = path.join(DATA, `${label.replace(/\W+/g, "-")}.json`);
  fs.rmSync(json, { force: true });
  const full = [
    ...args,
    ...(o.timeoutMs ? ["--timeout-ms", o.timeoutMs] : []),
    "--no-write",
    "--json",
    json,
  ];
  step(`${label}: npm run bench:orders -- ${full.join(" ")}`);
  const code = await new Promise((resolve) => {
    child = spawn(process.execPath, [path.join(ROOT, "scripts", "bench-orders.mjs"), ...full], {
      stdio: "inherit",
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
  child = null;
  if (!fs.existsSync(json))
    return { label, error: `bench:orders exited with ${code} before its figures` };
  return { label, exitCode: code, ...JSON.parse(fs.readFileSync(json, "utf8")) };
}

/** The dev-server stack (bench:orders --prod, a fresh stack per run): each loop. */
async function devServerRuns() {
  const runs = [];
  for (const [i, loop] of loops().entries())
    runs.push(
      await benchRun(`dev server ${loop.key}`, [
        "--prod",
        ...(i > 0 || !o.build ? ["--no-build"] : []),
        ...loop.args,
      ]),
    );
  return runs;
}

/** The topology (started once, fresh), each loop against it. */
async function topologyRuns() {
  const env = {
    ...process.env,
    ...PORT_ENV,
    WEB_PROCESSES: String(o.web),
    WORKER_PROCESSES: String(o.workers),
  };
  const { settings, problems } = readProdSettings(env);
  if (problems.length) throw new Error(`invalid settings: ${problems.join("; ")}`);
  await ensureNodeModules();
  const tools = {
    cli: await ensureTemporal(),
    ...(await ensureTemporalServer()),
    ui: null,
    mailpit: await ensureMailpit(),
  };
  for (const f of ["pg", "mailpit.db", "uploads"])
    fs.rmSync(path.join(DATA, f), { recursive: true, force: true });
  const { startProdTopology } = await import("./lib/prod-topology.mjs");
  step(
    `the production topology: ${o.web} web processes, ${o.workers} workers, Temporal as four services on PostgreSQL (.data/bench-topology)`,
  );
  topology = await startProdTopology({
    settings,
    dataDir: DATA,
    tools,
    seed: true,
    build: o.build,
    onGiveUp: (name) => fail(`${name} keeps exiting`),
  });
  const urls = [
    "--base-url",
    topology.urls.app,
    "--database-url",
    topology.urls.database,
    "--temporal-address",
    topology.urls.temporal,
  ];
  const runs = [];
  try {
    for (const loop of loops())
      runs.push(await benchRun(`topology ${loop.key}`, [...loop.args, ...urls]));
  } finally {
    await topology.stop();
    topology = null;
  }
  return runs;
}

const sPer = (r, ms) =>
  ms === undefined || ms === null || !r.completed ? "—" : (ms / r.completed / 1000).toFixed(3);

/** Rows of the table: [label, (run) => cell]. */
function rowsOf(runs) {
  const keys = new Set(runs.flatMap((r) => Object.keys(r.cpuMs ?? {})));
  const each = (prefix) =>
    [...keys]
      .filter((k) => k.startsWith(prefix))
      .sort((a, b) => Number(a.split("-")[1]) - Number(b.split("-")[1]));
  const dbs = [...new Set(runs.flatMap((r) => Object.keys(r.pgByDb ?? {})))].sort((a, b) =>
    a === DB_NAMES.dev ? -1 : b === DB_NAMES.dev ? 1 : a.localeCompare(b),
  );
  const cpu = (k) => (r) => sPer(r, r.cpuMs?.[k]);
  const dbLabel = (db) =>
    db === DB_NAMES.dev
      ? `PostgreSQL: the app's database (${db})`
      : `PostgreSQL: Temporal's \`${db}\``;
  return [
    ["orders completed (of timed)", (r) => `${r.completed} of ${r.timed}`],
    ["**orders/s**", (r) => `**${r.ops.toFixed(2)}**`],
    ["**click p95** (ms)", (r) => `**${Math.round(r.clickP95)}**`],
    ["click p50 (ms)", (r) => String(Math.round(r.clickP50))],
    ["checked exactly once / doubles", (r) => `${r.checkedOk} / ${r.doubles}`],
    ["timed run (s)", (r) => (r.wallMs / 1000).toFixed(1)],
    ["load average start → end", (r) => `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`],
    ["*CPU s per completed order:*", () => ""],
    ...each("each_web-").map((k) => [`web ${k.split("-")[1]}`, cpu(k)]),
    ["round-robin proxy", cpu("each_proxy")],
    ...each("each_worker-").map((k) => [`worker ${k.split("-")[1]}`, cpu(k)]),
    [
      "Temporal dev server (CLI, SQLite, one process)",
      (r) => (r.topology ? "—" : sPer(r, r.cpuMs.temporal)),
    ],
    ...["frontend", "history", "matching", "worker"].map((svc) => [
      `temporal-${svc}`,
      cpu(`temporal_${svc}`),
    ]),
    ["**Temporal server, all**", (r) => `**${sPer(r, r.cpuMs.temporal)}**`],
    ...dbs.map((db) => [dbLabel(db), (r) => sPer(r, r.pgByDb?.[db] ?? 0)]),
    [
      "PostgreSQL: other (postmaster, background writers, autovacuum, ended backends)",
      (r) => sPer(r, r.cpuMs.postgres - Object.values(r.pgByDb ?? {}).reduce((a, b) => a + b, 0)),
    ],
    ["PostgreSQL, all", cpu("postgres")],
    [
      "**stack, all**",
      (r) => `**${sPer(r, r.cpuMs.web + r.cpuMs.worker + r.cpuMs.temporal + r.cpuMs.postgres)}**`,
    ],
    ["bench:orders (the load generator)", cpu("bench")],
    ["rest of the box", cpu("others")],
    ["box busy, all", cpu("box")],
  ];
}

const DEV_SERVER_TEXT =
  "Dev server: `bench:orders --prod` (production build, one web process and one worker, the Temporal CLI's dev server on SQLite, fresh). ";

/** The report (markdown): when, the runs, the table, the Temporal line. */
function reportOf(runs, load0, load1) {
  const ok = runs.filter((r) => !r.error);
  const head = (r) =>
    `${r.stack === "topology" ? `topology (${o.web} web, ${o.workers} workers)` : "dev server (SQLite)"}, ${r.loop.open ? `open ${r.loop.rate}/s × ${r.loop.duration} s` : `${o.orders} × ${r.loop.concurrency}`}`;
  const cpus = os.cpus();
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpus.length} cores (${cpus[0]?.model?.trim() ?? "?"}), ` +
      `Node ${process.version}, with \`npm run bench:topology -- ${argv.join(" ")}\`: the runs one after the other, load average ` +
      `${load0.toFixed(1)} at the start and ${load1.toFixed(1)} at the end. ${o.compare ? DEV_SERVER_TEXT : ""}Topology: \`npm run prod\`'s (scripts/lib/prod-topology.mjs: ` +
      `the same build, ${o.web} web processes behind the round-robin proxy, ${o.workers} workers, the Temporal server as four processes on ` +
      `PostgreSQL, fresh). Full pages, every order checked afterwards at the payment provider and in the read model. ` +
      `CPU from /proc during each timed run only; PostgreSQL's client backends split by the database each serves (pg_stat_activity every second).`,
    "",
    `| | ${ok.map(head).join(" | ")} |`,
    `|---|${ok.map(() => "---|").join("")}`,
    ...rowsOf(ok).map(([label, cell]) => `| ${label} | ${ok.map(cell).join(" | ")} |`),
  ];
  for (const r of runs.filter((x) => x.error))
    lines.push("", `${r.label}: **no figures** (${r.error}).`);
  for (const r of ok.filter((x) => x.exitCode !== 0))
    lines.push(
      "",
      `${r.label}: bench:orders exited with ${r.exitCode} (${r.failed} failed, ${r.problems} found by the check): its output above says which.`,
    );
  const temporalPer = (stack, open) => {
    const r = ok.find((x) => x.stack === stack && x.loop.open === open);
    return r ? sPer(r, r.cpuMs.temporal) : "—";
  };
  const temporalDbs = (open) => {
    const r = ok.find((x) => x.stack === "topology" && x.loop.open === open);
    return r
      ? sPer(
          r,
          Object.entries(r.pgByDb ?? {}).reduce(
            (a, [db, ms]) => a + (db === DB_NAMES.dev ? 0 : ms),
            0,
          ),
        )
      : "—";
  };
  if (ok.some((x) => x.stack === "topology"))
    lines.push(
      "",
      `Temporal server CPU per order: PostgreSQL (sum of the four services) **${temporalPer("topology", false)} s** vs SQLite dev server **${temporalPer("dev-server", false)} s**${o.compare ? "" : " (no --compare: no dev-server run)"} ` +
        `(${o.orders} × ${o.concurrency}${o.rate ? `; open loop ${o.rate}/s: ${temporalPer("topology", true)} s vs ${temporalPer("dev-server", true)} s` : ""}); ` +
        `Temporal's databases' backends on PostgreSQL add ${temporalDbs(false)} s per order${o.rate ? ` (open loop ${temporalDbs(true)} s)` : ""}.`,
    );
  return lines.join("\n");
}

/** Where the block goes when docs/performance.md has none: the end of the "Orders" section. */
function place(doc, block) {
  const section = `### The production topology against the dev server\n\n${block}\n`;
  const orders = doc.indexOf("\n## Orders\n");
  const next = orders < 0 ? -1 : doc.indexOf("\n## ", orders + 1);
  return next < 0
    ? `${doc.trimEnd()}\n\n${section}`
    : `${doc.slice(0, next)}\n${section}${doc.slice(next)}`;
}

/** Prints the load average (1, 5, 15 min) at `when`; the 1-minute figure. */
function loadNow(when) {
  const load = os.loadavg();
  info(`load average at the ${when}: ${load.map((x) => x.toFixed(2)).join(" ")}`);
  return load[0];
}

async function main() {
  fs.mkdirSync(DATA, { recursive: true });
  const load0 = loadNow("start");
  const runs = [...(o.compare ? await devServerRuns() : []), ...(await topologyRuns())];
  const load1 = loadNow("end");
  const report = reportOf(runs, load0, load1);
  console.log(`\n${report}\n`);
  if (o.write) {
    writeDoc({ key: "orders-topology", by: "npm run bench:topology -- --compare", report, place });
    info(
      c.dim(
        "written to docs/performance.md (<!-- orders-topology:begin --> … <!-- orders-topology:end -->)",
      ),
    );
  }
  return runs.every((r) => !r.error && r.exitCode === 0) ? 0 : 1;
}

try {
  process.exit(await main());
} catch (e) {
  fail(c.red(e?.stack ?? String(e)));
  await (topology ? topology.stop() : stopAll());
  process.exit(1);
}

#!/usr/bin/env node
// node scripts/prod-faults.mjs — the engine's own faults under load, on the production topology
// (docs/reliability.md "Faults of the production topology"). Starts `npm run prod`'s topology (scripts/lib/
// prod-topology.mjs, with the demo data), then:
//   load     purchases, swaps and RMAs through their pages at a steady rate (scripts/bench-orders.mjs --mix
//            --open-loop RATE --duration S against the topology), each transaction checked afterwards in the read
//            model and at the payment provider (exactly once; a double or a missing one is named)
//   faults   after --warm s, in turn every --gap s: SIGKILL of the history service, the matching service, the
//            frontend, web process 1, worker 1 (each started again by the topology's supervisor after 1 s), and one
//            restart of PostgreSQL (fast shutdown, start on the same data)
//   probes   every 250 ms, /readyz through the public port (web, database, frontend) and a DescribeWorkflowExecution
//            of a running order (frontend and history): how long each outage was seen
//   money    then (scripts/prod-faults/money.mjs), with transactions of their own and no other load: the provider
//            refusing a purchase's payout and an RMA's refund, PostgreSQL stopped for --db-down s during a payout
//            set-up posted through its page, a web process SIGKILLed between storing a carrier webhook and
//            signalling its order; each order's end state and provider objects checked, each held movement on
//            staff's page with its retailer e-mailed, doubles and lost counted
// Prints one row per fault (when, running order workflows, until the process was back, how long each probe
// failed), the load's totals and one row per money fault; --write puts them into docs/reliability.md between
// <!-- prod-faults:begin --> and <!-- prod-faults:end -->. The load's own report (each failed transaction's step
// and answer): .data/prod/logs/faults-load.log. Options: --rate (0.3 transactions/s), --duration (auto: covers
// every fault), --warm (20), --gap (40), --db-down (300 s), --no-money (the process faults alone), --money-only
// (no load, no process faults), --no-build (the build already in .data/prod/build), --write. Takes minutes and
// both cores: run it on a quiet box. Runs under tsx (the money faults use the TypeScript factories and HTTP
// client): it re-executes itself with `node --import tsx` when started with plain node.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { c, fail, fmtMs, info, step } from "./lib/log.mjs";
import { ROOT } from "./lib/paths.mjs";
import { isPortOpen, onShutdown, run, sleep, stopAll } from "./lib/proc.mjs";
import { PROD_DATA_DIR, readProdSettings } from "./lib/prod-settings.mjs";
import {
  ensureMailpit,
  ensureNodeModules,
  ensureTemporal,
  ensureTemporalServer,
  ensureTemporalUi,
} from "./lib/tools.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const FAULTS = [
  "temporal-history",
  "temporal-matching",
  "temporal-frontend",
  "web-1",
  "worker-1",
  "postgres",
];
const o = {
  rate: opt("rate", 0.3),
  warm: opt("warm", 20),
  gap: opt("gap", 40),
  dbDown: opt("db-down", 300),
  money: !argv.includes("--no-money"),
  processFaults: !argv.includes("--money-only"),
  build: !argv.includes("--no-build"),
  write: argv.includes("--write"),
};
o.duration = opt("duration", o.warm + FAULTS.length * o.gap + 20);

let topology = null;
// The run itself is the re-executed child (below); the parent only passes signals on.
if (process.env.PROD_FAULTS_UNDER_TSX)
  onShutdown(async () => {
    await (topology ? topology.stop() : stopAll());
  });

/** A probe loop: every 250 ms `check()`; failures as [start, end] intervals (ms since t0). */
function probe(check, t0) {
  const downs = [];
  let downSince = null;
  let running = true;
  const loop = (async () => {
    while (running) {
      const ok = await check().then(
        () => true,
        () => false,
      );
      const t = Date.now() - t0;
      if (!ok && downSince === null) downSince = t;
      if (ok && downSince !== null) {
        downs.push([downSince, t]);
        downSince = null;
      }
      await sleep(250);
    }
  })();
  return {
    downs,
    stop: async () => {
      running = false;
      await loop;
      if (downSince !== null) downs.push([downSince, Date.now() - t0]);
    },
  };
}

/** Outage (ms) a probe saw between `from` and `to`. */
const seenBetween = (downs, from, to) =>
  downs.reduce((ms, [a, b]) => ms + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);

/** Waits until `name` is back: its port (Temporal), its /readyz (web, worker); the time it took. */
async function backAfter(name, settings, t) {
  const ports = settings.ports;
  const svc = /^temporal-(\w+)$/.exec(name)?.[1];
  const ready = async () => {
    if (svc)
      return isPortOpen(
        svc === "frontend" ? ports.temporal[svc].grpc : ports.temporal[svc].membership,
      );
    const port = name.startsWith("web-") ? ports.webs[0] : ports.workerHealth[0];
    return fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
  };
  await sleep(300);
  while (!(await ready())) await sleep(100);
  return Date.now() - t;
}

async function main() {
  const { settings, problems } = readProdSettings(process.env);
  if (problems.length) throw new Error(`invalid settings: ${problems.join("; ")}`);
  await ensureNodeModules();
  const tools = {
    cli: await ensureTemporal(),
    ...(await ensureTemporalServer()),
    ui: await ensureTemporalUi().catch(() => null),
    mailpit: process.env.SMTP_URL ? null : await ensureMailpit(),
  };
  const { startProdTopology } = await import("./lib/prod-topology.mjs");
  topology = await startProdTopology({
    settings,
    dataDir: PROD_DATA_DIR,
    tools,
    seed: true,
    build: o.build,
    onGiveUp: (name) => fail(`${name} keeps exiting`),
  });
  const { Client, Connection } = await import("@temporalio/client");
  const connection = await Connection.connect({ address: topology.urls.temporal });
  const client = new Client({ connection, namespace: topology.env.TEMPORAL_NAMESPACE });
  const running = async () =>
    Number(
      (
        await client.workflowService.countWorkflowExecutions({
          namespace: topology.env.TEMPORAL_NAMESPACE,
          query: 'ExecutionStatus="Running"',
        })
      ).count,
    );

  // The HTTP client of the money faults sends the app's own Origin (tests/e2e/http.ts reads it at import).
  process.env.E2E_BASE_URL = topology.urls.app;
  const processed = o.processFaults
    ? await processFaults(settings, client, running)
    : { rows: [], output: "", code: 0 };
  await connection.close();
  const { runMoneyFaults } = await import("./prod-faults/money.mjs");
  // A money fault that could not run is a row that says why: the process faults' table is still reported.
  const money = o.money
    ? await runMoneyFaults({ topology, dbDownS: o.dbDown }).catch((e) => {
        fail(c.red(e.stack || e.message));
        return [{ fault: "the money faults", end: `stopped: ${e.message}`, doubles: 0, lost: 1 }];
      })
    : [];
  return { ...processed, money };
}

/** The load and, in turn, the process faults, with the probes; one row per fault. */
async function processFaults(settings, client, running) {
  step(
    `load: --mix --open-loop ${o.rate} --duration ${o.duration}; faults from ${o.warm} s, one every ${o.gap} s`,
  );
  const t0 = Date.now();
  const load = run(
    process.execPath,
    [
      path.join(ROOT, "scripts", "bench-orders.mjs"),
      "--mix",
      "--open-loop",
      String(o.rate),
      "--duration",
      String(o.duration),
      "--timeout-ms",
      "180000",
      "--no-write",
      "--base-url",
      topology.urls.app,
      "--database-url",
      topology.urls.database,
      "--temporal-address",
      topology.urls.temporal,
    ],
    { quiet: true },
  );
  let describeId = null;
  const ready = probe(
    () =>
      fetch(`${topology.urls.app}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) =>
        r.ok ? r : Promise.reject(),
      ),
    t0,
  );
  // Raw service calls: the client here has no payload codec, so it could not decode a workflow's memo.
  const namespace = topology.env.TEMPORAL_NAMESPACE;
  const history = probe(async () => {
    if (!describeId)
      describeId =
        (
          await client.workflowService.listWorkflowExecutions({
            namespace,
            query: 'ExecutionStatus="Running" AND OrderKind="buy"',
            pageSize: 1,
          })
        ).executions?.[0]?.execution?.workflowId ?? null;
    if (describeId)
      await client.workflowService.describeWorkflowExecution({
        namespace,
        execution: { workflowId: describeId },
      });
  }, t0);

  const faults = [];
  await sleep(o.warm * 1000);
  for (const name of FAULTS) {
    const t = Date.now();
    const inFlight = await running().catch(() => "?");
    let backMs;
    if (name === "postgres") {
      if (!topology.restartPostgres)
        throw new Error("DATABASE_URL is set: PostgreSQL is not ours to restart");
      await topology.restartPostgres();
      backMs = Date.now() - t;
    } else {
      topology.processes[name].kill("SIGKILL");
      backMs = await backAfter(name, settings, t);
    }
    faults.push({ name, at: t - t0, inFlight, backMs });
    info(
      `${name} ${name === "postgres" ? "restarted" : "killed"} at ${((t - t0) / 1000).toFixed(0)} s (${inFlight} running workflows); back after ${fmtMs(backMs)}`,
    );
    await sleep(Math.max(0, o.gap * 1000 - (Date.now() - t)));
  }
  const result = await load;
  fs.writeFileSync(path.join(topology.logDir, "faults-load.log"), result.output);
  await ready.stop();
  await history.stop();
  // Each fault's window: until the next one (the last: until the end).
  const end = Date.now() - t0;
  const rows = faults.map((f, i) => {
    const to = faults[i + 1]?.at ?? end;
    return {
      ...f,
      readyDown: seenBetween(ready.downs, f.at, to),
      historyDown: seenBetween(history.downs, f.at, to),
    };
  });
  return { rows, output: result.output, code: result.code };
}

/** The money faults' table: one row each, and the totals of doubles and lost. */
function moneyLines(money) {
  if (!money.length) return [];
  const sum = (k) => money.reduce((n, r) => n + r[k], 0);
  const cell = (v) => String(v ?? "").replace(/\|/g, "\\|");
  return [
    "",
    `Money faults (then, with transactions of their own; PostgreSQL down ${o.dbDown} s):`,
    "",
    "| fault | order | where it ended | at the provider | held: on staff's page, retailer told | doubles | lost | as expected |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...money.map(
      (r) =>
        `| ${cell(r.fault)} | ${cell(r.order)} | ${cell(r.end)} | ${cell(r.provider)} | ${cell(r.held)} | ${r.doubles} | ${r.lost} | ${r.ok ? "yes" : `**no**${r.note ? ` (${cell(r.note)})` : ""}`} |`,
    ),
    "",
    `Money faults: ${money.filter((r) => r.ok).length} of ${money.length} as expected, ${sum("doubles")} doubles, ${sum("lost")} lost.`,
  ];
}

function report({ rows, output, code, money }) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const totals =
    /\*\*[^\n]*?(?:transactions|orders)[^\n]*?completed[^\n]*/.exec(plain)?.[0] ??
    "(no summary line: see the load's output)";
  const checked = /Checked afterwards[^\n]*/.exec(plain)?.[0] ?? "(not checked)";
  const processLines = [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`node scripts/prod-faults.mjs ${argv.join(" ")}\` (rate ${o.rate}/s, faults every ${o.gap} s after ${o.warm} s).`,
    "",
    "| fault | at (s) | running workflows | back after | /readyz failing | history (describe) failing |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.name === "postgres" ? "PostgreSQL restart" : `SIGKILL ${r.name}`} | ${(r.at / 1000).toFixed(0)} | ${r.inFlight} | ${fmtMs(r.backMs)} | ${fmtMs(r.readyDown)} | ${fmtMs(r.historyDown)} |`,
    ),
    "",
    `Load: ${totals.replace(/\*\*/g, "")}`,
    "",
    `Checks: ${checked.replace(/\*\*/g, "")}`,
    "",
    `The load exited with ${code}${code === 0 ? " (every transaction completed and checked)" : " (a transaction failed or a check found a problem: see above)"}.`,
  ];
  const lines = [
    ...(rows.length
      ? processLines
      : [
          `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`node scripts/prod-faults.mjs ${argv.join(" ")}\`.`,
        ]),
    ...moneyLines(money),
  ];
  console.log(`\n${lines.join("\n")}\n`);
  if (!o.write) return;
  const file = path.join(ROOT, "docs", "reliability.md");
  const doc = fs.readFileSync(file, "utf8");
  const block = `<!-- prod-faults:begin -->\n${lines.join("\n")}\n<!-- prod-faults:end -->`;
  const re = /<!-- prod-faults:begin -->[\s\S]*<!-- prod-faults:end -->/;
  fs.writeFileSync(
    file,
    re.test(doc)
      ? doc.replace(re, block)
      : `${doc.trimEnd()}\n\n## Faults of the production topology\n\n${block}\n`,
  );
  info(`written to docs/reliability.md`);
}

if (!process.env.PROD_FAULTS_UNDER_TSX) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit", env: { ...process.env, PROD_FAULTS_UNDER_TSX: "1" } },
  );
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  try {
    const r = await main();
    report(r);
    await topology.stop();
    process.exit(r.code === 0 && r.money.every((m) => m.ok) ? 0 : 1);
  } catch (e) {
    fail(c.red(e.stack || e.message));
    await (topology ? topology.stop() : stopAll());
    process.exit(1);
  }
}

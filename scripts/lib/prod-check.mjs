// `npm run prod -- --check`: proves the production topology came up as described (docs/operations.md "Proving
// it"), against the topology scripts/prod.mjs has just started, then the caller stops it:
//   processes   the four Temporal services as separate processes (each `start --service <name>`, its pid and
//               RSS), the web processes, the workers, the UI, the proxy
//   PostgreSQL  Temporal's tables in its two databases, its shard rows (numHistoryShards), the app's tables
//   health      /readyz of each web process and through the proxy, each worker's /readyz, /metrics of each
//               web process, worker and Temporal service
//   a purchase  one order through its pages over HTTP as a browser without JavaScript posts them
//               (scripts/bench-orders.mjs --orders 1: add to cart → … → "Rating saved!", then the read model and
//               the payment provider checked for exactly one of each), its workflow listed by the Temporal UI's
//               API with its search attributes, the web request id in its memo (sealed by the payload codec,
//               opened with the topology's keys), in a web log line and in an activity's log line
//   browser     with { browser: true } (`npm run prod -- --check --browser`): the browser test of a whole purchase,
//               tests/e2e/buy-flow.test.ts (Chromium: terms → review → card, approval with a change, pickup and
//               delivery from the admin card, payout, rating, the order in Temporal's workflow list), run against
//               this topology instead of the e2e stack
// Prints one line per check and returns { ok, lines }.
import fs from "node:fs";
import path from "node:path";
import { TEMPORAL_SERVICES } from "../../config/topology.mjs";
import { fmtMs } from "./log.mjs";
import { ROOT } from "./paths.mjs";
import { run } from "./proc.mjs";

const rssMb = (pid) => {
  try {
    const kb = Number(
      /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0,
    );
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
};
const cmdline = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json().catch(() => null) };
}
async function getText(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, text: await res.text() };
}

/** The processes: one line each, the Temporal services checked to be distinct processes of their own service. */
function processes(topology) {
  const lines = [];
  let ok = true;
  const pids = new Set();
  for (const [name, sup] of Object.entries(topology.processes)) {
    if (sup.stopped) continue; // an older build's worker, stopped once drained (scripts/lib/prod-deploy.mjs)
    const pid = sup.current().pid;
    const cmd = cmdline(pid);
    const svc = TEMPORAL_SERVICES.find((s) => name === `temporal-${s}`);
    const right = !svc || cmd.includes(`--service ${svc}`);
    ok &&= right && !pids.has(pid) && cmd !== "";
    pids.add(pid);
    lines.push(
      `${right ? "ok  " : "FAIL"} process ${name.padEnd(18)} pid ${pid}, ${rssMb(pid)} MB RSS${svc && right ? `, start --service ${svc}` : ""}`,
    );
  }
  return { ok, lines };
}

/** Temporal's tables and shards, the app's tables. */
async function postgresTables(topology) {
  const { default: postgres } = await import("postgres");
  const lines = [];
  let ok = true;
  for (const database of [
    topology.db.temporal,
    topology.db.visibility,
    new URL(topology.urls.database).pathname.slice(1),
  ]) {
    const u = new URL(topology.urls.database);
    u.pathname = `/${database}`;
    const sql = postgres(u.toString(), { max: 1, onnotice: () => {} });
    try {
      const [{ n }] =
        await sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
      let extra = "";
      if (database === topology.db.temporal) {
        const [{ shards }] = await sql`select count(*)::int as shards from shards`;
        const [{ executions }] = await sql`select count(*)::int as executions from executions`;
        extra = `, ${shards} shards, ${executions} executions`;
      }
      if (database === topology.db.visibility) {
        const [{ rows }] = await sql`select count(*)::int as rows from executions_visibility`;
        extra = `, ${rows} visibility rows`;
      }
      ok &&= n > 0;
      lines.push(`${n > 0 ? "ok  " : "FAIL"} postgres ${database.padEnd(20)} ${n} tables${extra}`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  return { ok, lines };
}

/** Readiness and metrics endpoints of every process. */
async function endpoints(topology, settings) {
  const lines = [];
  let ok = true;
  const check = (good, what) => {
    ok &&= good;
    lines.push(`${good ? "ok  " : "FAIL"} ${what}`);
  };
  for (const url of [...topology.urls.webs, topology.urls.app]) {
    const r = await getJson(`${url}/readyz`);
    check(
      r.status === 200,
      `GET ${url}/readyz ${r.status} ${JSON.stringify(r.body?.checks ?? r.body)}`,
    );
  }
  for (const port of settings.ports.workerHealth) {
    const r = await getJson(`http://127.0.0.1:${port}/readyz`);
    check(
      r.status === 200,
      `worker :${port}/readyz ${r.status} ${r.body?.runState} polling ${r.body?.workflowPollerState}/${r.body?.activityPollerState}`,
    );
  }
  const metrics = [
    ...settings.ports.webMetrics.map((p) => ["web", p, "http_requests_total"]),
    ...settings.ports.workerMetrics.map((p) => ["worker (SDK)", p, "temporal_"]),
    ...TEMPORAL_SERVICES.map((s) => [
      `temporal ${s}`,
      settings.ports.temporal[s].metrics,
      "# TYPE",
    ]),
  ];
  for (const [who, port, expected] of metrics) {
    const r = await getText(`http://127.0.0.1:${port}/metrics`);
    const series = r.text.split("\n").filter((l) => l && !l.startsWith("#")).length;
    check(
      r.status === 200 && r.text.includes(expected),
      `metrics ${who.padEnd(18)} :${port} ${series} series`,
    );
  }
  return { ok, lines };
}

/** One purchase through the pages (bench-orders, 1 order), then the order as the Temporal UI's API shows it. */
async function purchase(topology) {
  const t0 = Date.now();
  const r = await run(
    process.execPath,
    [
      path.join(ROOT, "scripts", "bench-orders.mjs"),
      "--orders",
      "1",
      "--concurrency",
      "1",
      "--warmup",
      "0",
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
  const summary =
    /\*\*1 of 1 orders completed[^\n]*?orders\/s/.exec(r.output)?.[0] ?? r.output.slice(-1500);
  const checked = /Checked afterwards[^\n]*?\*\*(\d+) of (\d+)\*\* exactly as expected/.exec(
    r.output,
  );
  const lines = [
    `${r.code === 0 ? "ok  " : "FAIL"} purchase through the pages in ${fmtMs(Date.now() - t0)}: ${summary.replace(/\*\*/g, "")}`,
    `${checked && checked[1] === checked[2] ? "ok  " : "FAIL"} read model and payment provider: ${checked ? `${checked[1]} of ${checked[2]} exactly as expected` : "not checked"}`,
  ];
  let ok = r.code === 0 && Boolean(checked && checked[1] === checked[2]);
  if (topology.urls.temporalUi) {
    const q = encodeURIComponent('OrderKind="buy"');
    const ui = await getJson(
      `${topology.urls.temporalUi}/api/v1/namespaces/${topology.env.TEMPORAL_NAMESPACE}/workflows?query=${q}`,
    );
    const wf = ui.body?.executions?.[0];
    const attrs = Object.keys(wf?.searchAttributes?.indexedFields ?? {}).filter(
      (k) => k !== "BuildIds",
    );
    const good = ui.status === 200 && attrs.includes("OrderNumber");
    ok &&= good;
    lines.push(
      `${good ? "ok  " : "FAIL"} Temporal UI API lists ${wf?.execution?.workflowId ?? "no order"} with ${attrs.sort().join(", ")}`,
    );
    if (wf) {
      const d = await getJson(
        `${topology.urls.temporalUi}/api/v1/namespaces/${topology.env.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(wf.execution.workflowId)}`,
      );
      const memo = d.body?.workflowExecutionInfo?.memo?.fields?.requestId;
      const requestId = memo ? await openSealedPayload(memo, topology.env) : null;
      const logs = fs
        .readdirSync(topology.logDir)
        .filter(
          (f) =>
            requestId && fs.readFileSync(path.join(topology.logDir, f), "utf8").includes(requestId),
        );
      const traced =
        Boolean(requestId) &&
        logs.some((f) => f.startsWith("web-")) &&
        logs.some((f) => f.startsWith("worker-"));
      ok &&= traced;
      lines.push(
        `${traced ? "ok  " : "FAIL"} request id ${requestId} in the workflow's memo and in ${logs.join(", ") || "no log"}`,
      );
    }
  }
  return { ok, lines };
}

/**
 * A payload as the UI's API shows it (base64 metadata and data), which must be sealed by the payload codec
 * (ADR 0040), opened with the app's keys by temporal/codec.ts in a tsx child (this file is plain Node); its JSON
 * value, or null when it was not sealed or does not open.
 */
async function openSealedPayload(payload, env) {
  if (Buffer.from(payload.metadata?.encoding ?? "", "base64").toString() !== "binary/encrypted")
    return null;
  const code =
    `Promise.all([import("./temporal/connection.ts"), import("./temporal/codec.ts")]).then(async ([c, k]) => {` +
    ` const [p] = await c.payloadCodecOf(process.env).decode([k.payloadFromJson(JSON.parse(process.argv[1]))]);` +
    ` process.stdout.write(Buffer.from(p.data).toString("utf8")); })`;
  const r = await run(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", code, JSON.stringify(payload)],
    {
      env,
      quiet: true,
    },
  );
  try {
    return r.code === 0 ? JSON.parse(r.output.trim()) : null;
  } catch {
    return null;
  }
}

/** tests/e2e/buy-flow.test.ts in Chromium against this topology (its app environment, its URL and database). */
async function browserPurchase(topology) {
  const { ensureChromium } = await import("./tools.mjs");
  const t0 = Date.now();
  const file = "tests/e2e/buy-flow.test.ts";
  const r = await run(
    process.execPath,
    [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "e2e", file],
    {
      env: {
        ...topology.env,
        E2E_BASE_URL: topology.urls.app,
        CHROMIUM_PATH: await ensureChromium(),
        E2E_RESULTS_DIR: path.join(topology.logDir, "..", "e2e-results"),
      },
      quiet: true,
    },
  );
  const plain = r.output.replace(/\x1b\[[0-9;]*m/g, "");
  const tests = /Tests\s+([^\n]+)/.exec(plain)?.[1]?.trim() ?? "no result";
  if (r.code !== 0) process.stderr.write(plain.slice(-4000));
  const mark = r.code === 0 ? "ok  " : "FAIL";
  return {
    ok: r.code === 0,
    lines: [
      `${mark} browser: ${file} against ${topology.urls.app}: ${tests} (${fmtMs(Date.now() - t0)})`,
    ],
  };
}

export async function checkProdTopology(
  topology,
  settings,
  { print = console.log, browser = false } = {},
) {
  const all = [];
  let ok = true;
  const parts = [
    () => processes(topology),
    () => postgresTables(topology),
    () => endpoints(topology, settings),
    () => purchase(topology),
  ];
  if (browser) parts.push(() => browserPurchase(topology));
  for (const part of parts) {
    const r = await part();
    for (const l of r.lines) print(`  ${l}`);
    all.push(...r.lines);
    ok &&= r.ok;
  }
  return { ok, lines: all };
}

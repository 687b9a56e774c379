// The stack's processes, found in /proc for the CPU figures, and how fast the box runs right now.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { cpuSnapshot } from "../lib/cpu.mjs";

/** Listening TCP port → pid (ss). */
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

/** The workers polling the run's task queue on its Temporal server. */
function workerPids(o, temporalPort) {
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
  return workers;
}

/**
 * `npm run prod`'s Temporal server: four processes, one per service (`start --service <name>`, the same --root as
 * the frontend listening on the run's port); null for a dev server.
 */
function temporalServices(frontendPid) {
  const front = cmdline(frontendPid);
  const root = /--root (\S+)/.exec(front)?.[1];
  if (!root || !/--service frontend/.test(front)) return null;
  // Two topologies from one checkout share the --root: the frontend port in each service's environment tells them apart.
  const frontendPort = readEnviron(frontendPid).TEMPORAL_FRONTEND_PORT;
  const services = {};
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    const cmd = cmdline(Number(d));
    const svc = /temporal-server --root (\S+) .*start --service (\w+)/.exec(cmd);
    if (svc && svc[1] === root && readEnviron(Number(d)).TEMPORAL_FRONTEND_PORT === frontendPort)
      services[svc[2]] = Number(d);
  }
  return services;
}

/**
 * The stack's processes: web (app port; behind rr-proxy, the proxy and its backends), Temporal (its port; with
 * `npm run prod`, each service's process in temporalServices), Postgres (postmaster + backends), worker(s).
 */
export function stackProcesses(o) {
  const listeners = ssListeners();
  const appPort = Number(new URL(o.baseUrl).port || 80);
  const pgPort = Number(new URL(o.databaseUrl).port || 5432);
  const temporalPort = Number(o.temporalAddress.split(":").pop());
  const workers = workerPids(o, temporalPort);
  // --scale: the proxy on the app's port and the web processes on the ports after it; any rr-proxy: its backends.
  const backends = (/rr-proxy\.mjs \d+ ([\d ]+)/.exec(cmdline(listeners.get(appPort)))?.[1] ?? "")
    .trim()
    .split(" ")
    .filter(Boolean);
  const ports = [
    appPort,
    ...Array.from({ length: o.scale > 1 ? o.scale : 0 }, (_, i) => appPort + 1 + i),
    ...backends.map(Number),
  ];
  const web = [...new Set(ports.map((p) => listeners.get(p)).filter(Boolean))];
  const temporal = listeners.get(temporalPort) ?? null;
  // Each web process on its own (npm run bench:topology): the proxy apart from the processes behind it.
  const proxy = backends.length ? (listeners.get(appPort) ?? null) : null;
  const webEach = web.filter((pid) => pid !== proxy);
  return {
    web,
    webEach,
    proxy,
    temporal,
    temporalServices: temporal ? temporalServices(temporal) : null,
    postmaster: listeners.get(pgPort) ?? null,
    workers,
  };
}

/** CPU ms per component so far (lib/cpu.mjs): Postgres with its backends and the children it reaped. */
export function stackCpu(procs, { each = false } = {}) {
  // --json (npm run bench:topology): every web process and worker on its own, and the proxy, besides the sums.
  const eachParts = each
    ? {
        ...Object.fromEntries(procs.webEach.map((pid, i) => [`each_web-${i + 1}`, [pid]])),
        ...Object.fromEntries(
          [...procs.workers].sort((a, b) => a - b).map((pid, i) => [`each_worker-${i + 1}`, [pid]]),
        ),
        ...(procs.proxy ? { each_proxy: [procs.proxy] } : {}),
      }
    : {};
  return cpuSnapshot({
    ...eachParts,
    web: procs.web,
    worker: procs.workers,
    temporal: procs.temporalServices
      ? Object.values(procs.temporalServices)
      : procs.temporal
        ? [procs.temporal]
        : [],
    // npm run prod: each Temporal service on its own too (report.mjs names them)
    ...Object.fromEntries(
      Object.entries(procs.temporalServices ?? {}).map(([svc, pid]) => [`temporal_${svc}`, [pid]]),
    ),
    postgres: procs.postmaster ? { tree: procs.postmaster } : [],
  });
}

/**
 * How fast this box runs JavaScript right now: a fixed single-threaded workload (serialise, parse and sort
 * 2,000 small rows, 60 times; the best of three), in ms. The same code measured minutes apart on this shared
 * virtual machine varies by ±15 % in CPU per order; the probe, taken just before and just after the timed run,
 * lets a reader tell a slower box from slower code.
 */
export function speedProbe() {
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    id: i,
    name: `row-${i}`,
    sizes: { S: i % 3, M: i % 5 },
    priceCents: (i * 7919) % 10007,
  }));
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

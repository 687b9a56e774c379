// The warm-up and the timed run: transactions in a closed or open loop (--open-loop), the worker kills
// (--kill-worker-every), and around them the stack's CPU, the load average and the speed probe.
import os from "node:os";
import { c, info, step, warn } from "../lib/log.mjs";
import { runOrderCommands } from "./commands-only.mjs";
import { startKiller } from "./kills.mjs";
import { closedLoop, openLoop } from "./open-loop.mjs";
import { now } from "./page-text.mjs";
import { startPgSplit } from "./pg-split.mjs";
import { speedProbe, stackCpu, stackProcesses } from "./processes.mjs";
import { runPurchase } from "./purchases.mjs";
import { runSwap } from "./swaps.mjs";

/** One transaction of pair `p` in the run's mode. */
function runTransaction(bench, p, warm) {
  if (p.kind === "swap") return runSwap(bench, p, warm);
  if (bench.o.commandsOnly && !warm) return runOrderCommands(bench, p);
  return runPurchase(bench, p, warm);
}

/** The warm-up transactions, one after the other (not counted); false when one failed. */
export async function warmUp(bench) {
  const warmPairs = bench.pairs.slice(0, bench.o.warmup);
  if (!warmPairs.length) return true;
  step(`warm-up: ${warmPairs.length} order(s) one after the other (not counted)`);
  for (const p of warmPairs) await runTransaction(bench, p, true);
  const { templates } = bench;
  if (templates)
    info(
      c.dim(
        `command templates from warm-up order #${templates.orderId}; read-model state after each step: ${templates.states.map((x) => `${x.step} → ${x.statename}${x.rated ? " (rated)" : ""}`).join(", ")}`,
      ),
    );
  return !bench.results.some((r) => r.warm && !r.ok);
}

/**
 * The timed transactions; returns { wallMs, cpu0, cpu1 (the stack's CPU before and after, the killed workers'
 * included), load0, load1, speed0, speed1, arrivals (open loop), kills, pgByDb (--json) }.
 */
export async function timedRun(bench, prodStack) {
  const { o } = bench;
  const procs = stackProcesses(o);
  o.topology = procs.temporalServices ? Object.keys(procs.temporalServices).sort() : null; // npm run prod's, for the report
  if (procs.web.length === 0 || !procs.postmaster || !procs.temporal || procs.workers.length === 0)
    warn(`stack processes found: ${JSON.stringify(procs)}`);
  const speed0 = speedProbe();
  const load0 = os.loadavg();
  // --json: each web process and worker on its own, and PostgreSQL's CPU by database (pg-split.mjs).
  const each = Boolean(o.json);
  const cpu0 = stackCpu(procs, { each });
  // Inside the CPU snapshots, so that the databases' share never exceeds PostgreSQL's whole.
  const pgSplit = each ? await startPgSplit(o.databaseUrl) : null;
  const tRun0 = now();
  const killer = o.killEvery > 0 ? startKiller(bench, prodStack, tRun0) : null;
  const loop = o.rate ? openLoop : closedLoop;
  const arrivals = await loop(
    bench,
    bench.pairs.slice(o.warmup),
    (p) => runTransaction(bench, p, false),
    tRun0,
  );
  const killed = await killer?.stop();
  const wallMs = now() - tRun0;
  if (killed) procs.workers = killed.workerPids;
  const pgByDb = await pgSplit?.stop();
  const cpu1 = stackCpu(procs, { each });
  cpu1.worker += killed?.cpuMs ?? 0;
  const load1 = os.loadavg();
  const speed1 = speedProbe();
  return {
    wallMs,
    cpu0,
    cpu1,
    load0,
    load1,
    speed0,
    speed1,
    arrivals,
    kills: killed?.kills ?? [],
    pgByDb,
  };
}

// --kill-worker-every MS (with --prod): a worker (a random one of --scale) is SIGKILLed at random moments
// (uniform between half and one and a half times the interval) and replaced, until the last transaction is done.
import { processCpuMs } from "../lib/cpu.mjs";
import { c, fmtMs, info } from "../lib/log.mjs";
import { summary } from "../lib/stats.mjs";
import { now, sleep } from "./page-text.mjs";

/**
 * Starts killing; `stop()` ends it and returns { kills, workerPids (the replacements' among them), cpuMs: the
 * killed workers' CPU, read just before each SIGKILL (its /proc entry goes with it) }: the worker figure counts
 * every worker that ran, a replacement's start-up included.
 */
export function startKiller(bench, prodStack, tRun0) {
  const { o, load } = bench;
  const kills = [];
  const workerPids = [...prodStack.pids.worker];
  let killedCpu = 0;
  let killing = true;
  const loop = (async () => {
    while (killing) {
      await sleep(o.killEvery * (0.5 + Math.random()));
      if (!killing) break;
      const worker = Math.floor(Math.random() * prodStack.workerCount);
      const t = now();
      const busy = load.inFlight;
      killedCpu += processCpuMs(workerPids[worker]);
      workerPids[worker] = await prodStack.killWorker(worker);
      kills.push({ at: t - tRun0, worker, inFlight: busy, restartMs: now() - t });
      info(
        c.dim(
          `killed worker ${worker + 1} at ${((t - tRun0) / 1000).toFixed(1)} s with ${busy} orders in flight; its replacement polled after ${fmtMs(now() - t)}`,
        ),
      );
    }
  })();
  return {
    async stop() {
      killing = false;
      await loop;
      return { kills, workerPids, cpuMs: killedCpu };
    },
  };
}

/** The report's paragraph on the kills. */
export function killsText(o, prodStack, kills) {
  const restart = summary(kills.map((k) => k.restartMs));
  const n = prodStack.workerCount;
  return (
    `Worker kills: **${kills.length} SIGKILLs** (one every ${o.killEvery / 2}–${(o.killEvery * 3) / 2} ms at random, of a random one of the ${n} worker${n > 1 ? "s" : ""}), ` +
    `with ${summary(kills.map((k) => k.inFlight)).p50} order(s) in flight at the median kill (${kills.filter((k) => k.inFlight > 0).length} kills with at least one); a replacement polled after p50 ${fmtMs(restart.p50)}, max ${fmtMs(restart.max)}. ` +
    `Step latencies below include the retries a kill forces (an activity in flight is retried after its timeout; a workflow task after the workflow task timeout), and the worker CPU figures count only the first processes.`
  );
}

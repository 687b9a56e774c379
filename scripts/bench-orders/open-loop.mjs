// --open-loop RATE --duration S: transaction k starts at k / RATE s whatever the earlier ones are doing; the
// report says whether the arrival rate was kept and whether durations grow. The closed loop (the default) is
// here too: --concurrency transactions at a time.
import { KIND_TEXT } from "./checks.mjs";
import { c, info, step } from "../lib/log.mjs";
import { summary } from "../lib/stats.mjs";
import { dur, ms } from "./format.mjs";
import { now, sleep } from "./page-text.mjs";

/** The open loop over `pairs` (`run(p)` one transaction); returns the arrivals: { due, lag } ms after tRun0. */
export async function openLoop(bench, pairs, run, tRun0) {
  const { o, load } = bench;
  const interval = 1000 / o.rate;
  step(
    `timed: open loop, a new order every ${Math.round(interval)} ms (${o.rate}/s) for ${o.duration} s = ${pairs.length} orders`,
  );
  const arrivals = [];
  const running = [];
  let done = 0;
  for (let k = 0; k < pairs.length; k++) {
    const due = k * interval;
    const wait = tRun0 + due - now();
    if (wait > 0) await sleep(wait);
    arrivals.push({ due, lag: now() - tRun0 - due });
    load.inFlight++;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    running.push(
      run(pairs[k]).finally(() => {
        load.inFlight--;
        done++;
      }),
    );
    if ((k + 1) % Math.max(1, Math.round(o.rate * 10)) === 0)
      info(
        c.dim(
          `${k + 1}/${pairs.length} started, ${done} finished, ${load.inFlight} in flight (${((now() - tRun0) / 1000).toFixed(1)} s)`,
        ),
      );
  }
  info(c.dim(`all ${pairs.length} started; waiting for the ${load.inFlight} in flight`));
  await Promise.all(running);
  return arrivals;
}

/** The closed loop: --concurrency transactions at a time until every pair ran. */
export async function closedLoop(bench, pairs, run, tRun0) {
  const { o, load } = bench;
  step(`timed: ${pairs.length} orders, ${o.concurrency} at a time`);
  const q = [...pairs];
  let done = 0;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (q.length) {
        load.inFlight++;
        await run(q.shift());
        load.inFlight--;
        done++;
        if (done % Math.max(1, Math.floor(pairs.length / 4)) === 0)
          info(c.dim(`${done}/${pairs.length} orders (${((now() - tRun0) / 1000).toFixed(1)} s)`));
      }
    }),
  );
  return [];
}

/** The report's paragraph on the arrivals: the rate achieved, the start lag, whether durations grow. */
export function arrivalsText(o, { arrivals, timed, ops, maxInFlight }) {
  const lag = summary(arrivals.map((x) => x.lag));
  const span =
    arrivals.length > 1 ? (arrivals.at(-1).due + arrivals.at(-1).lag - arrivals[0].lag) / 1000 : 0;
  const achieved = span > 0 ? (arrivals.length - 1) / span : NaN;
  const kept =
    arrivals.length === timed.length &&
    (arrivals.length < 2 || achieved >= 0.97 * o.rate) &&
    lag.max < 1000 / o.rate;
  const thirds = [0, 1, 2].map(
    (t) =>
      summary(
        timed
          .filter((_, k) => Math.floor((3 * k) / timed.length) === t && timed[k].ok)
          .map((r) => r.ms),
      ).p50,
  );
  return (
    `Arrivals: ${arrivals.length} orders started at ${Number.isFinite(achieved) ? achieved.toFixed(2) : "—"} orders/s against ${o.rate} asked; start lag behind the schedule p50 ${ms(lag.p50)} ms, ` +
    `p95 ${ms(lag.p95)} ms, max ${ms(lag.max)} ms: **arrival rate ${kept ? "kept" : "NOT kept"}**. Orders in flight at most ${maxInFlight}; ` +
    `completions ${ops.toFixed(2)} orders/s over the whole run (arrivals + drain). One order's duration, p50 of the first / middle / last third of the arrivals: ` +
    `${dur(thirds[0])} / ${dur(thirds[1])} / ${dur(thirds[2])} (growing = the stack does not keep up with the rate).` +
    byKind(timed)
  );
}

/** With several kinds of order (--offers, --mix): one order's duration p50 per kind, and how long it sat waiting. */
function byKind(timed) {
  const kinds = [...new Set(timed.map((r) => r.kind))];
  if (kinds.length < 2) return "";
  const parts = kinds.map((k) => {
    const done = timed.filter((r) => r.kind === k && r.ok);
    const d = summary(done.map((r) => r.ms)).p50;
    const wait = summary(done.map((r) => r.lagMs ?? 0)).p50;
    return `${KIND_TEXT[k] ?? k} ${dur(d)} (of which waiting for a page to show a state ${dur(wait)})`;
  });
  return ` By kind, p50: ${parts.join("; ")}.`;
}

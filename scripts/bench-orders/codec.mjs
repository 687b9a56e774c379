// --prod --codec both (options.mjs): what the payload codec (temporal/codec.ts, ADR 0040) costs. The same run
// twice, each on a fresh stack of the bench's own (prod-stack.mjs): the codec on, as production runs, then off
// (PAYLOAD_CODEC=off, the same build). One report, block <!-- orders-codec:… -->: per run the CPU per completed
// purchase of the web and worker processes (where the codec seals and opens every payload) and every click's
// p95, then the difference.
import { c, step } from "../lib/log.mjs";
import { dur, f0, ms } from "./format.mjs";
import { measuredText } from "./report.mjs";
import { commandLine } from "./options.mjs";

/** Runs `runOnce` (scripts/bench-orders.mjs) with the codec on, then off; { report, json, code } of the pair. */
export async function codecComparison(o, runOnce) {
  step("payload codec ON (1 of 2)");
  const on = await runOnce({ ...o, codec: "on" });
  step("payload codec OFF (2 of 2): a fresh stack with PAYLOAD_CODEC=off, the same build");
  const off = await runOnce({ ...o, codec: "off", build: false });
  const report = codecText(o, on, off);
  console.log(`\n${c.bold("Payload codec on vs off")}\n\n${report}\n`);
  return { report, json: { on: on.json, off: off.json }, code: Math.max(on.code, off.code) };
}

/** The figures compared, of one run: per completed purchase (CPU ms) and per click (ms). */
function figuresOfRun({ figures: f, run }) {
  const n = f.completed.length;
  const per = (v) => (n ? v / n : NaN);
  return {
    completed: `${n} of ${f.timed.length}`,
    checked: `${f.checked.ok} of ${n}, ${f.checked.doubles} doubles`,
    ops: f.ops,
    clickP50: f.clicksAll.p50,
    clickP95: f.clicksAll.p95,
    web: per(f.cpuUsed.web),
    worker: per(f.cpuUsed.worker),
    webWorker: per(f.cpuUsed.web + f.cpuUsed.worker),
    temporal: per(f.cpuUsed.temporal),
    postgres: per(f.cpuUsed.postgres),
    load: `${run.load0[0].toFixed(1)} → ${run.load1[0].toFixed(1)}`,
    speed: `${Math.round(run.speed0)} / ${Math.round(run.speed1)}`,
  };
}

/** on − off, signed ("+12"), and its share of off ("+4 %"); "—" when a figure is missing. */
function delta(on, off, digits = 0) {
  if (!Number.isFinite(on) || !Number.isFinite(off)) return { d: "—", pct: "—" };
  const d = on - off;
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  return {
    d: `${sign}${Math.abs(d).toFixed(digits)}`,
    pct: off ? `${sign}${Math.abs((100 * d) / off).toFixed(0)} %` : "—",
  };
}

/** The comparison (markdown): where and how, the table, and the codec's cost in one sentence. */
export function codecText(o, on, off) {
  const a = figuresOfRun(on);
  const b = figuresOfRun(off);
  const row = (name, x) =>
    `| ${name} | ${x.completed} | ${x.ops.toFixed(2)} | ${ms(x.clickP50)} | **${ms(x.clickP95)}** | ${f0(x.web)} | ${f0(x.worker)} | **${f0(x.webWorker)}** | ${f0(x.temporal)} | ${f0(x.postgres)} | ${x.checked} | ${x.load} | ${x.speed} |`;
  const cost = (k, digits) => delta(a[k], b[k], digits);
  const costs = (k, digits) => `${cost(k, digits).d} (${cost(k, digits).pct})`;
  return [
    `${measuredText(on.o, on.run, on.prodStack)} Then the same run again on a fresh stack with the **payload codec off** (PAYLOAD_CODEC=off, the same build).`,
    "",
    `\`${commandLine(o)}\`: each run as \`--prod\` runs purchases (full pages, closed loop, ${o.concurrency} at a time, ${o.warmup} warm-up order before); CPU of each process from /proc during the timed run, per completed purchase.`,
    "",
    "| payload codec | purchases completed | orders/s | click p50 ms | click p95 ms | web CPU ms / purchase | worker CPU ms / purchase | web + worker CPU ms / purchase | Temporal CPU ms / purchase | Postgres CPU ms / purchase | checked afterwards | load avg start → end | speed probe ms before / after |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    row("on (production)", a),
    row("off (`PAYLOAD_CODEC=off`)", b),
    `| on − off | | ${costs("ops", 2)} | ${costs("clickP50")} | **${costs("clickP95")}** | ${costs("web")} | ${costs("worker")} | **${costs("webWorker")}** | ${costs("temporal")} | ${costs("postgres")} | | | |`,
    "",
    `Codec figures: with the codec the web and worker processes use **${cost("webWorker").d} ms of CPU per purchase** ` +
      `(${cost("webWorker").pct}: ${f0(a.webWorker)} ms on, ${f0(b.webWorker)} ms off) and every click's p95 changes by ` +
      `**${cost("clickP95").d} ms** (${cost("clickP95").pct}: ${dur(a.clickP95)} on, ${dur(b.clickP95)} off). One run each ` +
      `on a shared box: a difference no larger than the spread of the speed probes and load averages between the two ` +
      `runs is noise.`,
  ].join("\n");
}

// The run's report (the header of scripts/bench-orders.mjs, step 3): printed, and written into the mode's block of
// docs/performance.md. Every report names its mode, build, date, cores and command, and ends with the figures
// the mode is judged by.
import os from "node:os";
import { summary } from "../lib/stats.mjs";
import { CHECK_TEXT, KIND_TEXT } from "./checks.mjs";
import { dur, f0, ms } from "./format.mjs";
import { breakdownText } from "./history.mjs";
import { killsText } from "./kills.mjs";
import { RMA_STEPS } from "./mix.mjs";
import { OFFER_STEPS } from "./offers.mjs";
import { arrivalsText } from "./open-loop.mjs";
import { commandLine } from "./options.mjs";
import { BUY_STEPS } from "./purchases.mjs";
import { SWAP_STEPS } from "./swaps.mjs";

/** The figures of the timed run: per step, every click, every transaction, CPU. */
export function figuresOf(bench, run, outcome) {
  const { o, samples, views } = bench;
  const { completed } = outcome;
  // --mix: a purchase's steps (its add to cart, terms and pay also count the swaps'), the swaps' own, the RMAs'.
  const STEPS = o.mix
    ? [...BUY_STEPS, ...SWAP_STEPS.filter((x) => !BUY_STEPS.includes(x)), ...RMA_STEPS]
    : o.offers
      ? [...BUY_STEPS.slice(0, 3), ...OFFER_STEPS, ...BUY_STEPS.slice(3)]
      : o.swaps
        ? SWAP_STEPS
        : BUY_STEPS;
  const timedSamples = samples.filter((x) => !x.warm);
  const rows = STEPS.map((s) => {
    const xs = timedSamples.filter((x) => x.step === s);
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
  const cpuUsed = Object.fromEntries(
    Object.keys(run.cpu0).map((k) => [k, run.cpu1[k] - run.cpu0[k]]),
  );
  const stackMs = cpuUsed.web + cpuUsed.worker + cpuUsed.temporal + cpuUsed.postgres;
  return {
    ...outcome,
    rows,
    clicksAll: summary(timedSamples.map((x) => x.total)),
    viewsAll: summary(views),
    orderMs: summary(completed.map((r) => r.ms)),
    busyTotal: timedSamples.reduce((a, x) => a + x.busy, 0),
    ops: completed.length / (run.wallMs / 1000),
    cpuUsed,
    stackMs,
    others: Math.max(0, cpuUsed.box - stackMs - cpuUsed.bench),
  };
}

/** The stack the run measured. */
function stackText(o, prodStack) {
  if (!o.prod && o.topology)
    return `against \`npm run prod\`'s topology (${o.baseUrl}: production build, web processes behind rr-proxy, workers on task queue \`${o.taskQueue}\`, the Temporal server ${o.temporalAddress} as ${o.topology.length} processes (${o.topology.join(", ")}) on PostgreSQL ${new URL(o.databaseUrl).port})`;
  if (!o.prod)
    return `against the running \`npm run dev\` stack (${o.baseUrl}: remix dev build, worker on task queue \`${o.taskQueue}\`, Temporal dev server ${o.temporalAddress}, Postgres ${new URL(o.databaseUrl).port})`;
  const scaled = o.scale > 1;
  return (
    `against the bench's own **production build** (${o.baseUrl}: ${scaled ? `**${o.scale} web processes** (:${prodStack.webPorts.join(", :")}) behind a round-robin proxy (scripts/lib/rr-proxy.mjs), each ` : ""}\`NODE_ENV=production node workers/web.mjs\` serving \`remix build\` output; ${scaled ? `**${o.scale} workers**` : "worker"} \`NODE_ENV=production\` ` +
    `with workflows ${prodStack.workflows === "prebuilt bundle" ? "from the prebuilt bundle (build/workflow-bundle.js)" : `**${prodStack.workflows}** (the bundle was missing or older than the sources)`}, ` +
    `task queue \`${o.taskQueue}\`; its own Temporal dev server ${o.temporalAddress} (file-backed, fresh) and Postgres ${new URL(o.databaseUrl).port} (fresh, migrated + demo seed); ` +
    `APP_ENV=staging with throwaway webhook secrets, sandbox payments, ${o.codec === "off" ? "**payload codec off** (PAYLOAD_CODEC=off)" : "payload codec on"})`
  );
}

/** When and where: the date, the box, the stack, the load and the speed probe. */
export function measuredText(o, run, prodStack) {
  const cpuInfo = os.cpus();
  return (
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${cpuInfo.length} cores (${cpuInfo[0]?.model?.trim() ?? "?"}), ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${stackText(o, prodStack)}; load average ` +
    `${run.load0[0].toFixed(1)} at the start and ${run.load1[0].toFixed(1)} at the end (the box is shared with other work); ` +
    `speed probe (a fixed JavaScript workload, lower = faster box) ${Math.round(run.speed0)} ms before the run and ${Math.round(run.speed1)} ms after.`
  );
}

/** What one transaction does in this mode. */
function flowText(o) {
  if (o.mix)
    return "purchases, swaps and purchases followed by an RMA in turn (a purchase 8 clicks; a swap 14; an RMA 4 wizard steps by the buyer, Process RMA and Confirm by staff and, every second one, the return parcel's pickup and delivery), no think time";
  if (o.offers)
    return "purchases by checkout, by an accepted offer and over the buyer's limit in turn (a checkout's 8 clicks and 9 page views by three users; an offer's 7 clicks: the buyer's offer, the seller's acceptance, then the purchase's pickup, delivery and rating; a purchase over its buyer's limit the checkout's 8 clicks and the store approver's Approve purchase), no think time";
  if (o.swaps)
    return "each swap 14 clicks by the receiver, the provider and staff (pre-authorisation, choice, both approvals, both payments, both pickups and deliveries, both ratings), no think time";
  if (o.commandsOnly) {
    return `each order 8 commands: the POSTs of the same forms to the same Remix actions, ${o.documentPosts ? "as a browser without JavaScript sends them (an action that answers 200 renders its page)" : "as the hydrated app's forms send them (single fetch, <path>.data: the action's data alone, no page rendered)"}, redirects not followed and no page loaded; asynchronous steps polled in the order's read-model row every ${o.pollMs} ms`;
  }
  return "each order 8 clicks and 9 page views by three users, no think time";
}

/** The headline: completed transactions and their rate, every click's latency, errors, the check afterwards. */
function resultText(o, run, f) {
  const modeText = o.rate
    ? `open loop: a new order started every ${Math.round(1000 / o.rate)} ms (${o.rate} orders/s) for ${o.duration} s, each running its whole flow on its own`
    : `closed loop: ${o.concurrency} at a time`;
  const unit = o.commandsOnly ? "command" : "click";
  const noun = o.mix ? "transactions" : o.swaps ? "swaps" : "orders";
  const { completed, timed, checked, clicksAll, viewsAll, orderMs, busyTotal } = f;
  return (
    `\`${commandLine(o)}\` (${o.commandsOnly ? "**commands only**" : "full pages"}, ${o.rate ? "**open loop**" : "closed loop"}, ${o.prod || o.topology ? "**production build**" : "dev build"}): ` +
    `**${completed.length} of ${timed.length} ${noun} completed in ${(run.wallMs / 1000).toFixed(1)} s = ` +
    `${f.ops.toFixed(2)} ${noun}/s**, ${modeText} (${flowText(o)}; ${o.warmup} warm-up order before${o.commandsOnly ? ", clicked through its pages: its forms are the commands' templates" : ""}). ` +
    `Every ${unit}: p50 ${dur(clicksAll.p50)}, **p95 ${dur(clicksAll.p95)}**, max ${dur(clicksAll.max)}. ` +
    (o.commandsOnly
      ? ""
      : `Page views between clicks (GET, ${viewsAll.n}): p50 ${dur(viewsAll.p50)}, p95 ${dur(viewsAll.p95)}. `) +
    `One ${o.mix ? "transaction from its" : o.swaps ? "swap from the receiver's" : "order from the buyer's"} first ${unit} to ${o.commandsOnly ? "its rating in the read model" : '"Rating saved!"'}: p50 ${dur(orderMs.p50)}, p95 ${dur(orderMs.p95)}. ` +
    `Errors: ${f.failed.length}${busyTotal ? ` (and ${busyTotal} ${busyTotal === 1 ? unit : `${unit}s`} refused with "This order is being updated right now. Please try again in a moment." and sent again, counted in their step's time)` : ""}. ` +
    `Checked afterwards in the read model and at the payment provider: **${checked.ok} of ${completed.length}** exactly as expected ` +
    `(${Object.entries(checked.kinds)
      .map(([k, v]) => `${KIND_TEXT[k]} ${v.ok} of ${v.n}`)
      .join(", ")}: ${Object.keys(checked.kinds)
      .map((k) => CHECK_TEXT[k])
      .join("; ")}), ` +
    `**${checked.doubles} with a second authorisation, capture, transfer, refund or charge**.`
  );
}

/** Who clicks each shared step, by mode (the per-side steps name their side). */
function whoOf(o) {
  if (o.mix)
    return {
      "add to cart": "buyer or receiver",
      "accept terms": "buyer or receiver",
      pay: "buyer or receiver",
      approve: "seller",
      pickup: "staff",
      delivery: "staff",
      "confirm received": "buyer",
      rate: "buyer",
    };
  if (o.swaps) return { "add to cart": "receiver", "accept terms": "receiver", pay: "receiver" };
  if (o.offers)
    return {
      ...whoOf({}),
      "make offer": "buyer",
      "accept offer": "seller",
      "store approve": "the buyer's store's approver",
    };
  return {
    "add to cart": "buyer",
    "accept terms": "buyer",
    pay: "buyer",
    approve: "seller",
    pickup: "staff",
    delivery: "staff",
    "confirm received": "buyer",
    rate: "buyer",
  };
}

/** The per-step latency table, with the sentence that explains it. */
function stepTable(o, rows) {
  const lines = [
    o.commandsOnly
      ? `Latency from the command (POST sent) to the read model showing the new state, ms; action = until the POST's answer (redirect not followed), wait = polling the order's row every ${o.pollMs} ms until it shows the state:`
      : "Latency from the click (POST sent) to the page showing the new state, ms; action = until the POST's answer, page = the landing page (redirect followed), wait = reloading every " +
        `${o.pollMs} ms until the state shows:`,
    "",
    `| step (who) | count | p50 | p95 | p99 | max | action p50 | page p50 | wait p50 / p95 | ${o.commandsOnly ? "polls" : "reloads"} | refused busy |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const WHO = whoOf(o);
  for (const r of rows) {
    const who = WHO[r.step]
      ? ` (${WHO[r.step]})`
      : r.step.startsWith("pickup") || r.step.startsWith("delivery")
        ? " (staff)"
        : "";
    lines.push(
      `| ${r.step}${who} | ${r.total.n} | ${ms(r.total.p50)} | **${ms(r.total.p95)}** | ${ms(r.total.p99)} | ${ms(r.total.max)} | ${ms(r.action.p50)} | ${o.commandsOnly ? "—" : ms(r.page.p50)} | ${ms(r.wait.p50)} / ${ms(r.wait.p95)} | ${r.polls} | ${r.busy} |`,
    );
  }
  return lines;
}

/** CPU during the timed run, per component and per completed transaction. */
function cpuText(run, { cpuUsed, stackMs, others, completed }) {
  const cores = os.cpus().length;
  const s = (v) => (v / 1000).toFixed(1);
  const pctOf = (v) => `${((100 * v) / Math.max(1, cpuUsed.box)).toFixed(0)} %`;
  const per = (v) => f0(v / completed.length);
  // npm run prod: the Temporal server's CPU by service (processes.mjs temporal_<service>)
  const services = Object.keys(cpuUsed).filter((k) => k.startsWith("temporal_"));
  const bySvc = (f) =>
    services.length ? ` (${services.map((k) => `${k.slice(9)} ${f(cpuUsed[k])}`).join(", ")})` : "";
  return (
    `CPU during the timed run (${(run.wallMs / 1000).toFixed(1)} s × ${cores} cores = ${((run.wallMs * cores) / 1000).toFixed(0)} core-s; from /proc): ` +
    `web ${s(cpuUsed.web)} s, worker ${s(cpuUsed.worker)} s, Temporal ${s(cpuUsed.temporal)} s${bySvc(s)}, ` +
    `Postgres ${s(cpuUsed.postgres)} s, this script ${s(cpuUsed.bench)} s, everything else on the box ${s(others)} s ` +
    `(box busy ${s(cpuUsed.box)} s: stack ${pctOf(stackMs)}, others ${pctOf(others)}). ` +
    (completed.length
      ? `Per completed order: web ${per(cpuUsed.web)} ms, worker ${per(cpuUsed.worker)} ms, Temporal ${per(cpuUsed.temporal)} ms${bySvc(per)}, Postgres ${per(cpuUsed.postgres)} ms of CPU.`
      : "")
  );
}

/**
 * The figures the default modes are judged by, each with the configuration it was measured in; a target is
 * judged only when the run's configuration is the one the target names.
 */
function issue9Text(o, { rows, ops, completed, cpuUsed, clicksAll }, prodWorkflows) {
  const total = (name) => rows.find((r) => r.step === name)?.total ?? summary([]);
  const verdict = (ok) => (ok ? "**met**" : "**not met**");
  const build = o.prod || o.topology ? "production build" : "dev build"; // --prod's, or npm run prod's
  const parts = [];
  parts.push(
    `Temporal server CPU per completed order: **${completed.length ? f0(cpuUsed.temporal / completed.length) : "—"} ms** (${build})`,
  );
  const oneAtATime = !o.rate && o.concurrency === 1;
  parts.push(
    `pay p50 **${ms(total("pay").p50)} ms**, approve p50 **${ms(total("approve").p50)} ms** ` +
      (oneAtATime
        ? `one order at a time (${build}${o.commandsOnly ? ", commands only" : ""})`
        : `at ${o.rate ? `${o.rate} arrivals/s` : `${o.concurrency} concurrent orders`} (the one-at-a-time figure needs \`--concurrency 1\`)`),
  );
  if (!o.rate && !o.commandsOnly) {
    const slowest = rows.reduce(
      (m, r) => (Number.isFinite(r.total.p95) && (!m || r.total.p95 > m.total.p95) ? r : m),
      null,
    );
    const target =
      o.prod && o.scale === 1 && o.concurrency === 20 && prodWorkflows === "prebuilt bundle";
    parts.push(
      `**${ops.toFixed(2)} orders/s** at ${o.concurrency} concurrent orders on the ${build}, every step's p95 in the table (slowest: ${slowest ? `${slowest.step} ${ms(slowest.total.p95)} ms` : "—"}); ` +
        `target ≥ 3 orders/s at 20 concurrent orders on the production build: ${target ? verdict(ops >= 3) : "not this configuration (needs `--prod --orders 20 --concurrency 20`, one web process and one worker)"}`,
    );
  }
  if (o.rate)
    parts.push(
      `open loop ${o.rate}/s for ${o.duration} s (${build}${o.commandsOnly ? ", commands only" : ""}): every ${o.commandsOnly ? "command" : "click"} p95 **${ms(clicksAll.p95)} ms**, per step in the table`,
    );
  if (o.commandsOnly) {
    parts.push(
      `commands only: **${ops.toFixed(2)} orders/s** ${o.rate ? `at ${o.rate} arrivals/s` : `at ${o.concurrency} concurrent orders`} (${build}); target ≥ 8 orders/s: ` +
        (o.rate ? "not this configuration (closed loop measures the ceiling)" : verdict(ops >= 8)),
    );
  }
  return `Purchase figures: ${parts.join("; ")}.`;
}

/** The closing figures of the mode: mixed, swaps, or the purchases' targets. */
function closingText(o, f, prodStack) {
  const loop = o.rate ? `open loop ${o.rate}/s` : `${o.concurrency} at a time`;
  const build = o.prod || o.topology ? "production build" : "dev build"; // --prod's, or npm run prod's
  const perCompleted = f.completed.length ? f0(f.cpuUsed.temporal / f.completed.length) : "—";
  if (o.mix)
    return `Mixed figures: **${f.ops.toFixed(2)} transactions/s** (${loop}, ${build}); click → page showing the new state p95 **${ms(f.clicksAll.p95)} ms**; Temporal server CPU per completed transaction **${perCompleted} ms**.`;
  if (o.swaps)
    return `Swap figures: **${f.ops.toFixed(2)} swaps/s** (${loop}, ${build}); click → page showing the new state p95 **${ms(f.clicksAll.p95)} ms** (every step's in the table); Temporal server CPU per completed swap **${perCompleted} ms**.`;
  return issue9Text(o, f, prodStack?.workflows);
}

/** The whole report (markdown). */
export function reportText(bench, run, f, prodStack) {
  const { o } = bench;
  const lines = [measuredText(o, run, prodStack), "", resultText(o, run, f)];
  if (o.killEvery > 0) lines.push("", killsText(o, prodStack, run.kills));
  if (o.rate)
    lines.push(
      "",
      arrivalsText(o, {
        arrivals: run.arrivals,
        timed: f.timed,
        ops: f.ops,
        maxInFlight: bench.load.maxInFlight,
      }),
    );
  lines.push("", ...stepTable(o, f.rows), "", cpuText(run, f), "", closingText(o, f, prodStack));
  if (f.breakdown) lines.push("", breakdownText(f.breakdown));
  if (f.failed.length) {
    lines.push("", "Failed orders:");
    for (const x of f.failed)
      lines.push(`- order ${x.i}${x.orderId ? ` (#${x.orderId})` : ""}: ${x.error.split("\n")[0]}`);
  }
  if (f.checked.problems.length) {
    lines.push("", "Found by the check afterwards:");
    for (const p of f.checked.problems) lines.push(`- ${p}`);
  }
  return lines.join("\n");
}

/**
 * --json FILE: the figures npm run bench:topology tabulates. cpuMs: CPU ms during the timed run by part (web,
 * worker, temporal, temporal_<service>, postgres, each_web-<i>, each_worker-<i>, each_proxy, bench, box, others);
 * pgByDb: PostgreSQL's client backends by database (pg-split.mjs).
 */
export function figuresJson(bench, run, f) {
  const { o } = bench;
  return {
    stack: o.prod ? "dev-server" : o.topology ? "topology" : "dev",
    topology: o.topology,
    loop: o.rate
      ? { open: true, rate: o.rate, duration: o.duration }
      : { open: false, concurrency: o.concurrency },
    command: commandLine(o),
    measuredAt: new Date().toISOString(),
    timed: f.timed.length,
    completed: f.completed.length,
    failed: f.failed.length,
    checkedOk: f.checked.ok,
    doubles: f.checked.doubles,
    problems: f.checked.problems.length,
    wallMs: run.wallMs,
    ops: f.ops,
    clickP50: f.clicksAll.p50,
    clickP95: f.clicksAll.p95,
    cpuMs: { ...f.cpuUsed, others: f.others },
    pgByDb: run.pgByDb ?? null,
    load: [run.load0[0], run.load1[0]],
    speed: [run.speed0, run.speed1],
  };
}

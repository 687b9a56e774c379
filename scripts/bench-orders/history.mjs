// Where each purchase step's time went inside Temporal, from the orders' histories: the window of every step
// (update: from the workflow task that admitted it to UpdateCompleted; carrier signal: from Signaled to the end
// of the first read-model write after it), and what filled it: workflow tasks (queue wait + run) and activities
// (queue wait + run, by activity type).
import fs from "node:fs";
import { summary } from "../lib/stats.mjs";
import { f0, ms } from "./format.mjs";

/** Event time in ms. */
function evMs(e) {
  const t = e.eventTime;
  return Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
}
/** The JSON text of an activity's input payloads (json/plain), for matching. */
function payloadText(input) {
  try {
    return (input?.payloads ?? [])
      .map((p) => Buffer.from(p.data ?? []).toString("utf8"))
      .join("\n");
  } catch {
    return "";
  }
}
/** The event's kind from its attributes field (activityTaskScheduledEventAttributes → activityTaskScheduled). */
function evKind(e) {
  for (const k of Object.keys(e))
    if (k.endsWith("EventAttributes") && e[k]) return k.slice(0, -"EventAttributes".length);
  return "";
}
function evAttrs(e) {
  return e[`${evKind(e)}EventAttributes`] ?? {};
}

const UPDATE_STEP = {
  completeCheckout: "pay",
  approveSale: "approve",
  confirmReceived: "confirm received",
  rateOrder: "rate",
};

/** A history's workflow tasks and activities as intervals, its local activities' markers, its activity retries. */
function intervals(id, ev) {
  const byId = new Map(ev.map((e) => [Number(e.eventId), e]));
  const out = { wfts: [], acts: [], locals: [], retries: [] };
  for (const e of ev) {
    const k = evKind(e);
    const a = evAttrs(e);
    if (k === "markerRecorded") {
      // Local activities (e.g. recordOrderState): a marker at the end of their workflow task.
      const text = Object.values(a.details ?? {})
        .map(payloadText)
        .join("\n");
      const type = text.match(/"activity_?[tT]ype"\s*:\s*"([^"]+)"/)?.[1];
      if (type) out.locals.push({ type, e: evMs(e) });
    }
    const sched = byId.get(Number(a.scheduledEventId));
    const started = byId.get(Number(a.startedEventId));
    if (
      (k === "workflowTaskCompleted" ||
        k === "workflowTaskFailed" ||
        k === "workflowTaskTimedOut") &&
      sched &&
      started
    )
      out.wfts.push({ s: evMs(sched), st: evMs(started), e: evMs(e) });
    if (k === "activityTaskStarted" && Number(a.attempt ?? 1) > 1) {
      out.retries.push({
        order: id,
        type: sched ? evAttrs(sched).activityType?.name : "?",
        attempt: Number(a.attempt),
        failure: a.lastFailure?.message ?? "?",
      });
    }
    if (
      (k === "activityTaskCompleted" ||
        k === "activityTaskFailed" ||
        k === "activityTaskTimedOut") &&
      sched &&
      started
    ) {
      out.acts.push({
        type: evAttrs(sched).activityType?.name ?? "?",
        s: evMs(sched),
        st: evMs(started),
        e: evMs(e),
        input: payloadText(evAttrs(sched).input),
      });
    }
  }
  return out;
}

/** An update's window: from the workflow task that admitted it (the last one scheduled before) to its completion. */
function updateWindow(ev, i, a) {
  const step = UPDATE_STEP[a.acceptedRequest?.input?.name];
  if (!step) return null;
  const updateId = a.protocolInstanceId ?? a.acceptedRequest?.meta?.updateId;
  let start = evMs(ev[i]);
  for (let j = i - 1; j >= 0; j--)
    if (evKind(ev[j]) === "workflowTaskScheduled") {
      start = evMs(ev[j]);
      break;
    }
  const done = ev
    .slice(i + 1)
    .find(
      (x) =>
        evKind(x) === "workflowExecutionUpdateCompleted" &&
        (evAttrs(x).meta?.updateId === updateId || !updateId),
    );
  return done ? { step, s: start, e: evMs(done) } : null;
}

/** The steps' windows in one history. */
function stepWindows(ev, { acts, locals }) {
  const windows = [];
  let carrierSeen = 0;
  for (let i = 0; i < ev.length; i++) {
    const e = ev[i];
    const k = evKind(e);
    const a = evAttrs(e);
    if (k === "workflowExecutionUpdateAccepted") {
      const w = updateWindow(ev, i, a);
      if (w) windows.push(w);
    }
    if (k === "workflowExecutionSignaled" && a.signalName === "carrierEvent") {
      const step = carrierSeen++ === 0 ? "pickup" : "delivery";
      // The write that shows the step's state (a delivery may arrive while the pickup's writes still run).
      const state = step === "pickup" ? "in_route" : "delivered";
      const write = acts
        .filter(
          (x) =>
            x.type === "recordOrderState" &&
            x.s >= evMs(e) &&
            x.input.includes(`"statename":"${state}"`),
        )
        .sort((x, y) => x.e - y.e)[0];
      // Since the read-model write became a local activity: its marker, the first after the signal.
      const local = write
        ? null
        : locals.find((x) => x.type === "recordOrderState" && x.e >= evMs(e));
      if (write) windows.push({ step, s: evMs(e), e: write.e });
      else if (local) windows.push({ step, s: evMs(e), e: local.e });
    }
  }
  return windows;
}

/** What filled a window: its workflow tasks and activities. */
function windowEntry(w, { wfts, acts, locals }) {
  const inW = (x) => x.s >= w.s && x.e <= w.e;
  const ws = wfts.filter(inW);
  const as = acts.filter(inW);
  return {
    window: w.e - w.s,
    wftWait: ws.reduce((t, x) => t + (x.st - x.s), 0),
    wftRun: ws.reduce((t, x) => t + (x.e - x.st), 0),
    wfts: ws.length,
    actWait: as.reduce((t, x) => t + (x.st - x.s), 0),
    actRun: as.reduce((t, x) => t + (x.e - x.st), 0),
    acts: [
      ...as.map((x) => x.type),
      ...locals.filter((x) => x.e >= w.s && x.e <= w.e).map((x) => `${x.type} (local)`),
    ],
  };
}

/** Adds one order's history to the totals. */
function addHistory(totals, id, ev) {
  const iv = intervals(id, ev);
  totals.retries.push(...iv.retries);
  for (const w of iv.wfts) {
    totals.wftWait.push(w.st - w.s);
    totals.wftRun.push(w.e - w.st);
  }
  for (const a of iv.acts) {
    if (!totals.activities.has(a.type)) totals.activities.set(a.type, { wait: [], run: [] });
    totals.activities.get(a.type).wait.push(a.st - a.s);
    totals.activities.get(a.type).run.push(a.e - a.st);
  }
  for (const w of stepWindows(ev, iv)) {
    if (!totals.steps.has(w.step)) totals.steps.set(w.step, []);
    totals.steps.get(w.step).push(windowEntry(w, iv));
  }
}

/** The breakdown of the purchases `orderIds` (BENCH_ORDERS_DUMP_HISTORY=<file>: the first one's events written there). */
export async function temporalBreakdown(o, orderIds) {
  if (orderIds.length === 0) return null;
  const { Client, Connection } = await import("@temporalio/client");
  const { buyWorkflowId } = await import("../../workflows/buy/contract.ts");
  const connection = await Connection.connect({ address: o.temporalAddress });
  const client = new Client({ connection, namespace: o.namespace });
  // steps: step -> [{ window, wftWait, wftRun, actWait, actRun, acts }]; activities: type -> { wait: [], run: [] }
  const totals = { steps: new Map(), activities: new Map(), wftWait: [], wftRun: [], retries: [] };
  try {
    for (const id of orderIds) {
      const h = await client.workflow.getHandle(buyWorkflowId(id)).fetchHistory();
      const ev = h.events ?? [];
      if (process.env.BENCH_ORDERS_DUMP_HISTORY && id === orderIds[0])
        fs.writeFileSync(process.env.BENCH_ORDERS_DUMP_HISTORY, JSON.stringify(ev, null, 1));
      addHistory(totals, id, ev);
    }
  } finally {
    await connection.close().catch(() => {});
  }
  return {
    steps: totals.steps,
    activities: totals.activities,
    retries: totals.retries,
    wftWait: summary(totals.wftWait),
    wftRun: summary(totals.wftRun),
    orders: orderIds.length,
  };
}

/** The breakdown's table of step windows. */
function windowsTable(b) {
  const out = [
    "| step | window p50 | window p95 | workflow tasks: count, queue + run each, in all | activities: queue + run, in all | activities in the window |",
    "|---|---|---|---|---|---|",
  ];
  for (const step of ["pay", "approve", "pickup", "delivery", "confirm received", "rate"]) {
    const xs = b.steps.get(step) ?? [];
    if (!xs.length) continue;
    const med = (f) => summary(xs.map(f)).p50;
    const names = xs[0].acts.reduce((m, a) => m.set(a, (m.get(a) ?? 0) + 1), new Map());
    out.push(
      `| ${step} | ${ms(med((x) => x.window))} | ${ms(summary(xs.map((x) => x.window)).p95)} | ${f0(med((x) => x.wfts))}, ${ms(med((x) => x.wftWait / Math.max(1, x.wfts)))} + ${ms(med((x) => x.wftRun / Math.max(1, x.wfts)))}, ${ms(med((x) => x.wftWait + x.wftRun))} | ` +
        `${ms(med((x) => x.actWait))} + ${ms(med((x) => x.actRun))}, ${ms(med((x) => x.actWait + x.actRun))} | ${[...names].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ")} |`,
    );
  }
  return out;
}

/** The report's section on the breakdown. */
export function breakdownText(b) {
  const out = [];
  out.push(
    `Inside Temporal (from the ${b.orders} orders' histories; ms, medians unless marked): the step's window = update: from the workflow task that admitted it to UpdateCompleted; ` +
      "carrier event: from Signaled to the end of the read-model write (recordOrderState) of the new state (in_route, delivered; when recordOrderState runs as a local activity, to the marker of the first one after the signal). Local activities are listed “(local)”: their time is inside the workflow tasks'. Activities run one after the other, each costing a workflow task to schedule the next.",
  );
  out.push("", ...windowsTable(b), "");
  out.push(
    `Every workflow task of these orders: queue wait p50 ${ms(b.wftWait.p50)} / p95 ${ms(b.wftWait.p95)}, run p50 ${ms(b.wftRun.p50)} / p95 ${ms(b.wftRun.p95)} (${b.wftWait.n} tasks). ` +
      (b.retries.length
        ? `Activity attempts after a first one: ${b.retries.length} (${b.retries.map((r) => `order #${r.order} ${r.type} attempt ${r.attempt} after "${r.failure}"`).join("; ")}).`
        : "No activity needed a second attempt."),
  );
  out.push("", "| activity | count | queue wait p50 / p95 | run p50 / p95 |", "|---|---|---|---|");
  for (const [type, v] of [...b.activities].sort(
    (x, y) => summary(y[1].run).p50 * y[1].run.length - summary(x[1].run).p50 * x[1].run.length,
  )) {
    const w = summary(v.wait);
    const r = summary(v.run);
    out.push(`| ${type} | ${r.n} | ${ms(w.p50)} / ${ms(w.p95)} | ${ms(r.p50)} / ${ms(r.p95)} |`);
  }
  return out.join("\n");
}

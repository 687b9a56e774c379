// --commands-only: the timed orders post the same forms (the warm-up order's, with this order's ids) to the same
// Remix actions, without following the redirects or loading any page; the new state is read from the order's
// read-model row (orders.statename, and a rating row for "rate") every pollMs. The states each step must reach
// are those the warm-up order's pages showed after it (or any later one of the flow).
import crypto from "node:crypto";
import {
  StepError,
  errorText,
  now,
  postRetryingBusy,
  sleep,
  timeTransaction,
} from "./page-text.mjs";

const readOrder = async (bench, id) =>
  (
    await bench.dbh
      .sql`select o.statename, exists (select 1 from ratings r where r.order_id = o.id) as rated from orders o where o.id = ${id}`
  )[0] ?? null;

/** The warm-up order's read-model state after a step, for the timed orders' commands to reach. */
export async function captureState(bench, ctx, stepName) {
  if (!ctx.orderId) return;
  const row = await readOrder(bench, ctx.orderId);
  ctx.capture.states.push({
    step: stepName,
    statename: row?.statename ?? null,
    rated: Boolean(row?.rated),
  });
}

/** The warm-up order's form of a step, as posted (the template of the timed orders' command), and its state. */
export async function recordTemplate(bench, ctx, stepName, { target, body, status }) {
  const u = new URL(target, bench.o.baseUrl);
  ctx.capture.forms[stepName] = {
    target: u.pathname + u.search,
    fields: [...body],
    expectStatus: status,
  };
  await captureState(bench, ctx, stepName);
}

/** The warm-up's form for `stepName` with this order's listing and order ids (and a fresh form_id). */
function commandFor(bench, stepName, p, orderId) {
  const { o, templates } = bench;
  const t = templates.forms[stepName];
  if (!t)
    throw new StepError(`${stepName}: no template (the warm-up order did not post this form)`);
  const W = { order: String(templates.orderId), listing: String(templates.listingId) };
  const swapIn = (s, which, to) =>
    s.replace(new RegExp(`(?<=[/=])${W[which]}(?=$|[&/?#])`, "g"), String(to));
  const swapPath = (s) =>
    /\/listing\//.test(s)
      ? swapIn(s, "listing", p.listingId)
      : orderId
        ? swapIn(s, "order", orderId)
        : s;
  const body = new URLSearchParams();
  for (const [k, v] of t.fields) {
    if (k === "form_id") body.append(k, crypto.randomUUID());
    else if (k === "listingId" && v === W.listing) body.append(k, String(p.listingId));
    else if (/^(order|orderId|order_id|id)$/.test(k) && v === W.order && orderId)
      body.append(k, String(orderId));
    else if (k === "returnTo" || k === "redirectTo") body.append(k, swapPath(v));
    else body.append(k, v);
  }
  const target = swapPath(t.target);
  if (o.documentPosts) return { target, body, expectStatus: t.expectStatus };
  // As Remix's single fetch posts a <Form> (singleFetchUrl): <path>.data ("/" → /_root.data), the query kept;
  // a redirect comes back as 202 with its location in the body.
  const u = new URL(target, o.baseUrl);
  u.pathname = u.pathname === "/" ? "/_root.data" : `${u.pathname.replace(/\/$/, "")}.data`;
  return {
    target: u.pathname + u.search,
    body,
    expectStatus: t.expectStatus === 303 ? 202 : t.expectStatus,
  };
}

/** The states step `stepName` may leave the order in: the warm-up's state after it, or any later one. */
function statesAfter(templates, stepName) {
  const i = templates.states.findIndex((x) => x.step === stepName);
  return i < 0 ? null : new Set(templates.states.slice(i).map((x) => x.statename));
}

/** One command: POST (redirect not followed), then poll the read model until it shows the step's state. */
async function command(bench, ctx, stepName, http, p, { until } = {}) {
  const { o } = bench;
  const cmd = commandFor(bench, stepName, p, ctx.orderId);
  const t0 = now();
  const { r, busy } = await postRetryingBusy(o, http, cmd.target, cmd.body, t0);
  const tAction = now();
  if (r.status !== cmd.expectStatus)
    throw new StepError(
      `${stepName}: POST ${cmd.target} answered ${r.status}${r.location ? ` → ${r.location}` : ""} ${errorText(r.body)}`,
    );
  let polls = 0;
  while (until && !(await until())) {
    if (now() - t0 > o.timeoutMs)
      throw new StepError(
        `${stepName}: the read model did not show the new state within ${o.timeoutMs} ms`,
      );
    polls++;
    await sleep(o.pollMs);
  }
  const tDone = now();
  bench.samples.push({
    step: stepName,
    order: ctx.i,
    total: tDone - t0,
    action: tAction - t0,
    page: 0,
    wait: tDone - tAction,
    polls,
    busy,
    warm: ctx.warm,
  });
  return r;
}

/** One timed purchase as commands alone: the eight POSTs of the buy flow, each polled in the read model. */
export async function runOrderCommands(bench, p) {
  const ctx = { i: p.i, warm: false, orderId: null };
  const buyer = p.buyer.http;
  const seller = p.seller.http;
  const reached = (stepName) => {
    const ok = statesAfter(bench.templates, stepName);
    return async () => {
      const row = await readOrder(bench, ctx.orderId);
      return row && (!ok || ok.has(row.statename)) && (stepName !== "rate" || row.rated);
    };
  };
  const orderOfPair = async () => {
    const [row] = await bench.dbh
      .sql`select id from orders where receiver_id = ${p.buyer.r.id} and provider_id = ${p.seller.r.id} order by id desc limit 1`;
    if (row) ctx.orderId = row.id;
    return row ? reached("accept terms")() : false;
  };
  await timeTransaction(bench, p, ctx, async () => {
    await command(bench, ctx, "add to cart", buyer, p);
    await command(bench, ctx, "accept terms", buyer, p, { until: orderOfPair });
    await command(bench, ctx, "pay", buyer, p, { until: reached("pay") });
    await command(bench, ctx, "approve", seller, p, { until: reached("approve") });
    await command(bench, ctx, "pickup", bench.staff, p, { until: reached("pickup") });
    await command(bench, ctx, "delivery", bench.staff, p, { until: reached("delivery") });
    await command(bench, ctx, "confirm received", buyer, p, { until: reached("confirm received") });
    await command(bench, ctx, "rate", buyer, p, { until: reached("rate") });
  });
}

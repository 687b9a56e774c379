// What the bench reads in the app's pages and answers, and how it posts a form: the pieces every mode shares.
import { htmlDecode } from "../lib/html-forms.mjs";
import { c } from "../lib/log.mjs";

export const now = () => performance.now();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A step that did not reach its state: reported by its message alone. */
export class StepError extends Error {}

/** The test card, as the card forms take it; and as the payment forms take a new one. */
export const TEST_CARD = {
  card_number: "4242 4242 4242 4242",
  card_expiry: "12/34",
  card_cvc: "123",
};
export const NEW_CARD = { card_choice: "new", ...TEST_CARD };
/** The rating modal's fields (intent=rate, four criteria, comments). */
export const RATING = {
  condition: 5,
  packaging: 4,
  timeliness: 5,
  overall: 4,
  comments: "Bench: well packed.",
};

const BUSY_TEXT = "This order is being updated right now. Please try again in a moment.";

export const stripComments = (html) => html.replace(/<!-- -->/g, "");
/** The error a page shows, if any. */
export const errorText = (html) =>
  stripComments(html).match(
    /data-testid="(?:action-error|pay-error|pay-order-error|cart-error|checkout-form-error|admin-error|rate-error|card-error)"[^>]*>([^<]*)/,
  )?.[1] ?? "";
export const hasField = (f, name, value) => f.fields.some(([k, v]) => k === name && v === value);
const testIdText = (h, id) =>
  htmlDecode(stripComments(h).match(new RegExp(`data-testid="${id}"[^>]*>([^<]*)`))?.[1] ?? "");
export const shipmentStatus = (h) => testIdText(h, "shipment-status");
export const swapStatus = (h) => testIdText(h, "swap-status");

/** One order's card on the admin list. */
export function orderCardOf(html, id) {
  const s = stripComments(html);
  const at = s.indexOf(`data-testid="admin-order-card" data-order-id="${id}"`);
  if (at < 0) return "";
  const next = s.indexOf('data-testid="admin-order-card"', at + 10);
  return s.slice(at, next < 0 ? undefined : next);
}

/** The admin card's section of one side's parcel (a swap ships both ways). */
export function parcelOf(html, id, side) {
  const card = orderCardOf(html, id);
  const at = card.indexOf(`data-testid="admin-parcel-${side}"`);
  if (at < 0) return "";
  const end = card.indexOf('data-testid="admin-parcel-', at + 10);
  return card.slice(at, end < 0 ? undefined : end);
}

/**
 * POSTs a form; a refusal because the order's previous step still runs (409, "try again in a moment") is sent
 * again after pollMs, as a user would click again. Commands wait instead of refusing now, so `busy` should be
 * 0: it is counted so that a regression shows in the report's "refused busy" column. Time counts from `t0`.
 */
export async function postRetryingBusy(o, http, target, body, t0) {
  let r = await http.postForm(target, body);
  let busy = 0;
  while (r.status === 409 && r.body.includes(BUSY_TEXT) && now() - t0 < o.timeoutMs) {
    busy++;
    await sleep(o.pollMs);
    r = await http.postForm(target, body);
  }
  return { r, busy };
}

/** What the console calls a transaction of this kind. */
const LABEL = { buy: "order", offer: "offer + order", swap: "swap", rma: "order + RMA" };

/**
 * Runs one transaction's steps (pair `p`, context `ctx`: its ids, `warm`, `at` the step running) and records
 * the outcome in bench.results: ok with its duration, or the error, printed.
 */
export async function timeTransaction(bench, p, ctx, steps) {
  const t0 = now();
  const result = () => ({
    i: p.i,
    kind: p.kind,
    orderId: ctx.orderId,
    rmaId: ctx.rmaId ?? null,
    ms: now() - t0,
    warm: ctx.warm,
    start: t0,
  });
  try {
    await steps();
    bench.results.push({ ...result(), ok: true, lagMs: ctx.lagMs });
  } catch (err) {
    const msg =
      err instanceof StepError ? err.message : `${ctx.at ? `${ctx.at}: ` : ""}${err?.stack ?? err}`;
    bench.results.push({ ...result(), ok: false, error: msg });
    const ids = ctx.orderId ? ` (#${ctx.orderId}${ctx.rmaId ? `, RMA #${ctx.rmaId}` : ""})` : "";
    console.error(c.red(`✗ ${LABEL[p.kind]} ${p.i}${ids}: ${msg}`));
  }
}

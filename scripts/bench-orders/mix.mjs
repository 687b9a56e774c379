// --mix: the pairs take turns, a purchase, a swap, and a purchase followed by its RMA. The RMA: the buyer of a
// delivered, rated purchase asks one unit of its first line back (the wizard's four steps, posted as a browser
// without JavaScript posts them); staff approve it on the admin RMA card; with a return parcel ("Other"), staff
// simulate its pickup and delivery. It ends refunded and charged (docs/product/orders.md).
import { dataAttr, findForm, forms } from "../lib/html-forms.mjs";
import { click, view, viewUntil } from "./clicks.mjs";
import { StepError, hasField, shipmentStatus } from "./page-text.mjs";

/** What each pair does, in turn. */
export const KINDS = ["buy", "swap", "rma"];

/** An RMA's steps, in the order they run (the return parcel's only with "Other"). */
export const RMA_STEPS = [
  "rma: units (buyer)",
  "rma: pictures (buyer)",
  "rma: contact (buyer)",
  "rma: request (buyer)",
  "rma: review (staff)",
  "rma: decide (staff)",
  "rma: return pickup (staff)",
  "rma: return delivery (staff)",
];

/** What pair i does: a turn of KINDS; the RMAs alternate between "Missing units" (2) and "Other" (4). */
export function mixTurn(i) {
  return {
    kind: KINDS[(i - 1) % KINDS.length],
    rmaReason: Math.floor((i - 1) / KINDS.length) % 2 === 0 ? 2 : 4,
  };
}

/** The buyer: the wizard's four steps (units, pictures, contact, confirm); the RMA's id in ctx.rmaId. */
async function buyerAsks(bench, ctx, p) {
  const buyer = p.buyer.http;
  const wizard = `/create-rma/${ctx.orderId}`;
  let page = await view(bench, buyer, wizard, ctx.warm);
  let form = findForm(page.body, { testId: "rma-units-form" });
  if (!form) throw new StepError(`no units form on ${wizard}`);
  const units = form.fields.find(([k]) => k.startsWith("q."))?.[0];
  if (!units) throw new StepError(`${wizard} lists no line to return`);
  const line = units.slice(2);
  const other = p.rmaReason === 4;
  const stepOf = (h) => dataAttr(h, "rma-wizard", "step");
  ctx.pageUrl = page.url;
  const asked = {
    [units]: 1,
    [`r.${line}`]: p.rmaReason,
    [`o.${line}`]: other ? "Bench: not the colour ordered; ship it back." : "",
  };
  page = await click(bench, ctx, "rma: units (buyer)", buyer, form, asked, {
    expectStatus: 200,
    shows: (h) => stepOf(h) === "pictures",
  });
  form = findForm(page.body, { testId: "rma-pictures-form" });
  page = await click(
    bench,
    ctx,
    "rma: pictures (buyer)",
    buyer,
    form,
    { intent: "continue" },
    { expectStatus: 200, shows: (h) => stepOf(h) === "contact" },
  );
  form = findForm(page.body, { testId: "rma-contact-form" });
  const contact = {
    contact_name: `Bench Buyer ${p.i}`,
    contact_email: p.buyer.email,
    contact_phone: "555-0100",
    packing_slip_name: `Bench ${p.i}`,
  };
  page = await click(bench, ctx, "rma: contact (buyer)", buyer, form, contact, {
    expectStatus: 200,
    shows: (h) => stepOf(h) === "confirm",
  });
  form = findForm(page.body, { testId: "rma-confirm-form" });
  await click(
    bench,
    ctx,
    "rma: request (buyer)",
    buyer,
    form,
    {},
    // The landing's notice is the shell's (RMA_SENT, domain/messages.ts) since the RMA landing has one notice.
    { expectStatus: 303, shows: (h) => h.includes("Your RMA was sent.") },
  );
  const [rma] = await bench.dbh
    .sql`select id from orders where rma_for_id = ${ctx.orderId} and transaction_type = 3`;
  if (!rma) throw new StepError(`no RMA row for order #${ctx.orderId} after "Process RMA"`);
  ctx.rmaId = rma.id;
}

/** Staff: Process RMA (every line approved) shows the amounts; Confirm sends the decision to the workflow. */
async function staffDecides(bench, ctx, cardUrl, other) {
  const { staff } = bench;
  const stage = (h) => dataAttr(h, "admin-rma-card", "stage");
  let page = await viewUntil(
    bench,
    ctx,
    staff,
    cardUrl,
    (h) => findForm(h, { testId: "rma-decision-form" }) !== null,
    "the RMA's decision form on its admin card",
  );
  let form = findForm(page.body, { testId: "rma-decision-form" });
  const decisions = Object.fromEntries(
    form.fields
      .filter(([k]) => /^lines\[\d+\]\.id$/.test(k))
      .map(([k]) => [k.replace(/\.id$/, ".decision"), "approve"]),
  );
  ctx.pageUrl = page.url;
  page = await click(bench, ctx, "rma: review (staff)", staff, form, decisions, {
    expectStatus: 200,
    shows: (h) => h.includes('data-testid="rma-review"'),
  });
  form = findForm(page.body, { testId: "rma-review" });
  await click(
    bench,
    ctx,
    "rma: decide (staff)",
    staff,
    form,
    {},
    {
      expectStatus: 303,
      shows: (h) => stage(h) === (other ? "shipping" : "rmacompleted"),
      reload: cardUrl,
    },
  );
}

/** The return parcel: its pickup, then its delivery, from the card's Shipping tab; delivered, the RMA pays out. */
async function staffReceivesReturn(bench, ctx, cardUrl) {
  const stage = (h) => dataAttr(h, "admin-rma-card", "stage");
  const shipUrl = `${cardUrl}&tab=shipping`;
  for (const [stepName, status, done] of [
    ["rma: return pickup (staff)", "picked_up", (h) => shipmentStatus(h) === "In-Route"],
    ["rma: return delivery (staff)", "delivered", (h) => stage(h) === "rmacompleted"],
  ]) {
    const page = await viewUntil(
      bench,
      ctx,
      bench.staff,
      shipUrl,
      (h) => h.includes('data-testid="carrier-tools"'),
      "the return parcel's carrier tools",
    );
    const form = forms(page.body).find(
      (f) => hasField(f, "intent", "carrier") && hasField(f, "status", status),
    );
    if (!form)
      throw new StepError(`no "${status}" carrier form for RMA #${ctx.rmaId}'s return parcel`);
    ctx.pageUrl = page.url;
    await click(
      bench,
      ctx,
      stepName,
      bench.staff,
      form,
      {},
      { expectStatus: 303, shows: done, reload: shipUrl },
    );
  }
}

/** The RMA of a delivered, rated purchase (ctx.orderId), through to refunded and charged. */
export async function runRma(bench, ctx, p) {
  const other = p.rmaReason === 4;
  await buyerAsks(bench, ctx, p);
  const cardUrl = `/admin/active-rmas?rma=${ctx.rmaId}`;
  await staffDecides(bench, ctx, cardUrl, other);
  if (other) await staffReceivesReturn(bench, ctx, cardUrl);
}

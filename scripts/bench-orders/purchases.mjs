// The default mode: one purchase clicked through its pages by the buyer, the seller and staff (the header of
// scripts/bench-orders.mjs, step 2). --commands-only's warm-up order runs here too, capturing its forms.
import { dataAttr, findForm, forms } from "../lib/html-forms.mjs";
import { click, view, viewUntil } from "./clicks.mjs";
import { captureState } from "./commands-only.mjs";
import { runRma } from "./mix.mjs";
import { offerToPurchase, storeApproves } from "./offers.mjs";
import {
  NEW_CARD,
  RATING,
  StepError,
  hasField,
  orderCardOf,
  timeTransaction,
} from "./page-text.mjs";

/** A purchase's steps, in the order they run. */
export const BUY_STEPS = [
  "add to cart",
  "accept terms",
  "pay",
  "approve",
  "pickup",
  "delivery",
  "confirm received",
  "rate",
];

/**
 * The listing's "Add to cart" (`sizes`), then /checkout: accept the terms → the review (`review`, its test id)
 * shows the order; its id into ctx.orderId. A purchase and a swap's receiver both start so.
 */
export async function cartThenTerms(bench, ctx, http, listingPath, sizes, review, what) {
  ctx.at = "cart";
  let page = await view(bench, http, listingPath, ctx.warm);
  let form = findForm(page.body, { intent: "add" });
  if (!form) throw new StepError(`no add-to-cart form on ${listingPath}`);
  ctx.pageUrl = page.url;
  await click(bench, ctx, "add to cart", http, form, sizes, {
    expectStatus: 303,
    shows: (h) => h.includes("Added to your cart."),
  });

  ctx.at = "checkout";
  page = await view(bench, http, "/checkout", ctx.warm);
  form = findForm(page.body, { testId: "checkout-form" });
  if (!form) throw new StepError("no checkout form on /checkout");
  ctx.pageUrl = page.url;
  page = await click(
    bench,
    ctx,
    "accept terms",
    http,
    form,
    { terms: "on" },
    { expectStatus: 303, shows: (h) => h.includes(`data-testid="${review}"`) },
  );
  ctx.orderId = Number(dataAttr(page.body, review, "order-id"));
  if (!ctx.orderId) throw new StepError(`${what} shows no order id`);
  if (ctx.capture) await captureState(bench, ctx, "accept terms");
  return page;
}

/** The page's payment form posted with the test card; it lands on the page showing `notice`. */
export async function payWithTestCard(bench, ctx, http, page, notice) {
  const form = findForm(page.body, { testId: "pay-form" });
  if (!form) throw new StepError(`no pay form on ${page.url}`);
  ctx.pageUrl = page.url;
  await click(bench, ctx, "pay", http, form, NEW_CARD, {
    expectStatus: 303,
    shows: (h) => h.includes(notice),
  });
}

/** Buyer: the listing → Add to cart (S×2, M×1) → /checkout: accept the terms → the review shows the draft order → pay. */
async function buyerCheckout(bench, ctx, p) {
  const buyer = p.buyer.http;
  await cartThenTerms(
    bench,
    ctx,
    buyer,
    `/listing/buy/${p.listingId}`,
    { "size.S": 2, "size.M": 1 },
    "draft-order",
    "the review",
  );

  // "Continue to payment" (a link) → /checkout/pay?order=<id> → pay with the test card.
  ctx.at = "pay";
  const page = await view(bench, buyer, "/checkout/pay", ctx.warm);
  await payWithTestCard(
    bench,
    ctx,
    buyer,
    page,
    p.kind === "approval"
      ? "An order over your limit waits for an approver of your store"
      : "Thank you! Your order was sent to the seller.",
  );
}

/** Seller: /alerts (Sales) shows the order → its detail → Approve Sale → /orders lists it. */
async function sellerApproves(bench, ctx, p) {
  const seller = p.seller.http;
  ctx.at = "approve";
  const listed = (h) => h.includes(`data-testid="order-card" data-order-id="${ctx.orderId}"`);
  await viewUntil(
    bench,
    ctx,
    seller,
    "/alerts?tab=sales",
    listed,
    "the order in the seller's alerts",
  );
  const page = await view(bench, seller, `/transaction/buy/${ctx.orderId}`, ctx.warm);
  const state = dataAttr(page.body, "order-detail", "statename");
  if (state !== "provider_approve_sale")
    throw new StepError(`seller's detail in ${state}, not provider_approve_sale`);
  const form = findForm(page.body, { testId: "form-respond" });
  if (!form) throw new StepError("no approve form on the seller's detail");
  ctx.pageUrl = page.url;
  await click(bench, ctx, "approve", seller, form, {}, { expectStatus: 303, shows: listed });
}

/**
 * Staff: the admin order card's Shipping tab → Simulate pickup → the card shows in_route; then delivery. A
 * `pickup` hook (scripts/prod-faults/money.mjs) brings the parcel's pickup its own way instead.
 */
async function staffShips(bench, ctx, pickup) {
  for (const [stepName, status, state] of [
    ["pickup", "picked_up", "in_route"],
    ["delivery", "delivered", "delivered"],
  ]) {
    ctx.at = stepName;
    if (stepName === "pickup" && pickup) {
      await pickup(ctx);
      continue;
    }
    const cardUrl = `/admin/active-transactions?order=${ctx.orderId}&tab=shipping`;
    const page = await view(bench, bench.staff, cardUrl, ctx.warm);
    const form = forms(page.body).find(
      (f) =>
        hasField(f, "intent", "carrier") &&
        hasField(f, "status", status) &&
        hasField(f, "order", String(ctx.orderId)),
    );
    if (!form) throw new StepError(`no "${status}" carrier form on the admin card`);
    ctx.pageUrl = page.url;
    await click(
      bench,
      ctx,
      stepName,
      bench.staff,
      form,
      {},
      {
        expectStatus: 303,
        shows: (h) => orderCardOf(h, ctx.orderId).includes(`state ${state} ·`),
        reload: cardUrl,
      },
    );
  }
}

/** Buyer: the order (delivered) → /rate/<id> → I received the package → the rating → "Rating saved!". */
async function buyerRates(bench, ctx, p) {
  const buyer = p.buyer.http;
  ctx.at = "rate";
  let page = await view(bench, buyer, `/transaction/buy/${ctx.orderId}`, ctx.warm);
  if (!page.body.includes('data-testid="rate-link"'))
    throw new StepError(
      `buyer's detail shows no rate link (state ${dataAttr(page.body, "order-detail", "statename")})`,
    );
  page = await view(bench, buyer, `/rate/${ctx.orderId}`, ctx.warm);
  const form = findForm(page.body, { intent: "confirm_received" });
  if (!form) throw new StepError("no 'I received the package' form on the rating page");
  ctx.pageUrl = page.url;
  page = await click(
    bench,
    ctx,
    "confirm received",
    buyer,
    form,
    {},
    { expectStatus: 200, shows: (h) => h.includes("the package is confirmed as received") },
  );
  // The rating form is rendered only after the "Rate this Transaction" button opens the modal (client
  // state): the fields are the modal's (intent=rate, four criteria, comments), posted to the page.
  const rateForm = findForm(page.body, { intent: "rate" }) ?? {
    action: "",
    fields: [["intent", "rate"]],
  };
  await click(bench, ctx, "rate", buyer, rateForm, RATING, {
    expectStatus: 200,
    shows: (h) => h.includes('data-testid="rating-saved"'),
  });
}

/**
 * One purchase through its pages (--mix: followed by its RMA when the pair's kind is "rma"; --offers: made by an
 * accepted offer, not a checkout, when the pair's kind is "offer", approved by the buyer's store before the seller
 * when it is "approval"). The fault script's
 * `hooks` (scripts/prod-faults/money.mjs): `pickup(ctx)` instead of staff's simulated pickup, `beforeRma(ctx)`
 * once the purchase is rated.
 */
export async function runPurchase(bench, p, warm, hooks = {}) {
  const ctx = {
    i: p.i,
    warm,
    orderId: null,
    lagMs: 0,
    at: "start",
    capture: bench.o.commandsOnly && warm ? { forms: {}, states: [] } : null,
  };
  await timeTransaction(bench, p, ctx, async () => {
    if (p.kind === "offer") await offerToPurchase(bench, ctx, p);
    else {
      await buyerCheckout(bench, ctx, p);
      if (p.kind === "approval") await storeApproves(bench, ctx, p);
      await sellerApproves(bench, ctx, p);
    }
    await staffShips(bench, ctx, hooks.pickup);
    await buyerRates(bench, ctx, p);
    if (p.kind === "rma") {
      ctx.at = "rma";
      await hooks.beforeRma?.(ctx);
      await runRma(bench, ctx, p);
    }
    if (ctx.capture)
      bench.templates = { ...ctx.capture, listingId: p.listingId, orderId: ctx.orderId };
  });
}

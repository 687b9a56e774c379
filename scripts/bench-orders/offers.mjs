// --offers: the pairs take turns, a purchase through checkout, a purchase made by an accepted offer
// (docs/product/offers.md), and a purchase over its buyer's limit that an approver of the buyer's store approves
// before the seller does (docs/product/teams.md, "Limits and approval"). The offer: the buyer opens the listing's "Make an offer" page and offers $40.00 a unit
// (listed at $42.00) for the purchase's units (S×2, M×1), its card on file held for it; the seller finds it on
// /alerts/offers and accepts it on the offer's page, which then links the purchase it became. From there the
// purchase is the checkout's: staff simulate the pickup and the delivery, the buyer rates it.
import { findForm } from "../lib/html-forms.mjs";
import { click, view, viewUntil } from "./clicks.mjs";
import { StepError } from "./page-text.mjs";

/** What each pair does, in turn. */
export const OFFER_KINDS = ["buy", "offer", "approval"];

/** An offer's own steps, before the purchase's pickup, delivery and rating; and the store's approval. */
export const OFFER_STEPS = ["make offer", "accept offer", "store approve"];

/** The limit per order of an "approval" pair's buyer: below the purchase's total, so it always waits. */
export const BENCH_BUY_LIMIT_CENTS = 1000;

/**
 * Approver of the buyer's store: the order's page shows the store's approval panel → Approve purchase → the
 * page shows the order at the seller's approval.
 */
export async function storeApproves(bench, ctx, p) {
  const approver = p.approver.http;
  ctx.at = "store approve";
  const path = `/transaction/buy/${ctx.orderId}`;
  const page = await viewUntil(
    bench,
    ctx,
    approver,
    path,
    (h) => h.includes('data-testid="form-store_approve"'),
    "the order waiting for the store's approval",
  );
  const form = findForm(page.body, { testId: "form-store_approve" });
  if (!form) throw new StepError(`no store approval form on ${path}`);
  ctx.pageUrl = page.url;
  await click(
    bench,
    ctx,
    "store approve",
    approver,
    form,
    {},
    {
      expectStatus: 200,
      shows: (h) => h.includes('data-statename="provider_approve_sale"'),
      reload: path,
    },
  );
}

/** The unit price offered: below the bench product's $42.00. */
const OFFERED = "40.00";

/** Buyer: the listing → "Make an offer" → the offer's page, open; its id into ctx.offerId. */
async function buyerOffers(bench, ctx, p) {
  const buyer = p.buyer.http;
  ctx.at = "offer";
  await view(bench, buyer, `/listing/buy/${p.listingId}`, ctx.warm);
  const path = `/offers/new?listing=${p.listingId}`;
  const page = await view(bench, buyer, path, ctx.warm);
  const form = findForm(page.body, { has: "price" });
  if (!form) throw new StepError(`no offer form on ${path}`);
  ctx.pageUrl = page.url;
  const landed = await click(
    bench,
    ctx,
    "make offer",
    buyer,
    form,
    { price: OFFERED, "sizes.S": 2, "sizes.M": 1 },
    { expectStatus: 302, shows: (h) => h.includes('data-testid="offer-page" data-status="open"') },
  );
  ctx.offerId = Number(landed.url.match(/\/offers\/(\d+)/)?.[1]);
  if (!ctx.offerId) throw new StepError(`the offer landed on ${landed.url}`);
}

/** Seller: /alerts/offers shows the offer → its page → Accept → the page links the purchase (ctx.orderId). */
async function sellerAccepts(bench, ctx, p) {
  const seller = p.seller.http;
  ctx.at = "accept";
  await viewUntil(
    bench,
    ctx,
    seller,
    "/alerts/offers?side=seller",
    (h) => h.includes(`data-offer-id="${ctx.offerId}"`),
    "the offer in the seller's alerts",
  );
  const page = await view(bench, seller, `/offers/${ctx.offerId}`, ctx.warm);
  const form = findForm(page.body, { intent: "accept" });
  if (!form) throw new StepError(`no accept form on offer ${ctx.offerId}'s page`);
  ctx.pageUrl = page.url;
  const landed = await click(
    bench,
    ctx,
    "accept offer",
    seller,
    form,
    {},
    { expectStatus: 302, shows: (h) => /href="\/transaction\/buy\/\d+"/.test(h) },
  );
  ctx.orderId = Number(landed.body.match(/href="\/transaction\/buy\/(\d+)"/)?.[1]);
  if (!ctx.orderId) throw new StepError(`offer ${ctx.offerId}'s page links no purchase`);
  // The purchase runs on its own from the acceptance (capture on the hold, the pickup booked): the seller
  // follows the link and reloads until it shows the pickup scheduled, as after "Approve Sale".
  await viewUntil(
    bench,
    ctx,
    seller,
    `/transaction/buy/${ctx.orderId}`,
    (h) => h.includes('data-statename="ship_order"'),
    "the offer's purchase at Pickup Scheduled",
  );
}

/** The offer made and accepted: the purchase it became, in ctx.orderId, at the seller's approval. */
export async function offerToPurchase(bench, ctx, p) {
  await buyerOffers(bench, ctx, p);
  await sellerAccepts(bench, ctx, p);
}

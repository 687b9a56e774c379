// --swaps: one swap through its pages: the receiver's swap checkout, the provider's choice, both approvals, both
// payments, both parcels' pickups and deliveries (staff), both ratings. Steps are named per side.
import { findForm, forms } from "../lib/html-forms.mjs";
import { click, view, viewUntil } from "./clicks.mjs";
import { cartThenTerms, payWithTestCard } from "./purchases.mjs";
import {
  NEW_CARD,
  RATING,
  StepError,
  hasField,
  parcelOf,
  swapStatus,
  timeTransaction,
} from "./page-text.mjs";

/** A swap's steps, in the order they run. */
export const SWAP_STEPS = [
  "add to cart",
  "accept terms",
  "pay",
  "choose (provider)",
  "approve (provider)",
  "approve (receiver)",
  "payment (provider)",
  "payment (receiver)",
  "pickup (provider)",
  "pickup (receiver)",
  "delivery (provider)",
  "delivery (receiver)",
  "rate (receiver)",
  "rate (provider)",
];

/** The receiver: the provider's swap listing in its cart → /checkout terms → the swap review pre-authorises its card. */
async function receiverCheckout(bench, ctx, p) {
  const receiver = p.buyer.http;
  const page = await cartThenTerms(
    bench,
    ctx,
    receiver,
    `/listing/swap/${p.listingId}`,
    { "size.S": 2 },
    "swap-review",
    "the swap review",
  );

  ctx.at = "pay";
  // The swap checkout lands on /buy with its success notice (docs/product/screens.md).
  await payWithTestCard(
    bench,
    ctx,
    receiver,
    page,
    "Your swap request was sent to the other retailer.",
  );
}

/** The sides on the swap's page: the provider's choice, both approvals, both payments. */
async function sidesAgree(bench, ctx, p) {
  const receiver = p.buyer.http;
  const provider = p.seller.http;
  const detail = `/transaction/swap/${ctx.orderId}`;
  /** The detail page of `http`, then one of its forms posted; the page it lands on must show `shows`. */
  const onDetail = async (
    stepName,
    http,
    testId,
    values,
    shows,
    expectStatus = 200,
    reload = detail,
  ) => {
    ctx.at = stepName;
    const formOf = (h) => findForm(h, { testId });
    // The swap's forms come from its workflow: while no worker answers (one was just killed), the page says
    // so ("We could not reach the order service…") and the user reloads it.
    const page = await viewUntil(
      bench,
      ctx,
      http,
      detail,
      (h) => formOf(h) !== null,
      `${stepName}: the form on the swap's page`,
    );
    ctx.pageUrl = page.url;
    return click(bench, ctx, stepName, http, formOf(page.body), values, {
      expectStatus,
      shows,
      reload,
    });
  };
  await onDetail(
    "choose (provider)",
    provider,
    "swap-choose-form",
    { [`units.${p.buyerListingId}.L`]: 1 },
    (h) => h.includes('data-testid="swap-approve-form"'),
  );
  await onDetail(
    "approve (provider)",
    provider,
    "swap-approve-form",
    { intent: "approve" },
    (h) => swapStatus(h) === "awaiting retailer's response",
  );
  await onDetail("approve (receiver)", receiver, "swap-approve-form", { intent: "approve" }, (h) =>
    h.includes('data-testid="swap-pay-form"'),
  );
  // Each payment lands on /orders/sentswaps/, which lists the swap once that side has paid.
  const paid = (h) => h.includes(`data-testid="order-card" data-order-id="${ctx.orderId}"`);
  await onDetail(
    "payment (provider)",
    provider,
    "swap-pay-form",
    NEW_CARD,
    paid,
    303,
    "/orders/sentswaps/",
  );
  await onDetail(
    "payment (receiver)",
    receiver,
    "swap-pay-form",
    NEW_CARD,
    paid,
    303,
    "/orders/sentswaps/",
  );
}

/** Staff: each parcel's pickup, then each parcel's delivery, from the admin card's Shipping tab. */
async function staffShipsBoth(bench, ctx) {
  const cardUrl = `/admin/active-transactions?order=${ctx.orderId}&tab=shipping`;
  for (const [stepName, side, event, shown] of [
    ["pickup (provider)", "provider", "picked_up", "In-Route"],
    ["pickup (receiver)", "receiver", "picked_up", "In-Route"],
    ["delivery (provider)", "provider", "delivered", "Delivered"],
    ["delivery (receiver)", "receiver", "delivered", "Delivered"],
  ]) {
    ctx.at = stepName;
    const page = await viewUntil(
      bench,
      ctx,
      bench.staff,
      cardUrl,
      (h) => forms(parcelOf(h, ctx.orderId, side)).length > 0,
      `${side}'s parcel on the admin card`,
    );
    const form = forms(parcelOf(page.body, ctx.orderId, side)).find(
      (f) => hasField(f, "intent", "carrier") && hasField(f, "status", event),
    );
    if (!form) throw new StepError(`no "${event}" carrier form for the ${side}'s parcel`);
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
        shows: (h) => parcelOf(h, ctx.orderId, side).includes(shown),
        reload: cardUrl,
      },
    );
  }
}

/** Each side rates what it received (the modal's fields, posted to /rate/<id>). */
async function bothRate(bench, ctx, p) {
  for (const [stepName, http] of [
    ["rate (receiver)", p.buyer.http],
    ["rate (provider)", p.seller.http],
  ]) {
    ctx.at = stepName;
    await viewUntil(
      bench,
      ctx,
      http,
      `/transaction/swap/${ctx.orderId}`,
      (h) => h.includes('data-testid="rate-link"'),
      `${stepName}: the rate link`,
    );
    const page = await view(bench, http, `/rate/${ctx.orderId}`, ctx.warm);
    ctx.pageUrl = page.url;
    await click(bench, ctx, stepName, http, { action: "", fields: [["intent", "rate"]] }, RATING, {
      expectStatus: 200,
      shows: (h) => h.includes('data-testid="rating-saved"'),
    });
  }
}

/** One swap through its pages; the pair's seller is its provider, the buyer its receiver. */
export async function runSwap(bench, p, warm) {
  const ctx = { i: p.i, warm, orderId: null, lagMs: 0, at: "start", capture: null };
  await timeTransaction(bench, p, ctx, async () => {
    await receiverCheckout(bench, ctx, p);
    await sidesAgree(bench, ctx, p);
    await staffShipsBoth(bench, ctx);
    await bothRate(bench, ctx, p);
  });
}

/**
 * Checkout in Chromium, through to the buy workflow (app/routes/checkout.pay.tsx, app/utils/checkout.server.ts):
 * buy terms → review (goods, 10% fee, shipping, total) → card → one buyOrderWorkflow per seller, visible in
 * the Temporal list, waiting for the seller; the declined card ("Sorry but this card was declined. Please try
 * another.") and a second card as a new attempt (authorize:1, authorize:2); the duplicate-order guard
 * (yourmove / theirmove, verbatim); selling to a request (kind for_request, action 223) and the requestor's
 * checkout of it; and the pay page's 404 for someone else's order.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { carts, orders, paymentMethods } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { purchaseQuote } from "../../domain/fees";
import {
  BUY_ALREADY_THEIR_MOVE,
  BUY_ALREADY_YOUR_MOVE,
  CARD_DECLINED,
  SELLER_CARD_NEEDED,
} from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { BUY_STATES } from "../../domain/states";
import { createListing, createRequest, createWorld } from "../factories";
import {
  acceptBuyTerms,
  buyWorkflowId,
  closeTemporal,
  continueToPayment,
  expectCheckoutComplete,
  offerInCart,
  payWithTestCard,
  postCartForm,
  providerKeys,
  retailerWithLogin,
  temporal,
  until,
  waitForOrderState,
  waitForReadModel,
  checkTerms,
} from "./buy-helpers";
import { dbHandle, launchBrowser, pagesPerTest, signedIn, url } from "./harness";
import { htmlDecode } from "./http";

let browser: Browser;
let dbh: DbHandle;
const pages = pagesPerTest();
let brand: number;
let v1: number; // $19.99
let v2: number; // $33.33

beforeAll(async () => {
  dbh = dbHandle();
  const world = await createWorld(dbh.db, {
    products: [1999, 3333].map((priceCents) => ({ colors: 1, priceCents })),
  });
  brand = world.brand.id;
  [v1, v2] = world.products.map((p) => p.variations[0].id);
  browser = await launchBrowser();
});

/** The card fields of the sell dialog (components/orders/CardFields). */
async function fillCard(p: Page, number: string): Promise<void> {
  await p.locator('input[name="card_number"]').fill(number);
  await p.locator('input[name="card_expiry"]').fill("12/34");
  await p.locator('input[name="card_cvc"]').fill("123");
}
afterAll(async () => {
  await closeTemporal();
});

describe("buy checkout", () => {
  it("terms → review with goods, 10% fee, shipping, total → card → one workflow per seller, waiting for the seller", async () => {
    const buyer = await retailerWithLogin(dbh, [brand]);
    const s1 = (await retailerWithLogin(dbh, [brand])).r;
    const s2 = (await retailerWithLogin(dbh, [brand])).r;
    const l1 = await createListing(dbh.db, {
      variationId: v1,
      providerId: s1.id,
      sizes: { S: 2, M: 1 },
    });
    const l2 = await createListing(dbh.db, { variationId: v2, providerId: s2.id, sizes: { L: 3 } });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(p, {
      intent: "add",
      listingId: l1.id,
      "size.S": 2,
      "size.M": 1,
      returnTo: "/cart",
    });
    await postCartForm(p, { intent: "add", listingId: l2.id, "size.L": 1, returnTo: "/cart" });
    await acceptBuyTerms(p);

    // The review: per seller, goods + 10% + shipping by the table.
    const q1 = purchaseQuote([{ unitPriceCents: 1999, units: { S: 2, M: 1 } }]);
    const q2 = purchaseQuote([{ unitPriceCents: 3333, units: { L: 1 } }]);
    expect(q1).toMatchObject({
      goodsCents: 5997,
      feeCents: 600,
      shippingCents: 2375,
      totalCents: 8972,
    });
    const review = p.getByTestId("draft-order");
    await review.first().waitFor();
    expect(await review.count()).toBe(2);
    const texts = await review.allTextContents();
    const t1 = texts.find((t) => t.includes(`retailer-00${s1.id}`))!;
    for (const cents of [q1.goodsCents, q1.feeCents, q1.shippingCents, q1.totalCents])
      expect(t1).toContain(formatCents(cents));
    expect(await p.getByTestId("grand-total").textContent()).toContain(
      formatCents(q1.totalCents + q2.totalCents),
    );
    expect(await p.content()).not.toContain(s1.storeName);

    const ids = await continueToPayment(p);
    expect(ids).toHaveLength(2);
    expect(await p.getByTestId("pay-order").count()).toBe(2);
    expect(await p.getByTestId("pay-submit").textContent()).toContain(
      formatCents(q1.totalCents + q2.totalCents),
    );
    await payWithTestCard(p, "4242 4242 4242 4242");
    await expectCheckoutComplete(p);

    // One workflow per order, by the deterministic id, listed by the Temporal client; waiting for the seller.
    const c = await temporal();
    for (const id of ids) {
      const listed = await until(`workflow ${buyWorkflowId(id)} in the list`, async () => {
        for await (const wf of c.workflow.list({ query: `WorkflowId = "${buyWorkflowId(id)}"` }))
          return wf;
        return null;
      });
      expect(listed.type).toBe("buyOrderWorkflow");
      expect(listed.status.name).toBe("RUNNING");
      const view = await waitForOrderState(id, BUY_STATES.PROVIDER_APPROVE_SALE);
      expect(view.actions.map((a) => a.code)).toContain(ACTION.CHECKOUT_COMPLETED);
      expect(view.amounts.authorizedCents).toBe(view.amounts.requested.totalCents);
      expect(await providerKeys(dbh, id, "authorize")).toEqual([
        `${buyWorkflowId(id)}:authorize:1`,
      ]);
      await waitForReadModel(dbh, id, BUY_STATES.PROVIDER_APPROVE_SALE);
    }
    // The cart is empty: the drafts became orders.
    const [cart] = await dbh.db.select().from(carts).where(eq(carts.retailerId, buyer.r.id));
    expect(cart.items).toEqual([]);
    expect(cart.draftOrderIds).toEqual([]);

    // A second submit of the same page does not make a second order or a second authorisation.
    await p.goto(url(`/checkout/pay?${ids.map((i) => `order=${i}`).join("&")}`));
    await p.getByTestId("pay-empty").waitFor();
    expect(await p.getByTestId("pay-done").textContent()).toContain("Already checked out");

    // theirmove: the same listing again while the seller has not answered.
    await postCartForm(p, { intent: "add", listingId: l1.id, "size.S": 1, returnTo: "/cart" });
    await p.goto(url("/checkout"));
    await checkTerms(p);
    await p.getByTestId("checkout-continue").click();
    await p.getByTestId("checkout-form-error").waitFor();
    expect(await p.getByTestId("checkout-form-error").textContent()).toBe(BUY_ALREADY_THEIR_MOVE);
  });

  it("a declined card: the message verbatim, the page stays; the order waits for checkout (yourmove); a second card is a new attempt", async () => {
    const buyer = await retailerWithLogin(dbh, [brand]);
    const seller = (await retailerWithLogin(dbh, [brand])).r;
    const l = await createListing(dbh.db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 3 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(p, { intent: "add", listingId: l.id, "size.S": 1, returnTo: "/cart" });
    await acceptBuyTerms(p);
    const [id] = await continueToPayment(p);
    const payUrl = p.url();

    await payWithTestCard(p, "4000 0000 0000 0002");
    await p.getByTestId("pay-error").waitFor({ timeout: 40_000 });
    expect(await p.getByTestId("pay-error").textContent()).toBe(CARD_DECLINED);
    expect(p.url()).toBe(payUrl);
    const declined = await waitForOrderState(id, BUY_STATES.COMPLETE_ORDER_CHECKOUT);
    expect(declined.actions.map((a) => a.code)).toContain(ACTION.CARD_DECLINED);

    // The order is an order now (Pending Orders, 24 h to check out): adding the listing again says so.
    const other = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(other, { intent: "add", listingId: l.id, "size.S": 1, returnTo: "/cart" });
    await other.goto(url("/checkout"));
    await checkTerms(other);
    await other.getByTestId("checkout-continue").click();
    await other.getByTestId("checkout-form-error").waitFor();
    expect(await other.getByTestId("checkout-form-error").textContent()).toBe(
      BUY_ALREADY_YOUR_MOVE,
    );

    // Another card on the same page: a new attempt of the same workflow.
    await payWithTestCard(p, "5555 5555 5555 4444");
    await expectCheckoutComplete(p);
    const view = await waitForOrderState(id, BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(view.paymentMethod).toEqual({
      lastFour: "4444",
      description: expect.stringMatching(/mastercard/i),
    });
    expect(view.authorizeAttempts).toBe(2);
    expect(await providerKeys(dbh, id, "authorize")).toEqual([
      `${buyWorkflowId(id)}:authorize:1`,
      `${buyWorkflowId(id)}:authorize:2`,
    ]);
  });

  it("bad card input is refused with the field's message and nothing starts; another retailer's order is 404", async () => {
    const buyer = await retailerWithLogin(dbh, [brand]);
    const seller = (await retailerWithLogin(dbh, [brand])).r;
    const l = await createListing(dbh.db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 3 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(p, { intent: "add", listingId: l.id, "size.S": 1, returnTo: "/cart" });
    await acceptBuyTerms(p);
    const [id] = await continueToPayment(p);
    await payWithTestCard(p, "1234 5678 9012 3456");
    await p.locator('[data-field-error="card_number"]').waitFor();
    expect(await p.locator('[data-field-error="card_number"]').textContent()).toContain(
      "test card",
    );
    const c = await temporal();
    await expect(c.workflow.getHandle(buyWorkflowId(id)).describe()).rejects.toThrow();

    // Refusals of the action itself: an unknown card choice, the saved card when there is none, no order.
    const origin = new URL(url("/")).origin;
    const bogus = await p.request.post(url(`/checkout/pay?order=${id}`), {
      form: { card_choice: "bogus" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(bogus.status()).toBe(400);
    const noSaved = await p.request.post(url(`/checkout/pay?order=${id}`), {
      form: { card_choice: "saved" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(noSaved.status()).toBe(400);
    expect(await noSaved.text()).toContain("You have no card on file. Please enter a card.");
    // Without order ids the page names the cart's drafts in the URL first: back to the pay page.
    const none = await p.request.post(url(`/checkout/pay`), {
      form: { card_choice: "new" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(none.status()).toBe(302);
    expect(none.headers().location).toBe(`/checkout/pay?order=${id}`);
    await expect(c.workflow.getHandle(buyWorkflowId(id)).describe()).rejects.toThrow();

    const stranger = await retailerWithLogin(dbh, [brand]);
    const s = await signedIn(browser, stranger.email, { pages, at: null });
    const res = await s.goto(url(`/checkout/pay?order=${id}`));
    expect(res?.status()).toBe(404);
    const bad = await s.goto(url(`/checkout/pay?order=abc`));
    expect(bad?.status()).toBe(404);
    const strangerPost = await s.request.post(url(`/checkout/pay`), {
      form: { card_choice: "new" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(strangerPost.status()).toBe(404);
  });
});

describe("paying with the card on file", () => {
  it("the saved card is offered first and used for the pre-authorisation", async () => {
    const buyer = await retailerWithLogin(dbh, [brand]);
    const seller = (await retailerWithLogin(dbh, [brand])).r;
    const l = await createListing(dbh.db, {
      variationId: v2,
      providerId: seller.id,
      sizes: { S: 1 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await p.goto(url("/settings/card"));
    await p.locator("#card_number").fill("5555 5555 5555 4444");
    await p.locator("#card_expiry").fill("12/34");
    await p.locator("#card_cvc").fill("123");
    await Promise.all([
      p.waitForURL(/ref=cardSaved/, { timeout: 40_000 }),
      p.getByRole("button", { name: "Save" }).click(),
    ]);

    await postCartForm(p, { intent: "add", listingId: l.id, "size.S": 1, returnTo: "/cart" });
    await acceptBuyTerms(p);
    const [id] = await continueToPayment(p);
    const saved = p.locator('input[type="radio"][name="card_choice"][value="saved"]');
    expect(await saved.isChecked()).toBe(true);
    expect(await p.getByTestId("card-choice").textContent()).toContain("ending in 4444");
    expect(await p.locator("#card_number").count()).toBe(0);
    await p.getByTestId("pay-submit").click();
    await expectCheckoutComplete(p);
    const view = await waitForOrderState(id, BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(view.paymentMethod?.lastFour).toBe("4444");
  });
});

describe("selling to a request", () => {
  it("confirming the sell dialog starts the order for the request (action 223); the requestor checks out and the pickup is booked", async () => {
    const requestor = await retailerWithLogin(dbh, [brand]);
    const seller = await retailerWithLogin(dbh, [brand]);
    const req = await createRequest(dbh.db, {
      variationId: v2,
      requestorId: requestor.r.id,
      sizes: { M: 2 },
    });
    const s = await signedIn(browser, seller.email, { pages, at: null });
    await postCartForm(s, { intent: "add", requestId: req.id, "size.M": 2, returnTo: "/cart" });
    await s.goto(url("/checkout"));
    await s.locator("#sell-reason").selectOption({ index: 1 });
    await s.locator("#sell-floor-time").selectOption({ index: 1 });
    // The offer is the seller's approval: a seller without a card on file is asked for one (docs/product/orders.md).
    expect(await s.getByTestId("sell-card").textContent()).toContain(SELLER_CARD_NEEDED);
    await fillCard(s, "4242424242424242");
    await checkTerms(s);
    await Promise.all([
      s.waitForURL(/\/buy\?ref=offerSent/, { timeout: 40_000 }),
      s.getByTestId("checkout-continue").click(),
    ]);
    const [card] = await dbh.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.retailerId, seller.r.id));
    expect(card).toMatchObject({ lastFour: "4242" });
    await s
      .getByText("Your offer was sent to the requesting retailer.", { exact: false })
      .first()
      .waitFor();

    const [order] = await dbh.db.select().from(orders).where(eq(orders.requestId, req.id));
    expect(order).toMatchObject({ providerId: seller.r.id, receiverId: requestor.r.id });
    const view = await waitForOrderState(order.id, BUY_STATES.COMPLETE_ORDER_CHECKOUT);
    expect(view.kind).toBe("for_request");
    expect(view.actions.map((a) => a.code)).toEqual([ACTION.ORDER_CREATED_FOR_REQUEST]);
    const [cart] = await dbh.db.select().from(carts).where(eq(carts.retailerId, seller.r.id));
    expect(cart.items).toEqual([]);

    // The requestor pays from the pay page (Pending Orders links to it): capture and pickup booking.
    const r = await signedIn(browser, requestor.email, { pages, at: null });
    await r.goto(url(`/checkout/pay?order=${order.id}`));
    expect(await r.content()).not.toContain(seller.r.storeName);
    await payWithTestCard(r, "4242424242424242");
    await r.waitForURL(/ref=requestCheckoutComplete/, { timeout: 40_000 });
    expect(new URL(r.url()).pathname).toBe("/orders/purchases");
    const paid = await waitForOrderState(order.id, BUY_STATES.SHIP_ORDER);
    expect(paid.amounts.capturedCents).toBe(
      purchaseQuote([{ unitPriceCents: 3333, units: { M: 2 } }]).totalCents,
    );
    expect(paid.shipment?.trackingNumber).toBeTruthy();
  });

  it("without a card on file the offer is not sent (402, nothing written); a declined card is refused; a good one is put on file and the offer goes", async () => {
    const { requestor, seller, req, client: c } = await offerInCart(dbh, brand, v1, "S");
    const dialog = { intent: "proceed", reason: "overstock", floor_time: "0-30", terms: "on" };
    const offers = async () => dbh.db.select().from(orders).where(eq(orders.requestId, req.id));
    const cards = async () =>
      dbh.db.select().from(paymentMethods).where(eq(paymentMethods.retailerId, seller.r.id));

    const noCard = await c.postForm("/checkout", dialog);
    expect(noCard.status).toBe(402);
    expect(htmlDecode(noCard.body)).toContain(SELLER_CARD_NEEDED);
    expect(await offers()).toEqual([]);
    const declined = await c.postForm("/checkout", {
      ...dialog,
      card_number: "4000000000000002",
      card_expiry: "12/34",
      card_cvc: "123",
    });
    expect(declined.status).toBe(400);
    expect(htmlDecode(declined.body)).toContain(CARD_DECLINED);
    expect(await offers()).toEqual([]);
    expect(await cards()).toEqual([]);

    const sent = await c.postForm("/checkout", {
      ...dialog,
      card_number: "5555555555554444",
      card_expiry: "12/34",
      card_cvc: "123",
    });
    expect(sent.status, sent.body.slice(0, 300)).toBe(303);
    expect(sent.location).toBe("/buy?ref=offerSent");
    expect((await cards()).map((k) => k.lastFour)).toEqual(["4444"]);
    expect(await offers()).toHaveLength(1);
  });
});

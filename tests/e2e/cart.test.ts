/**
 * The cart in Chromium: adding through the /cart form contract the marketplace pages use (intent=add,
 * listingId | requestId, size.<label>=qty, returnTo), the messages, the type lock, the swap brand/provider
 * lock, Start Over, ids one cannot see (404), staff as admin (no cart), the swap and sell checkout dialogs,
 * and proceeding with a buy cart to the draft order review (goods, 10% fee, shipping, total).
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../db/schema";
import { CART_MESSAGES } from "../../domain/cart";
import {
  CONFIGURE_PAYOUT_TEXT,
  FILL_OUT_EVERYTHING,
  LISTING_UNAVAILABLE,
  SWAP_NO_ACTIVE_LISTINGS,
} from "../../domain/messages";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { type RetailerRow } from "../factories";
import { NOTICES } from "../../app/components/shell-data";
import { postCartForm, checkTerms } from "./buy-helpers";
import { db, launchBrowser, pagesPerTest, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
const pages = pagesPerTest();

let brand1: number;
let brand2: number;
let v1: number; // brand1, $19.99
let v2: number; // brand2, $33.33
let vHidden: number; // a brand nobody here is authorized for

beforeAll(async () => {
  const one = await createWorld(db(), { products: [{ colors: 1, priceCents: 1999 }] });
  const two = await createWorld(db(), { products: [{ colors: 1, priceCents: 3333 }] });
  [brand1, v1] = [one.brand.id, one.variation.id];
  [brand2, v2] = [two.brand.id, two.variation.id];
  vHidden = (await createWorld(db())).variation.id;
  browser = await launchBrowser();
});

async function retailer(
  opts: { payout?: boolean; login?: boolean } = {},
): Promise<{ r: RetailerRow; email: string }> {
  const email = uniqueEmail("cart");
  const { retailer: r } = await createRetailer(db(), {
    payout: opts.payout ?? true,
    user: opts.login === false ? false : { email },
  });
  await authorizeBrand(db(), r.id, brand1);
  await authorizeBrand(db(), r.id, brand2);
  return { r, email };
}

async function cartError(p: Page): Promise<string> {
  return (await p.getByTestId("cart-error").textContent())?.trim() ?? "";
}

describe("adding to the cart", () => {
  it("needs at least one size, never more than available; then the cart shows the item anonymously", async () => {
    const buyer = await retailer();
    const seller = (await retailer()).r;
    const l = await createListing(db(), {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2, M: 1 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });

    await postCartForm(p, { intent: "add", listingId: l.id, "size.S": 0, returnTo: "/cart" });
    expect(await cartError(p)).toBe("Please add at least one size.");
    await postCartForm(p, { intent: "add", listingId: l.id, "size.S": 3, returnTo: "/cart" });
    expect(await cartError(p)).toBe(CART_MESSAGES.moreThanAvailable);

    await postCartForm(p, {
      intent: "add",
      listingId: l.id,
      "size.S": 2,
      "size.M": 1,
      returnTo: "/cart",
    });
    await p.getByTestId("cart-lines").waitFor();
    expect(await p.getByText("Added to your cart.").count()).toBe(1);
    const row = p.getByTestId("cart-line");
    expect(await row.count()).toBe(1);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain(`retailer-00${seller.id}`);
    expect(text).not.toContain(seller.storeName);
    expect(text).toContain("$59.97");
    expect(await p.getByTestId("cart-proceed").textContent()).toBe("Proceed with purchase");
    expect(await p.getByTestId("cart-start-over").textContent()).toBe("Start Over");
    // The whole page never names the other store.
    expect(await p.content()).not.toContain(seller.storeName);
  });

  it("ids one cannot see are 404; staff browsing as admin have no cart", async () => {
    const buyer = await retailer();
    const seller = (await retailer()).r;
    const hidden = await createListing(db(), {
      variationId: vHidden,
      providerId: seller.id,
      sizes: { S: 2 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    const origin = new URL(url("/")).origin;
    const res = await p.request.post(url("/cart"), {
      form: { intent: "add", listingId: String(hidden.id), "size.S": "1" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(404);
    expect(await res.text()).toContain(LISTING_UNAVAILABLE);
    const bogus = await p.request.post(url("/cart"), {
      form: { intent: "add", listingId: "99999999999999", "size.S": "1" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(bogus.status()).toBe(404);
    const remove = await p.request.post(url("/cart"), {
      form: { intent: "remove", listingId: String(hidden.id) },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(remove.status()).toBe(404);

    const staffEmail = uniqueEmail("staff");
    await createStaffUser(db(), { email: staffEmail });
    const s = await signedIn(browser, staffEmail, { pages, at: null });
    const r = await s.request.post(url("/cart"), {
      form: { intent: "add", listingId: String(hidden.id), "size.S": "1" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(r.status()).toBe(403);
    expect(await r.text()).toContain(CART_MESSAGES.adminHasNoCart);
    await s.goto(url("/cart"));
    expect(await s.getByTestId("cart-admin").textContent()).toBe(CART_MESSAGES.adminHasNoCart);
  });
});

describe("the locks and Start Over", () => {
  it("the type lock: a buy cart refuses swap items and requests; Start Over empties it", async () => {
    const buyer = await retailer();
    const seller = (await retailer()).r;
    const sell = await createListing(db(), {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2 },
    });
    const swap = await createListing(db(), {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const req = await createRequest(db(), {
      variationId: v1,
      requestorId: seller.id,
      sizes: { S: 2 },
    });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(p, { intent: "add", listingId: sell.id, "size.S": 1 });
    await postCartForm(p, { intent: "add", listingId: swap.id, "size.S": 1 });
    expect(await cartError(p)).toBe(CART_MESSAGES.typeLocked("buy", "swap"));
    await postCartForm(p, { intent: "add", requestId: req.id, "size.S": 1 });
    expect(await cartError(p)).toBe(CART_MESSAGES.typeLocked("buy", "sell"));

    await p.goto(url("/cart"));
    await Promise.all([p.waitForURL(/ref=cartCleared/), p.getByTestId("cart-start-over").click()]);
    await p.getByTestId("cart-empty").waitFor();
    expect(await p.getByText("Your cart is empty again.").count()).toBe(1);
    // Empty: another type may start the cart.
    await postCartForm(p, { intent: "add", listingId: swap.id, "size.S": 1 });
    expect(await p.getByTestId("cart-proceed").textContent()).toBe("Proceed with swap");
  });

  it("the swap lock: one brand and one provider; proceeding needs an own active listing of the brand, the terms, then the swap review", async () => {
    const me = await retailer();
    const s1 = (await retailer()).r;
    const s2 = (await retailer()).r;
    const a = await createListing(db(), {
      variationId: v1,
      providerId: s1.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const otherProvider = await createListing(db(), {
      variationId: v1,
      providerId: s2.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const otherBrand = await createListing(db(), {
      variationId: v2,
      providerId: s1.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const p = await signedIn(browser, me.email, { pages, at: null });
    await postCartForm(p, { intent: "add", listingId: a.id, "size.S": 1 });
    await postCartForm(p, { intent: "add", listingId: otherBrand.id, "size.S": 1 });
    expect(await cartError(p)).toBe(CART_MESSAGES.swapBrandLocked);
    await postCartForm(p, { intent: "add", listingId: otherProvider.id, "size.S": 1 });
    expect(await cartError(p)).toBe(CART_MESSAGES.swapProviderLocked);

    await p.goto(url("/checkout"));
    expect(await p.getByTestId("no-active-listings").textContent()).toContain(
      SWAP_NO_ACTIVE_LISTINGS,
    );
    await createListing(db(), { variationId: v1, providerId: me.r.id, sizes: { M: 1 } });
    await p.goto(url("/checkout"));
    await p.getByTestId("checkout-continue").click();
    await p.getByTestId("checkout-form-error").waitFor();
    expect(await p.getByTestId("checkout-form-error").textContent()).toBe(
      CART_MESSAGES.acceptTerms,
    );
    await checkTerms(p);
    await p.getByTestId("checkout-continue").click();
    // The swap draft's review and card step (tests/e2e/swap-checkout.test.ts goes on from here); the cart keeps
    // the item until the swap is checked out.
    await p.waitForURL((u) => u.pathname === "/checkout/swap");
    await p.getByTestId("swap-review").waitFor();
    await p.goto(url("/cart"));
    expect(await p.getByTestId("cart-line").count()).toBe(1);
  });
});

describe("checkout", () => {
  it("buy: terms required, then one draft order per seller with goods, 10% fee, shipping and total", async () => {
    const buyer = await retailer();
    const s1 = (await retailer()).r;
    const s2 = (await retailer()).r;
    const a = await createListing(db(), {
      variationId: v1,
      providerId: s1.id,
      sizes: { S: 5, M: 5 },
    });
    const b = await createListing(db(), { variationId: v2, providerId: s2.id, sizes: { M: 3 } });
    const p = await signedIn(browser, buyer.email, { pages, at: null });
    await postCartForm(p, { intent: "add", listingId: a.id, "size.S": 2, "size.M": 1 });
    await postCartForm(p, { intent: "add", listingId: b.id, "size.M": 3 });
    await p.getByTestId("cart-proceed").click();
    await p.waitForURL((u) => u.pathname.startsWith("/checkout"));
    await p.getByTestId("checkout-terms").waitFor();
    // The terms appear 500 ms after the checkout begins (a CSS delay, so without scripts too).
    expect(
      await p
        .getByTestId("checkout-terms")
        .evaluate((e) => [getComputedStyle(e).animationDelay, getComputedStyle(e).visibility]),
    ).toEqual(["0.5s", "visible"]);
    expect(await p.getByTestId("checkout-preview").textContent()).toContain("$59.97");

    // No JavaScript needed: the terms checkbox is checked server side too.
    await p.getByTestId("checkout-continue").click();
    await p.getByTestId("checkout-form-error").waitFor();
    expect(await p.getByTestId("checkout-form-error").textContent()).toBe(
      CART_MESSAGES.acceptTerms,
    );
    await checkTerms(p);
    await Promise.all([
      p.waitForURL((u) => u.pathname === "/checkout/review"),
      p.getByTestId("checkout-continue").click(),
    ]);

    const cards = p.getByTestId("draft-order");
    await cards.nth(1).waitFor(); // the review renders after the URL changes
    expect(await cards.count()).toBe(2);
    const first = cards.nth(0);
    const second = cards.nth(1);
    // Seller 1: 3 x $19.99 = $59.97, fee $6.00 (5.997 half up), 3 units ship $23.75, total $89.72.
    expect(await first.getByTestId("amount-goods").textContent()).toBe("$59.97");
    expect(await first.getByTestId("amount-fee").textContent()).toBe("$6.00");
    expect(await first.getByTestId("amount-shipping").textContent()).toBe("$23.75");
    expect(await first.getByTestId("amount-total").textContent()).toBe("$89.72");
    // Seller 2: 3 x $33.33 = $99.99, fee $10.00, shipping $23.75, total $133.74.
    expect(await second.getByTestId("amount-goods").textContent()).toBe("$99.99");
    expect(await second.getByTestId("amount-fee").textContent()).toBe("$10.00");
    expect(await second.getByTestId("amount-total").textContent()).toBe("$133.74");
    expect(await p.getByTestId("grand-total").textContent()).toContain("$223.46");
    expect(await first.textContent()).toContain(`retailer-00${s1.id}`);
    expect(await p.content()).not.toContain(s1.storeName);

    const rows = await db().select().from(orders).where(eq(orders.receiverId, buyer.r.id));
    expect(rows.map((o) => o.statename)).toEqual([
      "complete_order_checkout",
      "complete_order_checkout",
    ]);
    const ids = rows.map((o) => o.id).sort();

    // Proceeding again updates the same drafts.
    await p.goto(url("/checkout"));
    await checkTerms(p);
    await Promise.all([
      p.waitForURL((u) => u.pathname === "/checkout/review"),
      p.getByTestId("checkout-continue").click(),
    ]);
    const again = await db().select().from(orders).where(eq(orders.receiverId, buyer.r.id));
    expect(again.map((o) => o.id).sort()).toEqual(ids);
  });

  it("sell to a request: without payout the Configure Payout Settings prompt; with payout the info dialog, then the offer is sent", async () => {
    const requestor = (await retailer()).r;
    const req = await createRequest(db(), {
      variationId: v1,
      requestorId: requestor.id,
      sizes: { S: 2, M: 2 },
    });

    const noPayout = await retailer({ payout: false });
    const p = await signedIn(browser, noPayout.email, { pages, at: null });
    await postCartForm(p, { intent: "add", requestId: req.id, "size.S": 40 }); // relaxed above the requested count
    expect(await p.getByTestId("cart-proceed").textContent()).toBe("Proceed with sell");
    await p.goto(url("/checkout"));
    const prompt = p.getByTestId("configure-payout");
    expect(await prompt.getByRole("heading").textContent()).toBe("Configure Payout Settings");
    expect(await prompt.textContent()).toContain(CONFIGURE_PAYOUT_TEXT);
    expect(await prompt.getByRole("link", { name: "Setup My Payouts" }).getAttribute("href")).toBe(
      "/getpaid",
    );

    const seller = await retailer();
    const q = await signedIn(browser, seller.email, { pages, at: null });
    await postCartForm(q, { intent: "add", requestId: req.id, "size.S": 2 });
    await q.goto(url("/checkout"));
    await q.locator("#sell-reason").selectOption("overstock");
    // No card on file yet: the dialog asks for one (the offer is the seller's approval).
    await q.locator('input[name="card_number"]').fill("4242424242424242");
    await q.locator('input[name="card_expiry"]').fill("12/34");
    await q.locator('input[name="card_cvc"]').fill("123");
    await checkTerms(q);
    await q.getByTestId("checkout-continue").click();
    await q.getByTestId("checkout-form-error").waitFor();
    expect(await q.getByTestId("checkout-form-error").textContent()).toBe(FILL_OUT_EVERYTHING);
    expect(await q.locator("#sell-reason").inputValue()).toBe("overstock");
    await q.locator("#sell-floor-time").selectOption("31-60");
    await checkTerms(q);
    // Confirming the dialog sends the offer (its buy workflow starts, action 223: tests/e2e/checkout.test.ts).
    await Promise.all([
      q.waitForURL((u) => u.pathname === "/buy" && u.searchParams.get("ref") === "offerSent", {
        timeout: 30_000,
      }),
      q.getByTestId("checkout-continue").click(),
    ]);
    await q.getByText(NOTICES.offerSent).first().waitFor();
    const [offer] = await db().select().from(orders).where(eq(orders.requestId, req.id));
    expect(offer).toMatchObject({
      providerId: seller.r.id,
      receiverId: requestor.id,
      floorTime: "31-60",
    });
  });
});

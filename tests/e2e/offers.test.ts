/**
 * Offers (docs/product/offers.md), one walk in Chromium and the refusals over HTTP:
 * - the buyer opens a listing, "Make an offer", a price below the listed one for one unit → the offer's page
 *   (open, the seller's turn); the seller finds it on /alerts/offers (its answer due), accepts → the offer is
 *   accepted and became a purchase at the agreed price; another buyer's open offer on the units that purchase
 *   took is declined at once, with the message;
 * - an offer at or above the listed price, or on one's own listing: the message, a 4xx, nothing written;
 * - the Offers filter of /orders leads to the tab's offers.
 */
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPaymentMethod } from "../../db/queries/settings";
import { listings, offers, orderContributions, orders } from "../../db/schema";
import { formatCents } from "../../domain/money";
import { OFFER_MESSAGES, offerHoldCents } from "../../domain/offers";
import { BUY_STATES } from "../../domain/states";
import { DEFAULT_TEST_PASSWORD } from "../factories";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const who = {
  seller: { email: uniqueEmail("offer-seller"), id: 0 },
  buyer: { email: uniqueEmail("offer-buyer"), id: 0 },
  /** Offers on both S units: the accepted offer's purchase takes one of them. */
  rival: { email: uniqueEmail("offer-rival"), id: 0 },
};
let listingId = 0;
let priceCents = 0;

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `Offer Brand ${tok}` },
    products: [{ sku: `OF${tok}`, sizes: ["S", "M"], colors: 1 }],
  });
  for (const w of Object.values(who)) {
    const r = await createRetailer(db(), { payout: true, user: { email: w.email } });
    w.id = r.retailer.id;
    await authorizeBrand(db(), w.id, world.brand.id);
  }
  for (const w of [who.buyer, who.rival])
    await recordPaymentMethod(db(), {
      retailerId: w.id,
      providerPaymentMethodId: "tok_visa",
      providerCustomerId: null,
      description: "Visa",
      lastFour: "4242",
    });
  const listing = await createListing(db(), {
    variationId: world.products[0].variations[0].id,
    providerId: who.seller.id,
    sizes: { S: 2, M: 2 },
  });
  listingId = listing.id;
  const [l] = await db()
    .select({ p: listings.priceCents })
    .from(listings)
    .where(eq(listings.id, listingId));
  priceCents = l.p;
  browser = await launchBrowser();
});

const offerRows = () =>
  db()
    .select()
    .from(offers)
    .where(and(eq(offers.listingId, listingId), eq(offers.buyerId, who.buyer.id)));

describe("offers", () => {
  it("refusals: at or above the listed price, on one's own listing → the message, a 4xx, nothing written", async () => {
    const buyer = new HttpClient();
    await buyer.signIn(who.buyer.email, DEFAULT_TEST_PASSWORD);
    for (const price of [priceCents, priceCents + 100]) {
      const r = await buyer.postForm(`/offers/new?listing=${listingId}`, {
        listing: listingId,
        price: (price / 100).toFixed(2),
        "sizes.S": 1,
      });
      expect(r.status).toBe(400);
      expect(r.body).toContain(OFFER_MESSAGES.notBelow(priceCents));
    }
    const seller = new HttpClient();
    await seller.signIn(who.seller.email, DEFAULT_TEST_PASSWORD);
    expect((await seller.get(`/offers/new?listing=${listingId}`)).status).toBe(404);
    const own = await seller.postForm(`/offers/new?listing=${listingId}`, {
      listing: listingId,
      price: "1.00",
      "sizes.S": 1,
    });
    expect(own.status).toBe(403);
    expect(own.body).toContain(OFFER_MESSAGES.ownListing);
    expect(await offerRows()).toEqual([]);
    // The Offers filter of /orders leads to the tab's offers.
    const filtered = await seller.get("/orders/sales?status=offers");
    expect([filtered.status, filtered.location]).toEqual([302, "/alerts/offers?side=seller"]);
  });

  it("the buyer offers below the price, the seller accepts: a purchase at the agreed price", async () => {
    const offered = priceCents - 100;
    const buyer = await signedIn(browser, who.buyer.email);
    await buyer.goto(url(`/listing/buy/${listingId}`));
    await buyer.getByTestId("make-offer").click();
    await buyer.waitForURL(/\/offers\/new\?listing=/);
    await buyer.fill("#offer-price", (offered / 100).toFixed(2));
    await buyer.getByTestId("offer-size-S").fill("1");
    await buyer.getByRole("button", { name: "Make the offer" }).click();
    await buyer.waitForURL(/\/offers\/\d+\?ref=made/);
    await expect
      .poll(() => buyer.getByTestId("offer-summary").textContent())
      .toContain(formatCents(offered));
    const [row] = await offerRows();
    expect(row).toMatchObject({ status: "open", turn: "seller", buyerUnitCents: offered });

    const seller = await signedIn(browser, who.seller.email);
    await seller.goto(url("/alerts/offers?side=seller"));
    const item = seller.locator(`[data-offer-id="${row.id}"]`);
    await expect.poll(() => item.textContent()).toContain("Your answer");
    expect(await item.textContent()).toContain(`retailer-00${who.buyer.id}`);
    await item.getByRole("link").click();
    await seller.waitForURL(new RegExp(`/offers/${row.id}$`));
    // The hold is taken before the workflow saves its first state; the answer waits for it.
    await expect
      .poll(async () => (await offerRows())[0].holdCents, { timeout: 15_000 })
      .toBeGreaterThan(0);
    // Meanwhile another buyer offers on both S units (over HTTP; held like any offer).
    const rival = new HttpClient();
    await rival.signIn(who.rival.email, DEFAULT_TEST_PASSWORD);
    const rivalMade = await rival.postForm(`/offers/new?listing=${listingId}`, {
      listing: listingId,
      price: ((priceCents - 200) / 100).toFixed(2),
      "sizes.S": 2,
    });
    expect(rivalMade.status).toBe(302);
    const rivalOffer = async () =>
      (
        await db()
          .select()
          .from(offers)
          .where(and(eq(offers.listingId, listingId), eq(offers.buyerId, who.rival.id)))
      )[0];
    expect(await rivalOffer()).toMatchObject({ status: "open", sizes: { S: 2 } });
    await seller.getByTestId("offer-accept").click();
    await seller.waitForURL(/\?ref=accept/);
    // "Accept" answers once the purchase has opened: the page links it, already at its pickup (no reloading).
    const [done] = await offerRows();
    expect(done.orderId).not.toBeNull();
    expect(
      (await db().select().from(orders).where(eq(orders.id, done.orderId!)))[0].statename,
    ).toBe(BUY_STATES.SHIP_ORDER);
    await seller.locator(`a[href="/transaction/buy/${done.orderId}"]`).first().waitFor();
    expect(done).toMatchObject({ status: "accepted", agreedUnitCents: offered });
    const [line] = await db()
      .select()
      .from(orderContributions)
      .where(
        and(
          eq(orderContributions.orderId, done.orderId!),
          eq(orderContributions.listingId, listingId),
        ),
      );
    expect(line).toMatchObject({ unitPriceCents: offered, quantity: 1 });
    // The purchase runs its own process from the seller's approval: captured on the offer's hold, to shipping.
    const orderState = async () =>
      (
        await db()
          .select({ s: orders.statename, paid: orders.receiverGrandTotalCents })
          .from(orders)
          .where(eq(orders.id, done.orderId!))
      )[0];
    await expect
      .poll(async () => (await orderState()).s, { timeout: 20_000 })
      .toBe(BUY_STATES.SHIP_ORDER);
    expect((await orderState()).paid).toBe(offerHoldCents({ S: 1 }, offered));
    // The purchase took one of the two S: the rival's offer is declined at once, its hold released, and it says why.
    await expect
      .poll(async () => (await rivalOffer()).endReason, { timeout: 15_000 })
      .toBe("units_taken");
    expect(await rivalOffer()).toMatchObject({ status: "declined" });
    const page = await rival.get(`/offers/${(await rivalOffer()).id}`);
    expect(page.body).toContain(OFFER_MESSAGES.unitsTaken);
  });
});

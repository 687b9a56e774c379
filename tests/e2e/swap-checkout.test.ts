/**
 * The swap cart's checkout in the browser (issue 10 item 1; spec 001 §2 swap terms, swap review, card modal,
 * §8 yourmove / theirmove): the terms, the review of the other retailer's goods (anonymous) with what the
 * card is pre-authorised for, a declined card answered and retried, then the swap's workflow waits for the
 * provider ("awaiting retailer's response" / "awaiting your selection"), the swap has left the cart, and a
 * second swap between the same two retailers is refused with the specification's message, either way round.
 */
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/client";
import { orders, payments } from "../../db/schema";
import { CHECKOUT_TERMS } from "../../domain/cart";
import { swapValuation } from "../../domain/fees";
import { CARD_DECLINED, SWAP_ALREADY_THEIR_MOVE, SWAP_ALREADY_YOUR_MOVE, SWAP_AWAITING_RETAILER, SWAP_AWAITING_YOUR_SELECTION } from "../../domain/messages";
import { formatCents } from "../../domain/money";
import {
  authorizeBrand,
  createBrand,
  createCollection,
  createListing,
  createProduct,
  createRetailer,
  DEFAULT_TEST_PASSWORD,
  SIZE_RUNS,
  type RetailerRow,
} from "../factories";
import { payWithTestCard, postCartForm } from "./buy-helpers";
import { closePage, launchBrowser, newPage, signIn, uniqueEmail, url } from "./harness";

let browser: Browser;
let dbh: DbHandle;
const pages: Page[] = [];
let brand: number;
let variation: number;
const PRICE = 1999;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL must point at the app's database");
  dbh = createDb(process.env.DATABASE_URL, { max: 2 });
  brand = (await createBrand(dbh.db)).id;
  const col = await createCollection(dbh.db, { brandId: brand });
  variation = (await createProduct(dbh.db, { collectionId: col.id, sizes: SIZE_RUNS.apparel, colors: 1, priceCents: PRICE })).variations[0].id;
  browser = await launchBrowser();
});
afterEach(async () => {
  while (pages.length) await closePage(pages.pop()!);
});
afterAll(async () => {
  await browser?.close();
  await dbh?.close();
});

async function retailer(): Promise<{ r: RetailerRow; email: string }> {
  const email = uniqueEmail("swapco");
  const { retailer: r } = await createRetailer(dbh.db, { payout: true, user: { email } });
  await authorizeBrand(dbh.db, r.id, brand);
  return { r, email };
}

async function signedIn(email: string): Promise<Page> {
  const p = await newPage(browser);
  pages.push(p);
  await signIn(p, email, DEFAULT_TEST_PASSWORD);
  await p.waitForLoadState("networkidle");
  return p;
}

/** Swap cart -> /checkout -> the swap terms accepted -> Continue. */
async function proceedWithSwap(p: Page, listingId: number, sizes: Record<string, number>): Promise<void> {
  await postCartForm(p, { intent: "add", listingId, ...Object.fromEntries(Object.entries(sizes).map(([k, n]) => [`size.${k}`, n])) });
  await p.goto(url("/checkout"));
  expect(await p.getByTestId("checkout-terms").textContent()).toContain(CHECKOUT_TERMS.swap.title);
  await p.locator("#checkout-terms-box").check();
  await p.getByTestId("checkout-continue").click();
}

describe("swap checkout", () => {
  it("terms, review, a declined card, then pre-authorised: the provider's to answer, the cart emptied; a second swap between the two is refused", async () => {
    const provider = await retailer();
    const receiver = await retailer();
    const theirs = await createListing(dbh.db, { variationId: variation, providerId: provider.r.id, sizes: { S: 3, M: 1 }, listingType: "swap" });
    const mine = await createListing(dbh.db, { variationId: variation, providerId: receiver.r.id, sizes: { L: 2 }, listingType: "swap" });

    const p = await signedIn(receiver.email);
    await proceedWithSwap(p, theirs.id, { S: 2 });
    await p.waitForURL((u) => u.pathname === "/checkout/swap");
    const review = p.getByTestId("swap-review");
    await review.waitFor();
    const text = (await review.textContent()) ?? "";
    expect(text).toContain(`retailer-00${provider.r.id}`);
    expect(text).not.toContain(provider.r.storeName);
    const v = swapValuation({ provider: { goodsCents: 2 * PRICE, units: 2 }, receiver: { goodsCents: 0, units: 0 }, callItEven: false });
    const authorize = v.receiver.feeCents + v.receiver.shippingCents;
    expect(await p.getByTestId("amount-goods").textContent()).toBe(formatCents(2 * PRICE));
    expect(await p.getByTestId("amount-fee").textContent()).toBe(formatCents(v.receiver.feeCents));
    expect(await p.getByTestId("amount-shipping").textContent()).toBe(formatCents(v.receiver.shippingCents));
    expect(await p.getByTestId("amount-authorize").textContent()).toBe(formatCents(authorize));
    const orderId = Number(await review.getAttribute("data-order-id"));

    // A declined card: the message, the page stays on this swap; the next card is a new attempt.
    await payWithTestCard(p, "4000000000000002");
    await p.waitForURL((u) => u.pathname === "/checkout/swap" && u.searchParams.get("declined") === "1");
    await expect.poll(() => p.getByTestId("pay-error").textContent()).toBe(CARD_DECLINED);
    await payWithTestCard(p, "4242424242424242");
    await p.waitForURL((u) => u.pathname === `/transaction/swap/${orderId}`);
    await expect.poll(() => p.getByTestId("swap-panel").textContent()).toBe(SWAP_AWAITING_RETAILER);

    const [row] = await dbh.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ transactionType: 2, statename: "provider_choose_items", providerId: provider.r.id, receiverId: receiver.r.id, actionNeeded: "provider" });
    const auths = await dbh.db.select().from(payments).where(and(eq(payments.orderId, orderId), eq(payments.txtype, "authorization")));
    // The declined attempt is recorded as declined; the second card holds the fee and shipping.
    expect(auths.map((a) => [a.retailerId, a.amountCents, a.status === "declined"])).toEqual([
      [receiver.r.id, authorize, true],
      [receiver.r.id, authorize, false],
    ]);
    await p.goto(url("/cart"));
    expect(await p.getByTestId("cart-line").count()).toBe(0);

    // The provider sees the swap waiting for its selection, the receiver anonymous.
    const q = await signedIn(provider.email);
    await q.goto(url(`/transaction/swap/${orderId}`));
    await expect.poll(() => q.getByTestId("swap-panel").textContent()).toBe(SWAP_AWAITING_YOUR_SELECTION);
    expect(await q.locator("main").textContent()).not.toContain(receiver.r.storeName);

    // A second swap between the same two retailers: theirmove for the receiver, yourmove for the provider.
    await proceedWithSwap(p, theirs.id, { M: 1 });
    await expect.poll(() => p.getByTestId("checkout-form-error").textContent()).toBe(SWAP_ALREADY_THEIR_MOVE);
    await proceedWithSwap(q, mine.id, { L: 1 });
    await expect.poll(() => q.getByTestId("checkout-form-error").textContent()).toBe(SWAP_ALREADY_YOUR_MOVE);
  });
});

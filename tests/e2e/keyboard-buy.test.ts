/**
 * The buy flow with the keyboard alone: sign in, choose units on a listing, add them to the
 * cart, proceed, accept the terms, review, pay with a card and land on the thank-you page, reaching every
 * control with Tab and using it with typing, Space or Enter (no mouse, no element.click()). axe runs on each
 * page of the way with the cart filled (the pages tests/e2e/accessibility.test.ts cannot reach empty).
 */
import type { Browser, Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { BUY_STATES } from "../../domain/states";
import { createListing, createWorld, DEFAULT_TEST_PASSWORD } from "../factories";
import { axeProblems } from "./axe";
import { retailerWithLogin, waitForOrderState } from "./buy-helpers";
import { closePage, dbHandle, hydrated, launchBrowser, newPage, url } from "./harness";

let handle: DbHandle;
let browser: Browser;

beforeAll(async () => {
  handle = dbHandle();
  browser = await launchBrowser();
});

/** Presses Tab until `target` has the focus (at most `max` times); fails naming where the focus went. */
async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  await target.waitFor();
  const trail: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
    trail.push(
      await page.evaluate(() => {
        const el = document.activeElement;
        return el
          ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.getAttribute("name") ? `[name=${el.getAttribute("name")}]` : ""}`
          : "nothing";
      }),
    );
  }
  throw new Error(`Tab never reached ${target}; the focus went ${trail.slice(-12).join(" → ")}`);
}

describe("the buy flow with the keyboard alone", () => {
  it("a retailer signs in, fills the cart, checks out and pays without a mouse; each page passes axe", async () => {
    const world = await createWorld(handle.db, { products: [{ colors: 1, priceCents: 3100 }] });
    const [brand, variation] = [world.brand.id, world.variation.id];
    const buyer = await retailerWithLogin(handle, [brand], { prefix: "kbd-a" });
    const seller = await retailerWithLogin(handle, [brand], { prefix: "kbd-b" });
    const listing = await createListing(handle.db, {
      variationId: variation,
      providerId: seller.r.id,
      sizes: { S: 2, M: 2 },
    });
    const page = await newPage(browser);
    const problems: string[] = [];

    // Sign in.
    await page.goto(url("/signin"));
    await tabTo(page, page.locator('input[name="email"]'));
    await page.keyboard.type(buyer.email);
    await tabTo(page, page.locator('input[name="password"]'));
    await page.keyboard.type(DEFAULT_TEST_PASSWORD);
    await Promise.all([
      page.waitForURL((u) => !u.pathname.startsWith("/signin")),
      page.keyboard.press("Enter"),
    ]);
    await hydrated(page);

    // The listing: two of size S, then "Add to cart".
    await page.goto(url(`/listing/buy/${listing.id}`));
    await tabTo(page, page.getByLabel("Quantity of size S"));
    await page.keyboard.press("Control+A");
    await page.keyboard.type("2");
    await tabTo(page, page.getByRole("button", { name: "Add to cart" }));
    await Promise.all([page.waitForURL(/ref=cartAdded/), page.keyboard.press("Enter")]);
    await hydrated(page);

    // The cart, by the cart bar's link.
    await tabTo(page, page.getByTestId("cart-view"));
    await Promise.all([page.waitForURL(/\/cart$/), page.keyboard.press("Enter")]);
    await hydrated(page);
    await page.getByTestId("cart-lines").waitFor();
    problems.push(...(await axeProblems(page)));

    // The cart: "Proceed to checkout".
    await tabTo(page, page.getByTestId("cart-proceed").first());
    await Promise.all([page.waitForURL(/\/checkout$/), page.keyboard.press("Enter")]);
    await hydrated(page);
    problems.push(...(await axeProblems(page)));

    // The terms: Space ticks the box, Enter on "Continue".
    await tabTo(page, page.locator("#checkout-terms-box"));
    await page.keyboard.press("Space");
    expect(await page.locator("#checkout-terms-box").isChecked()).toBe(true);
    await tabTo(page, page.getByTestId("checkout-continue"));
    await Promise.all([page.waitForURL(/\/checkout\/review/), page.keyboard.press("Enter")]);
    await hydrated(page);
    await page.getByTestId("draft-order").first().waitFor();
    problems.push(...(await axeProblems(page)));

    // The review: "Continue to payment".
    await tabTo(page, page.getByTestId("review-continue"));
    await Promise.all([page.waitForURL(/\/checkout\/pay\?order=/), page.keyboard.press("Enter")]);
    await hydrated(page);
    await page.getByTestId("pay-form").waitFor();
    const orderId = Number(new URL(page.url()).searchParams.get("order"));
    problems.push(...(await axeProblems(page)));

    // The card: number, expiry, CVC, then "Pay".
    const newCard = page.locator('input[type="radio"][name="card_choice"][value="new"]');
    if (await newCard.count()) {
      await tabTo(page, newCard);
      await page.keyboard.press("Space");
    }
    await tabTo(page, page.locator("#card_number"));
    await page.keyboard.type("4242 4242 4242 4242");
    await tabTo(page, page.locator("#card_expiry"));
    await page.keyboard.type("12/34");
    await tabTo(page, page.locator("#card_cvc"));
    await page.keyboard.type("123");
    await tabTo(page, page.getByTestId("pay-submit"));
    await Promise.all([
      page.waitForURL(/\/buy\?ref=checkoutComplete/, { timeout: 40_000 }),
      page.keyboard.press("Enter"),
    ]);
    await page
      .getByText("Thank you! Your order was sent to the seller.", { exact: false })
      .first()
      .waitFor();
    await waitForOrderState(orderId, BUY_STATES.PROVIDER_APPROVE_SALE);
    problems.push(...(await axeProblems(page)));

    expect(problems).toEqual([]);
    await closePage(page);
  });
});

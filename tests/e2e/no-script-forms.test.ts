/**
 * Every form works before the scripts load (docs/product/screens.md, "Messages on an order"; conventions:
 * "Safe with real money"): in Chromium with JavaScript disabled, a refused post comes back as a page with the
 * reason where the form shows it and the user's input still in the form; an accepted one does what it does with
 * scripts. The message form on an order's page (a fetcher with scripts: a document post to /messages/:kind/:id
 * without), Settings → Store Info, and the registration form.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "../../domain/accounts";
import { MESSAGE_REFUSALS } from "../../domain/order-messages";
import {
  createBrand,
  createCollection,
  createProduct,
  createRetailer,
  SIZE_RUNS,
  uniqueToken,
} from "../factories";
import { createOrderAt } from "../factories/orders";
import {
  baseUrl,
  db,
  launchBrowser,
  SESSION_COOKIE,
  sessionFor,
  uniqueEmail,
  url,
} from "./harness";

let browser: Browser;
const contexts: BrowserContext[] = [];
const tok = uniqueToken().toUpperCase();
const BUYER = uniqueEmail("noscript-buyer");
let orderId: number;

/** A page of its own context with JavaScript disabled, signed in as `email` when given. */
async function scriptless(email?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  if (email) {
    const { id } = await sessionFor(email);
    await context.addCookies([
      { name: SESSION_COOKIE, value: id, url: baseUrl, httpOnly: true, sameSite: "Lax" },
    ]);
  }
  return context.newPage();
}

/** Clicks a submit button and returns the status of the document that answers the post. */
async function submit(page: Page, button: ReturnType<Page["getByTestId"]>): Promise<number> {
  const [res] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === "POST" && r.request().isNavigationRequest(),
    ),
    button.click(),
  ]);
  await page.waitForLoadState("domcontentloaded");
  return res.status();
}

beforeAll(async () => {
  const brand = await createBrand(db(), { name: `NoScript Brand ${tok}` });
  const col = await createCollection(db(), { brandId: brand.id });
  const prod = await createProduct(db(), {
    collectionId: col.id,
    sku: `NS${tok}`,
    sizes: SIZE_RUNS.apparel,
  });
  const seller = await createRetailer(db(), {
    payout: true,
    user: { email: uniqueEmail("noscript-seller") },
  });
  const buyer = await createRetailer(db(), { payout: true, user: { email: BUYER } });
  const created = await createOrderAt(db(), "delivered", {
    providerId: seller.retailer.id,
    receiverId: buyer.retailer.id,
    lines: [{ variationId: prod.variations[0].id, sizes: { S: 1 } }],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  orderId = created.order.id;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
});

describe("forms without JavaScript", () => {
  it("a message with a phone number written with commas: the reason under the field, the text kept; a clean one is posted", async () => {
    const page = await scriptless(BUYER);
    await page.goto(url(`/transaction/buy/${orderId}`));
    expect(await page.evaluate(() => "__remixContext" in window).catch(() => false)).toBe(false);
    const refused = "Please call 555, 123, 4567 about the box";
    await page.getByTestId("message-input").fill(refused);
    expect(await submit(page, page.getByTestId("message-send"))).toBe(400);
    await expect(page.getByTestId("message-error").textContent()).resolves.toContain(
      MESSAGE_REFUSALS.phone,
    );
    await expect(page.getByTestId("message-input").inputValue()).resolves.toBe(refused);
    // corrected and sent again from the page the post landed on
    await page.getByTestId("message-input").fill("The box can go in the parcel, thanks.");
    expect(await submit(page, page.getByTestId("message-send"))).toBe(200);
    await expect(page.getByTestId("message-body").last().textContent()).resolves.toBe(
      "The box can go in the parcel, thanks.",
    );
    await expect(page.getByTestId("message-input").inputValue()).resolves.toBe("");
  });

  it("Settings → Store Info: a bad postal code is shown under its field, the other fields keep what was typed", async () => {
    const page = await scriptless(BUYER);
    await page.goto(url("/settings/store"));
    const form = page.getByTestId("store-form");
    await form.locator('input[name="city"]').fill(`Noscript City ${tok}`);
    await form.locator('input[name="postal_code"]').fill("ABCDE");
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      form.getByRole("button", { name: "Save store info" }).click(),
    ]);
    await page.waitForLoadState("domcontentloaded");
    expect(res.status()).toBe(400);
    await expect(form.textContent()).resolves.toContain(MSG.postalInvalid);
    await expect(form.locator('input[name="city"]').inputValue()).resolves.toBe(
      `Noscript City ${tok}`,
    );
    await expect(form.locator('input[name="postal_code"]').inputValue()).resolves.toBe("ABCDE");
  });

  it("registering with passwords that differ: the message, the e-mail kept", async () => {
    const page = await scriptless();
    await page.goto(url("/register"));
    const email = uniqueEmail("noscript-register");
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="password"]').fill("noscript-pass-1");
    await page.locator('input[name="confirm"]').fill("noscript-pass-2");
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.locator('button[type="submit"]').first().click(),
    ]);
    await page.waitForLoadState("domcontentloaded");
    expect(res.status()).toBe(400);
    await expect(page.locator("body").textContent()).resolves.toContain(MSG.passwordsMustMatch);
    await expect(page.locator('input[name="email"]').inputValue()).resolves.toBe(email);
  });
});

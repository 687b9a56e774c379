// Proves the browser suite works: Chromium opens the production build's sign-in page.
import type { Browser } from "playwright-core";
import { baseUrl, launchBrowser, newPage } from "./harness";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});

test("the sign-in page renders", async () => {
  const page = await newPage(browser);
  const res = await page.goto(`${baseUrl}/signin`);
  expect(res?.status()).toBe(200);
  await page.locator('input[type="password"]').first().waitFor({ state: "visible" });
  expect(await page.locator("form").count()).toBeGreaterThan(0);
  expect(await page.title()).not.toBe("");
});

/**
 * Settings and Brands in Chromium: Store Info (the setup wizard's rules, values kept, saved), Contact Info
 * (cell phone required; the cell-phone banner disappears once it is set), Card On File (a non-test number
 * refused, the declined test card's message, 4242... saved and shown as type + last four, the number never
 * stored), Password (link to /password-reset), Brands (authorized brands; a brand request with its
 * fields, saved with a notice).
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { brandRequests, paymentMethods, retailerContacts, retailers } from "../../db/schema";
import { MSG } from "../../domain/accounts";
import { CARD_MESSAGES } from "../../domain/cards";
import { authorizeBrand, createBrand, createRetailer } from "../factories";
import { db, launchBrowser, newPage, pagesPerTest, signInAs, uniqueEmail, url } from "./harness";

let browser: Browser;
const pages = pagesPerTest();

beforeAll(async () => {
  browser = await launchBrowser();
});

async function signedIn(opts: { celphone?: string } = {}) {
  const email = uniqueEmail("settings");
  const { retailer } = await createRetailer(db(), {
    user: { email },
    contact: opts.celphone === undefined ? undefined : { celphone: opts.celphone },
  });
  const p = await newPage(browser, { pages });
  await signInAs(p, email, { at: null });
  return { p, retailer };
}

/** Clicks the form's button; invalid input is caught in the browser (Conform) and never posted. */
async function submit(p: Page, form: string, button: RegExp) {
  await p.getByTestId(form).getByRole("button", { name: button }).click();
  await p.waitForLoadState("networkidle");
}

describe("Settings", () => {
  it("has the five tabs; Password links to /password-reset", async () => {
    const { p } = await signedIn();
    await p.goto(url("/settings"));
    await p.waitForURL(/\/settings\/store/);
    for (const label of ["Store Info", "Contact Info", "Payout Info", "Card On File", "Password"]) {
      expect(
        await p
          .getByRole("navigation", { name: "Settings" })
          .getByRole("link", { name: label })
          .count(),
      ).toBe(1);
    }
    await p.goto(url("/settings/password"));
    expect(await p.getByRole("link", { name: /reset my password/i }).getAttribute("href")).toBe(
      "/password-reset",
    );
  });

  it("Store Info: bad input shows the wizard's messages and keeps values; good input is saved", async () => {
    const { p, retailer } = await signedIn();
    await p.goto(url("/settings/store"));
    expect(await p.getByLabel("Shipping Address").inputValue()).toBe(retailer.address1);
    await p.getByLabel("Store name").fill("Harbor Goods");
    await p.getByLabel("State").fill("New York");
    await p.getByLabel("Postal code").fill("123");
    await submit(p, "store-form", /save store info/i);
    expect(await p.getByText(MSG.stateInvalid).count()).toBe(1);
    expect(await p.getByText(MSG.postalInvalid).count()).toBe(1);
    expect(await p.getByLabel("Store name").inputValue()).toBe("Harbor Goods");
    // Without JavaScript the server says the same (400, values kept).
    const res = await p.request.post(url("/settings/store"), {
      form: {
        store_name: "X",
        store_email: "bad",
        store_phone: "1",
        business_name: "",
        address1: "",
        city: "",
        state: "New York",
        postal_code: "1",
        resale_number: "1",
      },
      headers: { Origin: new URL(url("/")).origin },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(400);
    expect(await res.text()).toContain(MSG.stateInvalid);

    await p.getByLabel("State").fill("ny");
    await p.getByLabel("Postal code").fill("10001");
    await p.getByLabel("Shipping Address").fill("5 Pier Rd");
    await submit(p, "store-form", /save store info/i);
    await p.getByText("Your store info is saved.").waitFor();
    const [row] = await db().select().from(retailers).where(eq(retailers.id, retailer.id));
    expect(row).toMatchObject({
      storeName: "Harbor Goods",
      state: "NY",
      postalCode: "10001",
      address1: "5 Pier Rd",
    });
  });

  it("Contact Info: the cell phone is required; once set, the cell-phone banner is gone", async () => {
    const { p, retailer } = await signedIn({ celphone: "" });
    await p.goto(url("/"));
    expect(await p.getByTestId("banner-cellphone").count()).toBe(1);
    await p.goto(url("/settings/contact"));
    await submit(p, "contact-form", /save contact info/i);
    expect(await p.getByText(MSG.celphoneRequired).count()).toBe(1);
    expect(MSG.celphoneRequired.startsWith("Contact cell phone required")).toBe(true);
    await p.getByLabel("Cell phone").fill("(217) 555-0142");
    await p.getByLabel("Job title", { exact: true }).selectOption("Other");
    await submit(p, "contact-form", /save contact info/i);
    expect(await p.getByText(MSG.jobTitleOtherRequired).count()).toBe(1);
    await p.getByLabel("Job title (other)").fill("Merchandiser");
    await submit(p, "contact-form", /save contact info/i);
    await p.getByText("Your contact info is saved.").waitFor();
    const [c] = await db()
      .select()
      .from(retailerContacts)
      .where(eq(retailerContacts.retailerId, retailer.id));
    expect(c).toMatchObject({
      celphone: "+1-217-555-0142",
      jobTitle: "Other",
      jobTitleOther: "Merchandiser",
    });
    await p.goto(url("/"));
    expect(await p.getByTestId("banner-cellphone").count()).toBe(0);
  });

  it("Card On File: only test cards; the declined card's message; 4242 saved as Visa ending in 4242", async () => {
    const { p, retailer } = await signedIn();
    await p.goto(url("/settings/card"));
    expect(await p.getByTestId("no-card").count()).toBe(1);
    const fill = async (number: string) => {
      await p.getByLabel("Card number").fill(number);
      await p.getByLabel("Expiry (MM/YY)").fill("12/34");
      await p.getByLabel("CVC").fill("123");
      await submit(p, "card-form", /save/i);
    };
    // Wait for the answer to this submission, not the previous one still on the page.
    const cardError = (text: string) =>
      p.locator('[data-field-error="card_number"]', { hasText: text }).waitFor();
    await fill("4111 1111 1111 1112");
    await cardError(CARD_MESSAGES.onlyTestCards);
    expect(await p.locator('[data-field-error="card_number"]').textContent()).toBe(
      CARD_MESSAGES.onlyTestCards,
    );
    await fill("4000 0000 0000 0002");
    await cardError("Sorry but this card was declined.");
    expect(await p.locator('[data-field-error="card_number"]').textContent()).toBe(
      "Sorry but this card was declined. Please try another.",
    );
    expect(await p.getByTestId("no-card").count()).toBe(1);
    await fill("4242 4242 4242 4242");
    await p.getByText("Your card is saved.").waitFor();
    expect(await p.getByTestId("card-on-file").textContent()).toBe(
      "Card on file: Visa ending in 4242",
    );
    const rows = await db()
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.retailerId, retailer.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ description: "Visa", lastFour: "4242", isDefault: true });
    expect(rows[0].providerCustomerId).toMatch(/^cus_/);
    expect(JSON.stringify(rows)).not.toContain("4242424242424242");
    // A second card replaces it as the default, on the same customer.
    await fill("5555 5555 5555 4444");
    await p.getByText("Mastercard ending in 4444").waitFor();
    expect(await p.getByTestId("card-on-file").textContent()).toBe(
      "Card on file: Mastercard ending in 4444",
    );
  });
});

describe("Brands", () => {
  it("YOUR AUTHORIZED BRANDS lists the retailer's brands; ADD BRANDS saves a request with its fields", async () => {
    const { p, retailer } = await signedIn();
    const mine = await createBrand(db());
    const notMine = await createBrand(db());
    await authorizeBrand(db(), retailer.id, mine.id);
    await p.goto(url("/brands/"));
    const tabs = p.getByRole("navigation", { name: "Brands" });
    expect(await tabs.getByRole("link", { name: "YOUR AUTHORIZED BRANDS" }).count()).toBe(1);
    const list = (await p.getByTestId("authorized-brands").textContent()) ?? "";
    expect(list).toContain(mine.displayName);
    expect(list).not.toContain(notMine.displayName);

    await tabs.getByRole("link", { name: "ADD BRANDS" }).click();
    await p.getByTestId("brand-request-form").waitFor();
    await submit(p, "brand-request-form", /request this brand/i);
    expect(await p.getByText(MSG.brandNameRequired).count()).toBe(1);
    await p.getByLabel("Brand name").fill("Northwind Outfitters");
    await p.getByLabel("Yearly purchases with this brand ($)").fill("25,000");
    await p.getByLabel("Buy this brand's styles from other retailers").check();
    await p.getByLabel("Swap styles of this brand").check();
    await p.getByLabel("Brand contact name").fill("Dana Rep");
    await p.getByLabel("Brand contact email").fill("dana@northwind.test");
    await submit(p, "brand-request-form", /request this brand/i);
    await p.getByText("Thank you. We received your brand request").waitFor();
    expect(await p.getByTestId("brand-requests").textContent()).toContain("Northwind Outfitters");
    const [row] = await db()
      .select()
      .from(brandRequests)
      .where(eq(brandRequests.retailerId, retailer.id));
    expect(row).toMatchObject({
      brandName: "Northwind Outfitters",
      brandPurchaseAmountCents: 2_500_000,
      yourInterestInThisBrand: ["buy", "swap"],
      brandContactEmail: "dana@northwind.test",
      brandContactName: "Dana Rep",
    });
  });
});

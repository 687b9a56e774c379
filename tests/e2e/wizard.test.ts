/**
 * The "List a style" and "Request a style" wizards in Chromium (docs/product/screens.md): every stage of
 * /addlisting/ with each validation message (no colour, no sizes, terms not accepted, duplicate), photo
 * upload (a real PNG accepted, a text file renamed .png refused), "Modify" keeping the data, the save and
 * its notice; /requestlisting/ with the listing-exists notice, the duplicate and own-listing refusals; staff
 * browsing as admin choosing the provider. Bad input answers 400 with the messages and the values kept.
 *
 * All data is made for this file with the factories (unique brand, products and retailers).
 */
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { listingMarkdowns, listingRequests, listings } from "../../db/schema";
import { MARKDOWN_MESSAGES } from "../../domain/markdown";
import {
  ALREADY_LISTED,
  ALREADY_REQUESTED,
  CANNOT_CREATE_LISTING,
  CHECK_INVENTORY_OWN_LISTING,
  OWN_LISTING_EXISTS,
  SELECT_COLOR_OPTION,
} from "../../domain/messages";
import { ACCEPT_TERMS, ADD_AT_LEAST_ONE_SIZE } from "../../domain/messages";
import { WIZARD_MESSAGES } from "../../domain/listing-forms";
import { createBrand } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { baseUrl, db, launchBrowser, newPage, signInAs, uniqueEmail, url } from "./harness";
import { TINY_PNG } from "./form-fixtures";

// A real 1x1 PNG, and a text file that only pretends to be one.
const PNG = TINY_PNG;
const FAKE_PNG = Buffer.from("this is a text file, not a picture\n");

let browser: Browser;

const tok = uniqueToken().toUpperCase();
const brandName = `Wizard Brand ${tok}`;
const sku = `WZ${tok}`; // product listed in the listing test (Black, Navy)
const reqSku = `WQ${tok}`; // product only requested
let brandId: number;
let parka: { productId: number; black: number; navy: number };
let reqVariation: number;
const sellerEmail = uniqueEmail("wizard-seller");
const otherEmail = uniqueEmail("wizard-other");
const staffEmail = uniqueEmail("wizard-staff");
let sellerId: number;
let otherListingId: number;
let unpaidStore: { id: number; storeName: string };

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: brandName },
    collection: { year: 2025, name: "Fall" },
    products: [
      {
        sku,
        displayName: `Ridge Parka ${tok}`,
        sizes: ["S", "M", "L"],
        colors: ["Black", "Navy"],
        priceCents: 4250,
      },
      { sku: reqSku, displayName: `Trail Vest ${tok}`, sizes: ["S", "M"], colors: ["Rust"] },
    ],
  });
  brandId = world.brand.id;
  const [p, q] = world.products;
  parka = { productId: p.product.id, black: p.variations[0].id, navy: p.variations[1].id };
  reqVariation = q.variations[0].id;

  const seller = await createRetailer(db(), { payout: true, user: { email: sellerEmail } });
  sellerId = seller.retailer.id;
  await authorizeBrand(db(), sellerId, brandId);
  const other = await createRetailer(db(), { payout: true, user: { email: otherEmail } });
  await authorizeBrand(db(), other.retailer.id, brandId);
  // Another retailer already lists the Navy parka (for the request's listing-exists notice).
  otherListingId = (
    await createListing(db(), {
      variationId: parka.navy,
      providerId: other.retailer.id,
      sizes: { M: 2 },
    })
  ).id;
  const unpaid = await createRetailer(db(), {
    payout: false,
    user: false,
    storeName: `Unpaid Store ${tok}`,
  });
  await authorizeBrand(db(), unpaid.retailer.id, brandId);
  unpaidStore = { id: unpaid.retailer.id, storeName: unpaid.retailer.storeName };
  await createStaffUser(db(), { email: staffEmail });
  browser = await launchBrowser();
});

const page = (): Promise<Page> => newPage(browser);

const text = (p: Page, sel: string) => p.locator(sel).first().textContent();
const fieldError = (p: Page, name: string) => p.locator(`[data-field-error="${name}"]`).first();

/** Brand, search by product code (as you type), choose the product. */
async function chooseProduct(
  p: Page,
  path: "/addlisting/" | "/requestlisting/",
  code: string,
): Promise<void> {
  await p.goto(url(path));
  await p.selectOption("#wizard-brand", String(brandId));
  await p.waitForURL((u) => u.searchParams.get("brand") === String(brandId));
  await p.locator("#wizard-q").fill(code);
  const hit = p.locator('[data-testid="variation-hit"]', { hasText: code }).first();
  await hit.waitFor();
  await Promise.all([
    p.waitForURL((u) => u.searchParams.has("product")),
    hit.locator('[data-testid="choose-product"]').click(),
  ]);
  await p.getByTestId("wizard-style-form").waitFor();
}

async function stage(p: Page): Promise<string | null> {
  return p.getByTestId("wizard").getAttribute("data-stage");
}

async function post(p: Page, path: string, form: Record<string, string>) {
  return p.request.post(url(path), { form, headers: { Origin: baseUrl }, maxRedirects: 0 });
}

describe("List a style", () => {
  it("goes through every stage with each validation message, Modify keeping the data, and saves", async () => {
    const p = await page();
    await signInAs(p, sellerEmail, { at: null });
    await chooseProduct(p, "/addlisting/", sku);
    // The search shows name, code, colour and price; the product-not-found help names support.
    const row = await text(p, '[data-testid="variation-hit"]');
    expect(row).toContain(`Ridge Parka ${tok}`);
    expect(row).toContain(`${sku}-BLA`);
    expect(row).toContain("Black");
    expect(row).toContain("$42.50");
    expect(await text(p, '[data-testid="product-not-found"]')).toMatch(
      /season, the product code, the colour, the wholesale cost/,
    );

    // No colour chosen.
    await p.selectOption("#wizard-reason", "overstock");
    await p.locator('input[name="listingType"][value="sell"]').check();
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(fieldError(p, "variation").textContent()).resolves.toBe(SELECT_COLOR_OPTION);
    // The server says the same, with 400 and the values kept.
    const styleUrl = new URL(p.url()).pathname + new URL(p.url()).search;
    const bad = await post(p, styleUrl, { reason: "overstock", listingType: "swap" });
    expect(bad.status()).toBe(400);
    const html = await bad.text();
    expect(html).toContain(SELECT_COLOR_OPTION);
    expect(html).toMatch(/<input type="radio" name="listingType" checked="" value="swap"\/>/);
    expect(html).toMatch(/<option value="overstock" selected="">/);

    await p.locator(`input[name="variation"][value="${parka.black}"]`).check();
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);

    // Sizes: total 0.
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(text(p, '[data-testid="wizard-form-errors"]')).resolves.toContain(
      ADD_AT_LEAST_ONE_SIZE,
    );
    const sizesUrl = new URL(p.url()).pathname + new URL(p.url()).search;
    const zero = await post(p, sizesUrl, { "sizes[0]": "0", "sizes[1]": "-2", "sizes[2]": "0" });
    expect(zero.status()).toBe(400);
    expect(await zero.text()).toContain(WIZARD_MESSAGES.sizeWholeNumber);
    await p.fill("#size-0", "2");
    await p.fill("#size-1", "3");
    await expect(text(p, '[data-testid="wizard-total-units"]')).resolves.toBe("5");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "2"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);

    // Photos: the server refuses a text file renamed .png (400) and a picture over 5 MB (413), keeping the stage.
    const photosUrl = new URL(p.url()).pathname + new URL(p.url()).search;
    const upload = (name: string, buffer: Buffer) =>
      p.request.post(url(photosUrl), {
        multipart: { intent: "upload", photos: { name, mimeType: "image/png", buffer } },
        headers: { Origin: baseUrl },
        maxRedirects: 0,
      });
    const fake = await upload("notes.png", FAKE_PNG);
    expect(fake.status()).toBe(400);
    expect(await fake.text()).toContain(WIZARD_MESSAGES.photoType);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    PNG.copy(big);
    const large = await upload("big.png", big);
    expect(large.status()).toBe(413);
    expect(await large.text()).toContain(WIZARD_MESSAGES.photoTooLarge);
    // In the page: a text file renamed .png is refused, a real PNG accepted and shown.
    await p.setInputFiles("#wizard-photos-input", {
      name: "notes.png",
      mimeType: "image/png",
      buffer: FAKE_PNG,
    });
    await p.getByRole("button", { name: "Upload" }).click();
    await expect(text(p, '[data-testid="wizard-photo-errors"]')).resolves.toContain(
      `notes.png: ${WIZARD_MESSAGES.photoType}`,
    );
    expect(await p.locator('[data-testid="wizard-photo"]').count()).toBe(0);
    await p.setInputFiles("#wizard-photos-input", {
      name: "parka.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await Promise.all([
      p.waitForURL((u) => u.searchParams.has("images")),
      p.getByRole("button", { name: "Upload" }).click(),
    ]);
    const img = p.locator('[data-testid="wizard-photo"]').first();
    await img.waitFor();
    const src = (await img.getAttribute("src"))!;
    expect(src).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await p.request.get(url(src));
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);

    // Confirm, then Modify the sizes: the counts and the photo are kept.
    await expect(text(p, '[data-testid="wizard-summary-sizes"]')).resolves.toBe("S: 2, M: 3");
    await expect(text(p, '[data-testid="wizard-summary-value"]')).resolves.toBe("$212.50");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByTestId("modify-sizes").click(),
    ]);
    expect(await p.inputValue("#size-0")).toBe("2");
    expect(await p.inputValue("#size-1")).toBe("3");
    await p.fill("#size-1", "4");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "2"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.getByTestId("wizard-photos").waitFor();
    await p.locator('[data-testid="wizard-photo"]').first().waitFor();
    expect(await p.locator('[data-testid="wizard-photo"]').count()).toBe(1);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await expect(text(p, '[data-testid="wizard-summary-sizes"]')).resolves.toBe("S: 2, M: 4");
    await expect(text(p, '[data-testid="wizard-summary-units"]')).resolves.toBe("6");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "4"),
      p.getByTestId("wizard-confirm-continue").click(),
    ]);

    // Terms not accepted.
    await p.getByTestId("wizard-save").click();
    await expect(fieldError(p, "terms").textContent()).resolves.toBe(ACCEPT_TERMS);
    const termsUrl = new URL(p.url()).pathname + new URL(p.url()).search;
    const noTerms = await post(p, termsUrl, {});
    expect(noTerms.status()).toBe(400);
    expect(await noTerms.text()).toContain(ACCEPT_TERMS);

    // A markdown schedule (docs/product/markdowns.md) whose floor is above the price: refused, nothing saved.
    const badMarkdown = await post(p, termsUrl, {
      terms: "on",
      markdown: "on",
      stepKind: "percent",
      step: "10",
      everyDays: "7",
      floorKind: "price",
      floor: "99999",
    });
    expect(badMarkdown.status()).toBe(400);
    // Under its field (the edit page's fields, app/components/active/MarkdownFields.tsx).
    expect(await badMarkdown.text()).toContain(
      `id="wizard-terms-floor-error" class="field-error" role="alert">${MARKDOWN_MESSAGES.floorAbovePrice}<`,
    );
    const savedYet = () =>
      db()
        .select()
        .from(listings)
        .where(and(eq(listings.providerId, sellerId), eq(listings.variationId, parka.black)));
    expect(await savedYet()).toEqual([]);

    await p.locator('input[name="terms"]').check();
    const md = p.getByTestId("wizard-markdown");
    await md.locator('input[name="markdown"]').check();
    await md.getByLabel("Step size").fill("10");
    await md.getByLabel("Floor value").fill("60");
    await Promise.all([
      p.waitForURL((u) => u.pathname.startsWith("/buy")),
      p.getByTestId("wizard-save").click(),
    ]);
    expect(new URL(p.url()).searchParams.get("ref")).toBe("listingCreated");
    const [withMarkdown] = await savedYet();
    expect(
      (
        await db()
          .select()
          .from(listingMarkdowns)
          .where(eq(listingMarkdowns.listingId, withMarkdown.id))
      )[0],
    ).toMatchObject({ status: "active", stepValue: 10, everyDays: 7, floorValue: 60 });
    await p
      .locator('[role="status"]', { hasText: "Your listing has been created." })
      .first()
      .waitFor();

    const rows = await db()
      .select()
      .from(listings)
      .where(and(eq(listings.providerId, sellerId), eq(listings.variationId, parka.black)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sizes: { S: 2, M: 4, L: 0 },
      totalUnits: 6,
      listingType: "sell",
      reason: "overstock",
      status: "active",
      terms: true,
    });
    expect(rows[0].images).toEqual([src.replace("/uploads/", "")]);

    // Saving the same state again: "Cannot create listing" with the duplicate message and its link.
    const again = await post(p, termsUrl, { terms: "on" });
    expect(again.status()).toBe(400);
    const againHtml = await again.text();
    expect(againHtml).toContain(CANNOT_CREATE_LISTING);
    expect(againHtml).toContain(ALREADY_LISTED);
    await p.goto(url(termsUrl));
    await p.locator('input[name="terms"]').check();
    await p.getByTestId("wizard-save").click();
    await expect(text(p, '[data-testid="wizard-cannot-create"]')).resolves.toBe(
      CANNOT_CREATE_LISTING,
    );
  });

  it("refuses to list an already listed item, linking to the existing listing", async () => {
    const p = await page();
    await signInAs(p, sellerEmail);
    await chooseProduct(p, "/addlisting/", sku);
    await p.locator(`input[name="variation"][value="${parka.black}"]`).check();
    await p.locator('input[name="listingType"][value="swap"]').check();
    await p.selectOption("#wizard-reason", "end_of_season");
    await p.getByRole("button", { name: "Continue" }).click();
    const blocked = p.getByTestId("wizard-blocked");
    await blocked.waitFor();
    expect(await blocked.textContent()).toContain(ALREADY_LISTED);
    const [existing] = await db()
      .select()
      .from(listings)
      .where(and(eq(listings.providerId, sellerId), eq(listings.variationId, parka.black)));
    expect(await p.getByTestId("wizard-blocked-link").getAttribute("href")).toBe(
      `/updatelisting/${existing.id}`,
    );
    expect(await stage(p)).toBe("0");
  });

  it("answers tampered URLs with 4xx, never another brand's data", async () => {
    const p = await page();
    await signInAs(p, otherEmail);
    const unauthorizedBrand = await createBrand(db());
    expect(
      (await p.request.get(url(`/addlisting/?stage=0&brand=${unauthorizedBrand.id}`))).status(),
    ).toBe(404);
    expect((await p.request.get(url("/addlisting/?stage=7"))).status()).toBe(400);
    expect((await p.request.get(url("/addlisting/?stage=0&brand=x"))).status()).toBe(400);
    expect(
      (
        await p.request.get(url(`/addlisting/?stage=0&brand=${brandId}&product=999999999`))
      ).status(),
    ).toBe(404);
    // A later stage without the earlier data goes back to the first missing stage.
    const r = await p.request.get(url(`/addlisting/?stage=3&brand=${brandId}`), {
      maxRedirects: 0,
    });
    expect(r.status()).toBe(302);
    expect(r.headers().location).toMatch(/stage=0/);
    // A retailer cannot list for another retailer: the provider parameter is ignored.
    const dup = await post(
      p,
      `/addlisting/?stage=0&brand=${brandId}&product=${parka.productId}&provider=${sellerId}`,
      {
        variation: String(parka.navy),
        listingType: "sell",
        reason: "overstock",
        provider: String(sellerId),
      },
    );
    // The Navy parka is this retailer's own listing: refused for IT, not for the seller named in the form.
    expect(dup.status()).toBe(400);
    expect(await dup.text()).toContain(ALREADY_LISTED);
    expect(otherListingId).toBeGreaterThan(0);
  });
});

describe("Without JavaScript", () => {
  it("every stage works with plain forms, photo upload included", async () => {
    // Without payout: its listing stays hidden (payoutneeded), so the request tests below see no listing of this style.
    const { retailer } = await createRetailer(db(), {
      payout: false,
      user: { email: uniqueEmail("wizard-nojs") },
    });
    await authorizeBrand(db(), retailer.id, brandId);
    const email = (await db().query.users.findFirst({
      where: (u, { eq }) => eq(u.retailerId, retailer.id),
    }))!.email;
    const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
    context.setDefaultTimeout(15_000);
    const p = await context.newPage();
    await signInAs(p, email);
    await p.goto(url("/addlisting/"));
    await p.selectOption("#wizard-brand", String(brandId));
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("brand") === String(brandId)),
      p.getByRole("button", { name: "Choose brand" }).click(),
    ]);
    await p.fill("#wizard-q", reqSku.slice(0, 2)); // 2 characters: searched because Search is pressed
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("search") === "1"),
      p.getByRole("button", { name: "Search" }).click(),
    ]);
    await p.fill("#wizard-q", reqSku);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("q") === reqSku),
      p.getByRole("button", { name: "Search" }).click(),
    ]);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.has("product")),
      p.getByTestId("choose-product").first().click(),
    ]);
    await p.locator('input[name="listingType"][value="sell"]').check();
    await p.selectOption("#wizard-reason", "slow_seller");
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(fieldError(p, "variation").textContent()).resolves.toBe(SELECT_COLOR_OPTION);
    // The values survived the server's 400.
    expect(await p.locator('input[name="listingType"][value="sell"]').isChecked()).toBe(true);
    expect(await p.inputValue("#wizard-reason")).toBe("slow_seller");
    await p.locator(`input[name="variation"][value="${reqVariation}"]`).check();
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(text(p, '[data-testid="wizard-form-errors"]')).resolves.toContain(
      ADD_AT_LEAST_ONE_SIZE,
    );
    await p.fill("#size-0", "4");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "2"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.setInputFiles("#wizard-photos-input", {
      name: "vest.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await expect(text(p, '[data-testid="wizard-summary-sizes"]')).resolves.toBe("S: 4");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "4"),
      p.getByTestId("wizard-confirm-continue").click(),
    ]);
    await p.getByTestId("wizard-save").click();
    await expect(fieldError(p, "terms").textContent()).resolves.toBe(ACCEPT_TERMS);
    await p.locator('input[name="terms"]').check();
    await Promise.all([
      p.waitForURL((u) => u.pathname.startsWith("/buy")),
      p.getByTestId("wizard-save").click(),
    ]);
    expect(new URL(p.url()).searchParams.get("ref")).toBe("listingCreatedPayoutNeeded");
    const [row] = await db()
      .select()
      .from(listings)
      .where(and(eq(listings.providerId, retailer.id), eq(listings.variationId, reqVariation)));
    expect(row).toMatchObject({
      sizes: { S: 4, M: 0 },
      listingType: "sell",
      reason: "slow_seller",
      status: "payoutneeded",
    });
    expect(row.images).toHaveLength(1);
  });
});

describe("Request a style", () => {
  it("requests a style another retailer lists (listing-exists notice), then refuses the duplicate", async () => {
    const p = await page();
    await signInAs(p, sellerEmail);
    await chooseProduct(p, "/requestlisting/", sku);
    expect(await p.locator('input[name="listingType"]').count()).toBe(0);
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(fieldError(p, "variation").textContent()).resolves.toBe(SELECT_COLOR_OPTION);
    await expect(fieldError(p, "reason").textContent()).resolves.toBe(WIZARD_MESSAGES.chooseReason);
    await p.locator(`input[name="variation"][value="${parka.navy}"]`).check();
    await p.selectOption("#wizard-reason", "sold_out");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.fill("#size-1", "2");
    // No photos step for a request: sizes lead to the confirmation.
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    const notice = p.getByTestId("wizard-listing-exists");
    expect(await notice.textContent()).toContain(WIZARD_MESSAGES.listingExistsText);
    expect(
      await notice.getByRole("link", { name: "See it in the marketplace" }).getAttribute("href"),
    ).toBe(`/buy/?brand=${brandId}&variantId=${parka.navy}`);
    // The listing that fills it (M), linked to its page (docs/product/screens.md, "Matches").
    expect(
      await notice.getByTestId("wizard-filling-listing").getByRole("link").getAttribute("href"),
    ).toBe(`/listing/buy/${otherListingId}`);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "4"),
      p.getByTestId("wizard-confirm-continue").click(),
    ]);
    await p.locator('input[name="terms"]').check();
    await Promise.all([
      p.waitForURL((u) => u.pathname.startsWith("/buy")),
      p.getByTestId("wizard-save").click(),
    ]);
    const landed = new URL(p.url());
    expect(landed.searchParams.get("ref")).toBe("requestCreatedListingExists");
    expect(landed.searchParams.get("variantId")).toBe(String(parka.navy));
    const [req] = await db()
      .select()
      .from(listingRequests)
      .where(
        and(eq(listingRequests.requestorId, sellerId), eq(listingRequests.variationId, parka.navy)),
      );
    expect(req).toMatchObject({ sizes: { S: 0, M: 2, L: 0 }, totalUnits: 2, reason: "sold_out" });

    // The same style again: the duplicate message with a link to the existing request.
    await chooseProduct(p, "/requestlisting/", sku);
    await p.locator(`input[name="variation"][value="${parka.navy}"]`).check();
    await p.selectOption("#wizard-reason", "best_seller");
    await p.getByRole("button", { name: "Continue" }).click();
    const blocked = p.getByTestId("wizard-blocked");
    await blocked.waitFor();
    expect(await blocked.textContent()).toContain(ALREADY_REQUESTED);
    expect(await p.getByTestId("wizard-blocked-link").getAttribute("href")).toBe(
      `/updaterequest/${req.id}`,
    );
  });

  it("refuses a request for a style the retailer lists itself", async () => {
    const p = await page();
    await signInAs(p, sellerEmail);
    await chooseProduct(p, "/requestlisting/", sku);
    await p.locator(`input[name="variation"][value="${parka.black}"]`).check();
    await p.selectOption("#wizard-reason", "sold_out");
    await p.getByRole("button", { name: "Continue" }).click();
    const blocked = p.getByTestId("wizard-blocked");
    await blocked.waitFor();
    const t = await blocked.textContent();
    expect(t).toContain(OWN_LISTING_EXISTS);
    expect(t).toContain(CHECK_INVENTORY_OWN_LISTING);
  });

  it("a request nobody lists lands on My Requests with the notice", async () => {
    const p = await page();
    await signInAs(p, otherEmail);
    await chooseProduct(p, "/requestlisting/", reqSku);
    await p.locator(`input[name="variation"][value="${reqVariation}"]`).check();
    await p.selectOption("#wizard-reason", "customer_special_order");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.fill("#size-0", "1");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await p.getByTestId("wizard-summary").waitFor();
    expect(await p.getByTestId("wizard-listing-exists").count()).toBe(0);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "4"),
      p.getByTestId("wizard-confirm-continue").click(),
    ]);
    await p.locator('input[name="terms"]').check();
    await Promise.all([
      p.waitForURL((u) => u.pathname.startsWith("/active/requests")),
      p.getByTestId("wizard-save").click(),
    ]);
    expect(new URL(p.url()).searchParams.get("ref")).toBe("requestCreated");
  });
});

describe("Staff browsing as admin", () => {
  it("choose any brand and must choose the provider; the listing waits for that provider's payout", async () => {
    const p = await page();
    await signInAs(p, staffEmail);
    await chooseProduct(p, "/addlisting/", reqSku);
    await p.locator(`input[name="variation"][value="${reqVariation}"]`).check();
    await p.locator('input[name="listingType"][value="swap"]').check();
    await p.selectOption("#wizard-reason", "wrong_sizes");
    await p.getByRole("button", { name: "Continue" }).click();
    await expect(fieldError(p, "provider").textContent()).resolves.toBe(
      WIZARD_MESSAGES.chooseProvider,
    );
    // Only retailers authorized for the brand are offered, by store name (staff see names).
    const options = await p.locator("#wizard-retailer option").allTextContents();
    expect(options.some((o) => o.startsWith(unpaidStore.storeName))).toBe(true);
    await p.selectOption("#wizard-retailer", String(unpaidStore.id));
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "1"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    expect(new URL(p.url()).searchParams.get("provider")).toBe(String(unpaidStore.id));
    await p.fill("#size-1", "3");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "2"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "3"),
      p.getByRole("button", { name: "Continue" }).click(),
    ]);
    expect(await p.getByTestId("wizard-summary").textContent()).toContain(unpaidStore.storeName);
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("stage") === "4"),
      p.getByTestId("wizard-confirm-continue").click(),
    ]);
    await p.locator('input[name="terms"]').check();
    await Promise.all([
      p.waitForURL((u) => u.pathname.startsWith("/buy")),
      p.getByTestId("wizard-save").click(),
    ]);
    expect(new URL(p.url()).searchParams.get("ref")).toBe("listingCreatedPayoutNeeded");
    const rows = await db()
      .select()
      .from(listings)
      .where(and(eq(listings.providerId, unpaidStore.id), eq(listings.variationId, reqVariation)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "payoutneeded",
      listingType: "swap",
      reason: "wrong_sizes",
      totalUnits: 3,
    });
  });
});

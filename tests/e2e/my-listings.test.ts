/**
 * My Listings / My Requests and the edit screens in Chromium (docs/product/screens.md): the tabs, grouping
 * by authorized brand (sorted by name), the payout notice and the "Hidden until payout is set up" badge,
 * the empty states, paging per brand (default 4, `limit`), the product-code search (after more than 2
 * characters), editing with and without a reason, deleting with a reason, the pending-transactions
 * confirmation, the re-list notice of a corrected listing, and editing a request.
 *
 * Everything here is made for this file with the factories (fresh brands and retailers).
 */
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkdown } from "../../db/queries/markdowns";
import { markListingCorrected } from "../../db/queries/my-listings";
import { listingMarkdowns, listingRequests, listings } from "../../db/schema";
import { localDateISO } from "../../domain/business-days";
import { MARKDOWN_MESSAGES } from "../../domain/markdown";
import {
  LISTING_CORRECTED_RELIST,
  LISTING_PENDING_TRANSACTIONS,
  MODIFIED_REASON_REQUIRED_LISTING,
  MODIFIED_REASON_REQUIRED_REQUEST,
  NO_LISTINGS_FOR_BRAND,
  NO_REQUESTS_FOR_BRAND,
} from "../../domain/messages";
import { BUY_STATES } from "../../domain/states";
import { createBrand, createCollection, type CreatedProduct } from "../factories/catalogue";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest, type ListingRow } from "../factories/listings";
import { createOrder } from "../factories/orders";
import { uniqueToken } from "../factories/util";
import { createProduct, SIZE_RUNS } from "../factories";
import { closePage, db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
let page: Page;
const tok = uniqueToken().toUpperCase();
const email = uniqueEmail("mylistings");
let me: number;
let other: number;
let brandA: { id: number; name: string };
let brandM: { id: number; name: string };
let brandZ: { id: number; name: string };
let prodA: CreatedProduct;
let prodZ: CreatedProduct;
const alpha: ListingRow[] = [];
let zuluListing: ListingRow;
let zuluRequestId: number;

beforeAll(async () => {
  brandZ = await createBrand(db(), { name: `Zulu ${tok}` });
  brandA = await createBrand(db(), { name: `Alpha ${tok}` });
  brandM = await createBrand(db(), { name: `Mike ${tok}` });
  const colA = await createCollection(db(), { brandId: brandA.id });
  const colZ = await createCollection(db(), { brandId: brandZ.id });
  prodA = await createProduct(db(), {
    collectionId: colA.id,
    sku: `AA${tok}`,
    displayName: `Alpha Jacket ${tok}`,
    sizes: SIZE_RUNS.apparel,
    colors: 6,
  });
  prodZ = await createProduct(db(), {
    collectionId: colZ.id,
    sku: `ZZ${tok}`,
    displayName: `Zulu Boot ${tok}`,
    sizes: SIZE_RUNS.apparel,
    colors: 2,
  });
  me = (await createRetailer(db(), { payout: false, user: { email } })).retailer.id;
  other = (await createRetailer(db(), { payout: true, user: false })).retailer.id;
  for (const b of [brandA, brandM, brandZ]) await authorizeBrand(db(), me, b.id);
  await authorizeBrand(db(), other, brandA.id);
  const base = Date.now() - 3_600_000;
  for (let i = 0; i < 6; i++) {
    alpha.push(
      await createListing(db(), {
        variationId: prodA.variations[i].id,
        providerId: me,
        sizes: { S: 1, M: i + 1 },
        createdAt: new Date(base + i * 1000),
      }),
    );
  }
  zuluListing = await createListing(db(), {
    variationId: prodZ.variations[0].id,
    providerId: me,
    sizes: { L: 2 },
  });
  zuluRequestId = (
    await createRequest(db(), {
      variationId: prodZ.variations[1].id,
      requestorId: me,
      sizes: { XL: 3 },
    })
  ).id;
  await createListing(db(), {
    variationId: prodA.variations[0].id,
    providerId: other,
    sizes: { S: 9 },
  });
  browser = await launchBrowser();
  page = await signedIn(browser, email, { at: null });
});

afterAll(async () => {
  if (page) await closePage(page);
});

async function sectionNames(p: Page): Promise<string[]> {
  return p.$$eval("[data-testid=my-brand] h2", (hs) =>
    hs.map((h) => (h.firstChild?.textContent ?? "").trim()),
  );
}

function section(p: Page, brandId: number) {
  return p.locator(`[data-testid=my-brand][data-brand-id="${brandId}"]`);
}

async function cardIds(p: Page, brandId: number): Promise<number[]> {
  return (
    await section(p, brandId)
      .locator("[data-testid=my-card]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-id")))
  ).map(Number);
}

describe("My Listings and My Requests", () => {
  it("groups my listings by authorized brand, sorted by name, 4 per brand, with the payout notice and badges", async () => {
    await page.goto(url("/active/listings/"));
    expect((await page.textContent("main h1"))?.trim()).toBe("My Listings");
    expect(
      await page.$$eval("nav.tabs a", (as) =>
        as.map((a) => [a.textContent?.trim(), a.getAttribute("href")]),
      ),
    ).toEqual([
      ["My Listings", "/active/listings"],
      ["My Requests", "/active/requests"],
    ]);
    expect(await sectionNames(page)).toEqual([`Alpha ${tok}`, `Mike ${tok}`, `Zulu ${tok}`]);
    // Newest first, 4 of 6.
    expect(await cardIds(page, brandA.id)).toEqual([
      alpha[5].id,
      alpha[4].id,
      alpha[3].id,
      alpha[2].id,
    ]);
    expect(await section(page, brandA.id).getByTestId("my-range").textContent()).toBe("1–4 of 6");
    expect(await section(page, brandM.id).getByTestId("my-empty").textContent()).toBe(
      NO_LISTINGS_FOR_BRAND,
    );
    expect(await cardIds(page, brandZ.id)).toEqual([zuluListing.id]);
    // The card: image, name, code, colour, sizes, total, status.
    const card = section(page, brandA.id).locator("[data-testid=my-card]").first();
    expect(await card.locator("img").count()).toBe(1);
    const text = await card.textContent();
    expect(text).toContain(`Alpha Jacket ${tok}`);
    expect(await card.getByTestId("my-card-sku").textContent()).toBe(prodA.variations[5].sku);
    expect(text).toContain(prodA.variations[5].color);
    expect(await card.getByTestId("my-card-sizes").textContent()).toBe("S: 1 · M: 6");
    expect(await card.getByTestId("my-card-total").textContent()).toBe("Total Units: 7");
    expect(await card.getByTestId("badge-payoutneeded").textContent()).toBe(
      "Hidden until payout is set up",
    );
    expect(await card.locator("a").getAttribute("href")).toBe(`/updatelisting/${alpha[5].id}`);
    // The payout notice (the page's own; the global banner is not repeated here).
    expect(await page.getByTestId("my-payout-notice").textContent()).toContain("Action Required!");
    expect(await page.locator("[data-testid=banner-payout]").count()).toBe(0);
    // The two buttons.
    expect(await page.getByRole("link", { name: "List a Product" }).getAttribute("href")).toBe(
      "/addlisting",
    );
    expect(await page.getByRole("link", { name: "Request a Product" }).getAttribute("href")).toBe(
      "/requestlisting",
    );
  });

  it("pages each brand (Next / Previous) and honours limit", async () => {
    await page.goto(url("/active/listings"));
    await section(page, brandA.id).getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/offset=4/);
    await expect
      .poll(() => section(page, brandA.id).getByTestId("my-range").textContent())
      .toBe("5–6 of 6");
    expect(await cardIds(page, brandA.id)).toEqual([alpha[1].id, alpha[0].id]);
    expect(await cardIds(page, brandZ.id)).toEqual([zuluListing.id]);
    await section(page, brandA.id).getByRole("link", { name: "Previous" }).click();
    await expect
      .poll(() => section(page, brandA.id).getByTestId("my-range").textContent())
      .toBe("1–4 of 6");
    await page.goto(url("/active/listings?limit=2"));
    expect(await cardIds(page, brandA.id)).toEqual([alpha[5].id, alpha[4].id]);
    expect(await section(page, brandA.id).getByTestId("my-range").textContent()).toBe("1–2 of 6");
    await section(page, brandA.id).getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/limit=2.*offset=2|offset=2.*limit=2/);
    await expect.poll(() => cardIds(page, brandA.id)).toEqual([alpha[3].id, alpha[2].id]);
  });

  it("searches by product code after more than 2 characters, or on submit", async () => {
    await page.goto(url("/active/listings"));
    const box = page.getByLabel("Search by product code");
    const code = prodA.variations[1].sku; // ...-NAV
    const suffix = code.slice(code.lastIndexOf("-") + 1).toLowerCase();
    await box.fill(suffix.slice(0, 2));
    await page.waitForTimeout(500);
    expect(new URL(page.url()).searchParams.get("search")).toBeNull();
    expect(await section(page, brandA.id).getByTestId("my-range").textContent()).toBe("1–4 of 6");
    await box.fill(suffix);
    await page.waitForURL((u) => u.searchParams.get("search") === suffix);
    await expect.poll(() => cardIds(page, brandA.id)).toEqual([alpha[1].id]);
    expect(await section(page, brandZ.id).getByTestId("my-empty").textContent()).toBe(
      NO_LISTINGS_FOR_BRAND,
    );
    // Two characters and Enter: the search runs on submit.
    await box.fill(suffix.slice(0, 2));
    await box.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("search") === suffix.slice(0, 2));
    // Clearing the box shows everything again.
    await box.fill("");
    await page.waitForURL((u) => !u.searchParams.get("search"));
    await expect
      .poll(() => section(page, brandA.id).getByTestId("my-range").textContent())
      .toBe("1–4 of 6");
  });

  it("My Requests: same grouping, its own empty state, cards open the request editor", async () => {
    await page.goto(url("/active/listings"));
    await page.getByRole("link", { name: "My Requests" }).click();
    await page.waitForURL(/\/active\/requests$/);
    await expect.poll(() => page.textContent("main h1")).toBe("My Requests");
    expect(await sectionNames(page)).toEqual([`Alpha ${tok}`, `Mike ${tok}`, `Zulu ${tok}`]);
    expect(await section(page, brandA.id).getByTestId("my-empty").textContent()).toBe(
      NO_REQUESTS_FOR_BRAND,
    );
    expect(await cardIds(page, brandZ.id)).toEqual([zuluRequestId]);
    expect(await page.locator("[data-testid=my-payout-notice]").count()).toBe(0);
    await section(page, brandZ.id).locator("[data-testid=my-card] a").click();
    await page.waitForURL(new RegExp(`/updaterequest/${zuluRequestId}$`));
  });

  it("the payout notice can be put off ('do this later'): gone for the session, here and elsewhere", async () => {
    // A session of its own, so the shared page keeps its notice.
    const p = await signedIn(browser, email, { at: null });
    try {
      await p.goto(url("/active/listings"));
      const notice = p.getByTestId("my-payout-notice");
      expect(await notice.textContent()).toContain("Action Required!");
      await Promise.all([
        p.waitForURL(/\/active\/listings$/),
        notice.getByRole("button", { name: "do this later" }).click(),
      ]);
      await notice.waitFor({ state: "detached" });
      // The listings stay hidden from others: the card still says so.
      expect(await p.getByTestId("badge-payoutneeded").count()).toBeGreaterThan(0);
      await p.goto(url("/active/listings"));
      expect(await p.getByTestId("my-payout-notice").count()).toBe(0);
      await p.goto(url("/"));
      expect(await p.locator("[data-testid=banner-payout]").count()).toBe(0);
    } finally {
      await closePage(p);
    }
  });
});

describe("editing and deleting", () => {
  it("editing needs a reason for the change; with one it saves sizes and listing type", async () => {
    const target = alpha[5];
    await page.goto(url("/active/listings"));
    await section(page, brandA.id)
      .locator(`[data-testid=my-card][data-id="${target.id}"] a`)
      .click();
    await page.waitForURL(new RegExp(`/updatelisting/${target.id}$`));
    expect(await page.getByTestId("edit-sku").textContent()).toBe(prodA.variations[5].sku);
    const m = page.locator('input[data-size-label="M"]');
    expect(await m.inputValue()).toBe("6");
    await page.getByRole("button", { name: "One more M" }).click();
    await page.getByRole("button", { name: "One less S" }).click();
    await page.getByRole("button", { name: "One less S" }).click(); // never below 0
    expect(await m.inputValue()).toBe("7");
    expect(await page.locator('input[data-size-label="S"]').inputValue()).toBe("0");
    expect(await page.getByTestId("edit-total").textContent()).toBe("7");
    await page.getByLabel("Swap").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.locator("[data-field-error=modified_reason]").textContent())
      .toBe(MODIFIED_REASON_REQUIRED_LISTING);
    expect(await m.inputValue()).toBe("7");
    expect(new URL(page.url()).pathname).toBe(`/updatelisting/${target.id}`);

    await page.getByLabel("Reason for this change").selectOption("received_more");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/active\/listings\?notice=listing-updated/);
    expect(await page.getByTestId("my-notice").textContent()).toBe("Your listing was updated.");
    const card = section(page, brandA.id).locator(`[data-testid=my-card][data-id="${target.id}"]`);
    expect(await card.getByTestId("my-card-sizes").textContent()).toBe("M: 7");
    expect(await card.getByTestId("my-card-total").textContent()).toBe("Total Units: 7");
    expect(await card.textContent()).toContain("Swap");
    const [row] = await db().select().from(listings).where(eq(listings.id, target.id));
    expect(row).toMatchObject({
      sizes: { XS: 0, S: 0, M: 7, L: 0, XL: 0 },
      totalUnits: 7,
      listingType: "swap",
      modifiedReason: "received_more",
    });
  });

  it("Delete sets every size to zero and asks for the reason first", async () => {
    const target = alpha[4];
    await page.goto(url(`/updatelisting/${target.id}`));
    await page.getByRole("button", { name: "Delete" }).click();
    await expect
      .poll(() => page.locator("[data-field-error=modified_reason]").textContent())
      .toBe(MODIFIED_REASON_REQUIRED_LISTING);
    // Refused: the counters are left as they were, so a later Save cannot delete by surprise.
    expect(await page.getByTestId("edit-total").textContent()).toBe("6");
    expect(
      (await db().select().from(listings).where(eq(listings.id, target.id)))[0].totalUnits,
    ).toBe(6);
    await page.getByLabel("Reason for this change").selectOption("no_longer_needed");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/active\/listings\?notice=listing-updated/);
    expect(
      (await db().select().from(listings).where(eq(listings.id, target.id)))[0].totalUnits,
    ).toBe(6);
    await page.goto(url(`/updatelisting/${target.id}`));
    await page.getByLabel("Reason for this change").selectOption("no_longer_needed");
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/\/active\/listings\?notice=listing-deleted/);
    expect(await page.getByTestId("my-notice").textContent()).toBe("Your listing was deleted.");
    expect(await section(page, brandA.id).getByTestId("my-range").textContent()).toBe("1–4 of 5");
    expect(await cardIds(page, brandA.id)).not.toContain(target.id);
    const [row] = await db().select().from(listings).where(eq(listings.id, target.id));
    expect(row.totalUnits).toBe(0);
    expect(Object.values(row.sizes).every((n) => n === 0)).toBe(true);
  });

  it("a listing with pending transactions asks first, and OK saves it", async () => {
    const target = alpha[3];
    // A sale of one unit of the listing waiting for the seller's approval.
    await createOrder(db(), {
      providerId: me,
      receiverId: other,
      statename: BUY_STATES.PROVIDER_APPROVE_SALE,
      lines: [{ variationId: target.variationId, listingId: target.id, sizes: { M: 1 } }],
    });

    await page.goto(url(`/updatelisting/${target.id}`));
    await page.locator('input[data-size-label="M"]').fill("2");
    await page.getByLabel("Reason for this change").selectOption("sold_in_store");
    await page.getByRole("button", { name: "Save" }).click();
    const dialog = page.getByTestId("pending-dialog");
    await dialog.waitFor();
    expect(await dialog.locator("h2").textContent()).toBe(LISTING_PENDING_TRANSACTIONS);
    expect((await db().select().from(listings).where(eq(listings.id, target.id)))[0].sizes.M).toBe(
      4,
    );
    // Cancel closes it and saves nothing; saving again asks again; OK resubmits with pendingok.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByTestId("pending-dialog").waitFor();
    await page.getByTestId("pending-ok").click();
    await page.waitForURL(/\/active\/listings\?notice=listing-updated/);
    const [row] = await db().select().from(listings).where(eq(listings.id, target.id));
    expect(row.sizes.M).toBe(2);
    expect(row.totalUnits).toBe(3);
  });

  it("a corrected listing shows the re-list notice until the retailer saves it", async () => {
    const target = alpha[2];
    await markListingCorrected(db(), target.id);
    await page.goto(url("/active/listings"));
    const card = section(page, brandA.id).locator(`[data-testid=my-card][data-id="${target.id}"]`);
    expect(await card.getByTestId("badge-corrected").textContent()).toContain("Action Required!");
    await card.locator("a").click();
    await page.waitForURL(new RegExp(`/updatelisting/${target.id}$`));
    expect(await page.getByTestId("corrected-notice").textContent()).toBe(LISTING_CORRECTED_RELIST);
    await page.getByLabel("Reason for this change").selectOption("inventory_correction");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/notice=listing-updated/);
    expect(
      await section(page, brandA.id)
        .locator(`[data-testid=my-card][data-id="${target.id}"] [data-testid=badge-corrected]`)
        .count(),
    ).toBe(0);
    expect(
      (await db().select().from(listings).where(eq(listings.id, target.id)))[0].correctedAt,
    ).toBeNull();
  });

  it("editing a request needs its own reason message; delete removes it", async () => {
    await page.goto(url(`/updaterequest/${zuluRequestId}`));
    expect((await page.textContent("main h1"))?.trim()).toBe("Update Request");
    expect(await page.locator("input[name=listing_type]").count()).toBe(0);
    await page.locator('input[data-size-label="XL"]').fill("5");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.locator("[data-field-error=modified_reason]").textContent())
      .toBe(MODIFIED_REASON_REQUIRED_REQUEST);
    await page.getByLabel("Reason for this change").selectOption("other");
    await page.getByLabel("Reason for request").selectOption("best_seller");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/active\/requests\?notice=request-updated/);
    expect(await section(page, brandZ.id).getByTestId("my-card-sizes").textContent()).toBe("XL: 5");
    const [row] = await db()
      .select()
      .from(listingRequests)
      .where(eq(listingRequests.id, zuluRequestId));
    expect(row).toMatchObject({ totalUnits: 5, reason: "best_seller", modifiedReason: "other" });

    await page.goto(url(`/updaterequest/${zuluRequestId}`));
    await page.getByLabel("Reason for this change").selectOption("no_longer_needed");
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/\/active\/requests\?notice=request-deleted/);
    expect(await section(page, brandZ.id).getByTestId("my-empty").textContent()).toBe(
      NO_REQUESTS_FOR_BRAND,
    );
  });
});

describe("markdown schedule (docs/product/markdowns.md)", () => {
  it("a floor above the price is refused (message, 400, nothing written); set, pause, resume, cancel; a buyer sees the next price", async () => {
    const target = zuluListing;
    const schedule = () =>
      db().select().from(listingMarkdowns).where(eq(listingMarkdowns.listingId, target.id));
    await page.goto(url(`/updatelisting/${target.id}`));
    const panel = page.getByTestId("markdown-panel");
    await panel.getByLabel("Step size").fill("10");
    await panel.getByLabel("Every (days)").fill("7");
    await panel.getByLabel("Floor", { exact: true }).selectOption("price");
    await panel.getByLabel("Floor value").fill("99999");
    await panel.getByRole("button", { name: "Set schedule" }).click();
    await expect
      .poll(() => panel.locator("[data-field-error=floor], [role=alert]").allTextContents())
      .toContain(MARKDOWN_MESSAGES.floorAbovePrice);
    expect(await schedule()).toEqual([]);
    const refused = await page.request.post(url(`/updatelisting/${target.id}`), {
      form: {
        intent: "markdown",
        stepKind: "percent",
        step: "10",
        everyDays: "7",
        floorKind: "price",
        floor: "99999",
      },
      headers: { Origin: new URL(url("/")).origin },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(400);
    expect(await schedule()).toEqual([]);

    await panel.getByLabel("Floor", { exact: true }).selectOption("percent");
    await panel.getByLabel("Floor value").fill("60");
    await panel.getByRole("button", { name: "Set schedule" }).click();
    await expect
      .poll(() => panel.getByTestId("markdown-message").textContent())
      .toBe(MARKDOWN_MESSAGES.saved);
    expect(await panel.getByTestId("markdown-summary").textContent()).toMatch(
      /^10% every 7 days, floor \$[0-9.,]+ \(running\)\. Next price \$[0-9.,]+ on \d{4}-\d{2}-\d{2}$/,
    );
    await panel.getByRole("button", { name: "Pause" }).click();
    await expect
      .poll(() => panel.getByTestId("markdown-message").textContent())
      .toBe(MARKDOWN_MESSAGES.paused);
    await panel.getByRole("button", { name: "Resume" }).click();
    await expect
      .poll(() => panel.getByTestId("markdown-message").textContent())
      .toBe(MARKDOWN_MESSAGES.resumed);
    expect((await schedule())[0].status).toBe("active");
    await panel.getByRole("button", { name: "Remove schedule" }).click();
    await expect
      .poll(() => panel.getByTestId("markdown-message").textContent())
      .toBe(MARKDOWN_MESSAGES.cancelled);
    expect((await schedule())[0].status).toBe("cancelled");

    // Another seller's listing with a schedule: its buyer sees the coming step.
    const [theirs] = await db()
      .select()
      .from(listings)
      .where(and(eq(listings.providerId, other), eq(listings.variationId, prodA.variations[0].id)));
    const set = await setMarkdown(db(), {
      listingId: theirs.id,
      retailerId: other,
      terms: {
        stepKind: "percent",
        stepValue: 10,
        everyDays: 3,
        floorKind: "percent",
        floorValue: 50,
        endDate: null,
      },
      today: localDateISO(Date.now()),
    });
    expect(set.ok).toBe(true);
    await page.goto(url(`/listing/buy/${theirs.id}`));
    expect(await page.getByTestId("next-price").textContent()).toMatch(
      /Next price \$[0-9.,]+ on \d{4}-\d{2}-\d{2}/,
    );
    // And on its card in the marketplace.
    await page.goto(url(`/buy/?brand=${brandA.id}&id=${theirs.id}`));
    expect(
      await page.locator(`.market-card[data-id="${theirs.id}"] .market-card-next`).textContent(),
    ).toMatch(/^Next price \$[0-9.,]+ on \d{4}-\d{2}-\d{2}$/);
  });
});

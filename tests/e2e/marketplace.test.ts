/**
 * The marketplace in Chromium (docs/product/screens.md, "Marketplace"): the three tabs with filters and orderings,
 * grouping by authorized brand with View All / Load more, the listing view with live Total Units and
 * Total Value, the unavailable message, anonymity in the HTML (a retailer never sees another retailer's
 * name, e-mail, phone or address; staff see names), authorization by id (404), and bad query input (400).
 *
 * All rows are made for this file with the factories (unique names); the demo retailers are untouched.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  LISTING_UNAVAILABLE,
  NO_ACTIVE_REQUESTS_FOR_BRAND,
  noActiveListingsText,
} from "../../domain/messages";
import { createBrand } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { DEFAULT_TEST_PASSWORD } from "../factories";
import { closePage, db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
let page: Page;

const tok = uniqueToken().toUpperCase();
const buyerEmail = uniqueEmail("mkt-buyer");
const staffEmail = uniqueEmail("mkt-staff");
const seller = {
  storeName: `Secret Seller Store ${tok}`,
  storeEmail: `secret-seller-${tok.toLowerCase()}@example.test`,
  storePhone: "+1-555-010-4242",
  address1: `42 Hidden Lane ${tok}`,
};
let ids: {
  brandA: number;
  brandB: number;
  brandEmpty: number;
  sellerId: number;
  requestorId: number;
  cheapest: number;
  dearest: number;
  firstSku: string;
  lastSku: string;
  uniqueSku: string;
  swapListing: number;
  request: number;
  unauthorized: number;
  own: number;
  ownRequest: number;
  viewListing: number;
  buyerId: number;
};

beforeAll(async () => {
  // 23 colours of one style: prices 1000, 1100, ... so price order is known; codes <sku>-XXXn.
  const alpha = await createWorld(db(), {
    brand: { name: `Mkt Alpha ${tok}` },
    products: [
      {
        sku: `MK${tok}`,
        displayName: `Market Jacket ${tok}`,
        colors: 23,
        variationPriceCents: (i) => 1000 + i * 100,
      },
    ],
  });
  const bravo = await createWorld(db(), {
    brand: { name: `Mkt Bravo ${tok}` },
    products: [{ sku: `MB${tok}`, colors: 1 }],
  });
  const brandEmpty = await createBrand(db(), { name: `Mkt Charlie ${tok}` });
  const [brandA, brandB] = [alpha.brand, bravo.brand];
  const { variations } = alpha.products[0];
  const other = bravo.products[0];

  const { retailer: s } = await createRetailer(db(), { payout: true, user: false, ...seller });
  const { retailer: requestor } = await createRetailer(db(), {
    payout: false,
    user: false,
    storeName: `Secret Requestor ${tok}`,
  });
  const { retailer: buyer } = await createRetailer(db(), {
    payout: true,
    user: { email: buyerEmail },
  });
  await createStaffUser(db(), { email: staffEmail });
  for (const r of [s.id, requestor.id, buyer.id]) await authorizeBrand(db(), r, brandA.id);
  await authorizeBrand(db(), buyer.id, brandEmpty.id);
  await authorizeBrand(db(), s.id, brandB.id);

  const hour = 3600_000;
  const base = Date.now() - 100 * hour;
  const listingIds: number[] = [];
  for (const [i, v] of variations.entries()) {
    // Sizes: every listing has S; only the even ones have XL.
    const sizes: Record<string, number> = i % 2 === 0 ? { S: 1, XL: 2 } : { S: 3 };
    listingIds.push(
      (
        await createListing(db(), {
          variationId: v.id,
          providerId: s.id,
          sizes,
          createdAt: new Date(base + i * hour),
        })
      ).id,
    );
  }
  const swap = await createListing(db(), {
    variationId: variations[0].id,
    providerId: s.id,
    sizes: { M: 2 },
    listingType: "swap",
  });
  const own = await createListing(db(), {
    variationId: variations[1].id,
    providerId: buyer.id,
    sizes: { M: 2 },
  });
  const unauthorized = await createListing(db(), {
    variationId: other.variations[0].id,
    providerId: s.id,
    sizes: { M: 5 },
  });
  const req = await createRequest(db(), {
    variationId: variations[2].id,
    requestorId: requestor.id,
    sizes: { M: 4, L: 1 },
  });
  const ownRequest = await createRequest(db(), {
    variationId: variations[5].id,
    requestorId: buyer.id,
    sizes: { L: 1 },
  });
  const skus = variations.map((v) => v.sku).sort();
  ids = {
    brandA: brandA.id,
    brandB: brandB.id,
    brandEmpty: brandEmpty.id,
    sellerId: s.id,
    requestorId: requestor.id,
    cheapest: listingIds[0],
    dearest: listingIds[22],
    firstSku: skus[0],
    lastSku: skus[skus.length - 1],
    uniqueSku: variations[22].sku,
    swapListing: swap.id,
    request: req.id,
    unauthorized: unauthorized.id,
    own: own.id,
    ownRequest: ownRequest.id,
    buyerId: buyer.id,
    viewListing: listingIds[4],
  };
  browser = await launchBrowser();
  page = await signedIn(browser, buyerEmail, { at: null });
}, 120_000);

afterAll(async () => {
  if (page) await closePage(page);
});

function brandSection(p: Page, brandId: number) {
  return p.locator(`section.market-brand[data-brand-id="${brandId}"]`);
}
async function cardIds(p: Page, brandId: number): Promise<number[]> {
  return await brandSection(p, brandId)
    .locator("li.market-card")
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-id"))));
}

describe("browsing the marketplace", () => {
  it("the buy tab groups by authorized brands only (sorted by name), 20 per brand, with View All", async () => {
    await page.goto(url("/buy/"));
    await expect(page.locator(".market-tab.is-current").textContent()).resolves.toBe(
      "Listings Available to Buy",
    );
    const brandIds = await page
      .locator("section.market-brand")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-brand-id"))));
    expect(brandIds).toEqual([ids.brandA, ids.brandEmpty]);
    expect(await cardIds(page, ids.brandA)).toHaveLength(20);
    // Most Recent first: the buyer's own listing (just made; marked, not buyable), then the 23rd colour.
    expect((await cardIds(page, ids.brandA)).slice(0, 2)).toEqual([ids.own, ids.dearest]);
    await expect(
      page.locator(`li.market-card[data-id="${ids.own}"] small`).textContent(),
    ).resolves.toBe("Your listing");
    await expect(brandSection(page, ids.brandEmpty).textContent()).resolves.toContain(
      noActiveListingsText("buy"),
    );
    const html = await page.content();
    expect(html).not.toContain(`Mkt Bravo ${tok}`);
  });

  it("View All shows the whole brand; Load more adds 40 more", async () => {
    await page.goto(url("/buy/"));
    await Promise.all([
      page.waitForURL(/viewAll=on/),
      brandSection(page, ids.brandA).getByRole("link", { name: "View All" }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("brand")).toBe(String(ids.brandA));
    await expect.poll(() => cardIds(page, ids.brandA)).toHaveLength(24);
    await expect(page.getByRole("link", { name: "Load more" }).count()).resolves.toBe(0);
    // With a smaller first page the "Load more" link appears and adds LOAD_MORE (40) per click.
    await page.goto(url(`/buy/?viewAll=on&brand=${ids.brandA}&limit=10`));
    expect(await cardIds(page, ids.brandA)).toHaveLength(10);
    await page.getByRole("link", { name: "Load more" }).click();
    await expect.poll(() => cardIds(page, ids.brandA)).toHaveLength(24);
    expect(new URL(page.url()).searchParams.get("limit")).toBe("50");
  });

  it("the five orderings", async () => {
    await page.goto(url(`/buy/${ids.brandA}`));
    const select = page.locator('select[name="ordering"]');
    const firstSku = async () =>
      brandSection(page, ids.brandA).locator(".market-card code").first().textContent();
    await Promise.all([
      page.waitForURL(/ordering=price/),
      select.selectOption({ label: "Price Low to High" }),
    ]);
    await expect.poll(async () => (await cardIds(page, ids.brandA))[0]).toBe(ids.cheapest);
    await expect(
      brandSection(page, ids.brandA).locator(".market-card strong").first().textContent(),
    ).resolves.toBe("$10.00");
    await Promise.all([
      page.waitForURL(/ordering=-price/),
      select.selectOption({ label: "Price High to Low" }),
    ]);
    await expect.poll(async () => (await cardIds(page, ids.brandA))[0]).toBe(ids.dearest);
    await Promise.all([
      page.waitForURL(/ordering=sku/),
      select.selectOption({ label: "A-Z by Product Code" }),
    ]);
    await expect.poll(firstSku).toBe(ids.firstSku);
    await Promise.all([
      page.waitForURL(/ordering=-sku/),
      select.selectOption({ label: "Z-A by Product Code" }),
    ]);
    await expect.poll(firstSku).toBe(ids.lastSku);
    await Promise.all([
      page.waitForURL((u) => !u.search.includes("ordering")),
      select.selectOption({ label: "Most Recent" }),
    ]);
    await expect.poll(async () => (await cardIds(page, ids.brandA))[1]).toBe(ids.dearest);
  });

  it("product-code search starts after more than 2 characters; sizes and units filter", async () => {
    await page.goto(url("/buy/"));
    const search = page.locator('input[name="search"]');
    await search.pressSequentially("mk", { delay: 20 });
    await page.waitForTimeout(400);
    expect(new URL(page.url()).searchParams.get("search")).toBeNull();
    const code = ids.uniqueSku.toLowerCase();
    await search.fill(code);
    await page.waitForURL((u) => u.searchParams.get("search") === code);
    await expect.poll(() => cardIds(page, ids.brandA)).toHaveLength(1);
    // sizes: only listings with units in XL (the 12 even colours); units: at least 3 (the 11 odd ones).
    await page.goto(url(`/buy/?brand=${ids.brandA}&viewAll=on&sizes=XL`));
    expect(await cardIds(page, ids.brandA)).toHaveLength(12);
    await page.goto(url(`/buy/?brand=${ids.brandA}&viewAll=on&units=3&sizes=S,XL`));
    expect(await cardIds(page, ids.brandA)).toHaveLength(23);
    await page.goto(url(`/buy/?brand=${ids.brandA}&viewAll=on&units=4`));
    await expect(brandSection(page, ids.brandA).textContent()).resolves.toContain(
      noActiveListingsText("buy"),
    );
  });

  it("the swap tab shows swap listings; the requests tab shows requests, never the viewer's own", async () => {
    await page.goto(url("/swap/"));
    expect(await cardIds(page, ids.brandA)).toEqual([ids.swapListing]);
    await expect(
      brandSection(page, ids.brandA).locator(".market-card small").first().textContent(),
    ).resolves.toBe(`Listed by retailer-00${ids.sellerId}`);
    await page.getByRole("link", { name: "Requests of Authorized Retailers" }).click();
    await page.waitForURL(/\/sell\/$/);
    await expect
      .poll(() => page.locator(".market-tab.is-current").textContent())
      .toBe("Requests of Authorized Retailers");
    await expect.poll(() => cardIds(page, ids.brandA)).toEqual([ids.request]);
    await expect(
      brandSection(page, ids.brandA).locator(".market-card small").first().textContent(),
    ).resolves.toBe(`Requested by retailer-00${ids.requestorId}`);
    await expect(brandSection(page, ids.brandEmpty).textContent()).resolves.toContain(
      NO_ACTIVE_REQUESTS_FOR_BRAND,
    );
  });
});

describe("retailer__id (the named route buyswap's parameter)", () => {
  it("shows one retailer's listings or requests, named only by its anonymous label; View All and the search keep it", async () => {
    const c = new HttpClient();
    await c.signIn(buyerEmail, DEFAULT_TEST_PASSWORD);
    const r = await c.get(`/buy/?retailer__id=${ids.sellerId}`);
    expect(r.status).toBe(200);
    const cards = [
      ...r.body.matchAll(
        /<li class="market-card" data-id="(\d+)">[\s\S]*?<small>([^<]*)<\/small>/g,
      ),
    ];
    expect(cards).toHaveLength(20);
    expect(new Set(cards.map((m) => m[2]))).toEqual(
      new Set([`Listed by retailer-00${ids.sellerId}`]),
    );
    expect(cards.map((m) => Number(m[1]))).not.toContain(ids.own);
    for (const secret of Object.values(seller)) expect(r.body).not.toContain(secret);
    // Own listings under its own id; a requestor's requests on /sell/; nothing of a retailer with none.
    const own = await c.get(`/buy/?retailer__id=${ids.buyerId}`);
    expect([...own.body.matchAll(/data-id="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([ids.own]);
    const requests = await c.get(`/sell/?retailer__id=${ids.requestorId}`);
    expect(
      [...requests.body.matchAll(/<li class="market-card" data-id="(\d+)"/g)].map((m) =>
        Number(m[1]),
      ),
    ).toEqual([ids.request]);
    expect(requests.body).not.toContain(`Secret Requestor ${tok}`);
    expect((await c.get(`/swap/?retailer__id=${ids.requestorId}`)).body).not.toContain(
      'class="market-card"',
    );
    const badId = await c.get("/buy/?retailer__id=abc");
    expect([badId.status, badId.body.includes("retailer__id must be a whole number.")]).toEqual([
      400,
      true,
    ]);

    await page.goto(url(`/buy/?retailer__id=${ids.sellerId}`));
    await expect(page.getByTestId("retailer-scope").textContent()).resolves.toContain(
      `retailer-00${ids.sellerId}`,
    );
    await Promise.all([
      page.waitForURL(/viewAll=on/),
      brandSection(page, ids.brandA).getByRole("link", { name: "View All" }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get("retailer__id")).toBe(String(ids.sellerId));
    await expect.poll(() => cardIds(page, ids.brandA)).toHaveLength(23);
    const search = page.locator('input[name="search"]');
    await search.fill(ids.uniqueSku.toLowerCase());
    await page.waitForURL((u) => u.searchParams.get("search") === ids.uniqueSku.toLowerCase());
    expect(new URL(page.url()).searchParams.get("retailer__id")).toBe(String(ids.sellerId));
    await expect.poll(() => cardIds(page, ids.brandA)).toHaveLength(1);
    await Promise.all([
      page.waitForURL((u) => !u.searchParams.has("retailer__id")),
      page.getByRole("link", { name: "All retailers" }).click(),
    ]);
    await expect.poll(() => page.getByTestId("retailer-scope").count()).toBe(0);
  });
});

describe("the listing view", () => {
  it("sizes with quantity inputs; Total Units and Total Value update as you choose", async () => {
    await page.goto(url(`/listing/buy/${ids.viewListing}`));
    await expect(page.getByTestId("total-units").textContent()).resolves.toBe("0");
    await expect(page.getByTestId("total-value").textContent()).resolves.toBe("$0.00");
    const xl = page.locator('input[name="size.XL"]');
    await expect(xl.getAttribute("max")).resolves.toBe("2");
    await xl.fill("2");
    await page.locator('input[name="size.S"]').fill("1");
    // Listing 5 (index 4) costs $14.00.
    await expect.poll(() => page.getByTestId("total-units").textContent()).toBe("3");
    await expect(page.getByTestId("total-value").textContent()).resolves.toBe("$42.00");
    await expect(page.locator(".market-carousel img").count()).resolves.toBe(1);
    await expect(page.locator(".market-carousel").getAttribute("data-interval")).resolves.toBe(
      "50000",
    );
    await expect(
      page.locator("form[action='/cart'] input[name='intent']").inputValue(),
    ).resolves.toBe("add");
    await expect(
      page.locator("form[action='/cart'] input[name='listingId']").inputValue(),
    ).resolves.toBe(String(ids.viewListing));
  });

  it("a gone or unauthorized listing is unavailable (404 with the spec's message); an own one cannot be bought", async () => {
    for (const path of [
      `/listing/buy/999999999`,
      `/listing/buy/${ids.unauthorized}`,
      `/listing/sell/${ids.ownRequest}`,
      `/listing/sell/${ids.viewListing}999`,
    ]) {
      const res = await page.goto(url(path));
      expect(res?.status(), path).toBe(404);
      await expect(page.locator(".market-unavailable").textContent()).resolves.toContain(
        LISTING_UNAVAILABLE,
      );
    }
    const own = await page.goto(url(`/listing/buy/${ids.own}`));
    expect(own?.status()).toBe(200);
    await expect(page.locator(".market-card-by").textContent()).resolves.toBe("Your listing");
    await expect(
      page.locator(".market-item-form fieldset").getAttribute("disabled"),
    ).resolves.not.toBeNull();
    // viewlisting/{id}/{action} is the same page; a swap listing asked for as buy goes to its own tab.
    await page.goto(url(`/viewlisting/${ids.swapListing}/buy`));
    expect(new URL(page.url()).pathname).toBe(`/listing/swap/${ids.swapListing}`);
  });

  it("adding to the cart locks the other two tabs (the cart helper's bar and type lock)", async () => {
    await page.goto(url(`/listing/buy/${ids.viewListing}`));
    await page.locator('input[name="size.XL"]').fill("1");
    await page.getByRole("button", { name: "Add to cart" }).click();
    // The cart helper's /cart action sends us back here, where its bar now shows.
    await page.getByTestId("cart-bar").waitFor();
    await page.goto(url("/buy/"));
    await expect(page.getByTestId("cart-bar").count()).resolves.toBe(1);
    const disabled = await page.locator(".market-tab.is-disabled").allTextContents();
    expect(disabled).toEqual(["Listings Available to Swap", "Requests of Authorized Retailers"]);
    await page.goto(url(`/listing/sell/${ids.request}`));
    await expect(
      page.locator(".market-item-form fieldset").getAttribute("disabled"),
    ).resolves.not.toBeNull();
    // Start Over empties the cart and unlocks the tabs.
    await page.goto(url("/buy/"));
    await page.getByTestId("cart-start-over").click();
    await page.getByTestId("cart-bar").waitFor({ state: "detached" });
    await page.goto(url("/buy/"));
    await expect(page.locator(".market-tab.is-disabled").count()).resolves.toBe(0);
  });

  it("a request: 'Requested by', sizes up to 10000", async () => {
    await page.goto(url(`/listing/sell/${ids.request}`));
    await expect(page.locator(".market-card-by").textContent()).resolves.toBe(
      `Requested by retailer-00${ids.requestorId}`,
    );
    await expect(page.locator('input[name="size.M"]').getAttribute("max")).resolves.toBe("10000");
    await expect(
      page.locator("form[action='/cart'] input[name='requestId']").inputValue(),
    ).resolves.toBe(String(ids.request));
  });
});

describe("anonymity and authorization", () => {
  const secrets = () => [
    seller.storeName,
    seller.storeEmail,
    seller.storePhone,
    seller.address1,
    `Secret Requestor ${tok}`,
  ];

  it("a retailer's pages never carry another retailer's name, e-mail, phone or address", async () => {
    const paths = [
      "/buy/",
      `/buy/?viewAll=on&brand=${ids.brandA}`,
      "/swap/",
      "/sell/",
      `/listing/buy/${ids.viewListing}`,
      `/listing/swap/${ids.swapListing}`,
      `/listing/sell/${ids.request}`,
    ];
    for (const p of paths) {
      await page.goto(url(p));
      const html = await page.content();
      for (const s of secrets()) expect(html, `${p} contains ${s}`).not.toContain(s);
    }
  });

  it("a brand the retailer is not authorized for is not found, by id or brand", async () => {
    const c = new HttpClient();
    await c.signIn(buyerEmail, DEFAULT_TEST_PASSWORD);
    expect((await c.get(`/buy/?brand=${ids.brandB}`)).status).toBe(404);
    expect((await c.get(`/buy/${ids.brandB}`)).status).toBe(404);
    const r = await c.get(`/listing/buy/${ids.unauthorized}`);
    expect(r.status).toBe(404);
    expect(r.body).toContain(LISTING_UNAVAILABLE);
    expect(r.body).not.toContain(seller.storeName);
  });

  it("bad query values are a 400 with a clear message, never a 500", async () => {
    const c = new HttpClient();
    await c.signIn(buyerEmail, DEFAULT_TEST_PASSWORD);
    const cases: [string, string][] = [
      ["/buy/?limit=abc", "limit must be a whole number."],
      ["/buy/?offset=-5", "offset must be 0 or more."],
      ["/swap/?ordering=cheapest", "ordering must be one of"],
      ["/sell/?viewAll=on", "give a brand too"],
      ["/buy/?brand=1&brand=2", "Give brand only once."],
      ["/buy/x", "brand must be a whole number."],
    ];
    for (const [p, msg] of cases) {
      const r = await c.get(p);
      expect(r.status, p).toBe(400);
      expect(r.body, p).toContain(msg);
    }
    expect((await c.get("/listing/rent/1")).status).toBe(404);
    expect((await c.get("/listing/buy/abc")).status).toBe(404);
  });

  it("staff acting as a retailer see that retailer's brands, with store names", async () => {
    const c = new HttpClient();
    await c.signIn(staffEmail, DEFAULT_TEST_PASSWORD);
    const act = await c.postForm("/act-as", {
      intent: "act",
      retailerId: ids.buyerId,
      redirectTo: "/buy/",
    });
    expect(act.status).toBeLessThan(400);
    const r = await c.get("/buy/");
    expect(r.status).toBe(200);
    const brandsShown = [...r.body.matchAll(/data-brand-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(brandsShown).toEqual([ids.brandA, ids.brandEmpty]);
    expect(r.body).toContain(`Listed by ${seller.storeName}`);
    expect((await c.get(`/buy/?brand=${ids.brandB}`)).status).toBe(404);
    await c.postForm("/act-as", { intent: "clear" });
  });

  it("staff browsing as admin see every brand and the store names", async () => {
    const staff = await signedIn(browser, staffEmail, { at: null });
    try {
      await staff.goto(url(`/buy/?brand=${ids.brandB}`));
      await expect(staff.locator(".market-card small").first().textContent()).resolves.toBe(
        `Listed by ${seller.storeName}`,
      );
      await staff.goto(url(`/sell/?brand=${ids.brandA}`));
      await expect(
        staff.locator(`li.market-card[data-id="${ids.request}"] small`).textContent(),
      ).resolves.toBe(`Requested by Secret Requestor ${tok}`);
      await staff.goto(url(`/listing/buy/${ids.viewListing}`));
      await expect(staff.locator(".market-card-by").textContent()).resolves.toBe(
        `Listed by ${seller.storeName}`,
      );
      await expect(
        staff.locator(".market-item-form fieldset").getAttribute("disabled"),
      ).resolves.not.toBeNull();
    } finally {
      await closePage(staff);
    }
  });
});

describe("the swap cart's provider (fixed to the first item's brand and provider)", () => {
  it("the swap tab offers that retailer's listings of that brand (retailer__id), by its label only", async () => {
    const c = new HttpClient();
    await c.signIn(buyerEmail, DEFAULT_TEST_PASSWORD);
    await c.postForm("/cart", { intent: "clear", returnTo: "/swap/" });
    const add = await c.postForm("/cart", {
      intent: "add",
      listingId: ids.swapListing,
      "size.M": 1,
      type: "swap",
      returnTo: "/swap/",
    });
    expect(add.status).toBeLessThan(400);
    try {
      const r = await c.get("/swap/");
      const link = r.body.match(/data-testid="swap-provider-scope">[\s\S]*?<\/p>/)?.[0] ?? "";
      expect(link).toContain(`retailer-00${ids.sellerId}`);
      expect(link).toContain(`href="/swap/?brand=${ids.brandA}&amp;retailer__id=${ids.sellerId}"`);
      expect(link).not.toContain(seller.storeName);
    } finally {
      await c.postForm("/cart", { intent: "clear", returnTo: "/swap/" });
    }
  });
});

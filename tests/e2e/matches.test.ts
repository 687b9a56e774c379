/**
 * Matches, both ways (docs/product/screens.md, "Matches"; ADR 0030), in Chromium:
 * - a listing saved through the "List a style" wizard that fills another retailer's open request → the
 *   requestor's /alerts shows the Matches bell, /alerts/matches lists it (provider as retailer-00{id}, link to
 *   its buy page) and ONE digest e-mail lists it; a second match the same day rewrites that e-mail;
 * - a request whose style other retailers already list → the request wizard's last stage shows those listings;
 * - a saved search → a later listing that fits it is on the saver's Matches tab;
 * - bad input on the saved-search form → the message and a 4xx, nothing saved; another retailer's search → 404.
 */
import { eq, sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { wizardHref } from "../../app/utils/wizard-paths";
import { createListingChecked } from "../../db/queries/listing-write";
import { queueDueMatchDigests } from "../../db/queries/matches";
import { savedSearches } from "../../db/schema";
import { getEnv } from "../../app/utils/env.server";
import { MATCH_MESSAGES } from "../../domain/matches";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { baseUrl, db, launchBrowser, readOutbox, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const sku = `MX${tok}`;
let brandId: number;
let variations: number[];
const who = {
  requestor: { email: uniqueEmail("match-req"), id: 0, store: "" },
  provider: { email: uniqueEmail("match-prov"), id: 0, store: "" },
  saver: { email: uniqueEmail("match-save"), id: 0, store: "" },
  other: { email: uniqueEmail("match-other"), id: 0, store: "" },
};

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `Match Brand ${tok}` },
    products: [{ sku, sizes: ["S", "M", "L"], colors: ["Black", "Navy", "Olive"] }],
  });
  brandId = world.brand.id;
  const p = world.products[0];
  variations = p.variations.map((v) => v.id);
  for (const w of Object.values(who)) {
    const r = await createRetailer(db(), { payout: true, user: { email: w.email } });
    w.id = r.retailer.id;
    w.store = r.retailer.storeName;
    await authorizeBrand(db(), w.id, brandId);
  }
  // The requestor wants the Black style in M.
  await createRequest(db(), {
    requestorId: who.requestor.id,
    variationId: variations[0],
    sizes: { M: 2 },
  });
  browser = await launchBrowser();
});

const page = (email: string): Promise<Page> => signedIn(browser, email, { at: null });

/** The digest e-mails to `email`, after the worker's sweep (every minute; run here at once). */
const digests = async (email: string) => {
  await queueDueMatchDigests(db(), getEnv().MARKETPLACE_TZ);
  return (await readOutbox(email)).filter((m) => m.kind === "match_digest");
};

describe("Matches", () => {
  it("a listing that fills a request → the requestor's Matches tab and one digest e-mail", async () => {
    const prov = await page(who.provider.email);
    const state = {
      brand: brandId,
      variation: variations[0],
      listingType: "sell" as const,
      reason: "overstock",
      sizes: { M: 1, L: 1 },
    };
    const product = (
      await db().execute<{ product_id: number }>(
        sql`select product_id from product_variations where id = ${variations[0]}`,
      )
    )[0].product_id;
    await prov.goto(url(wizardHref("listing", 4, { ...state, product })));
    await prov.locator('input[name="terms"]').check();
    await Promise.all([
      prov.waitForURL((u) => u.pathname.startsWith("/buy")),
      prov.getByTestId("wizard-save").click(),
    ]);
    expect(new URL(prov.url()).searchParams.get("ref")).toBe("listingCreated");
    const [listing] = await db().execute<{ id: number }>(
      sql`select id from listings where provider_id = ${who.provider.id} and variation_id = ${variations[0]}`,
    );

    const req = await page(who.requestor.email);
    await req.goto(url("/alerts"));
    await expect(req.getByTestId("bell-matches").textContent()).resolves.toContain("1");
    await Promise.all([
      req.waitForURL((u) => u.pathname === "/alerts/matches"),
      req.getByTestId("tab-matches").click(),
    ]);
    const match = req.getByTestId("match").first();
    const text = (await match.textContent()) ?? "";
    expect(text).toContain(`retailer-00${who.provider.id}`);
    expect(text).toContain("fills your request");
    expect(text).not.toContain(who.provider.store);
    expect(await match.getByRole("link", { name: "Buy it" }).getAttribute("href")).toBe(
      `/listing/buy/${listing.id}`,
    );
    await Promise.all([
      req.waitForURL((u) => u.pathname === `/listing/buy/${listing.id}`),
      match.getByRole("link", { name: "Buy it" }).click(),
    ]);
    // Seen: the bell is gone.
    await req.goto(url("/alerts"));
    expect(await req.getByTestId("bell-matches").count()).toBe(0);

    const mails = await digests(who.requestor.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].bodyText).toContain(`retailer-00${who.provider.id}`);
    expect(mails[0].bodyText).toContain(`/listing/buy/${listing.id}`);
    expect(mails[0].bodyText).not.toContain(who.provider.store);

    // A second match the same day: still one e-mail, now listing both.
    const second = await createListingChecked(db(), {
      providerId: who.other.id,
      variationId: variations[0],
      listingType: "swap",
      reason: "overstock",
      sizes: { M: 3 },
      terms: true,
    });
    expect(second.ok).toBe(true);
    const after = await digests(who.requestor.email);
    expect(after).toHaveLength(1);
    expect(after[0].subject).toBe("2 new matches for your requests");
    expect(after[0].bodyText).toContain(`/listing/swap/${second.ok ? second.listing.id : 0}`);
  });

  it("a request that listings already fill → shown on the request wizard's last stage", async () => {
    const l = await createListing(db(), {
      providerId: who.provider.id,
      variationId: variations[1],
      sizes: { S: 2 },
    });
    const p = await page(who.saver.email);
    const product = (
      await db().execute<{ product_id: number }>(
        sql`select product_id from product_variations where id = ${variations[1]}`,
      )
    )[0].product_id;
    await p.goto(
      url(
        wizardHref("request", 3, {
          brand: brandId,
          product,
          variation: variations[1],
          reason: "sold_out",
          sizes: { S: 1 },
        }),
      ),
    );
    const item = p.getByTestId("wizard-filling-listing").first();
    const text = (await item.textContent()) ?? "";
    expect(text).toContain(`retailer-00${who.provider.id}`);
    expect(text).not.toContain(who.provider.store);
    expect(await item.getByRole("link").getAttribute("href")).toBe(`/listing/buy/${l.id}`);
    // A size nobody lists: no list.
    await p.goto(
      url(
        wizardHref("request", 3, {
          brand: brandId,
          product,
          variation: variations[1],
          reason: "sold_out",
          sizes: { L: 1 },
        }),
      ),
    );
    await p.getByTestId("wizard").waitFor();
    expect(await p.getByTestId("wizard-filling-listing").count()).toBe(0);
  });

  it("a saved search is alerted; bad input gets the message and a 4xx, nothing saved", async () => {
    const p = await page(who.saver.email);
    // From the marketplace: "Save this search" carries the brand and the search to the form.
    await p.goto(url(`/buy/?brand=${brandId}&search=${sku}`));
    await Promise.all([
      p.waitForURL((u) => u.pathname === "/alerts/matches"),
      p.locator(`[data-brand-id="${brandId}"]`).getByTestId("save-search").click(),
    ]);
    const form = p.getByTestId("saved-search-form");
    expect(await form.locator('select[name="brand"]').inputValue()).toBe(String(brandId));
    expect(await form.locator('input[name="q"]').inputValue()).toBe(sku);
    await form.locator('input[name="q"]').fill("ab");
    await form.getByRole("button", { name: "Save search" }).click();
    await expect(form.getByText(MATCH_MESSAGES.textTooShort).first().textContent()).resolves.toBe(
      MATCH_MESSAGES.textTooShort,
    );
    // The server says the same with a 400 (the browser's check aside), and a brand it is not authorized for is refused.
    const post = (form: Record<string, string>) =>
      p.request.post(url("/alerts/matches"), {
        form,
        headers: { Origin: baseUrl },
        maxRedirects: 0,
      });
    const bad = await post({ intent: "save", brand: String(brandId), q: "ab" });
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toContain(MATCH_MESSAGES.textTooShort);
    const foreign = await post({ intent: "save", brand: "2147483" });
    expect(foreign.status()).toBe(400);
    expect(await foreign.text()).toContain(MATCH_MESSAGES.unknownBrand);
    expect(
      await db().select().from(savedSearches).where(eq(savedSearches.retailerId, who.saver.id)),
    ).toEqual([]);

    await form.locator('input[name="q"]').fill(sku.toLowerCase());
    await form.locator('input[name="sizes"]').fill("L");
    await Promise.all([
      p.waitForURL((u) => u.searchParams.get("ref") === "searchSaved"),
      form.getByRole("button", { name: "Save search" }).click(),
    ]);
    await expect(p.getByTestId("matches-notice").textContent()).resolves.toBe(MATCH_MESSAGES.saved);
    await expect(p.getByTestId("saved-search").first().textContent()).resolves.toContain("sizes L");

    // Another retailer cannot delete it.
    const [mine] = await db()
      .select()
      .from(savedSearches)
      .where(eq(savedSearches.retailerId, who.saver.id));
    const intruder = await page(who.other.email);
    const del = await intruder.request.post(url("/alerts/matches"), {
      form: { intent: "delete", id: String(mine.id) },
      headers: { Origin: baseUrl },
      maxRedirects: 0,
    });
    expect(del.status()).toBe(404);
    expect(
      await db().select().from(savedSearches).where(eq(savedSearches.id, mine.id)),
    ).toHaveLength(1);

    // A new listing in L of that brand fits it.
    const fits = await createListingChecked(db(), {
      providerId: who.provider.id,
      variationId: variations[2],
      listingType: "swap",
      reason: "overstock",
      sizes: { L: 1 },
      terms: true,
    });
    expect(fits.ok).toBe(true);
    await p.goto(url("/alerts/matches"));
    const match = p.locator(
      `[data-testid="match"][data-listing-id="${fits.ok ? fits.listing.id : 0}"]`,
    );
    await expect(match.textContent()).resolves.toContain("fits your saved search");
    expect(await match.getByRole("link", { name: "Swap for it" }).getAttribute("href")).toBe(
      `/listing/swap/${fits.ok ? fits.listing.id : 0}`,
    );
    expect(await digests(who.saver.email)).toHaveLength(1);
  });
});

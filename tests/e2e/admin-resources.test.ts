/**
 * The generic staff screens in Chromium (/admin/:class_name list, /new/ and /:id/ forms rendered
 * from domain/resources), the permissions map (the hub lists only permitted types; the server refuses the
 * rest with 403 and saves nothing; non-staff go to /error/), bad input (field errors under their fields, a
 * 400, nothing saved, never a 500) and the CSV export (streamed, formula cells neutralised).
 */
import { and, eq, ilike } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brands, collections, productVariations } from "../../db/schema";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { closePage, db, hydrated, launchBrowser, signedIn, url } from "./harness";
import { freshEmail, HttpClient, leakedTrace } from "./http";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const staffEmail = freshEmail("res-staff");
const limitedEmail = freshEmail("res-limited");
const retailerEmail = freshEmail("res-retailer");
let brandId: number;
let otherBrandId: number;
let productId: number;
let page: Page;
let limitedPage: Page;
const staff = new HttpClient();
const limited = new HttpClient();
const retailer = new HttpClient();

beforeAll(async () => {
  const brand = await createBrand(db(), { name: `ResBrand ${tok}` });
  brandId = brand.id;
  otherBrandId = (await createBrand(db(), { name: `ResOther ${tok}` })).id;
  const col = await createCollection(db(), { brandId, name: `ResCol ${tok}` });
  await createCollection(db(), { brandId: otherBrandId, name: `OtherCol ${tok}` });
  productId = (
    await createProduct(db(), {
      collectionId: col.id,
      sku: `RS${tok}`,
      sizes: ["S", "M"],
      priceCents: 1500,
    })
  ).product.id;
  // Data from before the form refused formulas: the export must neutralise it.
  await db()
    .insert(brands)
    .values({
      name: `=HYPERLINK("http://evil.test","x") ${tok}`,
      displayName: `Comma, "quote" #hash ${tok}`,
    });
  await createStaffUser(db(), { email: staffEmail });
  await createStaffUser(db(), { email: limitedEmail, permissions: ["collection"] });
  await createRetailer(db(), { payout: true, user: { email: retailerEmail } });
  await Promise.all([
    staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD),
    limited.signIn(limitedEmail, DEFAULT_TEST_PASSWORD),
    retailer.signIn(retailerEmail, DEFAULT_TEST_PASSWORD),
  ]);
  browser = await launchBrowser();
  page = await signedIn(browser, staffEmail, { at: null });
  limitedPage = await signedIn(browser, limitedEmail, { at: null });
}, 120_000);

afterAll(async () => {
  if (page) await closePage(page);
  if (limitedPage) await closePage(limitedPage);
});

const brandCount = async (name: string) =>
  (await db().select({ id: brands.id }).from(brands).where(ilike(brands.name, name))).length;

describe("generic list screen", () => {
  it("hub lists every permitted type; the list searches, sorts, pages and exports", async () => {
    await page.goto(url("/admin"));
    await expect(
      page.getByRole("link", { name: "Brands", exact: true }).count(),
    ).resolves.toBeGreaterThan(0);
    await page.getByRole("link", { name: "Product variations" }).waitFor();
    await page.goto(url("/admin/brand"));
    await page.getByRole("searchbox", { name: /search brands/i }).fill(`ResBrand ${tok}`);
    await Promise.all([
      page.waitForURL(/search=/),
      page.getByRole("button", { name: "Search" }).click(),
    ]);
    // A client-side navigation: the URL changes before the searched list is rendered, so poll the count.
    await expect.poll(() => page.getByTestId("list-count").innerText()).toMatch(/^1 brand/);
    await page.getByTestId(`row-${brandId}`).waitFor();
    // Sort by name, both ways.
    await page.goto(url(`/admin/brand?search=${encodeURIComponent(tok)}`));
    await hydrated(page);
    await Promise.all([
      page.waitForURL(/sort=name&dir=asc/),
      page.getByRole("link", { name: "Name", exact: true }).click(),
    ]);
    const sorted = (t: string[]) =>
      [...t].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }) || 0);
    await expect
      .poll(async () => {
        const t = await page.locator('td[data-col="name"]').allInnerTexts();
        return t.length === 3 && t.join("|") === sorted(t).join("|");
      })
      .toBe(true);
    const asc = await page.locator('td[data-col="name"]').allInnerTexts();
    await Promise.all([
      page.waitForURL(/dir=desc/),
      page.getByRole("link", { name: /^Name/ }).click(),
    ]);
    await expect
      .poll(() => page.locator('td[data-col="name"]').allInnerTexts())
      .toEqual([...asc].reverse());
    // CLEAR empties the search.
    await Promise.all([
      page.waitForURL((u) => !u.search.includes("search")),
      page.getByRole("link", { name: "CLEAR" }).click(),
    ]);
    await expect
      .poll(() => page.getByRole("searchbox", { name: /search brands/i }).inputValue())
      .toBe("");
  });

  it("deactivate / activate toggles is_active", async () => {
    await page.goto(url(`/admin/brand?search=${encodeURIComponent(`ResBrand ${tok}`)}`));
    await Promise.all([
      page.waitForURL(/done=deactivated/),
      page.getByTestId(`row-${brandId}`).getByRole("button", { name: "Deactivate" }).click(),
    ]);
    expect((await db().select().from(brands).where(eq(brands.id, brandId)))[0].isActive).toBe(
      false,
    );
    await Promise.all([
      page.waitForURL(/done=activated/),
      page.getByTestId(`row-${brandId}`).getByRole("button", { name: "Activate" }).click(),
    ]);
    expect((await db().select().from(brands).where(eq(brands.id, brandId)))[0].isActive).toBe(true);
  });

  it("product rows expand to their variations; the add-variation modal requires option, value and price", async () => {
    await page.goto(url(`/admin/product?search=RS${tok}`));
    const details = page.getByTestId(`details-${productId}`);
    await details.locator("summary").click();
    await details.getByText(`RS${tok}`).first().waitFor();
    await details.getByRole("button", { name: "add variation" }).click();
    const modal = page.getByTestId(`add-variation-${productId}`);
    await modal.getByLabel("Option (color) *").fill("");
    await modal.getByRole("button", { name: "Add" }).click();
    await page
      .getByTestId(`add-variation-${productId}`)
      .getByTestId("field-error")
      .first()
      .waitFor();
    expect(
      await page.getByTestId(`add-variation-${productId}`).getByTestId("field-error").count(),
    ).toBe(3);
    const m2 = page.getByTestId(`add-variation-${productId}`);
    await m2.getByLabel("Option (color) *").fill("color");
    await m2.getByLabel("Value *").fill(`Teal${tok}`);
    await m2.getByLabel("Price *").fill("21.50");
    await Promise.all([
      page.waitForURL(/done=variation-added/),
      m2.getByRole("button", { name: "Add" }).click(),
    ]);
    const [v] = await db()
      .select()
      .from(productVariations)
      .where(eq(productVariations.color, `Teal${tok}`));
    expect(v).toMatchObject({ productId, priceCents: 2150, options: { color: `Teal${tok}` } });
  });

  it("CSV export streams every matching row with formula cells neutralised and commas, quotes and # kept", async () => {
    const r = await staff.get(`/admin/brand/export?search=${encodeURIComponent(tok)}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = r.body.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^"ID","Name","Display name"/);
    expect(lines).toHaveLength(4);
    expect(r.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"") ${tok}"`);
    expect(r.body).toContain(`"Comma, ""quote"" #hash ${tok}"`);
    expect(r.body).not.toMatch(/(^|,)"=/m);
  });
});

describe("generic form screen", () => {
  it("create: empty and formula input get field errors under their fields and save nothing; valid input saves", async () => {
    await page.goto(url("/admin/brand/new/"));
    await expect(
      page.locator('[data-field="staff_comments"] textarea[rows="3"]').count(),
    ).resolves.toBe(1);
    await expect(
      page.locator('[data-field="segments"] input[type="checkbox"]').count(),
    ).resolves.toBeGreaterThan(3);
    await page.getByRole("button", { name: "Create brand" }).click();
    await page.locator('[data-field="name"] [data-testid="field-error"]').waitFor();
    await expect(
      page.locator('[data-field="display_name"] [data-testid="field-error"]').innerText(),
    ).resolves.toContain("required");
    await page
      .getByLabel("Name *", { exact: true })
      .fill(`=HYPERLINK("http://evil.test") ${tok}new`);
    await page.getByLabel("Display name *", { exact: true }).fill(`New ${tok}`);
    await page.getByRole("button", { name: "Create brand" }).click();
    await page
      .locator('[data-field="name"] [data-testid="field-error"]', { hasText: /formula/ })
      .waitFor();
    expect(await brandCount(`%${tok}new%`)).toBe(0);
    await page.getByLabel("Name *", { exact: true }).fill(`Made ${tok}new`);
    await page.locator('[data-field="segments"] input[value="outdoor"]').check();
    await Promise.all([
      page.waitForURL(/\/admin\/brand\/\d+\/\?saved=1/),
      page.getByRole("button", { name: "Create brand" }).click(),
    ]);
    const [row] = await db()
      .select()
      .from(brands)
      .where(eq(brands.name, `Made ${tok}new`));
    expect(row).toMatchObject({ displayName: `New ${tok}`, segments: ["outdoor"], isActive: true });
    await page.getByText("Saved.").waitFor();
  });

  it("masks: phone and postal are shaped while typing, and normalised when saved", async () => {
    await page.goto(url("/admin/company/new/"));
    await page.getByLabel("Company name *").fill(`Co ${tok}`);
    await page.getByLabel("Phone", { exact: true }).pressSequentially("9285550102");
    await expect(page.getByLabel("Phone", { exact: true }).inputValue()).resolves.toBe(
      "+1-928-555-0102",
    );
    await page.getByLabel("Postal code").pressSequentially("123456789");
    await expect(page.getByLabel("Postal code").inputValue()).resolves.toBe("12345-6789");
    await expect(page.locator('[data-field="email"] input').getAttribute("type")).resolves.toBe(
      "email",
    );
    await Promise.all([
      page.waitForURL(/\/admin\/company\/\d+\//),
      page.getByRole("button", { name: "Create company" }).click(),
    ]);
  });

  it("a filtered chooser is disabled until its parent has a value, then offers only the parent's rows; 'or add' opens the other class", async () => {
    await page.goto(url("/admin/product/new/"));
    const collection = page.locator("select#field-collection");
    await expect(collection.isDisabled()).resolves.toBe(true);
    await expect(
      page
        .locator('[data-field="collection"] a', { hasText: "or add collection" })
        .getAttribute("target"),
    ).resolves.toBe("_blank");
    await page.locator('[data-field="brand"] input[type="search"]').fill(`ResBrand ${tok}`);
    await page
      .locator(`select#field-brand option[value="${brandId}"]`)
      .waitFor({ state: "attached" });
    await page.locator("select#field-brand").selectOption(String(brandId));
    await page.getByTestId("preview-brand").waitFor();
    await expect(collection.isDisabled()).resolves.toBe(false);
    await page
      .locator("select#field-collection option", { hasText: `ResCol ${tok}` })
      .waitFor({ state: "attached" });
    expect(
      await page.locator("select#field-collection option", { hasText: `OtherCol ${tok}` }).count(),
    ).toBe(0);
    await expect(page.locator('[data-field="price"] input').getAttribute("step")).resolves.toBe(
      "0.01",
    );
    // The filter compares in the column's type: a value it cannot hold matches nothing (no 500).
    const choices = async (q: string) => {
      const r = await staff.get(`/admin/collection/choices?${q}`);
      expect(r.status, q).toBe(200);
      return (JSON.parse(r.body) as { options: { display_name: string }[] }).options
        .map((o) => o.display_name)
        .join("\n");
    };
    expect(await choices(`brand=${brandId}`)).toContain(`ResCol ${tok}`);
    expect(await choices(`brand=${otherBrandId}`)).not.toContain(`ResCol ${tok}`);
    for (const bad of ["brand=abc", "brand=99999999999", "brand=1%20or%201%3D1"])
      expect(await choices(bad)).toBe("");
  });

  it("edit shows server errors under the field and keeps the row", async () => {
    const r = await staff.postForm(
      `/admin/collection/${(await db().select().from(collections).where(eq(collections.brandId, brandId)))[0].id}/`,
      {
        brand: brandId,
        year: "abc",
        name: "",
      },
    );
    expect(r.status).toBe(400);
    expect(leakedTrace(r.body)).toBeNull();
    expect(r.body).toContain("Enter a whole number.");
    expect(
      (
        await db()
          .select()
          .from(collections)
          .where(and(eq(collections.brandId, brandId), eq(collections.name, `ResCol ${tok}`)))
      ).length,
    ).toBe(1);
  });
});

describe("permissions map and bad input", () => {
  it("a staff user without the permission sees only its types and is refused the rest (403, nothing saved)", async () => {
    await limitedPage.goto(url("/admin"));
    await limitedPage.getByRole("link", { name: "Collections" }).waitFor();
    expect(await limitedPage.getByRole("link", { name: "Brands", exact: true }).count()).toBe(0);
    const res = await limitedPage.goto(url("/admin/brand"));
    expect(res?.status()).toBe(403);
    await limitedPage.getByText("You may not manage brands.").waitFor();
    expect((await limited.get("/admin/brand/new/")).status).toBe(403);
    expect((await limited.get(`/admin/brand/${brandId}/`)).status).toBe(403);
    expect((await limited.get("/admin/brand/export")).status).toBe(403);
    const create = await limited.postForm("/admin/brand/new/", {
      name: `Sneaky ${tok}`,
      display_name: "Sneaky",
    });
    expect(create.status).toBe(403);
    expect(await brandCount(`Sneaky ${tok}`)).toBe(0);
    const del = await limited.postForm("/admin/brand", { intent: "delete", id: otherBrandId });
    expect(del.status).toBe(403);
    const deact = await limited.postForm("/admin/brand", { intent: "deactivate", id: brandId });
    expect(deact.status).toBe(403);
    const [b] = await db().select().from(brands).where(eq(brands.id, brandId));
    expect(b.isActive).toBe(true);
    expect((await db().select().from(brands).where(eq(brands.id, otherBrandId))).length).toBe(1);
    // Its own type works.
    expect((await limited.get("/admin/collection")).status).toBe(200);
  });

  it("non-staff go to /error/; unknown classes and ids are 404s; bad row actions are 400s", async () => {
    const r = await retailer.get("/admin/brand");
    expect(r.status).toBe(302);
    expect(r.location).toBe("/error/");
    expect(
      (await retailer.postForm("/admin/brand/new/", { name: "x", display_name: "x" })).location,
    ).toBe("/error/");
    expect((await staff.get("/admin/nosuchthing")).status).toBe(404);
    expect((await staff.get("/admin/brand/abc/")).status).toBe(404);
    expect((await staff.get("/admin/brand/99999999/")).status).toBe(404);
    expect((await staff.postForm("/admin/brand", { intent: "explode", id: brandId })).status).toBe(
      400,
    );
    expect((await staff.postForm("/admin/brand", { intent: "delete", id: "x" })).status).toBe(400);
    expect((await staff.postForm("/admin/listing", { intent: "delete", id: 1 })).status).toBe(403);
    const wrong = await staff.postForm("/admin/product/new/", {
      brand: otherBrandId,
      collection: "999999999",
      sku: "Z",
      display_name: "Z",
      price: "-3",
    });
    expect(wrong.status).toBe(400);
    expect(leakedTrace(wrong.body)).toBeNull();
  });
});

/**
 * In Chromium: the validation tools fed by real data (docs/product/screens.md, "Staff: validation tools").
 * A retailer requests a brand we do not carry → staff see it on Validation → Brands with the request that
 * named it, map it onto a brand → the retailer is authorized for that brand, sees it and gets the e-mail. A
 * collection upload with a product code new to the brand → staff see the entry on Validation → Products with
 * its upload and line, validate it → the upload's line says so. Bad input on the validation forms (unknown
 * ids, no choice, an unknown intent): a clear message, a 4xx, nothing changed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { brandRequests, brands, catalogueEntries, products } from "../../db/schema";
import { saveBrandsStep } from "../../db/queries/retailers";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { db, launchBrowser, signedIn, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
let page: Page;
let retailerPage: Page;
let staff: HttpClient;
const tok = uniqueToken();
const staffEmail = `vf-staff-${tok}@example.test`;
const retailerEmail = `vf-retailer-${tok}@example.test`;
const storeName = `VF Store ${tok}`;
let retailerId: number;
const dir = mkdtempSync(path.join(tmpdir(), "validation-feed-"));

beforeAll(async () => {
  browser = await launchBrowser();
  await createStaffUser(db(), { email: staffEmail });
  retailerId = (
    await createRetailer(db(), { status: "active", storeName, user: { email: retailerEmail } })
  ).retailer.id;
  page = await signedIn(browser, staffEmail, { at: null });
  retailerPage = await signedIn(browser, retailerEmail, { at: null });
  staff = new HttpClient();
  await staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD);
}, 120_000);

const brandRow = async (id: number) =>
  (await db().select().from(brands).where(eq(brands.id, id)))[0];
const entryRow = async (id: number) =>
  (await db().select().from(catalogueEntries).where(eq(catalogueEntries.id, id)))[0];

describe("brand requests → Validation → Brands", () => {
  it("a retailer's request appears with its source; staff map it onto a brand; the retailer is authorized and told", async () => {
    const target = await createBrand(db(), { name: `VF Target ${tok}` });
    await retailerPage.goto(url("/brands/?tab=add"));
    await retailerPage.getByLabel("Brand name").fill(`  VF  Requested ${tok} `);
    await retailerPage.getByRole("button", { name: /request this brand/i }).click();
    await retailerPage.getByText("Thank you. We received your brand request").waitFor();
    const [req] = await db()
      .select()
      .from(brandRequests)
      .where(eq(brandRequests.retailerId, retailerId));
    expect(req.brandId).not.toBeNull();
    expect(await brandRow(req.brandId!)).toMatchObject({
      name: `VF Requested ${tok}`,
      isValid: false,
    });
    // A pending store typed the same brand at registration: the same external brand, a second source.
    const pending = await createRetailer(db(), {
      status: "pending",
      storeName: `VF Pending ${tok}`,
    });
    await saveBrandsStep(db(), pending.retailer.id, [{ brandName: `vf requested ${tok}` }]);
    const [reg] = await db()
      .select()
      .from(brandRequests)
      .where(eq(brandRequests.retailerId, pending.retailer.id));

    await page.goto(url("/admin/validate/brands"));
    const card = page.getByTestId(`brand-card-${req.brandId}`);
    const sources = card.getByTestId(`brand-requests-${req.brandId}`);
    await expect(sources.innerText()).resolves.toContain(
      `Requested by ${storeName} (brand request #${req.id}, requested)`,
    );
    await expect(sources.innerText()).resolves.toContain(
      `Requested by VF Pending ${tok} (at registration #${reg.id}, requested)`,
    );
    await card.getByLabel(`Existing brand for VF Requested ${tok}`).selectOption(String(target.id));
    await Promise.all([
      page.waitForURL(/fixed=/),
      card.getByRole("button", { name: "Change to Existing Brand" }).click(),
    ]);
    await expect
      .poll(() => page.getByTestId(`brand-card-${req.brandId}`).innerText())
      .toBe("FIXED!");

    await retailerPage.goto(url("/brands/"));
    await expect(retailerPage.getByTestId("authorized-brands").innerText()).resolves.toContain(
      `VF Target ${tok}`,
    );
    await retailerPage.goto(url("/brands/?tab=add"));
    await expect(retailerPage.getByTestId("brand-requests").innerText()).resolves.toMatch(
      new RegExp(`VF Requested ${tok}.*Authorized`, "s"),
    );
    await page.goto(url(`/admin/outbox?to=${encodeURIComponent(retailerEmail)}`));
    await expect(page.locator('[data-testid="outbox-mail"] h2').allInnerTexts()).resolves.toEqual([
      `Brand authorized: VF Target ${tok}`,
    ]);
    // The pending store is not authorized before its activation; its request now names the brand we carry.
    expect(
      (await db().select().from(brandRequests).where(eq(brandRequests.id, reg.id)))[0],
    ).toMatchObject({
      brandId: target.id,
      status: "requested",
    });
  });

  it("bad input on the brand forms: no choice, an unknown brand, an unknown intent → a message, a 4xx, nothing changed", async () => {
    const other = await createRetailer(db(), { status: "active", storeName: `VF Other ${tok}` });
    await saveBrandsStep(db(), other.retailer.id, [{ brandName: `VF Unchosen ${tok}` }]);
    const [req] = await db()
      .select()
      .from(brandRequests)
      .where(eq(brandRequests.retailerId, other.retailer.id));
    const ext = req.brandId!;
    await page.goto(url("/admin/validate/brands"));
    const card = page.getByTestId(`brand-card-${ext}`);
    await card.getByRole("button", { name: "Change to Existing Brand" }).click();
    await card.getByText("Choose an existing brand.").waitFor();
    const empty = await staff.postForm("/admin/validate/brands", {
      intent: "map-brand",
      brand: ext,
      target: "",
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("Choose an existing brand.");
    const unknown = await staff.postForm("/admin/validate/brands", {
      intent: "add-brand",
      brand: 2_000_000_000,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain("That brand is not waiting for validation.");
    expect(
      (await staff.postForm("/admin/validate/brands", { intent: "approve", brand: ext })).status,
    ).toBe(400);
    expect(await brandRow(ext)).toMatchObject({ isValid: false, isActive: true });
    expect(
      (await db().select().from(brandRequests).where(eq(brandRequests.id, req.id)))[0].status,
    ).toBe("requested");
  });
});

describe("collection uploads → Validation → Products", () => {
  let entryId: number;

  it("a saved upload's new product code appears with its upload and line; staff validate it; the upload's line says so", async () => {
    const brand = await createBrand(db(), { name: `VF Upload Brand ${tok}` });
    const fall = await createCollection(db(), { brandId: brand.id, name: "Fall" });
    await createProduct(db(), { collectionId: fall.id, sku: `VFOLD-${tok}` });
    const col = await createCollection(db(), { brandId: brand.id });
    const zip = zipSync({
      "sheet.csv": strToU8(
        [
          "sku,display_name,description,color,price,sizes",
          `vfold ${tok},Old Tee,,Red,10,S`,
          `VFNEW-${tok},Fresh Parka,Warm,Blue,120,M|L`,
        ].join("\n"),
      ),
    });
    const file = path.join(dir, `vf-${tok}.zip`);
    writeFileSync(file, zip);
    const uploadUrl = `/manage-brand/uploads?brand=${brand.id}&collection=${col.id}`;
    await page.goto(url(uploadUrl));
    await page.getByLabel("Folder (.zip)").setInputFiles(file);
    await Promise.all([
      page.waitForURL(/done=loaded/),
      page.getByRole("button", { name: "Load Folder" }).click(),
    ]);
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByRole("button", { name: "save products" }).click(),
    ]);
    await expect
      .poll(() => page.getByTestId("line-3-validation").innerText())
      .toContain("(new code: waiting for validation)");
    expect(await page.getByTestId("line-2-validation").count()).toBe(0);
    const uploadId = Number(new URL(page.url()).searchParams.get("upload"));
    const [entry] = await db()
      .select()
      .from(catalogueEntries)
      .where(eq(catalogueEntries.uploadId, uploadId));
    entryId = entry.id;
    expect(entry).toMatchObject({ sku: `VFNEW-${tok}`, brandId: brand.id, uploadLine: 3 });

    await page.goto(url("/admin/validate/products"));
    const card = page.getByTestId(`entry-card-${entry.id}`);
    await expect(card.innerText()).resolves.toContain(
      `from upload #${uploadId} (vf-${tok}.zip), line 3`,
    );
    await expect(card.innerText()).resolves.toContain(`VFNEW-${tok} Fresh Parka`);
    await Promise.all([
      page.waitForURL(/fixed=/),
      card.getByRole("button", { name: "Validate" }).click(),
    ]);
    await expect.poll(() => page.getByTestId(`entry-card-${entry.id}`).innerText()).toBe("FIXED!");
    expect(await entryRow(entry.id)).toMatchObject({
      resolution: "validated",
      resolvedProductId: entry.initialProductId,
    });
    expect(
      (await db().select().from(products).where(eq(products.id, entry.initialProductId!)))[0]
        .isActive,
    ).toBe(true);
    await page.goto(url(uploadUrl + `&upload=${uploadId}`));
    await expect
      .poll(() => page.getByTestId("line-3-validation").innerText())
      .toContain("(new code: validated)");
  });

  it("bad input on the entry forms: an unknown or resolved entry, no product, an unknown intent → a message, a 4xx, nothing changed", async () => {
    const [open] = await db()
      .insert(catalogueEntries)
      .values({ brandName: `vf ${tok}`, name: `VF open ${tok}` })
      .returning();
    const post = (fields: Record<string, string | number>) =>
      staff.postForm("/admin/validate/products", fields);
    const unknown = await post({ intent: "reject", entry: 2_000_000_000 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain("That entry does not exist, or it is resolved already.");
    const resolved = await post({ intent: "reject", entry: entryId });
    expect(resolved.status).toBe(404);
    const noProduct = await post({ intent: "match", entry: open.id });
    expect(noProduct.status).toBe(400);
    expect(noProduct.body).toContain("Choose one of the matches.");
    const unknownProduct = await post({ intent: "match", entry: open.id, product: 2_000_000_000 });
    expect(unknownProduct.status).toBe(404);
    expect(unknownProduct.body).toContain(
      "That product does not exist, or it is the one made from this entry.",
    );
    const nothingMade = await post({ intent: "validate", entry: open.id });
    expect(nothingMade.status).toBe(400);
    expect(nothingMade.body).toContain("Nothing was made from this entry");
    expect((await post({ intent: "approve", entry: open.id })).status).toBe(400);
    expect((await post({ intent: "reject", entry: "" })).status).toBe(400);
    expect(await entryRow(open.id)).toMatchObject({ resolvedAt: null, resolution: null });
    expect(await entryRow(entryId)).toMatchObject({ resolution: "validated" });
    // In the browser: an entry with nothing made from it offers Reject only; rejecting marks it FIXED!.
    await page.goto(url("/admin/validate/products"));
    const card = page.getByTestId(`entry-card-${open.id}`);
    expect(await card.getByRole("button", { name: "Validate" }).count()).toBe(0);
    await Promise.all([
      page.waitForURL(/fixed=/),
      card.getByRole("button", { name: "Reject" }).click(),
    ]);
    await expect.poll(() => page.getByTestId(`entry-card-${open.id}`).innerText()).toBe("FIXED!");
    expect(await entryRow(open.id)).toMatchObject({ resolution: "rejected" });
  });
});

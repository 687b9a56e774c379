/**
 * The variation editor (/admin/productvariationmanagement/:id) and the brand admin
 * (/manage-brand/:tab?) in Chromium, with their refusals: a staff user without the permission gets a 403 and
 * nothing is saved; bad input (a non-image renamed .jpg, a 20 MB file, blank or wrong fields) gets a clear
 * message, nothing saved, no 500.
 */
import { and, eq } from "drizzle-orm";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import ExcelJS from "exceljs";
import { strToU8, zipSync } from "fflate";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  brands,
  catalogueEntries,
  categories,
  collectionUploads,
  collections,
  listings,
  productSizes,
  productVariations,
  products,
  retailerBrands,
  variationImages,
} from "../../db/schema";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { DEFAULT_TEST_PASSWORD } from "../factories";
import { gtinCheckDigit } from "../../domain/barcodes";
import { UPLOAD_ERROR_FLAG } from "../../domain/catalogue-upload";
import { closePage, db, hydrated, launchBrowser, signedIn, url } from "./harness";
import { freshEmail, HttpClient, leakedTrace } from "./http";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const staffEmail = freshEmail("cat-staff");
const brandOnlyEmail = freshEmail("cat-brandonly");
let brandId: number;
let collectionId: number;
let productId: number;
let variationId: number;
let retailerId: number;
let page: Page;
const staff = new HttpClient();
const brandOnly = new HttpClient();
const dir = mkdtempSync(path.join(tmpdir(), "catalogue-e2e-"));

/** A real 1x1 PNG. */
function png(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, body: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(body.length);
    const tb = Buffer.concat([Buffer.from(type), body]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(tb));
    return Buffer.concat([len, tb, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `CatBrand ${tok}` },
    collection: { name: `CatCol ${tok}` },
    products: [{ sku: `CT${tok}`, sizes: ["S", "M"], priceCents: 1500, colors: ["Black"] }],
  });
  [brandId, collectionId] = [world.brand.id, world.collection.id];
  [productId, variationId] = [world.products[0].product.id, world.variation.id];
  retailerId = (await createRetailer(db(), { payout: true })).retailer.id;
  await createStaffUser(db(), { email: staffEmail });
  await createStaffUser(db(), { email: brandOnlyEmail, permissions: ["brand"] });
  await Promise.all([
    staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD),
    brandOnly.signIn(brandOnlyEmail, DEFAULT_TEST_PASSWORD),
  ]);
  browser = await launchBrowser();
  page = await signedIn(browser, staffEmail, { at: null });
}, 120_000);

afterAll(async () => {
  if (page) await closePage(page);
});

/**
 * A body over the cap is answered 413 as soon as the cap is passed; the server then drops the rest, so the
 * client may see the connection closed (EPIPE / reset) before it has sent all 20 MB. Either way: no 500.
 */
async function expectTooLarge(send: () => Promise<{ status: number; body: string }>) {
  try {
    const r = await send();
    expect(r.status).toBe(413);
    expect(leakedTrace(r.body)).toBeNull();
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    expect(["EPIPE", "ECONNRESET", "UND_ERR_SOCKET"]).toContain(code);
  }
}

/** The n-th UPC-A of this run (prefix 2: for a store's own use, never a real product's), check digit included. */
function upc(n: number): string {
  const body = `2${String(n).padStart(3, "0")}${tok.replace(/\D/g, "").padStart(7, "0").slice(-7)}`;
  return `${body}${gtinCheckDigit(body)}`;
}

const variation = async () =>
  (await db().select().from(productVariations).where(eq(productVariations.id, variationId)))[0];
const images = () =>
  db().select().from(variationImages).where(eq(variationImages.variationId, variationId));

describe("variation editor", () => {
  it("edits sku, price and active; a bad price is refused under its field and nothing is saved", async () => {
    const bad = await staff.postForm(`/admin/productvariationmanagement/${variationId}`, {
      intent: "save",
      sku: `NEW${tok}`,
      price: "abc",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Enter an amount in dollars, like 12.50.");
    expect((await variation()).sku).not.toBe(`NEW${tok}`);
    await page.goto(url(`/admin/productvariationmanagement/${variationId}`));
    await page.getByLabel("SKU *").fill("");
    await page.getByTestId("variation-form").getByRole("button", { name: "Save" }).click();
    await page.getByTestId("variation-form").getByTestId("field-error").waitFor();
    expect((await variation()).sku).not.toBe("");
    await page.getByLabel("Price *").fill("19.99");
    await page.getByLabel("SKU *").fill(`NEW${tok}`);
    await page.getByLabel("Active").uncheck();
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByTestId("variation-form").getByRole("button", { name: "Save" }).click(),
    ]);
    expect(await variation()).toMatchObject({
      sku: `NEW${tok}`,
      priceCents: 1999,
      isActive: false,
    });
  });

  it("sets barcodes: a wrong check digit and another variation's barcode are refused under the field, a good one is saved and shown", async () => {
    const other = await createProduct(db(), {
      collectionId,
      sku: `BC${tok}`,
      colors: ["Teal"],
      variationBarcodes: () => [upc(1)],
    });
    const wrong = `${upc(0).slice(0, -1)}${(Number(upc(0).slice(-1)) + 1) % 10}`;
    await page.goto(url(`/admin/productvariationmanagement/${variationId}`));
    const field = page.getByLabel("Barcodes (UPC-A, EAN-13 or EAN-8)");
    const save = page.getByTestId("variation-form").getByRole("button", { name: "Save" });
    await field.fill(wrong);
    await save.click();
    await expect
      .poll(() => page.locator("#ve-barcodes-error").innerText())
      .toBe(
        `${wrong} is not a valid UPC-A: its last digit (the check digit) should be ${upc(0).slice(-1)}.`,
      );
    await field.fill(`${upc(0)}, ${upc(1)}`);
    await save.click();
    await expect
      .poll(() => page.locator("#ve-barcodes-error").innerText())
      .toBe(
        `The barcode ${upc(1)} is already used by variation #${other.variations[0].id} (${other.variations[0].sku}, Teal).`,
      );
    expect((await variation()).barcodes).toEqual([]);
    await field.fill(upc(0));
    await Promise.all([page.waitForURL(/done=saved/), save.click()]);
    expect((await variation()).barcodes).toEqual([upc(0)]);
    await page.reload();
    await expect(field.inputValue()).resolves.toBe(upc(0));
  });

  it("adds sizes, skipping blank labels", async () => {
    await page.goto(url(`/admin/productvariationmanagement/${variationId}`));
    await page.getByLabel("New size 1").fill("XXL");
    await page.getByRole("button", { name: "Another size" }).click();
    await page.getByLabel("New size 2").fill("   ");
    await Promise.all([
      page.waitForURL(/done=sizes-added/),
      page.getByRole("button", { name: "Add sizes" }).click(),
    ]);
    const labels = (
      await db()
        .select()
        .from(productSizes)
        .where(eq(productSizes.productId, productId))
        .orderBy(productSizes.position)
    ).map((s) => s.label);
    expect(labels).toEqual(["S", "M", "XXL"]);
    // The URL changes before the revalidated sizes render: poll for them.
    await expect.poll(() => page.getByTestId("sizes").innerText()).toContain("XXL");
  });

  it("uploads a real picture, refuses a text file renamed .jpg (clearing the file) and a 20 MB file, deletes", async () => {
    const before = (await images()).length;
    const fake = path.join(dir, "not-a-picture.jpg");
    writeFileSync(fake, "this is text, not a JPEG");
    await page.goto(url(`/admin/productvariationmanagement/${variationId}`));
    await page.setInputFiles("#ve-image", fake);
    await page
      .getByTestId("image-form")
      .getByRole("button", { name: "Upload", exact: true })
      .click();
    await page.getByTestId("image-error").waitFor();
    await expect(page.getByTestId("image-error").innerText()).resolves.toMatch(/jpg/i);
    await expect(page.locator("#ve-image").inputValue()).resolves.toBe("");
    expect((await images()).length).toBe(before);

    const big = new FormData();
    big.set("intent", "upload-image");
    big.set(
      "image",
      new File([new Uint8Array(20 * 1024 * 1024)], "big.jpg", { type: "image/jpeg" }),
    );
    await expectTooLarge(() =>
      staff.request(`/admin/productvariationmanagement/${variationId}`, {
        method: "POST",
        body: big,
      }),
    );
    expect((await images()).length).toBe(before);

    const real = path.join(dir, "dot.png");
    writeFileSync(real, png());
    await page.setInputFiles("#ve-image", real);
    await Promise.all([
      page.waitForURL(/done=image-added/),
      page.getByTestId("image-form").getByRole("button", { name: "Upload", exact: true }).click(),
    ]);
    const after = await images();
    expect(after.length).toBe(before + 1);
    const added = after.find((i) => i.url.startsWith("/catalogue-images/"))!;
    const img = await staff.get(added.url);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    await Promise.all([
      page.waitForURL(/done=image-deleted/),
      page
        .getByTestId("images")
        .locator(`img[src="${added.url}"]`)
        .locator("..")
        .getByRole("button", { name: "Delete" })
        .click(),
    ]);
    expect((await images()).length).toBe(before);
    expect((await staff.get(added.url)).status).toBe(404);
  });

  it("a staff user without the productvariation permission is refused (403) and nothing is saved", async () => {
    expect((await brandOnly.get(`/admin/productvariationmanagement/${variationId}`)).status).toBe(
      403,
    );
    const r = await brandOnly.postForm(`/admin/productvariationmanagement/${variationId}`, {
      intent: "save",
      sku: "HACK",
      price: "1",
    });
    expect(r.status).toBe(403);
    expect((await variation()).sku).toBe(`NEW${tok}`);
    expect((await staff.get("/admin/productvariationmanagement/99999999")).status).toBe(404);
  });
});

describe("brand admin", () => {
  it("Choose Brand searches; Info edits the brand", async () => {
    await page.goto(url("/manage-brand"));
    await page.getByRole("searchbox", { name: "Search brands" }).fill(`CatBrand ${tok}`);
    await Promise.all([
      page.waitForURL(/search=/),
      page.getByRole("button", { name: "Search" }).click(),
    ]);
    await hydrated(page);
    await Promise.all([
      page.waitForURL(/\/manage-brand\/info\?brand=/),
      page.getByRole("link", { name: `CatBrand ${tok}` }).click(),
    ]);
    await page.getByLabel("Display name *", { exact: true }).fill(`Cat Display ${tok}`);
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    expect((await db().select().from(brands).where(eq(brands.id, brandId)))[0].displayName).toBe(
      `Cat Display ${tok}`,
    );
  });

  it("Collections: create (blank name refused), deactivate", async () => {
    await page.goto(url(`/manage-brand/collections?brand=${brandId}`));
    const form = page.getByTestId("create-collection");
    await form.getByLabel("Year").fill("2027");
    await form.getByRole("button", { name: "Create collection" }).click();
    await page.getByTestId("create-collection").getByTestId("field-error").waitFor();
    await page.getByTestId("create-collection").getByLabel("Name").fill(`Fall ${tok}`);
    await page.getByTestId("create-collection").getByLabel("Year").fill("2027");
    await Promise.all([
      page.waitForURL(/done=created/),
      page
        .getByTestId("create-collection")
        .getByRole("button", { name: "Create collection" })
        .click(),
    ]);
    const [c] = await db()
      .select()
      .from(collections)
      .where(and(eq(collections.brandId, brandId), eq(collections.name, `Fall ${tok}`)));
    expect(c).toMatchObject({ year: 2027, isActive: true });
    await Promise.all([
      page.waitForURL(/done=deactivated/),
      page.getByTestId(`row-${c.id}`).getByRole("button", { name: "Deactivate" }).click(),
    ]);
    expect(
      (await db().select().from(collections).where(eq(collections.id, c.id)))[0].isActive,
    ).toBe(false);
  });

  it("Products: deactivate all / activate all for the chosen collection", async () => {
    await page.goto(url(`/manage-brand/products?brand=${brandId}`));
    await page.locator("#pick-collection").selectOption(String(collectionId));
    await Promise.all([
      page.waitForURL(/collection=/),
      page.getByRole("button", { name: "Choose" }).click(),
    ]);
    await page.getByTestId(`row-${productId}`).waitFor();
    await Promise.all([
      page.waitForURL(/done=deactivated/),
      page.getByRole("button", { name: "deactivate all", exact: true }).click(),
    ]);
    expect(
      (await db().select().from(products).where(eq(products.collectionId, collectionId))).every(
        (p) => !p.isActive,
      ),
    ).toBe(true);
    await Promise.all([
      page.waitForURL(/done=activated/),
      page.getByRole("button", { name: "activate all", exact: true }).click(),
    ]);
    expect(
      (await db().select().from(products).where(eq(products.collectionId, collectionId))).every(
        (p) => p.isActive,
      ),
    ).toBe(true);
  });

  it("Retailers: add the brand to another retailer (bad ids refused), search by retailer id; other tabs render", async () => {
    const bad = await staff.postForm(`/manage-brand/retailers?brand=${brandId}`, {
      intent: "add-retailer",
      retailer: "abc",
    });
    expect(bad.status).toBe(400);
    const missing = await staff.postForm(`/manage-brand/retailers?brand=${brandId}`, {
      intent: "add-retailer",
      retailer: "99999999",
    });
    expect(missing.status).toBe(400);
    await page.goto(url(`/manage-brand/retailers?brand=${brandId}`));
    await page.getByLabel("Add this brand to retailer (id)").fill(String(retailerId));
    await Promise.all([
      page.waitForURL(/done=added/),
      page.getByTestId("add-retailer").getByRole("button", { name: "Add" }).click(),
    ]);
    const links = await db()
      .select()
      .from(retailerBrands)
      .where(and(eq(retailerBrands.brandId, brandId), eq(retailerBrands.retailerId, retailerId)));
    expect(links).toHaveLength(1);
    await page.goto(url(`/manage-brand/retailers?brand=${brandId}&retailer=${retailerId}`));
    await page.getByTestId(`row-${links[0].id}`).waitFor();
    for (const tab of ["listings", "requests", "transactions", "uploads"])
      expect((await staff.get(`/manage-brand/${tab}?brand=${brandId}`)).status).toBe(200);
  });

  it("a tab whose list runs past one page has a pager (a brand with 52 retailers)", async () => {
    const big = await createBrand(db(), { name: `Paged ${uniqueToken()}` });
    for (let i = 0; i < 52; i++) {
      const r = (await createRetailer(db(), { payout: false, user: false })).retailer;
      await authorizeBrand(db(), r.id, big.id);
    }
    const first = (await staff.get(`/manage-brand/retailers?brand=${big.id}`)).body;
    expect(first).toContain("52 in all · page 1 of 2");
    const second = (await staff.get(`/manage-brand/retailers?brand=${big.id}&page=2`)).body;
    expect(second).toContain("52 in all · page 2 of 2");
    expect((second.match(/data-testid="row-\d+"/g) ?? []).length).toBe(2);
  });

  it("a staff user with brand but not product permission is refused the Products tab and its actions", async () => {
    expect((await brandOnly.get(`/manage-brand/info?brand=${brandId}`)).status).toBe(200);
    expect(
      (await brandOnly.get(`/manage-brand/products?brand=${brandId}&collection=${collectionId}`))
        .status,
    ).toBe(403);
    const r = await brandOnly.postForm(
      `/manage-brand/products?brand=${brandId}&collection=${collectionId}`,
      { intent: "deactivate-all" },
    );
    expect(r.status).toBe(403);
    expect(
      (await db().select().from(products).where(eq(products.collectionId, collectionId))).every(
        (p) => p.isActive,
      ),
    ).toBe(true);
    const add = await brandOnly.postForm(`/manage-brand/retailers?brand=${brandId}`, {
      intent: "add-retailer",
      retailer: retailerId,
    });
    expect(add.status).toBe(403);
  });
});

async function xlsx(rows: (string | number)[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("products");
  for (const r of rows) ws.addRow(r);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const HEAD = [
  "sku",
  "display_name",
  "description",
  "color",
  "price",
  "sizes",
  "image1",
  "image2",
  "barcodes",
];

describe("collection uploads", () => {
  const uploadUrl = () => `/manage-brand/uploads?brand=${brandId}&collection=${collectionId}`;
  const productsOf = () =>
    db().select().from(products).where(eq(products.collectionId, collectionId));

  it("a zip with bad rows previews the rows at fault with the spec's flag and cannot be saved", async () => {
    const zip = zipSync({
      "sheet.csv": strToU8(
        [
          HEAD.join(","),
          `UP1${tok},Good Tee,,Red,12.50,S|M,,`,
          `UP2${tok},,,,abc,,fake.jpg,,12345`,
          `UP3${tok},"=HYPERLINK(""http://evil.test"")",,Blue,3,,missing.png,`,
        ].join("\n"),
      ),
      "fake.jpg": strToU8("not a picture"),
    });
    const file = path.join(dir, "bad.zip");
    writeFileSync(file, zip);
    const before = (await productsOf()).length;
    await page.goto(url(uploadUrl()));
    await page.getByLabel("Folder (.zip)").setInputFiles(file);
    await Promise.all([
      page.waitForURL(/upload=\d+/),
      page.getByRole("button", { name: "Load Folder" }).click(),
    ]);
    await expect
      .poll(() => page.getByTestId("upload-flag").innerText())
      .toContain(UPLOAD_ERROR_FLAG);
    await expect(page.getByTestId("line-3").innerText()).resolves.toMatch(
      /display_name is missing.*color is missing.*price "abc"/s,
    );
    await expect(page.getByTestId("line-3").innerText()).resolves.toMatch(
      /not a \.jpg or \.png picture/,
    );
    await expect(page.getByTestId("line-3").innerText()).resolves.toContain(
      'barcodes: "12345" is not a barcode: a UPC-A has 12 digits, an EAN-13 13 and an EAN-8 8.',
    );
    await expect(page.getByTestId("line-4").innerText()).resolves.toMatch(
      /may not start with.*not in the folder/s,
    );
    await expect(page.getByRole("button", { name: "save products" }).isDisabled()).resolves.toBe(
      true,
    );
    const uploadId = new URL(page.url()).searchParams.get("upload")!;
    const r = await staff.postForm(uploadUrl(), { intent: "save", upload: uploadId });
    expect(r.status).toBe(400);
    expect(r.body).toContain(UPLOAD_ERROR_FLAG);
    expect((await productsOf()).length).toBe(before);
  });

  it("an .xlsx zip with pictures previews up to four images a row, saves products once", async () => {
    const zip = zipSync({
      "folder/products.xlsx": await xlsx([
        HEAD,
        [`UPX${tok}`, "Trail Jacket", "Warm", "Black", 89.5, "S, M, L", "black.png", "", upc(2)],
        [
          `UPX${tok}`,
          "Trail Jacket",
          "",
          "Olive",
          "89.50",
          "XL",
          "olive.png",
          "black.png",
          `${upc(3)} ${upc(4)}`,
        ],
      ]),
      "folder/black.png": png(),
      "folder/olive.png": png(),
    });
    const file = path.join(dir, "good.zip");
    writeFileSync(file, zip);
    const before = (await productsOf()).length;
    await page.goto(url(uploadUrl()));
    await page.getByLabel("Folder (.zip)").setInputFiles(file);
    await Promise.all([
      page.waitForURL(/done=loaded/),
      page.getByRole("button", { name: "Load Folder" }).click(),
    ]);
    const uploadId = new URL(page.url()).searchParams.get("upload")!;
    // Pick it again from the folder list and update the preview.
    await page.goto(url(uploadUrl()));
    await page.locator("#up-upload").selectOption(uploadId);
    await Promise.all([
      page.waitForURL(/upload=/),
      page.getByRole("button", { name: "update preview" }).click(),
    ]);
    // The URL changes before the picked upload's preview renders: wait for its pictures, then check it has no flag.
    await expect.poll(() => page.getByTestId("line-3").locator("img").count()).toBe(2);
    expect(await page.getByTestId("upload-flag").count()).toBe(0);
    await Promise.all([
      page.waitForURL(/done=saved/),
      page.getByRole("button", { name: "save products" }).click(),
    ]);
    await page.getByTestId("already-saved").waitFor();
    const after = await productsOf();
    expect(after.length).toBe(before + 1);
    const p = after.find((x) => x.sku === `UPX${tok}`)!;
    expect(p).toMatchObject({ displayName: "Trail Jacket", priceCents: 8950 });
    const vs = await db()
      .select()
      .from(productVariations)
      .where(eq(productVariations.productId, p.id));
    expect(vs.map((v) => [v.color, v.barcodes]).sort()).toEqual([
      ["Black", [upc(2)]],
      ["Olive", [upc(3), upc(4)]],
    ]);
    const sizes = (
      await db()
        .select()
        .from(productSizes)
        .where(eq(productSizes.productId, p.id))
        .orderBy(productSizes.position)
    ).map((s) => s.label);
    expect(sizes).toEqual(["S", "M", "L", "XL"]);
    const imgs = await db()
      .select()
      .from(variationImages)
      .where(eq(variationImages.variationId, vs.find((v) => v.color === "Olive")!.id));
    expect(imgs).toHaveLength(2);
    expect((await staff.get(imgs[0].url)).status).toBe(200);
    // Saved once: a second save is refused and creates nothing.
    const again = await staff.postForm(uploadUrl(), { intent: "save", upload: uploadId });
    expect(again.status).toBe(409);
    expect((await productsOf()).length).toBe(before + 1);
    // The same folder loaded again is a new upload, and still cannot be saved a second time.
    await page.goto(url(uploadUrl()));
    await page.getByLabel("Folder (.zip)").setInputFiles(file);
    await Promise.all([
      page.waitForURL(/done=loaded/),
      page.getByRole("button", { name: "Load Folder" }).click(),
    ]);
    const reloaded = new URL(page.url()).searchParams.get("upload")!;
    expect(reloaded).not.toBe(uploadId);
    const twice = await staff.postForm(uploadUrl(), { intent: "save", upload: reloaded });
    expect(twice.status).toBe(409);
    expect(twice.body).toContain(
      `This folder was saved before: the collection already has UPX${tok}.`,
    );
    expect((await productsOf()).length).toBe(before + 1);
  });

  const post = async (client: HttpClient, name: string, bytes: Uint8Array) => {
    const f = new FormData();
    f.set("intent", "load");
    f.set("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
    return client.request(uploadUrl(), { method: "POST", body: f });
  };

  it("a folder whose barcode another variation has (saved above) is refused at save, naming it; nothing written", async () => {
    const loaded = await post(
      staff,
      "taken.zip",
      zipSync({
        "sheet.csv": strToU8(
          [HEAD.join(","), `UPT${tok},Taken Tee,,Red,10,S,,,${upc(2)}`].join("\n"),
        ),
      }),
    );
    expect(loaded.status).toBe(302);
    const uploadId = new URL(loaded.location!, "http://x").searchParams.get("upload")!;
    const before = (await productsOf()).length;
    const r = await staff.postForm(uploadUrl(), { intent: "save", upload: uploadId });
    expect(r.status).toBe(409);
    expect(r.body).toMatch(
      new RegExp(`The barcode ${upc(2)} is already used by variation #\\d+ \\(UPX${tok}, Black\\)`),
    );
    expect((await productsOf()).length).toBe(before);
  });

  it("not a zip, a zip without a spreadsheet, a 20 MB file: a message, nothing stored, no 500; refused without the product permission", async () => {
    const notZip = await post(staff, "x.zip", strToU8("hello"));
    expect(notZip.status).toBe(400);
    expect(notZip.body).toContain("not a readable .zip");
    const noSheet = await post(staff, "y.zip", zipSync({ "a.png": png() }));
    expect(noSheet.status).toBe(400);
    expect(noSheet.body).toContain("no spreadsheet");
    const exe = await post(staff, "z.exe", zipSync({ "a.png": png() }));
    expect(exe.status).toBe(400);
    await expectTooLarge(() => post(staff, "big.zip", new Uint8Array(20 * 1024 * 1024)));
    for (const r of [notZip, noSheet]) expect(leakedTrace(r.body)).toBeNull();
    expect((await brandOnly.get(uploadUrl())).status).toBe(403);
    const refused = await post(
      brandOnly,
      "good.zip",
      zipSync({ "s.csv": strToU8(`${HEAD.join(",")}\nNO${tok},N,,Red,1,,,`) }),
    );
    expect(refused.status).toBe(403);
  });

  it("an upload not saved within 7 days is discarded with its pictures when another is loaded; saved uploads and their pictures stay", async () => {
    const uploadsOf = () =>
      db().select().from(collectionUploads).where(eq(collectionUploads.collectionId, collectionId));
    const sheet = (sku: string) => strToU8(`${HEAD.join(",")}\n${sku},Old Tee,,Red,5,,old.png,`);
    const loaded = await post(
      staff,
      `stale-${tok}.zip`,
      zipSync({ "s.csv": sheet(`STALE${tok}`), "old.png": png() }),
    );
    expect(loaded.status).toBe(302);
    const stale = (await uploadsOf()).find((u) => u.fileName === `stale-${tok}.zip`)!;
    const picture = Object.values(stale.images)[0];
    expect((await staff.get(picture)).status).toBe(200);
    const saved = (await uploadsOf()).filter((u) => u.status === "saved");
    expect(saved.length).toBeGreaterThan(0);
    const savedPictures = saved.flatMap((u) => Object.values(u.images));
    // Eight days later (the saved ones too), someone loads another folder.
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    await db()
      .update(collectionUploads)
      .set({ createdAt: eightDaysAgo })
      .where(eq(collectionUploads.collectionId, collectionId));
    expect(
      (
        await post(
          staff,
          `fresh-${tok}.zip`,
          zipSync({ "s.csv": sheet(`FRESH${tok}`), "old.png": png() }),
        )
      ).status,
    ).toBe(302);
    const after = await uploadsOf();
    expect(after.find((u) => u.id === stale.id)).toBeUndefined();
    expect((await staff.get(picture)).status).toBe(404);
    const ids = (us: { id: number }[]) => us.map((u) => u.id).sort((x, y) => x - y);
    expect(ids(after.filter((u) => u.status === "saved"))).toEqual(ids(saved));
    for (const u of savedPictures) expect((await staff.get(u)).status).toBe(200);
    expect(after.some((u) => u.fileName === `fresh-${tok}.zip`)).toBe(true);
  });
});

describe("brand setup wizard", () => {
  it("Company, Company Contact, Add a Brand: each step refuses bad input under its fields, then the brand belongs to the company", async () => {
    await page.goto(url("/brand-setup/"));
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator('[data-field="name"] [data-testid="field-error"]').waitFor();
    await page.getByLabel("Company name *").fill(`Setup Co ${tok}`);
    await page.getByLabel("Postal code").fill("123");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator('[data-field="postal_code"] [data-testid="field-error"]').waitFor();
    await page.getByLabel("Postal code").fill("10001");
    await Promise.all([
      page.waitForURL(/step=contact&company=\d+/),
      page.getByRole("button", { name: "Next" }).click(),
    ]);
    const companyId = Number(new URL(page.url()).searchParams.get("company"));
    await page.getByLabel("First name *").fill("Ada");
    await page.getByLabel("Last name *").fill("Lovelace");
    await page.getByLabel("E-mail *").fill("not-an-email");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator('[data-field="email"] [data-testid="field-error"]').waitFor();
    await page.getByLabel("E-mail *").fill(`ada-${tok.toLowerCase()}@brand.test`);
    await Promise.all([
      page.waitForURL(/step=brand/),
      page.getByRole("button", { name: "Next" }).click(),
    ]);
    await page.getByLabel("Name *", { exact: true }).fill("@SUM(1)");
    await page.getByLabel("Display name *", { exact: true }).fill(`Setup Brand ${tok}`);
    await page.getByRole("button", { name: "Add brand" }).click();
    await page
      .locator('[data-field="name"] [data-testid="field-error"]', { hasText: /formula/ })
      .waitFor();
    await page.getByLabel("Name *", { exact: true }).fill(`Setup Brand ${tok}`);
    await Promise.all([
      page.waitForURL(/\/manage-brand\/info\?brand=\d+/),
      page.getByRole("button", { name: "Add brand" }).click(),
    ]);
    const [b] = await db()
      .select()
      .from(brands)
      .where(eq(brands.name, `Setup Brand ${tok}`));
    expect(b).toMatchObject({ companyId, isValid: true, isActive: true });
    expect((await brandOnly.get("/brand-setup/")).status).toBe(403);
    expect((await brandOnly.postForm("/brand-setup/", { name: `Nope ${tok}` })).status).toBe(403);
  });
});

describe("validation tools and admin listings", () => {
  it("external brands: Add Brand and Change to Existing Brand (moving its listings) show FIXED!; bad targets refused", async () => {
    const ext1 = await createBrand(db(), { name: `Typed One ${tok}` });
    const ext2 = await createBrand(db(), { name: `Typed Two ${tok}` });
    await db().update(brands).set({ isValid: false }).where(eq(brands.id, ext1.id));
    await db().update(brands).set({ isValid: false }).where(eq(brands.id, ext2.id));
    const col = await createCollection(db(), { brandId: ext2.id });
    const prod = await createProduct(db(), {
      collectionId: col.id,
      sku: `TY${tok}`,
      colors: ["Red"],
    });
    const listing = await createListing(db(), {
      variationId: prod.variations[0].id,
      providerId: retailerId,
      sizes: { S: 1 },
    });
    await page.goto(url("/admin/validate/brands"));
    const card1 = page.getByTestId(`brand-card-${ext1.id}`);
    await Promise.all([
      page.waitForURL(/fixed=/),
      card1.getByRole("button", { name: "Add Brand" }).click(),
    ]);
    await expect.poll(() => page.getByTestId(`brand-card-${ext1.id}`).innerText()).toBe("FIXED!");
    expect((await db().select().from(brands).where(eq(brands.id, ext1.id)))[0].isValid).toBe(true);
    // Listing sample, then map onto an existing valid brand.
    await page
      .getByTestId(`brand-card-${ext2.id}`)
      .getByRole("link", { name: "Show Listing Sample" })
      .click();
    await page.getByTestId("listing-sample").getByText(`TY${tok}`, { exact: false }).waitFor();
    const bad = await staff.postForm("/admin/validate/brands", {
      intent: "map-brand",
      brand: ext2.id,
      target: ext2.id,
    });
    expect(bad.status).toBe(400);
    const card2 = page.getByTestId(`brand-card-${ext2.id}`);
    await card2.getByLabel(`Existing brand for Typed Two ${tok}`).selectOption(String(brandId));
    await Promise.all([
      page.waitForURL(new RegExp(`fixed=.*${ext2.id}`)),
      card2.getByRole("button", { name: "Change to Existing Brand" }).click(),
    ]);
    await expect.poll(() => page.getByTestId(`brand-card-${ext2.id}`).innerText()).toBe("FIXED!");
    expect((await db().select().from(listings).where(eq(listings.id, listing.id)))[0].brandId).toBe(
      brandId,
    );
    expect((await db().select().from(brands).where(eq(brands.id, ext2.id)))[0]).toMatchObject({
      isActive: false,
      isValid: false,
    });
  });

  it("categories: the typeahead 'Choose a Category' sets a listed product's category; unknown names refused", async () => {
    const [cat] = await db()
      .insert(categories)
      .values({ name: `Parkas ${tok}` })
      .returning();
    const col = await createCollection(db(), { brandId });
    const prod = await createProduct(db(), {
      collectionId: col.id,
      sku: `CG${tok}`,
      colors: ["Blue"],
    });
    await createListing(db(), {
      variationId: prod.variations[0].id,
      providerId: retailerId,
      sizes: { M: 1 },
    });
    const bad = await staff.postForm("/admin/validate/categories", {
      product: prod.product.id,
      category: "No such category",
    });
    expect(bad.status).toBe(400);
    await page.goto(url("/admin/validate/categories"));
    const card = page.getByTestId(`category-card-${prod.product.id}`);
    await card.getByPlaceholder("Choose a Category").fill(`Parkas ${tok}`);
    await Promise.all([
      page.waitForURL(/fixed=/),
      card.getByRole("button", { name: "Save" }).click(),
    ]);
    await page
      .getByTestId(`category-card-${prod.product.id}`)
      .getByRole("button", { name: /FIXED!/ })
      .waitFor();
    expect(
      (await db().select().from(products).where(eq(products.id, prod.product.id)))[0].categoryId,
    ).toBe(cat.id);
    // Without the product permission the categories stage is refused; the brand stage is not.
    expect((await brandOnly.get("/admin/validate/categories")).status).toBe(403);
    expect(
      (
        await brandOnly.postForm("/admin/validate/categories", {
          product: prod.product.id,
          category: `Parkas ${tok}`,
        })
      ).status,
    ).toBe(403);
  });

  it("admin listings: payout info needed, active listings, all listings; refused without the listing permission", async () => {
    await page.goto(url("/admin/listings/all"));
    await page.getByRole("link", { name: "payout info needed" }).waitFor();
    await page.getByRole("searchbox", { name: "Search listings" }).fill(`CT${tok}`);
    await Promise.all([
      page.waitForURL(/search=/),
      page.getByRole("button", { name: "Search" }).click(),
    ]);
    for (const stage of ["payoutneeded", "active", "all"])
      expect((await staff.get(`/admin/listings/${stage}`)).status).toBe(200);
    expect((await staff.get("/admin/listings/bogus")).status).toBe(404);
    expect((await brandOnly.get("/admin/listings/all")).status).toBe(403);
  });
});

describe("validation: unresolved catalogue entries", () => {
  it("shows candidate matches with their match strength; choosing one resolves the entry (FIXED!)", async () => {
    const [entry] = await db()
      .insert(catalogueEntries)
      .values({
        retailerId,
        brandName: `catbrand ${tok}`.toLowerCase(),
        name: `CT${tok} tee`,
        description: "from a source",
        priceCents: 1600,
      })
      .returning();
    const bad = await staff.postForm("/admin/validate/products", {
      entry: entry.id,
      product: "abc",
    });
    expect(bad.status).toBe(400);
    await page.goto(url("/admin/validate/products"));
    const card = page.getByTestId(`entry-card-${entry.id}`);
    const match = card.getByTestId(`match-${entry.id}-${productId}`);
    await match.getByText(/match strength \d\.\d\d/).click();
    await match.getByText(`sku: CT${tok}`).waitFor();
    await Promise.all([
      page.waitForURL(/fixed=/),
      match.getByRole("button", { name: "This is the product" }).click(),
    ]);
    await expect.poll(() => page.getByTestId(`entry-card-${entry.id}`).innerText()).toBe("FIXED!");
    expect(
      (await db().select().from(catalogueEntries).where(eq(catalogueEntries.id, entry.id)))[0]
        .resolvedProductId,
    ).toBe(productId);
    expect((await brandOnly.get("/admin/validate/products")).status).toBe(403);
  });
});

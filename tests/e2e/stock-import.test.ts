/**
 * Stock file import and stock sync in Chromium (docs/product/screens.md, "Stock file import"; ADR 0029):
 * /addlisting/ links to /stock-import; a CSV with good, ambiguous and bad lines → the preview's messages →
 * a guess confirmed → the listings with the right units; the same file again → nothing changed; an .xlsx
 * updating units; a whole-surplus file → absent listings withdrawn; one in an order in flight (a real buy
 * workflow) is said to be withdrawn when that order ends, stays on the marketplace, and is withdrawn when the
 * seller declines the order on its page; each listing's history names the import. Bad input (wrong encoding, missing columns, 10,001 rows, a formula
 * cell, a zip bomb, a renamed program) → the message, a 4xx, nothing written.
 */
import { and, eq, gt } from "drizzle-orm";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { listingImportHistory } from "../../db/queries/stock-import";
import { listings, stockImports } from "../../db/schema";
import { BUY_STATES, COMMON_STATES } from "../../domain/states";
import { buyWorkflowId, completeCheckoutUpdate } from "../../workflows/buy/contract";
import { STOCK_MSG } from "../../domain/stock-import";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { authorizeBrand, createRetailer, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import {
  closeTemporal,
  retailerWithLogin,
  startBuyOrder,
  temporal,
  waitForReadModel,
} from "./buy-helpers";
import { dbHandle, launchBrowser, signedIn, uniqueEmail, url } from "./harness";
import { htmlDecode, HttpClient } from "./http";
import { renamedExe, zipBomb } from "./xlsx-fixtures";

let browser: Browser;
let handle: DbHandle;
const tok = uniqueToken().toUpperCase();
const sku = `ST${tok}`;
const email = uniqueEmail("stock-import");
let retailerId: number;
let black: { id: number; sku: string };
let navy: { id: number; sku: string };
let vest: { id: number; sku: string };
let boot: { id: number; sku: string };
let vestPriceCents: number;
let brandId: number;
const orderIds: number[] = [];

beforeAll(async () => {
  handle = dbHandle();
  const db = handle.db;
  const brand = await createBrand(db, { name: `Stock Brand ${tok}` });
  const col = await createCollection(db, { brandId: brand.id, year: 2025, name: "Fall" });
  const p = await createProduct(db, {
    collectionId: col.id,
    sku,
    displayName: `Stock Parka ${tok}`,
    sizes: ["S", "M", "L"],
    colors: ["Black", "Navy"],
  });
  black = { id: p.variations[0].id, sku: p.variations[0].sku };
  navy = { id: p.variations[1].id, sku: p.variations[1].sku };
  const q = await createProduct(db, {
    collectionId: col.id,
    sku: `SV${tok}`,
    sizes: ["S", "M"],
    colors: ["Rust"],
  });
  vest = { id: q.variations[0].id, sku: q.variations[0].sku };
  vestPriceCents = q.variations[0].priceCents;
  brandId = brand.id;
  const b = await createProduct(db, {
    collectionId: col.id,
    sku: `SB${tok}`,
    sizes: ["9", "10"],
    colors: ["Sand"],
  });
  boot = { id: b.variations[0].id, sku: b.variations[0].sku };
  const r = await createRetailer(db, { payout: true, user: { email } });
  retailerId = r.retailer.id;
  await authorizeBrand(db, retailerId, brand.id);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const id of orderIds)
    await (
      await temporal()
    ).workflow
      .getHandle(buyWorkflowId(id))
      .terminate("test done")
      .catch(() => {});
  await closeTemporal();
});

const page = (): Promise<Page> => signedIn(browser, email, { at: null });

const csv = (lines: string[]) =>
  Buffer.from(["product_code,size,units,listing_type", ...lines].join("\r\n") + "\r\n");

async function xlsx(rows: (string | number | { formula: string })[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("stock");
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(
  p: Page,
  name: string,
  buffer: Buffer,
  wholeSurplus = false,
  stage = "preview-counts",
): Promise<void> {
  await p.goto(url("/stock-import"));
  await p.setInputFiles("#file", {
    name,
    mimeType: name.endsWith(".csv") ? "text/csv" : "application/octet-stream",
    buffer,
  });
  if (wholeSurplus) await p.check('input[name="wholeSurplus"]');
  await Promise.all([
    p.waitForURL((u) => u.searchParams.has("import")),
    p.click('button:has-text("Upload and preview")'),
  ]);
  await p.locator(`[data-testid="${stage}"]`).waitFor();
}

const row = (p: Page, line: number | string) => p.locator(`tr[data-lines^="${line}"]`).first();

async function confirm(p: Page): Promise<string> {
  await p.click('button:has-text("Confirm the import")');
  await p.locator('[data-testid="results-counts"]').waitFor();
  return (await p.locator('[data-testid="results-counts"]').textContent()) ?? "";
}

async function myListings() {
  const rows = await handle.db
    .select()
    .from(listings)
    .where(and(eq(listings.providerId, retailerId), gt(listings.totalUnits, 0)));
  return Object.fromEntries(
    rows.map((l) => [
      l.variationId,
      { id: l.id, sizes: l.sizes, type: l.listingType, updatedAt: l.updatedAt.getTime() },
    ]),
  );
}

describe("stock file import", () => {
  it("a CSV: good, ambiguous and bad lines → messages → a guess confirmed → listings; the same file again changes nothing", async () => {
    const p = await page();
    await p.goto(url("/addlisting/"));
    await p.click('[data-testid="stock-import-link"] a');
    await p.waitForURL((u) => u.pathname === "/stock-import");
    const file = csv([
      `${black.sku},M,3,sell`,
      `${black.sku},L,1,sell`,
      `${sku},S,2,swap`,
      `${vest.sku},XL,1,sell`,
      `${vest.sku},M,two,sell`,
    ]);
    await upload(p, "stock.csv", file);
    expect(await row(p, 2).getAttribute("data-action")).toBe("create");
    expect(await row(p, 2).textContent()).toContain("New listing: M: 3, L: 1.");
    expect(await row(p, 4).getAttribute("data-action")).toBe("choose");
    // The product's own code, shared by its colours (docs/product/screens.md, "Stock import").
    expect(await row(p, 4).textContent()).toContain(
      `The product ${sku} has several colours; choose one, or none to skip these lines.`,
    );
    expect(await row(p, 5).textContent()).toContain("This product has no size XL.");
    expect(await row(p, 6).textContent()).toContain("Enter a whole number of units, 0 or more.");
    expect(await myListings()).toEqual({});
    await p.selectOption(`select[data-code="${sku}"]`, String(navy.id));
    expect(await confirm(p)).toContain("New: 2");
    const after = await myListings();
    expect(after[black.id].sizes).toEqual({ S: 0, M: 3, L: 1 });
    expect(after[navy.id]).toMatchObject({ sizes: { S: 2, M: 0, L: 0 }, type: "swap" });
    expect(Object.keys(after)).toHaveLength(2);
    // The listing's page names the import that made it.
    await p.goto(url(`/updatelisting/${after[black.id].id}`));
    expect(await p.getByTestId("import-history").textContent()).toMatch(
      /listed \(4 units\) by import #\d+ stock\.csv/,
    );

    await upload(p, "stock.csv", file);
    expect(await row(p, 2).getAttribute("data-action")).toBe("unchanged");
    await p.selectOption(`select[data-code="${sku}"]`, String(navy.id));
    expect(await confirm(p)).toContain("New: 0 · Updated: 0 · Withdrawn: 0 · Unchanged: 2");
    expect(await myListings()).toEqual(after);
  });

  it("an .xlsx (own column names, mapped once and remembered) sets the units", async () => {
    const p = await page();
    const file = await xlsx([
      ["Article", "Gr", "Stk"],
      [black.sku, "M", 5],
      [black.sku, "L", 1],
      [`${sku}X`, "S", 1],
    ]);
    await upload(p, "stock.xlsx", file, false, "mapping-form");
    await p.selectOption("#map-code", "Article");
    await p.selectOption("#map-size", "Gr");
    await p.selectOption("#map-units", "Stk");
    await p.click('button:has-text("Preview")');
    await p.locator('[data-testid="preview-counts"]').waitFor();
    expect(await row(p, 2).textContent()).toContain("Units set to M: 5, L: 1 (were M: 3, L: 1).");
    expect(await row(p, 4).getAttribute("data-action")).toBe("choose");
    expect(await confirm(p)).toContain("Updated: 1");
    expect((await myListings())[black.id].sizes).toEqual({ S: 0, M: 5, L: 1 });
    // The mapping is remembered: the same columns go straight to the preview.
    await upload(p, "stock.xlsx", file);
    expect(await row(p, 2).getAttribute("data-action")).toBe("unchanged");
  });

  it("a whole-surplus file: absent listings withdrawn, one in an order in flight withdrawn when the seller declines that order; the history names the import", async () => {
    const db = handle.db;
    const busy = await createListing(db, {
      variationId: vest.id,
      providerId: retailerId,
      sizes: { S: 4 },
    });
    const spare = await createListing(db, {
      variationId: boot.id,
      providerId: retailerId,
      sizes: { "9": 2 },
    });
    const buyer = await retailerWithLogin(handle, [brandId], { prefix: "stock-import-buyer" });
    const order = await startBuyOrder(await temporal(), db, {
      providerId: retailerId,
      receiverId: buyer.r.id,
      variationId: vest.id,
      listingId: busy.id,
      sizes: { S: 1 },
      unitPriceCents: vestPriceCents,
    });
    orderIds.push(order.order.id);
    await (await temporal()).workflow
      .getHandle(buyWorkflowId(order.order.id))
      .executeUpdate(completeCheckoutUpdate, {
        args: [
          {
            actorRetailerId: buyer.r.id,
            paymentMethod: { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" },
          },
        ],
      });
    await waitForReadModel(handle, order.order.id, BUY_STATES.PROVIDER_APPROVE_SALE);
    const p = await page();
    await upload(p, "surplus.csv", csv([`${black.sku},M,5,sell`, `${black.sku},L,1,sell`]), true);
    const text = (await p.locator('[data-testid="import-rows"]').textContent()) ?? "";
    expect(text).toContain("Not in your whole-surplus file: it will be withdrawn.");
    expect(await p.locator('tr[data-action="kept"]').textContent()).toContain(
      "In an order waiting for an answer: it will be withdrawn when that order ends.",
    );
    expect(await confirm(p)).toContain("Withdrawn: 2 · Unchanged: 1 · Kept: 1");
    const live = await myListings();
    expect(Object.keys(live).map(Number).sort()).toEqual([black.id, vest.id].sort());
    const importId = Number(new URL(p.url()).searchParams.get("import"));
    expect((await listingImportHistory(db, spare.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
      fileName: "surplus.csv",
    });
    // Still listed while the order waits: the buyer sees it on the marketplace.
    const b = await signedIn(browser, buyer.email, { at: null });
    const onMarket = async () => {
      await b.goto(url(`/buy/${brandId}`));
      return b.locator(`li.market-card[data-id="${busy.id}"]`).count();
    };
    expect(await onMarket()).toBe(1);

    // The seller declines the order on its page: the listing is withdrawn with it, as done by the import.
    await p.goto(url(`/transaction/buy/${order.order.id}`));
    await p.waitForLoadState("networkidle");
    await p.getByTestId("decline-reason").selectOption("14");
    await p.getByTestId("decline-submit").click();
    await p.waitForURL((u) => u.pathname.startsWith("/active/listings"), { timeout: 30_000 });
    await waitForReadModel(handle, order.order.id, COMMON_STATES.DECLINED);
    await p.goto(url("/active/listings"));
    await p.locator("main h1").waitFor();
    expect(await p.locator(`[data-testid=my-card][data-id="${live[black.id].id}"]`).count()).toBe(
      1,
    );
    expect(await p.locator(`[data-testid=my-card][data-id="${busy.id}"]`).count()).toBe(0);
    expect(await onMarket()).toBe(0);
    expect(Object.keys(await myListings()).map(Number)).toEqual([black.id]);
    await p.goto(url(`/updatelisting/${busy.id}`));
    const history = (await p.getByTestId("import-history").textContent()) ?? "";
    expect(history).toContain("withdrawn (0 units) by import");
    expect(history).toContain("marked to be withdrawn when its order ends (4 units) by import");
    expect((await listingImportHistory(db, busy.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
      fileName: "surplus.csv",
    });
  });

  it("bad input: the message, a 4xx, nothing written", async () => {
    const c = new HttpClient();
    await c.signIn(email, DEFAULT_TEST_PASSWORD);
    const count = async () =>
      (await handle.db.select().from(stockImports).where(eq(stockImports.retailerId, retailerId)))
        .length;
    const before = { imports: await count(), listings: await myListings() };
    const many = [
      "product_code,size,units",
      ...Array.from({ length: 10_001 }, (_, i) => `${black.sku},M,${i % 9}`),
    ].join("\n");
    const cases: [string, Buffer, string][] = [
      [
        "latin1.csv",
        Buffer.from("product_code,size,units\nCAF\xc9,M,1\n", "latin1"),
        STOCK_MSG.notUtf8,
      ],
      [
        "two-columns.csv",
        Buffer.from(`product_code,size\n${black.sku},M\n`),
        STOCK_MSG.missingColumns,
      ],
      ["many.csv", Buffer.from(many), STOCK_MSG.tooManyRows],
      [
        "formula.csv",
        Buffer.from(`product_code,size,units\n${black.sku},M,=1+1\n`),
        STOCK_MSG.formula(2),
      ],
      [
        "formula.xlsx",
        await xlsx([
          ["product_code", "size", "units"],
          [black.sku, "M", { formula: "1+1" }],
        ]),
        STOCK_MSG.formula(2),
      ],
      ["bomb.xlsx", zipBomb(true), STOCK_MSG.notWorkbook],
      ["program.xlsx", renamedExe(), STOCK_MSG.notWorkbook],
      ["program.exe", renamedExe(), STOCK_MSG.wrongType],
    ];
    for (const [name, bytes, message] of cases) {
      const form = new FormData();
      form.set("intent", "upload");
      form.set("file", new File([new Uint8Array(bytes)], name));
      const res = await c.request("/stock-import", { method: "POST", body: form });
      expect([name, res.status]).toEqual([name, 400]);
      expect(htmlDecode(res.body)).toContain(message);
    }
    // In the browser: the message above the form.
    const p = await page();
    await p.goto(url("/stock-import"));
    await p.setInputFiles("#file", {
      name: "bomb.xlsx",
      mimeType: "application/octet-stream",
      buffer: zipBomb(false),
    });
    await p.click('button:has-text("Upload and preview")');
    await expect(p.getByTestId("import-error").textContent()).resolves.toBe(STOCK_MSG.notWorkbook);
    expect(await count()).toBe(before.imports);
    expect(await myListings()).toEqual(before.listings);
  });

  it("the templates: a .csv and an .xlsx with the columns and an example line", async () => {
    const c = new HttpClient();
    await c.signIn(email, DEFAULT_TEST_PASSWORD);
    const csvRes = await c.get("/stock-import-template?format=csv");
    expect(csvRes.status).toBe(200);
    expect(csvRes.body.split("\r\n").slice(0, 2)).toEqual([
      "product_code,size,units,price,listing_type,reason,markdown",
      "ABC123-BLK,M,4,42.50,sell,overstock,10%/7/60%",
    ]);
    const res = await fetch(url("/stock-import-template?format=xlsx"), {
      headers: { Cookie: `wx_session=${c.cookies.get("wx_session")}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    expect(wb.worksheets[0].getRow(1).getCell(1).text).toBe("product_code*");
    expect([302, 303]).toContain((await new HttpClient().get("/stock-import-template")).status);
  });

  it("another retailer's import: 404", async () => {
    const [imp] = await handle.db
      .select()
      .from(stockImports)
      .where(eq(stockImports.retailerId, retailerId))
      .limit(1);
    const other = await createRetailer(handle.db, {
      payout: true,
      user: { email: uniqueEmail("stock-other") },
    });
    const c = new HttpClient();
    await c.signIn(other.user!.email, DEFAULT_TEST_PASSWORD);
    expect((await c.get(`/stock-import?import=${imp.id}`)).status).toBe(404);
    const res = await c.postForm("/stock-import", { intent: "confirm", import: imp.id });
    expect(res.status).toBe(404);
  });
});

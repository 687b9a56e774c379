/**
 * The stock import from a store's own system (docs/product/screens.md, "Stock file import", "API"; ADR 0029
 * "API") in Chromium and over HTTP: Settings → API tokens creates a token shown once; POST /api/stock-import
 * with the page test's CSV answers the page's preview; confirm=1 lists; again changes nothing; a revoked
 * token, another store's token, a malformed header and a token sent to another route → 401 JSON, nothing
 * written; a bad file (CSV or .xlsx) → 400 JSON with the page's message; an .xlsx answers as the CSV; past the rate
 * limit → 429; the OpenAPI file is served; staff see the imports under the retailer's admin. A guess (a row "choose")
 * is confirmed with choose=CODE:variationId, checked as the page checks its choice: one of that row's guesses or
 * 400 JSON with a message per choice, nothing written.
 */
import { and, count, eq, gt } from "drizzle-orm";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "../../db/queries/api-tokens";
import { createImport } from "../../db/queries/stock-import";
import { listings, stockImports } from "../../db/schema";
import { API_LIMITS, API_MSG } from "../../domain/api-tokens";
import { STOCK_MSG } from "../../domain/stock-import";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";
import { renamedExe, zipBomb } from "./xlsx-fixtures";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const sku = `SA${tok}`;
const email = uniqueEmail("stock-api");
const staffEmail = uniqueEmail("stock-api-staff");
let retailerId: number;
let otherId: number;
let black: { id: number; sku: string };
let navy: { id: number; sku: string };
let vest: { id: number; sku: string };

beforeAll(async () => {
  const brand = await createBrand(db(), { name: `API Brand ${tok}` });
  const col = await createCollection(db(), { brandId: brand.id, year: 2025, name: "Fall" });
  const p = await createProduct(db(), {
    collectionId: col.id,
    sku,
    sizes: ["S", "M", "L"],
    colors: ["Black", "Navy"],
  });
  black = { id: p.variations[0].id, sku: p.variations[0].sku };
  navy = { id: p.variations[1].id, sku: p.variations[1].sku };
  const q = await createProduct(db(), {
    collectionId: col.id,
    sku: `SW${tok}`,
    sizes: ["S", "M"],
    colors: ["Rust"],
  });
  vest = { id: q.variations[0].id, sku: q.variations[0].sku };
  const r = await createRetailer(db(), { payout: true, user: { email } });
  retailerId = r.retailer.id;
  await authorizeBrand(db(), retailerId, brand.id);
  const other = await createRetailer(db(), { payout: true, user: false });
  otherId = other.retailer.id;
  await authorizeBrand(db(), otherId, brand.id);
  await createStaffUser(db(), { email: staffEmail });
  browser = await launchBrowser();
});

const page = (): Promise<Page> => signedIn(browser, email, { at: null });

/** The page test's CSV: good lines, an ambiguous product code, a size not in the run, units not a number. */
const csvFile = () =>
  Buffer.from(
    [
      "product_code,size,units,listing_type",
      `${black.sku},M,3,sell`,
      `${black.sku},L,1,sell`,
      `${sku},S,2,swap`,
      `${vest.sku},XL,1,sell`,
      `${vest.sku},M,two,sell`,
    ].join("\r\n") + "\r\n",
  );

async function post(path: string, body: BodyInit, headers: Record<string, string>) {
  const res = await fetch(url(path), { method: "POST", body, headers, redirect: "manual" });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return {
    status: res.status,
    json: json as {
      error?: string;
      problems?: string[];
      status?: string;
      import?: number;
      rows?: {
        action: string;
        lines: number[];
        messages: string[];
        variationId: number | null;
        guesses?: { variationId: number; code: string }[];
      }[];
    },
    text,
  };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const raw = (token: string, query = "", body: Buffer = csvFile()) =>
  post(`/api/stock-import${query}`, new Uint8Array(body), {
    ...bearer(token),
    "Content-Type": "text/csv",
  });

async function snapshot() {
  const ls = await db()
    .select({ id: listings.id, sizes: listings.sizes, updatedAt: listings.updatedAt })
    .from(listings)
    .where(and(eq(listings.providerId, retailerId), gt(listings.totalUnits, 0)));
  const [imports] = await db()
    .select({ n: count() })
    .from(stockImports)
    .where(eq(stockImports.retailerId, retailerId));
  return {
    listings: ls
      .map((l) => ({ ...l, updatedAt: l.updatedAt.getTime() }))
      .sort((a, b) => a.id - b.id),
    imports: imports.n,
  };
}

let token = "";

describe("stock import API", () => {
  it("Settings → API tokens: a name is required; the token is shown once, then only its start and last use", async () => {
    const p = await page();
    await p.goto(url("/settings"));
    await p
      .getByRole("navigation", { name: "Settings" })
      .getByRole("link", { name: "API tokens" })
      .click();
    await p.waitForURL(/\/settings\/api$/);
    expect(await p.getByTestId("store-number").textContent()).toContain(String(retailerId));
    await p.getByRole("button", { name: "Create token" }).click();
    await p.getByText(API_MSG.nameRequired).first().waitFor();
    await p.getByLabel("Token name").fill("Point of sale, nightly");
    await p.getByRole("button", { name: "Create token" }).click();
    await p.getByTestId("new-token").waitFor();
    expect(await p.getByTestId("new-token").textContent()).toContain("it is shown only this once");
    token = ((await p.getByTestId("token-value").textContent()) ?? "").trim();
    expect(token).toMatch(/^wsk_/);
    await p.reload();
    const listed = (await p.getByTestId("tokens").textContent()) ?? "";
    expect(listed).toContain("Point of sale, nightly");
    expect(listed).toContain("Never");
    expect(listed).toContain(token.slice(0, 10));
    expect(await p.content()).not.toContain(token);
  });

  it("POST of the page's CSV answers the page's preview; confirm=1 lists; the same file again changes nothing", async () => {
    // The page's preview of the same file.
    const p = await page();
    await p.goto(url("/stock-import"));
    await p.setInputFiles("#file", { name: "stock.csv", mimeType: "text/csv", buffer: csvFile() });
    await Promise.all([
      p.waitForURL((u) => u.searchParams.has("import")),
      p.click('button:has-text("Upload and preview")'),
    ]);
    await p.locator('[data-testid="preview-counts"]').waitFor();
    const pageImport = Number(new URL(p.url()).searchParams.get("import"));
    const [pagePreview] = await db()
      .select({ preview: stockImports.preview })
      .from(stockImports)
      .where(eq(stockImports.id, pageImport));
    expect((await snapshot()).listings).toEqual([]);

    const preview = await raw(token);
    expect(preview.status).toBe(200);
    expect(preview.json.status).toBe("preview");
    expect(preview.json.rows).toEqual(pagePreview.preview);
    const messages = preview.json.rows!.flatMap((r) => r.messages).join("\n");
    expect(messages).toContain("New listing: M: 3, L: 1.");
    expect(messages).toContain(`The product ${sku} has several colours; choose one`);
    expect(messages).toContain("This product has no size XL.");
    expect(messages).toContain("Enter a whole number of units, 0 or more.");
    expect((await snapshot()).listings).toEqual([]);

    // confirm=1 as a multipart form, with the store named.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(csvFile())], { type: "text/csv" }), "stock.csv");
    form.append("confirm", "1");
    const done = await post(`/api/stock-import?store=${retailerId}`, form, bearer(token));
    expect(done.status).toBe(200);
    expect(done.json.status).toBe("confirmed");
    expect(done.json.rows!.find((r) => r.lines[0] === 2)).toMatchObject({
      action: "create",
      messages: ["Listed."],
    });
    expect(done.json.rows!.find((r) => r.lines[0] === 4)).toMatchObject({
      action: "skipped",
      messages: ["Not confirmed: skipped."],
    });
    const after = await snapshot();
    expect(after.listings).toHaveLength(1);
    expect(after.listings[0].sizes).toEqual({ S: 0, M: 3, L: 1 });

    const again = await raw(token, "?confirm=1");
    expect(again.status).toBe(200);
    expect(again.json.rows!.find((r) => r.lines[0] === 2)?.action).toBe("unchanged");
    expect((await snapshot()).listings).toEqual(after.listings);

    // The token's last use is shown in Settings.
    await p.goto(url("/settings/api"));
    expect(await p.getByTestId("tokens").textContent()).not.toContain("Never");
  });

  it("a guess confirmed with choose=CODE:variationId is listed; a choice not among the row's guesses → 400, nothing written", async () => {
    const preview = await raw(token);
    const choose = preview.json.rows!.find((r) => r.action === "choose")!;
    expect(choose).toMatchObject({ lines: [4], code: sku });
    expect(choose.guesses!.map((g) => [g.variationId, g.code]).sort()).toEqual(
      [
        [black.id, black.sku],
        [navy.id, navy.sku],
      ].sort(),
    );

    const confirmWith = (choices: string[]) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(csvFile())], { type: "text/csv" }), "stock.csv");
      form.append("confirm", "1");
      for (const c of choices) form.append("choose", c);
      return post("/api/stock-import", form, bearer(token));
    };
    const before = await snapshot();
    const notOffered = await confirmWith([`${sku}:${vest.id}`]);
    expect(notOffered.status).toBe(400);
    expect(notOffered.json.problems).toEqual([
      `Line 4 (${sku}): ${vest.id} is not one of the guesses offered. Choose ${choose.guesses!.map((g) => g.variationId).join(" or ")}, or send no choice to skip this line.`,
    ]);
    expect(notOffered.json.error).toBe(notOffered.json.problems![0]);
    const noRow = await confirmWith([`${black.sku}:${black.id}`, "no-colon"]);
    expect(noRow.status).toBe(400);
    expect(noRow.json.problems).toEqual([
      '"no-colon" is not a choice: send choose as the row\'s code, a colon and a variation id, like ABC123:4567.',
    ]);
    const viaQuery = await raw(
      token,
      `?confirm=1&choose=${encodeURIComponent(`${black.sku}:${black.id}`)}`,
    );
    expect(viaQuery).toMatchObject({
      status: 400,
      json: {
        problems: [
          `No row of this file waits for a choice of ${black.sku}: only rows the preview shows as "choose" take one.`,
        ],
      },
    });
    expect(await snapshot()).toEqual(before);

    // The preview with the choice shows what the import will do; confirmed, the listing exists with the file's units.
    const shown = await raw(
      token,
      `?choose=${encodeURIComponent(`${sku.toLowerCase()}:${navy.id}`)}`,
    );
    expect(shown.json.rows!.find((r) => r.lines[0] === 4)).toMatchObject({
      action: "create",
      variationId: navy.id,
      messages: ["New listing: S: 2."],
    });
    expect((await snapshot()).listings).toEqual(before.listings);
    const done = await confirmWith([`${sku}:${navy.id}`]);
    expect(done.status).toBe(200);
    expect(done.json.rows!.find((r) => r.lines[0] === 4)).toMatchObject({
      action: "create",
      variationId: navy.id,
      messages: ["Listed."],
    });
    const [listed] = await db()
      .select({ sizes: listings.sizes, listingType: listings.listingType })
      .from(listings)
      .where(
        and(
          eq(listings.providerId, retailerId),
          eq(listings.variationId, navy.id),
          gt(listings.totalUnits, 0),
        ),
      );
    expect(listed).toEqual({ sizes: { S: 2, M: 0, L: 0 }, listingType: "swap" });
    // Again: the row is the listing now, unchanged.
    const again = await confirmWith([`${sku}:${navy.id}`]);
    expect(again.json.rows!.find((r) => r.lines[0] === 4)?.action).toBe("unchanged");
  });

  it("a bad file → 400 JSON with the page's message, nothing written", async () => {
    const before = await snapshot();
    const formula = await raw(
      token,
      "?confirm=1",
      Buffer.from(`product_code,size,units\r\n=SUM(A1),M,3\r\n`),
    );
    expect(formula).toMatchObject({ status: 400, json: { error: STOCK_MSG.formula(2) } });
    const columns = await raw(
      token,
      "?confirm=1",
      Buffer.from(`product_code,units\r\n${black.sku},3\r\n`),
    );
    expect(columns).toMatchObject({ status: 400, json: { error: STOCK_MSG.missingColumns } });
    const utf16 = await raw(
      token,
      "?confirm=1",
      Buffer.from(`\ufeffproduct_code,size,units\r\n${black.sku},M,9\r\n`, "utf16le"),
    );
    expect(utf16.status).toBe(400);
    expect(utf16.json.error).toBeTruthy();
    const empty = await raw(token, "?confirm=1", Buffer.alloc(0));
    expect(empty).toMatchObject({ status: 400, json: { error: STOCK_MSG.chooseFile } });
    expect(await snapshot()).toEqual(before);
  });

  it("an .xlsx body answers as the same CSV does; a zip bomb or a renamed program → 400 JSON, nothing written", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("stock");
    for (const line of csvFile().toString("utf8").trim().split("\r\n")) ws.addRow(line.split(","));
    const book = Buffer.from(await wb.xlsx.writeBuffer());
    const before = await snapshot();
    const fromCsv = await raw(token);
    const fromXlsx = await post("/api/stock-import", new Uint8Array(book), {
      ...bearer(token),
      "Content-Type": XLSX,
    });
    expect(fromXlsx.status).toBe(200);
    expect(fromXlsx.json.rows).toEqual(fromCsv.json.rows);
    for (const bad of [zipBomb(), renamedExe()]) {
      const r = await post("/api/stock-import?confirm=1", new Uint8Array(bad), {
        ...bearer(token),
        "Content-Type": XLSX,
      });
      expect(r).toMatchObject({ status: 400, json: { error: STOCK_MSG.notWorkbook } });
    }
    expect((await snapshot()).listings).toEqual(before.listings);
  });

  it("another store's token, a malformed header, a token sent to another route, a revoked token → 401 JSON, nothing written", async () => {
    const before = await snapshot();
    const foreign = await createApiToken(db(), {
      retailerId: otherId,
      createdBy: null,
      name: "theirs",
    });
    expect(await raw(foreign.token, `?store=${retailerId}&confirm=1`)).toMatchObject({
      status: 401,
      json: { error: API_MSG.otherStore },
    });
    for (const header of [
      `Basic ${token}`,
      `Bearer ${token} extra`,
      "Bearer",
      `Bearer ${token.slice(0, -2)}!!`,
    ]) {
      const r = await post("/api/stock-import?confirm=1", new Uint8Array(csvFile()), {
        Authorization: header,
        "Content-Type": "text/csv",
      });
      expect(r.status, header).toBe(401);
      expect(r.json.error, header).toBeTruthy();
    }
    expect(
      await post("/api/stock-import?confirm=1", new Uint8Array(csvFile()), {
        "Content-Type": "text/csv",
      }),
    ).toMatchObject({
      status: 401,
      json: { error: API_MSG.noToken },
    });
    // The token anywhere else: the page's own upload, a page, the description.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(csvFile())], { type: "text/csv" }), "stock.csv");
    expect(await post("/stock-import", form, bearer(token))).toMatchObject({
      status: 401,
      json: { error: API_MSG.otherRoute },
    });
    const get = await fetch(url("/mylistings"), { headers: bearer(token), redirect: "manual" });
    expect(get.status).toBe(401);
    expect(await get.json()).toEqual({ error: API_MSG.otherRoute });
    expect(await snapshot()).toEqual(before);

    // Revoked in Settings: refused from then on.
    const p = await page();
    await p.goto(url("/settings/api"));
    const row = p.locator("tr", { hasText: "Point of sale, nightly" });
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByText("Revoked").waitFor();
    expect(await raw(token, "?confirm=1")).toMatchObject({
      status: 401,
      json: { error: API_MSG.badToken },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("staff see the retailer's imports under its admin: who, when, lines, refused rows", async () => {
    const p = await signedIn(browser, staffEmail, { at: null });
    await p.goto(url(`/manage-retailer/info?id=${retailerId}`));
    await p
      .getByRole("navigation", { name: "Retailer admin" })
      .getByRole("link", { name: "Stock imports" })
      .click();
    await p.waitForURL((u) => u.pathname === "/manage-retailer/imports");
    const table = p.getByTestId("staff-imports");
    await table.waitFor();
    const rows = await db()
      .select({
        id: stockImports.id,
        apiTokenId: stockImports.apiTokenId,
        status: stockImports.status,
      })
      .from(stockImports)
      .where(eq(stockImports.retailerId, retailerId));
    const byPage = rows.find((r) => r.apiTokenId === null)!;
    const byApi = rows.find((r) => r.apiTokenId !== null && r.status === "confirmed")!;
    const pageRow = p.getByTestId(`staff-import-${byPage.id}`);
    expect(await pageRow.textContent()).toContain(email);
    expect(await pageRow.textContent()).toContain("stock.csv");
    const apiRow = p.getByTestId(`staff-import-${byApi.id}`);
    const text = (await apiRow.textContent()) ?? "";
    expect(text).toContain("API token “Point of sale, nightly”");
    expect(text).toContain("Imported");
    expect(text).toContain("2 refused");
    await apiRow.getByText("2 refused").click();
    expect((await apiRow.locator("li").allTextContents()).sort()).toEqual([
      `Line 5 (${vest.sku}): This product has no size XL.`,
      `Line 6 (${vest.sku}): Enter a whole number of units, 0 or more.`,
    ]);
    expect(await apiRow.locator("td").nth(5).textContent()).toBe("5");
  });

  it("past the rate limit → 429 with Retry-After, nothing written; the OpenAPI file is served", async () => {
    const busy = await createApiToken(db(), { retailerId, createdBy: null, name: "busy" });
    for (let i = 0; i < API_LIMITS.importsPerWindow; i++)
      await createImport(db(), {
        retailerId,
        uploadedBy: null,
        apiTokenId: busy.id,
        fileName: "upload.csv",
        fileSha256: "x",
        wholeSurplus: false,
        cells: [["a"]],
      });
    const before = await snapshot();
    const res = await fetch(url("/api/stock-import?confirm=1"), {
      method: "POST",
      body: new Uint8Array(csvFile()),
      headers: { ...bearer(busy.token), "Content-Type": "text/csv" },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(await res.json()).toEqual({ error: API_MSG.tooMany });
    expect(await snapshot()).toEqual(before);

    const spec = await fetch(url("/api/openapi.json"));
    expect(spec.status).toBe(200);
    const doc = await spec.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths["/api/stock-import"].post).toBeTruthy();
  });
});

/**
 * Stock file import against the database (app/utils/stock-import.server.ts runStockImport): matching by
 * variation code, barcode, product code (ambiguous → a choice) and guess; the wizard's refusals; confirm
 * creates and updates one variation at a time with its history; the same file again changes nothing;
 * whole-surplus withdrawal spares a listing in an order in flight.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { BUY_STATES } from "../../domain/states";
import { gtinCheckDigit } from "../../domain/barcodes";
import { createImport, listingImportHistory } from "../../db/queries/stock-import";
import { listingMarkdowns, listings, productVariations } from "../../db/schema";
import { MARKDOWN_MESSAGES } from "../../domain/markdown";
import type { StockMapping } from "../../domain/stock-import";
import { readStockFile, runStockImport } from "../../app/utils/stock-import.server";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { createOrder } from "../factories/orders";
import { useTestDb } from "./helpers";

const db = useTestDb(6);
const tok = uniqueToken().toUpperCase();
const sku = `SI${tok}`;
let retailerId: number;
let black: number;
let blackSku: string;
let navy: number;
let otherSku: string;
let foreignSku: string;
const mapping = { code: "product_code", size: "size", units: "units", price: "price" };
/** Navy's barcode: a UPC-A of this file's own (domain/barcodes.ts). */
const upcBody = `0${tok.replace(/\D/g, "")}`.padEnd(11, "7").slice(0, 11);
const upc = `${upcBody}${gtinCheckDigit(upcBody)}`;

beforeAll(async () => {
  const brand = await createBrand(db);
  const col = await createCollection(db, { brandId: brand.id, year: 2025, name: "Fall" });
  const p = await createProduct(db, {
    collectionId: col.id,
    sku,
    sizes: ["S", "M", "L"],
    colors: ["Black", "Navy"],
    priceCents: 4250,
  });
  black = p.variations[0].id;
  blackSku = p.variations[0].sku;
  navy = p.variations[1].id;
  await db
    .update(productVariations)
    .set({ barcodes: [upc] })
    .where(eq(productVariations.id, navy));
  const q = await createProduct(db, {
    collectionId: col.id,
    sku: `SJ${tok}`,
    sizes: ["S", "M"],
    colors: ["Rust"],
  });
  otherSku = q.variations[0].sku;
  const foreign = await createBrand(db);
  const fcol = await createCollection(db, { brandId: foreign.id, year: 2025, name: "Fall" });
  foreignSku = (
    await createProduct(db, { collectionId: fcol.id, sku: `SF${tok}`, colors: ["Sand"] })
  ).variations[0].sku;
  const r = await createRetailer(db, { payout: false, user: false });
  retailerId = r.retailer.id;
  await authorizeBrand(db, retailerId, brand.id);
});

const csv = (lines: string[]) =>
  readStockFile("stock.csv", Buffer.from(["product_code,size,units,price", ...lines].join("\n")));

async function run(
  cells: string[][],
  opts: {
    wholeSurplus?: boolean;
    choices?: Record<string, number>;
    confirm?: boolean;
    mapping?: StockMapping;
    today?: string;
  } = {},
) {
  const imp = await createImport(db, {
    retailerId,
    uploadedBy: null,
    fileName: "stock.csv",
    fileSha256: "x",
    wholeSurplus: !!opts.wholeSurplus,
    cells,
  });
  return {
    importId: imp.id,
    rows: await runStockImport(db, {
      retailerId,
      cells,
      mapping: opts.mapping ?? mapping,
      wholeSurplus: !!opts.wholeSurplus,
      choices: opts.choices,
      confirm: opts.confirm ? { importId: imp.id } : undefined,
      today: opts.today,
    }),
  };
}

describe("runStockImport", () => {
  it("preview: exact code, barcode, ambiguous product code, guess, and each refusal with its message; nothing written", async () => {
    const cells = await csv([
      `${blackSku},M,3,42.50`,
      `${blackSku},L,1,`,
      `${upc},S,2,`,
      `${sku},M,1,`,
      `${otherSku}X,S,1,`,
      `${blackSku},XL,1,`,
      `${blackSku},M,2,`,
      `${otherSku},S,1,39.99`,
      `${foreignSku},M,1,`,
      `QXQXQXQXQXQXQXQXQX,M,1,`, // like no code at all (a code sharing the token with this file's products would be a guess)
      `${otherSku},M,x,`,
    ]);
    const { rows } = await run(cells);
    const at = (line: number) => rows.find((r) => r.lines.includes(line))!;
    expect(at(2)).toMatchObject({
      action: "create",
      variationId: black,
      sizes: { S: 0, M: 3, L: 1 },
      lines: [2, 3],
    });
    expect(at(4)).toMatchObject({
      action: "create",
      variationId: navy,
      sizes: { S: 2, M: 0, L: 0 },
    });
    expect(at(5)).toMatchObject({ action: "choose" });
    expect(
      at(5)
        .guesses!.map((g) => g.variationId)
        .sort(),
    ).toEqual([black, navy].sort());
    expect(at(6).action).toBe("choose");
    expect(at(7)).toMatchObject({ action: "refused", messages: ["This product has no size XL."] });
    expect(at(8).messages).toEqual([`Size M of ${blackSku} · Black is already on line 2.`]);
    expect(at(9).messages[0]).toMatch(/^The price \$39\.99 is not the catalogue's wholesale price/);
    expect(at(10).messages[0]).toMatch(/^You are not authorized for the brand/);
    expect(at(11).messages[0]).toMatch(
      /^No product of the brands you are authorized for has the code/,
    );
    expect(at(12).messages).toEqual(["Enter a whole number of units, 0 or more."]);
    expect(
      await db.select().from(listings).where(eq(listings.providerId, retailerId)),
    ).toHaveLength(0);
  });

  it("confirm: listings created hidden (no payout), a chosen guess, history; the same file again changes nothing", async () => {
    const cells = await csv([`${blackSku},M,3,`, `${sku},L,2,`]);
    const first = await run(cells, { confirm: true, choices: { [sku]: navy } });
    expect(first.rows.map((r) => r.action)).toEqual(["create", "create"]);
    const mine = await db.select().from(listings).where(eq(listings.providerId, retailerId));
    expect(mine.map((l) => [l.variationId, l.totalUnits, l.status]).sort()).toEqual(
      [
        [black, 3, "payoutneeded"],
        [navy, 2, "payoutneeded"],
      ].sort(),
    );
    const history = await listingImportHistory(db, mine.find((l) => l.variationId === black)!.id);
    expect(history).toMatchObject([
      { importId: first.importId, action: "create", after: { S: 0, M: 3, L: 0 } },
    ]);
    const again = await run(cells, { confirm: true, choices: { [sku]: navy } });
    expect(again.rows.map((r) => r.action)).toEqual(["unchanged", "unchanged"]);
    const after = await db.select().from(listings).where(eq(listings.providerId, retailerId));
    expect(after.map((l) => [l.id, l.totalUnits, l.updatedAt.getTime()])).toEqual(
      mine.map((l) => [l.id, l.totalUnits, l.updatedAt.getTime()]),
    );
  });

  it("whole surplus: units set, an absent listing withdrawn, one in an order in flight kept", async () => {
    const other = (
      await db.select().from(productVariations).where(eq(productVariations.sku, otherSku))
    )[0].id;
    const busy = await createListing(db, {
      variationId: other,
      providerId: retailerId,
      sizes: { S: 4 },
    });
    const buyer = await createRetailer(db, { payout: true, user: false });
    await createOrder(db, {
      providerId: retailerId,
      receiverId: buyer.retailer.id,
      statename: BUY_STATES.PROVIDER_APPROVE_SALE,
      lines: [{ variationId: other, listingId: busy.id, sizes: { S: 1 } }],
    });
    const { rows, importId } = await run(await csv([`${blackSku},M,5,`]), {
      wholeSurplus: true,
      confirm: true,
    });
    const byVariation = new Map(rows.map((r) => [r.variationId, r]));
    expect(byVariation.get(black)).toMatchObject({ action: "update", sizes: { S: 0, M: 5, L: 0 } });
    expect(byVariation.get(navy)).toMatchObject({ action: "withdraw" });
    expect(byVariation.get(other)).toMatchObject({ action: "kept" });
    const live = await db.select().from(listings).where(eq(listings.providerId, retailerId));
    const units = Object.fromEntries(live.map((l) => [l.variationId, l.totalUnits]));
    expect(units[black]).toBe(5);
    expect(units[other]).toBe(4);
    expect(live.filter((l) => l.variationId === navy).every((l) => l.totalUnits === 0)).toBe(true);
    const navyListing = live.find((l) => l.variationId === navy)!;
    expect((await listingImportHistory(db, navyListing.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
    });
  });
});

describe("a markdown column (docs/product/markdowns.md)", () => {
  it("sets the schedule of the listing a line creates; a floor above the price refuses the line", async () => {
    const brandRow = await db
      .select({ brandId: productVariations.brandId })
      .from(productVariations)
      .where(eq(productVariations.id, black));
    const col = await createCollection(db, {
      brandId: brandRow[0].brandId,
      year: 2025,
      name: "MD",
    });
    const p = await createProduct(db, {
      collectionId: col.id,
      sku: `SM${tok}`,
      sizes: ["S", "M"],
      colors: ["Teal", "Plum"],
      priceCents: 4000,
    });
    const [teal, plum] = p.variations;
    const cells = await readStockFile(
      "stock.csv",
      Buffer.from(
        [
          "product_code,size,units,markdown",
          `${teal.sku},M,2,10%/7/60%`,
          `${plum.sku},S,1,$1.00/7/$99.00`,
        ].join("\n"),
      ),
    );
    const { rows } = await run(cells, {
      confirm: true,
      mapping: { code: "product_code", size: "size", units: "units", markdown: "markdown" },
      today: "2030-05-01",
    });
    const at = (line: number) => rows.find((r) => r.lines.includes(line))!;
    expect(at(3)).toMatchObject({
      action: "refused",
      messages: [MARKDOWN_MESSAGES.floorAbovePrice],
    });
    expect(at(2).messages).toEqual(["Listed.", "Markdown schedule set."]);
    const [m] = await db
      .select()
      .from(listingMarkdowns)
      .where(eq(listingMarkdowns.listingId, at(2).listingId!));
    expect(m).toMatchObject({
      status: "active",
      stepCents: 400,
      floorCents: 2400,
      nextStepDate: "2030-05-08",
    });
  });
});

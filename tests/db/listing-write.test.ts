import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createListingChecked,
  createRequestChecked,
  findOtherListing,
  getProductChoice,
  retailersAuthorizedForBrand,
  searchVariations,
  sizesOfVariation,
} from "../../db/queries/listing-write";
import { listings } from "../../db/schema";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { authorizeBrand, tradingRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { useTestDb } from "./helpers";

const db = useTestDb(12);
let brandId: number;
let otherBrandId: number;
let sku: string;
let variationIds: number[];
let productId: number;
let footwearVariation: number;

beforeAll(async () => {
  const brand = await createBrand(db);
  brandId = brand.id;
  const col = await createCollection(db, { brandId, year: 2025, name: "Fall" });
  sku = `WZ-${uniqueToken().toUpperCase()}`;
  const p = await createProduct(db, {
    collectionId: col.id,
    sku,
    displayName: "Wizard Parka",
    sizes: SIZE_RUNS.apparel,
    colors: ["Black", "Navy", "Olive"],
    priceCents: 4250,
  });
  productId = p.product.id;
  variationIds = p.variations.map((v) => v.id);
  const shoes = await createProduct(db, {
    collectionId: col.id,
    sku: `${sku}-SHOE`,
    sizes: ["6", "6.5", "7"],
    colors: 1,
  });
  footwearVariation = shoes.variations[0].id;
  const other = await createBrand(db);
  otherBrandId = other.id;
  const ocol = await createCollection(db, { brandId: otherBrandId });
  await createProduct(db, { collectionId: ocol.id, sku: `${sku}-OTHER`, colors: 1 });
});

const retailer = (opts: Parameters<typeof tradingRetailer>[2] = {}) =>
  tradingRetailer(db, brandId, opts);

describe("variation search", () => {
  it("finds a brand's variations by product code (case-insensitive), with name, colour, price and thumbnail", async () => {
    const hits = await searchVariations(db, brandId, sku.toLowerCase());
    expect(hits.length).toBe(4);
    const parka = hits.filter((h) => h.productId === productId);
    expect(parka.map((h) => h.color).sort()).toEqual(["Black", "Navy", "Olive"]);
    expect(parka[0]).toMatchObject({ productName: "Wizard Parka", priceCents: 4250 });
    expect(parka[0].thumbnailUrl).toBeTruthy();
    // Another brand's product with the same code prefix is not found.
    expect(hits.some((h) => h.sku.includes("OTHER"))).toBe(false);
    expect((await searchVariations(db, otherBrandId, sku)).length).toBe(1);
  });

  it("treats % and _ literally and caps at 60", async () => {
    expect(await searchVariations(db, brandId, "%")).toEqual([]);
    expect(await searchVariations(db, brandId, "_")).toEqual([]);
    const many = await createBrand(db);
    const col = await createCollection(db, { brandId: many.id });
    await createProduct(db, { collectionId: col.id, sku: "MANY", colors: 70 });
    expect((await searchVariations(db, many.id, "MANY")).length).toBe(60);
    expect((await searchVariations(db, many.id, "")).length).toBe(60);
  });

  it("gives a product's colours and size run, and a variation's sizes (labels with dots kept)", async () => {
    const p = await getProductChoice(db, productId);
    expect(p?.sizes).toEqual([...SIZE_RUNS.apparel]);
    expect(p?.variations.map((v) => v.color)).toEqual(["Black", "Navy", "Olive"]);
    expect(p?.collection).toEqual({ year: 2025, name: "Fall" });
    expect(await sizesOfVariation(db, footwearVariation)).toEqual(["6", "6.5", "7"]);
    expect(await getProductChoice(db, 2_000_000_000)).toBeNull();
  });

  it("lists the active retailers authorized for a brand (staff choosing a provider)", async () => {
    const a = await retailer();
    const inactive = await retailer({ status: "inactive" });
    const unauthorized = await retailer({ authorized: false });
    const ids = (await retailersAuthorizedForBrand(db, brandId)).map((r) => r.id);
    expect(ids).toContain(a.id);
    expect(ids).not.toContain(inactive.id);
    expect(ids).not.toContain(unauthorized.id);
  });
});

describe("createListingChecked", () => {
  it("creates an active listing when the provider has payout, payoutneeded otherwise", async () => {
    const paid = await retailer({ payout: true });
    const unpaid = await retailer({ payout: false });
    const a = await createListingChecked(db, {
      providerId: paid.id,
      variationId: variationIds[0],
      listingType: "swap",
      reason: "overstock",
      sizes: { XS: 0, S: 2, M: 1, L: 0, XL: 0 },
      terms: true,
      images: ["0f8fad5b-d9cb-469f-a165-70867728950e.png"],
    });
    const b = await createListingChecked(db, {
      providerId: unpaid.id,
      variationId: variationIds[0],
      listingType: "sell",
      reason: "end_of_season",
      sizes: { M: 4 },
      terms: true,
    });
    expect(a.ok && a.listing).toMatchObject({
      status: "active",
      totalUnits: 3,
      listingType: "swap",
      brandId,
      terms: true,
      images: ["0f8fad5b-d9cb-469f-a165-70867728950e.png"],
    });
    expect(b.ok && b.listing).toMatchObject({ status: "payoutneeded", totalUnits: 4, images: [] });
  });

  it("refuses a second live listing of the same variation by the same provider, naming the existing one", async () => {
    const r = await retailer();
    const first = await createListingChecked(db, {
      providerId: r.id,
      variationId: variationIds[1],
      listingType: "sell",
      reason: "overstock",
      sizes: { S: 1 },
      terms: true,
    });
    expect(first.ok).toBe(true);
    const again = await createListingChecked(db, {
      providerId: r.id,
      variationId: variationIds[1],
      listingType: "swap",
      reason: "overstock",
      sizes: { M: 1 },
      terms: true,
    });
    expect(again).toEqual({
      ok: false,
      reason: "already_listed",
      listingId: first.ok ? first.listing.id : -1,
    });
    // Another colour is another item; a deleted (0 units) listing does not block.
    expect(
      (
        await createListingChecked(db, {
          providerId: r.id,
          variationId: variationIds[2],
          listingType: "sell",
          reason: "overstock",
          sizes: { S: 1 },
          terms: true,
        })
      ).ok,
    ).toBe(true);
    if (first.ok)
      await db
        .update(listings)
        .set({ sizes: { S: 0 }, totalUnits: 0 })
        .where(eq(listings.id, first.listing.id));
    expect(
      (
        await createListingChecked(db, {
          providerId: r.id,
          variationId: variationIds[1],
          listingType: "sell",
          reason: "overstock",
          sizes: { S: 1 },
          terms: true,
        })
      ).ok,
    ).toBe(true);
  });

  it("concurrent submits of the same style create exactly one listing", async () => {
    const r = await retailer();
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        createListingChecked(db, {
          providerId: r.id,
          variationId: variationIds[0],
          listingType: "sell",
          reason: "overstock",
          sizes: { S: 1 },
          terms: true,
        }),
      ),
    );
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(results.filter((x) => !x.ok && x.reason === "already_listed")).toHaveLength(5);
  });

  it("refuses unauthorized brands, inactive retailers, unknown sizes and an empty total", async () => {
    const outsider = await retailer({ authorized: false });
    expect(
      await createListingChecked(db, {
        providerId: outsider.id,
        variationId: variationIds[0],
        listingType: "sell",
        reason: "overstock",
        sizes: { S: 1 },
        terms: true,
      }),
    ).toEqual({ ok: false, reason: "not_authorized" });
    const off = await retailer({ status: "inactive" });
    expect(
      await createListingChecked(db, {
        providerId: off.id,
        variationId: variationIds[0],
        listingType: "sell",
        reason: "overstock",
        sizes: { S: 1 },
        terms: true,
      }),
    ).toEqual({ ok: false, reason: "retailer_inactive" });
    const r = await retailer();
    const unknown = await createListingChecked(db, {
      providerId: r.id,
      variationId: variationIds[0],
      listingType: "sell",
      reason: "overstock",
      sizes: { XXL: 1 },
      terms: true,
    });
    expect(unknown).toMatchObject({ ok: false, reason: "invalid_sizes" });
    const empty = await createListingChecked(db, {
      providerId: r.id,
      variationId: variationIds[0],
      listingType: "sell",
      reason: "overstock",
      sizes: { S: 0 },
      terms: true,
    });
    expect(empty).toMatchObject({ ok: false, reason: "invalid_sizes" });
    expect(
      await createListingChecked(db, {
        providerId: r.id,
        variationId: 2_000_000_000,
        listingType: "sell",
        reason: "overstock",
        sizes: { S: 1 },
        terms: true,
      }),
    ).toEqual({ ok: false, reason: "variation_not_found" });
  });
});

describe("createRequestChecked", () => {
  it("creates a request; refuses a duplicate request naming the existing one", async () => {
    const r = await retailer();
    const first = await createRequestChecked(db, {
      requestorId: r.id,
      variationId: variationIds[2],
      reason: "sold_out",
      sizes: { L: 2 },
    });
    expect(first.ok && first.request).toMatchObject({
      requestorId: r.id,
      totalUnits: 2,
      brandId,
      reason: "sold_out",
    });
    const again = await createRequestChecked(db, {
      requestorId: r.id,
      variationId: variationIds[2],
      reason: "best_seller",
      sizes: { M: 1 },
    });
    expect(again).toEqual({
      ok: false,
      reason: "already_requested",
      requestId: first.ok ? first.request.id : -1,
    });
  });

  it("refuses a request for a style the retailer lists itself (own_listing_exists)", async () => {
    const r = await retailer();
    const own = await createListing(db, {
      variationId: variationIds[1],
      providerId: r.id,
      sizes: { S: 3 },
    });
    expect(
      await createRequestChecked(db, {
        requestorId: r.id,
        variationId: variationIds[1],
        reason: "sold_out",
        sizes: { S: 1 },
      }),
    ).toEqual({
      ok: false,
      reason: "own_listing_exists",
      listingId: own.id,
    });
  });

  it("says when another retailer already lists the style (listing_exists), ignoring hidden and empty listings", async () => {
    const requestor = await retailer();
    const seller = await retailer({ payout: true });
    const hidden = await retailer({ payout: false });
    const brand = await createBrand(db);
    const col = await createCollection(db, { brandId: brand.id });
    const { variations } = await createProduct(db, { collectionId: col.id, colors: 1 });
    const v = variations[0].id;
    await authorizeBrand(db, requestor.id, brand.id);
    await createListing(db, { variationId: v, providerId: hidden.id, sizes: { S: 2 } });
    await createListing(db, { variationId: v, providerId: seller.id, sizes: { S: 0 } });
    expect(await findOtherListing(db, requestor.id, v)).toBeNull();
    const swap = await createListing(db, {
      variationId: v,
      providerId: seller.id,
      sizes: { M: 2 },
      listingType: "swap",
    });
    const res = await createRequestChecked(db, {
      requestorId: requestor.id,
      variationId: v,
      reason: "sold_out",
      sizes: { M: 1 },
    });
    expect(res.ok && res.listingExists).toEqual({ id: swap.id, listingType: "swap" });
  });

  it("a request of the same style by another retailer does not block", async () => {
    const a = await retailer();
    const b = await retailer();
    await createRequest(db, { variationId: variationIds[0], requestorId: a.id, sizes: { S: 1 } });
    expect(
      (
        await createRequestChecked(db, {
          requestorId: b.id,
          variationId: variationIds[0],
          reason: "sold_out",
          sizes: { S: 1 },
        })
      ).ok,
    ).toBe(true);
  });
});

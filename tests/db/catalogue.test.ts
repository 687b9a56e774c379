import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  authorizedBrandsForRetailer,
  brandChoices,
  getBrand,
  listBrands,
} from "../../db/queries/catalogue";
import { brands, productSizes, variationImages } from "../../db/schema";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { useTestDb } from "./helpers";

// Other files may add brands to the same database: assertions look only at this file's brands (own prefix).
const db = useTestDb();
// The prefix sorts before letters, so a lookup's first BRAND_LOOKUP_LIMIT brands by name hold this file's.
const prefix = `0Cat${uniqueToken()}`;
let alpha: typeof brands.$inferSelect;
let bravo: typeof brands.$inferSelect;
let charlie: typeof brands.$inferSelect;
let retired: typeof brands.$inferSelect;

beforeAll(async () => {
  // Created out of order, to prove the ordering is by name.
  charlie = await createBrand(db, { name: `${prefix} charlie Denim` });
  alpha = await createBrand(db, {
    name: `${prefix} Alpha Outdoor`,
    company: { name: "Alpha Holdings", email: "a@example.test" },
  });
  bravo = await createBrand(db, { name: `${prefix} bravo Footwear` });
  retired = await createBrand(db, { name: `${prefix} Delta Retired`, isActive: false });
});

const mine = <T extends { name?: string; displayName?: string }>(rows: T[]) =>
  rows.filter((r) => (r.displayName ?? r.name ?? "").startsWith(prefix));

describe("listBrands", () => {
  it("lists active brands by name, case-insensitively", async () => {
    const rows = mine(await listBrands(db, { limit: 1000 }));
    expect(rows.map((b) => b.id)).toEqual([alpha.id, bravo.id, charlie.id]);
  });

  it("honours the limit (default 100) and can include inactive brands", async () => {
    expect((await listBrands(db, { limit: 2 })).length).toBeLessThanOrEqual(2);
    expect((await listBrands(db)).length).toBeLessThanOrEqual(100);
    const all = mine(await listBrands(db, { limit: 1000, activeOnly: false }));
    expect(all.map((b) => b.id)).toContain(retired.id);
  });
});

describe("getBrand", () => {
  it("returns the brand with its company and collections (newest first)", async () => {
    await createCollection(db, { brandId: alpha.id, year: 2024, name: "Fall" });
    await createCollection(db, { brandId: alpha.id, year: 2025, name: "Spring" });
    const b = await getBrand(db, alpha.id);
    expect(b?.name).toBe(alpha.name);
    expect(b?.company?.name).toBe("Alpha Holdings");
    expect(b?.collections.map((c) => [c.year, c.name])).toEqual([
      [2025, "Spring"],
      [2024, "Fall"],
    ]);
    expect(b?.collections[0].displayName).toBe(`${alpha.displayName} 2025 Spring`);
  });

  it("returns null for an unknown or malformed id", async () => {
    expect(await getBrand(db, 2_000_000_000)).toBeNull();
    expect(await getBrand(db, -1)).toBeNull();
    expect(await getBrand(db, Number.NaN)).toBeNull();
  });
});

describe("authorizedBrandsForRetailer", () => {
  it("returns only the retailer's authorized, active brands, by name", async () => {
    const { retailer } = await createRetailer(db, { user: false });
    const { retailer: other } = await createRetailer(db, { user: false });
    await authorizeBrand(db, retailer.id, charlie.id);
    await authorizeBrand(db, retailer.id, alpha.id);
    await authorizeBrand(db, retailer.id, alpha.id); // idempotent
    await authorizeBrand(db, retailer.id, retired.id); // brand switched off
    await authorizeBrand(db, retailer.id, bravo.id, "revoked");
    await authorizeBrand(db, other.id, bravo.id);

    const rows = await authorizedBrandsForRetailer(db, retailer.id);
    expect(rows.map((r) => r.id)).toEqual([alpha.id, charlie.id]);
    expect(rows[0]).toMatchObject({
      name: alpha.name,
      displayName: alpha.displayName,
      status: "authorized",
    });
    expect(await authorizedBrandsForRetailer(db, other.id)).toEqual([
      expect.objectContaining({ id: bravo.id }),
    ]);
  });
});

describe("brandChoices", () => {
  it("offers active, valid brands as {id, name}, by name", async () => {
    const invalid = await createBrand(db, { name: `${prefix} Echo Invalid` });
    await db.update(brands).set({ isValid: false }).where(eq(brands.id, invalid.id));
    const rows = mine(await brandChoices(db));
    expect(rows).toEqual([
      { id: alpha.id, name: alpha.displayName },
      { id: bravo.id, name: bravo.displayName },
      { id: charlie.id, name: charlie.displayName },
    ]);
  });
});

describe("createProduct factory", () => {
  it("creates the size run in order and colour variations with placeholder images", async () => {
    const col = await createCollection(db, { brandId: bravo.id, year: 2025, name: "Spring" });
    const p = await createProduct(db, {
      collectionId: col.id,
      sizes: SIZE_RUNS.footwear,
      colors: ["Black", "Trail Orange"],
      priceCents: 5800,
    });
    expect(p.product.brandId).toBe(bravo.id);
    const sizes = await db
      .select()
      .from(productSizes)
      .where(eq(productSizes.productId, p.product.id))
      .orderBy(productSizes.position);
    expect(sizes.map((s) => s.label)).toEqual([...SIZE_RUNS.footwear]);
    expect(p.variations.map((v) => v.color)).toEqual(["Black", "Trail Orange"]);
    expect(p.variations.every((v) => v.priceCents === 5800 && v.brandId === bravo.id)).toBe(true);
    const imgs = await db
      .select()
      .from(variationImages)
      .where(eq(variationImages.variationId, p.variations[0].id));
    expect(imgs).toHaveLength(2);
    expect(
      imgs.every(
        (i) =>
          i.url.startsWith("data:image/svg+xml") && i.thumbnailUrl.startsWith("data:image/svg+xml"),
      ),
    ).toBe(true);
  });
});

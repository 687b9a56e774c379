import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createBrand, createCollection, createProduct } from "../factories/catalogue";
import { createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { expectPgError, useTestDb } from "./helpers";

// Each test inserts its own rows (unique names); nothing here depends on what other files left behind.
const db = useTestDb();
let variationId: number;
let brandId: number;
let retailerId: number;

beforeAll(async () => {
  const brand = await createBrand(db);
  const col = await createCollection(db, { brandId: brand.id });
  const { variations } = await createProduct(db, { collectionId: col.id, colors: 1 });
  const { retailer } = await createRetailer(db, { payout: true, user: false });
  variationId = variations[0].id;
  brandId = brand.id;
  retailerId = retailer.id;
});

/** Raw inserts so that shapes Drizzle's types forbid (arrays, strings...) reach the database. */
function insertListing(sizesJson: string, totalUnits: number) {
  return db.execute(sql`
    insert into listings (variation_id, brand_id, provider_id, reason, sizes, total_units)
    values (${variationId}, ${brandId}, ${retailerId}, 'overstock', ${sizesJson}::text::jsonb, ${totalUnits})`);
}
function insertRequest(sizesJson: string, totalUnits: number) {
  return db.execute(sql`
    insert into listing_requests (variation_id, brand_id, requestor_id, reason, sizes, total_units)
    values (${variationId}, ${brandId}, ${retailerId}, 'sold_out', ${sizesJson}::text::jsonb, ${totalUnits})`);
}

const INVALID_SIZES: [string, string][] = [
  ["a negative count", '{"M": -1}'],
  ["a negative count beside valid ones", '{"S": 2, "M": -3}'],
  ["a fractional count", '{"M": 1.5}'],
  ["a tiny fraction", '{"M": 0.0001}'],
  ["a numeric string", '{"M": "2"}'],
  ["a word", '{"M": "two"}'],
  ["a boolean", '{"M": true}'],
  ["null", '{"M": null}'],
  ["a nested object", '{"M": {"units": 2}}'],
  ["an array value", '{"M": [2]}'],
  ["an array instead of an object", "[1, 2]"],
  ["a number instead of an object", "3"],
  ["a string instead of an object", '"M"'],
  ["JSON null instead of an object", "null"],
];

describe("sizes map CHECK (sizes_map_valid)", () => {
  for (const [table, insert, constraint] of [
    ["listings", insertListing, "listings_sizes_valid"],
    ["listing_requests", insertRequest, "listing_requests_sizes_valid"],
  ] as const) {
    describe(table, () => {
      it.each(INVALID_SIZES)("rejects %s", async (_label, json) => {
        const err = await expectPgError(() => insert(json, 1));
        expect(err.code).toBe("23514"); // check_violation
        expect(err.constraint).toBe(constraint);
      });

      it("accepts non-negative integers, zero and an empty map", async () => {
        await expect(insert('{"XS": 0, "S": 3, "M": 12}', 15)).resolves.toBeDefined();
        await expect(insert('{"M": 2.0}', 2)).resolves.toBeDefined(); // 2.0 is the integer 2
        await expect(insert("{}", 0)).resolves.toBeDefined();
      });

      it("rejects negative total_units", async () => {
        const err = await expectPgError(() => insert('{"M": 1}', -1));
        expect(err.code).toBe("23514");
        expect(err.constraint).toBe(`${table}_total_units_nonnegative`);
      });
    });
  }

  it("also holds for rows written through the factories (typed path)", async () => {
    const err = await expectPgError(() =>
      createListing(db, { variationId, providerId: retailerId, sizes: { M: -2 } }),
    );
    expect(err.code).toBe("23514");
    const err2 = await expectPgError(() =>
      createRequest(db, { variationId, requestorId: retailerId, sizes: { M: 0.5, L: 0.5 } }),
    ); // total 1, still fractional sizes
    expect(err2.code).toBe("23514");
  });

  it("an UPDATE cannot drive a size below zero either", async () => {
    const listing = await createListing(db, {
      variationId,
      providerId: retailerId,
      sizes: { M: 1 },
    });
    const err = await expectPgError(() =>
      db.execute(
        sql`update listings set sizes = jsonb_set(sizes, '{M}', '-1'::jsonb) where id = ${listing.id}`,
      ),
    );
    expect(err.code).toBe("23514");
    const err2 = await expectPgError(() =>
      db.execute(sql`update listings set total_units = total_units - 2 where id = ${listing.id}`),
    );
    expect(err2.constraint).toBe("listings_total_units_nonnegative");
  });
});

describe("money columns", () => {
  it("reject negative wholesale prices", async () => {
    const err = await expectPgError(() =>
      db.execute(sql`update product_variations set price_cents = -1 where id = ${variationId}`),
    );
    expect(err.code).toBe("23514");
    expect(err.constraint).toBe("variations_price_nonnegative");
  });
});

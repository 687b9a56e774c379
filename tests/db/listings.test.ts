import { beforeAll, describe, expect, it } from "vitest";
import {
  activateListingsForRetailer,
  decrementListingUnits,
  getListing,
  restoreListingUnits,
} from "../../db/queries/listings";
import { createListing, createRetailer, createWorld, SIZE_RUNS } from "../factories";
import { useTestDb } from "./helpers";

// A pool big enough for 20 truly concurrent statements. Rows are this file's own (fresh retailers).
const db = useTestDb(24);
let variationIds: number[];

beforeAll(async () => {
  const { products } = await createWorld(db, {
    products: [{ sizes: SIZE_RUNS.apparel, colors: 3 }],
  });
  const { variations } = products[0];
  variationIds = variations.map((v) => v.id);
});

async function seller(payout = true) {
  return (await createRetailer(db, { payout, user: false })).retailer;
}

describe("decrementListingUnits", () => {
  it("takes units from several sizes in one step and keeps total_units in step", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[0],
      providerId: r.id,
      sizes: { S: 2, M: 3, L: 1 },
    });
    expect(l.totalUnits).toBe(6);
    expect(await decrementListingUnits(db, l.id, { S: 1, M: 3 })).toBe(true);
    const after = await getListing(db, l.id);
    expect(after?.sizes).toEqual({ S: 1, M: 0, L: 1 });
    expect(after?.totalUnits).toBe(2);
  });

  it("changes nothing when any selected size lacks units (all or nothing)", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[0],
      providerId: r.id,
      sizes: { S: 2, M: 1 },
    });
    expect(await decrementListingUnits(db, l.id, { S: 1, M: 2 })).toBe(false);
    expect(await decrementListingUnits(db, l.id, { XL: 1 })).toBe(false); // size not in the listing
    expect(await decrementListingUnits(db, l.id, {})).toBe(false); // nothing selected
    expect(await decrementListingUnits(db, l.id, { S: 0 })).toBe(false);
    expect(await decrementListingUnits(db, 2_000_000_000, { S: 1 })).toBe(false); // no such listing
    const after = await getListing(db, l.id);
    expect(after?.sizes).toEqual({ S: 2, M: 1 });
    expect(after?.totalUnits).toBe(3);
  });

  it("rejects negative or fractional selections before touching the database", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[0],
      providerId: r.id,
      sizes: { S: 2 },
    });
    await expect(decrementListingUnits(db, l.id, { S: -1 })).rejects.toThrow();
    await expect(decrementListingUnits(db, l.id, { S: 1.5 })).rejects.toThrow();
    expect((await getListing(db, l.id))?.sizes).toEqual({ S: 2 });
  });

  it("never oversells: 20 concurrent buyers of the last 3 units get exactly 3 units", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[1],
      providerId: r.id,
      sizes: { M: 3, L: 4 },
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => decrementListingUnits(db, l.id, { M: 1 })),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    const after = await getListing(db, l.id);
    expect(after?.sizes).toEqual({ M: 0, L: 4 });
    expect(after?.totalUnits).toBe(4);
  });

  it("never oversells with mixed, multi-size selections racing for the same last units", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[2],
      providerId: r.id,
      sizes: { S: 2, M: 2 },
    });
    // Each attempt wants 1 S + 1 M, or 2 M: at most the stock can be taken, never more.
    const selections: Record<string, number>[] = Array.from(
      { length: 20 },
      (_, i): Record<string, number> => (i % 2 === 0 ? { S: 1, M: 1 } : { M: 2 }),
    );
    const results = await Promise.all(selections.map((s) => decrementListingUnits(db, l.id, s)));
    const taken = { S: 0, M: 0 };
    selections.forEach((s, i) => {
      if (!results[i]) return;
      taken.S += s.S ?? 0;
      taken.M += s.M ?? 0;
    });
    expect(taken.S).toBeLessThanOrEqual(2);
    expect(taken.M).toBeLessThanOrEqual(2);
    const after = await getListing(db, l.id);
    expect(after?.sizes).toEqual({ S: 2 - taken.S, M: 2 - taken.M });
    expect(after?.totalUnits).toBe(4 - taken.S - taken.M);
    expect(after!.sizes.M).toBeGreaterThanOrEqual(0);
  });

  it("restoreListingUnits puts units back (adding a size that is missing)", async () => {
    const r = await seller();
    const l = await createListing(db, {
      variationId: variationIds[0],
      providerId: r.id,
      sizes: { S: 1 },
    });
    expect(await decrementListingUnits(db, l.id, { S: 1 })).toBe(true);
    expect(await restoreListingUnits(db, l.id, { S: 1, XS: 2 })).toBe(true);
    const after = await getListing(db, l.id);
    expect(after?.sizes).toEqual({ S: 1, XS: 2 });
    expect(after?.totalUnits).toBe(3);
    expect(await restoreListingUnits(db, 2_000_000_000, { S: 1 })).toBe(false);
  });
});

describe("activateListingsForRetailer", () => {
  it("flips only that retailer's payoutneeded listings to active, and returns the count", async () => {
    const target = await seller(false);
    const other = await seller(false);
    const paid = await seller(true);
    const mine = await Promise.all([
      createListing(db, { variationId: variationIds[0], providerId: target.id, sizes: { S: 1 } }),
      createListing(db, { variationId: variationIds[1], providerId: target.id, sizes: { M: 2 } }),
    ]);
    const theirs = await createListing(db, {
      variationId: variationIds[0],
      providerId: other.id,
      sizes: { S: 1 },
    });
    const paidListing = await createListing(db, {
      variationId: variationIds[2],
      providerId: paid.id,
      sizes: { L: 1 },
    });
    // Status is derived from the provider's payout set-up.
    expect(mine.map((l) => l.status)).toEqual(["payoutneeded", "payoutneeded"]);
    expect(theirs.status).toBe("payoutneeded");
    expect(paidListing.status).toBe("active");

    expect(await activateListingsForRetailer(db, target.id)).toBe(2);
    for (const l of mine) expect((await getListing(db, l.id))?.status).toBe("active");
    expect((await getListing(db, theirs.id))?.status).toBe("payoutneeded");
    expect((await getListing(db, paidListing.id))?.status).toBe("active");

    // Idempotent: nothing left to flip.
    expect(await activateListingsForRetailer(db, target.id)).toBe(0);
  });
});

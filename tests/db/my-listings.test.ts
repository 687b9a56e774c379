/**
 * db/queries/my-listings: grouping by authorized brand (sorted by name), paging per brand, product-code
 * search, owner scoping of reads and edits, total_units kept in step, the correction flag, and the
 * pending-transaction detection. Every row is this file's own (fresh brands and retailers).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  getMyItem,
  likeSubstring,
  markListingCorrected,
  myItemsByBrand,
  orderedSizes,
  updateMyListing,
  updateMyRequest,
} from "../../db/queries/my-listings";
import { pendingTransactionCount } from "../../db/queries/pending-transactions";
import { listResource } from "../../db/queries/admin-resources";
import { listings, orderContributions, orders } from "../../db/schema";
import { BUY_STATES, COMMON_STATES } from "../../domain/states";
import { createBrand, createCollection, type CreatedProduct } from "../factories/catalogue";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { createProduct, SIZE_RUNS } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(4);

const tok = uniqueToken().toUpperCase();
let brandA: { id: number; name: string }; // "Alpha ..."
let brandZ: { id: number; name: string }; // "Zulu ..."
let brandNo: { id: number; name: string }; // not authorized
let prodA: CreatedProduct;
let prodZ: CreatedProduct;
let prodNo: CreatedProduct;
let me: number;
let other: number;

async function product(brandId: number, sku: string, colors = 3): Promise<CreatedProduct> {
  const col = await createCollection(db, { brandId });
  return createProduct(db, { collectionId: col.id, sku, sizes: SIZE_RUNS.apparel, colors });
}

beforeAll(async () => {
  // Created Zulu first so that id order and name order differ.
  brandZ = await createBrand(db, { name: `Zulu ${tok}` });
  brandA = await createBrand(db, { name: `Alpha ${tok}` });
  brandNo = await createBrand(db, { name: `Mike ${tok}` });
  prodA = await product(brandA.id, `AA${tok}`, 6);
  prodZ = await product(brandZ.id, `ZZ${tok}`);
  prodNo = await product(brandNo.id, `NO${tok}`);
  me = (await createRetailer(db, { payout: false, user: false })).retailer.id;
  other = (await createRetailer(db, { payout: true, user: false })).retailer.id;
  for (const r of [me, other]) {
    await authorizeBrand(db, r, brandA.id);
    await authorizeBrand(db, r, brandZ.id);
  }
  // Mine: 6 listings in Alpha (newest last), 1 in Zulu, 1 in a brand I am not authorized for, 1 deleted.
  const base = Date.now() - 60_000;
  for (let i = 0; i < 6; i++) {
    await createListing(db, {
      variationId: prodA.variations[i].id,
      providerId: me,
      sizes: { M: i + 1, S: 1 },
      createdAt: new Date(base + i * 1000),
    });
  }
  await createListing(db, {
    variationId: prodZ.variations[0].id,
    providerId: me,
    sizes: { XL: 2 },
  });
  await createListing(db, {
    variationId: prodNo.variations[0].id,
    providerId: me,
    sizes: { S: 1 },
  });
  await createListing(db, { variationId: prodZ.variations[1].id, providerId: me, sizes: { S: 0 } });
  // Someone else's, in my brands.
  await createListing(db, {
    variationId: prodA.variations[0].id,
    providerId: other,
    sizes: { S: 5 },
  });
  // Requests: one of mine in Zulu, one of the other retailer's.
  await createRequest(db, {
    variationId: prodZ.variations[2].id,
    requestorId: me,
    sizes: { L: 3 },
  });
  await createRequest(db, {
    variationId: prodZ.variations[2].id,
    requestorId: other,
    sizes: { L: 3 },
  });
});

describe("myItemsByBrand", () => {
  it("groups my listings by authorized brand, sorted by name, newest first, 4 per page by default", async () => {
    const sections = await myItemsByBrand(db, { kind: "listings", retailerId: me });
    const mine = sections.filter((s) => s.id === brandA.id || s.id === brandZ.id);
    expect(mine.map((s) => s.name)).toEqual([`Alpha ${tok}`, `Zulu ${tok}`]);
    expect(sections.some((s) => s.id === brandNo.id)).toBe(false);
    const [a, z] = mine;
    expect(a.count).toBe(6);
    expect(a.limit).toBe(4);
    expect(a.items).toHaveLength(4);
    // Newest first: the listing with M: 6 was created last.
    expect(a.items.map((i) => i.sizes.find((s) => s.label === "M")?.count)).toEqual([6, 5, 4, 3]);
    // Sizes in the product's run order (S before M), zero counts left out.
    expect(a.items[0].sizes.map((s) => s.label)).toEqual(["S", "M"]);
    expect(a.items[0].totalUnits).toBe(7);
    expect(a.items[0].status).toBe("payoutneeded");
    expect(a.items[0].imageUrl).toMatch(/^data:image\/svg\+xml/);
    expect(a.items[0].sku).toContain(`AA${tok}`);
    expect(z.count).toBe(1); // the deleted one (all zero) is not shown
    expect(z.items[0].sizes).toEqual([{ label: "XL", count: 2 }]);
  });

  it("pages each brand separately with its own offset and a custom limit", async () => {
    const sections = await myItemsByBrand(db, {
      kind: "listings",
      retailerId: me,
      limit: 2,
      offsets: { [brandA.id]: 4 },
    });
    const a = sections.find((s) => s.id === brandA.id)!;
    const z = sections.find((s) => s.id === brandZ.id)!;
    expect(a.offset).toBe(4);
    expect(a.items.map((i) => i.sizes.find((s) => s.label === "M")?.count)).toEqual([2, 1]);
    expect(z.offset).toBe(0);
    expect(z.items).toHaveLength(1);
    const past = await myItemsByBrand(db, {
      kind: "listings",
      retailerId: me,
      offsets: new Map([[brandA.id, 40]]),
    });
    expect(past.find((s) => s.id === brandA.id)!.items).toEqual([]);
    expect(past.find((s) => s.id === brandA.id)!.count).toBe(6);
  });

  it("searches by product code (substring, case-insensitive, wildcards literal)", async () => {
    const code = prodA.variations[2].sku.toLowerCase();
    const sections = await myItemsByBrand(db, { kind: "listings", retailerId: me, search: code });
    const a = sections.find((s) => s.id === brandA.id)!;
    expect(a.count).toBe(1);
    expect(a.items[0].sku).toBe(prodA.variations[2].sku);
    expect(sections.find((s) => s.id === brandZ.id)!.count).toBe(0);
    const none = await myItemsByBrand(db, { kind: "listings", retailerId: me, search: "%" });
    expect(none.every((s) => s.count === 0)).toBe(true);
    expect(likeSubstring("a_b%")).toBe("%a\\_b\\%%");
  });

  it("shows only the retailer's own items: requests too", async () => {
    const sections = await myItemsByBrand(db, { kind: "requests", retailerId: me });
    expect(sections.find((s) => s.id === brandA.id)!.count).toBe(0);
    const z = sections.find((s) => s.id === brandZ.id)!;
    expect(z.count).toBe(1);
    expect(z.items[0].status).toBeNull();
    expect(z.items[0].sizes).toEqual([{ label: "L", count: 3 }]);
    const theirs = await myItemsByBrand(db, { kind: "listings", retailerId: other });
    expect(theirs.find((s) => s.id === brandA.id)!.count).toBe(1);
  });

  it("a retailer without authorized brands gets no sections", async () => {
    const lonely = (await createRetailer(db, { user: false })).retailer.id;
    expect(await myItemsByBrand(db, { kind: "listings", retailerId: lonely })).toEqual([]);
  });
});

describe("getMyItem / updateMyListing / updateMyRequest", () => {
  it("reads an item only for its owner (or for anyone when the owner is null: staff as admin)", async () => {
    const l = await createListing(db, {
      variationId: prodA.variations[0].id,
      providerId: me,
      sizes: { S: 1, L: 2 },
    });
    const mine = await getMyItem(db, "listings", l.id, me);
    expect(mine?.sizes).toEqual([
      { label: "XS", count: 0 },
      { label: "S", count: 1 },
      { label: "M", count: 0 },
      { label: "L", count: 2 },
      { label: "XL", count: 0 },
    ]);
    expect(mine?.brandName).toBe(`Alpha ${tok}`);
    expect(await getMyItem(db, "listings", l.id, other)).toBeNull();
    expect((await getMyItem(db, "listings", l.id, null))?.ownerId).toBe(me);
    expect(await getMyItem(db, "listings", 0, me)).toBeNull();
    expect(await getMyItem(db, "listings", Number.NaN, me)).toBeNull();
    // A listing id is not a request id.
    expect(await getMyItem(db, "requests", l.id, me)).toBeNull();
  });

  it("saves sizes, type, reasons and total_units in one statement, owner-scoped", async () => {
    const l = await createListing(db, {
      variationId: prodA.variations[1].id,
      providerId: me,
      sizes: { S: 1 },
    });
    expect(
      await updateMyListing(db, {
        id: l.id,
        ownerId: other,
        sizes: { S: 9 },
        reason: "other",
        modifiedReason: "other",
      }),
    ).toBeNull();
    const saved = await updateMyListing(db, {
      id: l.id,
      ownerId: me,
      sizes: { S: 2, M: 3 },
      reason: "end_of_season",
      modifiedReason: "received_more",
      listingType: "swap",
    });
    expect(saved).toEqual({ id: l.id, totalUnits: 5 });
    const [row] = await db.select().from(listings).where(eq(listings.id, l.id));
    expect(row).toMatchObject({
      sizes: { S: 2, M: 3 },
      totalUnits: 5,
      reason: "end_of_season",
      modifiedReason: "received_more",
      listingType: "swap",
    });
    await expect(
      updateMyListing(db, {
        id: l.id,
        ownerId: me,
        sizes: { S: -1 },
        reason: "x",
        modifiedReason: "other",
      }),
    ).rejects.toThrow();
  });

  it("all sizes zero deletes the listing from My Listings", async () => {
    const l = await createListing(db, {
      variationId: prodZ.variations[2].id,
      providerId: me,
      sizes: { S: 1 },
    });
    const before = (await myItemsByBrand(db, { kind: "listings", retailerId: me, limit: 50 })).find(
      (s) => s.id === brandZ.id,
    )!.count;
    await updateMyListing(db, {
      id: l.id,
      ownerId: me,
      sizes: { S: 0 },
      reason: "overstock",
      modifiedReason: "sold_in_store",
    });
    const after = (await myItemsByBrand(db, { kind: "listings", retailerId: me, limit: 50 })).find(
      (s) => s.id === brandZ.id,
    )!.count;
    expect(after).toBe(before - 1);
  });

  it("a correction by someone else is flagged until the owner saves again (even at zero units)", async () => {
    const l = await createListing(db, {
      variationId: prodZ.variations[0].id,
      providerId: me,
      sizes: { M: 4 },
    });
    await updateMyListing(db, {
      id: l.id,
      ownerId: null,
      sizes: { M: 0 },
      reason: "overstock",
      modifiedReason: "inventory_correction",
      correction: true,
    });
    let card = (await myItemsByBrand(db, { kind: "listings", retailerId: me, limit: 50 }))
      .find((s) => s.id === brandZ.id)!
      .items.find((i) => i.id === l.id);
    expect(card?.corrected).toBe(true);
    expect(card?.totalUnits).toBe(0);
    expect((await getMyItem(db, "listings", l.id, me))?.correctedAt).toBeInstanceOf(Date);
    await updateMyListing(db, {
      id: l.id,
      ownerId: me,
      sizes: { M: 2 },
      reason: "overstock",
      modifiedReason: "inventory_correction",
      correction: false,
    });
    card = (await myItemsByBrand(db, { kind: "listings", retailerId: me, limit: 50 }))
      .find((s) => s.id === brandZ.id)!
      .items.find((i) => i.id === l.id);
    expect(card?.corrected).toBe(false);
    expect(await markListingCorrected(db, l.id)).toBe(true);
    expect((await getMyItem(db, "listings", l.id, me))?.correctedAt).not.toBeNull();
  });

  it("updates a request, owner-scoped", async () => {
    const r = await createRequest(db, {
      variationId: prodA.variations[3].id,
      requestorId: me,
      sizes: { M: 1 },
    });
    expect(
      await updateMyRequest(db, {
        id: r.id,
        ownerId: other,
        sizes: { M: 5 },
        reason: "sold_out",
        modifiedReason: "other",
      }),
    ).toBeNull();
    expect(
      await updateMyRequest(db, {
        id: r.id,
        ownerId: me,
        sizes: { M: 5, L: 1 },
        reason: "best_seller",
        modifiedReason: "other",
      }),
    ).toEqual({
      id: r.id,
      totalUnits: 6,
    });
    expect((await getMyItem(db, "requests", r.id, me))?.reason).toBe("best_seller");
  });
});

describe("pendingTransactionCount", () => {
  async function order(statename: string, listingId: number) {
    const t = uniqueToken();
    const [o] = await db
      .insert(orders)
      .values({
        externalId: `ml-${t}`,
        workflowId: `ml-wf-${t}`,
        transactionType: 1,
        brandId: brandA.id,
        providerId: me,
        receiverId: other,
        statename,
        displayStatus: "Awaiting Approval",
        actionNeeded: "provider",
      })
      .returning();
    await db
      .insert(orderContributions)
      .values({ orderId: o.id, side: "provider", listingId, units: { S: 1 }, quantity: 1 });
    return o;
  }

  it("counts orders awaiting the seller that take units from the listing, not finished ones", async () => {
    const l = await createListing(db, {
      variationId: prodA.variations[4].id,
      providerId: me,
      sizes: { S: 3 },
    });
    const l2 = await createListing(db, {
      variationId: prodA.variations[5].id,
      providerId: me,
      sizes: { S: 3 },
    });
    expect(await pendingTransactionCount(db, l.id)).toBe(0);
    await order(COMMON_STATES.DECLINED, l.id);
    await order(BUY_STATES.COMPLETE_ORDER_CHECKOUT, l.id);
    expect(await pendingTransactionCount(db, l.id)).toBe(0);
    await order(BUY_STATES.PROVIDER_APPROVE_SALE, l.id);
    await order(BUY_STATES.PROVIDER_APPROVE_SALE, l.id);
    expect(await pendingTransactionCount(db, l.id)).toBe(2);
    expect(await pendingTransactionCount(db, l2.id)).toBe(0);
  });
});

describe("orderedSizes", () => {
  it("follows the run, then extra labels; zero counts only when asked", () => {
    expect(orderedSizes({ L: 1, S: 2, XXL: 1, M: 0 }, ["S", "M", "L"])).toEqual([
      { label: "S", count: 2 },
      { label: "L", count: 1 },
      { label: "XXL", count: 1 },
    ]);
    expect(orderedSizes({ S: 0 }, ["S", "M"], true)).toEqual([
      { label: "S", count: 0 },
      { label: "M", count: 0 },
    ]);
  });
});

describe("staff's listing tabs (admin-resources in_stock filter)", () => {
  it("'active listings' and 'payout info needed' leave out a deleted listing (0 units); 'all listings' keeps it", async () => {
    const variationsOf = async (filters: Record<string, string>) =>
      (
        await listResource(db, "listing", {
          page: 1,
          filters: { provider: String(me), ...filters },
        })
      ).rows.map((r) => r.productvariation);
    const deleted = prodZ.variations[1].id;
    expect(await variationsOf({})).toContain(deleted);
    expect(await variationsOf({ in_stock: "true" })).not.toContain(deleted);
    expect(await variationsOf({ in_stock: "false" })).toContain(deleted);
    expect(await variationsOf({ in_stock: "nonsense" })).toEqual([]);
  });
});

describe("staff's retailer-brand links (admin-resources search)", () => {
  it("'Search by id or retailer id': a number finds the links of that retailer too", async () => {
    const rows = (await listResource(db, "retailerbrand", { page: 1, search: String(me) })).rows;
    expect(
      rows
        .filter((r) => r.retailer === me)
        .map((r) => r.brand)
        .sort(),
    ).toEqual([brandA.id, brandZ.id].sort());
  });
});

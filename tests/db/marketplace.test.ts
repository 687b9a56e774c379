import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  choosePageShape,
  getMarketItem,
  marketBrowseContext,
  marketplacePage,
  marketplacePageJsonSql,
  marketplacePageSql,
  type MarketPageQuery,
} from "../../db/queries/marketplace";
import { productVariations } from "../../db/schema";
import { eq } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { useTestDb } from "./helpers";
import { marketPageQuery } from "./marketplace-bulk";

const db = useTestDb(4);

// Brand A (the viewer is authorized), brand B (it is not). Variations with distinct codes and prices.
let brandA: number;
let brandB: number;
let viewer: number;
let seller: number;
let sellerName: string;
let seller2: number;
let noPayout: number;
let inactive: number;
let requestor: number;
const v: Record<string, { id: number; sku: string; priceCents: number }> = {};
const L: Record<string, number> = {};
const R: Record<string, number> = {};
const tag = uniqueToken().toUpperCase();

const hour = 3600_000;
const t0 = Date.now() - 1000 * hour;

beforeAll(async () => {
  brandA = (await createBrand(db)).id;
  brandB = (await createBrand(db)).id;
  const colA = await createCollection(db, { brandId: brandA });
  const colB = await createCollection(db, { brandId: brandB });
  // Codes chosen so A-Z and price orders differ.
  const specs: [string, number, number][] = [
    ["c", 3000, colA.id],
    ["a", 5000, colA.id],
    ["b", 1000, colA.id],
    ["d", 4000, colA.id],
    ["z", 2000, colB.id],
  ];
  for (const [k, price, col] of specs) {
    const { variations } = await createProduct(db, {
      collectionId: col,
      sku: `MK${tag}-${k.toUpperCase()}`,
      priceCents: price,
      sizes: SIZE_RUNS.apparel,
      colors: ["Black"],
    });
    v[k] = { id: variations[0].id, sku: variations[0].sku, priceCents: price };
  }
  viewer = (await createRetailer(db, { payout: true, user: false })).retailer.id;
  const s = (
    await createRetailer(db, { payout: true, user: false, storeName: `Secret Seller ${tag}` })
  ).retailer;
  seller = s.id;
  sellerName = s.storeName;
  seller2 = (await createRetailer(db, { payout: true, user: false })).retailer.id;
  noPayout = (await createRetailer(db, { payout: false, user: false })).retailer.id;
  inactive = (await createRetailer(db, { payout: true, user: false, status: "inactive" })).retailer
    .id;
  requestor = (
    await createRetailer(db, { payout: false, user: false, storeName: `Secret Requestor ${tag}` })
  ).retailer.id;
  for (const r of [viewer, seller, seller2, noPayout, inactive, requestor])
    await authorizeBrand(db, r, brandA);
  await authorizeBrand(db, seller, brandB);

  const at = (n: number) => new Date(t0 + n * hour);
  // Visible sell listings of brand A (created oldest -> newest: c, a, b, d).
  L.c = (
    await createListing(db, {
      variationId: v.c.id,
      providerId: seller,
      sizes: { S: 2, M: 1 },
      createdAt: at(1),
    })
  ).id;
  L.a = (
    await createListing(db, {
      variationId: v.a.id,
      providerId: seller2,
      sizes: { L: 5 },
      createdAt: at(2),
    })
  ).id;
  L.b = (
    await createListing(db, {
      variationId: v.b.id,
      providerId: seller,
      sizes: { XS: 1, S: 0 },
      createdAt: at(3),
    })
  ).id;
  L.d = (
    await createListing(db, {
      variationId: v.d.id,
      providerId: seller2,
      sizes: { M: 3, XL: 4 },
      createdAt: at(4),
    })
  ).id;
  // Hidden ones.
  L.swap = (
    await createListing(db, {
      variationId: v.a.id,
      providerId: seller,
      sizes: { S: 1 },
      listingType: "swap",
      createdAt: at(5),
    })
  ).id;
  L.own = (
    await createListing(db, {
      variationId: v.c.id,
      providerId: viewer,
      sizes: { S: 9 },
      createdAt: at(6),
    })
  ).id;
  L.payoutneeded = (
    await createListing(db, {
      variationId: v.d.id,
      providerId: noPayout,
      sizes: { S: 9 },
      createdAt: at(7),
    })
  ).id;
  L.inactive = (
    await createListing(db, {
      variationId: v.b.id,
      providerId: inactive,
      sizes: { S: 9 },
      createdAt: at(8),
    })
  ).id;
  L.zero = (
    await createListing(db, {
      variationId: v.a.id,
      providerId: seller2,
      sizes: { S: 0 },
      createdAt: at(9),
    })
  ).id;
  L.brandB = (
    await createListing(db, {
      variationId: v.z.id,
      providerId: seller,
      sizes: { S: 4 },
      createdAt: at(10),
    })
  ).id;
  // Requests.
  R.r1 = (
    await createRequest(db, {
      variationId: v.a.id,
      requestorId: requestor,
      sizes: { M: 2 },
      createdAt: at(1),
    })
  ).id;
  R.r2 = (
    await createRequest(db, {
      variationId: v.b.id,
      requestorId: seller,
      sizes: { S: 1, L: 1 },
      createdAt: at(2),
    })
  ).id;
  R.own = (
    await createRequest(db, {
      variationId: v.c.id,
      requestorId: viewer,
      sizes: { M: 2 },
      createdAt: at(3),
    })
  ).id;
  R.inactive = (
    await createRequest(db, {
      variationId: v.d.id,
      requestorId: inactive,
      sizes: { M: 2 },
      createdAt: at(4),
    })
  ).id;
  R.zero = (
    await createRequest(db, {
      variationId: v.d.id,
      requestorId: requestor,
      sizes: { M: 0 },
      createdAt: at(5),
    })
  ).id;
});

function q(over: Partial<MarketPageQuery> = {}): MarketPageQuery {
  return marketPageQuery(viewer, [brandA], over);
}

async function ids(over: Partial<MarketPageQuery> = {}): Promise<number[]> {
  const pages = await marketplacePage(db, q(over));
  return [...pages.values()].flatMap((p) => p.cards.map((c) => c.id));
}

describe("ordering keys copied from the variation", () => {
  it("a new listing gets lower(sku) and the price by trigger; a variation change follows", async () => {
    const row = (await db.execute(
      sql`select sku_key, price_cents from listings where id = ${L.c}`,
    )) as unknown as {
      sku_key: string;
      price_cents: number;
    }[];
    expect(row[0]).toEqual({ sku_key: v.c.sku.toLowerCase(), price_cents: 3000 });
    const other = await createBrand(db);
    const { variations } = await createProduct(db, {
      collectionId: (await createCollection(db, { brandId: other.id })).id,
      colors: ["Navy"],
      priceCents: 700,
    });
    const l = await createListing(db, {
      variationId: variations[0].id,
      providerId: seller,
      sizes: { S: 1 },
    });
    await db
      .update(productVariations)
      .set({ priceCents: 900, sku: "NEW-Code-1" })
      .where(eq(productVariations.id, variations[0].id));
    const after = (await db.execute(
      sql`select sku_key, price_cents from listings where id = ${l.id}`,
    )) as unknown as {
      sku_key: string;
      price_cents: number;
    }[];
    expect(after[0]).toEqual({ sku_key: "new-code-1", price_cents: 900 });
  });
});

describe("marketplacePage: what is shown", () => {
  it("buy: active sell listings of active, paid-out retailers with units, newest first (own ones marked)", async () => {
    expect(await ids()).toEqual([L.own, L.d, L.b, L.a, L.c]);
    const cards = (await marketplacePage(db, q())).get(brandA)!.cards;
    expect(cards.filter((c) => c.own).map((c) => c.id)).toEqual([L.own]);
  });

  it("swap: only swap listings", async () => {
    expect(await ids({ tab: "swap" })).toEqual([L.swap]);
  });

  it("the viewer's own listings are shown to it (marked own), like to everyone else", async () => {
    expect(await ids({ viewerRetailerId: seller })).toContain(L.own);
    expect(await ids({ viewerRetailerId: null, withNames: true })).toContain(L.own);
  });

  it("sell (requests): never the viewer's own, not inactive requestors', not zero units", async () => {
    expect(await ids({ tab: "sell" })).toEqual([R.r2, R.r1]);
    expect(await ids({ tab: "sell", viewerRetailerId: requestor })).toEqual([R.own, R.r2]);
  });

  it("groups by the brands asked for, in that order; brands without rows are empty pages", async () => {
    const pages = await marketplacePage(
      db,
      q({ brandIds: [brandB, brandA], viewerRetailerId: viewer }),
    );
    expect([...pages.keys()]).toEqual([brandB, brandA]);
    expect(pages.get(brandB)!.cards.map((c) => c.id)).toEqual([L.brandB]);
    const empty = await marketplacePage(db, q({ tab: "swap", brandIds: [brandB] }));
    expect(empty.get(brandB)).toEqual({ cards: [], hasMore: false });
    expect((await marketplacePage(db, q({ brandIds: [] }))).size).toBe(0);
  });
});

describe("anonymity", () => {
  it("non-staff: no store name selected at all; staff: the provider's name", async () => {
    const anon = await marketplacePage(db, q());
    for (const c of anon.get(brandA)!.cards) expect(c.partyName).toBeNull();
    for (const stmt of [
      marketplacePageSql(q(), "lateral"),
      marketplacePageJsonSql(q(), "lateral"),
      marketplacePageJsonSql(q(), "ranked"),
    ]) {
      expect(new PgDialect().sqlToQuery(stmt).sql).not.toMatch(
        /store_name|store_email|store_phone|address1/,
      );
    }
    const staff = await marketplacePage(db, q({ withNames: true }));
    const card = staff.get(brandA)!.cards.find((c) => c.id === L.c)!;
    expect(card.partyName).toBe(sellerName);
    expect(card.partyId).toBe(seller);
  });

  it("getMarketItem: the same rule", async () => {
    const anon = await getMarketItem(db, {
      kind: "listing",
      id: L.c,
      brandIds: [brandA],
      viewerRetailerId: viewer,
      withNames: false,
    });
    expect(anon?.partyName).toBeNull();
    const staff = await getMarketItem(db, {
      kind: "listing",
      id: L.c,
      brandIds: null,
      viewerRetailerId: null,
      withNames: true,
    });
    expect(staff?.partyName).toBe(sellerName);
  });
});

describe("the statement as it runs: one json value", () => {
  it("the same cards, in the same order, as the row-per-card statement (both shapes, with and without names)", async () => {
    for (const over of [
      {},
      { withNames: true },
      { ordering: "-price" as const },
      { tab: "sell" as const },
      { brandIds: [brandB, brandA], limit: 2 },
    ]) {
      for (const shape of ["lateral", "ranked"] as const) {
        const query = q(over);
        const rows = (await db.execute(marketplacePageSql(query, shape))) as unknown as Record<
          string,
          unknown
        >[];
        const [{ cards }] = (await db.execute(marketplacePageJsonSql(query, shape))) as unknown as {
          cards: unknown[][] | string;
        }[];
        const parsed = typeof cards === "string" ? (JSON.parse(cards) as unknown[][]) : cards;
        expect(parsed, `${JSON.stringify(over)} ${shape}`).toEqual(
          rows.map((r) => Object.values(r)),
        );
      }
    }
    const [{ cards }] = (await db.execute(
      marketplacePageJsonSql(q({ tab: "swap", brandIds: [brandB] }), "lateral"),
    )) as unknown as {
      cards: unknown;
    }[];
    expect(cards).toEqual([]);
  });
});

describe("orderings", () => {
  it("A-Z / Z-A by product code, price low/high", async () => {
    const mine = { viewerRetailerId: seller2 }; // the own listing has the same code as L.c: ties break by id
    expect(await ids({ ...mine, ordering: "sku" })).toEqual([L.a, L.b, L.c, L.own, L.d]);
    expect(await ids({ ...mine, ordering: "-sku" })).toEqual([L.d, L.own, L.c, L.b, L.a]);
    expect(await ids({ ...mine, ordering: "price" })).toEqual([L.b, L.c, L.own, L.d, L.a]);
    expect(await ids({ ...mine, ordering: "-price" })).toEqual([L.a, L.d, L.own, L.c, L.b]);
  });
});

describe("filters", () => {
  it("sizes: listings with units in any of those sizes", async () => {
    expect(await ids({ filters: { sizes: ["S"] } })).toEqual([L.own, L.c]); // L.b has S: 0
    expect(await ids({ filters: { sizes: ["XS", "L"] } })).toEqual([L.b, L.a]);
    expect(await ids({ filters: { sizes: ["XXL"] } })).toEqual([]);
  });

  it("units: minimum total units", async () => {
    expect(await ids({ filters: { units: 5 } })).toEqual([L.own, L.d, L.a]);
  });

  it("variantId and id", async () => {
    expect(await ids({ filters: { variantId: v.a.id } })).toEqual([L.a]);
    expect(await ids({ filters: { id: L.c } })).toEqual([L.c]);
    expect(await ids({ filters: { id: L.payoutneeded } })).toEqual([]);
  });

  it("search: product code contains, case-insensitive; % and _ match themselves", async () => {
    expect(await ids({ filters: { search: `mk${tag.toLowerCase()}-a` } })).toEqual([L.a]);
    expect(await ids({ filters: { search: `${tag}-` } })).toEqual([L.own, L.d, L.b, L.a, L.c]);
    expect(await ids({ filters: { search: "%" } })).toEqual([]);
    expect(await ids({ filters: { search: "_" } })).toEqual([]);
    expect(await ids({ tab: "sell", filters: { search: `${tag}-B` } })).toEqual([R.r2]);
  });

  it("category", async () => {
    const [cat] = (await db.execute(
      sql`insert into categories (name) values (${`Cat ${tag}`}) returning id`,
    )) as unknown as {
      id: number;
    }[];
    await db.execute(
      sql`update products set category_id = ${cat.id} where id = (select product_id from product_variations where id = ${v.d.id})`,
    );
    expect(await ids({ filters: { category: cat.id } })).toEqual([L.d]);
  });

  it("a selective search over many brands is ranked once, with the same answer", async () => {
    const brandIds = [brandA, brandB];
    const query = q({ brandIds, filters: { search: `${tag}-` } });
    // The rule, not the planner's mood: on this file's few rows a sequential scan can be the cheapest plan once
    // autovacuum has analysed the table, which would make the choice "lateral" (as it should on a table that
    // small). With sequential scans priced out, the plan reads the index and the estimate decides.
    const shape = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return choosePageShape(tx, query);
    });
    expect(shape).toBe("ranked");
    const ranked = await db.execute(marketplacePageSql(query, "ranked"));
    const lateral = await db.execute(marketplacePageSql(query, "lateral"));
    expect(ranked).toEqual(lateral);
    expect(await choosePageShape(db, q({ brandIds }))).toBe("lateral");
  });
});

describe("retailer__id (the named route buyswap's parameter)", () => {
  it("only that retailer's listings (buy, swap) or requests (sell), in every ordering, read once per page (ranked)", async () => {
    expect(await ids({ filters: { retailerId: seller2 } })).toEqual([L.d, L.a]);
    expect(await ids({ filters: { retailerId: seller } })).toEqual([L.b, L.c]);
    expect(await ids({ filters: { retailerId: seller }, ordering: "price" })).toEqual([L.b, L.c]);
    expect(await ids({ filters: { retailerId: seller }, ordering: "-sku" })).toEqual([L.c, L.b]);
    expect(await ids({ tab: "swap", filters: { retailerId: seller } })).toEqual([L.swap]);
    expect(await ids({ tab: "sell", filters: { retailerId: requestor } })).toEqual([R.r1]);
    expect(await choosePageShape(db, q({ filters: { retailerId: seller } }))).toBe("ranked");
    // Across brands: grouped by brand as asked; the same answer as the lateral shape.
    const query = q({ brandIds: [brandB, brandA], filters: { retailerId: seller } });
    const pages = await marketplacePage(db, query);
    expect([...pages.entries()].map(([b, p]) => [b, p.cards.map((c) => c.id)])).toEqual([
      [brandB, [L.brandB]],
      [brandA, [L.b, L.c]],
    ]);
    expect(await db.execute(marketplacePageSql(query, "ranked"))).toEqual(
      await db.execute(marketplacePageSql(query, "lateral")),
    );
  });

  it("combines with the other filters and paging; hidden rows stay hidden", async () => {
    expect(await ids({ filters: { retailerId: seller, sizes: ["XS"] } })).toEqual([L.b]);
    expect(await ids({ filters: { retailerId: seller2, search: `${tag}-D` } })).toEqual([L.d]);
    expect(await ids({ filters: { retailerId: noPayout } })).toEqual([]); // payoutneeded
    expect(await ids({ filters: { retailerId: inactive } })).toEqual([]); // inactive retailer
    expect(await ids({ tab: "sell", filters: { retailerId: viewer } })).toEqual([]); // own requests never shown
    expect(await ids({ filters: { retailerId: viewer } })).toEqual([L.own]); // own listings are (marked own)
    const first = (
      await marketplacePage(db, q({ limit: 1, filters: { retailerId: seller2 } }))
    ).get(brandA)!;
    expect([first.cards.map((c) => c.id), first.hasMore]).toEqual([[L.d], true]);
    const next = (
      await marketplacePage(db, q({ limit: 1, offset: 1, filters: { retailerId: seller2 } }))
    ).get(brandA)!;
    expect([next.cards.map((c) => c.id), next.hasMore]).toEqual([[L.a], false]);
  });

  it("anonymity: a retailer filtering by another retailer's id still gets no store name", async () => {
    const pages = await marketplacePage(db, q({ filters: { retailerId: seller } }));
    for (const c of pages.get(brandA)!.cards)
      expect([c.partyId, c.partyName]).toEqual([seller, null]);
    const text = new PgDialect().sqlToQuery(
      marketplacePageSql(q({ filters: { retailerId: seller } }), "ranked"),
    ).sql;
    expect(text).not.toMatch(/store_name|store_email|store_phone|address1/);
  });
});

describe("marketBrowseContext (brands and categories in one statement)", () => {
  it("a retailer's authorized, active brands by display name; staff as admin every active brand; the categories", async () => {
    const own = await marketBrowseContext(db, seller);
    expect(
      own.brands
        .map((b) => b.id)
        .filter((id) => id === brandA || id === brandB)
        .sort(),
    ).toEqual([brandA, brandB].sort());
    expect((await marketBrowseContext(db, viewer)).brands.map((b) => b.id)).toEqual([brandA]);
    const pendingBrand = (await createBrand(db)).id;
    await db.execute(
      sql`insert into retailer_brands (retailer_id, brand_id, status) values (${viewer}, ${pendingBrand}, 'pending')`,
    );
    const hidden = (await createBrand(db)).id;
    await authorizeBrand(db, viewer, hidden);
    await db.execute(sql`update brands set is_active = false where id = ${hidden}`);
    expect((await marketBrowseContext(db, viewer)).brands.map((b) => b.id)).toEqual([brandA]);
    const [row] = (await db.execute(
      sql`select name, display_name from brands where id = ${brandA}`,
    )) as unknown as {
      name: string;
      display_name: string;
    }[];
    expect((await marketBrowseContext(db, viewer)).brands[0].name).toBe(
      row.display_name || row.name,
    );
    const admin = await marketBrowseContext(db, null);
    const adminIds = admin.brands.map((b) => b.id);
    expect(adminIds).toEqual(expect.arrayContaining([brandA, brandB, pendingBrand]));
    expect(adminIds).not.toContain(hidden);
    const [cat] = (await db.execute(
      sql`insert into categories (name) values (${`Ctx ${tag}`}) returning id`,
    )) as unknown as {
      id: number;
    }[];
    const { categories } = await marketBrowseContext(db, viewer);
    expect(categories).toContainEqual({ id: cat.id, name: `Ctx ${tag}` });
    const byName = (await db.execute(
      sql`select id, name from categories order by lower(name), id limit 500`,
    )) as unknown as {
      id: number;
      name: string;
    }[];
    expect(categories).toEqual(byName.map((c) => ({ id: c.id, name: c.name })));
  });
});

describe("paging", () => {
  it("limit and offset per brand; hasMore from one row more", async () => {
    const first = await marketplacePage(db, q({ limit: 3, viewerRetailerId: seller2 }));
    expect(first.get(brandA)!.cards.map((c) => c.id)).toEqual([L.own, L.d, L.b]);
    expect(first.get(brandA)!.hasMore).toBe(true);
    const next = await marketplacePage(db, q({ limit: 3, offset: 3, viewerRetailerId: seller2 }));
    expect(next.get(brandA)!.cards.map((c) => c.id)).toEqual([L.a, L.c]);
    expect(next.get(brandA)!.hasMore).toBe(false);
    const exact = await marketplacePage(db, q({ limit: 5 }));
    expect(exact.get(brandA)!.hasMore).toBe(false);
    const ranked = await db.execute(
      marketplacePageSql(
        q({ limit: 2, offset: 1, brandIds: [brandA, brandB], filters: { search: tag } }),
        "ranked",
      ),
    );
    expect((ranked as unknown as { id: number }[]).map((r) => r.id)).toEqual([L.d, L.b, L.a]);
  });
});

describe("getMarketItem", () => {
  const item = (
    kind: "listing" | "request",
    id: number,
    over: { brandIds?: number[] | null; viewerRetailerId?: number | null } = {},
  ) =>
    getMarketItem(db, {
      kind,
      id,
      brandIds: over.brandIds === undefined ? [brandA] : over.brandIds,
      viewerRetailerId: over.viewerRetailerId === undefined ? viewer : over.viewerRetailerId,
      withNames: false,
    });

  it("a visible listing: sizes in the product's size order, price, images", async () => {
    const d = await item("listing", L.d);
    expect(d).toMatchObject({
      kind: "listing",
      id: L.d,
      listingType: "sell",
      priceCents: 4000,
      totalUnits: 7,
      sku: v.d.sku,
      partyId: seller2,
    });
    expect(d!.sizes).toEqual([
      ["M", 3],
      ["XL", 4],
    ]);
    expect(d!.images.length).toBeGreaterThan(0);
  });

  it("null when gone, sold out, hidden, or of a brand the viewer is not authorized for; own listings are marked", async () => {
    expect(await item("listing", 2_000_000_000)).toBeNull();
    expect(await item("listing", L.zero)).toBeNull();
    expect(await item("listing", L.payoutneeded)).toBeNull();
    expect(await item("listing", L.inactive)).toBeNull();
    expect(await item("listing", L.own)).toMatchObject({ own: true, partyId: viewer });
    expect(await item("listing", L.c)).toMatchObject({ own: false });
    expect(await item("listing", L.brandB)).toBeNull();
    expect(
      await item("listing", L.brandB, { brandIds: null, viewerRetailerId: null }),
    ).not.toBeNull();
    expect(await item("listing", -1)).toBeNull();
  });

  it("requests: own and zero hidden", async () => {
    expect(await item("request", R.r1)).toMatchObject({
      kind: "request",
      listingType: null,
      partyId: requestor,
    });
    expect(await item("request", R.own)).toBeNull();
    expect(await item("request", R.zero)).toBeNull();
    expect(await item("request", R.inactive)).toBeNull();
  });
});

/**
 * Matches (db/queries/matches.ts, ADR 0030): a listing made visible by any path becomes a match of the open
 * requests it fills and the saved searches it fits, under the marketplace's rules; one digest e-mail a day;
 * and the per-event statement's plan on a moderately large marketplace never scans listings, requests or
 * saved searches sequentially.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListingChecked, createRequestChecked } from "../../db/queries/listing-write";
import {
  activateListingsForRetailer,
  decrementListingUnits,
  restoreListingUnits,
} from "../../db/queries/listings";
import { hasSeqScan, type PlanNode } from "../../db/queries/marketplace";
import {
  listingsFillingRequest,
  listMatches,
  queueDueMatchDigests,
  queueMatchDigest,
  recordMatchesForListing,
  recordMatchesSql,
  saveSearch,
  unseenMatchCount,
} from "../../db/queries/matches";
import { updateMyListing } from "../../db/queries/my-listings";
import { setRetailerStatus } from "../../db/queries/retailer-status";
import { listingMatches, outboxEmails } from "../../db/schema";
import { DEFAULT_MARKETPLACE_TZ } from "../../domain/business-days";
import { matchDigestKey } from "../../domain/matches";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { tradingRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { dropBulkMarketplace, seedPlanScaleMarketplace, type BulkResult } from "./marketplace-bulk";
import { openTestDb } from "./helpers";

const handle = openTestDb(4);
const db = handle.db;
let brandId: number;
let variationId: number;
let otherVariationId: number;
let sku: string;

/** A listing of `sizes` by `providerId` written as the sell form writes it (overstock, terms accepted). */
const listAs = (
  providerId: number,
  sizes: Record<string, number>,
  opts: { variationId?: number; listingType?: "sell" | "swap" } = {},
) =>
  createListingChecked(db, {
    providerId,
    variationId: opts.variationId ?? variationId,
    listingType: opts.listingType ?? "sell",
    reason: "overstock",
    sizes,
    terms: true,
  });

beforeAll(async () => {
  brandId = (await createBrand(db)).id;
  const col = await createCollection(db, { brandId });
  sku = `MT-${uniqueToken().toUpperCase()}`;
  const p = await createProduct(db, {
    collectionId: col.id,
    sku,
    sizes: SIZE_RUNS.apparel,
    colors: 2,
  });
  variationId = p.variations[0].id;
  otherVariationId = p.variations[1].id;
});

afterAll(() => handle.close());

const retailer = (opts: Parameters<typeof tradingRetailer>[2] = {}) =>
  tradingRetailer(db, brandId, opts);

async function matchesOf(retailerId: number) {
  return db.select().from(listingMatches).where(eq(listingMatches.retailerId, retailerId));
}

/** The worker's sweep (every minute): the e-mails of the matches recorded so far. */
const sweep = () => queueDueMatchDigests(db, DEFAULT_MARKETPLACE_TZ);

async function digestsOf(retailerId: number) {
  return db
    .select()
    .from(outboxEmails)
    .where(sql`${outboxEmails.dedupeKey} like ${`match-digest:${retailerId}:%`}`);
}

describe("recordMatchesForListing", () => {
  it("a new visible listing matches the requests it fills, not the others; one digest e-mail listing it", async () => {
    const wants = await retailer();
    const wantsOtherSize = await retailer();
    const unauthorized = await retailer();
    const inactive = await retailer();
    await createRequest(db, { requestorId: wants.id, variationId, sizes: { M: 2 } });
    await createRequest(db, { requestorId: wantsOtherSize.id, variationId, sizes: { XL: 2 } });
    await createRequest(db, { requestorId: unauthorized.id, variationId, sizes: { M: 1 } });
    await db.execute(
      sql`update retailer_brands set status = 'removed' where retailer_id = ${unauthorized.id}`,
    );
    await createRequest(db, { requestorId: inactive.id, variationId, sizes: { M: 1 } });
    await db.execute(sql`update retailers set status = 'inactive' where id = ${inactive.id}`);
    const provider = await retailer();
    const res = await listAs(provider.id, { M: 1, S: 3 }, { listingType: "swap" });
    expect(res.ok).toBe(true);
    const listingId = res.ok ? res.listing.id : 0;
    expect((await matchesOf(wants.id)).map((m) => m.listingId)).toEqual([listingId]);
    for (const r of [wantsOtherSize, unauthorized, inactive, provider])
      expect(await matchesOf(r.id)).toEqual([]);
    // The match alone queues no e-mail (nothing on the click's path); the worker's sweep does.
    expect(await digestsOf(wants.id)).toEqual([]);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    const mails = await digestsOf(wants.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].bodyText).toContain(`retailer-00${provider.id}`);
    expect(mails[0].bodyText).toContain(`/listing/swap/${listingId}`);
    expect(mails[0].bodyText).not.toContain(provider.storeName);
    expect(await unseenMatchCount(db, wants.id)).toBe(1);
    // Idempotent.
    expect(await db.transaction((tx) => recordMatchesForListing(tx, listingId))).toEqual([]);
  });

  it("a second match the same day rewrites the queued e-mail (one a day); once sent, the next waits", async () => {
    const wants = await retailer();
    await createRequest(db, {
      requestorId: wants.id,
      variationId: otherVariationId,
      sizes: { S: 1 },
    });
    await createRequest(db, { requestorId: wants.id, variationId, sizes: { S: 1 } });
    const p1 = await retailer();
    const p2 = await retailer();
    const a = await listAs(p1.id, { S: 1 }, { variationId: otherVariationId });
    const b = await listAs(p2.id, { S: 2 });
    await sweep();
    const mails = await digestsOf(wants.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("2 new matches for your requests");
    expect(mails[0].bodyText).toContain(`/listing/buy/${a.ok ? a.listing.id : 0}`);
    expect(mails[0].bodyText).toContain(`/listing/buy/${b.ok ? b.listing.id : 0}`);
    await db.update(outboxEmails).set({ status: "sent" }).where(eq(outboxEmails.id, mails[0].id));
    const p3 = await retailer();
    await listAs(p3.id, { S: 2 });
    await sweep(); // today's e-mail has gone: the sweep leaves this retailer until tomorrow
    expect(await digestsOf(wants.id)).toHaveLength(1);
    expect((await matchesOf(wants.id)).filter((m) => m.digestKey === null)).toHaveLength(1);
    // Tomorrow's digest takes it.
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await queueDueMatchDigests(db, DEFAULT_MARKETPLACE_TZ, tomorrow)).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      await db.transaction((tx) =>
        queueMatchDigest(tx, wants.id, DEFAULT_MARKETPLACE_TZ, tomorrow),
      ),
    ).toBe("updated");
    const next = (await digestsOf(wants.id)).find(
      (m) => m.dedupeKey === matchDigestKey(wants.id, tomorrow, DEFAULT_MARKETPLACE_TZ),
    );
    expect(next?.subject).toBe("1 new match for your requests");
  });

  it("the e-mail's day is the marketplace's: 18:30 and 19:30 in New York, across UTC's midnight, are one day; 00:30 the next", async () => {
    const zone = "America/New_York";
    const wants = await retailer();
    await createRequest(db, { requestorId: wants.id, variationId, sizes: { M: 1 } });
    // A new match, left for this test's own days (not in an e-mail of today's, should a sweep have run).
    const match = async () => {
      const p = await retailer();
      await listAs(p.id, { M: 1 });
      await db
        .delete(outboxEmails)
        .where(
          sql`${outboxEmails.dedupeKey} like ${`match-digest:${wants.id}:%`} and ${outboxEmails.status} = 'queued'`,
        );
      await db
        .update(listingMatches)
        .set({ digestKey: null })
        .where(
          sql`${listingMatches.retailerId} = ${wants.id} and ${listingMatches.digestKey} not like ${`match-digest:${wants.id}:2030-%`}`,
        );
    };
    const queue = (at: string) =>
      db.transaction((tx) => queueMatchDigest(tx, wants.id, zone, new Date(at)));
    await match();
    expect(await queue("2030-01-15T23:30:00Z")).toBe("queued"); // 18:30 on the 15th in New York
    await db
      .update(outboxEmails)
      .set({ status: "sent" })
      .where(sql`${outboxEmails.dedupeKey} like ${`match-digest:${wants.id}:%`}`);
    await match();
    expect(await queue("2030-01-16T00:30:00Z")).toBe("none"); // 19:30 on the 15th (the 16th in UTC): that day's e-mail has gone
    expect(await queue("2030-01-16T04:30:00Z")).toBe("none"); // 23:30 on the 15th
    expect(await queue("2030-01-16T05:30:00Z")).toBe("queued"); // 00:30 on the 16th: the next day's e-mail
    expect((await digestsOf(wants.id)).map((m) => [m.dedupeKey, m.subject]).sort()).toEqual([
      [`match-digest:${wants.id}:2030-01-15`, "1 new match for your requests"],
      [`match-digest:${wants.id}:2030-01-16`, "1 new match for your requests"],
    ]);
  });

  it("hidden listings match nothing until payout makes them visible; units back and a re-list match too", async () => {
    const wants = await retailer();
    await createRequest(db, { requestorId: wants.id, variationId, sizes: { L: 1 } });
    const noPayout = await retailer({ payout: false });
    const hidden = await listAs(noPayout.id, { L: 1 });
    expect(hidden.ok && hidden.listing.status).toBe("payoutneeded");
    expect(await matchesOf(wants.id)).toEqual([]);
    await db.execute(
      sql`update retailers set bt_merchant_id = ${`acct_${uniqueToken()}`} where id = ${noPayout.id}`,
    );
    await db.transaction((tx) => activateListingsForRetailer(tx, noPayout.id));
    expect((await matchesOf(wants.id)).map((m) => m.listingId)).toEqual([
      hidden.ok ? hidden.listing.id : 0,
    ]);

    const later = await retailer();
    await createRequest(db, { requestorId: later.id, variationId, sizes: { XS: 1 } });
    const p = await retailer();
    const l = await createListing(db, { providerId: p.id, variationId, sizes: { XS: 1 } });
    expect(await decrementListingUnits(db, l.id, { XS: 1 })).toBe(true);
    expect(await restoreListingUnits(db, l.id, { XS: 1 })).toBe(true);
    expect((await matchesOf(later.id)).map((m) => m.listingId)).toEqual([l.id]);

    const relist = await retailer();
    await createRequest(db, { requestorId: relist.id, variationId, sizes: { XL: 1 } });
    const q = await retailer();
    const m = await createListing(db, { providerId: q.id, variationId, sizes: { S: 1 } });
    expect(await matchesOf(relist.id)).toEqual([]);
    await updateMyListing(db, {
      id: m.id,
      ownerId: q.id,
      sizes: { S: 1, XL: 2 },
      reason: "overstock",
      modifiedReason: "none",
    });
    expect((await matchesOf(relist.id)).map((x) => x.listingId)).toEqual([m.id]);
  });

  it("a retailer made active again: its listings match", async () => {
    const wants = await retailer();
    await createRequest(db, {
      requestorId: wants.id,
      variationId: otherVariationId,
      sizes: { XL: 1 },
    });
    const p = await retailer({ status: "inactive" });
    const l = await createListing(db, {
      providerId: p.id,
      variationId: otherVariationId,
      sizes: { XL: 1 },
    });
    await db.transaction((tx) => recordMatchesForListing(tx, l.id));
    expect(await matchesOf(wants.id)).toEqual([]);
    await setRetailerStatus(db, p.id, "active", {
      signInUrl: "http://localhost/signin",
      supportEmail: "support@example.test",
    });
    expect((await matchesOf(wants.id)).map((m) => m.listingId)).toEqual([l.id]);
  });

  it("a saved search is alerted by a listing that fits it (brand, sizes, text), once even when a request matches too", async () => {
    const saver = await retailer();
    const saved = await db.transaction((tx) =>
      saveSearch(tx, saver.id, {
        brandId,
        categoryId: null,
        sizes: ["M"],
        search: sku.toLowerCase(),
      }),
    );
    expect(saved.ok).toBe(true);
    const p = await retailer();
    const miss = await createListing(db, {
      providerId: p.id,
      variationId: otherVariationId,
      sizes: { L: 1 },
    });
    await db.transaction((tx) => recordMatchesForListing(tx, miss.id));
    expect(await matchesOf(saver.id)).toEqual([]);
    await createRequest(db, { requestorId: saver.id, variationId, sizes: { M: 1 } });
    const hit = await listAs(p.id, { M: 1 });
    const rows = await matchesOf(saver.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ listingId: hit.ok ? hit.listing.id : 0, savedSearchId: null });
    const list = await listMatches(db, saver.id, { limit: 10, offset: 0 });
    expect(list.items[0]).toMatchObject({ source: "request", available: true, providerId: p.id });
    // Not authorized for another brand: refused.
    const other = (await createBrand(db)).id;
    expect(
      await db.transaction((tx) =>
        saveSearch(tx, saver.id, { brandId: other, categoryId: null, sizes: [], search: "" }),
      ),
    ).toEqual({
      ok: false,
      reason: "unknown_brand",
    });
  });

  it("a posted request's filling listings are found at once and recorded as seen matches", async () => {
    const p = await retailer();
    const l = await createListing(db, {
      providerId: p.id,
      variationId: otherVariationId,
      sizes: { XS: 2 },
    });
    const wants = await retailer();
    expect(
      (await listingsFillingRequest(db, wants.id, otherVariationId, { XS: 1 })).map((x) => x.id),
    ).toContain(l.id);
    expect(
      (await listingsFillingRequest(db, wants.id, otherVariationId, { XL: 1 })).map((x) => x.id),
    ).not.toContain(l.id);
    const res = await createRequestChecked(db, {
      requestorId: wants.id,
      variationId: otherVariationId,
      reason: "sold_out",
      sizes: { XS: 1 },
    });
    expect(res.ok).toBe(true);
    const rows = await matchesOf(wants.id);
    expect(rows.map((r) => r.listingId)).toContain(l.id);
    expect(rows.every((r) => r.seenAt !== null && r.digestKey === "shown-in-wizard")).toBe(true);
    expect(await digestsOf(wants.id)).toEqual([]);
  });
});

describe("the per-event statement's plan", () => {
  let bulk: BulkResult;
  beforeAll(async () => {
    bulk = await seedPlanScaleMarketplace(handle.sql);
    await handle.sql`
      insert into saved_searches (retailer_id, brand_id, sizes, search)
      select r, ${bulk.brandIds[0]}::int + (g % 12), '{M}', '' from generate_series(1, 3000) g, unnest(${bulk.retailerIds.slice(0, 1)}::int[]) r`;
    await handle.sql`analyze listings, listing_requests, saved_searches, retailer_brands`;
  }, 120_000);
  afterAll(async () => {
    if (bulk) await dropBulkMarketplace(handle.sql, bulk);
  });

  it("reads requests and saved searches through indexes from the one listing (no Seq Scan)", async () => {
    const [l] =
      (await handle.sql`select id from listings where brand_id = any(${bulk.brandIds}::int[]) and status = 'active' limit 1`) as unknown as {
        id: number;
      }[];
    const rows = (await db.execute(
      sql`explain (format json) ${recordMatchesSql(l.id)}`,
    )) as unknown as {
      "QUERY PLAN": [{ Plan: PlanNode }];
    }[];
    const plan = rows[0]["QUERY PLAN"][0].Plan;
    expect(
      hasSeqScan(plan, [
        "listings",
        "listing_requests",
        "saved_searches",
        "retailer_brands",
        "retailers",
      ]),
    ).toBe(false);
  });
});

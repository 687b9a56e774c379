import { describe, expect, it } from "vitest";
import {
  DeleteSavedSearchSchema,
  fillsRequest,
  fitsSavedSearch,
  MATCH_MESSAGES,
  matchDigestKey,
  matchDigestMail,
  matchHref,
  SavedSearchFormSchema,
  type DigestItem,
  type SavedSearchRule,
  type Sizes,
} from "../../../domain/matches";

const FILL_CASES: [Sizes, Sizes, boolean, string][] = [
  [{ M: 2 }, { M: 1 }, true, "the requested size has units"],
  [{ S: 1, M: 0 }, { M: 3 }, false, "the requested size is listed at 0"],
  [{ L: 4 }, { M: 3 }, false, "no requested size listed"],
  [{ S: 1, L: 1 }, { M: 3, L: 1 }, true, "one of several requested sizes"],
  [{ M: 5 }, { M: 0 }, false, "a size requested at 0 is not requested"],
  [{}, { M: 1 }, false, "an empty listing"],
  [{ constructor: 1 }, { toString: 1 }, false, "Object members are not sizes"],
];

describe("fillsRequest", () => {
  it.each(FILL_CASES)("%j fills %j: %s (%s)", (listing, wanted, expected) => {
    expect(fillsRequest(listing, wanted)).toBe(expected);
  });
});

describe("fitsSavedSearch", () => {
  const listing = { brandId: 1, categoryId: 7, sizes: { S: 0, M: 2 }, skuKey: "abc-123-blk" };
  const search: SavedSearchRule = { brandId: 1, categoryId: null, sizes: [], search: "" };
  const cases: [Partial<SavedSearchRule>, boolean, string][] = [
    [{}, true, "brand only"],
    [{ brandId: 2 }, false, "another brand"],
    [{ categoryId: 7 }, true, "same category"],
    [{ categoryId: 8 }, false, "another category"],
    [{ sizes: ["M", "L"] }, true, "a size with units"],
    [{ sizes: ["S"] }, false, "a size listed at 0"],
    [{ search: "123" }, true, "code contains the text"],
    [{ search: "999" }, false, "code does not contain it"],
  ];
  it.each(cases)("%j → %s (%s)", (over, expected) => {
    expect(fitsSavedSearch(listing, { ...search, ...over })).toBe(expected);
  });
});

describe("saved-search form", () => {
  const form = (o: Record<string, string>) =>
    SavedSearchFormSchema.safeParse({ intent: "save", ...o });
  it.each([
    [{ brand: "3" }, { brand: 3, category: undefined, sizes: [], q: "" }],
    [
      { brand: "3", category: "9", sizes: " S, M ,S,, L ", q: "AbC-1" },
      { brand: 3, category: 9, sizes: ["S", "M", "L"], q: "abc-1" },
    ],
  ])("accepts %j", (input, value) => {
    const r = form(input);
    expect(r.success && r.data).toEqual({ intent: "save", ...value });
  });
  it.each([
    [{}, MATCH_MESSAGES.brandRequired],
    [{ brand: "x" }, MATCH_MESSAGES.brandRequired],
    [{ brand: "3", category: "-1" }, MATCH_MESSAGES.unknownCategory],
    [{ brand: "3", q: "ab" }, MATCH_MESSAGES.textTooShort],
    [{ brand: "3", q: "x".repeat(61) }, MATCH_MESSAGES.textTooLong],
    [
      { brand: "3", sizes: Array.from({ length: 31 }, (_, i) => `S${i}`).join(",") },
      MATCH_MESSAGES.sizesInvalid,
    ],
    [{ brand: "3", sizes: "x".repeat(41) }, MATCH_MESSAGES.sizesInvalid],
  ])("refuses %j with its message", (input, message) => {
    const r = form(input as Record<string, string>);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain(message);
  });
  it("delete needs an id", () => {
    expect(DeleteSavedSearchSchema.safeParse({ intent: "delete", id: "0" }).success).toBe(false);
    expect(DeleteSavedSearchSchema.safeParse({ intent: "delete", id: "12" })).toMatchObject({
      success: true,
      data: { id: 12 },
    });
  });
});

describe("digest", () => {
  const item: DigestItem = {
    listingId: 41,
    listingType: "swap",
    providerId: 7,
    brandName: "Acme",
    sku: "AC-1",
    color: "Navy",
    productName: "Parka",
    totalUnits: 1,
    source: "request",
  };
  it("names the other retailer only as retailer-00{id} and links to the listing's page", () => {
    const m = matchDigestMail(
      [item, { ...item, listingId: 42, listingType: "sell", source: "search", totalUnits: 3 }],
      2,
      "https://x.test/",
    );
    expect(m.subject).toBe("2 new matches for your requests");
    expect(m.text).toContain(
      "listed by retailer-007 (fills your request). To swap: https://x.test/listing/swap/41",
    );
    expect(m.text).toContain(
      "3 units listed by retailer-007 (fits your saved search). To buy: https://x.test/listing/buy/42",
    );
    expect(m.text).toContain("https://x.test/alerts/matches");
  });
  it("counts what it does not list", () => {
    expect(matchDigestMail([item], 60, "http://h").text).toContain(
      "…and 59 more on your Matches tab.",
    );
    expect(matchDigestMail([item], 1, "http://h").subject).toBe("1 new match for your requests");
  });
  it("links a match to its buy or swap page", () => {
    expect(matchHref("sell", 3)).toBe("/listing/buy/3");
    expect(matchHref("swap", 4)).toBe("/listing/swap/4");
  });
});

describe("matchDigestKey: one key per retailer and marketplace day (MARKETPLACE_TZ)", () => {
  // Around a UTC midnight, 23:30 and 00:30 local on each side of it, in zones behind, ahead of and at UTC
  // (November: New York UTC-5, Los Angeles UTC-8, Tokyo UTC+9, Auckland UTC+13).
  it.each([
    ["America/New_York", "2026-11-27T04:30:00Z", "2026-11-26"], // 23:30 on the 26th, the UTC day already the 27th
    ["America/New_York", "2026-11-27T05:30:00Z", "2026-11-27"], // 00:30 on the 27th
    ["America/New_York", "2026-11-27T23:30:00Z", "2026-11-27"], // 18:30: the UTC day is the same
    ["America/New_York", "2026-11-28T00:30:00Z", "2026-11-27"], // 19:30 on the 27th, the UTC day already the 28th
    ["America/Los_Angeles", "2026-11-28T07:30:00Z", "2026-11-27"], // 23:30 on the 27th
    ["America/Los_Angeles", "2026-11-28T08:30:00Z", "2026-11-28"], // 00:30 on the 28th
    ["Asia/Tokyo", "2026-11-27T14:30:00Z", "2026-11-27"], // 23:30 on the 27th
    ["Asia/Tokyo", "2026-11-27T15:30:00Z", "2026-11-28"], // 00:30 on the 28th, the UTC day still the 27th
    ["Pacific/Auckland", "2026-11-27T10:30:00Z", "2026-11-27"], // 23:30 on the 27th
    ["Pacific/Auckland", "2026-11-27T11:30:00Z", "2026-11-28"], // 00:30 on the 28th
    ["UTC", "2026-11-27T23:30:00Z", "2026-11-27"],
    ["UTC", "2026-11-28T00:30:00Z", "2026-11-28"],
  ])("%s at %s is the day %s", (zone, at, day) => {
    expect(matchDigestKey(5, new Date(at), zone)).toBe(`match-digest:5:${day}`);
  });
});

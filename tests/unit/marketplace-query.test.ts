import { describe, expect, it } from "vitest";
import {
  filtersOf,
  itemHref,
  marketHref,
  parseMarketQuery,
  type MarketQuery,
} from "../../app/utils/marketplace-query";

function parse(qs: string, pathBrand?: string) {
  return parseMarketQuery(new URLSearchParams(qs), pathBrand);
}
function ok(qs: string, pathBrand?: string): MarketQuery {
  const r = parse(qs, pathBrand);
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.query;
}
function bad(qs: string, pathBrand?: string): string {
  const r = parse(qs, pathBrand);
  if (r.ok) throw new Error(`expected an error for ${qs}`);
  return r.message;
}

describe("parseMarketQuery", () => {
  it("defaults: 20 per brand from the start, Most Recent", () => {
    expect(ok("")).toEqual({ offset: 0, limit: 20, viewAll: false, ordering: "recent" });
    // The no-parameter shortcut gives what the schema gives for blank values.
    expect(ok("utm_source=x")).toEqual(ok("offset=&ordering="));
  });

  it("view all: 100 per brand, one brand", () => {
    expect(ok("viewAll=on&brand=7")).toMatchObject({ viewAll: true, brand: 7, limit: 100 });
    expect(ok("viewAll=on&brand=7&limit=140")).toMatchObject({ limit: 140 });
    expect(bad("viewAll=on")).toMatch(/brand/);
    expect(bad("viewAll=yes&brand=1")).toBe('viewAll must be "on".');
  });

  it("reads every filter of the marketplace", () => {
    expect(
      ok(
        "offset=40&limit=10&category=3&brand=2&sizes=S,%20M,,L&variantId=9&id=11&units=4&search=%20rl-10%20&ordering=-price",
      ),
    ).toEqual({
      offset: 40,
      limit: 10,
      viewAll: false,
      category: 3,
      brand: 2,
      sizes: ["S", "M", "L"],
      variantId: 9,
      id: 11,
      units: 4,
      search: "rl-10",
      ordering: "-price",
    });
  });

  it("blank values are absent; units 0 is no filter; unknown parameters are ignored", () => {
    expect(ok("category=&brand=&sizes=&units=0&search=%20%20&ordering=&utm_source=x")).toEqual({
      offset: 0,
      limit: 20,
      viewAll: false,
      ordering: "recent",
    });
  });

  it("the five orderings", () => {
    for (const o of ["recent", "sku", "-sku", "price", "-price"])
      expect(ok(`ordering=${o}`).ordering).toBe(o);
    expect(bad("ordering=created")).toMatch(
      /ordering must be one of recent, sku, -sku, price, -price/,
    );
  });

  it("bad numbers get a clear message", () => {
    expect(bad("limit=abc")).toBe("limit must be a whole number.");
    expect(bad("limit=0")).toBe("limit must be a positive number.");
    expect(bad("limit=5000")).toBe("limit must be at most 1000.");
    expect(bad("offset=-1")).toBe("offset must be 0 or more.");
    expect(bad("offset=1.5")).toBe("offset must be a whole number.");
    expect(bad("brand=x")).toBe("brand must be a whole number.");
    expect(bad("id=99999999999")).toMatch(/id must be at most/);
    expect(bad("units=-2")).toBe("units must be 0 or more.");
    expect(bad(`search=${"x".repeat(61)}`)).toMatch(/at most 60/);
    expect(bad(`sizes=${"x".repeat(41)}`)).toMatch(/at most 40 characters/);
    expect(bad("brand=1&brand=2")).toBe("Give brand only once.");
  });

  it("control characters in a parameter are refused with the message forms give (domain/text.ts)", () => {
    for (const qs of ["search=a%07b", "search=%1b%5B31m", "sizes=M,%7F", "search=a%09b"])
      expect(bad(qs)).toMatch(/^(search|sizes): Remove control characters from this field\.$/);
    expect(bad("search=a%C2%85b")).toBe("search: Remove control characters from this field.");
    expect(ok("search=Zo%C3%AB").search).toBe("Zoë");
  });

  it("retailer__id (the named route buyswap): one retailer's listings or requests", () => {
    expect(ok("retailer__id=12").retailerId).toBe(12);
    expect(ok("retailer__id=").retailerId).toBeUndefined();
    expect(bad("retailer__id=abc")).toBe("retailer__id must be a whole number.");
    expect(bad("retailer__id=0")).toBe("retailer__id must be a positive number.");
    expect(bad("retailer__id=1&retailer__id=2")).toBe("Give retailer__id only once.");
    const q = ok("brand=3&retailer__id=12&ordering=price");
    expect(marketHref("swap", q)).toBe("/swap/?brand=3&retailer__id=12&ordering=price");
    expect(ok(marketHref("swap", q).split("?")[1])).toEqual(q);
    // It carries into "View All" and across brands like the other filters.
    expect(filtersOf(q).retailerId).toBe(12);
  });

  it("the /buy/{brand} path segment is the brand", () => {
    expect(ok("", "5").brand).toBe(5);
    expect(ok("brand=5", "5").brand).toBe(5);
    expect(bad("brand=4", "5")).toMatch(/Two different brands/);
    expect(bad("", "abc")).toBe("brand must be a whole number.");
  });
});

describe("marketHref", () => {
  it("leaves defaults out and round-trips", () => {
    expect(marketHref("buy", {})).toBe("/buy/");
    expect(marketHref("swap", { ordering: "recent", offset: 0, limit: 20 })).toBe("/swap/");
    const q = ok("viewAll=on&brand=3&limit=140&search=abc&ordering=sku&sizes=S,M&units=2");
    const href = marketHref("sell", q);
    expect(href).toBe(
      "/sell/?viewAll=on&brand=3&search=abc&ordering=sku&sizes=S%2CM&units=2&limit=140",
    );
    expect(ok(href.split("?")[1])).toEqual(q);
  });

  it("filtersOf keeps filters, drops paging, brand and view-all", () => {
    const q = ok("viewAll=on&brand=3&limit=140&offset=5&search=abc&ordering=sku");
    expect(filtersOf(q)).toEqual({
      search: "abc",
      ordering: "sku",
      category: undefined,
      sizes: undefined,
      units: undefined,
      variantId: undefined,
      id: undefined,
    });
  });

  it("cards open /listing/{tab}/{id}", () => {
    expect(itemHref("buy", 12)).toBe("/listing/buy/12");
    expect(itemHref("sell", 3)).toBe("/listing/sell/3");
  });
});

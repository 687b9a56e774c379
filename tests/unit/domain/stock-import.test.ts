/** Stock file import, the pure half (domain/stock-import.ts): formulas, mapping, line checks, guesses, plans. */
import { describe, expect, it } from "vitest";
import { WIZARD_MESSAGES } from "../../../domain/listing-forms";
import { MARKDOWN_MESSAGES } from "../../../domain/markdown";
import {
  autoMapping,
  checkLine,
  codeSimilarity,
  IN_FLIGHT_KEPT,
  isFormulaText,
  linesFromRows,
  mappingFits,
  planVariation,
  planWithdrawal,
  priceProblem,
  oneLetterOff,
  rankGuesses,
  refuseFormulas,
  STOCK_MSG,
  type CheckedLine,
} from "../../../domain/stock-import";

describe("formulas", () => {
  it.each([
    ["=SUM(A1)", true],
    ["@cmd", true],
    ["+HYPERLINK(1)", true],
    ["-5", false],
    ["ABC-1", false],
    ["+1", false],
    // The DDE payload: a sign and a digit first, then a formula a spreadsheet runs.
    ["-2+3+cmd|' /C calc'!A0", true],
    ["+1+1", true],
    ["-1*2", true],
    ["=1", true],
    ["\t=cmd|' /C calc'!A0", true],
    // Plain numbers with a sign stay numbers.
    ["-12.50", false],
    ["+0.5", false],
    ["-.5", false],
    ["-1,234.00", false],
    ["+1e3", false],
    ["42", false],
    ["", false],
    // A sign alone is text a spreadsheet shows as it is (a "-" for "none").
    ["-", false],
    ["+", false],
  ])("%j → %s", (s, f) => expect(isFormulaText(s)).toBe(f));

  it("names the line of the first formula", () => {
    expect(() => refuseFormulas([["a"], ["ok"], ["=1+1"]])).toThrow(STOCK_MSG.formula(3));
  });
});

describe("mapping", () => {
  it.each([
    [["Product Code", "Size", "Qty"], { code: "Product Code", size: "Size", units: "Qty" }],
    [
      ["UPC", "size*", "On hand", "Price", "Type", "Reason"],
      {
        code: "UPC",
        size: "size*",
        units: "On hand",
        price: "Price",
        listing_type: "Type",
        reason: "Reason",
      },
    ],
    [["Item", "Sz", "Count"], null],
  ])("%j", (headers, mapping) => {
    expect(autoMapping(headers)).toEqual(mapping);
  });

  it("a saved mapping fits only a file that has its columns", () => {
    const m = { code: "Article", size: "Gr", units: "Stk" };
    expect(mappingFits(m, ["Article", "Gr", "Stk", "x"])).toBe(true);
    expect(mappingFits(m, ["Article", "Gr"])).toBe(false);
    expect(mappingFits(null, ["Article"])).toBe(false);
  });

  it("lines through the mapping, numbered as in the file", () => {
    expect(
      linesFromRows(
        [
          ["Units", "Code", "Size"],
          ["3", "A1", "M"],
        ],
        { code: "Code", size: "Size", units: "Units" },
      ),
    ).toEqual([{ line: 2, values: { code: "A1", size: "M", units: "3" } }]);
  });
});

describe("checkLine", () => {
  const line = (values: Record<string, string>) => checkLine({ line: 2, values });

  it("a markdown cell (docs/product/markdowns.md): read as the form reads it; a swap line or a bad cell is refused", () => {
    const base = { code: "A1", size: "M", units: "2" };
    expect(line({ ...base, markdown: "10%/7/60%" })).toMatchObject({
      ok: true,
      value: { markdown: { stepKind: "percent", stepValue: 10, everyDays: 7, floorValue: 60 } },
    });
    expect(line({ ...base, markdown: "10%/7/60%", listing_type: "swap" })).toEqual({
      ok: false,
      problems: [MARKDOWN_MESSAGES.notSellListing],
    });
    expect(line({ ...base, markdown: "soon" })).toEqual({
      ok: false,
      problems: [MARKDOWN_MESSAGES.cell],
    });
  });
  it("a good line, with price, type and reason (label or value)", () => {
    expect(
      line({
        code: "A1",
        size: "M",
        units: "4",
        price: "$42.50",
        listing_type: "Swap",
        reason: "End of season",
      }),
    ).toEqual({
      ok: true,
      value: {
        line: 2,
        code: "A1",
        size: "M",
        units: 4,
        priceCents: 4250,
        listingType: "swap",
        reason: "end_of_season",
      },
    });
  });
  it.each([
    [{ size: "M", units: "1" }, "No product code or UPC/EAN."],
    [{ code: "A1", units: "1" }, "No size."],
    [{ code: "A1", size: "M", units: "-1" }, WIZARD_MESSAGES.sizeWholeNumber],
    [{ code: "A1", size: "M", units: "1.5" }, WIZARD_MESSAGES.sizeWholeNumber],
    [{ code: "A1", size: "M", units: "100001" }, WIZARD_MESSAGES.sizeTooLarge],
    [
      { code: "A1", size: "M", units: "1", price: "cheap" },
      '"cheap" is not a price in dollars, like 42.50.',
    ],
    [
      { code: "A1", size: "M", units: "1", listing_type: "rent" },
      WIZARD_MESSAGES.chooseListingType,
    ],
  ])("%j → %s", (values, message) => {
    const r = line(values);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems).toContain(message);
  });
});

describe("guesses", () => {
  const c = (variationId: number, sku: string, productSku = sku) => ({
    variationId,
    sku,
    productSku,
    productName: "P",
    color: "Black",
  });
  it("codes alike: normalised equal 1, contained high, unrelated low", () => {
    expect(codeSimilarity("abc-123", "ABC123")).toBe(1);
    expect(codeSimilarity("ABC123", "ABC123BLK")).toBeGreaterThan(0.8);
    expect(codeSimilarity("ABC123", "XYZ789")).toBeLessThan(0.2);
  });
  it("ranked best first, at most three, none below the floor", () => {
    const ranked = rankGuesses("PK1000", [
      c(1, "ZZ9999"),
      c(2, "PK1000-NVY"),
      c(3, "PK1001"),
      c(4, "PK1000-BLK"),
      c(5, "PK2000"),
    ]);
    expect(ranked.map((r) => r.variationId)).toEqual([4, 2, 3]);
    expect(rankGuesses("PK1000", [c(1, "ZZ9999")])).toEqual([]);
  });
  it("a one-letter typo ranks the one-letter neighbour first, before the other colours of its product", () => {
    const v = (variationId: number, sku: string) => ({
      ...c(variationId, sku),
      productSku: "IM-909",
    });
    const ranked = rankGuesses("IM-909-DX", [
      v(1, "IM-909-BK"),
      v(2, "IM-909-AB"),
      v(3, "IM-909-DI"),
      v(4, "IM-909-NV"),
    ]);
    expect(ranked[0].variationId).toBe(3);
    expect(rankGuesses("IM-909-ID", [v(1, "IM-909-BK"), v(3, "IM-909-DI")])[0].variationId).toBe(3);
  });
  it("one letter off: a substitution, an insertion, a deletion or two neighbours swapped", () => {
    expect(oneLetterOff("IM909DX", "IM909DI")).toBe(true);
    expect(oneLetterOff("IM909D", "IM909DI")).toBe(true);
    expect(oneLetterOff("IM909DIX", "IM909DI")).toBe(true);
    expect(oneLetterOff("IM909ID", "IM909DI")).toBe(true);
    expect(oneLetterOff("IM909XY", "IM909DI")).toBe(false);
    expect(oneLetterOff("IM909DI", "IM909DI")).toBe(false);
  });
});

describe("plans", () => {
  const l = (size: string, units: number, over: Partial<CheckedLine> = {}): CheckedLine => ({
    line: 2,
    code: "A1",
    size,
    units,
    priceCents: null,
    listingType: null,
    reason: null,
    ...over,
  });
  const existing = {
    id: 9,
    sizes: { S: 1, M: 2, L: 0 },
    listingType: "sell" as const,
    reason: "overstock",
    inFlight: 0,
  };
  const run = ["S", "M", "L"];
  it.each([
    [
      "a new listing: every size of the run",
      [l("M", 3)],
      null,
      { kind: "create", sizes: { S: 0, M: 3, L: 0 }, listingType: "sell", reason: "overstock" },
    ],
    ["0 units and no listing: nothing", [l("M", 0)], null, { kind: "nothing" }],
    [
      "the same units: unchanged",
      [l("S", 1), l("M", 2)],
      existing,
      { kind: "unchanged", listingId: 9 },
    ],
    [
      "other units: update, a size not in the file is 0",
      [l("M", 5)],
      existing,
      {
        kind: "update",
        listingId: 9,
        sizes: { S: 0, M: 5, L: 0 },
        listingType: "sell",
        reason: "overstock",
      },
    ],
    [
      "a new type: update",
      [l("S", 1, { listingType: "swap" }), l("M", 2)],
      existing,
      {
        kind: "update",
        listingId: 9,
        sizes: { S: 1, M: 2, L: 0 },
        listingType: "swap",
        reason: "overstock",
      },
    ],
    ["0 units: withdraw", [l("S", 0)], existing, { kind: "withdraw", listingId: 9 }],
    [
      "0 units, an order in flight: kept",
      [l("S", 0)],
      { ...existing, inFlight: 1 },
      { kind: "kept", listingId: 9, message: IN_FLIGHT_KEPT },
    ],
  ])("%s", (_n, lines, ex, plan) => {
    expect(planVariation(run, lines, ex)).toEqual(plan);
  });
  it("absent from a whole-surplus file: withdrawn unless in flight", () => {
    expect(planWithdrawal(existing)).toEqual({ kind: "withdraw", listingId: 9 });
    expect(planWithdrawal({ ...existing, inFlight: 2 }).kind).toBe("kept");
  });
  it("the price rule: none or the catalogue's price passes", () => {
    expect(priceProblem(null, 4250)).toBeNull();
    expect(priceProblem(4250, 4250)).toBeNull();
    expect(priceProblem(3999, 4250)).toBe(
      "The price $39.99 is not the catalogue's wholesale price $42.50: listings sell at the catalogue price.",
    );
  });
});

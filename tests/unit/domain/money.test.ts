import { describe, expect, it } from "vitest";
import {
  basisPointsOf,
  centsToDecimalString,
  CentsSchema,
  dollarsInputSchema,
  formatCents,
  isCents,
  MAX_CENTS,
  multiplyCents,
  parseDollars,
  parseDollarsOrThrow,
  percentOf,
  sumBy,
  sumCents,
} from "../../../domain/money";

describe("formatCents", () => {
  it.each([
    [0, "$0.00"],
    [1, "$0.01"],
    [10, "$0.10"],
    [99, "$0.99"],
    [100, "$1.00"],
    [1250, "$12.50"],
    [1975, "$19.75"],
    [99999, "$999.99"],
    [100000, "$1,000.00"],
    [1234550, "$12,345.50"],
    [123456789, "$1,234,567.89"],
    [-1250, "-$12.50"],
    [-5, "-$0.05"],
  ])("%i -> %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it("rejects non-integer cents", () => {
    expect(() => formatCents(12.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
    expect(() => formatCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("centsToDecimalString has no $ and no grouping", () => {
    expect(centsToDecimalString(1234550)).toBe("12345.50");
    expect(centsToDecimalString(5)).toBe("0.05");
    expect(centsToDecimalString(-120)).toBe("-1.20");
  });
});

describe("parseDollars", () => {
  it.each([
    ["12.50", 1250],
    ["12.5", 1250],
    ["12", 1200],
    ["0", 0],
    ["0.01", 1],
    [".5", 50],
    [".05", 5],
    ["$12.50", 1250],
    ["1,234.50", 123450],
    ["$1,234,567.89", 123456789],
    ["  7.10  ", 710],
    ["007.10", 710],
  ])("%j -> %i", (text, cents) => {
    expect(parseDollars(text)).toBe(cents);
  });

  it.each([
    "",
    " ",
    "abc",
    "12a",
    "-1",
    "-12.50",
    "+1",
    "1e3",
    "12.345",
    "12.",
    ".",
    "$",
    "1,23",
    "12,34.00",
    "1,2345",
    "NaN",
    "Infinity",
    "0x10",
    "1 000",
    "12..5",
    "$-5",
    "١٢",
  ])("rejects %j", (junk) => {
    expect(parseDollars(junk)).toBeNull();
  });

  it("rejects amounts above the maximum and non-strings", () => {
    expect(parseDollars("99999999999999")).toBeNull();
    expect(parseDollars("10000000000.01")).toBeNull();
    expect(parseDollars("10000000000.00")).toBe(MAX_CENTS);
    expect(parseDollars(12 as unknown as string)).toBeNull();
  });

  it("never goes through floating point (0.29 is 29 cents, not 28.999...)", () => {
    expect(parseDollars("0.29")).toBe(29);
    expect(parseDollars("1.15")).toBe(115);
    expect(parseDollars("4.35")).toBe(435);
  });

  it("parseDollarsOrThrow throws on junk", () => {
    expect(parseDollarsOrThrow("3.10")).toBe(310);
    expect(() => parseDollarsOrThrow("three")).toThrow(RangeError);
  });

  it("dollarsInputSchema outputs cents or the given message", () => {
    const schema = dollarsInputSchema("bad amount");
    expect(schema.parse("19.75")).toBe(1975);
    const r = schema.safeParse("19.755");
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0].message).toBe("bad amount");
  });
});

describe("percentOf / basisPointsOf: half up to the cent", () => {
  it.each([
    // [cents, percent, expected]
    [0, 10, 0],
    [4, 10, 0], // 0.4
    [5, 10, 1], // 0.5 -> up
    [14, 10, 1], // 1.4
    [15, 10, 2], // 1.5 -> up
    [25, 10, 3], // 2.5 -> up (not banker's rounding)
    [35, 10, 4],
    [1999, 10, 200], // 199.9
    [1234550, 10, 123455],
    [10, 5, 1], // 0.5 -> up
    [9, 5, 0], // 0.45
    [30, 5, 2], // 1.5 -> up
    [50, 5, 3], // 2.5 -> up
    [1990, 5, 100], // 99.5 -> up
    [1989, 5, 99], // 99.45
    [1000, 2.5, 25],
    [20, 2.5, 1], // 0.5 -> up
    [100, 100, 100],
    [12345, 0, 0],
  ])("%i cents x %d%% = %i", (cents, percent, expected) => {
    expect(percentOf(cents, percent)).toBe(expected);
  });

  it("basis points: 1000 bp of 5 = 1, 500 bp of 9 = 0", () => {
    expect(basisPointsOf(5, 1000)).toBe(1);
    expect(basisPointsOf(9, 500)).toBe(0);
    expect(basisPointsOf(MAX_CENTS, 10000)).toBe(MAX_CENTS);
    expect(basisPointsOf(MAX_CENTS, 1000)).toBe(MAX_CENTS / 10);
  });

  it("results are always integers", () => {
    for (let c = 0; c < 500; c++) {
      expect(Number.isInteger(percentOf(c, 10))).toBe(true);
      expect(Number.isInteger(percentOf(c, 5))).toBe(true);
    }
  });

  it("matches exact rational half-up for a range of amounts", () => {
    for (let c = 0; c < 2000; c++) {
      // exact: floor((c*10 + 50) / 100) for 10%
      expect(percentOf(c, 10)).toBe(Math.floor((c * 10 + 50) / 100));
      expect(percentOf(c, 5)).toBe(Math.floor((c * 5 + 50) / 100));
    }
  });

  it("rejects negative or fractional inputs", () => {
    expect(() => percentOf(-5, 10)).toThrow(RangeError);
    expect(() => percentOf(5.5, 10)).toThrow(RangeError);
    expect(() => percentOf(5, -1)).toThrow(RangeError);
    expect(() => percentOf(5, 1.005)).toThrow(RangeError);
    expect(() => percentOf(5, Number.NaN)).toThrow(RangeError);
    expect(() => basisPointsOf(5, 1.5)).toThrow(RangeError);
  });
});

describe("sums and products", () => {
  it("sumCents / sumBy", () => {
    expect(sumCents([])).toBe(0);
    expect(sumCents([1975, 2375, -100])).toBe(4250);
    expect(sumBy([{ v: 1 }, { v: 2 }], (x) => x.v)).toBe(3);
    expect(() => sumCents([1, 0.5])).toThrow(RangeError);
  });

  it("multiplyCents", () => {
    expect(multiplyCents(2500, 4)).toBe(10000);
    expect(multiplyCents(2500, 0)).toBe(0);
    expect(() => multiplyCents(2500, -1)).toThrow(RangeError);
    expect(() => multiplyCents(2500, 1.5)).toThrow(RangeError);
    expect(() => multiplyCents(25.5, 2)).toThrow(RangeError);
  });

  it("isCents and CentsSchema", () => {
    expect(isCents(0)).toBe(true);
    expect(isCents(-1)).toBe(true);
    expect(isCents(1.1)).toBe(false);
    expect(isCents("1")).toBe(false);
    expect(CentsSchema.safeParse(100).success).toBe(true);
    expect(CentsSchema.safeParse(-1).success).toBe(false);
    expect(CentsSchema.safeParse(1.5).success).toBe(false);
  });
});

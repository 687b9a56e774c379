import { describe, expect, it } from "vitest";
import {
  MAX_UNITS_PER_PARCEL,
  parcelShippingCents,
  parcelsForUnits,
  SHIPPING_BANDS,
  shippingCentsForSizes,
  shippingCentsForUnits,
  shippingForUnits,
  totalUnitsOfSizes,
} from "../../../domain/shipping";

describe("shipping table (docs/product/money.md)", () => {
  it.each([
    [0, 0],
    [1, 1975],
    [2, 2375],
    [3, 2375],
    [4, 2775],
    [5, 2775],
    [6, 3175], // the gap the original table leaves, closed (docs/product/money.md, "Shipping table")
    [7, 3175],
    [8, 3575],
    [9, 3575],
    [10, 3975],
    [11, 3975],
    [50, 3975],
    [99, 3975],
    [100, 3975],
    // over 100: parcels of at most 100 units, each priced by the table, summed
    [101, 3975 + 1975],
    [102, 3975 + 2375],
    [106, 3975 + 3175],
    [110, 3975 + 3975],
    [200, 3975 * 2],
    [201, 3975 * 2 + 1975],
    [250, 3975 * 3],
    [1000, 3975 * 10],
    [1001, 3975 * 10 + 1975],
  ])("%i units -> %i cents", (units, cents) => {
    expect(shippingCentsForUnits(units)).toBe(cents);
    expect(shippingForUnits(units)).toBe(cents);
  });

  it("bands cover 0..100 without gaps or overlaps", () => {
    let next = 0;
    for (const band of SHIPPING_BANDS) {
      expect(band.minUnits).toBe(next);
      expect(band.maxUnits).toBeGreaterThanOrEqual(band.minUnits);
      next = band.maxUnits + 1;
    }
    expect(next).toBe(MAX_UNITS_PER_PARCEL + 1);
  });

  it("price never decreases with the count", () => {
    let previous = -1;
    for (let u = 0; u <= 450; u++) {
      const c = shippingCentsForUnits(u);
      expect(c).toBeGreaterThanOrEqual(previous);
      previous = c;
    }
  });

  it("parcels: full parcels of 100 then the remainder", () => {
    expect(parcelsForUnits(0)).toEqual([]);
    expect(parcelsForUnits(7)).toEqual([7]);
    expect(parcelsForUnits(100)).toEqual([100]);
    expect(parcelsForUnits(101)).toEqual([100, 1]);
    expect(parcelsForUnits(250)).toEqual([100, 100, 50]);
    for (const u of [0, 1, 99, 100, 101, 200, 201, 1000, 1234]) {
      expect(parcelsForUnits(u).reduce((s, p) => s + parcelShippingCents(p), 0)).toBe(
        shippingCentsForUnits(u),
      );
    }
  });

  it("a single parcel holds at most 100 units", () => {
    expect(parcelShippingCents(100)).toBe(3975);
    expect(() => parcelShippingCents(101)).toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "3" as unknown as number])(
    "rejects %s",
    (bad) => {
      expect(() => shippingCentsForUnits(bad)).toThrow(RangeError);
      expect(() => parcelsForUnits(bad)).toThrow(RangeError);
    },
  );

  it("sizes maps", () => {
    expect(totalUnitsOfSizes({})).toBe(0);
    expect(totalUnitsOfSizes({ S: 1, M: 2, L: 0 })).toBe(3);
    expect(shippingCentsForSizes({ S: 1, M: 2 })).toBe(2375);
    expect(shippingCentsForSizes({ S: 3 }, { M: 3 })).toBe(3175);
    expect(shippingCentsForSizes()).toBe(0);
    expect(() => totalUnitsOfSizes({ S: -1 })).toThrow(RangeError);
    expect(() => totalUnitsOfSizes({ S: 0.5 })).toThrow(RangeError);
  });
});

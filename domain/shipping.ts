import type { Cents } from "./money";

/**
 * Shipping charged to the party that RECEIVES goods, by the number of units it receives
 * (docs/product/money.md, "Shipping table"). The original table leaves 6 units in no band; we close the gap
 * with 6-7 -> $31.75. Over 100 units the goods travel as parcels of at most 100 units, each priced
 * by the table and summed: full parcels of 100 first, then one parcel with the remainder
 * (the cheapest split, since the price never decreases with the count).
 */
export interface ShippingBand {
  readonly minUnits: number;
  readonly maxUnits: number;
  readonly cents: Cents;
}

export const MAX_UNITS_PER_PARCEL = 100;

export const SHIPPING_BANDS: readonly ShippingBand[] = Object.freeze([
  { minUnits: 0, maxUnits: 0, cents: 0 },
  { minUnits: 1, maxUnits: 1, cents: 1975 },
  { minUnits: 2, maxUnits: 3, cents: 2375 },
  { minUnits: 4, maxUnits: 5, cents: 2775 },
  { minUnits: 6, maxUnits: 7, cents: 3175 },
  { minUnits: 8, maxUnits: 9, cents: 3575 },
  { minUnits: 10, maxUnits: MAX_UNITS_PER_PARCEL, cents: 3975 },
]);

function assertUnitCount(units: number): void {
  if (typeof units !== "number" || !Number.isSafeInteger(units) || units < 0) {
    throw new RangeError(`unit count must be a non-negative integer, got ${String(units)}`);
  }
}

/** Price of ONE parcel of 0..100 units. */
export function parcelShippingCents(units: number): Cents {
  assertUnitCount(units);
  const band = SHIPPING_BANDS.find((b) => units >= b.minUnits && units <= b.maxUnits);
  if (!band)
    throw new RangeError(`a parcel holds at most ${MAX_UNITS_PER_PARCEL} units, got ${units}`);
  return band.cents;
}

/** How `units` are split into parcels: 250 -> [100, 100, 50]; 0 -> []. */
export function parcelsForUnits(units: number): number[] {
  assertUnitCount(units);
  const parcels: number[] = [];
  let left = units;
  while (left > 0) {
    const take = Math.min(left, MAX_UNITS_PER_PARCEL);
    parcels.push(take);
    left -= take;
  }
  return parcels;
}

/** Shipping in cents for `units` units received by one party. */
export function shippingCentsForUnits(units: number): Cents {
  assertUnitCount(units);
  const full = Math.floor(units / MAX_UNITS_PER_PARCEL);
  const rest = units % MAX_UNITS_PER_PARCEL;
  return full * parcelShippingCents(MAX_UNITS_PER_PARCEL) + parcelShippingCents(rest);
}

/** Total units of a sizes map (size label -> count); rejects negative or non-integer counts. */
export function totalUnitsOfSizes(sizes: Readonly<Record<string, number>>): number {
  let total = 0;
  for (const [label, count] of Object.entries(sizes)) {
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
      throw new RangeError(
        `size ${JSON.stringify(label)} must have a non-negative integer count, got ${String(count)}`,
      );
    }
    total += count;
  }
  return total;
}

/** Shipping for everything in one or more sizes maps received by the same party. */
export function shippingCentsForSizes(
  ...sizeMaps: ReadonlyArray<Readonly<Record<string, number>>>
): Cents {
  return shippingCentsForUnits(sizeMaps.reduce((sum, m) => sum + totalUnitsOfSizes(m), 0));
}

/** Short alias of shippingCentsForUnits. */
export const shippingForUnits = shippingCentsForUnits;

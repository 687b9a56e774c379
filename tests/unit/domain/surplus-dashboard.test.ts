import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMonth } from "../../../domain/date-format";
import {
  ageBucketOf,
  buildDashboard,
  DAY_MS,
  lastMonths,
  median,
  monthBounds,
  monthIndexAt,
  monthLabel,
  wholeDaysBetween,
  windowStartMs,
  type TradeSideRow,
} from "../../../domain/surplus-dashboard";

const TZ = "America/New_York";

describe("age buckets", () => {
  it.each([
    [-3, "0-30"],
    [0, "0-30"],
    [30, "0-30"],
    [30.9, "0-30"],
    [31, "31-90"],
    [90, "31-90"],
    [91, "91-180"],
    [180, "91-180"],
    [181, "180+"],
    [5000, "180+"],
  ])("%s days is %s", (days, bucket) => {
    expect(ageBucketOf(days)).toBe(bucket);
  });

  it("whole days are floored and never negative", () => {
    expect(wholeDaysBetween(0, DAY_MS - 1)).toBe(0);
    expect(wholeDaysBetween(0, 31 * DAY_MS)).toBe(31);
    expect(wholeDaysBetween(5 * DAY_MS, 0)).toBe(0);
  });
});

describe("median", () => {
  it.each([
    [[], null],
    [[7], 7],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 10, 0, 0], 5],
  ])("of %j is %s", (values, m) => {
    expect(median(values)).toBe(m);
  });

  it("lies between the least and the greatest value, and half the values are on each side", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 60 }),
        (values) => {
          const m = median(values)!;
          expect(m).toBeGreaterThanOrEqual(Math.min(...values));
          expect(m).toBeLessThanOrEqual(Math.max(...values));
          expect(values.filter((v) => v < m).length).toBeLessThanOrEqual(values.length / 2);
          expect(values.filter((v) => v > m).length).toBeLessThanOrEqual(values.length / 2);
        },
      ),
    );
  });
});

describe("months", () => {
  it("are the last twelve of the marketplace's zone, the current one last", () => {
    // 2026-01-01 03:00 UTC is still Dec 31 in New York.
    const now = Date.UTC(2026, 0, 1, 3, 0, 0);
    const months = lastMonths(now, TZ);
    expect(months).toHaveLength(12);
    expect(months[0]).toBe("2025-01");
    expect(months[11]).toBe("2025-12");
    expect(lastMonths(now, "UTC")[11]).toBe("2026-01");
    expect(monthLabel("2025-12")).toBe("Dec 2025");
  });

  it("the window begins at midnight of the first month's first day in the zone", () => {
    const now = Date.UTC(2026, 10, 27, 23, 0, 0);
    expect(new Date(windowStartMs(now, TZ)).toISOString()).toBe("2025-12-01T05:00:00.000Z");
    expect(new Date(windowStartMs(now, "UTC")).toISOString()).toBe("2025-12-01T00:00:00.000Z");
  });
});

describe("month bounds", () => {
  it("an instant is in the month formatMonth names in the zone, around midnight, DST and the ends", () => {
    const months = lastMonths(Date.UTC(2026, 10, 15), TZ);
    const bounds = monthBounds(months, TZ);
    expect(bounds).toHaveLength(13);
    // 2026-03-01 00:00 in New York is 05:00 UTC: a minute before is February's, the minute itself March's.
    expect(months[monthIndexAt(Date.UTC(2026, 2, 1, 4, 59), bounds)]).toBe("2026-02");
    expect(months[monthIndexAt(Date.UTC(2026, 2, 1, 5, 0), bounds)]).toBe("2026-03");
    expect(monthIndexAt(bounds[0] - 1, bounds)).toBe(-1);
    expect(monthIndexAt(bounds[12], bounds)).toBe(-1);
    fc.assert(
      fc.property(
        fc.integer({ min: bounds[0] - 40 * DAY_MS, max: bounds[12] + 40 * DAY_MS }),
        (ms) => {
          const i = monthIndexAt(ms, bounds);
          const named = formatMonth(new Date(ms), TZ);
          expect(i === -1 ? !months.includes(named) : months[i] === named).toBe(true);
        },
      ),
    );
  });
});

describe("buildDashboard", () => {
  const now = Date.UTC(2026, 10, 27, 23, 0, 0); // Nov 27 2026, 18:00 in New York
  const side = (over: Partial<TradeSideRow>): TradeSideRow => ({
    kind: "sale",
    createdAtMs: now,
    givenCents: 0,
    receivedCents: 0,
    feeCents: 0,
    filledRequest: false,
    daysToSell: [],
    ...over,
  });

  it("buckets the listed value by age, sums each month and takes the median days to sell", () => {
    const d = buildDashboard(
      {
        listed: [
          { ageDays: 2, listings: 1, units: 3, valueCents: 3000 },
          { ageDays: 45, listings: 2, units: 2, valueCents: 5000 },
          { ageDays: 200, listings: 1, units: 1, valueCents: 700 },
        ],
        sides: [
          side({ givenCents: 10_000, filledRequest: true, daysToSell: [10, 20] }),
          side({
            kind: "swap",
            givenCents: 4000,
            receivedCents: 4500,
            feeCents: 225,
            daysToSell: [40],
          }),
          // Dec 1 2025 04:00 UTC is Nov 30 in New York: outside the twelve months.
          side({ createdAtMs: Date.UTC(2025, 11, 1, 4, 0, 0), givenCents: 99_999 }),
          // Dec 1 2025 05:00 UTC is the window's first instant.
          side({ createdAtMs: Date.UTC(2025, 11, 1, 5, 0, 0), givenCents: 1000, daysToSell: [1] }),
        ],
        payouts: [{ createdAtMs: now, amountCents: 10_000 }],
      },
      now,
      TZ,
    );
    expect(d.ages.map((a) => [a.key, a.listings, a.units, a.valueCents])).toEqual([
      ["0-30", 1, 3, 3000],
      ["31-90", 2, 2, 5000],
      ["91-180", 0, 0, 0],
      ["180+", 1, 1, 700],
    ]);
    expect(d.listed).toEqual({ listings: 4, units: 6, valueCents: 8700 });
    expect(d.months[0]).toMatchObject({ month: "2025-12", soldCents: 1000 });
    expect(d.months[11]).toEqual({
      month: "2026-11",
      soldCents: 10_000,
      swappedCents: 4000,
      payoutsCents: 10_000,
      swapValuesCents: 4500,
      feesCents: 225,
      requestsFilled: 1,
      medianDaysToSell: 20,
    });
    expect(d.months[0].medianDaysToSell).toBe(1);
    expect(d.months[5].medianDaysToSell).toBeNull();
    expect(d.totals).toEqual({
      soldCents: 11_000,
      swappedCents: 4000,
      payoutsCents: 10_000,
      swapValuesCents: 4500,
      feesCents: 225,
      requestsFilled: 1,
      recoveredCents: 14_500,
    });
    expect(d.medianDaysToSell).toBe(15);
    expect(d.trades).toBe(3);
  });

  it("with nothing is twelve months of zeros and no median", () => {
    const d = buildDashboard({ listed: [], sides: [], payouts: [] }, now, TZ);
    expect(d.months).toHaveLength(12);
    expect(d.months.every((m) => m.soldCents === 0 && m.requestsFilled === 0)).toBe(true);
    expect(d.medianDaysToSell).toBeNull();
    expect(d.listed.valueCents).toBe(0);
  });

  it("the totals are the sums of the months, and a row counts in exactly one month or none", () => {
    const start = windowStartMs(now, TZ);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: start - 40 * DAY_MS, max: now }),
            given: fc.integer({ min: 0, max: 1_000_000 }),
            swap: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (rows) => {
          const d = buildDashboard(
            {
              listed: [],
              sides: rows.map((r) =>
                side({ createdAtMs: r.at, givenCents: r.given, kind: r.swap ? "swap" : "sale" }),
              ),
              payouts: [],
            },
            now,
            TZ,
          );
          const inside = rows.filter((r) => r.at >= start);
          expect(d.trades).toBe(inside.length);
          expect(d.totals.soldCents + d.totals.swappedCents).toBe(
            inside.reduce((s, r) => s + r.given, 0),
          );
          expect(d.months.reduce((s, m) => s + m.soldCents, 0)).toBe(d.totals.soldCents);
        },
      ),
    );
  });
});

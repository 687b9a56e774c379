/**
 * Staff's metrics (domain/staff-metrics.ts; ADRs 0028, 0030): weeks start on Monday 00:00 in the marketplace's
 * zone, the weekly matches are summed per week, and the CSV rows carry the dashboard's figures as dollars.
 */
import { describe, expect, it } from "vitest";
import {
  buildMatchWeeks,
  dashboardCsvRows,
  DASHBOARD_CSV_COLUMNS,
  lastWeekStarts,
  matchesCsvRows,
  weekBounds,
  weekLabel,
  weekShortLabel,
} from "../../../domain/staff-metrics";
import { buildDashboard } from "../../../domain/surplus-dashboard";

const TZ = "America/New_York";
const HOUR = 3_600_000;

describe("lastWeekStarts", () => {
  it.each([
    // [now (UTC), zone, the current week's Monday]
    [Date.UTC(2026, 10, 28, 1, 43), TZ, "2026-11-23"], // Fri Nov 27, 20:43 in New York
    [Date.UTC(2026, 10, 30, 4, 59), TZ, "2026-11-23"], // Sun Nov 29, 23:59 in New York
    [Date.UTC(2026, 10, 30, 5, 0), TZ, "2026-11-30"], // Mon Nov 30, 00:00 in New York
    [Date.UTC(2026, 10, 29, 15, 0), "Asia/Tokyo", "2026-11-30"], // Sun in UTC, Mon Nov 30 00:00 in Tokyo
    [Date.UTC(2026, 10, 29, 14, 59), "Asia/Tokyo", "2026-11-23"],
    [Date.UTC(2027, 0, 1, 12, 0), TZ, "2026-12-28"], // across a new year
  ])("at %s in %s the current week starts %s", (now, zone, monday) => {
    const starts = lastWeekStarts(now, zone);
    expect(starts).toHaveLength(12);
    expect(starts[11]).toBe(monday);
    for (let i = 1; i < 12; i++)
      expect(Date.parse(starts[i]) - Date.parse(starts[i - 1])).toBe(7 * 24 * HOUR);
    for (const s of starts) expect(new Date(`${s}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it("counts back eleven weeks", () => {
    expect(lastWeekStarts(Date.UTC(2026, 10, 28, 1, 43), TZ)[0]).toBe("2026-09-07");
    expect(lastWeekStarts(Date.UTC(2026, 10, 28, 1, 43), TZ, 2)).toEqual([
      "2026-11-16",
      "2026-11-23",
    ]);
  });
});

describe("weekBounds", () => {
  it("begins each week at Monday 00:00 in the zone, across a change of daylight saving time", () => {
    // Daylight saving time ends on Sunday Nov 1 2026 in New York: that week is an hour longer.
    const bounds = weekBounds(["2026-10-26", "2026-11-02"], TZ);
    expect(bounds).toEqual([
      Date.UTC(2026, 9, 26, 4),
      Date.UTC(2026, 10, 2, 5),
      Date.UTC(2026, 10, 9, 5),
    ]);
    expect(bounds[1] - bounds[0]).toBe(7 * 24 * HOUR + HOUR);
  });
});

describe("buildMatchWeeks", () => {
  const starts = ["2026-11-16", "2026-11-23"];
  it("sums the rows of each week (several brands' rows) and leaves out rows outside the weeks", () => {
    const weeks = buildMatchWeeks(
      [
        { week: 0, requests: 2, searches: 1, traded: 1 },
        { week: 1, requests: 1, searches: 0, traded: 0 },
        { week: 1, requests: 0, searches: 3, traded: 2 },
        { week: -1, requests: 9, searches: 9, traded: 9 },
        { week: 2, requests: 9, searches: 9, traded: 9 },
      ],
      starts,
    );
    expect(weeks).toEqual([
      { weekStart: "2026-11-16", matches: 3, requests: 2, searches: 1, traded: 1 },
      { weekStart: "2026-11-23", matches: 4, requests: 1, searches: 3, traded: 2 },
    ]);
  });

  it("with no rows is every week at zero", () => {
    expect(buildMatchWeeks([], starts).map((w) => w.matches)).toEqual([0, 0]);
  });

  it("labels a week by its Monday in the product's date format", () => {
    expect(weekLabel("2026-11-23")).toBe("11/23/2026");
    expect(weekShortLabel("2026-11-23")).toBe("11/23");
  });
});

describe("CSV rows", () => {
  const now = Date.UTC(2026, 10, 27, 23, 0);
  const dashboard = buildDashboard(
    {
      listed: [
        { ageDays: 3, listings: 1, units: 2, valueCents: 4000 },
        { ageDays: 400, listings: 1, units: 1, valueCents: 1999 },
      ],
      sides: [
        {
          kind: "sale",
          createdAtMs: now,
          givenCents: 12_345,
          receivedCents: 0,
          feeCents: 617,
          filledRequest: true,
          daysToSell: [10, 21],
        },
        {
          kind: "swap",
          createdAtMs: now,
          givenCents: 2000,
          receivedCents: 2500,
          feeCents: 100,
          filledRequest: false,
          daysToSell: [],
        },
      ],
      payouts: [{ createdAtMs: now, amountCents: 11_728 }],
    },
    now,
    TZ,
  );

  it("one row per month; what is listed now only on the current month's row; money as dollars with cents", () => {
    const rows = dashboardCsvRows({ kind: "brand", id: 7, name: "Acme" }, dashboard);
    expect(rows).toHaveLength(12);
    expect(Object.keys(rows[0])).toEqual([...DASHBOARD_CSV_COLUMNS]);
    expect(rows[0]).toMatchObject({
      scope: "brand",
      brand_id: "7",
      brand: "Acme",
      month: "2025-12",
      listed_now: "",
      sold: "0.00",
      median_days_to_sell: "",
    });
    expect(rows[11]).toEqual({
      scope: "brand",
      brand_id: "7",
      brand: "Acme",
      month: "2026-11",
      listed_now_0_30_days: "40.00",
      listed_now_31_90_days: "0.00",
      listed_now_91_180_days: "0.00",
      listed_now_over_180_days: "19.99",
      listed_now: "59.99",
      sold: "123.45",
      swapped: "20.00",
      median_days_to_sell: "15.5",
      payouts: "117.28",
      swap_values: "25.00",
      money_recovered: "142.28",
      fees_paid: "7.17",
      requests_filled: "1",
    });
  });

  it("the marketplace's rows have no brand; the matches rows are one per week", () => {
    expect(dashboardCsvRows({ kind: "marketplace" }, dashboard)[0]).toMatchObject({
      scope: "marketplace",
      brand_id: "",
      brand: "",
    });
    expect(
      matchesCsvRows({ kind: "marketplace" }, [
        { weekStart: "2026-11-23", matches: 4, requests: 1, searches: 3, traded: 2 },
      ]),
    ).toEqual([
      {
        scope: "marketplace",
        brand_id: "",
        brand: "",
        week_start: "2026-11-23",
        matches: "4",
        filling_a_request: "1",
        fitting_a_saved_search: "3",
        bought_or_swapped: "2",
      },
    ]);
  });
});

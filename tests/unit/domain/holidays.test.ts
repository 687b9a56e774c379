/**
 * The business-day holiday table (domain/us-federal-holidays.generated.ts) is generated from the
 * date-holidays library (ADR 0012): it must equal a fresh rendering of the installed library, so it cannot
 * drift from it silently, and it must agree with the rules of 5 U.S.C. 6103 computed here independently.
 */
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { US_FEDERAL_HOLIDAYS, US_FEDERAL_HOLIDAY_YEARS } from "../../../domain/business-days";
import {
  GENERATED_HOLIDAYS_FILE,
  HOLIDAY_YEARS,
  renderHolidayModule,
  usFederalHolidays,
} from "../../../scripts/lib/holidays.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const require = createRequire(import.meta.url);
const Holidays = require("date-holidays");
const version: string = require("date-holidays/package.json").version;
const DAY_MS = 24 * 3600_000;

// Independent rules: fixed dates observed on Friday when on a Saturday, on Monday when on a Sunday.
const iso = (d: Date) => d.toISOString().slice(0, 10);
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return iso(new Date(Date.UTC(year, month - 1, 1 + ((weekday - first + 7) % 7) + (n - 1) * 7)));
}
function lastWeekday(year: number, month: number, weekday: number): string {
  const last = new Date(Date.UTC(year, month, 0));
  return iso(new Date(Date.UTC(year, month, -((last.getUTCDay() - weekday + 7) % 7))));
}
function observed(year: number, month: number, day: number): string {
  const d = new Date(Date.UTC(year, month - 1, day));
  const shift = d.getUTCDay() === 6 ? -1 : d.getUTCDay() === 0 ? 1 : 0;
  return iso(new Date(d.getTime() + shift * DAY_MS));
}
function federalHolidays(year: number): string[] {
  return [
    observed(year, 1, 1), // New Year's Day (observed on Dec 31 of the year before when Jan 1 is a Saturday)
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    lastWeekday(year, 5, 1), // Memorial Day
    ...(year >= 2021 ? [observed(year, 6, 19)] : []), // Juneteenth, a federal holiday since 2021
    observed(year, 7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 10, 1, 2), // Columbus Day
    observed(year, 11, 11), // Veterans Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving Day
    observed(year, 12, 25), // Christmas Day
  ];
}

describe("US federal holiday table", () => {
  it("equals date-holidays' output (regenerate with `npm run gen:holidays`)", () => {
    const committed = fs.readFileSync(path.join(ROOT, GENERATED_HOLIDAYS_FILE), "utf8");
    expect(committed).toBe(renderHolidayModule(Holidays, version));
    expect([...US_FEDERAL_HOLIDAYS]).toEqual(
      usFederalHolidays(Holidays).map((h: { date: string }) => h.date),
    );
    expect(US_FEDERAL_HOLIDAY_YEARS).toEqual(HOLIDAY_YEARS);
    expect(Object.isFrozen(US_FEDERAL_HOLIDAYS)).toBe(true);
  });

  it("covers 2020 to 2060 with the eleven federal holidays of each year, observed dates, Monday to Friday", () => {
    const { first, last } = US_FEDERAL_HOLIDAY_YEARS;
    expect(first).toBeLessThanOrEqual(2026);
    expect(last).toBeGreaterThanOrEqual(2060);
    const expected = new Set<string>();
    for (let year = first; year <= last + 1; year++) {
      for (const d of federalHolidays(year))
        if (d >= `${first}-01-01` && d <= `${last}-12-31`) expected.add(d);
    }
    expect([...US_FEDERAL_HOLIDAYS].sort()).toEqual([...expected].sort());
    for (const h of US_FEDERAL_HOLIDAYS) {
      const wd = new Date(`${h}T12:00:00Z`).getUTCDay();
      expect(wd, h).toBeGreaterThanOrEqual(1);
      expect(wd, h).toBeLessThanOrEqual(5);
    }
  });

  it("keeps the hand list of 2026 and 2027 it replaced", () => {
    const y2026_2027 = US_FEDERAL_HOLIDAYS.filter((d) => d >= "2026-01-01" && d <= "2027-12-31");
    expect(y2026_2027).toEqual([
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03",
      "2026-09-07",
      "2026-10-12",
      "2026-11-11",
      "2026-11-26",
      "2026-12-25",
      "2027-01-01",
      "2027-01-18",
      "2027-02-15",
      "2027-05-31",
      "2027-06-18",
      "2027-07-05",
      "2027-09-06",
      "2027-10-11",
      "2027-11-11",
      "2027-11-25",
      "2027-12-24",
      "2027-12-31",
    ]);
  });
});

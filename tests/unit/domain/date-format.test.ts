import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatMonth,
  formatSortableDate,
  formatSortableDateTime,
} from "../../../domain/date-format";

// docs/product/windows.md, "Time zone": dates MM/DD/YYYY and date-times MM/DD/YYYY hh:mm:ss, in the marketplace
// time zone (MARKETPLACE_TZ), whichever zone that is.
const NY = "America/New_York";
const LA = "America/Los_Angeles";
const LONDON = "Europe/London";
const TOKYO = "Asia/Tokyo";

describe("formatDate / formatDateTime: one formatter, the zone a parameter", () => {
  it.each([
    // An afternoon: the same day everywhere but Tokyo, where it is already past midnight.
    ["2026-11-26T16:05:09Z", NY, "11/26/2026", "11/26/2026 11:05:09"],
    ["2026-11-26T16:05:09Z", LA, "11/26/2026", "11/26/2026 08:05:09"],
    ["2026-11-26T16:05:09Z", LONDON, "11/26/2026", "11/26/2026 16:05:09"],
    ["2026-11-26T16:05:09Z", TOKYO, "11/27/2026", "11/27/2026 01:05:09"],
    ["2026-11-26T16:05:09Z", "UTC", "11/26/2026", "11/26/2026 16:05:09"],
    // Before midnight in America while already the next day (and year) in UTC.
    ["2026-01-01T03:30:00Z", NY, "12/31/2025", "12/31/2025 22:30:00"],
    ["2026-01-01T07:30:00Z", LA, "12/31/2025", "12/31/2025 23:30:00"],
    ["2026-01-01T07:30:00Z", NY, "01/01/2026", "01/01/2026 02:30:00"],
    // Midnight shows 00, never 24.
    ["2026-07-04T04:00:00Z", NY, "07/04/2026", "07/04/2026 00:00:00"],
    ["2026-07-04T07:00:00Z", LA, "07/04/2026", "07/04/2026 00:00:00"],
    // Daylight saving starts (US: 2026-03-08 02:00 local; Europe: 2026-03-29 01:00 UTC): the clock jumps an hour.
    ["2026-03-08T06:59:59Z", NY, "03/08/2026", "03/08/2026 01:59:59"],
    ["2026-03-08T07:00:00Z", NY, "03/08/2026", "03/08/2026 03:00:00"],
    ["2026-03-08T09:59:59Z", LA, "03/08/2026", "03/08/2026 01:59:59"],
    ["2026-03-08T10:00:00Z", LA, "03/08/2026", "03/08/2026 03:00:00"],
    ["2026-03-29T00:59:59Z", LONDON, "03/29/2026", "03/29/2026 00:59:59"],
    ["2026-03-29T01:00:00Z", LONDON, "03/29/2026", "03/29/2026 02:00:00"],
    // ... and ends (US: 2026-11-01 02:00 local): 01:00-01:59 happens twice.
    ["2026-11-01T05:30:00Z", NY, "11/01/2026", "11/01/2026 01:30:00"],
    ["2026-11-01T06:30:00Z", NY, "11/01/2026", "11/01/2026 01:30:00"],
    ["2026-11-01T08:30:00Z", LA, "11/01/2026", "11/01/2026 01:30:00"],
    ["2026-11-01T09:30:00Z", LA, "11/01/2026", "11/01/2026 01:30:00"],
    // Summer and winter offsets of one zone: EDT (UTC-4) and EST (UTC-5); PDT (UTC-7) and PST (UTC-8).
    ["2026-06-15T12:00:00Z", NY, "06/15/2026", "06/15/2026 08:00:00"],
    ["2026-12-15T12:00:00Z", NY, "12/15/2026", "12/15/2026 07:00:00"],
    ["2026-06-15T12:00:00Z", LA, "06/15/2026", "06/15/2026 05:00:00"],
    ["2026-12-15T12:00:00Z", LA, "12/15/2026", "12/15/2026 04:00:00"],
  ])("%s in %s → %s / %s", (iso, zone, date, dateTime) => {
    expect(formatDate(iso, zone)).toBe(date);
    expect(formatDateTime(iso, zone)).toBe(dateTime);
    expect(formatDate(new Date(iso), zone)).toBe(date);
    expect(formatDateTime(iso, zone, { seconds: false })).toBe(dateTime.slice(0, -3));
    // The CSVs' sortable forms are the same wall clock.
    const [mm, dd, yyyy] = date.split("/");
    expect(formatSortableDate(iso, zone)).toBe(`${yyyy}-${mm}-${dd}`);
    expect(formatSortableDateTime(iso, zone)).toBe(`${yyyy}-${mm}-${dd} ${dateTime.slice(11)}`);
    expect(formatMonth(iso, zone)).toBe(`${yyyy}-${mm}`);
  });

  it("shows nothing for a missing or unreadable date", () => {
    for (const v of [null, undefined, "", "not a date", new Date(Number.NaN)]) {
      expect(formatDate(v, NY)).toBe("");
      expect(formatDateTime(v, LA)).toBe("");
      expect(formatSortableDateTime(v, LA)).toBe("");
      expect(formatMonth(v, NY)).toBe("");
    }
  });

  it("refuses an unknown zone rather than guessing one", () => {
    expect(() => formatDate("2026-11-26T16:05:09Z", "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});

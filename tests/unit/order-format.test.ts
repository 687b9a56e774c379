import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "../../app/components/orders/format";

// Spec 001 §9: dates MM/DD/YYYY and date-times MM/DD/YYYY hh:mm:ss, in the marketplace's time zone (New York).
describe("order screens' date formats", () => {
  it.each([
    ["2026-11-26T16:05:09Z", "11/26/2026", "11/26/2026 11:05:09"],
    // Before midnight in New York while already the next day in UTC.
    ["2026-01-01T03:30:00Z", "12/31/2025", "12/31/2025 22:30:00"],
    // Midnight shows 00, never 24.
    ["2026-07-04T04:00:00Z", "07/04/2026", "07/04/2026 00:00:00"],
    // Daylight saving time: EDT (UTC-4) in summer, EST (UTC-5) in winter.
    ["2026-03-08T07:00:00Z", "03/08/2026", "03/08/2026 03:00:00"],
    ["2026-11-01T06:00:00Z", "11/01/2026", "11/01/2026 01:00:00"],
  ])("%s → %s / %s", (iso, date, dateTime) => {
    expect(formatDate(iso)).toBe(date);
    expect(formatDateTime(iso)).toBe(dateTime);
  });

  it("shows nothing for a missing or unreadable date", () => {
    for (const v of [null, undefined, "", "not a date"]) {
      expect(formatDate(v)).toBe("");
      expect(formatDateTime(v)).toBe("");
    }
  });
});

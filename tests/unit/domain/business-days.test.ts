import { describe, expect, it } from "vitest";
import {
  addBusinessDays,
  addBusinessDaysISO,
  assertTimeZone,
  calendarDeadline,
  DAY_MS,
  DEFAULT_MARKETPLACE_TZ,
  HOUR_MS,
  isBusinessDate,
  isBusinessDay,
  isWithinRmaWindow,
  localDateISO,
  localDateTime,
  modifiedPurchaseDeadline,
  msUntil,
  msUntilBusinessDeadline,
  msUntilCalendarDeadline,
  nextBusinessDayStart,
  pickupDeadline,
  purchaseRmaOpen,
  ratingDeadline,
  timeZoneOffsetMs,
  toEpochMs,
  US_FEDERAL_HOLIDAYS,
  WINDOWS,
  zonedToEpochMs,
} from "../../../domain/business-days";

const NY = "America/New_York";
const ms = (iso: string) => Date.parse(iso);

describe("addBusinessDays", () => {
  it.each([
    // [start, n, expected, why]
    ["2026-03-03T14:00:00Z", 2, "2026-03-05T14:00:00.000Z", "Tue 09:00 EST + 2 = Thu 09:00"],
    [
      "2026-03-05T14:00:00Z",
      2,
      "2026-03-09T13:00:00.000Z",
      "Thu 09:00 EST + 2 = Mon 09:00 EDT (over the March DST weekend)",
    ],
    ["2026-03-06T20:00:00Z", 2, "2026-03-10T19:00:00.000Z", "Fri 15:00 EST + 2 = Tue 15:00 EDT"],
    [
      "2026-10-30T14:00:00Z",
      2,
      "2026-11-03T15:00:00.000Z",
      "Fri 10:00 EDT + 2 = Tue 10:00 EST (over the November DST weekend)",
    ],
    [
      "2026-03-07T15:00:00Z",
      2,
      "2026-03-11T04:00:00.000Z",
      "Sat 10:00: count from Mon 00:00 -> Wed 00:00 EDT",
    ],
    ["2026-03-08T15:00:00Z", 0, "2026-03-09T04:00:00.000Z", "Sun + 0 = Mon 00:00 EDT"],
    [
      "2026-01-19T14:00:00Z",
      1,
      "2026-01-21T05:00:00.000Z",
      "MLK day (holiday) 09:00: from Tue 00:00 + 1 = Wed 00:00 EST",
    ],
    [
      "2026-11-25T17:00:00Z",
      2,
      "2026-11-30T17:00:00.000Z",
      "Wed before Thanksgiving + 2 = Mon (Thu holiday, Fri counts)",
    ],
    [
      "2026-07-02T16:00:00Z",
      1,
      "2026-07-06T16:00:00.000Z",
      "Thu + 1 = Mon (Fri Jul 3 is the observed Independence Day)",
    ],
    ["2026-12-23T21:00:00Z", 3, "2026-12-29T21:00:00.000Z", "Wed + 3 over Christmas = Tue"],
    [
      "2026-12-30T15:00:00Z",
      2,
      "2027-01-04T15:00:00.000Z",
      "Wed + 2 over New Year = Mon Jan 4 2027",
    ],
    ["2026-12-31T15:00:00Z", 1, "2027-01-04T15:00:00.000Z", "Thu Dec 31 + 1 = Mon (Jan 1 holiday)"],
    [
      "2027-12-23T15:00:00Z",
      2,
      "2027-12-28T15:00:00.000Z",
      "Thu + 2 = Tue (Fri Dec 24 2027 observed Christmas)",
    ],
    [
      "2027-12-30T15:00:00Z",
      1,
      "2028-01-03T15:00:00.000Z",
      "Thu + 1 = Mon 2028 (Fri Dec 31 2027 observed New Year)",
    ],
    [
      "2026-03-07T03:00:00Z",
      1,
      "2026-03-10T02:00:00.000Z",
      "Fri 22:00 EST (Saturday in UTC) is a business day: + 1 = Mon 22:00 EDT",
    ],
    ["2026-05-22T13:30:00Z", 5, "2026-06-01T13:30:00.000Z", "Fri + 5 over Memorial Day"],
  ])("%s + %i -> %s (%s)", (start, n, expected) => {
    expect(addBusinessDaysISO(start, n)).toBe(expected);
    expect(addBusinessDays(ms(start), n)).toBe(ms(expected));
  });

  it("n = 0 on a business day is the start itself, milliseconds kept", () => {
    const start = ms("2026-04-15T15:04:05.678Z");
    expect(addBusinessDays(start, 0)).toBe(start);
    expect(addBusinessDays(start, 1)).toBe(start + DAY_MS);
  });

  it("keeps the same local wall-clock time", () => {
    const start = ms("2026-03-06T20:00:00Z");
    const end = addBusinessDays(start, 2);
    const a = localDateTime(start, NY);
    const b = localDateTime(end, NY);
    expect([b.hour, b.minute, b.second]).toEqual([a.hour, a.minute, a.second]);
  });

  it("the holiday list is a parameter", () => {
    // MLK day counts when no holidays are given
    expect(addBusinessDaysISO("2026-01-16T14:00:00Z", 1, NY, [])).toBe("2026-01-19T14:00:00.000Z");
    expect(addBusinessDaysISO("2026-01-16T14:00:00Z", 1, NY)).toBe("2026-01-20T14:00:00.000Z");
    expect(addBusinessDaysISO("2026-04-15T14:00:00Z", 1, NY, ["2026-04-16"])).toBe(
      "2026-04-17T14:00:00.000Z",
    );
  });

  it("the time zone is a parameter (default America/New_York)", () => {
    expect(DEFAULT_MARKETPLACE_TZ).toBe(NY);
    // Fri 15:00 PST + 2 = Tue 15:00 PDT
    expect(addBusinessDaysISO("2026-03-06T23:00:00Z", 2, "America/Los_Angeles")).toBe(
      "2026-03-10T22:00:00.000Z",
    );
    // London changes clocks on 2026-03-29; Fri 27 09:00 GMT + 1 = Mon 30 09:00 BST
    expect(addBusinessDaysISO("2026-03-27T09:00:00Z", 1, "Europe/London", [])).toBe(
      "2026-03-30T08:00:00.000Z",
    );
    // Same instant, different local dates: Fri 22:00 in New York is Saturday in London
    expect(isBusinessDay("2026-03-07T03:00:00Z", NY)).toBe(true);
    expect(isBusinessDay("2026-03-07T03:00:00Z", "Europe/London", [])).toBe(false);
  });

  it("accepts ISO strings with offsets and epoch ms, and agrees between them", () => {
    expect(addBusinessDays("2026-03-06T15:00:00-05:00", 2)).toBe(
      addBusinessDays(ms("2026-03-06T20:00:00Z"), 2),
    );
    expect(addBusinessDays("2026-03-06T15:00:00.000-0500", 2)).toBe(ms("2026-03-10T19:00:00Z"));
  });

  it("the result is always a business day, after the start, exactly n business days later", () => {
    const holidays = new Set(US_FEDERAL_HOLIDAYS);
    const isBiz = (iso: string) => {
      const wd = new Date(`${iso}T12:00:00Z`).getUTCDay();
      return wd !== 0 && wd !== 6 && !holidays.has(iso);
    };
    for (
      let t = ms("2026-01-01T00:00:00Z");
      t < ms("2027-12-20T00:00:00Z");
      t += 11 * HOUR_MS + 17 * 60_000
    ) {
      for (const n of [1, 2, 3]) {
        const end = addBusinessDays(t, n);
        expect(end).toBeGreaterThan(t);
        const endDate = localDateISO(end, NY);
        expect(isBiz(endDate)).toBe(true);
        // count business dates strictly after the start's local date up to and including the end date
        let count = 0;
        let d = localDateISO(t, NY);
        while (d < endDate) {
          d = new Date(Date.parse(`${d}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
          if (isBiz(d)) count++;
        }
        const startIsBiz = isBiz(localDateISO(t, NY));
        // a non-business start counts from the next business day's midnight, which is not itself counted
        expect(count).toBe(startIsBiz ? n : n + 1);
      }
    }
  });

  it.each([-1, 1.5, Number.NaN, 10_000])("rejects n = %s", (n) => {
    expect(() => addBusinessDays(ms("2026-03-03T14:00:00Z"), n)).toThrow(RangeError);
  });

  it("rejects instants without an offset, junk instants, unknown zones and bad holidays", () => {
    expect(() => addBusinessDays("2026-03-03T14:00:00", 1)).toThrow(RangeError);
    expect(() => addBusinessDays("2026-03-03", 1)).toThrow(RangeError);
    expect(() => addBusinessDays("yesterday", 1)).toThrow(RangeError);
    expect(() => addBusinessDays(1.5, 1)).toThrow(RangeError);
    expect(() => addBusinessDays(0, 1, "Mars/Olympus_Mons")).toThrow(RangeError);
    expect(() => assertTimeZone("Not/AZone")).toThrow(RangeError);
    expect(() => addBusinessDays(0, 1, NY, ["2026/01/01"])).toThrow(RangeError);
  });
});

describe("time-zone helpers", () => {
  it("offsets follow DST", () => {
    expect(timeZoneOffsetMs("2026-01-15T12:00:00Z", NY)).toBe(-5 * HOUR_MS);
    expect(timeZoneOffsetMs("2026-07-15T12:00:00Z", NY)).toBe(-4 * HOUR_MS);
    // the change: 2026-03-08 02:00 EST -> 03:00 EDT (07:00Z)
    expect(timeZoneOffsetMs("2026-03-08T06:59:59Z", NY)).toBe(-5 * HOUR_MS);
    expect(timeZoneOffsetMs("2026-03-08T07:00:00Z", NY)).toBe(-4 * HOUR_MS);
    // 2026-11-01 02:00 EDT -> 01:00 EST (06:00Z)
    expect(timeZoneOffsetMs("2026-11-01T05:59:59Z", NY)).toBe(-4 * HOUR_MS);
    expect(timeZoneOffsetMs("2026-11-01T06:00:00Z", NY)).toBe(-5 * HOUR_MS);
  });

  it("zonedToEpochMs: normal, gap (moves forward), overlap (earlier instant)", () => {
    const at = (y: number, mo: number, d: number, h: number, mi = 0) =>
      new Date(
        zonedToEpochMs(
          { year: y, month: mo, day: d, hour: h, minute: mi, second: 0, millisecond: 0 },
          NY,
        ),
      ).toISOString();
    expect(at(2026, 1, 15, 9)).toBe("2026-01-15T14:00:00.000Z");
    expect(at(2026, 7, 15, 9)).toBe("2026-07-15T13:00:00.000Z");
    expect(at(2026, 3, 8, 2, 30)).toBe("2026-03-08T07:30:00.000Z"); // 02:30 does not exist -> 03:30 EDT
    expect(at(2026, 11, 1, 1, 30)).toBe("2026-11-01T05:30:00.000Z"); // 01:30 happens twice -> the EDT one
    expect(at(2026, 12, 31, 23, 59)).toBe("2027-01-01T04:59:00.000Z");
  });

  it("localDateTime / localDateISO", () => {
    expect(localDateTime("2026-01-01T04:59:59.250Z", NY)).toEqual({
      year: 2025,
      month: 12,
      day: 31,
      hour: 23,
      minute: 59,
      second: 59,
      millisecond: 250,
    });
    expect(localDateISO("2026-01-01T05:00:00Z", NY)).toBe("2026-01-01");
    expect(localDateTime("2026-06-01T04:00:00Z", NY).hour).toBe(0); // midnight is 0, never 24
  });

  it("toEpochMs", () => {
    expect(toEpochMs(5)).toBe(5);
    expect(toEpochMs("1970-01-01T00:00:00Z")).toBe(0);
    expect(toEpochMs("1970-01-01T01:00:00+01:00")).toBe(0);
    expect(() => toEpochMs("2026-13-45T00:00:00Z")).toThrow(RangeError);
  });
});

describe("business days and holidays", () => {
  it("weekends and holidays are not business days", () => {
    expect(isBusinessDate("2026-03-06")).toBe(true); // Friday
    expect(isBusinessDate("2026-03-07")).toBe(false); // Saturday
    expect(isBusinessDate("2026-03-08")).toBe(false); // Sunday
    expect(isBusinessDate("2026-12-25")).toBe(false); // Christmas
    expect(isBusinessDate("2026-12-25", [])).toBe(true);
    expect(isBusinessDay("2026-12-25T15:00:00Z")).toBe(false);
    expect(() => isBusinessDate("2026-3-6")).toThrow(RangeError);
  });

  it("nextBusinessDayStart", () => {
    expect(new Date(nextBusinessDayStart("2026-03-06T20:00:00Z")).toISOString()).toBe(
      "2026-03-09T04:00:00.000Z",
    );
    expect(new Date(nextBusinessDayStart("2026-12-24T20:00:00Z")).toISOString()).toBe(
      "2026-12-28T05:00:00.000Z",
    );
  });

  it("uses the generated US federal holiday table (tests/unit/domain/holidays.test.ts checks it) past 2027", () => {
    expect(US_FEDERAL_HOLIDAYS).toContain("2027-12-31"); // New Year 2028 observed
    expect(isBusinessDate("2030-11-28")).toBe(false); // Thanksgiving 2030
    expect(isBusinessDate("2031-07-04")).toBe(false); // Independence Day 2031 (a Friday)
    expect(isBusinessDate("2032-07-05")).toBe(false); // Independence Day 2032 observed (July 4 is a Sunday)
    expect(isBusinessDate("2032-07-06")).toBe(true);
    // Friday 2044-12-23 15:00 EST + 1 business day: Christmas 2044 is a Sunday, observed Monday the 26th
    expect(addBusinessDaysISO("2044-12-23T20:00:00Z", 1)).toBe("2044-12-27T20:00:00.000Z");
  });
});

describe("windows and timer durations", () => {
  it("WINDOWS holds the specification's windows", () => {
    expect(WINDOWS.checkoutExpiry).toBe(24 * HOUR_MS);
    expect(WINDOWS.sellerResponse).toBe(5 * DAY_MS);
    expect(WINDOWS.modifiedPurchaseResponse).toBe(DAY_MS);
    expect(WINDOWS.requestCheckout).toBe(3 * DAY_MS);
    expect(WINDOWS.pickupBusinessDays).toBe(2);
    expect(WINDOWS.pickupAttempts).toBe(2);
    expect(WINDOWS.ratingBusinessDays).toBe(3);
    expect(WINDOWS.rmaRequestHours).toBe(48);
    expect(WINDOWS.rmaRequest).toBe(48 * HOUR_MS);
    expect(WINDOWS.rmaStaffBusinessDays).toBe(5);
    expect(WINDOWS.rmaReturnShipBusinessDays).toBe(4);
    expect(WINDOWS.rmaMissingPayBusinessDays).toBe(3);
    // the seller window closes before a 7-day authorisation lapses, even after a 1-day modified-purchase wait
    expect(WINDOWS.sellerResponse + WINDOWS.modifiedPurchaseResponse).toBeLessThan(
      WINDOWS.authorizationLifetime,
    );
    expect(Object.isFrozen(WINDOWS)).toBe(true);
  });

  it("msUntil never goes negative", () => {
    expect(msUntil(1000, 400)).toBe(600);
    expect(msUntil(1000, 1000)).toBe(0);
    expect(msUntil(1000, 5000)).toBe(0);
  });

  it("calendar deadlines", () => {
    const start = ms("2026-03-07T12:00:00Z");
    expect(calendarDeadline(start, WINDOWS.checkoutExpiry)).toBe(start + 86_400_000);
    expect(msUntilCalendarDeadline(start, WINDOWS.sellerResponse, start + HOUR_MS)).toBe(
      5 * DAY_MS - HOUR_MS,
    );
    expect(() => calendarDeadline(start, -1)).toThrow(RangeError);
  });

  it("business deadlines as timer durations", () => {
    const approved = ms("2026-03-06T20:00:00Z"); // Fri 15:00 EST
    const now = approved + 10 * 60_000;
    const deadline = pickupDeadline(approved);
    expect(new Date(deadline).toISOString()).toBe("2026-03-10T19:00:00.000Z");
    expect(msUntilBusinessDeadline(approved, 2, now)).toBe(deadline - now);
    expect(new Date(ratingDeadline("2026-12-23T21:00:00Z")).toISOString()).toBe(
      "2026-12-29T21:00:00.000Z",
    );
  });

  it("RMA window: up to and including 48 hours after delivery", () => {
    const delivered = ms("2026-03-06T20:00:00Z");
    expect(isWithinRmaWindow(delivered, delivered)).toBe(true);
    expect(isWithinRmaWindow(delivered, delivered + 48 * HOUR_MS)).toBe(true);
    expect(isWithinRmaWindow(delivered, delivered + 48 * HOUR_MS + 1)).toBe(false);
    expect(isWithinRmaWindow(delivered, delivered - 1)).toBe(false);
  });

  it.each([
    ["delivered", 0, true],
    ["delivered", 48 * HOUR_MS, true],
    ["delivered", 48 * HOUR_MS + 1, false],
    ["completed", HOUR_MS, false],
    ["in_route", HOUR_MS, false],
    ["cancelled", HOUR_MS, false],
  ] as const)("a purchase in %s, %i ms after delivery: RMA open = %s", (statename, after, open) => {
    const delivered = ms("2026-03-06T20:00:00Z");
    expect(purchaseRmaOpen(statename, new Date(delivered).toISOString(), delivered + after)).toBe(
      open,
    );
  });

  it("no RMA without a delivery time", () => {
    expect(purchaseRmaOpen("delivered", null, ms("2026-03-06T20:00:00Z"))).toBe(false);
  });

  it("a modified purchase is auto-declined after 1 day, never later than the authorisation allows", () => {
    const authorized = ms("2026-03-01T12:00:00Z");
    const early = authorized + 2 * DAY_MS;
    expect(modifiedPurchaseDeadline(early, authorized)).toBe(early + DAY_MS);
    const late = authorized + 6 * DAY_MS + 12 * HOUR_MS;
    expect(modifiedPurchaseDeadline(late, authorized)).toBe(authorized + 7 * DAY_MS - HOUR_MS);
  });
});

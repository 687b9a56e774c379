/**
 * Time windows of the marketplace (docs/product/windows.md), computed without reading the clock:
 * every function takes the instants it needs, so Temporal workflows (deterministic), activities and
 * pages can all call it. Time-zone maths uses Intl.DateTimeFormat only (available in the workflow sandbox).
 *
 * Business day: a local calendar date, in the marketplace time zone, that is Monday to Friday and not in
 * the holiday list.
 *
 * addBusinessDays(start, n): the instant with the same local wall-clock time as `start`, n business days
 * later. When `start` itself is NOT a business day (weekend or holiday), the count starts at 00:00 local of
 * the next business day, so that the party still gets n whole business days:
 *   Friday 15:00 + 2  -> Tuesday 15:00
 *   Saturday 10:00 + 2 -> Wednesday 00:00 (that is, the end of Tuesday)
 *   Saturday 10:00 + 0 -> Monday 00:00
 * If the target wall time does not exist on the target date (a DST gap) it moves forward by the gap; if it
 * occurs twice (DST fall-back) the earlier instant is used ("compatible" disambiguation). US changes happen
 * on Sundays, so for US zones this never affects a business day.
 */

import { COMMON_STATES } from "./states";
import {
  US_FEDERAL_HOLIDAY_TABLE,
  US_FEDERAL_HOLIDAY_YEARS,
} from "./us-federal-holidays.generated";

export const DEFAULT_MARKETPLACE_TZ = "America/New_York";

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Every window of the specifications. Keys without a unit suffix are durations in milliseconds;
 * *BusinessDays are counts for addBusinessDays; *Hours are hour counts.
 */
export const WINDOWS = Object.freeze({
  /** A draft order whose checkout is never completed expires after 24 hours. */
  checkoutExpiry: 24 * HOUR_MS,
  /** The seller has 5 calendar days to answer a purchase request, then it is auto-declined. */
  sellerResponse: 5 * DAY_MS,
  /** The buyer has 1 calendar day to answer a modified purchase, then it is auto-declined. */
  modifiedPurchaseResponse: 1 * DAY_MS,
  /** A requestor has 3 calendar days to check out an order made for their request. */
  requestCheckout: 3 * DAY_MS,
  /** The carrier must scan the goods within 2 business days of approval (per pickup attempt). */
  pickupBusinessDays: 2,
  /** Pickup attempts before the order is cancelled with the penalty (the second is ship_order_try2). */
  pickupAttempts: 2,
  /** The receiver rates within 3 business days of delivery; then the order completes without it. */
  ratingBusinessDays: 3,
  /** An RMA must be requested within 48 hours of delivery. */
  rmaRequestHours: 48,
  rmaRequest: 48 * HOUR_MS,
  /** Staff answer an RMA within 5 business days. */
  rmaStaffBusinessDays: 5,
  /** An approved return must ship within 4 business days or the RMA is cancelled. */
  rmaReturnShipBusinessDays: 4,
  /** Missing-unit RMAs are paid within 3 business days. */
  rmaMissingPayBusinessDays: 3,
  /** A card authorisation lapses after 7 days at the payment provider. */
  authorizationLifetime: 7 * DAY_MS,
  /** Safety margin: nothing that needs the authorisation may wait closer than this to its lapse. */
  authorizationSafetyMargin: 1 * HOUR_MS,
});

/**
 * US federal holidays (observed dates) from 2020 to 2060, local dates in the marketplace time zone: the
 * table generated from the date-holidays library (domain/us-federal-holidays.generated.ts, ADR 0012).
 * Dates after US_FEDERAL_HOLIDAY_YEARS.last count as business days unless listed: regenerate before then.
 */
export const US_FEDERAL_HOLIDAYS: readonly string[] = US_FEDERAL_HOLIDAY_TABLE;
export { US_FEDERAL_HOLIDAY_YEARS };

/** An instant: epoch milliseconds, or an ISO 8601 date-time string WITH an offset ("Z" or "+hh:mm"). */
export type Instant = number | string;

const ISO_WITH_OFFSET_RE =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch ms of an instant. ISO strings without an offset are rejected (they would depend on the host's zone). */
export function toEpochMs(instant: Instant): number {
  if (typeof instant === "number") {
    if (!Number.isSafeInteger(instant))
      throw new RangeError(`instant must be integer epoch milliseconds, got ${instant}`);
    return instant;
  }
  if (typeof instant !== "string" || !ISO_WITH_OFFSET_RE.test(instant.trim())) {
    throw new RangeError(
      `instant must be an ISO date-time with an offset, got ${JSON.stringify(instant)}`,
    );
  }
  const ms = Date.parse(instant.trim());
  if (!Number.isFinite(ms)) throw new RangeError(`invalid instant ${JSON.stringify(instant)}`);
  return ms;
}

export function toISO(epochMs: number): string {
  return new Date(toEpochMs(epochMs)).toISOString();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError unless `timeZone` is an IANA zone Intl knows. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

export interface LocalDateTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Local wall-clock fields of an instant in a time zone. */
export function localDateTime(
  instant: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
): LocalDateTime {
  const ms = toEpochMs(instant);
  const parts = formatterFor(timeZone).formatToParts(new Date(ms));
  const get = (type: string): number => {
    const p = parts.find((x) => x.type === type);
    if (!p) throw new Error(`Intl did not return ${type}`);
    return Number(p.value);
  };
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour") % 24,
    minute: get("minute"),
    second: get("second"),
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

/** Offset of the zone from UTC at an instant, in ms (New York in winter: -5 h). */
export function timeZoneOffsetMs(
  instant: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
): number {
  const ms = toEpochMs(instant);
  const l = localDateTime(ms, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second, l.millisecond);
  return asUtc - ms;
}

function sameWall(a: LocalDateTime, b: LocalDateTime): boolean {
  return (
    a.year === b.year &&
    a.month === b.month &&
    a.day === b.day &&
    a.hour === b.hour &&
    a.minute === b.minute &&
    a.second === b.second
  );
}

/** The instant of a local wall-clock time in a zone (DST gap: forward by the gap; overlap: earlier instant). */
export function zonedToEpochMs(
  local: LocalDateTime,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
): number {
  const guess = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
    local.millisecond,
  );
  const offBefore = timeZoneOffsetMs(guess - DAY_MS, timeZone);
  const offAfter = timeZoneOffsetMs(guess + DAY_MS, timeZone);
  const candidates = [guess - offBefore, guess - offAfter].filter((c) =>
    sameWall(localDateTime(c, timeZone), local),
  );
  if (candidates.length > 0) return Math.min(...candidates);
  // Wall time inside a gap: interpret it with the offset in force before the transition (moves it forward).
  return guess - offBefore;
}

// Civil day numbers: days since 1970-01-01 of a local calendar date.
function civilDay(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
}

function civilToISODate(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

function civilFields(dayNumber: number): { year: number; month: number; day: number } {
  const d = new Date(dayNumber * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Sets of frozen holiday lists (the default table), built once instead of on every call. */
const frozenHolidaySets = new WeakMap<readonly string[], ReadonlySet<string>>();

function holidaySet(holidays: readonly string[]): ReadonlySet<string> {
  const cached = frozenHolidaySets.get(holidays);
  if (cached) return cached;
  for (const h of holidays) {
    if (!ISO_DATE_RE.test(h))
      throw new RangeError(`holiday must be an ISO date YYYY-MM-DD, got ${JSON.stringify(h)}`);
  }
  const set = new Set(holidays);
  if (Object.isFrozen(holidays)) frozenHolidaySets.set(holidays, set);
  return set;
}

function isBusinessCivil(dayNumber: number, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(dayNumber * DAY_MS).getUTCDay(); // 0 Sunday .. 6 Saturday
  if (weekday === 0 || weekday === 6) return false;
  return !holidays.has(civilToISODate(dayNumber));
}

/** Local calendar date "YYYY-MM-DD" of an instant in the zone. */
export function localDateISO(instant: Instant, timeZone: string = DEFAULT_MARKETPLACE_TZ): string {
  const l = localDateTime(instant, timeZone);
  return civilToISODate(civilDay(l.year, l.month, l.day));
}

/** True when the local date of the instant is Monday-Friday and not a holiday. */
export function isBusinessDay(
  instant: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): boolean {
  const l = localDateTime(instant, timeZone);
  return isBusinessCivil(civilDay(l.year, l.month, l.day), holidaySet(holidays));
}

/** True when an ISO date "YYYY-MM-DD" is a business day. */
export function isBusinessDate(
  isoDate: string,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): boolean {
  if (!ISO_DATE_RE.test(isoDate))
    throw new RangeError(`expected YYYY-MM-DD, got ${JSON.stringify(isoDate)}`);
  const [y, m, d] = isoDate.split("-").map(Number);
  return isBusinessCivil(civilDay(y, m, d), holidaySet(holidays));
}

export const MAX_BUSINESS_DAYS = 3650;

/** See the module comment for the rule; returns epoch milliseconds. */
export function addBusinessDays(
  start: Instant,
  n: number,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): number {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_BUSINESS_DAYS) {
    throw new RangeError(
      `business days must be an integer from 0 to ${MAX_BUSINESS_DAYS}, got ${String(n)}`,
    );
  }
  const set = holidaySet(holidays);
  const startLocal = localDateTime(start, timeZone);
  let day = civilDay(startLocal.year, startLocal.month, startLocal.day);
  let time = {
    hour: startLocal.hour,
    minute: startLocal.minute,
    second: startLocal.second,
    millisecond: startLocal.millisecond,
  };
  if (!isBusinessCivil(day, set)) {
    do day += 1;
    while (!isBusinessCivil(day, set));
    time = { hour: 0, minute: 0, second: 0, millisecond: 0 };
  }
  let remaining = n;
  while (remaining > 0) {
    day += 1;
    if (isBusinessCivil(day, set)) remaining -= 1;
  }
  return zonedToEpochMs({ ...civilFields(day), ...time }, timeZone);
}

/** addBusinessDays returning an ISO string (UTC). */
export function addBusinessDaysISO(
  start: Instant,
  n: number,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): string {
  return toISO(addBusinessDays(start, n, timeZone, holidays));
}

/** 00:00 local of the first business day strictly after the local date of `instant`. */
export function nextBusinessDayStart(
  instant: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): number {
  const set = holidaySet(holidays);
  const l = localDateTime(instant, timeZone);
  let day = civilDay(l.year, l.month, l.day);
  do day += 1;
  while (!isBusinessCivil(day, set));
  return zonedToEpochMs(
    { ...civilFields(day), hour: 0, minute: 0, second: 0, millisecond: 0 },
    timeZone,
  );
}

/** Milliseconds from `now` until `deadline`, never negative: a timer duration. */
export function msUntil(deadline: Instant, now: Instant): number {
  return Math.max(0, toEpochMs(deadline) - toEpochMs(now));
}

/** Timer duration until `n` business days after `start`, measured from `now`. */
export function msUntilBusinessDeadline(
  start: Instant,
  n: number,
  now: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): number {
  return msUntil(addBusinessDays(start, n, timeZone, holidays), now);
}

/** Deadline `durationMs` after `start` (calendar windows: 24 h, 5 days, ...). */
export function calendarDeadline(start: Instant, durationMs: number): number {
  if (!Number.isSafeInteger(durationMs) || durationMs < 0)
    throw new RangeError(`duration must be a non-negative integer of ms`);
  return toEpochMs(start) + durationMs;
}

/** Timer duration until `durationMs` after `start`, measured from `now`. */
export function msUntilCalendarDeadline(start: Instant, durationMs: number, now: Instant): number {
  return msUntil(calendarDeadline(start, durationMs), now);
}

/** Deadline of the pickup attempt that started at `approvedOrRescheduledAt` (2 business days). */
export function pickupDeadline(
  approvedOrRescheduledAt: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): number {
  return addBusinessDays(approvedOrRescheduledAt, WINDOWS.pickupBusinessDays, timeZone, holidays);
}

/** Deadline of the receiver's rating (3 business days after delivery). */
export function ratingDeadline(
  deliveredAt: Instant,
  timeZone: string = DEFAULT_MARKETPLACE_TZ,
  holidays: readonly string[] = US_FEDERAL_HOLIDAYS,
): number {
  return addBusinessDays(deliveredAt, WINDOWS.ratingBusinessDays, timeZone, holidays);
}

/** True while an RMA may still be requested: at most 48 hours after delivery. */
export function isWithinRmaWindow(deliveredAt: Instant, now: Instant): boolean {
  const elapsed = toEpochMs(now) - toEpochMs(deliveredAt);
  return elapsed >= 0 && elapsed <= WINDOWS.rmaRequest;
}

/**
 * Whether a purchase's buyer may ask for an RMA now, from what the read model keeps (the state its workflow
 * recorded and the delivery time): delivered, and within the 48-hour window. The order pages and the RMA
 * wizard use it; the workflow's canRequestRma query gives the same answer (its window timer closes at the
 * same instant), so a page need not ask the workflow.
 */
export function purchaseRmaOpen(
  statename: string,
  deliveredAt: Instant | null,
  now: Instant,
): boolean {
  return (
    statename === COMMON_STATES.DELIVERED &&
    deliveredAt !== null &&
    isWithinRmaWindow(deliveredAt, now)
  );
}

/**
 * When a modified purchase is auto-declined: 1 calendar day after the modification, but never later than
 * the card authorisation allows (its 7-day lifetime minus a safety margin).
 */
export function modifiedPurchaseDeadline(modifiedAt: Instant, authorizedAt: Instant): number {
  const byWindow = toEpochMs(modifiedAt) + WINDOWS.modifiedPurchaseResponse;
  const byAuthorization =
    toEpochMs(authorizedAt) + WINDOWS.authorizationLifetime - WINDOWS.authorizationSafetyMargin;
  return Math.min(byWindow, byAuthorization);
}

/**
 * The surplus dashboard (docs/product/screens.md, "Surplus dashboard"; ADR 0028): what a retailer's surplus is
 * doing, and the same per brand and for the whole marketplace. Pure code: the rows come from
 * db/queries/dashboard.ts, the clock and the zone (MARKETPLACE_TZ) are passed in. Months are the marketplace's
 * calendar months (domain/date-format.ts formatMonth); money is integer cents.
 */
import { localDateTime, zonedToEpochMs } from "./business-days";

export const DAY_MS = 24 * 60 * 60 * 1000;
/** How many months the series show, the current one last. */
export const DASHBOARD_MONTHS = 12;

/** Age buckets of what is listed, in whole days since it was listed (upper bound inclusive; null = no bound). */
export const AGE_BUCKETS = [
  { key: "0-30", label: "0–30 days", max: 30 },
  { key: "31-90", label: "31–90 days", max: 90 },
  { key: "91-180", label: "91–180 days", max: 180 },
  { key: "180+", label: "over 180 days", max: null },
] as const;
export type AgeBucketKey = (typeof AGE_BUCKETS)[number]["key"];

/** The bucket of a listing `ageDays` whole days old (a negative age, a clock skew, counts as 0). */
export function ageBucketOf(ageDays: number): AgeBucketKey {
  const days = Math.max(0, Math.floor(ageDays));
  for (const b of AGE_BUCKETS) if (b.max === null || days <= b.max) return b.key;
  return "180+";
}

/** Whole days from `fromMs` to `toMs` (floored; 0 when `toMs` is earlier). */
export function wholeDaysBetween(fromMs: number, toMs: number): number {
  return Math.max(0, Math.floor((toMs - fromMs) / DAY_MS));
}

/** The median of `values` (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The last `count` calendar months (YYYY-MM) in `zone` ending with the month of `nowMs`, oldest first. */
export function lastMonths(
  nowMs: number,
  zone: string,
  count: number = DASHBOARD_MONTHS,
): string[] {
  const now = localDateTime(nowMs, zone);
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const index = now.year * 12 + (now.month - 1) - i;
    out.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`);
  }
  return out;
}

/** The instant the first of the last `count` months begins (00:00 of its first day in `zone`). */
export function windowStartMs(
  nowMs: number,
  zone: string,
  count: number = DASHBOARD_MONTHS,
): number {
  const [year, month] = lastMonths(nowMs, zone, count)[0].split("-").map(Number);
  return zonedToEpochMs(
    { year, month, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
    zone,
  );
}

/**
 * The instants the `months` (YYYY-MM, consecutive, oldest first) begin in `zone`, and the instant the month after
 * the last begins: months.length + 1 ascending bounds. Month i is [bounds[i], bounds[i + 1]).
 */
export function monthBounds(months: readonly string[], zone: string): number[] {
  return [...months, nextMonthKey(months[months.length - 1])].map((key) => {
    const [year, month] = key.split("-").map(Number);
    return zonedToEpochMs(
      { year, month, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
      zone,
    );
  });
}

function nextMonthKey(key: string): string {
  const [year, month] = key.split("-").map(Number);
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, "0")}`;
}

/**
 * The index of the month of monthBounds holding the instant `ms`, or -1 before the first or from the end of the
 * last: the month formatMonth(ms, zone) names, without formatting every row's date in the zone (thousands of
 * rows a dashboard: Intl's formatToParts for each was most of its time; docs/performance.md).
 */
export function monthIndexAt(ms: number, bounds: readonly number[]): number {
  if (!(ms >= bounds[0] && ms < bounds[bounds.length - 1])) return -1;
  let i = 0;
  while (ms >= bounds[i + 1]) i += 1;
  return i;
}

/** What is listed now, grouped by whole days since listing (the query groups; this buckets). */
export interface ListedRow {
  ageDays: number;
  listings: number;
  units: number;
  /** Units × the wholesale cost. */
  valueCents: number;
}

/** One party's side of a sale or a swap that was traded (approved or later). */
export interface TradeSideRow {
  kind: "sale" | "swap";
  createdAtMs: number;
  /** The goods this side gave (a sale: its goods value; a swap: this side's goods). */
  givenCents: number;
  /** The goods this side received in a swap (0 for a sale's seller). */
  receivedCents: number;
  /** The marketplace's fee this side paid. */
  feeCents: number;
  /** A sale made to fill another retailer's request. */
  filledRequest: boolean;
  /** Whole days from each given line's listing to the order (lines without a listing are left out). */
  daysToSell: number[];
}

/** A payout made to this side's seller. */
export interface PayoutRow {
  createdAtMs: number;
  amountCents: number;
}

export interface AgeBucketFigures {
  key: AgeBucketKey;
  label: string;
  listings: number;
  units: number;
  valueCents: number;
}

export interface MonthFigures {
  month: string;
  soldCents: number;
  swappedCents: number;
  payoutsCents: number;
  swapValuesCents: number;
  feesCents: number;
  requestsFilled: number;
  /** Median whole days from listing to sale or swap of the month's trades; null when nothing moved. */
  medianDaysToSell: number | null;
}

export interface Dashboard {
  months: MonthFigures[];
  ages: AgeBucketFigures[];
  listed: { listings: number; units: number; valueCents: number };
  totals: Omit<MonthFigures, "month" | "medianDaysToSell"> & { recoveredCents: number };
  /** Median whole days from listing to sale or swap over the months shown; null when nothing moved. */
  medianDaysToSell: number | null;
  trades: number;
}

/**
 * The dashboard of the last DASHBOARD_MONTHS months from the rows: what is listed by age, and per month the
 * value sold and swapped, payouts, swap values received, fees, requests filled. Rows outside the months are
 * left out; months without rows are zeros.
 */
export function buildDashboard(
  input: {
    listed: readonly ListedRow[];
    sides: readonly TradeSideRow[];
    payouts: readonly PayoutRow[];
  },
  nowMs: number,
  zone: string,
): Dashboard {
  const months = lastMonths(nowMs, zone).map(
    (month): MonthFigures => ({
      month,
      soldCents: 0,
      swappedCents: 0,
      payoutsCents: 0,
      swapValuesCents: 0,
      feesCents: 0,
      requestsFilled: 0,
      medianDaysToSell: null,
    }),
  );
  const bounds = monthBounds(
    months.map((m) => m.month),
    zone,
  );
  const monthAt = (ms: number): MonthFigures | undefined => months[monthIndexAt(ms, bounds)];
  const ages = AGE_BUCKETS.map(
    (b): AgeBucketFigures => ({ key: b.key, label: b.label, listings: 0, units: 0, valueCents: 0 }),
  );
  for (const row of input.listed) {
    const bucket = ages.find((a) => a.key === ageBucketOf(row.ageDays))!;
    bucket.listings += row.listings;
    bucket.units += row.units;
    bucket.valueCents += row.valueCents;
  }
  const days: number[] = [];
  const monthDays = months.map((): number[] => []);
  let trades = 0;
  for (const side of input.sides) {
    const index = monthIndexAt(side.createdAtMs, bounds);
    const m = months[index];
    if (!m) continue;
    trades += 1;
    if (side.kind === "sale") m.soldCents += side.givenCents;
    else m.swappedCents += side.givenCents;
    m.swapValuesCents += side.receivedCents;
    m.feesCents += side.feeCents;
    if (side.filledRequest) m.requestsFilled += 1;
    days.push(...side.daysToSell);
    monthDays[index].push(...side.daysToSell);
  }
  months.forEach((m, i) => (m.medianDaysToSell = median(monthDays[i])));
  for (const p of input.payouts) {
    const m = monthAt(p.createdAtMs);
    if (m) m.payoutsCents += p.amountCents;
  }
  const sum = (f: (m: MonthFigures) => number) => months.reduce((s, m) => s + f(m), 0);
  const totals = {
    soldCents: sum((m) => m.soldCents),
    swappedCents: sum((m) => m.swappedCents),
    payoutsCents: sum((m) => m.payoutsCents),
    swapValuesCents: sum((m) => m.swapValuesCents),
    feesCents: sum((m) => m.feesCents),
    requestsFilled: sum((m) => m.requestsFilled),
  };
  return {
    months,
    ages,
    listed: {
      listings: ages.reduce((s, a) => s + a.listings, 0),
      units: ages.reduce((s, a) => s + a.units, 0),
      valueCents: ages.reduce((s, a) => s + a.valueCents, 0),
    },
    totals: { ...totals, recoveredCents: totals.payoutsCents + totals.swapValuesCents },
    medianDaysToSell: median(days),
    trades,
  };
}

/** A month key (YYYY-MM) as the dashboard labels it: "Nov 2026", and the short axis label "Nov". */
const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return `${MONTH_NAMES[m - 1]} ${y}`;
}
export function monthShortLabel(month: string): string {
  return MONTH_NAMES[Number(month.split("-")[1]) - 1];
}

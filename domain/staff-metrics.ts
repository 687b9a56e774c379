/**
 * Staff's metrics beside the surplus dashboard (docs/product/screens.md, "Surplus dashboard"; ADRs 0028, 0030):
 * matches made per week (weeks start on Monday, 00:00 in the marketplace's zone, MARKETPLACE_TZ) and the rows
 * of the two CSV downloads (the dashboard per scope and month; matches per scope and week). Pure code: the rows
 * come from db/queries/dashboard.ts, the clock and the zone are passed in; money is integer cents, written to
 * the CSVs as dollars with cents ("12.50") like the other reports.
 */
import { localDateTime, zonedToEpochMs } from "./business-days";
import { centsToDecimalString } from "./money";
import { AGE_BUCKETS, type Dashboard } from "./surplus-dashboard";

/** How many weeks the matches figures show, the current one last. */
export const MATCH_WEEKS = 12;

const DAY_MS = 24 * 60 * 60 * 1000;
const two = (n: number) => String(n).padStart(2, "0");
const isoOfUtcDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
};

/**
 * The Mondays (YYYY-MM-DD, the marketplace's calendar) that begin the last `count` weeks, the week holding
 * `nowMs` last. Calendar arithmetic on dates, so a change of daylight saving time moves no week.
 */
export function lastWeekStarts(nowMs: number, zone: string, count: number = MATCH_WEEKS): string[] {
  const now = localDateTime(nowMs, zone);
  const today = Date.UTC(now.year, now.month - 1, now.day);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(isoOfUtcDay(monday - i * 7 * DAY_MS));
  return out;
}

/**
 * The instants the weeks `starts` (consecutive Mondays, oldest first) begin in `zone`, and the instant the week
 * after the last begins: starts.length + 1 ascending bounds. Week i is [bounds[i], bounds[i + 1]).
 */
export function weekBounds(starts: readonly string[], zone: string): number[] {
  const last = Date.parse(`${starts[starts.length - 1]}T00:00:00Z`);
  return [...starts, isoOfUtcDay(last + 7 * DAY_MS)].map((day) => {
    const [year, month, date] = day.split("-").map(Number);
    return zonedToEpochMs(
      { year, month, day: date, hour: 0, minute: 0, second: 0, millisecond: 0 },
      zone,
    );
  });
}

/** The matches of one week (its index in the weeks' bounds) as the database groups them. */
export interface WeekMatchRow {
  week: number;
  /** Matches filling an open request. */
  requests: number;
  /** Matches fitting a saved search. */
  searches: number;
  /** Of those, the listings the matched retailer later bought or swapped for (an order approved or later). */
  traded: number;
}

export interface WeekFigures {
  /** The week's Monday, YYYY-MM-DD. */
  weekStart: string;
  matches: number;
  requests: number;
  searches: number;
  traded: number;
}

/** One line per week of `starts`, oldest first: the rows summed by week; rows outside the weeks are left out. */
export function buildMatchWeeks(
  rows: readonly WeekMatchRow[],
  starts: readonly string[],
): WeekFigures[] {
  const weeks = starts.map(
    (weekStart): WeekFigures => ({ weekStart, matches: 0, requests: 0, searches: 0, traded: 0 }),
  );
  for (const r of rows) {
    const w = weeks[r.week];
    if (!w) continue;
    w.requests += r.requests;
    w.searches += r.searches;
    w.matches += r.requests + r.searches;
    w.traded += r.traded;
  }
  return weeks;
}

/** A week's Monday as a page shows it: "11/23/2026" (the product's dates), and the axis label "11/23". */
export function weekLabel(weekStart: string): string {
  const [y, m, d] = weekStart.split("-");
  return `${m}/${d}/${y}`;
}
export function weekShortLabel(weekStart: string): string {
  const [, m, d] = weekStart.split("-");
  return `${m}/${d}`;
}

/** Whose figures a CSV row holds: the whole marketplace, or one brand. */
export type MetricsScope = { kind: "marketplace" } | { kind: "brand"; id: number; name: string };

const scopeCells = (scope: MetricsScope) =>
  scope.kind === "marketplace"
    ? { scope: "marketplace", brand_id: "", brand: "" }
    : { scope: "brand", brand_id: String(scope.id), brand: scope.name };

const dollars = (cents: number) => centsToDecimalString(cents);

/** The surplus dashboard CSV's columns (ADR 0028): one row per scope and month. */
export const DASHBOARD_CSV_COLUMNS = [
  "scope",
  "brand_id",
  "brand",
  "month",
  "listed_now_0_30_days",
  "listed_now_31_90_days",
  "listed_now_91_180_days",
  "listed_now_over_180_days",
  "listed_now",
  "sold",
  "swapped",
  "median_days_to_sell",
  "payouts",
  "swap_values",
  "money_recovered",
  "fees_paid",
  "requests_filled",
] as const;

const LISTED_COLUMNS = [
  "listed_now_0_30_days",
  "listed_now_31_90_days",
  "listed_now_91_180_days",
  "listed_now_over_180_days",
] as const;

/**
 * A dashboard's rows: one per month, oldest first. What is listed is a figure of now, so only the current
 * (last) month's row carries it; the earlier months' listed cells are empty.
 */
export function dashboardCsvRows(
  scope: MetricsScope,
  d: Dashboard,
): Record<(typeof DASHBOARD_CSV_COLUMNS)[number], string>[] {
  const last = d.months.length - 1;
  return d.months.map((m, i) => {
    const listed = Object.fromEntries(
      LISTED_COLUMNS.map((c, j) => [
        c,
        i === last ? dollars(d.ages.find((a) => a.key === AGE_BUCKETS[j].key)!.valueCents) : "",
      ]),
    ) as Record<(typeof LISTED_COLUMNS)[number], string>;
    return {
      ...scopeCells(scope),
      month: m.month,
      ...listed,
      listed_now: i === last ? dollars(d.listed.valueCents) : "",
      sold: dollars(m.soldCents),
      swapped: dollars(m.swappedCents),
      median_days_to_sell: m.medianDaysToSell === null ? "" : String(m.medianDaysToSell),
      payouts: dollars(m.payoutsCents),
      swap_values: dollars(m.swapValuesCents),
      money_recovered: dollars(m.payoutsCents + m.swapValuesCents),
      fees_paid: dollars(m.feesCents),
      requests_filled: String(m.requestsFilled),
    };
  });
}

/** The matches per week CSV's columns (ADR 0030): one row per scope and week. */
export const MATCHES_CSV_COLUMNS = [
  "scope",
  "brand_id",
  "brand",
  "week_start",
  "matches",
  "filling_a_request",
  "fitting_a_saved_search",
  "bought_or_swapped",
] as const;

export function matchesCsvRows(
  scope: MetricsScope,
  weeks: readonly WeekFigures[],
): Record<(typeof MATCHES_CSV_COLUMNS)[number], string>[] {
  return weeks.map((w) => ({
    ...scopeCells(scope),
    week_start: w.weekStart,
    matches: String(w.matches),
    filling_a_request: String(w.requests),
    fitting_a_saved_search: String(w.searches),
    bought_or_swapped: String(w.traded),
  }));
}

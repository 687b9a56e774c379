/**
 * Server half of staff's metrics beside the surplus dashboard (docs/product/screens.md, "Surplus dashboard";
 * ADRs 0028, 0030): the matches per week of the staff page, and the two CSV downloads
 * (/admin/reports/surplus-dashboard.csv, /admin/reports/matches-per-week.csv) for the whole marketplace and every
 * brand. Each CSV costs a fixed number of grouped reads whatever the number of brands; the figures are built by
 * the same domain code as the pages (buildDashboard, buildMatchWeeks).
 */
import {
  dashboardBrands,
  dashboardRowsByBrand,
  matchesPerWeek,
  type MatchesScope,
  type WithBrand,
} from "../../db/queries/dashboard";
import type { ReportSource } from "../../db/queries/reports";
import { localDateISO } from "../../domain/business-days";
import {
  buildMatchWeeks,
  DASHBOARD_CSV_COLUMNS,
  dashboardCsvRows,
  lastWeekStarts,
  MATCHES_CSV_COLUMNS,
  matchesCsvRows,
  weekBounds,
  type MetricsScope,
  type WeekFigures,
} from "../../domain/staff-metrics";
import { buildDashboard, windowStartMs } from "../../domain/surplus-dashboard";
import { csvResponse } from "~/utils/csv.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";

/** The matches of the last weeks for the staff page: the marketplace's, or one brand's. */
export async function loadMatchWeeks(
  scope: { brandId: number } | { marketplace: true },
  nowMs: number = Date.now(),
): Promise<WeekFigures[]> {
  const tz = getEnv().MARKETPLACE_TZ;
  const starts = lastWeekStarts(nowMs, tz);
  return buildMatchWeeks(
    await matchesPerWeek(db, scope as MatchesScope, weekBounds(starts, tz)),
    starts,
  );
}

/** `rows` by brand id (rows without a brand are the marketplace's only). */
function byBrand<T>(rows: readonly WithBrand<T>[]): Map<number, WithBrand<T>[]> {
  const out = new Map<number, WithBrand<T>[]>();
  for (const r of rows) {
    if (r.brandId === null) continue;
    const list = out.get(r.brandId);
    if (list) list.push(r);
    else out.set(r.brandId, [r]);
  }
  return out;
}

/** The marketplace first, then every brand by name. */
async function scopes(): Promise<{ scope: MetricsScope; brandId: number | null }[]> {
  const brands = await dashboardBrands(db);
  return [
    { scope: { kind: "marketplace" }, brandId: null },
    ...brands.map((b) => ({
      scope: { kind: "brand", id: b.id, name: b.name } as MetricsScope,
      brandId: b.id,
    })),
  ];
}

async function* once(rows: Record<string, unknown>[]): AsyncIterable<Record<string, unknown>[]> {
  yield rows;
}

/** The surplus dashboard of the marketplace and of every brand, one row per scope and month (ADR 0028). */
export async function surplusDashboardSource(nowMs: number, tz: string): Promise<ReportSource> {
  const rows = await dashboardRowsByBrand(db, nowMs, new Date(windowStartMs(nowMs, tz)));
  const listed = byBrand(rows.listed);
  const sides = byBrand(rows.sides);
  const payouts = byBrand(rows.payouts);
  const out: Record<string, unknown>[] = [];
  for (const { scope, brandId } of await scopes()) {
    const input =
      brandId === null
        ? rows
        : {
            listed: listed.get(brandId) ?? [],
            sides: sides.get(brandId) ?? [],
            payouts: payouts.get(brandId) ?? [],
          };
    out.push(...dashboardCsvRows(scope, buildDashboard(input, nowMs, tz)));
  }
  return { columns: [...DASHBOARD_CSV_COLUMNS], batches: once(out) };
}

/** The matches per week of the marketplace and of every brand, one row per scope and week (ADR 0030). */
export async function matchesPerWeekSource(nowMs: number, tz: string): Promise<ReportSource> {
  const starts = lastWeekStarts(nowMs, tz);
  const rows = await matchesPerWeek(db, { everyBrand: true }, weekBounds(starts, tz));
  const perBrand = byBrand(rows);
  const out: Record<string, unknown>[] = [];
  for (const { scope, brandId } of await scopes()) {
    const weeks = buildMatchWeeks(brandId === null ? rows : (perBrand.get(brandId) ?? []), starts);
    out.push(...matchesCsvRows(scope, weeks));
  }
  return { columns: [...MATCHES_CSV_COLUMNS], batches: once(out) };
}

/** The loader of either CSV: staff only; the file is named by the marketplace's day. */
export async function staffMetricsCsv(
  request: Request,
  report: "surplus-dashboard" | "matches-per-week",
): Promise<Response> {
  await requireRetailerAdmin(request);
  const tz = getEnv().MARKETPLACE_TZ;
  const now = Date.now();
  const source =
    report === "surplus-dashboard"
      ? await surplusDashboardSource(now, tz)
      : await matchesPerWeekSource(now, tz);
  return csvResponse(`${report}-${localDateISO(now, tz)}.csv`, source);
}

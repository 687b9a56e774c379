/**
 * The surplus dashboard of a scope (a retailer, a brand, the marketplace) at this moment, in the marketplace's
 * months (docs/product/screens.md, "Surplus dashboard"; ADR 0028).
 */
import { dashboardRows, type DashboardScope } from "../../db/queries/dashboard";
import { buildDashboard, windowStartMs, type Dashboard } from "../../domain/surplus-dashboard";
import { db } from "./db.server";
import { getEnv } from "./env.server";

export async function loadDashboard(
  scope: DashboardScope,
  nowMs: number = Date.now(),
): Promise<Dashboard> {
  const tz = getEnv().MARKETPLACE_TZ;
  const rows = await dashboardRows(db, scope, nowMs, new Date(windowStartMs(nowMs, tz)));
  return buildDashboard(rows, nowMs, tz);
}

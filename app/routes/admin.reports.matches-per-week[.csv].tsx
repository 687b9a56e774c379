/**
 * /admin/reports/matches-per-week.csv (docs/product/screens.md, "Surplus dashboard"; ADR 0030): matches made per
 * week of the whole marketplace and of every brand, one row per scope and week. Staff only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { staffMetricsCsv } from "~/utils/staff-metrics.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return staffMetricsCsv(request, "matches-per-week");
}

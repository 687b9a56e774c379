/**
 * /admin/reports/surplus-dashboard.csv (docs/product/screens.md, "Surplus dashboard"; ADR 0028): the surplus
 * dashboard's figures of the whole marketplace and of every brand, one row per scope and month. Staff only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { staffMetricsCsv } from "~/utils/staff-metrics.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return staffMetricsCsv(request, "surplus-dashboard");
}

/**
 * Report downloads (docs/product/screens.md, "Staff: reports and map"), streamed as CSV (column meanings: ADR 0018):
 *   /admin/reports/shipment-insurance.csv?from=YYYY-MM-DD&to=YYYY-MM-DD   (to inclusive; default the last 30 days)
 *   /admin/reports/monthly-metrics.csv
 *   /admin/reports/brand-inventory.csv
 *   /admin/reports/retailer-brands.csv
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { brandInventoryReport, monthlyMetricsReport, retailerBrandsReport, shipmentInsuranceReport } from "../../db/queries/reports";
import { csvResponse } from "~/utils/csv.server";
import { db } from "~/utils/db.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";

const DAY = 24 * 60 * 60 * 1000;
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "not a date");
const RangeSchema = z.object({ from: isoDate.optional(), to: isoDate.optional() });

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  const stamp = new Date().toISOString().slice(0, 10);
  switch (params.report) {
    case "shipment-insurance.csv": {
      const q = new URL(request.url).searchParams;
      const parsed = RangeSchema.safeParse({ from: q.get("from") || undefined, to: q.get("to") || undefined });
      if (!parsed.success) throw plain(400, "Bad request: from and to are dates as YYYY-MM-DD.");
      const to = parsed.data.to
        ? new Date(Date.parse(`${parsed.data.to}T00:00:00Z`) + DAY)
        : new Date(Date.parse(`${stamp}T00:00:00Z`) + DAY);
      const from = parsed.data.from ? new Date(`${parsed.data.from}T00:00:00Z`) : new Date(to.getTime() - 31 * DAY);
      if (from >= to) throw plain(400, "Bad request: from must be on or before to.");
      if (to.getTime() - from.getTime() > 3660 * DAY) throw plain(400, "Bad request: at most ten years at a time.");
      return csvResponse(
        `shipment-insurance-${from.toISOString().slice(0, 10)}-to-${new Date(to.getTime() - DAY).toISOString().slice(0, 10)}.csv`,
        shipmentInsuranceReport(db, { from, to }),
      );
    }
    case "monthly-metrics.csv":
      return csvResponse(`monthly-metrics-${stamp}.csv`, monthlyMetricsReport(db));
    case "brand-inventory.csv":
      return csvResponse(`brand-inventory-${stamp}.csv`, brandInventoryReport(db));
    case "retailer-brands.csv":
      return csvResponse(`retailer-brands-${stamp}.csv`, retailerBrandsReport(db));
    default:
      throw plain(404, "No such report.");
  }
}

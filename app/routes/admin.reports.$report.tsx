/**
 * Report downloads (docs/product/screens.md, "Staff: reports and map"), streamed as CSV (column meanings: ADR 0018):
 *   /admin/reports/shipment-insurance.csv?from=YYYY-MM-DD&to=YYYY-MM-DD   (to inclusive; default the last 30 days)
 *   /admin/reports/monthly-metrics.csv
 *   /admin/reports/brand-inventory.csv
 *   /admin/reports/retailer-brands.csv
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  brandInventoryReport,
  monthlyMetricsReport,
  retailerBrandsReport,
  shipmentInsuranceReport,
} from "../../db/queries/reports";
import { localDateISO, zonedToEpochMs } from "../../domain/business-days";
import { csvResponse } from "~/utils/csv.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";

const DAY = 24 * 60 * 60 * 1000;
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "not a date");
const RangeSchema = z.object({ from: isoDate.optional(), to: isoDate.optional() });

const dayISO = (ms: number) => new Date(ms).toISOString().slice(0, 10);
function localMidnight(day: string, tz: string): number {
  const [year, month, date] = day.split("-").map(Number);
  return zonedToEpochMs(
    { year, month, day: date, hour: 0, minute: 0, second: 0, millisecond: 0 },
    tz,
  );
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  // Days and months are the marketplace's (docs/product/windows.md, "Time zone").
  const tz = getEnv().MARKETPLACE_TZ;
  const stamp = localDateISO(Date.now(), tz);
  switch (params.report) {
    case "shipment-insurance.csv": {
      const q = new URL(request.url).searchParams;
      const parsed = RangeSchema.safeParse({
        from: q.get("from") || undefined,
        to: q.get("to") || undefined,
      });
      if (!parsed.success) throw plain(400, "Bad request: from and to are dates as YYYY-MM-DD.");
      const lastDay = parsed.data.to ?? stamp;
      const firstDay = parsed.data.from ?? dayISO(Date.parse(`${lastDay}T00:00:00Z`) - 30 * DAY);
      if (firstDay > lastDay) throw plain(400, "Bad request: from must be on or before to.");
      if (Date.parse(`${lastDay}T00:00:00Z`) - Date.parse(`${firstDay}T00:00:00Z`) >= 3660 * DAY)
        throw plain(400, "Bad request: at most ten years at a time.");
      // [00:00 of the first day, 00:00 of the day after the last) in the marketplace's zone.
      const from = new Date(localMidnight(firstDay, tz));
      const to = new Date(localMidnight(dayISO(Date.parse(`${lastDay}T00:00:00Z`) + DAY), tz));
      return csvResponse(
        `shipment-insurance-${firstDay}-to-${lastDay}.csv`,
        shipmentInsuranceReport(db, { from, to }, tz),
      );
    }
    case "monthly-metrics.csv":
      return csvResponse(`monthly-metrics-${stamp}.csv`, monthlyMetricsReport(db, tz));
    case "brand-inventory.csv":
      return csvResponse(`brand-inventory-${stamp}.csv`, brandInventoryReport(db));
    case "retailer-brands.csv":
      return csvResponse(`retailer-brands-${stamp}.csv`, retailerBrandsReport(db, tz));
    default:
      throw plain(404, "No such report.");
  }
}

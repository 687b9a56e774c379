/** Display formats of the order screens (docs/product/screens.md, "Limits"): dates MM/DD/YYYY, date-time MM/DD/YYYY hh:mm:ss, relative time since. */
import { useRouteLoaderData } from "@remix-run/react";
import { DEFAULT_MARKETPLACE_TZ } from "../../../domain/business-days";
import type { ShellData } from "../shell-data";

export { formatDate, formatDateTime } from "../../../domain/date-format";

/** The marketplace time zone (MARKETPLACE_TZ) from the root loader: pass it to formatDate / formatDateTime. */
export function useMarketplaceZone(): string {
  return (useRouteLoaderData("root") as ShellData | undefined)?.timeZone ?? DEFAULT_MARKETPLACE_TZ;
}

/** "5 minutes ago", "3 hours ago", "2 days ago". `now` is passed so server and browser agree. */
export function timeSince(iso: string, now: number): string {
  const ms = Math.max(0, now - new Date(iso).getTime());
  const s = Math.floor(ms / 1000);
  const unit = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"} ago`;
  if (s < 60) return "just now";
  const m = Math.floor(s / 60);
  if (m < 60) return unit(m, "minute");
  const h = Math.floor(m / 60);
  if (h < 24) return unit(h, "hour");
  const d = Math.floor(h / 24);
  if (d < 30) return unit(d, "day");
  const mo = Math.floor(d / 30);
  if (mo < 12) return unit(mo, "month");
  return unit(Math.floor(d / 365), "year");
}

export function sizesText(sizes: Record<string, number> | null | undefined): string {
  if (!sizes) return "";
  return Object.entries(sizes)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} × ${n}`)
    .join(", ");
}

const SHIPMENT_STATUS_TEXT: Record<string, string> = {
  pickup_scheduled: "Pickup Scheduled",
  in_route: "In-Route",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

export function shipmentStatusText(status: string): string {
  return SHIPMENT_STATUS_TEXT[status] ?? status;
}

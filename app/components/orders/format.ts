/** Display formats of the order screens (docs/product/screens.md, "Limits"): dates MM/DD/YYYY, date-time MM/DD/YYYY hh:mm:ss, relative time since. */

const TZ = "America/New_York";

const DATE_FORMAT: Intl.DateTimeFormatOptions = { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" };
/** Made once: building an Intl.DateTimeFormat costs far more than formatting with it (order pages format many dates). */
const DATE = new Intl.DateTimeFormat("en-US", DATE_FORMAT);
const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  ...DATE_FORMAT,
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

function parts(iso: string, withTime: boolean): Record<string, string> | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  const f = withTime ? DATE_TIME : DATE;
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(d)) out[p.type] = p.value;
  return out;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const p = parts(iso, false);
  return p ? `${p.month}/${p.day}/${p.year}` : "";
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const p = parts(iso, true);
  if (!p) return "";
  const hour = p.hour === "24" ? "00" : p.hour;
  return `${p.month}/${p.day}/${p.year} ${hour}:${p.minute}:${p.second}`;
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

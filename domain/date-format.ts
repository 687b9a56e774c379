/**
 * The one formatter of dates and times shown to people: pages, e-mails, PDFs and CSVs
 * (docs/product/windows.md, "Time zone"; docs/product/screens.md, "Limits"). Every instant is shown in the
 * marketplace time zone (MARKETPLACE_TZ), which callers pass in: this module reads no environment, so pages,
 * activities and documents all format alike. Dates are MM/DD/YYYY; date-times MM/DD/YYYY hh:mm:ss (24-hour),
 * or MM/DD/YYYY hh:mm where seconds would be noise (notices); the CSV reports' cells are the sortable
 * YYYY-MM-DD (hh:mm:ss) and YYYY-MM of the same wall clock.
 */

import { localDateTime, type LocalDateTime } from "./business-days";

/** The wall-clock fields in `zone` (the zone maths of the business-day code), or null for a missing or unreadable value. */
function localOf(value: string | Date | null | undefined, zone: string): LocalDateTime | null {
  if (!value) return null;
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(ms) ? null : localDateTime(ms, zone);
}

const two = (n: number) => String(n).padStart(2, "0");

/** MM/DD/YYYY in `zone`; "" for a missing or unreadable value. */
export function formatDate(value: string | Date | null | undefined, zone: string): string {
  const l = localOf(value, zone);
  return l ? `${two(l.month)}/${two(l.day)}/${l.year}` : "";
}

/** MM/DD/YYYY hh:mm:ss in `zone` (hh:mm with `{ seconds: false }`); "" for a missing or unreadable value. */
export function formatDateTime(
  value: string | Date | null | undefined,
  zone: string,
  opts: { seconds?: boolean } = {},
): string {
  const l = localOf(value, zone);
  if (!l) return "";
  const time = `${two(l.hour)}:${two(l.minute)}${opts.seconds === false ? "" : `:${two(l.second)}`}`;
  return `${two(l.month)}/${two(l.day)}/${l.year} ${time}`;
}

/**
 * The CSV reports' sortable forms (docs/product/windows.md, "Time zone"), same zone maths: YYYY-MM-DD, and
 * YYYY-MM-DD hh:mm:ss; "" for a missing or unreadable value.
 */
export function formatSortableDate(value: string | Date | null | undefined, zone: string): string {
  const l = localOf(value, zone);
  return l ? `${l.year}-${two(l.month)}-${two(l.day)}` : "";
}

export function formatSortableDateTime(
  value: string | Date | null | undefined,
  zone: string,
): string {
  const l = localOf(value, zone);
  return l
    ? `${l.year}-${two(l.month)}-${two(l.day)} ${two(l.hour)}:${two(l.minute)}:${two(l.second)}`
    : "";
}

/** The calendar month (YYYY-MM) of an instant in `zone`: the monthly report's buckets. */
export function formatMonth(value: string | Date | null | undefined, zone: string): string {
  return formatSortableDate(value, zone).slice(0, 7);
}

import { z } from "zod";
import { ContactStepSchema, MSG, RetailerStepSchema, storeInfoColumns } from "./accounts";
import { text } from "./text";
import { RowId } from "./ids";

/**
 * Staff retailer administration (docs/product/screens.md, "Staff: retailer admin"; ADR 0018): the forms' schemas, the bulk
 * upload's columns and row rules, the sales-rep resource, the map's geometry and the CSV cell rule.
 */

/** The two-letter codes of the 50 states, DC and the territories a retailer may be in. */
export const US_STATE_CODES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
  "PR",
  "GU",
  "VI",
  "AS",
  "MP",
] as const;
const STATE_SET = new Set<string>(US_STATE_CODES);

/** The Choose Retailer sub-tabs and the statuses each shows (pending is "is_active none"). */
export const RETAILER_LIST_TABS = {
  active: ["active"],
  pending: ["pending"],
  inactive: ["inactive", "denied"],
  all: ["pending", "active", "inactive", "denied"],
} as const;
export type RetailerListTab = keyof typeof RETAILER_LIST_TABS;

/** is_active as the spec shows it: true, false, or pending shown as none. */
export function isActiveLabel(
  status: "pending" | "active" | "inactive" | "denied",
): "true" | "false" | "none" {
  return status === "active" ? "true" : status === "pending" ? "none" : "false";
}

/** last_active is written at most once per this long per retailer (not on every request). */
export const LAST_ACTIVE_EVERY_MS = 5 * 60 * 1000;

/** True when a retailer seen last at `last` should have its last_active written again at `now`. */
export function lastActiveDue(last: Date | null, now: Date): boolean {
  return last === null || now.getTime() - last.getTime() >= LAST_ACTIVE_EVERY_MS;
}

const stateCode = z
  .string({ required_error: MSG.stateInvalid })
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => STATE_SET.has(s), MSG.stateInvalid);

/** A comma- or semicolon-separated list typed in one field ("Outdoor; Running"). */
export function splitList(v: string | undefined | null): string[] {
  return (v ?? "")
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const optionalCoordinate = (min: number, max: number, message: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return null;
      const n = Number(v);
      if (!Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message });
        return z.NEVER;
      }
      return n;
    });

const retailerExtras = {
  segments: text().max(500).optional().transform(splitList),
  price_tier: text().max(50).optional().default(""),
  latitude: optionalCoordinate(-90, 90, "Enter a latitude between -90 and 90."),
  longitude: optionalCoordinate(-180, 180, "Enter a longitude between -180 and 180."),
};

/** Info tab: the retailer's own fields as the setup wizard checks them, plus segments, price tier and location. */
export const RetailerInfoSchema = RetailerStepSchema.extend({
  state: stateCode,
  ...retailerExtras,
  status: z.enum(["pending", "active", "inactive", "denied"], { message: "Choose a status." }),
});
export type RetailerInfoValues = z.output<typeof RetailerInfoSchema>;

/** The retailer's columns (camelCase) from a checked Info form or upload row. */
export function retailerColumns(v: Omit<RetailerInfoValues, "status">) {
  return {
    ...storeInfoColumns(v),
    segments: v.segments,
    priceTier: v.price_tier,
    latitude: v.latitude,
    longitude: v.longitude,
  };
}

const contactEmail = z
  .string({ required_error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(254, MSG.resetEmailInvalid)
  .email(MSG.resetEmailInvalid)
  .transform((e) => e.toLowerCase());

/** Contacts tab: a contact as the setup wizard checks it, plus its e-mail. */
export const ContactEditSchema = ContactStepSchema.innerType()
  .extend({ email: contactEmail, contact_id: RowId.optional() })
  .superRefine((v, ctx) => {
    if (v.job_title === "Other" && !v.job_title_other) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["job_title_other"],
        message: MSG.jobTitleOtherRequired,
      });
    }
  });
export type ContactEditValues = z.output<typeof ContactEditSchema>;

// ---------------------------------------------------------------------------------------------
// Bulk retailer upload (docs/product/screens.md, "Staff: retailer setup and bulk upload")

export const BULK_UPLOAD_MSG = {
  /** No file. */
  invalidInput: "INVALID INPUT",
  /** Not a readable .xlsx (wrong type, damaged, a zip bomb, a renamed program). */
  fileHasIssues: "file has issues",
  confirm:
    "Submitting creates a retailer, its contact and its login for every good row, and sends each new retailer a welcome e-mail: many retailer e-mails may be sent. Continue?",
} as const;

/** Largest upload accepted (bytes of the .xlsx) and most rows read from it. */
export const BULK_UPLOAD_LIMITS = {
  maxFileBytes: 5 * 1024 * 1024,
  maxRows: 5000,
  maxUnzippedBytes: 64 * 1024 * 1024,
  maxEntries: 200,
} as const;

/** The template's columns, in order: a header row with exactly these names. `*` in the template marks required ones. */
export const BULK_UPLOAD_COLUMNS = [
  "store_name",
  "business_name",
  "store_email",
  "store_phone",
  "address1",
  "city",
  "state",
  "postal_code",
  "resale_number",
  "segments",
  "price_tier",
  "latitude",
  "longitude",
  "contact_first_name",
  "contact_last_name",
  "contact_email",
  "contact_job_title",
  "contact_phone",
  "contact_celphone",
  "brands",
] as const;
export type BulkUploadColumn = (typeof BULK_UPLOAD_COLUMNS)[number];

/** Columns a row may leave empty; every other one is required (marked "*" in the template). */
export const BULK_UPLOAD_OPTIONAL: ReadonlySet<BulkUploadColumn> = new Set([
  "segments",
  "price_tier",
  "latitude",
  "longitude",
  "brands",
]);

/** One example row of the template. */
export const BULK_UPLOAD_EXAMPLE: Record<BulkUploadColumn, string> = {
  store_name: "Hudson Valley Outfitters",
  business_name: "Hudson Valley Outfitters LLC",
  store_email: "store@hudson-valley.example",
  store_phone: "+1-845-555-0100",
  address1: "12 Main Street",
  city: "Kingston",
  state: "NY",
  postal_code: "12401",
  resale_number: "12-3456789012-3",
  segments: "Outdoor; Running",
  price_tier: "mid",
  latitude: "41.927",
  longitude: "-73.997",
  contact_first_name: "Dana",
  contact_last_name: "Miller",
  contact_email: "dana@hudson-valley.example",
  contact_job_title: "Owner",
  contact_phone: "+1-845-555-0101",
  contact_celphone: "+1-845-555-0102",
  brands: "Acme Boots; Trailhead",
};

const RowSchema = RetailerStepSchema.extend({
  state: stateCode,
  ...retailerExtras,
  contact_first_name: text({ required_error: MSG.required }).min(1, MSG.required).max(100),
  contact_last_name: text({ required_error: MSG.required }).min(1, MSG.required).max(100),
  contact_email: contactEmail,
  contact_job_title: ContactStepSchema.innerType().shape.job_title,
  contact_phone: ContactStepSchema.innerType().shape.phone,
  contact_celphone: ContactStepSchema.innerType().shape.celphone,
  brands: text().max(2000).optional().transform(splitList),
});
export type BulkUploadRow = z.output<typeof RowSchema>;

export type RowCheck =
  | { ok: true; row: BulkUploadRow; problems: [] }
  | { ok: false; problems: string[] };

/** A row's values (cell text by column) checked: the parsed row, or every problem as "column: message". */
export function checkUploadRow(values: Partial<Record<string, string>>): RowCheck {
  const input: Record<string, string | undefined> = {};
  for (const c of BULK_UPLOAD_COLUMNS) {
    const v = values[c];
    input[c] = v === undefined || v.trim() === "" ? undefined : v;
  }
  const r = RowSchema.safeParse(input);
  if (r.success) return { ok: true, row: r.data, problems: [] };
  return {
    ok: false,
    problems: r.error.issues.map((i) => `${i.path.join(".") || "row"}: ${i.message}`),
  };
}

/**
 * Problems that need the whole file or the database: the same contact e-mail twice in the file, brands that
 * do not exist. `knownBrand` answers for a lower-cased brand name.
 */
export function crossRowProblems(
  rows: { line: number; values: Partial<Record<string, string>> }[],
  knownBrand: (lowerName: string) => boolean,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const firstLine = new Map<string, number>();
  const add = (line: number, p: string) => out.set(line, [...(out.get(line) ?? []), p]);
  for (const { line, values } of rows) {
    const email = (values.contact_email ?? "").trim().toLowerCase();
    if (email) {
      const seen = firstLine.get(email);
      if (seen !== undefined) add(line, `contact_email: the same e-mail is on line ${seen}.`);
      else firstLine.set(email, line);
    }
    for (const b of splitList(values.brands))
      if (!knownBrand(b.toLowerCase())) add(line, `brands: no brand named "${b}".`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Retailer map (docs/product/screens.md, "Staff: reports and map"): centre lat 40 / lon -74, zoom 7, 100 per fetch, radius at most 500 miles.

export const MAP_DEFAULTS = {
  lat: 40,
  lon: -74,
  zoom: 7,
  limit: 100,
  maxRadiusMiles: 500,
  maxFetches: 20,
  width: 960,
  height: 600,
} as const;
const EARTH_RADIUS_MILES = 3958.8;

export const MapViewSchema = z.object({
  lat: z.coerce.number().min(-60).max(75).default(MAP_DEFAULTS.lat),
  lon: z.coerce.number().min(-180).max(180).default(MAP_DEFAULTS.lon),
  zoom: z.coerce.number().int().min(3).max(12).default(MAP_DEFAULTS.zoom),
  /** How many fetches of 100 the page shows (Show more adds one). */
  pages: z.coerce.number().int().min(1).max(MAP_DEFAULTS.maxFetches).default(1),
});
export type MapView = z.output<typeof MapViewSchema>;

/** Great-circle distance in miles. */
export function milesBetween(
  a: { lat: number; lon: number },
  b: { lat: number; lon: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The Web-Mercator scale of a zoom level (256-pixel tiles), as d3-geo's mercator projection takes it. */
export function mercatorScale(zoom: number): number {
  return (256 * 2 ** zoom) / (2 * Math.PI);
}

/** The search radius of a view: centre to its farthest corner, at most 500 miles. */
export function viewRadiusMiles(
  view: { lat: number; zoom: number },
  size = { width: MAP_DEFAULTS.width, height: MAP_DEFAULTS.height },
): number {
  const degPerPx = 360 / (256 * 2 ** view.zoom);
  const halfW = (size.width / 2) * degPerPx * 69.17 * Math.cos((view.lat * Math.PI) / 180);
  const halfH = (size.height / 2) * degPerPx * 69.17 * Math.cos((view.lat * Math.PI) / 180);
  return Math.min(MAP_DEFAULTS.maxRadiusMiles, Math.round(Math.hypot(halfW, halfH)));
}

/** The view moved by half a screen in a direction. */
export function panView(view: MapView, dir: "n" | "s" | "e" | "w"): { lat: number; lon: number } {
  const degPerPx = 360 / (256 * 2 ** view.zoom);
  const dLon = (MAP_DEFAULTS.width / 2) * degPerPx;
  const dLat = (MAP_DEFAULTS.height / 2) * degPerPx * Math.cos((view.lat * Math.PI) / 180);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const lat = Math.max(
    -60,
    Math.min(75, view.lat + (dir === "n" ? dLat : dir === "s" ? -dLat : 0)),
  );
  const lon = ((view.lon + (dir === "e" ? dLon : dir === "w" ? -dLon : 0) + 540) % 360) - 180;
  return { lat: round(lat), lon: round(lon) };
}

import { z } from "zod";
import { ACCEPT_TERMS, ADD_AT_LEAST_ONE_SIZE, SELECT_COLOR_OPTION } from "./messages";
import { choiceSchema, LISTING_REASONS, REQUEST_REASONS, type Choice } from "./reasons";
import { MAX_ROW_ID, rowIdOf } from "./ids";

/**
 * The "List a style" (/addlisting/) and "Request a style" (/requestlisting/) wizards
 * (docs/product/screens.md, "List and request wizards"):
 * the stages, the Zod schema of each step's form (used by the server action and by Conform in the browser),
 * the wizard state carried in the URL between steps, and the photo checks. The edit screens
 * (updatelisting / updaterequest) may reuse sizeCountsSchema with `requirePositiveTotal: false`.
 *
 * Messages quoted by the specification come from ./messages (verbatim); the ones marked "ours" fill places
 * where it only describes a message.
 */

export type WizardKind = "listing" | "request";

// --- Limits (docs/product/screens.md, "Limits") --------------------------------------------------------------

/** It searches by itself only after more than 2 characters (any length on an explicit submit). */
export const VARIATION_SEARCH_MIN_CHARS = 3;
/** Delay of the search-as-you-type in the variation lookup (ms). */
export const VARIATION_SEARCH_DELAY_MS = 200;
/** Largest unit count of one size (the database's sizes_map_valid bound). */
export const MAX_UNITS_PER_SIZE = 100000;

export function shouldSearch(q: string, submitted: boolean): boolean {
  return submitted || q.trim().length >= VARIATION_SEARCH_MIN_CHARS;
}

// --- Stages (style 0, sizes 1, photos 2, confirm 3, terms 4) ------------------------------------------------

export const STAGE = Object.freeze({
  style: 0,
  sizes: 1,
  photos: 2,
  confirm: 3,
  terms: 4,
} as const);
export type Stage = (typeof STAGE)[keyof typeof STAGE];

/** A request has no photos step (requests show the brand's own pictures). */
export function stagesFor(kind: WizardKind): readonly Stage[] {
  return kind === "listing" ? [0, 1, 2, 3, 4] : [0, 1, 3, 4];
}

export const STAGE_LABELS: Record<Stage, string> = {
  0: "Choose style",
  1: "Sizes",
  2: "Photos",
  3: "Confirm",
  4: "Terms",
};

/** The stage after `stage` for this wizard (the terms stage is the last: after it comes the save). */
export function nextStage(kind: WizardKind, stage: Stage): Stage {
  const list = stagesFor(kind);
  const i = list.indexOf(stage);
  return list[Math.min(i + 1, list.length - 1)];
}

/** `?stage=` as given: missing means 0; anything not a stage of this wizard is null (answered with 400). */
export function parseStage(kind: WizardKind, raw: string | null): Stage | null {
  if (raw === null || raw === "") return 0;
  if (!/^\d$/.test(raw)) return null;
  const n = Number(raw) as Stage;
  return stagesFor(kind).includes(n) ? n : null;
}

// --- Choice lists and messages (ours) -------------------------------------------------------------------------

export const LISTING_TYPES: readonly Choice<string>[] = Object.freeze([
  Object.freeze({ value: "sell", label: "Sell" }),
  Object.freeze({ value: "swap", label: "Swap" }),
]);

export const WIZARD_MESSAGES = Object.freeze({
  chooseBrand: "Please choose a brand.",
  chooseListingType: "Please choose a listing type: sell or swap.",
  chooseReason: "Please choose a reason.",
  chooseProvider: "Please choose the retailer who provides this listing.",
  chooseRequestor: "Please choose the retailer who makes this request.",
  providerNotAuthorized: "That retailer is not authorized for this brand.",
  sizeWholeNumber: "Enter a whole number of units, 0 or more.",
  sizeTooLarge: `At most ${MAX_UNITS_PER_SIZE} units per size.`,
  sizesTotal: ADD_AT_LEAST_ONE_SIZE,
  acceptTerms: ACCEPT_TERMS,
  cannotCreateRequest: "Cannot create request",
  inactiveRetailer:
    "Your account is not active, so you cannot list or request styles. Please contact support.",
  noResults: "No product matches this product code for this brand.",
  updateExistingListing: "Update your existing listing",
  updateExistingRequest: "Update your existing request",
  listingExistsTitle: "This style is already listed",
  listingExistsText:
    "Another retailer already lists this style: it is available in the marketplace now.",
  photoType: "Only .jpg, .jpeg and .png pictures can be uploaded.",
  photoTooLarge: "Each picture must be 5 MB or smaller.",
  photoTooMany: "You can add at most 3 pictures.",
  photoEmpty: "Choose a picture to upload.",
} as const);

/** The full "product not found" help (docs/product/screens.md, "List and request wizards"). */
export function productNotFoundText(
  kind: WizardKind,
  support: { email: string; phone: string },
): string {
  const why =
    kind === "listing" ? "the reason you are listing it" : "the reason you are requesting it";
  return (
    `Can't find your product? Contact support at ${support.email} or ${support.phone} and give us the brand, the season, ` +
    `the product code, the colour, the wholesale cost, the sizes, ${why} and your phone number. ` +
    `We will add the product to the catalogue and let you know when you can ${kind === "listing" ? "list" : "request"} it.`
  );
}

// --- Step forms (Conform + Zod) ----------------------------------------------------------------------------------

const idSchema = (message: string) =>
  z
    .number({ required_error: message, invalid_type_error: message })
    .int(message)
    .positive(message)
    .max(MAX_ROW_ID, message);

/** Stage 0 of the listing wizard: colour (a variation of the chosen product), type, reason, provider (staff). */
export function listingStyleSchema(opts: { chooseProvider: boolean }) {
  return z.object({
    variation: idSchema(SELECT_COLOR_OPTION),
    listingType: choiceSchema(LISTING_TYPES, WIZARD_MESSAGES.chooseListingType),
    reason: choiceSchema(LISTING_REASONS, WIZARD_MESSAGES.chooseReason),
    provider: opts.chooseProvider
      ? idSchema(WIZARD_MESSAGES.chooseProvider)
      : z
          .unknown()
          .optional()
          .transform(() => undefined),
  });
}

/** Stage 0 of the request wizard: colour, reason, requestor (staff). */
export function requestStyleSchema(opts: { chooseRequestor: boolean }) {
  return z.object({
    variation: idSchema(SELECT_COLOR_OPTION),
    reason: choiceSchema(REQUEST_REASONS, WIZARD_MESSAGES.chooseReason),
    requestor: opts.chooseRequestor
      ? idSchema(WIZARD_MESSAGES.chooseRequestor)
      : z
          .unknown()
          .optional()
          .transform(() => undefined),
  });
}

export function styleSchema(kind: WizardKind, chooseRetailer: boolean) {
  return kind === "listing"
    ? listingStyleSchema({ chooseProvider: chooseRetailer })
    : requestStyleSchema({ chooseRequestor: chooseRetailer });
}

const unitCount = z
  .number({ invalid_type_error: WIZARD_MESSAGES.sizeWholeNumber })
  .int(WIZARD_MESSAGES.sizeWholeNumber)
  .min(0, WIZARD_MESSAGES.sizeWholeNumber)
  .max(MAX_UNITS_PER_SIZE, WIZARD_MESSAGES.sizeTooLarge)
  .optional()
  .transform((n) => n ?? 0);

/**
 * Size counters, one per label of the product's size run, posted as sizes[0] .. sizes[n-1] (in the run's
 * order: labels may contain dots, so they are not field names). An empty counter is 0. The wizard needs a
 * total above 0; an edit that deletes (every count 0) passes `requirePositiveTotal: false`.
 */
export function sizeCountsSchema(
  labelCount: number,
  opts: { requirePositiveTotal?: boolean } = {},
) {
  const requireTotal = opts.requirePositiveTotal ?? true;
  return z
    .object({
      sizes: z
        .array(unitCount)
        .max(labelCount)
        .optional()
        .transform((a) => Array.from({ length: labelCount }, (_, i) => a?.[i] ?? 0)),
    })
    .superRefine((v, ctx) => {
      if (requireTotal && v.sizes.reduce((a, n) => a + n, 0) <= 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [],
          message: WIZARD_MESSAGES.sizesTotal,
        });
      }
    });
}

/** Pairs the run's labels with the posted counts: every label, zeros included. */
export function sizesMapFrom(
  labels: readonly string[],
  counts: readonly number[],
): Record<string, number> {
  const out: Record<string, number> = {};
  labels.forEach((label, i) => {
    out[label] = counts[i] ?? 0;
  });
  return out;
}

export function totalUnits(sizes: Record<string, number> | undefined | null): number {
  return Object.values(sizes ?? {}).reduce((a, n) => a + n, 0);
}

/** The terms step: the box must be ticked. */
export const termsSchema = z.object({
  terms: z
    .boolean({ required_error: ACCEPT_TERMS, invalid_type_error: ACCEPT_TERMS })
    .refine((v) => v === true, ACCEPT_TERMS),
});

/**
 * The terms step of a sell listing as its form holds it: the box, and the optional markdown schedule's fields,
 * which the server checks with domain/markdown.ts MarkdownFormSchema when "markdown" is ticked. The browser
 * checks the box only.
 */
export const sellTermsFormSchema = termsSchema.extend({
  markdown: z.string().optional(),
  stepKind: z.string().optional(),
  step: z.string().optional(),
  everyDays: z.string().optional(),
  floorKind: z.string().optional(),
  floor: z.string().optional(),
  endDate: z.string().optional(),
});

// --- Wizard state in the URL ------------------------------------------------------------------------------------

/**
 * What the wizard has gathered so far. It travels in the query string of every stage (stateless server;
 * refresh, back button and "Modify" links work; nothing is saved until the last step), and the server
 * checks all of it again on every step and at the save.
 */
export interface WizardState {
  brand?: number;
  q?: string;
  product?: number;
  variation?: number;
  listingType?: "sell" | "swap";
  reason?: string;
  /** Staff browsing as admin only: the provider (listing) or requestor (request) retailer id. */
  retailer?: number;
  sizes?: Record<string, number>;
  images?: string[];
}

const SIZE_LABEL_MAX = 40;

/** A stored photo's name: <uuid>.<jpg|png>. */
export const STORED_PHOTO_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|png)$/;

function idParam(raw: string | null): number | undefined | null {
  if (raw === null || raw === "") return undefined;
  return rowIdOf(raw);
}

/**
 * Reads the state from the query. Values that are absent are undefined; a value that is present but
 * malformed makes the whole state invalid (`ok: false`): someone edited the URL, the page answers 400.
 */
export function parseWizardState(
  kind: WizardKind,
  params: URLSearchParams,
): { ok: true; state: WizardState } | { ok: false; problem: string } {
  const state: WizardState = {};
  const ids: [keyof WizardState, string][] = [
    ["brand", "brand"],
    ["product", "product"],
    ["variation", "variation"],
    ["retailer", kind === "listing" ? "provider" : "requestor"],
  ];
  for (const [key, name] of ids) {
    const v = idParam(params.get(name));
    if (v === null) return { ok: false, problem: `${name} is not a valid id` };
    if (v !== undefined) (state as Record<string, unknown>)[key] = v;
  }
  const q = params.get("q");
  if (q !== null && q !== "") {
    if (q.length > 100) return { ok: false, problem: "the search text is too long" };
    state.q = q;
  }
  if (kind === "listing") {
    const t = params.get("type");
    if (t !== null && t !== "") {
      if (t !== "sell" && t !== "swap") return { ok: false, problem: "type is not sell or swap" };
      state.listingType = t;
    }
  }
  const reason = params.get("reason");
  if (reason !== null && reason !== "") {
    const list = kind === "listing" ? LISTING_REASONS : REQUEST_REASONS;
    if (!list.some((c) => c.value === reason))
      return { ok: false, problem: "reason is not one of the reasons" };
    state.reason = reason;
  }
  const sizes = params.get("sizes");
  if (sizes !== null && sizes !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(sizes);
    } catch {
      return { ok: false, problem: "sizes is not a sizes map" };
    }
    const map = z
      .record(
        z.string().min(1).max(SIZE_LABEL_MAX),
        z.number().int().min(0).max(MAX_UNITS_PER_SIZE),
      )
      .refine((m) => Object.keys(m).length <= 100)
      .safeParse(parsed);
    if (!map.success) return { ok: false, problem: "sizes is not a sizes map" };
    state.sizes = map.data;
  }
  if (kind === "listing") {
    const images = params.get("images");
    if (images !== null && images !== "") {
      const list = images.split(",");
      if (
        list.length > MAX_PHOTOS ||
        list.some((n) => !STORED_PHOTO_NAME.test(n)) ||
        new Set(list).size !== list.length
      ) {
        return { ok: false, problem: "images is not a list of uploaded pictures" };
      }
      state.images = list;
    }
  }
  return { ok: true, state };
}

/** The query string ("stage=1&brand=3&...") that carries `state` to `stage`. */
export function wizardQuery(
  kind: WizardKind,
  stage: Stage,
  state: WizardState,
  extra: Record<string, string> = {},
): string {
  const p = new URLSearchParams();
  p.set("stage", String(stage));
  for (const [name, value] of Object.entries(wizardParams(kind, state))) p.set(name, value);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p.toString();
}

/** The state as query parameters (name -> value), e.g. for hidden inputs of a GET form. */
export function wizardParams(kind: WizardKind, state: WizardState): Record<string, string> {
  const out: Record<string, string> = {};
  if (state.brand !== undefined) out.brand = String(state.brand);
  if (state.q) out.q = state.q;
  if (state.product !== undefined) out.product = String(state.product);
  if (state.variation !== undefined) out.variation = String(state.variation);
  if (kind === "listing" && state.listingType) out.type = state.listingType;
  if (state.reason) out.reason = state.reason;
  if (state.retailer !== undefined)
    out[kind === "listing" ? "provider" : "requestor"] = String(state.retailer);
  if (state.sizes && Object.keys(state.sizes).length > 0) out.sizes = JSON.stringify(state.sizes);
  if (kind === "listing" && state.images && state.images.length > 0)
    out.images = state.images.join(",");
  return out;
}

// --- Photos (stage 2 of the listing wizard) ------------------------------------------------------------------

export const MAX_PHOTOS = 3;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_ACCEPT = ".jpg,.jpeg,.png,image/jpeg,image/png";
export type PhotoType = "jpg" | "png";

/** The type a file name claims (.jpg / .jpeg / .png, any case), or null. */
export function photoTypeFromName(name: string): PhotoType | null {
  const m = /\.(jpe?g|png)$/i.exec(name.trim());
  if (!m) return null;
  return m[1].toLowerCase() === "png" ? "png" : "jpg";
}

/** The type the bytes really are (PNG signature / JPEG SOI marker), or null. */
export function photoTypeFromBytes(bytes: Uint8Array): PhotoType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return "png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return "jpg";
  return null;
}

/**
 * Checks one uploaded picture: the name must say .jpg/.jpeg/.png, the bytes must really be a JPEG or PNG
 * image (a text file renamed .png is refused), and it must not exceed 5 MB. Returns the type to store it as, or the message.
 */
export function checkPhoto(
  name: string,
  bytes: Uint8Array,
): { ok: true; type: PhotoType } | { ok: false; message: string } {
  if (bytes.length === 0) return { ok: false, message: WIZARD_MESSAGES.photoEmpty };
  if (bytes.length > MAX_PHOTO_BYTES) return { ok: false, message: WIZARD_MESSAGES.photoTooLarge };
  const claimed = photoTypeFromName(name);
  const actual = photoTypeFromBytes(bytes);
  // A .png that really is a JPEG (or the reverse) is accepted and stored as what it is.
  if (!claimed || !actual) return { ok: false, message: WIZARD_MESSAGES.photoType };
  return { ok: true, type: actual };
}

export const PHOTO_CONTENT_TYPES: Record<PhotoType, string> = {
  jpg: "image/jpeg",
  png: "image/png",
};

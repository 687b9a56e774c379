/**
 * Matches (docs/product/screens.md, "Matches"; ADR 0030): the pure rules of "this listing fills that request"
 * and "this listing fits that saved search", the saved-search form, and the daily digest e-mail. The database
 * applies the same rules in db/queries/matches.ts (one indexed statement per event); these functions are the
 * rules' reference, checked against it by the tests.
 */
import { z } from "zod";
import { anonymousRetailerLabel } from "./anonymity";
import { localDateISO } from "./business-days";

export type Sizes = Readonly<Record<string, number>>;

/** A listing fills a request when it has at least one unit in at least one size the request wants. */
export function fillsRequest(listing: Sizes, wanted: Sizes): boolean {
  return Object.entries(wanted).some(
    ([label, n]) => n > 0 && Object.hasOwn(listing, label) && (listing[label] ?? 0) > 0,
  );
}

export interface SavedSearchRule {
  brandId: number;
  categoryId: number | null;
  sizes: readonly string[];
  /** Lower case; '' = any. */
  search: string;
}

export interface ListingFacts {
  brandId: number;
  categoryId: number | null;
  sizes: Sizes;
  /** lower(product code). */
  skuKey: string;
}

/** A listing fits a saved search: same brand, same category (if set), units in one of its sizes (if any), code containing its text. */
export function fitsSavedSearch(l: ListingFacts, s: SavedSearchRule): boolean {
  if (l.brandId !== s.brandId) return false;
  if (s.categoryId !== null && l.categoryId !== s.categoryId) return false;
  if (
    s.sizes.length > 0 &&
    !s.sizes.some((label) => Object.hasOwn(l.sizes, label) && (l.sizes[label] ?? 0) > 0)
  )
    return false;
  return s.search === "" || l.skuKey.includes(s.search);
}

/** Our caps: saved searches per retailer, size labels per search, characters of the text. */
export const SAVED_SEARCH_MAX = 20;
export const SAVED_SEARCH_MAX_SIZES = 30;
export const SAVED_SEARCH_TEXT_MAX = 60;

export const MATCH_MESSAGES = {
  brandRequired: "Choose a brand.",
  sizesInvalid: `Sizes: up to ${SAVED_SEARCH_MAX_SIZES} labels separated by commas, each at most 40 characters.`,
  textTooLong: `The product code text must be at most ${SAVED_SEARCH_TEXT_MAX} characters.`,
  textTooShort: "The product code text must be at least 3 characters (or left empty).",
  tooMany: `You can keep at most ${SAVED_SEARCH_MAX} saved searches. Delete one first.`,
  unknownBrand: "You can only save a search for a brand you are authorized for.",
  unknownCategory: "Choose a category from the list.",
  saved: "Search saved. New listings that fit it will show here and in your daily e-mail.",
  deleted: "Saved search deleted.",
  notFound: "That saved search does not exist.",
} as const;

const idField = (message: string) =>
  z
    .string({ required_error: message })
    .trim()
    .regex(/^[1-9][0-9]{0,8}$/, message)
    .transform(Number);

/** The saved-search form (intent=save). Sizes are typed as "S, M, L". */
export const SavedSearchFormSchema = z.object({
  intent: z.literal("save"),
  brand: idField(MATCH_MESSAGES.brandRequired),
  category: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(/^[1-9][0-9]{0,8}$/, MATCH_MESSAGES.unknownCategory)
        .transform(Number)
        .optional(),
    ),
  sizes: z
    .string()
    .max(2000, MATCH_MESSAGES.sizesInvalid)
    .optional()
    .transform((v, ctx) => {
      const labels = [
        ...new Set(
          (v ?? "")
            .split(",")
            .map((x) => x.trim())
            .filter((x) => x.length > 0),
        ),
      ];
      if (labels.length > SAVED_SEARCH_MAX_SIZES || labels.some((x) => x.length > 40)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: MATCH_MESSAGES.sizesInvalid });
        return z.NEVER;
      }
      return labels;
    }),
  q: z
    .string()
    .trim()
    .max(SAVED_SEARCH_TEXT_MAX, MATCH_MESSAGES.textTooLong)
    .optional()
    .transform((v) => (v ?? "").toLowerCase())
    .refine((v) => v === "" || v.length >= 3, MATCH_MESSAGES.textTooShort),
});
export type SavedSearchForm = z.infer<typeof SavedSearchFormSchema>;

export const DeleteSavedSearchSchema = z.object({
  intent: z.literal("delete"),
  id: idField(MATCH_MESSAGES.notFound),
});

/** The listing's own page: its buy or swap view. */
export function matchHref(listingType: "sell" | "swap", listingId: number): string {
  return `/listing/${listingType === "swap" ? "swap" : "buy"}/${listingId}`;
}

/**
 * The digest's outbox dedupe key: one per retailer and marketplace day (the day in `timeZone`, MARKETPLACE_TZ:
 * docs/product/windows.md, "Time zone"), so at most one e-mail a day, and a new day starts at the marketplace's
 * midnight, not UTC's.
 */
export function matchDigestKey(retailerId: number, at: Date, timeZone: string): string {
  return `match-digest:${retailerId}:${localDateISO(at.getTime(), timeZone)}`;
}

export interface DigestItem {
  listingId: number;
  listingType: "sell" | "swap";
  providerId: number;
  brandName: string;
  sku: string;
  color: string;
  productName: string;
  totalUnits: number;
  /** What it matched: "your request" or "your saved search". */
  source: "request" | "search";
}

/** Items listed in one e-mail; the rest are counted ("and N more on your Matches tab"). */
export const DIGEST_MAX_ITEMS = 50;

/** The daily e-mail: every new match with the other retailer only as retailer-00{id} and a link to its page. */
export function matchDigestMail(
  items: readonly DigestItem[],
  total: number,
  origin: string,
): { subject: string; text: string } {
  const base = origin.replace(/\/+$/, "");
  const lines = items.map((m) => {
    const what = m.source === "request" ? "fills your request" : "fits your saved search";
    const verb = m.listingType === "swap" ? "swap" : "buy";
    return `- ${m.brandName} ${m.productName} ${m.sku} ${m.color}: ${m.totalUnits} unit${m.totalUnits === 1 ? "" : "s"} listed by ${anonymousRetailerLabel(m.providerId)} (${what}). To ${verb}: ${base}${matchHref(m.listingType, m.listingId)}`;
  });
  const more =
    total > items.length ? [`…and ${total - items.length} more on your Matches tab.`] : [];
  return {
    subject:
      total === 1 ? "1 new match for your requests" : `${total} new matches for your requests`,
    text: [
      "New listings fill your requests or fit your saved searches:",
      "",
      ...lines,
      ...more,
      "",
      `All your matches: ${base}/alerts/matches`,
      "You get at most one such e-mail a day.",
    ].join("\n"),
  };
}

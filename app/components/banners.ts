/**
 * Which banners the layout shows (docs/product/screens.md, "Menus and banners").
 * Pure: the root loader gathers the facts, this decides.
 */
import { safeNextPath } from "../../domain/accounts";

export type RetailerStatus = "pending" | "active" | "inactive" | "denied";

/**
 * Banners the user can put off for the rest of the session ("do this later"): only the payout one (the
 * cell-phone "Action Required!" banner is not).
 */
export const DISMISSIBLE_BANNERS = ["payout"] as const;
export type DismissibleBanner = (typeof DISMISSIBLE_BANNERS)[number];

export function isDismissibleBanner(key: unknown): key is DismissibleBanner {
  return typeof key === "string" && (DISMISSIBLE_BANNERS as readonly string[]).includes(key);
}

export type BannerKey = "inactive" | "cellphone" | DismissibleBanner;

export interface Banner {
  key: BannerKey;
  tone: "danger" | "warning";
  dismissible: boolean;
}

/** The effective retailer as the shell sees it (own, or the one staff act as). */
export interface ShellRetailer {
  id: number;
  storeName: string;
  status: RetailerStatus;
  /** bt_merchant_id present: payout details are set up. */
  payoutSet: boolean;
  /** The retailer's contact has a cell phone number. */
  hasCellPhone: boolean;
}

export const ACTION_REQUIRED = "Action Required!";

/** Verbatim (starts with ACTION_REQUIRED). */
export const CELLPHONE_MESSAGE =
  "Action Required! You must fill in your cell phone number so that we can notify you when you have orders to approve.";

export const PAYOUT_MESSAGE =
  "Your listings will not be shown to other retailers until you give us your bank details for payouts.";

/** The inactive banner's headline, as the specification quotes it. */
export const INACTIVE_HEADLINE = "Account not active, contact support.";

export function inactiveMessage(support: { email: string; phone: string }): string {
  return `Your retailer account is not active. Please contact support at ${support.email} or ${support.phone} to have it reactivated.`;
}

/**
 * Pages where a banner would only repeat what the page already shows: the payout form itself, and My
 * Listings, which shows its own "Action Required!" payout notice (dismissed together with this banner).
 */
function onPage(pathname: string, prefixes: string[]): boolean {
  return prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function computeBanners(input: {
  retailer: ShellRetailer | null;
  dismissed: readonly string[];
  pathname: string;
}): Banner[] {
  const { retailer, dismissed, pathname } = input;
  // Staff with no retailer chosen, visitors, and users without a retailer see no retailer banners.
  if (!retailer) return [];
  const banners: Banner[] = [];
  if (retailer.status === "inactive")
    banners.push({ key: "inactive", tone: "danger", dismissible: false });
  if (
    !retailer.payoutSet &&
    !dismissed.includes("payout") &&
    !onPage(pathname, ["/getpaid", "/settings/payout", "/active/listings"])
  ) {
    banners.push({ key: "payout", tone: "warning", dismissible: true });
  }
  if (!retailer.hasCellPhone && !onPage(pathname, ["/settings/contact"])) {
    banners.push({ key: "cellphone", tone: "warning", dismissible: false });
  }
  return banners;
}

/** A local path to go back to after dismissing (domain's safeNextPath); anything else goes to `fallback`. */
export function safeRedirect(to: unknown, fallback = "/"): string {
  return (typeof to === "string" ? safeNextPath(to) : null) ?? fallback;
}

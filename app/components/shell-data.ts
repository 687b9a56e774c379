import { DEFAULT_MARKETPLACE_TZ } from "../../domain/business-days";
import { RMA_SENT } from "../../domain/messages";
import type { RetailerStatus, ShellRetailer } from "./banners";

export type AppEnv = "local" | "test" | "staging" | "production";

/**
 * Everything the layout needs, and nothing more: the root loader returns exactly this, so no
 * other retailer's data (e-mail, address, phone, bank) reaches the browser through the shell.
 */
export interface ShellData {
  user: { email: string; isStaff: boolean } | null;
  /** The effective retailer: own, or the one a staff member acts as. */
  retailer: ShellRetailer | null;
  /** Staff only: who they act as. */
  acting: {
    retailerId: number;
    storeName: string;
    brand: { id: number; name: string } | null;
  } | null;
  /** Staff only: the environment badge. */
  envBadge: AppEnv | null;
  support: { email: string; phone: string };
  /** HTML of the chat/help widget; only for a signed-in retailer and only when configured. */
  chatWidget: string | null;
  dismissedBanners: string[];
  /** A one-off success notice, from ?ref=... after a redirect. */
  notice: string | null;
  /** A retailer's own header (not staff acting as one): what its Alerts link counts. */
  alerts: HeaderAlerts | null;
  /** MARKETPLACE_TZ: every page formats dates in it (useMarketplaceZone), so server and hydration agree. */
  timeZone: string;
}

/** The Alerts link's count (docs/product/screens.md, "Menus and banners"). */
export interface HeaderAlerts {
  /** Pending orders where it is this retailer's move. */
  orders: number;
  /** Conversations with messages this retailer has not read. */
  conversations: number;
}

/** Success notices named by ?ref= (password reset goes to "/?ref=resetSuccessful": docs/product/screens.md). */
export const NOTICES: Record<string, string> = {
  resetSuccessful: "Your password has been reset.",
  payoutSaved: "Your payout details are saved. Your listings are now visible to other retailers.",
  // The cart (app/routes/cart.tsx), Brands and Settings.
  cartAdded: "Added to your cart.",
  cartRemoved: "Removed from your cart.",
  cartCleared: "Your cart is empty again.",
  brandRequested:
    "Thank you. We received your brand request and will let you know once the brand is authorized.",
  storeSaved: "Your store info is saved.",
  contactSaved: "Your contact info is saved.",
  cardSaved: "Your card is saved.",
  // The "List a style" / "Request a style" wizards (app/routes/addlisting.tsx, requestlisting.tsx).
  listingCreated: "Your listing has been created.",
  listingCreatedPayoutNeeded:
    "Your listing has been created. It will be shown to other retailers once you give us your bank details (Settings, Payout Info).",
  requestCreated: "Your request has been created.",
  // Checkout (app/routes/checkout.pay.tsx) and the sell dialog (app/utils/checkout.server.ts).
  checkoutComplete:
    "Thank you! Your order was sent to the seller. Your card is pre-authorised and will be charged only for what the seller approves.",
  checkoutAwaitingStoreApproval:
    "Thank you! Your card is pre-authorised. An order over your limit waits for an approver of your store, then goes to the seller; the others were sent to the seller.",
  requestCheckoutComplete: "Thank you! Your payment is complete and the seller's pickup is booked.",
  // Swap checkout (app/routes/checkout.swap.server.ts): the user goes to /buy.
  swapRequested:
    "Thank you! Your swap request was sent to the other retailer. Your card is pre-authorised for your fee and shipping; we will let you know when they choose what they would like from your swap listings.",
  swapAwaitingStoreApproval:
    "Thank you! Your card is pre-authorised for your fee and shipping. This swap is over your limit: it waits for an approver of your store, then goes to the other retailer.",
  offerSent:
    "Your offer was sent to the requesting retailer. We will let you know when they check out.",
  requestCreatedListingExists:
    "Your request has been created. Another retailer already lists this style: it is available to buy below.",
  requestCreatedSwapListingExists:
    "Your request has been created. Another retailer already lists this style for swap: it is available to swap below.",
};

export function noticeFor(url: URL): string | null {
  const ref = url.searchParams.get("ref");
  if (ref && Object.hasOwn(NOTICES, ref)) return NOTICES[ref];
  // After the RMA wizard, on whichever page it lands (docs/product/screens.md, "RMA wizard"): the one notice.
  if (url.searchParams.get("rma") === "complete") return RMA_SENT;
  return null;
}

/** The request path as the user sees it (single-fetch data requests end in ".data"). */
export function visiblePath(url: URL): string {
  const p = url.pathname.replace(/\.data$/, "");
  return p === "/_root" ? "/" : p;
}

/** The parts of the accounts helper's AuthContext the shell reads (structural, so tests need no DB). */
export interface ShellAuth {
  user: { email: string; isStaff: boolean };
  session: { dismissedBanners: string[] };
  retailer: {
    id: number;
    storeName: string;
    status: RetailerStatus;
    btMerchantId: string | null;
  } | null;
  contact: { celphone: string } | null;
  actingBrand: { id: number; name: string; displayName: string } | null;
}

export interface ShellConfig {
  APP_ENV: AppEnv;
  SUPPORT_EMAIL: string;
  SUPPORT_PHONE: string;
  CHAT_WIDGET_SNIPPET?: string;
  MARKETPLACE_TZ?: string;
}

/** Picks what the layout may show from the auth context: nothing about any other retailer. */
export function buildShellData(
  auth: ShellAuth | null,
  env: ShellConfig,
  url: URL,
  alerts: HeaderAlerts | null = null,
): ShellData {
  const user = auth ? { email: auth.user.email, isStaff: auth.user.isStaff } : null;
  const r = auth?.retailer ?? null;
  const retailer = r
    ? {
        id: r.id,
        storeName: r.storeName,
        status: r.status,
        payoutSet: Boolean(r.btMerchantId),
        hasCellPhone: Boolean(auth?.contact?.celphone.trim()),
      }
    : null;
  const isStaff = user?.isStaff === true;
  const snippet = env.CHAT_WIDGET_SNIPPET?.trim();
  return {
    user,
    retailer,
    acting:
      isStaff && r
        ? {
            retailerId: r.id,
            storeName: r.storeName,
            brand: auth?.actingBrand
              ? {
                  id: auth.actingBrand.id,
                  name: auth.actingBrand.displayName || auth.actingBrand.name,
                }
              : null,
          }
        : null,
    envBadge: isStaff ? env.APP_ENV : null,
    support: { email: env.SUPPORT_EMAIL, phone: env.SUPPORT_PHONE },
    // The chat/help widget is started for the signed-in retailer only (docs/product/screens.md, "Menus and banners"),
    // when configured.
    chatWidget: snippet && user && !isStaff && r ? snippet : null,
    dismissedBanners: auth ? [...auth.session.dismissedBanners] : [],
    notice: noticeFor(url),
    alerts: user && !isStaff && r ? alerts : null,
    timeZone: env.MARKETPLACE_TZ ?? DEFAULT_MARKETPLACE_TZ,
  };
}

/**
 * User-facing messages that are not about accounts (domain/accounts.ts) or the payout
 * form (domain/payout.ts). The product's own wording is kept VERBATIM, typos included; every
 * message is listed with the screen that shows it in docs/product/screens.md. Messages marked "ours" fill
 * places where the product describes a message without giving its words.
 */
import { MSG } from "./accounts";

// --- Generic errors (docs/product/screens.md, "Messages shown everywhere"; the error pages' own texts are
// app/components/errors.ts) -----------------------------------------------------------------------------------

/** ours: the order service (Temporal, or the order's worker) cannot be reached right now. */
export const ORDER_UNAVAILABLE_MESSAGE =
  "We could not reach the order service. Please try again in a moment.";
/** A page read while the database does not answer (a restart, a failover): ours, a 503. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "We could not reach the marketplace's database. Please try again in a moment.";

// --- Banners (docs/product/screens.md, "Menus and banners") -------------------------------------------------

/** The heading of every action-required banner (verbatim). */
export const ACTION_REQUIRED = "Action Required!";
/** ours: the product asks for bank details in Settings and hides the listings until they are given. */
export const PAYOUT_ACTION_REQUIRED_TEXT =
  "Your listings will not be shown to other retailers until you give us your bank details. Fill them in under Settings, Payout Info.";

// --- Listings and requests (docs/product/screens.md, "List and request wizards") ----------------------------

export const CANNOT_CREATE_LISTING = "Cannot create listing";
export const SELECT_COLOR_OPTION = "You must select a color option to continue";
export const ALREADY_LISTED = "Sorry, we cannot add a listing for an already listed item";
export const ALREADY_REQUESTED = "Sorry, we cannot add a request for an already requested item";
export const MODIFIED_REASON_REQUIRED_LISTING =
  "You must select a reason for updating your listing.";
export const MODIFIED_REASON_REQUIRED_REQUEST =
  "You must select a reason for updating your request.";
export const CHECK_INVENTORY_OWN_LISTING =
  "Please check your inventory or remove your active listings.";
export const ADD_AT_LEAST_ONE_SIZE = "Please add at least one size.";
export const FILL_OUT_EVERYTHING = "* Please fill out everything to continue.";
export const LISTING_PENDING_TRANSACTIONS = "This listing has pending transactions.";
export const LISTING_UNAVAILABLE =
  "Sorry, but the listing you are looking for is unavailable. It may have already been purchased or was taken down by the listing retailer.";
/** ours: an "Action Required!" notice says the listing was corrected and must be re-listed. */
export const LISTING_CORRECTED_RELIST = `${ACTION_REQUIRED} This listing was corrected by our staff and must be listed again.`;
/** Verbatim, the whole sentence (the listing screens quote only its first clause). */
export const OWN_LISTING_EXISTS =
  "We have a problem, You already have a listing for this item; if a sale is proposed, wait for the retailer to respond.";
/** Terms must be agreed (ours). */
export const ACCEPT_TERMS = "You must agree to the terms to continue.";

// --- Already transacting (docs/product/orders.md, "Duplicate-order guard") ---------------------------------

export const BUY_ALREADY_YOUR_MOVE =
  "You requested this item and an order has already been created. Go to your Pending Orders to complete checkout.";
export const BUY_ALREADY_THEIR_MOVE =
  "You already requested this item from this retailer. Please wait for them to approve or decline the transaction.";
export const SWAP_ALREADY_YOUR_MOVE =
  "You already have a swap waiting for your response with this same retailer. Please check your Pending Orders.";
export const SWAP_ALREADY_THEIR_MOVE =
  "You already have a swap in progress with this same retailer. Please wait for them to respond.";

export function alreadyTransactingMessage(
  kind: "buy" | "swap",
  move: "yourmove" | "theirmove",
): string {
  if (kind === "buy") return move === "yourmove" ? BUY_ALREADY_YOUR_MOVE : BUY_ALREADY_THEIR_MOVE;
  return move === "yourmove" ? SWAP_ALREADY_YOUR_MOVE : SWAP_ALREADY_THEIR_MOVE;
}

/** ours: the product says to list something first. */
export const SWAP_NO_ACTIVE_LISTINGS =
  "To swap, you first need an active listing of this brand. List something first.";
/** ours: or to finish payout setup in Settings when there is no payout account. */
export const SWAP_NO_PAYOUT = "To swap, first finish your payout setup in Settings, Payout Info.";

// --- Selling needs payout (docs/product/screens.md, "Marketplace") ------------------------------------------

export const CONFIGURE_PAYOUT_TITLE = "Configure Payout Settings";
export const CONFIGURE_PAYOUT_TEXT =
  "Before you can sell something, you need to tell us how to pay you.";
export const SETUP_MY_PAYOUTS = "Setup My Payouts";

// --- Transactions (docs/product/screens.md, "Transaction detail") -------------------------------------------

export const CARD_DECLINED = "Sorry but this card was declined. Please try another.";
/** ours: a seller approving a sale needs a card on file, used to resolve RMAs (docs/product/orders.md). */
export const SELLER_CARD_NEEDED =
  "A card on file is needed to approve sales (it is used to resolve returns). It is not charged now.";
export const TOTAL_TOO_HIGH =
  "You cannot select more units than what the retailer has requested to purchase.";
export const PAYMENT_QUEUED = "payment is queued for processing.";
/** ours: confirm dialog of need_confirm_decline_others (buttons "Continue" / "Yes I am sure" are the product's). */
export const CONFIRM_DECLINE_OTHERS =
  "Approving this order uses units that other pending orders asked for. Those orders will be declined. Continue?";
/** ours: cancel reason missing. */
export const CANCEL_REASON_REQUIRED = "Please choose a reason for cancelling this shipment.";
/** ours: decline reason missing. */
export const DECLINE_REASON_REQUIRED = "Please choose a reason for declining.";
/** ours: the 'update your listings' message after a decline for unavailable units. */
export const UPDATE_YOUR_LISTINGS =
  "Please update your listings so that they show only the units you really have.";
/** Prefixes of a decline or cancel reason in the detail view (verbatim). */
export const REASON_PREFIX_OTHER = "Other Retailer:";
export const REASON_PREFIX_YOU = "You:";
export const GO_BACK = "Go Back";

export function reasonWithPrefix(reasonLabel: string, reasonIsMine: boolean): string {
  return `${reasonIsMine ? REASON_PREFIX_YOU : REASON_PREFIX_OTHER} ${reasonLabel}`;
}

/** Button and dialog labels of the transaction screens (verbatim). */
export const TRANSACTION_LABELS = Object.freeze({
  approveSale: "Approve Sale",
  decline: "Decline",
  submitResponseSale: "Submit response",
  submitResponseSwap: "Submit Response",
  approveSwap: "Approve Swap",
  callItEven: "Call it Even",
  makePayment: "Make Payment",
  startOver: "Start Over",
  proceedBuy: "Proceed with purchase",
  proceedSwap: "Proceed with swap",
  proceedSell: "Proceed with sell",
  pendingOrders: "Pending Orders",
  approvedOrders: "Approved Orders",
  declinedOrders: "Declined Orders",
  outgoing: "Outgoing",
  incoming: "Incoming",
  viewDetails: "View Details",
} as const);

/** Swap completion texts (verbatim). */
export const SWAP_AWAITING_RETAILER = "awaiting retailer's response";
export const SWAP_AWAITING_YOUR_SELECTION = "awaiting your selection";
export const SWAP_REQUEST_DECLINED = "Swap Request Declined";
/** Verbatim: a swap line's removal was refused, the terms stand as they were. */
export const SWAP_SUMMARY_RESTORED = "Summary is restored";

// --- Ratings (docs/product/screens.md, "Rating") -------------------------------------------------------------

export const RATE_THIS_TRANSACTION = "Rate this Transaction";
export const RATING_SAVED = "Rating saved!";
export const NOT_YET_RATED = "Not Yet Rated";
export const REQUEST_RMA = "request RMA";
export const RATING_CATEGORIES = Object.freeze([
  "condition of items",
  "care in packaging",
  "timeliness of response",
  "overall experience",
] as const);

// --- RMAs (docs/product/screens.md, "RMA wizard") -------------------------------------------------------------

export const PICTURE_REQUIRED = "* picture required";
export const RMA_COMPLETE_QUERY = "rma=complete";
/** Home, after the RMA wizard (ours: the specification names only the landing). */
export const RMA_SENT =
  "Your RMA was sent. Staff will review it within five business days; you will hear from us by e-mail.";
/**
 * Printed texts (packing slip / checklist), ours in wording; the staff reply window is five business days
 * (docs/product/windows.md, "RMA windows"), where an older printed text said three.
 */
export const RMA_PRINTED_TEXTS = Object.freeze({
  requestWindow: "A return authorization (RA) must be requested within 48 hours of receipt.",
  staffReply: "We reply to every RA request within five business days.",
  returnShipping: "Approved returns must ship within four business days, or the RMA is cancelled.",
  missingUnits: "RMAs for missing units are paid within three business days.",
  damageRefunds: "Refunds for damaged goods are issued when the return is received.",
} as const);

/** A cancelled RMA (its return was not shipped in time): the RMA page and the e-mail say so. */
export const RMA_CANCELLED_NOTHING_PAID =
  "The return was not shipped in time. Nothing is paid or charged.";

// --- Empty states (docs/product/screens.md) ------------------------------------------------------------------

export const NO_LISTINGS_FOR_BRAND = "You have no listings for this brand.";
export const NO_REQUESTS_FOR_BRAND = "You have no requests for this brand.";
export const NO_ACTIVE_REQUESTS_FOR_BRAND =
  "There are no active requests from retailers of this brand at the moment.";
export const NO_REQUESTS_RIGHT_NOW = "No requests right now.";

export function noActiveListingsText(kind: "buy" | "swap"): string {
  return `There are no active listings available to ${kind} from retailers of this brand at the moment.`;
}

/** 'You have no pending/declined sales|purchases|swaps at this time. Check the other tabs...' */
export function alertsEmptyText(
  view: "pending" | "declined",
  kind: "sales" | "purchases" | "swaps",
): string {
  return `You have no ${view} ${kind} at this time. Check the other tabs...`;
}

/** ours: the orders screen says there are no approved sales, purchases or swaps. */
export function ordersEmptyText(kind: "sales" | "purchases" | "swaps"): string {
  return `You have no approved ${kind} at this time.`;
}

// --- Admin tools (docs/product/screens.md, "Staff: validation tools"; the upload messages are
// domain/catalogue-upload.ts and domain/retailer-admin.ts BULK_UPLOAD_MSG) ------------------------------------

export const FIXED = "FIXED!";

// --- Notices to a retailer (docs/product/screens.md, "Staff: retailer admin", "Notices to retailers") --------

/** An e-mail as the outbox stores it, before its recipient. */
export type NoticeMail = { kind: string; subject: string; text: string };
/** What the account notices link to: the sign-in page's absolute URL and the retailer support address. */
export type NoticeLinks = { signInUrl: string; supportEmail: string };

/** The account's new status, told to the retailer, pending included. The denial says what the denied page says. */
export function retailerStatusMail(
  status: "pending" | "active" | "inactive" | "denied",
  storeName: string,
  links: NoticeLinks,
): NoticeMail {
  const hello = `Hello ${storeName},`;
  if (status === "active")
    return {
      kind: "retailer_activated",
      subject: "Your retailer account is active",
      text: [
        hello,
        "",
        "Good news: your retailer account is active. You can now sign in, list what didn't sell, request what you need and trade with other authorized retailers.",
        "",
        `Sign in: ${links.signInUrl}`,
      ].join("\n"),
    };
  if (status === "denied")
    return {
      kind: "retailer_denied",
      subject: "Your retailer account has been denied",
      text: [hello, "", `${MSG.deniedBody}: ${links.supportEmail}`].join("\n"),
    };
  if (status === "inactive")
    return {
      kind: "retailer_inactivated",
      subject: "Your retailer account is no longer active",
      text: [
        hello,
        "",
        "Your retailer account is no longer active.",
        `If you think this is in error, please contact the retailer support email: ${links.supportEmail}`,
      ].join("\n"),
    };
  return {
    kind: "retailer_pending",
    subject: "Your retailer account is under review",
    text: [
      hello,
      "",
      "Your retailer account is under review again: until it is active you cannot trade on the marketplace. We will let you know when it is.",
      `If you have a question, please contact the retailer support email: ${links.supportEmail}`,
    ].join("\n"),
  };
}

/** ours: brands authorized for the retailer, or a brand it may no longer trade. */
export function brandLinkMail(
  change: "authorized" | "removed",
  storeName: string,
  brandNames: string[],
): NoticeMail {
  const names = brandNames.join(", ");
  return change === "authorized"
    ? {
        kind: "retailer_brand_authorized",
        subject: `Brand authorized: ${names}`,
        text: [
          `Hello ${storeName},`,
          "",
          `You are now authorized for ${names}. You can list, request and trade its styles.`,
        ].join("\n"),
      }
    : {
        kind: "retailer_brand_removed",
        subject: `Brand no longer authorized: ${names}`,
        text: [
          `Hello ${storeName},`,
          "",
          `You are no longer authorized for ${names}. If you think this is in error, please contact the retailer support.`,
        ].join("\n"),
      };
}

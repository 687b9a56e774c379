/**
 * User-facing messages of the specifications that are not about accounts (domain/accounts.ts) or the payout
 * form (domain/payout.ts). Text in quotes in the specifications is copied VERBATIM, typos included
 * ("occured"); a comment names its source. Messages marked "ours" fill places where the specification
 * describes a message without quoting it.
 */

// --- Generic errors (spec 000 §8, 002 §8) ----------------------------------------------------------------

/** Title of the 5xx toast / the 500 page. */
export const SERVER_ERROR_TITLE = "500";
/** spec 000 §8, 002 §8 (verbatim, typo included). */
export const SERVER_ERROR_MESSAGE = "A server error has occured";
/** ours: the order service (Temporal, or the order's worker) cannot be reached right now. */
export const ORDER_UNAVAILABLE_MESSAGE = "We could not reach the order service. Please try again in a moment.";
/** spec 000 §8, 002 §8: default error text (verbatim). */
export const DEFAULT_ERROR_MESSAGE = "An error has occured";
/** spec 000 §8, 002 §2.1: what /error/ shows to a non-staff user on an admin path (verbatim). */
export const ADMIN_ONLY_ERROR = "Error.";
/** spec 000 §8: an auth error with this detail logs the user out (verbatim). */
export const INVALID_SIGNATURE_DETAIL = "Invalid signature.";
/** ours: the 404 page. */
export const NOT_FOUND_TITLE = "404";
export const NOT_FOUND_MESSAGE = "Sorry, we could not find that page.";

// --- Banners (spec 000 §2, §8; 001 §2; 002 §8) ------------------------------------------------------------

/** The heading of every action-required banner (verbatim). */
export const ACTION_REQUIRED = "Action Required!";
/** Dismiss link of the action-required banners (verbatim). */
export const DO_THIS_LATER = "do this later";
/** spec 000 §8, 001 §2, 002 §8 (verbatim). */
export const CELL_PHONE_ACTION_REQUIRED =
  "Action Required! You must fill in your cell phone number so that we can notify you when you have orders to approve.";
/** ours (spec: "fill in bank details in Settings; listings are not shown to others until bank details are given"). */
export const PAYOUT_ACTION_REQUIRED_TEXT =
  "Your listings will not be shown to other retailers until you give us your bank details. Fill them in under Settings, Payout Info.";
export const PAYOUT_ACTION_REQUIRED = `${ACTION_REQUIRED} ${PAYOUT_ACTION_REQUIRED_TEXT}`;
/** spec 000 §2 (quoted as "account not active, contact support"); ours in full. */
export const INACTIVE_RETAILER_BANNER = "Your account is not active. Please contact support.";

// --- Listings and requests (spec 000 §5, §8) ---------------------------------------------------------------

export const CANNOT_CREATE_LISTING = "Cannot create listing";
export const SELECT_COLOR_OPTION = "You must select a color option to continue";
export const ALREADY_LISTED = "Sorry, we cannot add a listing for an already listed item";
export const ALREADY_REQUESTED = "Sorry, we cannot add a request for an already requested item";
export const MODIFIED_REASON_REQUIRED_LISTING = "You must select a reason for updating your listing.";
export const MODIFIED_REASON_REQUIRED_REQUEST = "You must select a reason for updating your request.";
export const CHECK_INVENTORY_OWN_LISTING = "Please check your inventory or remove your active listings.";
export const ADD_AT_LEAST_ONE_SIZE = "Please add at least one size.";
export const FILL_OUT_EVERYTHING = "* Please fill out everything to continue.";
export const LISTING_PENDING_TRANSACTIONS = "This listing has pending transactions.";
export const LISTING_UNAVAILABLE =
  "Sorry, but the listing you are looking for is unavailable. It may have already been purchased or was taken down by the listing retailer.";
/** ours (spec 000 §8: an "Action Required!" notice says the listing was corrected and must be re-listed). */
export const LISTING_CORRECTED_RELIST = `${ACTION_REQUIRED} This listing was corrected by our staff and must be listed again.`;
/** ours (spec 000 §8: product not found asks to contact support with these details). */
export const PRODUCT_NOT_FOUND =
  "Can't find your product? Contact support and tell us the brand, season, product code, colour, wholesale cost, sizes, the reason for listing and your phone number.";
/** spec 001 §8 (verbatim; spec 000 §8 quotes its first clause and describes the rest). */
export const OWN_LISTING_EXISTS =
  "We have a problem, You already have a listing for this item; if a sale is proposed, wait for the retailer to respond.";
/** Terms must be agreed (ours). */
export const ACCEPT_TERMS = "You must agree to the terms to continue.";

// --- Already transacting (spec 000 §8, 001 §8) --------------------------------------------------------------

export const BUY_ALREADY_YOUR_MOVE =
  "You requested this item and an order has already been created. Go to your Pending Orders to complete checkout.";
export const BUY_ALREADY_THEIR_MOVE =
  "You already requested this item from this retailer. Please wait for them to approve or decline the transaction.";
export const SWAP_ALREADY_YOUR_MOVE =
  "You already have a swap waiting for your response with this same retailer. Please check your Pending Orders.";
export const SWAP_ALREADY_THEIR_MOVE = "You already have a swap in progress with this same retailer. Please wait for them to respond.";

export function alreadyTransactingMessage(kind: "buy" | "swap", move: "yourmove" | "theirmove"): string {
  if (kind === "buy") return move === "yourmove" ? BUY_ALREADY_YOUR_MOVE : BUY_ALREADY_THEIR_MOVE;
  return move === "yourmove" ? SWAP_ALREADY_YOUR_MOVE : SWAP_ALREADY_THEIR_MOVE;
}

/** ours (spec: list something first). */
export const SWAP_NO_ACTIVE_LISTINGS = "To swap, you first need an active listing of this brand. List something first.";
/** ours (spec: or finish payout setup in Settings when there is no payout merchant). */
export const SWAP_NO_PAYOUT = "To swap, first finish your payout setup in Settings, Payout Info.";

// --- Selling needs payout (spec 001 §5) -------------------------------------------------------------------

export const CONFIGURE_PAYOUT_TITLE = "Configure Payout Settings";
export const CONFIGURE_PAYOUT_TEXT = "Before you can sell something, you need to tell us how to pay you.";
export const SETUP_MY_PAYOUTS = "Setup My Payouts";

// --- Transactions (spec 001 §4, §5, §8) --------------------------------------------------------------------

export const CARD_DECLINED = "Sorry but this card was declined. Please try another.";
/** ours (spec 000 §1, 001 §4: a seller approving a sale needs a card on file, used to resolve RMAs). */
export const SELLER_CARD_NEEDED = "A card on file is needed to approve sales (it is used to resolve returns). It is not charged now.";
export const TOTAL_TOO_HIGH = "You cannot select more units than what the retailer has requested to purchase.";
export const PAYMENT_QUEUED = "payment is queued for processing.";
export const ERRORS_DIALOG_TITLE = "Errors";
/** ours: confirm dialog of need_confirm_decline_others (buttons "Continue" / "Yes I am sure" are the spec's). */
export const CONFIRM_DECLINE_OTHERS =
  "Approving this order uses units that other pending orders asked for. Those orders will be declined. Continue?";
export const CONFIRM_DECLINE_OTHERS_BUTTONS = Object.freeze(["Continue", "Yes I am sure"] as const);
/** ours: cancel reason missing. */
export const CANCEL_REASON_REQUIRED = "Please choose a reason for cancelling this shipment.";
/** ours: decline reason missing. */
export const DECLINE_REASON_REQUIRED = "Please choose a reason for declining.";
/** ours (spec 001 §4: an 'update your listings' message after a decline for unavailable units). */
export const UPDATE_YOUR_LISTINGS = "Please update your listings so that they show only the units you really have.";
/** Prefixes of a decline or cancel reason in the detail view (verbatim). */
export const REASON_PREFIX_OTHER = "Other Retailer:";
export const REASON_PREFIX_YOU = "You:";
export const GO_BACK = "Go Back";

export function reasonWithPrefix(reasonLabel: string, reasonIsMine: boolean): string {
  return `${reasonIsMine ? REASON_PREFIX_YOU : REASON_PREFIX_OTHER} ${reasonLabel}`;
}

/** Button and dialog labels of the transaction screens (verbatim from spec 001 §2, §4). */
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

/** Swap completion texts (spec 001 §4, verbatim). */
export const SWAP_AWAITING_RETAILER = "awaiting retailer's response";
export const SWAP_AWAITING_YOUR_SELECTION = "awaiting your selection";
export const SWAP_REQUEST_DECLINED = "Swap Request Declined";
/** spec 001 §8 "Swap modify removal error" (verbatim): a line's removal was refused, the terms stand as they were. */
export const SWAP_SUMMARY_RESTORED = "Summary is restored";

// --- Ratings (spec 001 §2, §4; 002 §2.17) ------------------------------------------------------------------

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

// --- RMAs (spec 001 §5, §9) ----------------------------------------------------------------------------------

export const PICTURE_REQUIRED = "* picture required";
export const RMA_COMPLETE_QUERY = "rma=complete";
/** Home, after the RMA wizard (ours: the specification names only the landing). */
export const RMA_SENT = "Your RMA was sent. Staff will review it within five business days; you will hear from us by e-mail.";
/**
 * Printed texts (packing slip / checklist), ours in wording; the staff reply window follows decisions.md
 * (five business days, where the old printed text said three).
 */
export const RMA_PRINTED_TEXTS = Object.freeze({
  requestWindow: "A return authorization (RA) must be requested within 48 hours of receipt.",
  staffReply: "We reply to every RA request within five business days.",
  returnShipping: "Approved returns must ship within four business days, or the RMA is cancelled.",
  missingUnits: "RMAs for missing units are paid within three business days.",
  damageRefunds: "Refunds for damaged goods are issued when the return is received.",
} as const);

/** A cancelled RMA (its return was not shipped in time): the RMA page and the e-mail say so. */
export const RMA_CANCELLED_NOTHING_PAID = "The return was not shipped in time. Nothing is paid or charged.";

// --- Empty states (spec 000 §8, 001 §2) --------------------------------------------------------------------

export const NO_LISTINGS_FOR_BRAND = "You have no listings for this brand.";
export const NO_REQUESTS_FOR_BRAND = "You have no requests for this brand.";
/** spec 000 §8 verbatim, with "buy/swap" as written; use noActiveListingsText for a page that knows which. */
export const NO_ACTIVE_LISTINGS_BUY_SWAP = "There are no active listings available to buy/swap from retailers of this brand at the moment.";
export const NO_ACTIVE_REQUESTS_FOR_BRAND = "There are no active requests from retailers of this brand at the moment.";
export const NO_REQUESTS_RIGHT_NOW = "No requests right now.";

export function noActiveListingsText(kind: "buy" | "swap"): string {
  return `There are no active listings available to ${kind} from retailers of this brand at the moment.`;
}

/** spec 001 §2: 'You have no pending/declined sales|purchases|swaps at this time. Check the other tabs...' */
export function alertsEmptyText(view: "pending" | "declined", kind: "sales" | "purchases" | "swaps"): string {
  return `You have no ${view} ${kind} at this time. Check the other tabs...`;
}

/** ours (spec 001 §2: the orders screen says there are no approved sales, purchases or swaps). */
export function ordersEmptyText(kind: "sales" | "purchases" | "swaps"): string {
  return `You have no approved ${kind} at this time.`;
}

// --- Admin tools (spec 002 §5, §8) -------------------------------------------------------------------------

export const UPLOAD_INVALID_INPUT = "INVALID INPUT";
export const UPLOAD_FILE_HAS_ISSUES = "file has issues";
export const UPLOAD_PREVIEW_ERROR = "one or more missing or incorrect data were found. please fix it here!";
export const FIXED = "FIXED!";
export const CHOOSE_A_CATEGORY = "Choose a Category";

// --- Success notices (ours) ----------------------------------------------------------------------------------

export const PASSWORD_RESET_SUCCESS_QUERY = "ref=resetSuccessful";
export const COMING_SOON = "Coming soon";

/**
 * The cart's rules (docs/product/orders.md, "Cart"; docs/product/screens.md, "Marketplace"):
 * pure, no I/O. The server-side cart (db/queries/cart.ts), the /cart and /checkout routes and the
 * marketplace pages' CartBar all use these.
 *
 * - A cart has a type (buy, swap or sell) set by its first item; the other two marketplace tabs are
 *   disabled while it has items (cartTabState).
 * - A swap cart is fixed to the first item's brand and provider.
 * - A selection (size label -> units) needs at least one unit ("Please add at least one size."); for buy
 *   and swap it never exceeds what the listing has; selling to a request allows up to 10000 per size.
 * - Buy, swap and sell terms must be accepted before checkout; the sell-for-request info dialog needs a
 *   reason and a floor_time ("* Please fill out everything to continue.").
 */
import { z } from "zod";
import {
  ACCEPT_TERMS,
  ADD_AT_LEAST_ONE_SIZE,
  FILL_OUT_EVERYTHING,
  TRANSACTION_LABELS,
} from "./messages";
import { FLOOR_TIMES, LISTING_REASONS, isChoice } from "./reasons";
import type { CartType } from "./states";

export type { CartType } from "./states";
export { CART_TYPES } from "./states";

/** Size label -> units. */
export type Selection = Record<string, number>;

/** Upper bound per size when selling to a request (the product's "upper bound 10000 for non-modify"). */
export const SELL_TO_REQUEST_MAX_PER_SIZE = 10000;

// ------------------------------------------------------------------------------------------------------
// Messages (ours unless marked verbatim).

export const CART_MESSAGES = Object.freeze({
  /** verbatim */
  addAtLeastOneSize: ADD_AT_LEAST_ONE_SIZE,
  /** verbatim */
  fillOutEverything: FILL_OUT_EVERYTHING,
  acceptTerms: ACCEPT_TERMS,
  moreThanAvailable: "You cannot choose more units than the listing has available.",
  tooManyForRequest: `You can offer at most ${SELL_TO_REQUEST_MAX_PER_SIZE} units per size.`,
  unknownSize: "Choose sizes of this style only.",
  invalidQuantity: "Quantities must be whole numbers of 0 or more.",
  typeLocked: (current: CartType, wanted: CartType) =>
    `Your cart holds items to ${verb(current)}. Proceed with ${noun(current)} or press Start Over before adding items to ${verb(wanted)}.`,
  swapBrandLocked:
    "A swap cart holds items of one brand only. Proceed with this swap or press Start Over to swap another brand.",
  swapProviderLocked:
    "A swap cart holds items from one retailer only. Proceed with this swap or press Start Over to swap with another retailer.",
  ownListing: "This is your own listing: you cannot buy or swap it.",
  ownRequest: "This is your own request: you cannot sell to it.",
  notInCart: "That item is not in your cart.",
  emptyCart: "Your cart is empty.",
  adminHasNoCart:
    "Staff browsing as admin have no cart. Choose a retailer to act as (Admin, Retailers) to shop for that retailer.",
  itemDropped: "An item in your cart is no longer available and was removed.",
  itemsDropped: (n: number) => `${n} items in your cart are no longer available and were removed.`,
  /** A sell draft still in the cart: confirming the sell dialog sends it at once, so this one was not sent (yet). */
  sellDraftRecorded:
    "Your offer is saved as a draft order but has not been sent yet. Confirm the sell dialog at checkout to send it to the requesting retailer; a draft not sent within 24 hours expires.",
  buyDraftReady: "Your order is ready for checkout.",
  added: "Added to your cart.",
  removed: "Removed from your cart.",
  cleared: "Your cart is empty again.",
});

function verb(t: CartType): string {
  return t === "buy" ? "buy" : t === "swap" ? "swap" : "sell";
}
function noun(t: CartType): string {
  return t === "buy" ? "purchase" : t === "swap" ? "swap" : "sell";
}

/** "Proceed with purchase" / "Proceed with swap" / "Proceed with sell" (verbatim labels). */
export function proceedLabel(type: CartType): string {
  return type === "buy"
    ? TRANSACTION_LABELS.proceedBuy
    : type === "swap"
      ? TRANSACTION_LABELS.proceedSwap
      : TRANSACTION_LABELS.proceedSell;
}
export const START_OVER_LABEL = TRANSACTION_LABELS.startOver;

// ------------------------------------------------------------------------------------------------------
// The marketplace tabs and the type lock.

/** The marketplace tab of each cart type: buy -> /buy, swap -> /swap, sell (to requests) -> /sell. */
export const CART_TAB_PATHS: Readonly<Record<CartType, string>> = Object.freeze({
  buy: "/buy",
  swap: "/swap",
  sell: "/sell",
});

export interface CartTabState {
  /** The type the cart is locked to, or null when the cart is empty. */
  lockedTo: CartType | null;
  /** Per tab: true when the tab is disabled (the cart holds items of another type). */
  disabled: Readonly<Record<CartType, boolean>>;
}

/**
 * Which marketplace tabs are disabled (once the cart has a type, the other two tabs are disabled:
 * docs/product/orders.md, "Cart"). Pass the cart's type (null or undefined for an empty cart or no cart).
 */
export function cartTabState(cartType: CartType | null | undefined): CartTabState {
  const lockedTo = cartType ?? null;
  return {
    lockedTo,
    disabled: Object.freeze({
      buy: lockedTo !== null && lockedTo !== "buy",
      swap: lockedTo !== null && lockedTo !== "swap",
      sell: lockedTo !== null && lockedTo !== "sell",
    }),
  };
}

// ------------------------------------------------------------------------------------------------------
// Items and the add rules.

export interface CartLine {
  listingId?: number;
  requestId?: number;
  selection: Selection;
  /** The other retailer: the listing's provider, or the request's requestor. */
  providerId: number;
  brandId: number;
}

export interface CartState {
  type: CartType | null;
  items: readonly CartLine[];
}

/** A line's identity: listings and requests are keyed separately. */
export function lineKey(line: { listingId?: number | null; requestId?: number | null }): string {
  if (line.requestId != null && line.listingId == null) return `request:${line.requestId}`;
  return `listing:${line.listingId}`;
}

export function selectionUnits(selection: Selection): number {
  return Object.values(selection).reduce((a, n) => a + n, 0);
}

/** Drops zero entries (keeps the label order). */
export function compactSelection(selection: Selection): Selection {
  const out: Selection = {};
  for (const [k, n] of Object.entries(selection)) if (n > 0) out[k] = n;
  return out;
}

export type SelectionCheck = { ok: true; selection: Selection } | { ok: false; message: string };

/**
 * Checks a selection against what it may take. `available` is the listing's sizes (buy, swap) or the
 * request's sizes (sell: only their labels matter; each size may go up to 10000).
 */
export function validateSelection(input: {
  selection: Selection;
  available: Selection;
  mode: CartType;
}): SelectionCheck {
  const { selection, available, mode } = input;
  for (const [label, n] of Object.entries(selection)) {
    if (!Number.isSafeInteger(n) || n < 0)
      return { ok: false, message: CART_MESSAGES.invalidQuantity };
    if (n > 0 && !Object.hasOwn(available, label))
      return { ok: false, message: CART_MESSAGES.unknownSize };
  }
  const compact = compactSelection(selection);
  if (selectionUnits(compact) <= 0) return { ok: false, message: CART_MESSAGES.addAtLeastOneSize };
  for (const [label, n] of Object.entries(compact)) {
    if (mode === "sell") {
      if (n > SELL_TO_REQUEST_MAX_PER_SIZE)
        return { ok: false, message: CART_MESSAGES.tooManyForRequest };
    } else if (n > (available[label] ?? 0)) {
      return { ok: false, message: CART_MESSAGES.moreThanAvailable };
    }
  }
  return { ok: true, selection: compact };
}

/** Reads `size.<label>` fields of a form into a selection; anything that is not a whole number is an error. */
export function selectionFromEntries(
  entries: Iterable<[string, unknown]>,
): { ok: true; selection: Selection } | { ok: false; message: string } {
  const selection: Selection = {};
  for (const [name, raw] of entries) {
    if (!name.startsWith("size.")) continue;
    const label = name.slice("size.".length);
    if (label.length === 0 || label.length > 40)
      return { ok: false, message: CART_MESSAGES.unknownSize };
    const text = typeof raw === "string" ? raw.trim() : "";
    if (text === "") continue;
    if (!/^\d{1,6}$/.test(text)) return { ok: false, message: CART_MESSAGES.invalidQuantity };
    selection[label] = (selection[label] ?? 0) + Number(text);
  }
  return { ok: true, selection };
}

export type AddCheck = { ok: true; type: CartType } | { ok: false; message: string };

/**
 * May `line` (of type `type`) join the cart? The type lock (another type is refused), the swap lock (one
 * brand, one provider), and never one's own listing or request.
 */
export function checkAdd(
  cart: CartState,
  line: CartLine,
  type: CartType,
  ownRetailerId: number,
): AddCheck {
  if (line.providerId === ownRetailerId)
    return {
      ok: false,
      message: type === "sell" ? CART_MESSAGES.ownRequest : CART_MESSAGES.ownListing,
    };
  const others = cart.items.filter((i) => lineKey(i) !== lineKey(line));
  const current = others.length > 0 ? cart.type : null;
  if (current !== null && current !== type)
    return { ok: false, message: CART_MESSAGES.typeLocked(current, type) };
  if (type === "swap" && others.length > 0) {
    const first = others[0];
    if (first.brandId !== line.brandId)
      return { ok: false, message: CART_MESSAGES.swapBrandLocked };
    if (first.providerId !== line.providerId)
      return { ok: false, message: CART_MESSAGES.swapProviderLocked };
  }
  return { ok: true, type };
}

/** The cart after adding `line` (a line already in the cart gets the new selection, in its place). */
export function withLine(cart: CartState, line: CartLine, type: CartType): CartState {
  const key = lineKey(line);
  const exists = cart.items.some((i) => lineKey(i) === key);
  const items = exists
    ? cart.items.map((i) => (lineKey(i) === key ? line : i))
    : [...cart.items, line];
  return { type, items };
}

/** The cart without the line of `key`; an emptied cart has no type. */
export function withoutLine(cart: CartState, key: string): CartState {
  const items = cart.items.filter((i) => lineKey(i) !== key);
  return { type: items.length > 0 ? cart.type : null, items };
}

// ------------------------------------------------------------------------------------------------------
// Checkout preconditions and forms.

export type SwapBlock = "no_payout" | "no_active_listings";

/**
 * Swapping requires finished payout setup and at least one active listing of the cart's brand
 * (docs/product/orders.md, "Cart"). Payout is checked first: without it no listing of the retailer is active anyway.
 */
export function swapBlock(input: {
  payoutSet: boolean;
  activeListingsOfBrand: number;
}): SwapBlock | null {
  if (!input.payoutSet) return "no_payout";
  if (input.activeListingsOfBrand <= 0) return "no_active_listings";
  return null;
}

/** Selling requires payout details: otherwise the "Configure Payout Settings" prompt. */
export function sellBlocked(input: { payoutSet: boolean }): boolean {
  return !input.payoutSet;
}

const termsField = z.preprocess(
  (v) => (v === "on" || v === "true" || v === true ? true : false),
  z.literal(true, { errorMap: () => ({ message: ACCEPT_TERMS }) }),
);

/** The terms step (buy and swap). */
export const CheckoutTermsSchema = z.object({ terms: termsField });

/** The sell-for-request info dialog: reason and floor_time (both required), and the sell terms. */
export const SellInfoSchema = z
  .object({
    reason: z.string().optional(),
    floor_time: z.string().optional(),
    terms: z.unknown().optional(),
  })
  .transform((v, ctx) => {
    const reasonOk = isChoice(LISTING_REASONS, v.reason);
    const floorOk = isChoice(FLOOR_TIMES, v.floor_time);
    if (!reasonOk || !floorOk) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: FILL_OUT_EVERYTHING,
        path: [!reasonOk ? "reason" : "floor_time"],
      });
      return z.NEVER;
    }
    if (!(v.terms === "on" || v.terms === "true" || v.terms === true)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: ACCEPT_TERMS, path: ["terms"] });
      return z.NEVER;
    }
    return { reason: v.reason as string, floor_time: v.floor_time as string, terms: true as const };
  });

/** The terms a retailer accepts before checkout (ours; the fees and windows are the business rules'). */
export const CHECKOUT_TERMS: Readonly<
  Record<CartType, { title: string; points: readonly string[]; accept: string }>
> = Object.freeze({
  buy: {
    title: "Purchase terms",
    points: [
      "You pay the wholesale cost of the goods, a 10% fee and shipping for the units you receive.",
      "Your card is pre-authorised at checkout and charged only when the seller approves; if the seller changes the units, you approve the new total first.",
      "The seller has two business days after approval to have the goods ready for pickup.",
      "You rate the order within three business days of receiving it; returns (RMA) are requested within 48 hours of delivery.",
    ],
    accept: "I agree to the purchase terms",
  },
  swap: {
    title: "Swap terms",
    points: [
      "Each retailer pays a 5% fee of the larger goods value, plus shipping for the units it receives.",
      "The retailer whose goods are worth less adds the difference in cash, unless one of you calls it even.",
      "Both retailers have two business days after approval to have the goods ready for pickup.",
    ],
    accept: "I agree to the swap terms",
  },
  sell: {
    title: "Sell terms",
    points: [
      "You sell at wholesale cost: selling has no fee, and you are paid the full wholesale amount once the carrier scans the label.",
      "You have the goods ready for pickup within two business days of the order.",
      "A card on file is needed when a sale is approved: goods never picked up cost a 10% penalty.",
    ],
    accept: "I agree to the sell terms",
  },
});

/** An RMA's number (an RMA is an order of type 3: same id sequence, its own prefix): "RMA-000123". */
export function rmaNumber(rmaId: number): string {
  if (!Number.isSafeInteger(rmaId) || rmaId <= 0)
    throw new RangeError(`rma id must be a positive integer, got ${String(rmaId)}`);
  return `RMA-${String(rmaId).padStart(6, "0")}`;
}

/** The order number people see (orders.external_id) for an order id: "WX-000123". */
export function orderNumber(orderId: number): string {
  if (!Number.isSafeInteger(orderId) || orderId <= 0)
    throw new RangeError(`order id must be a positive integer, got ${String(orderId)}`);
  return `WX-${String(orderId).padStart(6, "0")}`;
}

/** A draft order handed over by checkout (what the buy workflow will be started with). */
export interface BuyDraftHandOver {
  orderId: number;
  workflowId: string;
  /** The order number shown to people (orders.external_id). */
  externalId: string;
  /** The buyer (receiver) and the seller (provider). */
  receiverId: number;
  providerId: number;
  /** Set when the order is an offer to a request (selling to a request). */
  requestId: number | null;
  /** Amounts in cents, from domain/fees.ts purchaseQuote: what the buyer's card is pre-authorised for. */
  goodsCents: number;
  feeCents: number;
  shippingCents: number;
  totalCents: number;
  units: { listingId: number | null; variationId: number; sizes: Record<string, number> }[];
}

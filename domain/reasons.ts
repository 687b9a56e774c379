import { z } from "zod";
import { COMMON_STATES, SWAP_STATES } from "./states";

/**
 * Choice lists of the product (docs/product/glossary.md, "Reasons"). Numeric codes where
 * the product uses numbers (decline, cancel and RMA reasons), string values where the stored column is
 * text (listing reasons, modified_reason, floor_time).
 * Every list is documented in docs/guides/action-codes-and-reasons.md.
 */
export interface Choice<V extends string | number = string | number> {
  readonly value: V;
  readonly label: string;
}

function freezeList<V extends string | number>(list: Choice<V>[]): readonly Choice<V>[] {
  return Object.freeze(list.map((c) => Object.freeze(c)));
}

/** Label of a value in a list, or undefined. */
export function labelFor<V extends string | number>(
  list: readonly Choice<V>[],
  value: unknown,
): string | undefined {
  return list.find((c) => c.value === value)?.label;
}

export function valuesOf<V extends string | number>(list: readonly Choice<V>[]): V[] {
  return list.map((c) => c.value);
}

export function isChoice<V extends string | number>(
  list: readonly Choice<V>[],
  value: unknown,
): value is V {
  return list.some((c) => c.value === value);
}

/**
 * Zod schema accepting a value of the list. For numeric lists form strings are coerced ("14" -> 14).
 * `message` is what the person sees when nothing valid was chosen.
 */
export function choiceSchema<V extends string | number>(
  list: readonly Choice<V>[],
  message: string,
): z.ZodType<V, z.ZodTypeDef, unknown> {
  const numeric = list.length > 0 && typeof list[0].value === "number";
  return z.unknown().transform((raw, ctx) => {
    let value: unknown = raw;
    if (numeric && typeof raw === "string" && /^-?\d+$/.test(raw.trim()))
      value = Number(raw.trim());
    if (!isChoice(list, value)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }
    return value;
  });
}

// ------------------------------------------------------------------------------------------------------
// Listings and requests.

/** Why a retailer lists a style (listing.reason). */
export const LISTING_REASONS = freezeList<string>([
  { value: "overstock", label: "Overstock" },
  { value: "slow_seller", label: "Slow seller in my store" },
  { value: "wrong_sizes", label: "Ordered the wrong sizes" },
  { value: "end_of_season", label: "End of season" },
  { value: "customer_return", label: "Customer return (new, unworn)" },
  { value: "closing_out_brand", label: "No longer carrying this brand or style" },
  { value: "other", label: "Other" },
]);

/** Why a retailer requests a style (request.reason). */
export const REQUEST_REASONS = freezeList<string>([
  { value: "sold_out", label: "Sold out of these sizes" },
  { value: "customer_special_order", label: "Customer special order" },
  { value: "best_seller", label: "Best seller, need more" },
  { value: "missed_reorder", label: "Missed the brand's reorder window" },
  { value: "new_store", label: "Stocking a new store" },
  { value: "other", label: "Other" },
]);

/** "none" is the default and is NOT an acceptable reason for an edit. */
export const MODIFIED_REASON_NONE = "none";

/** Why a listing or request was edited (modified_reason). */
export const MODIFIED_REASONS = freezeList<string>([
  { value: MODIFIED_REASON_NONE, label: "Select a reason" },
  { value: "sold_in_store", label: "Sold units in my store" },
  { value: "inventory_correction", label: "Inventory count correction" },
  { value: "received_more", label: "Received more units" },
  { value: "no_longer_needed", label: "No longer want to sell or buy these units" },
  { value: "wrong_item", label: "Listed or requested the wrong item" },
  { value: "other", label: "Other" },
]);

/** Reasons a person may pick when editing: every modified reason except "none". */
export const MODIFIED_REASONS_FOR_EDIT = freezeList<string>(
  MODIFIED_REASONS.filter((r) => r.value !== MODIFIED_REASON_NONE),
);

/** How long the goods have sat on the seller's sales floor (floor_time; the sell-for-request dialog). */
export const FLOOR_TIMES = freezeList<string>([
  { value: "0-30", label: "0-30 days" },
  { value: "31-60", label: "31-60 days" },
  { value: "61-90", label: "61-90 days" },
  { value: "91-180", label: "91-180 days" },
  { value: "180+", label: "More than 180 days" },
]);

// ------------------------------------------------------------------------------------------------------
// Declines and cancellations.

/** Seller decline reasons meaning "the units are not available": redirect to My Listings. */
export const UNIT_UNAVAILABLE_REASONS: readonly number[] = Object.freeze([14, 15, 16, 18]);

/** provider_decline_buy_reason choices. */
export const SELLER_DECLINE_REASONS = freezeList<number>([
  { value: 10, label: "I would rather keep these units for my store" },
  { value: 11, label: "The buying retailer has a bad rating" },
  { value: 12, label: "I no longer want to sell at cost" },
  { value: 13, label: "I cannot ship within two business days" },
  { value: 14, label: "The units sold in my store" },
  { value: 15, label: "The units were sold to another retailer" },
  { value: 16, label: "The units are damaged" },
  { value: 18, label: "My inventory count was wrong" },
  { value: 19, label: "Other" },
]);

/** Reason given to the buyers of other pending orders declined because an approval took their units. */
export const DECLINE_OTHERS_REASON = 15;

export function isUnitUnavailableReason(code: number): boolean {
  return UNIT_UNAVAILABLE_REASONS.includes(code);
}

/** Buyer decline reasons (receiver_decline_checkout_reason, receiver_decline_modified_purchase_reason). */
export const BUYER_DECLINE_REASONS = freezeList<number>([
  { value: 0, label: "No longer need it" },
  { value: 1, label: "Purchased it from the brand" },
  { value: 2, label: "Selling retailer has a bad rating" },
  { value: 30, label: "The modified order no longer works for me" },
]);

/** Default decline reason for a modified purchase. */
export const BUYER_DECLINE_DEFAULT_REASON = 30;

/** Reasons the system records when a timer ends an order (shown like a party's reason). */
export const SYSTEM_REASONS = freezeList<number>([
  { value: 40, label: "Not answered in time" },
  { value: 41, label: "Checkout was not completed in time" },
  { value: 42, label: "The goods were not picked up in time" },
  { value: 43, label: "Not approved by the buyer's store in time" },
]);
export const SYSTEM_REASON = Object.freeze({
  NOT_ANSWERED_IN_TIME: 40,
  CHECKOUT_NOT_COMPLETED: 41,
  NOT_PICKED_UP: 42,
  NOT_APPROVED_BY_STORE: 43,
} as const);

/** provider_cancel_shipment_reason choices. */
export const CANCEL_SHIPMENT_REASONS = freezeList<number>([
  { value: 50, label: "The units are no longer available" },
  { value: 51, label: "The units are damaged" },
  { value: 52, label: "I cannot have the goods ready for pickup" },
  { value: 53, label: "Approved by mistake" },
  { value: 59, label: "Other" },
]);

/** {role}_decline_swap_reason choices. */
export const SWAP_DECLINE_REASONS = freezeList<number>([
  { value: 60, label: "Not interested in the offered goods" },
  { value: 61, label: "The value difference is too large" },
  { value: 62, label: "The units are no longer available" },
  { value: 63, label: "The other retailer has a bad rating" },
  { value: 69, label: "Other" },
]);

/** Every reason code a decline/cancel may carry, with its label (for "Other Retailer: ..." / "You: ..."). */
export const ALL_NUMERIC_REASONS = freezeList<number>([
  ...SELLER_DECLINE_REASONS,
  ...BUYER_DECLINE_REASONS,
  ...SYSTEM_REASONS,
  ...CANCEL_SHIPMENT_REASONS,
  ...SWAP_DECLINE_REASONS,
]);

export function reasonLabel(code: number): string {
  return labelFor(ALL_NUMERIC_REASONS, code) ?? `Reason ${code}`;
}

// ------------------------------------------------------------------------------------------------------
// RMAs.

export const RMA_REASONS = freezeList<number>([
  { value: 0, label: "Damaged" },
  { value: 1, label: "Defective" },
  { value: 2, label: "Missing units" },
  { value: 3, label: "Wrong item received" },
  { value: 4, label: "Other" },
]);

/** Reasons that need pictures ("* picture required"). */
export const RMA_REASONS_NEEDING_PICTURES: readonly number[] = Object.freeze([0, 1, 3]);
/** The last choice, "other", asks for free text. */
export const RMA_REASON_OTHER = 4;
export const RMA_MAX_PICTURES_PER_ITEM = 3;

export function rmaReasonNeedsPictures(code: number): boolean {
  return RMA_REASONS_NEEDING_PICTURES.includes(code);
}

/** RMA shipping applies to reasons 0, 1, 3, or 4 when its free text mentions shipping ("ship"). */
export function rmaReasonCountsForShipping(code: number, otherText?: string | null): boolean {
  if (RMA_REASONS_NEEDING_PICTURES.includes(code)) return true;
  return code === RMA_REASON_OTHER && /ship/i.test(otherText ?? "");
}

// ------------------------------------------------------------------------------------------------------
// Forms outside transactions: the job titles of the contact form (JOB_TITLES) and the brand-interest choices
// of the brand request form (BRAND_INTERESTS) live in domain/accounts.ts, beside the schemas that use them,
// so that there is one list of each.

/**
 * The reasons an order shows now: a swap's decline over money stays in its record after the other side calls
 * it even, and is shown only while it stands (the last-chance states, or the swap declined).
 */
export function currentReasons(
  transactionType: "buy" | "swap",
  statename: string,
  reasons: Readonly<Record<string, string | number>> | null,
): Record<string, string | number> {
  const all = { ...(reasons ?? {}) };
  if (transactionType !== "swap") return all;
  const standing =
    statename === COMMON_STATES.DECLINED ||
    statename === SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY ||
    statename === SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY;
  if (standing) return all;
  for (const key of Object.keys(all)) if (key.endsWith("_decline_swap_reason")) delete all[key];
  return all;
}

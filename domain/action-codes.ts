/**
 * Action codes: every step of an order is recorded in order_actions with one of these codes.
 * The product's own codes keep their numbers and their text (docs/product/glossary.md, "Action codes").
 * Steps the specifications leave without a code get new codes in free slots of the same families
 * (see docs/guides/action-codes-and-reasons.md):
 *   1xx carrier / shipment events   2xx party actions (21x swap, 22x-23x buy, ratings)
 *   3xx timer outcomes and closing  8xx money                      9xx call tags
 */

export type ActionOrigin = "spec" | "ours";

export interface ActionCodeInfo {
  readonly code: number;
  /** Stable identifier (the key in ACTION). */
  readonly key: string;
  /** Text shown in the admin action filter and the updates list. */
  readonly label: string;
  readonly origin: ActionOrigin;
}

export const ACTION = Object.freeze({
  // --- the product's: admin filter labels
  CALL_TAG_SCHEDULED_SWAP: 910,
  CALL_TAG_RESCHEDULED_SWAP: 911,
  CALL_TAG_SCHEDULED_ORDER: 920,
  CALL_TAG_RESCHEDULED_ORDER: 921,
  SHIPMENT_DELIVERED: 119,
  RECEIVER_CONFIRM_ORDER: 222,
  SHIPMENT_PICKED_UP: 110,
  // --- the product's: other codes seen in admin order filtering
  PROVIDER_APPROVE_SWAP: 212,
  RECEIVER_APPROVE_SWAP: 213,
  RECEIVER_APPROVE_PURCHASE: 220,
  PROVIDER_APPROVE_SALE: 221,
  PAYMENT: 810,
  CONFIRM_SWAP_ITEMS: 214,
  ORDER_CREATED_FOR_REQUEST: 223,
  SWAP_REQUESTED: 210,
  PROVIDER_SWAP_NON_SHIPMENT: 115,
  RECEIVER_SWAP_NON_SHIPMENT: 116,
  PROVIDER_CHOOSES_SWAP_ITEMS: 211,
  // --- ours: shipment
  PROVIDER_ORDER_NON_SHIPMENT: 117,
  SHIPMENT_CANCELLED: 118,
  /** Staff booked the parcel's pickup again (a new call tag; the window starts over). */
  CALL_TAG_BOOKED_BY_STAFF_ORDER: 922,
  /** The same on one side's parcel of a swap (the swap's pickup window starts over). */
  CALL_TAG_BOOKED_BY_STAFF_SWAP: 912,
  // --- ours: party actions (buy)
  CHECKOUT_COMPLETED: 224,
  PROVIDER_DECLINE_SALE: 225,
  RECEIVER_DECLINE_CHECKOUT: 226,
  PROVIDER_MODIFY_SALE: 227,
  RECEIVER_DECLINE_MODIFIED_PURCHASE: 228,
  PROVIDER_DECLINED_FOR_OTHER_ORDER: 229,
  RECEIVER_RATED: 230,
  PROVIDER_RATED: 231,
  // --- ours: the buyer's store (docs/product/teams.md, "Limits and approval")
  STORE_APPROVAL_REQUESTED: 232,
  STORE_APPROVED: 233,
  STORE_DECLINED: 234,
  // --- ours: timers and closing
  CHECKOUT_EXPIRED: 301,
  SELLER_RESPONSE_EXPIRED: 302,
  MODIFIED_PURCHASE_EXPIRED: 303,
  REQUEST_CHECKOUT_EXPIRED: 304,
  RATING_WINDOW_CLOSED: 305,
  STORE_APPROVAL_EXPIRED: 308,
  ORDER_COMPLETED: 390,
  // --- ours: returns (RMA; the specifications name stages, not codes: ADR 0017)
  RMA_REQUESTED: 240,
  RMA_APPROVED: 241,
  RMA_DECLINED: 242,
  RMA_RETURN_NOT_SHIPPED: 306,
  RMA_STAFF_ESCALATED: 307,
  RMA_COMPLETED: 391,
  CALL_TAG_SCHEDULED_RMA: 930,
  /** Staff booked the return's pickup again (a new call tag; its 4 business days start over). */
  CALL_TAG_BOOKED_BY_STAFF_RMA: 931,
  RMA_VICTIM_REFUNDED: 819,
  RMA_PERPETRATOR_CHARGED: 820,
  RMA_CHARGE_QUEUED: 821,
  // --- ours: money
  PAYMENT_METHOD_ADDED: 811,
  PAYMENT_CAPTURED: 812,
  AUTHORIZATION_RELEASED: 813,
  REFUND_ISSUED: 814,
  PENALTY_CHARGED: 815,
  PAYOUT_RELEASED: 816,
  PAYOUT_ACCOUNT_SET_UP: 817,
  CARD_DECLINED: 818,
} as const);

export type ActionKey = keyof typeof ACTION;
export type ActionCode = (typeof ACTION)[ActionKey];

const LABELS: Readonly<Record<ActionKey, { label: string; origin: ActionOrigin }>> = {
  CALL_TAG_SCHEDULED_SWAP: { label: "Call Tag Scheduled (ship swap)", origin: "spec" },
  CALL_TAG_RESCHEDULED_SWAP: { label: "Call Tag Rescheduled (ship swap try2)", origin: "spec" },
  CALL_TAG_SCHEDULED_ORDER: { label: "Call Tag Scheduled (ship order)", origin: "spec" },
  CALL_TAG_RESCHEDULED_ORDER: { label: "Call Tag Rescheduled (ship order try2)", origin: "spec" },
  SHIPMENT_DELIVERED: { label: "Delivered (shipment delivered)", origin: "spec" },
  RECEIVER_CONFIRM_ORDER: { label: "Delivered (receiver confirm order)", origin: "spec" },
  SHIPMENT_PICKED_UP: { label: "In-Route (shipment picked up)", origin: "spec" },
  PROVIDER_APPROVE_SWAP: { label: "provider approve swap", origin: "spec" },
  RECEIVER_APPROVE_SWAP: { label: "receiver approve swap", origin: "spec" },
  RECEIVER_APPROVE_PURCHASE: { label: "receiver approve purchase", origin: "spec" },
  PROVIDER_APPROVE_SALE: { label: "provider approve sale", origin: "spec" },
  PAYMENT: { label: "payment", origin: "spec" },
  CONFIRM_SWAP_ITEMS: { label: "confirm swap items", origin: "spec" },
  ORDER_CREATED_FOR_REQUEST: { label: "order created for request", origin: "spec" },
  SWAP_REQUESTED: { label: "swap requested", origin: "spec" },
  PROVIDER_SWAP_NON_SHIPMENT: { label: "provider swap non-shipment (unfulfilled)", origin: "spec" },
  RECEIVER_SWAP_NON_SHIPMENT: { label: "receiver swap non-shipment", origin: "spec" },
  PROVIDER_CHOOSES_SWAP_ITEMS: { label: "provider chooses swap items", origin: "spec" },
  PROVIDER_ORDER_NON_SHIPMENT: {
    label: "provider order non-shipment (cancelled with penalty)",
    origin: "ours",
  },
  SHIPMENT_CANCELLED: { label: "Cancelled (provider cancel shipment)", origin: "ours" },
  CHECKOUT_COMPLETED: { label: "receiver complete checkout (card pre-authorized)", origin: "ours" },
  PROVIDER_DECLINE_SALE: { label: "provider decline sale", origin: "ours" },
  RECEIVER_DECLINE_CHECKOUT: { label: "receiver decline checkout", origin: "ours" },
  PROVIDER_MODIFY_SALE: { label: "provider modify sale", origin: "ours" },
  RECEIVER_DECLINE_MODIFIED_PURCHASE: {
    label: "receiver decline modified purchase",
    origin: "ours",
  },
  PROVIDER_DECLINED_FOR_OTHER_ORDER: {
    label: "provider decline (units sold to another order)",
    origin: "ours",
  },
  RECEIVER_RATED: { label: "receiver rate order", origin: "ours" },
  PROVIDER_RATED: { label: "provider rate order", origin: "ours" },
  STORE_APPROVAL_REQUESTED: {
    label: "receiver complete checkout over the placer's limit (awaiting store approval)",
    origin: "ours",
  },
  STORE_APPROVED: { label: "receiver's store approve purchase", origin: "ours" },
  STORE_DECLINED: { label: "receiver's store decline purchase", origin: "ours" },
  STORE_APPROVAL_EXPIRED: {
    label: "store approval expired (cancelled, authorization released)",
    origin: "ours",
  },
  CHECKOUT_EXPIRED: { label: "checkout expired", origin: "ours" },
  SELLER_RESPONSE_EXPIRED: { label: "provider response expired (auto-declined)", origin: "ours" },
  MODIFIED_PURCHASE_EXPIRED: {
    label: "modified purchase response expired (auto-declined)",
    origin: "ours",
  },
  REQUEST_CHECKOUT_EXPIRED: { label: "request checkout expired", origin: "ours" },
  RATING_WINDOW_CLOSED: { label: "rating window closed", origin: "ours" },
  ORDER_COMPLETED: { label: "order completed", origin: "ours" },
  RMA_REQUESTED: { label: "RMA requested", origin: "ours" },
  RMA_APPROVED: { label: "RMA approved by staff (some lines)", origin: "ours" },
  RMA_DECLINED: { label: "RMA declined by staff (every line denied)", origin: "ours" },
  RMA_RETURN_NOT_SHIPPED: {
    label: "RMA cancelled (return not shipped in 4 business days)",
    origin: "ours",
  },
  RMA_STAFF_ESCALATED: {
    label: "RMA not answered by staff in 5 business days (escalated)",
    origin: "ours",
  },
  RMA_COMPLETED: { label: "RMA completed", origin: "ours" },
  CALL_TAG_SCHEDULED_RMA: { label: "Call Tag Scheduled (RMA return)", origin: "ours" },
  CALL_TAG_BOOKED_BY_STAFF_ORDER: { label: "Pickup booked by staff (ship order)", origin: "ours" },
  CALL_TAG_BOOKED_BY_STAFF_SWAP: { label: "Pickup booked by staff (ship swap)", origin: "ours" },
  CALL_TAG_BOOKED_BY_STAFF_RMA: { label: "Pickup booked by staff (RMA return)", origin: "ours" },
  RMA_VICTIM_REFUNDED: { label: "RMA refund to the victim", origin: "ours" },
  RMA_PERPETRATOR_CHARGED: { label: "RMA charge to the perpetrator", origin: "ours" },
  RMA_CHARGE_QUEUED: {
    label: "RMA charge queued for staff (card declined or missing)",
    origin: "ours",
  },
  PAYMENT_METHOD_ADDED: { label: "payment method added", origin: "ours" },
  PAYMENT_CAPTURED: { label: "payment captured", origin: "ours" },
  AUTHORIZATION_RELEASED: { label: "authorization released", origin: "ours" },
  REFUND_ISSUED: { label: "refund issued", origin: "ours" },
  PENALTY_CHARGED: { label: "penalty charged", origin: "ours" },
  PAYOUT_RELEASED: { label: "payout released", origin: "ours" },
  PAYOUT_ACCOUNT_SET_UP: { label: "payout account set up", origin: "ours" },
  CARD_DECLINED: { label: "card declined", origin: "ours" },
};

/** Every action code with its label, in the order of ACTION. */
export const ACTION_CODES: readonly ActionCodeInfo[] = Object.freeze(
  (Object.keys(ACTION) as ActionKey[]).map((key) =>
    Object.freeze({ code: ACTION[key], key, ...LABELS[key] }),
  ),
);

const BY_CODE = new Map<number, ActionCodeInfo>(ACTION_CODES.map((a) => [a.code, a]));

export function isActionCode(value: unknown): value is ActionCode {
  return typeof value === "number" && BY_CODE.has(value);
}

export function actionCodeInfo(code: number): ActionCodeInfo | undefined {
  return BY_CODE.get(code);
}

/** Label of a code; unknown codes read "action {code}" rather than failing a page. */
export function actionLabel(code: number): string {
  return BY_CODE.get(code)?.label ?? `action ${code}`;
}

/** The admin transactions screen's action filter (docs/product/screens.md, "Staff: transactions"): every code, sorted by number. */
export const ADMIN_ACTION_FILTER_OPTIONS: readonly { value: number; label: string }[] =
  Object.freeze(
    [...ACTION_CODES]
      .sort((a, b) => a.code - b.code)
      .map((a) => ({ value: a.code, label: `${a.code} ${a.label}` })),
  );

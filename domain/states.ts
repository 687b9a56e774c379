/**
 * Names of states, statuses and roles. Transaction state names (`statename`) are the workflow's own state
 * names (docs/product/glossary.md, "Purchase states", "Swap states"), so screens, filters and the read model
 * share them.
 * Names taken from the specifications are kept as they are; states the specifications do not name
 * (in_route, delivered, completed, declined, cancelled, expired) are ours, in the same snake_case style.
 */

// ---------------------------------------------------------------------------------------------------------
// Transaction types (docs/product/glossary.md, "Transaction types"): 1 Sale, 2 Swap, 3 RMA.

export const TRANSACTION_TYPE = Object.freeze({ SALE: 1, SWAP: 2, RMA: 3 } as const);
export type TransactionType = (typeof TRANSACTION_TYPE)[keyof typeof TRANSACTION_TYPE];

export const TRANSACTION_TYPE_LABELS: Readonly<Record<TransactionType, "Sale" | "Swap" | "RMA">> =
  Object.freeze({
    1: "Sale",
    2: "Swap",
    3: "RMA",
  });

export const TRANSACTION_TYPE_OPTIONS: readonly { value: TransactionType; label: string }[] =
  Object.freeze([
    { value: 1, label: "Sale" },
    { value: 2, label: "Swap" },
    { value: 3, label: "RMA" },
  ]);

export function isTransactionType(value: unknown): value is TransactionType {
  return value === 1 || value === 2 || value === 3;
}

/** Transaction kinds of the detail route /transaction/:ttype/:id. */
export const TRANSACTION_KINDS = ["buy", "swap"] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

// ---------------------------------------------------------------------------------------------------------
// Roles (docs/product/glossary.md, "Parties").

export type Role = "provider" | "receiver";

/** Whether an order waits for this side: its own move, or both sides' (a swap's payment, until each has paid). */
export function isMoveOf(actionNeeded: string | null, role: Role | null): boolean {
  return role !== null && (actionNeeded === role || actionNeeded === "both");
}

/** Provider if the order's provider is the current retailer, otherwise receiver. */
export function roleOf(order: { providerId: number }, retailerId: number): Role {
  return order.providerId === retailerId ? "provider" : "receiver";
}

/** The other party's retailer id. */
export function counterpartyId(
  order: { providerId: number; receiverId: number },
  retailerId: number,
): number {
  return roleOf(order, retailerId) === "provider" ? order.receiverId : order.providerId;
}

export function otherRole(role: Role): Role {
  return role === "provider" ? "receiver" : "provider";
}

export function isParty(
  order: { providerId: number; receiverId: number },
  retailerId: number,
): boolean {
  return order.providerId === retailerId || order.receiverId === retailerId;
}

/** "Sale" for the seller, "Purchase" for the buyer of a type-1 order; "Swap"; "RMA". */
export function transactionTypeLabel(
  type: TransactionType,
  role: Role,
): "Sale" | "Purchase" | "Swap" | "RMA" {
  if (type === TRANSACTION_TYPE.SALE) return role === "provider" ? "Sale" : "Purchase";
  return TRANSACTION_TYPE_LABELS[type];
}

/** RMA role: receiver if the order's receiver is the current retailer, else provider. */
export function rmaRoleOf(order: { receiverId: number }, retailerId: number): Role {
  return order.receiverId === retailerId ? "receiver" : "provider";
}

// ---------------------------------------------------------------------------------------------------------
// Transaction state names.

/** Buy (purchase / sale) states. */
export const BUY_STATES = Object.freeze({
  /** Draft: the buyer (or, for an order made for a request, the requestor) must complete checkout. */
  COMPLETE_ORDER_CHECKOUT: "complete_order_checkout",
  /**
   * Ours: checked out over the placer's limit; an approver of the buyer's store approves (then the seller's
   * turn) or declines, within 2 business days (docs/product/teams.md, "Limits and approval").
   */
  STORE_APPROVE_PURCHASE: "store_approve_purchase",
  /** The seller approves, declines or modifies. */
  PROVIDER_APPROVE_SALE: "provider_approve_sale",
  /** The seller's approval waits for a card on file (need_payment_method). */
  PAYMENT: "payment",
  /** The buyer approves or declines the seller's modification. */
  RECEIVER_APPROVE_MODIFIED_PURCHASE: "receiver_approve_modified_purchase",
  /** Approved and captured; call tag booked; waiting for the carrier's pickup scan. */
  SHIP_ORDER: "ship_order",
  /** Pickup rescheduled once (action 921). */
  SHIP_ORDER_TRY2: "ship_order_try2",
} as const);

/** Swap states (docs/product/glossary.md, "Swap states"). */
export const SWAP_STATES = Object.freeze({
  PROVIDER_CHOOSE_ITEMS: "provider_choose_items",
  PROVIDER_APPROVE: "provider_approve",
  RECEIVER_APPROVE: "receiver_approve",
  PAYMENT: "payment",
  SHIP_SWAP: "ship_swap",
  SHIP_SWAP_TRY2: "ship_swap_try2",
  SWAP_DECLINED_BY_PROVIDER_MONEY: "swap_declined_by_provider_money",
  SWAP_DECLINED_BY_RECEIVER_MONEY: "swap_declined_by_receiver_money",
} as const);

/**
 * A swap is open ("in progress") until both sides have paid: the draft, the negotiation, the last chance and
 * payment. The duplicate-swap guard and the swap panel's waiting texts use it.
 */
export const SWAP_OPEN_STATES: readonly string[] = Object.freeze([
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.STORE_APPROVE_PURCHASE,
  SWAP_STATES.PROVIDER_CHOOSE_ITEMS,
  SWAP_STATES.PROVIDER_APPROVE,
  SWAP_STATES.RECEIVER_APPROVE,
  SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY,
  SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY,
  SWAP_STATES.PAYMENT,
]);

/** States shared by both kinds after the negotiation (ours: the specifications name none). */
export const COMMON_STATES = Object.freeze({
  /** Picked up by the carrier (action 110); payout released. */
  IN_ROUTE: "in_route",
  /** Delivered (action 119); the receiver's rating window (3 business days) and RMA window (48 h) are open. */
  DELIVERED: "delivered",
  /** Done: rated, or the rating window closed. */
  COMPLETED: "completed",
  /** Declined by a party, or auto-declined because a party did not answer in time. */
  DECLINED: "declined",
  /** Cancelled after approval: shipment cancelled by the provider, or goods never picked up. */
  CANCELLED: "cancelled",
  /** A draft whose checkout was never completed (24 h; 3 days for an order made for a request). */
  EXPIRED: "expired",
} as const);

export type BuyState = (typeof BUY_STATES)[keyof typeof BUY_STATES];
export type SwapState = (typeof SWAP_STATES)[keyof typeof SWAP_STATES];
export type CommonState = (typeof COMMON_STATES)[keyof typeof COMMON_STATES];
export type TransactionState = BuyState | SwapState | CommonState;

export const ALL_BUY_STATES: readonly (BuyState | CommonState)[] = Object.freeze([
  ...Object.values(BUY_STATES),
  ...Object.values(COMMON_STATES),
]);
export const ALL_SWAP_STATES: readonly (SwapState | CommonState)[] = Object.freeze([
  ...Object.values(SWAP_STATES),
  ...Object.values(COMMON_STATES),
]);
export const ALL_TRANSACTION_STATES: readonly TransactionState[] = Object.freeze([
  ...new Set<TransactionState>([...ALL_BUY_STATES, ...ALL_SWAP_STATES]),
]);

export function isTransactionState(value: unknown): value is TransactionState {
  return typeof value === "string" && (ALL_TRANSACTION_STATES as readonly string[]).includes(value);
}

export const TERMINAL_STATES: readonly TransactionState[] = Object.freeze([
  COMMON_STATES.COMPLETED,
  COMMON_STATES.DECLINED,
  COMMON_STATES.CANCELLED,
  COMMON_STATES.EXPIRED,
]);

export function isTerminalState(state: string): boolean {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

// ---------------------------------------------------------------------------------------------------------
// Display statuses (shown to users; "Pickup Scheduled", "In-Route", "Delivered", "Cancelled", "Declined" and
// "Approve/Decline Modified Purchase" are the specification's; the others are ours).

export const DISPLAY_STATUS = Object.freeze({
  CHECKOUT_PENDING: "Checkout Pending",
  AWAITING_APPROVAL: "Awaiting Approval",
  AWAITING_STORE_APPROVAL: "Awaiting Store Approval",
  PAYMENT_METHOD_NEEDED: "Payment Method Needed",
  APPROVE_DECLINE_MODIFIED_PURCHASE: "Approve/Decline Modified Purchase",
  PICKUP_SCHEDULED: "Pickup Scheduled",
  IN_ROUTE: "In-Route",
  DELIVERED: "Delivered",
  COMPLETED: "Completed",
  DECLINED: "Declined",
  CANCELLED: "Cancelled",
  EXPIRED: "Expired",
  SWAP_CHOOSE_ITEMS: "Choose Swap Items",
  SWAP_AWAITING_APPROVAL: "Awaiting Swap Approval",
  SWAP_CALL_IT_EVEN: "Call It Even?",
} as const);
export type DisplayStatus = (typeof DISPLAY_STATUS)[keyof typeof DISPLAY_STATUS];

const BUY_DISPLAY: Readonly<Record<BuyState | CommonState, DisplayStatus>> = Object.freeze({
  complete_order_checkout: DISPLAY_STATUS.CHECKOUT_PENDING,
  store_approve_purchase: DISPLAY_STATUS.AWAITING_STORE_APPROVAL,
  provider_approve_sale: DISPLAY_STATUS.AWAITING_APPROVAL,
  payment: DISPLAY_STATUS.PAYMENT_METHOD_NEEDED,
  receiver_approve_modified_purchase: DISPLAY_STATUS.APPROVE_DECLINE_MODIFIED_PURCHASE,
  ship_order: DISPLAY_STATUS.PICKUP_SCHEDULED,
  ship_order_try2: DISPLAY_STATUS.PICKUP_SCHEDULED,
  in_route: DISPLAY_STATUS.IN_ROUTE,
  delivered: DISPLAY_STATUS.DELIVERED,
  completed: DISPLAY_STATUS.COMPLETED,
  declined: DISPLAY_STATUS.DECLINED,
  cancelled: DISPLAY_STATUS.CANCELLED,
  expired: DISPLAY_STATUS.EXPIRED,
});

const SWAP_DISPLAY: Readonly<
  Record<
    | SwapState
    | CommonState
    | typeof BUY_STATES.COMPLETE_ORDER_CHECKOUT
    | typeof BUY_STATES.STORE_APPROVE_PURCHASE,
    DisplayStatus
  >
> = Object.freeze({
  // A swap starts, as a purchase does, with the receiver's checkout (card pre-authorised), and, over the
  // placer's limit, its store's approval.
  complete_order_checkout: DISPLAY_STATUS.CHECKOUT_PENDING,
  store_approve_purchase: DISPLAY_STATUS.AWAITING_STORE_APPROVAL,
  provider_choose_items: DISPLAY_STATUS.SWAP_CHOOSE_ITEMS,
  provider_approve: DISPLAY_STATUS.SWAP_AWAITING_APPROVAL,
  receiver_approve: DISPLAY_STATUS.SWAP_AWAITING_APPROVAL,
  payment: DISPLAY_STATUS.PAYMENT_METHOD_NEEDED,
  ship_swap: DISPLAY_STATUS.PICKUP_SCHEDULED,
  ship_swap_try2: DISPLAY_STATUS.PICKUP_SCHEDULED,
  swap_declined_by_provider_money: DISPLAY_STATUS.SWAP_CALL_IT_EVEN,
  swap_declined_by_receiver_money: DISPLAY_STATUS.SWAP_CALL_IT_EVEN,
  in_route: DISPLAY_STATUS.IN_ROUTE,
  delivered: DISPLAY_STATUS.DELIVERED,
  completed: DISPLAY_STATUS.COMPLETED,
  declined: DISPLAY_STATUS.DECLINED,
  cancelled: DISPLAY_STATUS.CANCELLED,
  expired: DISPLAY_STATUS.EXPIRED,
});

/** Default display status of a state (a workflow may store a more specific one in the read model). */
export function displayStatusFor(kind: TransactionKind, state: string): DisplayStatus {
  const table: Readonly<Record<string, DisplayStatus>> =
    kind === "buy" ? BUY_DISPLAY : SWAP_DISPLAY;
  const status = table[state];
  if (!status) throw new RangeError(`unknown ${kind} state ${JSON.stringify(state)}`);
  return status;
}

/** Whose move it is in a state, or null when nobody's (carrier, timers, or finished). */
export function actionNeededBy(kind: TransactionKind, state: string): Role | null {
  switch (state) {
    case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
    case BUY_STATES.STORE_APPROVE_PURCHASE:
    case BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE:
    case SWAP_STATES.RECEIVER_APPROVE:
    case SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY:
      return "receiver";
    case BUY_STATES.PROVIDER_APPROVE_SALE:
    case SWAP_STATES.PROVIDER_CHOOSE_ITEMS:
    case SWAP_STATES.PROVIDER_APPROVE:
    case SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY:
      return "provider";
    case BUY_STATES.PAYMENT:
      // Buy: the seller must add a card. Swap: the party paying; the workflow stores which one.
      return kind === "buy" ? "provider" : null;
    case COMMON_STATES.DELIVERED:
      return "receiver";
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Action panel by state name (docs/product/glossary.md, "Action panels").

export const ACTION_PANELS = Object.freeze({
  COMPLETE_CHECKOUT: "complete-checkout",
  /** Ours: the buyer's store approves or declines a purchase over the placer's limit. */
  STORE_APPROVAL: "store-approval",
  PROVIDER_APPROVE: "provider-approve",
  SHIPMENT_PENDING: "shipment-pending",
  MODIFY_APPROVE_SWAP: "modify-approve-swap",
  SWAP_SHIPMENT_PENDING: "swap-shipment-pending",
  CALL_IT_EVEN: "call-it-even",
  /** Ours: after pickup / delivery / completion the detail shows the order and, for the receiver, the rating. */
  ORDER_SUMMARY: "order-summary",
} as const);
export type ActionPanel = (typeof ACTION_PANELS)[keyof typeof ACTION_PANELS];

const POST_SHIPPING: readonly string[] = [
  COMMON_STATES.IN_ROUTE,
  COMMON_STATES.DELIVERED,
  COMMON_STATES.COMPLETED,
  COMMON_STATES.DECLINED,
  COMMON_STATES.CANCELLED,
  COMMON_STATES.EXPIRED,
];

/**
 * Buy: complete_order_checkout -> complete-checkout; provider_approve_sale, payment,
 * receiver_approve_modified_purchase -> provider-approve; ship_order(_try2) -> shipment-pending;
 * default provider-approve. Swap: provider_choose_items, provider_approve, receiver_approve, payment ->
 * modify-approve-swap; ship_swap(_try2) -> swap-shipment-pending; swap_declined_by_*_money -> call-it-even.
 * Our own later states (in_route ... expired) show order-summary; the specification's defaults apply to
 * any other name (provider-approve for buy, modify-approve-swap for swap).
 */
export function actionPanelFor(kind: TransactionKind, state: string): ActionPanel {
  if (POST_SHIPPING.includes(state)) return ACTION_PANELS.ORDER_SUMMARY;
  if (kind === "buy") {
    switch (state) {
      case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
        return ACTION_PANELS.COMPLETE_CHECKOUT;
      case BUY_STATES.STORE_APPROVE_PURCHASE:
        return ACTION_PANELS.STORE_APPROVAL;
      case BUY_STATES.SHIP_ORDER:
      case BUY_STATES.SHIP_ORDER_TRY2:
        return ACTION_PANELS.SHIPMENT_PENDING;
      default:
        return ACTION_PANELS.PROVIDER_APPROVE;
    }
  }
  switch (state) {
    case BUY_STATES.STORE_APPROVE_PURCHASE:
      return ACTION_PANELS.STORE_APPROVAL;
    case SWAP_STATES.SHIP_SWAP:
    case SWAP_STATES.SHIP_SWAP_TRY2:
      return ACTION_PANELS.SWAP_SHIPMENT_PENDING;
    case SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY:
    case SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY:
      return ACTION_PANELS.CALL_IT_EVEN;
    default:
      return ACTION_PANELS.MODIFY_APPROVE_SWAP;
  }
}

/** The seller may modify only while the state is provider_approve_sale and not yet confirmed. */
export function canProviderModifySale(state: string, confirmed: boolean): boolean {
  return state === BUY_STATES.PROVIDER_APPROVE_SALE && !confirmed;
}

/** A provider may cancel a shipment until it is In-Route, Delivered or Cancelled: i.e. while pickup is scheduled. */
export function canCancelShipment(state: string): boolean {
  return (
    state === BUY_STATES.SHIP_ORDER ||
    state === BUY_STATES.SHIP_ORDER_TRY2 ||
    state === SWAP_STATES.SHIP_SWAP ||
    state === SWAP_STATES.SHIP_SWAP_TRY2
  );
}

// ---------------------------------------------------------------------------------------------------------
// Admin stages (docs/product/glossary.md, "Admin stages").

export const ADMIN_STAGES = Object.freeze([
  "all",
  "pre_shipping",
  "approved",
  "shipping",
  "delivered",
  "complete",
  "declined",
  "cancelled",
] as const);
export type AdminStage = (typeof ADMIN_STAGES)[number];
export type OrderStage = Exclude<AdminStage, "all">;

export const ADMIN_STAGE_LABELS: Readonly<Record<AdminStage, string>> = Object.freeze({
  all: "All",
  pre_shipping: "Pending",
  approved: "Approved",
  shipping: "Shipping",
  delivered: "Delivered",
  complete: "Complete",
  declined: "Declined",
  cancelled: "Cancelled",
});

export function isAdminStage(value: unknown): value is AdminStage {
  return typeof value === "string" && (ADMIN_STAGES as readonly string[]).includes(value);
}

/** An RMA's own stage names under staff's order stages (its pending is "rmarequested", and so on). */
const RMA_STAGES_OF_ADMIN_STAGE: Readonly<Partial<Record<OrderStage, readonly string[]>>> =
  Object.freeze({
    pre_shipping: ["rmarequested"],
    complete: ["rmacompleted"],
    declined: ["rmadeclined"],
    cancelled: ["rmacancelled"],
  });

/** The order stages an admin stage filter matches: its own, and an RMA's that mean the same. */
export function stagesOfAdminStage(stage: OrderStage): string[] {
  return [stage, ...(RMA_STAGES_OF_ADMIN_STAGE[stage] ?? [])];
}

/** What staff call an order's two parties: seller/buyer, a swap's provider/receiver, an RMA's victim/perpetrator (docs/product/glossary.md, "Parties"). */
export function partyLabels(transactionType: number): { provider: string; receiver: string } {
  if (transactionType === TRANSACTION_TYPE.SWAP)
    return { provider: "provider", receiver: "receiver" };
  if (transactionType === TRANSACTION_TYPE.RMA)
    return { provider: "victim", receiver: "perpetrator" };
  return { provider: "seller", receiver: "buyer" };
}

/**
 * Stage of an order (orders.stage) from its state: negotiation -> pre_shipping; pickup scheduled ->
 * approved; picked up -> shipping; delivered -> delivered; completed -> complete; declined and expired
 * (ended before any approval) -> declined; cancelled (ended after approval) -> cancelled.
 */
export function stageForState(state: string): OrderStage {
  switch (state) {
    case BUY_STATES.SHIP_ORDER:
    case BUY_STATES.SHIP_ORDER_TRY2:
    case SWAP_STATES.SHIP_SWAP:
    case SWAP_STATES.SHIP_SWAP_TRY2:
      return "approved";
    case COMMON_STATES.IN_ROUTE:
      return "shipping";
    case COMMON_STATES.DELIVERED:
      return "delivered";
    case COMMON_STATES.COMPLETED:
      return "complete";
    case COMMON_STATES.DECLINED:
    case COMMON_STATES.EXPIRED:
      return "declined";
    case COMMON_STATES.CANCELLED:
      return "cancelled";
    default:
      if (!isTransactionState(state))
        throw new RangeError(`unknown state ${JSON.stringify(state)}`);
      return "pre_shipping";
  }
}

/** completed flag of the read model: null awaiting a response, false declined, true done. */
export function completedFlagFor(state: string): boolean | null {
  if (
    state === COMMON_STATES.DECLINED ||
    state === COMMON_STATES.EXPIRED ||
    state === COMMON_STATES.CANCELLED
  )
    return false;
  if (state === COMMON_STATES.COMPLETED) return true;
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Other state lists.

/** Listing status: payoutneeded hides a listing from other retailers until payout is set up. */
export const LISTING_STATUSES = Object.freeze(["payoutneeded", "active"] as const);
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const LISTING_TYPES = Object.freeze(["sell", "swap"] as const);
export type ListingType = (typeof LISTING_TYPES)[number];

export const CART_TYPES = Object.freeze(["buy", "swap", "sell"] as const);
export type CartType = (typeof CART_TYPES)[number];

/** Retailer activation: is_active null = pending, true = active, false = inactive. */
export const RETAILER_ACTIVATION = Object.freeze(["pending", "active", "inactive"] as const);
export type RetailerActivation = (typeof RETAILER_ACTIVATION)[number];

export function retailerActivation(isActive: boolean | null): RetailerActivation {
  return isActive === null ? "pending" : isActive ? "active" : "inactive";
}

/** RMA stages (docs/product/glossary.md, "RMA stages"). */
export const RMA_STAGES = Object.freeze([
  "rmarequested",
  "shipping",
  "rmacompleted",
  "rmadeclined",
] as const);
export type RmaStage = (typeof RMA_STAGES)[number];

/** RMA line approval: null pending, true approved, false declined. */
export type RmaLineApproval = boolean | null;
export function rmaLineApprovalLabel(
  approved: RmaLineApproval,
): "pending" | "approved" | "declined" {
  return approved === null ? "pending" : approved ? "approved" : "declined";
}

/** Shipment statuses of our carrier model (pickup_scheduled -> in_route -> delivered; or cancelled). */
export const SHIPMENT_STATUSES = Object.freeze([
  "pickup_scheduled",
  "in_route",
  "delivered",
  "cancelled",
] as const);
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const SHIPMENT_STATUS_DISPLAY: Readonly<Record<ShipmentStatus, DisplayStatus>> =
  Object.freeze({
    pickup_scheduled: DISPLAY_STATUS.PICKUP_SCHEDULED,
    in_route: DISPLAY_STATUS.IN_ROUTE,
    delivered: DISPLAY_STATUS.DELIVERED,
    cancelled: DISPLAY_STATUS.CANCELLED,
  });

/** Rating stars (1 to 5, step 1). */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export function isValidRating(value: unknown): value is number {
  return (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value >= RATING_MIN &&
    value <= RATING_MAX
  );
}

/**
 * Whose move an RMA waits for in a stage (its orders.action_needed): staff decide a request; in shipping, the
 * RMA's provider (the victim, who sends the goods back). Nobody's once it has ended.
 */
export function rmaActionNeeded(stage: string): "staff" | "provider" | null {
  return stage === "rmarequested" ? "staff" : stage === "shipping" ? "provider" : null;
}

/** Display status of each RMA stage (the stage names are the product's; the texts are ours). */
export const RMA_DISPLAY_STATUS: Readonly<Record<string, string>> = Object.freeze({
  rmarequested: "RMA Requested",
  shipping: "Return Shipping",
  rmacompleted: "RMA Completed",
  rmadeclined: "RMA Declined",
  rmacancelled: "RMA Cancelled",
});

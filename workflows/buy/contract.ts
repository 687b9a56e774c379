/**
 * The buy (purchase) workflow's contract: the deterministic workflow id of an order, the hand-over from
 * checkout, the workflow's input, and its messages (retailer commands are UPDATES, carrier and payment
 * webhooks are SIGNALS, the order's view is a QUERY), their payloads, results and error codes.
 * Checkout (db/queries/checkout.ts proceedFromCart) makes one draft order per seller and stores
 * `buyWorkflowId(orderId)` in orders.workflow_id; the buy workflow is started with that id (one run per
 * order: a second start for the same order is rejected and attaches to the first).
 *
 * No Temporal runtime imports, no I/O: the web bundle and db callers may import it. Message definitions are
 * the plain objects `defineUpdate` / `defineSignal` / `defineQuery` of @temporalio/workflow return
 * (`{ type, name }`), typed with @temporalio/common's definitions, so pages get typed
 * `handle.executeUpdate(approveSale, { args: [...] })` without pulling workflow code into their bundle.
 * See docs/decisions/0009-buy-workflow.md.
 */
import { commandErrorIn, query, signal, update } from "../common/messages";
import type {
  PaymentMethodInput,
  StaffBookPickupCommand,
  StoreApprovalRequest,
  StoreDecisionCommand,
} from "../common/contract";
import type { PurchaseQuote } from "../../domain/fees";
import {
  CANCEL_REASON_REQUIRED,
  CARD_DECLINED,
  DECLINE_REASON_REQUIRED,
  RATING_SAVED,
  TOTAL_TOO_HIGH,
  UPDATE_YOUR_LISTINGS,
} from "../../domain/messages";
import type { ModifiedLineInput, OrderLedger, OrderLine } from "../../domain/order-money";
import type { Role } from "../../domain/states";

/** One buy workflow per order. */
export function buyWorkflowId(orderId: number): string {
  if (!Number.isSafeInteger(orderId) || orderId <= 0)
    throw new RangeError(`order id must be a positive integer, got ${String(orderId)}`);
  return `buy-order:${orderId}`;
}

import type { BuyDraftHandOver } from "../../domain/cart";
import { TEAM_MSG } from "../../domain/teams";
export type { BuyDraftHandOver };
/** What every kind shares (the carrier's event, a card), re-exported for the purchase's callers. */
export {
  carrierEventSignal,
  type CarrierEventSignal,
  type CarrierStatus,
  type PaymentMethodInput,
} from "../common/contract";

// ---------------------------------------------------------------------------------------------------------
// Starting the workflow.

/** The workflow's type name: routes start it by this name (type-only import of the function). */
export const BUY_WORKFLOW_TYPE = "buyOrderWorkflow";

/**
 * from_listing: the buyer checks out first (card pre-authorised), then the seller answers.
 * for_request: the seller's offer to a request (action 223) counts as the seller's approval; the requestor
 * completes checkout (authorise + capture + pickup) or declines it.
 */
export type BuyOrderKind = "from_listing" | "for_request" | "from_offer";

/**
 * from_offer (docs/product/offers.md; ADR 0056): an accepted offer. The acceptance is the seller's approval and
 * the offer's hold the authorisation: the order opens by capturing against it and runs as any approved purchase.
 */
export interface OfferHoldHandOver {
  offerId: number;
  /** The provider's reference of the offer's authorisation. */
  paymentIntentId: string;
  amountCents: number;
  /** ISO instant the hold was taken (the provider's 7 days count from it). */
  heldAt: string;
}

export interface BuyOrderInput {
  orderId: number;
  externalId: string;
  kind: BuyOrderKind;
  /** The seller. */
  providerId: number;
  /** The buyer (for a request: the requestor). */
  receiverId: number;
  requestId?: number | null;
  /** The requested units with their unit prices; the workflow prices them with domain/order-money. */
  lines: OrderLine[];
  /**
   * The amounts the buyer was shown at checkout (domain/fees purchaseQuote). When given, the workflow checks
   * that its own quote of `lines` is the same before any money moves, and fails (BuyInvalidInput) if not.
   */
  expectedQuote?: {
    goodsCents: number;
    feeCents: number;
    shippingCents: number;
    totalCents: number;
  };
  /** An accepted offer's hold (kind from_offer only). */
  offerHold?: OfferHoldHandOver | null;
  /** Selling to a request: the sell dialog's answers (staff see floor_time). */
  sellInfo?: { reason: string; floorTime: string } | null;
  /** Marketplace time zone for business days (MARKETPLACE_TZ); default America/New_York. */
  timeZone?: string;
  /** Holidays (YYYY-MM-DD) skipped by business days; default domain's US_FEDERAL_HOLIDAYS. */
  holidays?: string[];
}

/** The workflow input from checkout's hand-over; the caller adds the unit prices it priced the lines with. */
export function buyOrderInputFromDraft(
  draft: Omit<BuyDraftHandOver, "units"> & {
    units: (BuyDraftHandOver["units"][number] & { unitPriceCents: number })[];
  },
  extra: { sellInfo?: { reason: string; floorTime: string } | null; timeZone?: string } = {},
): BuyOrderInput {
  return {
    orderId: draft.orderId,
    externalId: draft.externalId,
    kind: draft.requestId ? "for_request" : "from_listing",
    providerId: draft.providerId,
    receiverId: draft.receiverId,
    requestId: draft.requestId,
    lines: draft.units.map((u) => ({
      listingId: u.listingId,
      variationId: u.variationId,
      sizes: u.sizes,
      unitPriceCents: u.unitPriceCents,
    })),
    expectedQuote: {
      goodsCents: draft.goodsCents,
      feeCents: draft.feeCents,
      shippingCents: draft.shippingCents,
      totalCents: draft.totalCents,
    },
    sellInfo: extra.sellInfo ?? null,
    timeZone: extra.timeZone,
  };
}

export interface BuyOrderResult {
  statename: string;
  displayStatus: string;
  ledger: OrderLedger;
}

/** ApplicationFailure type when the input is not valid (non-retryable; nothing was charged). */
export const BUY_INVALID_INPUT = "BuyInvalidInput";

// ---------------------------------------------------------------------------------------------------------
// Idempotency (workflows/common/contract.ts idempotencyKey: workflow id + step + attempt).

/** Steps that call out; part of every idempotency key and e-mail dedupe key. */
export const BUY_STEPS = {
  authorize: "authorize",
  capture: "capture",
  releaseAuthorization: "release-authorization",
  refund: "refund",
  penalty: "penalty",
  payout: "payout",
  saveCard: "save-card",
  decrementStock: "decrement-stock",
  restoreStock: "restore-stock",
  bookPickup: "book-pickup",
  cancelPickup: "cancel-pickup",
  rating: "rating",
} as const;
export type BuyStep = (typeof BUY_STEPS)[keyof typeof BUY_STEPS];

// ---------------------------------------------------------------------------------------------------------
// Payloads.

export interface CompleteCheckoutCommand {
  actorRetailerId: number;
  paymentMethod: PaymentMethodInput;
  /**
   * Set when the person checking out is over its limit (domain/teams storeApprovalNeed): after the
   * pre-authorisation the order waits in store_approve_purchase for an approver of the buyer's store. Only a
   * purchase from a listing waits; absent on orders checked out before limits existed.
   */
  storeApproval?: StoreApprovalRequest | null;
}
export type { StoreApprovalRequest, StoreDecisionCommand };
export interface DeclineCheckoutCommand {
  actorRetailerId: number;
  /** Buyer decline reasons 0, 1, 2 (domain/reasons BUYER_DECLINE_REASONS). */
  reason: number;
}
export interface ApproveSaleCommand {
  actorRetailerId: number;
  /** Set when the seller confirmed that other pending orders for the same units will be declined. */
  confirmDeclineOthers?: boolean;
}
export interface AddPaymentMethodCommand {
  actorRetailerId: number;
  paymentMethod: PaymentMethodInput;
  confirmDeclineOthers?: boolean;
}
export interface ModifySaleCommand {
  actorRetailerId: number;
  /** The units the seller approves, per requested line (a line left out is removed). */
  lines: ModifiedLineInput[];
  confirmDeclineOthers?: boolean;
}
export interface DeclineSaleCommand {
  actorRetailerId: number;
  /** provider_decline_buy_reason (domain/reasons SELLER_DECLINE_REASONS). */
  reason: number;
}
export interface ApproveModifiedPurchaseCommand {
  actorRetailerId: number;
}
export interface DeclineModifiedPurchaseCommand {
  actorRetailerId: number;
  /** 0, 1, 2 or 30; default 30. */
  reason?: number;
}
export interface CancelShipmentCommand {
  actorRetailerId: number;
  /** provider_cancel_shipment_reason (domain/reasons CANCEL_SHIPMENT_REASONS). */
  reason: number;
}
/** Staff: book the parcel's pickup again (workflows/common/contract.ts). */
export type { StaffBookPickupCommand };
export interface ConfirmReceivedCommand {
  actorRetailerId: number;
}
export interface RateOrderCommand {
  actorRetailerId: number;
  /** Four criteria, 1 to 5 stars each (domain/messages RATING_CATEGORIES). */
  stars: { condition: number; packaging: number; timeliness: number; overall: number };
  comments?: string;
}

export interface PaymentEventSignal {
  /** The provider's event id (deduplicated). */
  eventId: string;
  /** Provider event type, e.g. "payment_intent.succeeded", "charge.refunded", "transfer.created". */
  type: string;
  /** The provider object the event is about (intent, refund, transfer id). */
  paymentRef?: string;
  occurredAt?: string;
}

/** Sent by the workflow of an approved order to the other pending orders whose units it took. */
export interface UnitsTakenSignal {
  byOrderId: number;
}

// ---------------------------------------------------------------------------------------------------------
// Results and errors.

export type BuyCommandStatus = "ok" | "need_payment_method" | "need_confirm_decline_others";

export interface BuyCommandResult {
  /**
   * ok: done. need_payment_method: the seller has no card on file; the order waits in `payment` until
   * addPaymentMethod (which then continues the approval). need_confirm_decline_others: approving takes units
   * other pending orders asked for (conflictingOrderIds); resend with confirmDeclineOthers.
   */
  status: BuyCommandStatus;
  statename: string;
  displayStatus: string;
  /** Text to show (verbatim where the specification quotes one). */
  message?: string;
  /** Where the page goes next (after approval: /orders; unit-unavailable decline: /active/listings; rating: /). */
  redirectTo?: string;
  conflictingOrderIds?: number[];
}

export const BUY_REDIRECTS = Object.freeze({
  orders: "/orders",
  activeListings: "/active/listings",
  home: "/",
});

/**
 * Where "/orders" (the workflow's "go to your orders" after an approval) takes this party: the buyer to its
 * Purchase Orders tab; the seller to /orders, whose first tab is its Sales Orders (sale approval → /orders:
 * docs/product/orders.md, "Purchase from a listing"). Any other path is kept.
 */
export function ordersTabFor(role: "provider" | "receiver" | null, redirectTo: string): string {
  return redirectTo === BUY_REDIRECTS.orders && role === "receiver"
    ? "/orders/purchases"
    : redirectTo;
}

/**
 * Error codes of rejected commands: thrown as ApplicationFailure(type = code, message) by the update's
 * validator (wrong party, wrong state, bad input) or handler (card declined, units gone). The client sees
 * WorkflowUpdateFailedError whose cause carries them; `buyCommandError(err)` reads them. A command sent to an
 * order whose workflow has finished gets the client's WorkflowNotFoundError, read as wrong_state.
 */
export const BUY_ERRORS = Object.freeze({
  wrong_party: "Only the other retailer of this order can do that.",
  wrong_state:
    "This order has moved on since you opened it. Refresh the page to see where it stands.",
  total_too_high: TOTAL_TOO_HIGH,
  no_units: "To remove every item, decline the sale instead.",
  unchanged: "You have not changed anything. Press Approve Sale to approve the order as requested.",
  invalid_units: "Choose units of this order only, in whole numbers.",
  card_declined: CARD_DECLINED,
  card_required: "Please enter a card to continue.",
  decline_reason_required: DECLINE_REASON_REQUIRED,
  cancel_reason_required: CANCEL_REASON_REQUIRED,
  units_unavailable:
    "These units are no longer available: another order took them. Please decline this order and update your listings.",
  payment_failed: "We could not collect the payment right now. Please try again in a few minutes.",
  rating_invalid: "Please rate every criterion with 1 to 5 stars.",
  rating_closed: "The time to rate this order has passed.",
  already_rated: "You have already rated this order.",
  own_order: TEAM_MSG.ownOrder,
  bad_request: "This request could not be read. Refresh the page and try again.",
} as const);
export type BuyErrorCode = keyof typeof BUY_ERRORS;

/** Ours: the seller-side and buyer-side texts of wrong_party. */
export const WRONG_PARTY_MESSAGES = Object.freeze({
  provider: "Only the selling retailer can answer this order.",
  receiver: "Only the buying retailer can answer this order.",
});

/**
 * The code and message of a rejected command, from what the Temporal client threw (WorkflowUpdateFailedError
 * -> cause ApplicationFailure { type, message }), or null for anything else (a real server error).
 */
export function buyCommandError(err: unknown): { code: BuyErrorCode; message: string } | null {
  // A finished order's workflow (declined, expired, cancelled, completed) has nothing left to answer: wrong_state.
  return commandErrorIn(err, BUY_ERRORS);
}

export const BUY_MESSAGES = Object.freeze({
  ratingSaved: RATING_SAVED,
  updateYourListings: UPDATE_YOUR_LISTINGS,
});

// ---------------------------------------------------------------------------------------------------------
// The view (query).

export type BuyAction =
  | "completeCheckout"
  | "storeApprovePurchase"
  | "storeDeclinePurchase"
  | "declineCheckout"
  | "approveSale"
  | "addPaymentMethod"
  | "modifySale"
  | "declineSale"
  | "approveModifiedPurchase"
  | "declineModifiedPurchase"
  | "cancelShipment"
  | "confirmReceived"
  | "rateOrder"
  | "requestRma";

export interface BuyActionRecord {
  code: number;
  role: Role | "system" | "carrier";
  participantId: number | null;
  statename: string;
  at: string;
}

export interface BuyOrderView {
  orderId: number;
  externalId: string;
  workflowId: string;
  kind: BuyOrderKind;
  providerId: number;
  receiverId: number;
  requestId: number | null;
  statename: string;
  displayStatus: string;
  stage: string;
  /** null awaiting a response, false declined/expired/cancelled, true completed. */
  completed: boolean | null;
  /** Whose move it is. */
  actionNeeded: Role | null;
  allowedActions: { provider: BuyAction[]; receiver: BuyAction[] };
  isModified: boolean;
  lines: OrderLine[];
  /** A seller's modification waiting for the buyer. */
  pendingLines: OrderLine[] | null;
  /** The lines that were captured. */
  approvedLines: OrderLine[] | null;
  amounts: {
    requested: PurchaseQuote;
    pending: PurchaseQuote | null;
    approved: PurchaseQuote | null;
    authorizedCents: number;
    capturedCents: number;
    refundedCents: number;
    payoutCents: number;
    penaltyCents: number;
  };
  ledger: OrderLedger;
  /** ISO instants; null when not running. */
  deadlines: {
    checkoutBy: string | null;
    /** Absent on orders recorded before store approvals. */
    storeApprovalBy?: string | null;
    sellerResponseBy: string | null;
    modifiedResponseBy: string | null;
    pickupBy: string | null;
    ratingBy: string | null;
    rmaBy: string | null;
  };
  actions: BuyActionRecord[];
  /** provider_decline_buy_reason, receiver_decline_checkout_reason, receiver_decline_modified_purchase_reason, provider_cancel_shipment_reason, system_reason. */
  reasons: Record<string, number>;
  paymentMethod: { lastFour: string; description: string } | null;
  authorizeAttempts: number;
  shipment: {
    shipmentId: string;
    callTag: string;
    trackingNumber: string;
    labelUrl: string | null;
    attempt: number;
  } | null;
  /** When the order was approved (captured) and when the current pickup window started (approval or reschedule). */
  approvedAt: string | null;
  pickupWindowStartedAt: string | null;
  payoutReleasedAt: string | null;
  deliveredAt: string | null;
  receivedConfirmed: boolean;
  rating: {
    condition: number;
    packaging: number;
    timeliness: number;
    overall: number;
    comments: string;
  } | null;
  rmaOpen: boolean;
  /** A step is running its activities (a command sent now waits for it); pages may show "updating...". */
  busy: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Message definitions (what defineUpdate / defineSignal / defineQuery return).

/** Buyer: complete checkout with a card (pre-authorise; for a request order also capture and book pickup). */
export const completeCheckoutUpdate = update<BuyCommandResult, [CompleteCheckoutCommand]>(
  "completeCheckout",
);
/** The buyer's store: approve a purchase over the placer's limit (then the seller answers). */
export const storeApprovePurchaseUpdate = update<BuyCommandResult, [StoreDecisionCommand]>(
  "storeApprovePurchase",
);
/** The buyer's store: decline a purchase over the placer's limit (the authorisation is released). */
export const storeDeclinePurchaseUpdate = update<BuyCommandResult, [StoreDecisionCommand]>(
  "storeDeclinePurchase",
);
/** Requestor: decline an order made for its request (receiver_decline_checkout). */
export const declineCheckoutUpdate = update<BuyCommandResult, [DeclineCheckoutCommand]>(
  "declineCheckout",
);
/** Seller: Approve Sale (may answer need_payment_method or need_confirm_decline_others). */
export const approveSaleUpdate = update<BuyCommandResult, [ApproveSaleCommand]>("approveSale");
/** Seller in `payment`: put a card on file, then the approval (or modification) continues. */
export const addPaymentMethodUpdate = update<BuyCommandResult, [AddPaymentMethodCommand]>(
  "addPaymentMethod",
);
/** Seller: Submit response with fewer units (never more than requested). */
export const modifySaleUpdate = update<BuyCommandResult, [ModifySaleCommand]>("modifySale");
/** Seller: Decline with a reason. */
export const declineSaleUpdate = update<BuyCommandResult, [DeclineSaleCommand]>("declineSale");
/** Buyer: approve the modified purchase (capture now). */
export const approveModifiedPurchaseUpdate = update<
  BuyCommandResult,
  [ApproveModifiedPurchaseCommand]
>("approveModifiedPurchase");
/** Buyer: decline the modified purchase (reasons 0, 1, 2; default 30). */
export const declineModifiedPurchaseUpdate = update<
  BuyCommandResult,
  [DeclineModifiedPurchaseCommand]
>("declineModifiedPurchase");
/** Seller: cancel the shipment with a reason until In-Route / Delivered / Cancelled. */
export const cancelShipmentUpdate = update<BuyCommandResult, [CancelShipmentCommand]>(
  "cancelShipment",
);
/** Staff: book the pickup of a parcel not yet scanned again (action 922; docs/guides/action-codes-and-reasons.md). */
export const staffBookPickupUpdate = update<BuyCommandResult, [StaffBookPickupCommand]>(
  "staffBookPickup",
);
/** Buyer: confirm the received package (action 222). */
export const confirmReceivedUpdate = update<BuyCommandResult, [ConfirmReceivedCommand]>(
  "confirmReceived",
);
/** Buyer: rate within 3 business days of delivery ("Rating saved!"). */
export const rateOrderUpdate = update<BuyCommandResult, [RateOrderCommand]>("rateOrder");

/** Payment provider webhook. */
export const paymentEventSignal = signal<[PaymentEventSignal]>("paymentEvent");
/** Another order of the same seller took these units (need_confirm_decline_others was confirmed). */
export const unitsTakenSignal = signal<[UnitsTakenSignal]>("unitsTaken");

/** The order as the workflow sees it. */
export const orderViewQuery = query<BuyOrderView>("orderView");
/**
 * Whether the "request RMA" button shows: delivered, and within 48 hours of delivery. Pass the caller's time
 * (ISO) to check it against the caller's clock too; without it the workflow's own window timer decides.
 */
export const canRequestRmaQuery = query<boolean, [string?]>("canRequestRma");

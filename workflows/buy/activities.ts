/**
 * The activities the buy workflow (workflows/buy/workflow.ts) calls: the TypeScript interface only, owned by
 * the workflow that calls them. The implementations (read model in Postgres, outbox mail, the payments port's
 * sandbox / Stripe adapters, the sandbox carrier, stock in db/queries) come with
 * `createBuyActivities(deps): BuyActivities` (activities/buy), spread into activities/index.ts createActivities,
 * which imports this file as `import type`; nothing in workflows/ imports activities/.
 *
 * Rules every implementation keeps:
 * - Amounts arrive computed (domain/order-money); activities never recompute money.
 * - Every call that moves money, stock or a call tag carries `idempotencyKey` (workflow id + step + attempt):
 *   the same key with the same parameters returns the first result; Temporal retries reuse the key.
 * - Expected business outcomes (a declined card, stock that ran out) are RETURNED, not thrown; throw only
 *   for failures a retry may fix. A non-retryable failure uses ApplicationFailure type "IdempotencyConflict"
 *   or "PaymentRejected".
 * - Names are generic (no "buy" prefix) so the swap workflow can reuse them.
 */
import type { OrderLedger, OrderLine } from "../../domain/order-money";
import type { PurchaseQuote } from "../../domain/fees";
import type { Role } from "../../domain/states";
import type { PaymentMethodInput } from "../common/contract";
import type { BuyActionRecord, BuyOrderKind } from "./contract";

// --- read model -----------------------------------------------------------------------------------------

/** One step of an order, written to orders / order_actions / order_contributions (pages read these). */
export interface OrderStateRecord {
  orderId: number;
  workflowId: string;
  /** Dedupe key of this write: `${workflowId}:record:${sequence}` (a retried activity writes once). */
  dedupeKey: string;
  /**
   * The workflow's count of its read-model writes (1, 2, ...). Two steps' writes can be in flight at once
   * (the opening write and a checkout arriving with the start): the order row keeps the highest sequence,
   * so an earlier step's write that finishes last never overwrites a later state. Absent in histories
   * recorded before it existed: such a write is applied as before.
   */
  sequence?: number;
  kind: BuyOrderKind;
  providerId: number;
  receiverId: number;
  statename: string;
  displayStatus: string;
  stage: string;
  completed: boolean | null;
  actionNeeded: Role | null;
  /** Action codes recorded at this step, in order (order_actions rows). Empty for a silent update. */
  actions: BuyActionRecord[];
  isModified: boolean;
  /** The lines as they stand (approved lines once captured, else the requested lines). */
  lines: OrderLine[];
  /** A modification waiting for the buyer (order_contributions.pending_units), or null. */
  pendingLines: OrderLine[] | null;
  amounts: {
    /** The quote shown (approved once captured, else pending modification, else requested). */
    quote: PurchaseQuote;
    authorizedCents: number;
    capturedCents: number;
  };
  ledger: OrderLedger;
  reasons: Record<string, number>;
  deadlines: Record<string, string | null>;
  floorTime?: string | null;
  /** Who of the buyer's store approved it over the placer's limit (absent when nobody had to). */
  approvedByUserId?: number | null;
  paymentMethod?: { lastFour: string; description: string } | null;
  rating?: {
    condition: number;
    packaging: number;
    timeliness: number;
    overall: number;
    comments: string;
  } | null;
  /** The step's notices: their outbox rows are written in the same transaction as the state. */
  notices?: OrderNotice[];
}

/** E-mail templates of order notices (outbox when no SMTP). Texts are anonymous (retailer-00{id}). */
export type OrderNoticeTemplate =
  | "checkout_needed"
  | "store_approval_needed"
  | "store_approval_expired"
  | "approve_sale_needed"
  | "payment_method_needed"
  | "modified_purchase_needed"
  | "ready_for_pickup"
  | "pickup_rescheduled"
  | "payout_released"
  | "rate_order"
  | "order_declined"
  | "order_expired"
  | "order_cancelled";

export interface OrderNotice {
  orderId: number;
  externalId: string;
  /** Dedupe key: `${workflowId}:mail:${template}:${role}`. */
  dedupeKey: string;
  role: Role;
  retailerId: number;
  /** The other party, for the anonymous label. */
  counterpartyId: number;
  template: OrderNoticeTemplate;
  statename: string;
  displayStatus: string;
  /** ISO deadline the party must act by, when there is one. */
  actBy?: string | null;
}

// --- payments -------------------------------------------------------------------------------------------

export interface AuthorizePaymentInput {
  idempotencyKey: string;
  orderId: number;
  /** The buyer. */
  retailerId: number;
  paymentMethod: PaymentMethodInput;
  amountCents: number;
  description: string;
  /** The payment row's name when not the purchase's (db/queries/payments PAYMENT_NAMES): a swap's say "swap". */
  paymentName?: string;
}
export type AuthorizePaymentResult =
  | {
      status: "authorized";
      paymentIntentId: string;
      amountCents: number;
      lastFour: string;
      description: string;
    }
  | { status: "declined"; declineCode: string; message: string };

export interface CapturePaymentInput {
  idempotencyKey: string;
  orderId: number;
  paymentIntentId: string;
  /** Never more than authorizedCents (domain/order-money captureForLines). */
  amountCents: number;
  authorizedCents: number;
  /** The payment row's name when not the purchase's (db/queries/payments PAYMENT_NAMES): a swap's say "swap". */
  paymentName?: string;
}
export interface CapturePaymentResult {
  status: "captured";
  capturedCents: number;
  chargeId: string;
}

export interface ReleaseAuthorizationInput {
  idempotencyKey: string;
  orderId: number;
  paymentIntentId: string;
  amountCents: number;
  reason: "declined" | "expired" | "cancelled";
  /** The payment row's name when not the purchase's (db/queries/payments PAYMENT_NAMES): a swap's say "swap". */
  paymentName?: string;
}

export interface RefundPaymentInput {
  idempotencyKey: string;
  orderId: number;
  paymentIntentId: string;
  amountCents: number;
  reason: "shipment_cancelled" | "not_picked_up" | "rma";
  /** The payment row's name when not the purchase's (db/queries/payments PAYMENT_NAMES): a swap's say "swap". */
  paymentName?: string;
}
export interface RefundPaymentResult {
  status: "refunded" | "queued";
  refundId: string | null;
}

export interface ChargePenaltyInput {
  idempotencyKey: string;
  orderId: number;
  /** The seller, charged on its card on file. */
  retailerId: number;
  amountCents: number;
  /** What the charge is for (its payment row's name and the provider's description): a missed pickup's penalty (default) or an RMA. */
  purpose?: "penalty" | "rma";
}
export interface ChargePenaltyResult {
  /** queued: recorded but not accepted by the provider yet (no card, or an outage): "payment is queued for processing." */
  status: "charged" | "queued";
  chargeId: string | null;
}

export interface ReleasePayoutInput {
  idempotencyKey: string;
  orderId: number;
  /** The seller (transfer to its connected account). */
  retailerId: number;
  amountCents: number;
  /** The payment row's name when not the purchase's (db/queries/payments PAYMENT_NAMES): a swap's say "swap". */
  paymentName?: string;
}
export interface ReleasePayoutResult {
  status: "paid" | "queued";
  transferId: string | null;
  /** ISO; shown as "Released from escrow" with its date. */
  releasedAt: string;
}

export interface CardOnFile {
  paymentMethodId: string;
  lastFour: string;
  description: string;
}

export interface SaveCardInput {
  idempotencyKey: string;
  retailerId: number;
  paymentMethod: PaymentMethodInput;
}
export type SaveCardResult =
  | { status: "saved"; card: CardOnFile }
  | { status: "declined"; message: string };

export interface PaymentEventRecord {
  orderId: number;
  eventId: string;
  type: string;
  paymentRef?: string;
  occurredAt?: string;
}

// --- stock ----------------------------------------------------------------------------------------------

export interface FindConflictingOrdersInput {
  orderId: number;
  providerId: number;
  /** The lines this order is about to take. */
  lines: OrderLine[];
}
/** Other pending orders of this seller whose requested units could not be served once these lines are taken. */
export interface FindConflictingOrdersResult {
  orderIds: number[];
}

/** What the seller's approval needs to know before it takes stock: one local activity, two reads. */
export interface ApprovalFactsInput {
  orderId: number;
  /** The seller: its card on file, and its other pending orders. */
  providerId: number;
  /** The lines the approval would take. */
  lines: OrderLine[];
}
export interface ApprovalFactsResult {
  /** The seller has a card on file (penalties are charged to it). */
  cardOnFile: boolean;
  /** As findConflictingOrders answers (may include this order; the machine leaves it out). */
  conflictingOrderIds: number[];
}

export interface StockChangeInput {
  idempotencyKey: string;
  orderId: number;
  lines: OrderLine[];
}
/** Atomic: all lines or none; never below zero whatever the concurrency. */
export type DecrementStockResult =
  | { ok: true }
  | { ok: false; listingId: number | null; size: string };

// --- carrier --------------------------------------------------------------------------------------------

export interface BookPickupInput {
  idempotencyKey: string;
  orderId: number;
  externalId: string;
  /** 1 at approval, 2 when rescheduled (ship_order_try2). */
  attempt: number;
  senderId: number;
  receiverId: number;
  units: number;
  /** ISO: the end of the pickup window. */
  pickupBy: string;
}
export interface BookPickupResult {
  shipmentId: string;
  callTag: string;
  trackingNumber: string;
  labelUrl: string | null;
  /** Where the parcel is followed, as the carrier's adapter answered (kept with the shipment). */
  trackingUrl: string | null;
}

export interface CancelPickupInput {
  idempotencyKey: string;
  orderId: number;
  shipmentId: string;
}

// --- ratings --------------------------------------------------------------------------------------------

export interface SaveRatingInput {
  idempotencyKey: string;
  orderId: number;
  raterId: number;
  rateeId: number;
  role: Role;
  stars: { condition: number; packaging: number; timeliness: number; overall: number };
  comments: string;
}

// --------------------------------------------------------------------------------------------------------

/**
 * The provider and stock activities every order kind shares (the payment steps, stock, the carrier): the
 * purchase calls them directly; the swap's and the RMA's own activities (activities/swap, activities/rma)
 * call them with their own rows' names.
 */
export interface OrderProviderActivities {
  // payments
  authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentResult>;
  capturePayment(input: CapturePaymentInput): Promise<CapturePaymentResult>;
  releaseAuthorization(input: ReleaseAuthorizationInput): Promise<void>;
  refundPayment(input: RefundPaymentInput): Promise<RefundPaymentResult>;
  chargeSellerPenalty(input: ChargePenaltyInput): Promise<ChargePenaltyResult>;
  releaseSellerPayout(input: ReleasePayoutInput): Promise<ReleasePayoutResult>;
  // stock
  decrementStock(input: StockChangeInput): Promise<DecrementStockResult>;
  restoreStock(input: StockChangeInput): Promise<void>;
  // carrier
  bookPickup(input: BookPickupInput): Promise<BookPickupResult>;
  cancelPickup(input: CancelPickupInput): Promise<void>;
}

export interface BuyActivities extends OrderProviderActivities {
  // read model, with the outbox rows of the step's notices (one transaction)
  recordOrderState(input: OrderStateRecord): Promise<void>;
  // cards and payment events
  getCardOnFile(input: { retailerId: number }): Promise<CardOnFile | null>;
  saveCardOnFile(input: SaveCardInput): Promise<SaveCardResult>;
  recordPaymentEvent(input: PaymentEventRecord): Promise<void>;
  // stock reads
  findConflictingOrders(input: FindConflictingOrdersInput): Promise<FindConflictingOrdersResult>;
  approvalFacts(input: ApprovalFactsInput): Promise<ApprovalFactsResult>;
  // ratings
  saveOrderRating(input: SaveRatingInput): Promise<void>;
}

export type BuyActivityName = keyof BuyActivities;

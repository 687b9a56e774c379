/**
 * The buy order as plain data, and the rules that only read it: which state allows which command (the
 * validators), whose move it is, which deadline runs, and the view pages read. Pure: no Temporal, no I/O, no
 * clock (time is passed in). The steps that change the model and the effects they need are in machine.ts;
 * the Temporal driver is workflow.ts.
 */
import {
  DEFAULT_MARKETPLACE_TZ,
  US_FEDERAL_HOLIDAYS,
  WINDOWS,
  isWithinRmaWindow,
  toEpochMs,
} from "../../domain/business-days";
import type { PurchaseQuote } from "../../domain/fees";
import {
  checkModification,
  checkOrderLines,
  orderLedger,
  orderQuote,
  type LedgerEntry,
  type ModifiedLineInput,
  type OrderLine,
} from "../../domain/order-money";
import { CANCEL_SHIPMENT_REASONS, isChoice } from "../../domain/reasons";
import {
  BUY_STATES,
  COMMON_STATES,
  actionNeededBy,
  completedFlagFor,
  displayStatusFor,
  stageForState,
  type BuyState,
  type CommonState,
  type Role,
} from "../../domain/states";
import type { CarrierEventSignal } from "../common/contract";
import { MAX_COMMENT_LENGTH, isPaymentMethod, ratingRefusal } from "../common/guards";
import { isScan, takeCarrierEvent } from "../common/parcel";
import { iso, isoDeadlines, type Codes as StepCodes } from "../common/record";
import { InvalidInput, Rejection } from "../common/steps";
import { orderSearchFacts, type OrderSearchFacts } from "../common/search-attributes";
import {
  BUY_ERRORS,
  WRONG_PARTY_MESSAGES,
  type BuyAction,
  type BuyActionRecord,
  type BuyCommandResult,
  type BuyCommandStatus,
  type BuyErrorCode,
  type BuyOrderInput,
  type BuyOrderKind,
  type BuyOrderView,
  type StoreApprovalRequest,
  type PaymentEventSignal,
  type UnitsTakenSignal,
} from "./contract";

export type State = BuyState | CommonState;
export type ActorRole = BuyActionRecord["role"];
/** Action codes a step records, with who did it. */
export type Codes = StepCodes<ActorRole>;

export const NEGOTIATION: readonly State[] = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.STORE_APPROVE_PURCHASE,
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
];
export const SHIPPING: readonly State[] = [BUY_STATES.SHIP_ORDER, BUY_STATES.SHIP_ORDER_TRY2];

export interface Deadlines {
  checkoutBy: number | null;
  /** Only on an order that waited for its store (absent otherwise, so older orders' records are unchanged). */
  storeApprovalBy?: number | null;
  sellerResponseBy: number | null;
  modifiedResponseBy: number | null;
  pickupBy: number | null;
  ratingBy: number | null;
  rmaBy: number | null;
}

export interface Shipment {
  shipmentId: string;
  callTag: string;
  trackingNumber: string;
  labelUrl: string | null;
  attempt: number;
}

/** Everything the workflow knows about one order. Steps change it in place (one model per workflow). */
export interface BuyModel {
  workflowId: string;
  orderId: number;
  externalId: string;
  kind: BuyOrderKind;
  providerId: number;
  receiverId: number;
  requestId: number | null;
  floorTime: string | null;
  timeZone: string;
  holidays: readonly string[];
  requested: OrderLine[];
  requestedQuote: PurchaseQuote;

  statename: State;
  pendingLines: OrderLine[] | null;
  approvedLines: OrderLine[] | null;
  isModified: boolean;
  authorization: { paymentIntentId: string; amountCents: number; at: number } | null;
  authorizationClosed: boolean;
  paymentMethod: { lastFour: string; description: string } | null;
  lastAuthorize: { paymentMethodId: string; outcome: "declined" | "error" } | null;
  /** While in `payment`: what the seller was doing when the card was asked for. */
  pendingCommand: { kind: "approve" } | { kind: "modify"; lines: OrderLine[] } | null;
  attempts: Partial<Record<string, number>>;
  ledger: LedgerEntry[];
  actions: BuyActionRecord[];
  reasons: Record<string, number>;
  deadlines: Deadlines;
  shipment: Shipment | null;
  approvedAt: number | null;
  pickupWindowStartedAt: number | null;
  payoutReleasedAt: string | null;
  deliveredAt: number | null;
  receivedConfirmed: boolean;
  rating: BuyOrderView["rating"];
  rmaOpen: boolean;
  /** Webhook event ids already seen (`carrier:<id>`, `payment:<id>`). */
  seenEvents: Set<string>;
  carrierQueue: CarrierEventSignal[];
  paymentQueue: PaymentEventSignal[];
  unitsTakenBy: number | null;
  /** How many read-model writes the workflow made (orders.record_seq). */
  recordSeq: number;
  /** Checked out over the placer's limit: why, and who placed it (docs/product/teams.md). */
  storeApproval: StoreApprovalRequest | null;
  /** Who of the buyer's store approved it (orders.approved_by_user_id). */
  approvedByUserId: number | null;
}

function isPositiveId(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0;
}

export function reject(code: BuyErrorCode, message: string = BUY_ERRORS[code]): never {
  throw new Rejection(code, message);
}

/** Refuses a bad start (InvalidInput): the parties' ids, the kind and the lines. */
function checkBuyInput(input: BuyOrderInput): void {
  if (!input || typeof input !== "object") throw new InvalidInput("missing input");
  if (
    !isPositiveId(input.orderId) ||
    !isPositiveId(input.providerId) ||
    !isPositiveId(input.receiverId)
  ) {
    throw new InvalidInput("orderId, providerId and receiverId must be positive integers");
  }
  if (input.providerId === input.receiverId)
    throw new InvalidInput("a retailer cannot buy from itself");
  if (input.kind !== "from_listing" && input.kind !== "for_request" && input.kind !== "from_offer")
    throw new InvalidInput(`unknown kind ${String(input.kind)}`);
  const linesCheck = checkOrderLines(input.lines);
  if (!linesCheck.ok) throw new InvalidInput(linesCheck.message);
  if (input.kind === "from_offer") checkOfferHold(input.offerHold, orderQuote(input.lines));
}

/** An accepted offer's hold covers the purchase's quote (docs/product/offers.md, "When it is accepted"). */
function checkOfferHold(hold: BuyOrderInput["offerHold"], quote: PurchaseQuote): void {
  if (!hold || typeof hold.paymentIntentId !== "string" || !hold.paymentIntentId)
    throw new InvalidInput("an order from an offer needs the offer's hold");
  if (!Number.isSafeInteger(hold.amountCents) || hold.amountCents < quote.totalCents)
    throw new InvalidInput(
      `the offer's hold ${hold.amountCents} is below the quote ${quote.totalCents}`,
    );
  if (!Number.isFinite(Date.parse(hold.heldAt)))
    throw new InvalidInput("the hold needs its instant");
}

/** Refuses (InvalidInput) a checkout whose amounts differ from the order's quote. */
function checkExpectedQuote(e: BuyOrderInput["expectedQuote"], q: PurchaseQuote): void {
  if (!e) return;
  if (
    e.goodsCents !== q.goodsCents ||
    e.feeCents !== q.feeCents ||
    e.shippingCents !== q.shippingCents ||
    e.totalCents !== q.totalCents
  ) {
    throw new InvalidInput(
      `the checkout's amounts ${JSON.stringify(e)} differ from the order's quote ${JSON.stringify(q)}`,
    );
  }
}

/** The model of a new order; refuses a bad start (InvalidInput) before anything happens. */
export function createBuyModel(
  input: BuyOrderInput,
  workflowId: string,
  startedAt: number,
): BuyModel {
  checkBuyInput(input);
  const requested: OrderLine[] = input.lines.map((l) => ({ ...l, sizes: { ...l.sizes } }));
  const requestedQuote = orderQuote(requested);
  const hold = input.kind === "from_offer" ? (input.offerHold ?? null) : null;
  checkExpectedQuote(input.expectedQuote, requestedQuote);
  return {
    workflowId,
    orderId: input.orderId,
    externalId: input.externalId ?? String(input.orderId),
    kind: input.kind,
    providerId: input.providerId,
    receiverId: input.receiverId,
    requestId: input.requestId ?? null,
    floorTime: input.sellInfo?.floorTime ?? null,
    timeZone: input.timeZone ?? DEFAULT_MARKETPLACE_TZ,
    holidays: input.holidays ?? US_FEDERAL_HOLIDAYS,
    requested,
    requestedQuote,
    statename: BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    pendingLines: null,
    approvedLines: null,
    isModified: false,
    authorization: hold
      ? {
          paymentIntentId: hold.paymentIntentId,
          amountCents: hold.amountCents,
          at: Date.parse(hold.heldAt),
        }
      : null,
    authorizationClosed: false,
    paymentMethod: null,
    lastAuthorize: null,
    pendingCommand: null,
    attempts: {},
    ledger: input.offerHold
      ? [{ kind: "authorization", amountCents: input.offerHold.amountCents }]
      : [],
    actions: [],
    reasons: {},
    deadlines: {
      checkoutBy:
        input.kind === "from_offer"
          ? null
          : startedAt +
            (input.kind === "for_request" ? WINDOWS.requestCheckout : WINDOWS.checkoutExpiry),
      sellerResponseBy: null,
      modifiedResponseBy: null,
      pickupBy: null,
      ratingBy: null,
      rmaBy: null,
    },
    shipment: null,
    approvedAt: null,
    pickupWindowStartedAt: null,
    payoutReleasedAt: null,
    deliveredAt: null,
    receivedConfirmed: false,
    rating: null,
    rmaOpen: false,
    seenEvents: new Set(),
    carrierQueue: [],
    paymentQueue: [],
    unitsTakenBy: null,
    recordSeq: 0,
    storeApproval: null,
    approvedByUserId: null,
  };
}

// --- derived --------------------------------------------------------------------------------------------

export const partyId = (m: BuyModel, role: Role): number =>
  role === "provider" ? m.providerId : m.receiverId;
export const displayStatus = (m: BuyModel): string => displayStatusFor("buy", m.statename);
export const currentQuote = (m: BuyModel): PurchaseQuote =>
  m.approvedLines
    ? orderQuote(m.approvedLines)
    : m.pendingLines
      ? orderQuote(m.pendingLines)
      : m.requestedQuote;
export const capturedCents = (m: BuyModel): number => orderLedger(m.ledger).buyerPaidCents;

export function actionNeeded(m: BuyModel): Role | null {
  if (m.statename === COMMON_STATES.DELIVERED && m.rating) return null;
  return actionNeededBy("buy", m.statename);
}

/** What the order's search attributes say (workflows/common/search-attributes.ts): the read model's columns. */
export const buySearchFacts = (m: BuyModel): OrderSearchFacts =>
  orderSearchFacts("buy", m, actionNeeded(m));

/** Which deadline each state waits for (docs/product/windows.md); delivered has its own rule. */
const DEADLINE_OF: Partial<Record<State, keyof Deadlines>> = {
  [BUY_STATES.COMPLETE_ORDER_CHECKOUT]: "checkoutBy",
  [BUY_STATES.STORE_APPROVE_PURCHASE]: "storeApprovalBy",
  [BUY_STATES.PROVIDER_APPROVE_SALE]: "sellerResponseBy",
  [BUY_STATES.PAYMENT]: "sellerResponseBy",
  [BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE]: "modifiedResponseBy",
  [BUY_STATES.SHIP_ORDER]: "pickupBy",
  [BUY_STATES.SHIP_ORDER_TRY2]: "pickupBy",
};

/** The deadline the order waits for in its current state (epoch ms), or null. */
export function deadline(m: BuyModel): number | null {
  const d = m.deadlines;
  if (m.statename === COMMON_STATES.DELIVERED) {
    // The RMA window closes at 48 h; the rating window, unless a rating was given.
    if (m.rmaOpen && d.rmaBy !== null)
      return m.rating ? d.rmaBy : Math.min(d.rmaBy, d.ratingBy ?? d.rmaBy);
    return m.rating ? null : d.ratingBy;
  }
  const which = DEADLINE_OF[m.statename];
  return which ? (d[which] ?? null) : null;
}

/** Which commands each party may send now. */
export function allowedActions(
  m: BuyModel,
  now: number,
): { provider: BuyAction[]; receiver: BuyAction[] } {
  const provider: BuyAction[] = [];
  const receiver: BuyAction[] = [];
  switch (m.statename) {
    case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
      if (m.kind !== "from_offer") receiver.push("completeCheckout");
      if (m.kind === "for_request") receiver.push("declineCheckout");
      break;
    case BUY_STATES.STORE_APPROVE_PURCHASE:
      receiver.push("storeApprovePurchase", "storeDeclinePurchase");
      break;
    case BUY_STATES.PROVIDER_APPROVE_SALE:
      provider.push("approveSale", "modifySale", "declineSale");
      break;
    case BUY_STATES.PAYMENT:
      provider.push("addPaymentMethod", "declineSale");
      break;
    case BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE:
      receiver.push("approveModifiedPurchase", "declineModifiedPurchase");
      break;
    case BUY_STATES.SHIP_ORDER:
    case BUY_STATES.SHIP_ORDER_TRY2:
      provider.push("cancelShipment");
      break;
    case COMMON_STATES.DELIVERED:
      if (!m.receivedConfirmed) receiver.push("confirmReceived");
      if (!m.rating && m.deadlines.ratingBy !== null && now < m.deadlines.ratingBy)
        receiver.push("rateOrder");
      if (m.rmaOpen) receiver.push("requestRma");
      break;
  }
  return { provider, receiver };
}

/** The order as pages and tests read it (the workflow's `orderView` query). */
export function buyView(m: BuyModel, now: number, busy: boolean): BuyOrderView {
  const l = orderLedger(m.ledger);
  const d = m.deadlines;
  return {
    orderId: m.orderId,
    externalId: m.externalId,
    workflowId: m.workflowId,
    kind: m.kind,
    providerId: m.providerId,
    receiverId: m.receiverId,
    requestId: m.requestId,
    statename: m.statename,
    displayStatus: displayStatus(m),
    stage: stageForState(m.statename),
    completed: completedFlagFor(m.statename),
    actionNeeded: actionNeeded(m),
    allowedActions: allowedActions(m, now),
    isModified: m.isModified,
    lines: m.requested,
    pendingLines: m.pendingLines,
    approvedLines: m.approvedLines,
    amounts: {
      requested: m.requestedQuote,
      pending: m.pendingLines ? orderQuote(m.pendingLines) : null,
      approved: m.approvedLines ? orderQuote(m.approvedLines) : null,
      authorizedCents: l.authorizedCents,
      capturedCents: l.buyerPaidCents,
      refundedCents: l.buyerRefundedCents,
      payoutCents: l.sellerPaidCents,
      penaltyCents: l.sellerPenaltyCents,
    },
    ledger: l,
    deadlines: isoDeadlines(d),
    actions: [...m.actions],
    reasons: { ...m.reasons },
    paymentMethod: m.paymentMethod,
    authorizeAttempts: m.attempts.authorize ?? 0,
    shipment: m.shipment,
    approvedAt: iso(m.approvedAt),
    pickupWindowStartedAt: iso(m.pickupWindowStartedAt),
    payoutReleasedAt: m.payoutReleasedAt,
    deliveredAt: iso(m.deliveredAt),
    receivedConfirmed: m.receivedConfirmed,
    rating: m.rating,
    rmaOpen: m.rmaOpen,
    busy,
  };
}

export function commandResult(
  m: BuyModel,
  status: BuyCommandStatus = "ok",
  extra: Partial<BuyCommandResult> = {},
): BuyCommandResult {
  return { status, statename: m.statename, displayStatus: displayStatus(m), ...extra };
}

/** Whether the "request RMA" button shows, at the caller's time `at` (ISO) or by the workflow's own timer. */
export function canRequestRma(m: BuyModel, at?: string | null): boolean {
  if (m.statename !== COMMON_STATES.DELIVERED || !m.rmaOpen || m.deliveredAt === null) return false;
  if (at === undefined || at === null) return true;
  try {
    return isWithinRmaWindow(m.deliveredAt, toEpochMs(at));
  } catch {
    return false;
  }
}

// --- validators (the specification's errors; no change to the model) ------------------------------------

export function requireParty(
  m: BuyModel,
  role: Role,
  cmd: { actorRetailerId?: unknown } | undefined,
): void {
  if (!cmd || typeof cmd !== "object" || cmd.actorRetailerId !== partyId(m, role))
    reject("wrong_party", WRONG_PARTY_MESSAGES[role]);
}

export function requireState(m: BuyModel, now: number, ...states: State[]): void {
  if (!states.includes(m.statename)) reject("wrong_state");
  const d = deadline(m);
  // An answer arriving when its window has closed (the timer fires in the same instant) is too late.
  if (NEGOTIATION.includes(m.statename) && d !== null && now >= d) reject("wrong_state");
}

export function requireCard(pm: unknown): void {
  if (!isPaymentMethod(pm)) reject("card_required");
}

/** The seller's modification as order lines, or the specification's error. */
export function modificationOf(m: BuyModel, lines: ModifiedLineInput[] | undefined): OrderLine[] {
  const check = checkModification(m.requested, Array.isArray(lines) ? lines : []);
  if (!check.ok) {
    if (check.code === "total_too_high") reject("total_too_high");
    if (check.code === "no_units") reject("no_units");
    reject("invalid_units");
  }
  if (!check.changed) reject("unchanged");
  return check.lines;
}

export function requireCancelReason(reason: unknown): void {
  if (!isChoice(CANCEL_SHIPMENT_REASONS, reason)) reject("cancel_reason_required");
}

export function requireValidRating(
  m: BuyModel,
  cmd: { stars?: unknown; comments?: unknown },
  now: number,
): void {
  const refusal = ratingRefusal(m.rating !== null, m.deadlines.ratingBy, cmd.stars, now);
  if (refusal) reject(refusal);
  if (
    cmd.comments !== undefined &&
    (typeof cmd.comments !== "string" || cmd.comments.length > MAX_COMMENT_LENGTH)
  )
    reject("rating_invalid");
}

// --- webhook and internal signals (queued; the steps that handle them are in machine.ts) ---------------

/** Queues a carrier event (workflows/common/parcel.ts): a purchase has one parcel, so every event is its. */
export function acceptCarrierEvent(m: BuyModel, ev: CarrierEventSignal | undefined): boolean {
  return takeCarrierEvent(m, ev, () => true);
}

/** A scan already reported (not yet processed) means the goods are In-Route. */
export const scanQueued = (m: BuyModel): boolean => m.carrierQueue.some((e) => isScan(e.status));

export function acceptPaymentEvent(m: BuyModel, ev: PaymentEventSignal | undefined): boolean {
  if (!ev || typeof ev.eventId !== "string" || m.seenEvents.has(`payment:${ev.eventId}`))
    return false;
  m.seenEvents.add(`payment:${ev.eventId}`);
  m.paymentQueue.push(ev);
  return true;
}

/** Another order of the seller took these units: only an order still negotiating declines. */
export function acceptUnitsTaken(m: BuyModel, s: UnitsTakenSignal | undefined): boolean {
  if (!s || !isPositiveId(s.byOrderId) || s.byOrderId === m.orderId) return false;
  if (!NEGOTIATION.includes(m.statename)) return false;
  m.unitsTakenBy = s.byOrderId;
  return true;
}

/** Action records of a step, stamped with the state they leave the order in. */
export function actionRecords(m: BuyModel, codes: Codes, at: string): BuyActionRecord[] {
  return codes.map(([code, role]) => ({
    code,
    role,
    participantId: role === "provider" ? m.providerId : role === "receiver" ? m.receiverId : null,
    statename: m.statename,
    at,
  }));
}

/**
 * The buy (purchase / sale) workflow: one run per order (id buyWorkflowId(orderId)), a deterministic state
 * machine whose state names, display statuses and action codes are domain/'s (ADR 0002, ADR 0009).
 *
 *   from_listing:  complete_order_checkout --completeCheckout (authorise)--> provider_approve_sale
 *   for_request:   (223) complete_order_checkout --completeCheckout (authorise + capture)--> ship_order
 *   provider_approve_sale --approveSale--> [payment --addPaymentMethod-->] ship_order (capture, stock, call tag)
 *                         --modifySale--> receiver_approve_modified_purchase --approve--> ship_order | --decline--> declined
 *                         --declineSale--> declined
 *   ship_order --2 business days--> ship_order_try2 (921) --2 business days--> cancelled (117, refund, penalty)
 *   ship_order(_try2) --carrier scan--> in_route (110, payout 816) --delivered--> delivered (119)
 *   delivered: rating within 3 business days, RMA button within 48 h; completed (390) when both windows close.
 *   Timers: checkout 24 h (301) / 3 days for a request (304); seller 5 days (302); modified purchase 1 day,
 *   never past the authorisation (303).
 *
 * Retailer commands are updates (validators reject with the specification's errors), webhooks are signals
 * (deduplicated by event id), `orderView` is the query pages and tests read. Handlers only change state
 * inside `exclusive`, so a command, a timer and a webhook never interleave their activity calls; the main
 * loop waits for a running command before it acts on a deadline.
 *
 * Deterministic: imports only @temporalio/workflow, domain/, the contract and activity types.
 */
import {
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from "@temporalio/workflow";
import type { UpdateDefinition } from "@temporalio/common";
import type { BuyActivities, OrderNotice, OrderNoticeTemplate } from "../../activities/buy/types";
import { ACTION } from "../../domain/action-codes";
import {
  DEFAULT_MARKETPLACE_TZ,
  US_FEDERAL_HOLIDAYS,
  WINDOWS,
  isWithinRmaWindow,
  modifiedPurchaseDeadline,
  pickupDeadline,
  ratingDeadline,
  toEpochMs,
} from "../../domain/business-days";
import {
  cancellationForLines,
  captureEntry,
  checkModification,
  checkOrderLines,
  orderLedger,
  orderQuote,
  orderUnits,
  payoutForLines,
  type LedgerEntry,
  type ModifiedLineInput,
  type OrderLine,
} from "../../domain/order-money";
import {
  BUYER_DECLINE_DEFAULT_REASON,
  BUYER_DECLINE_REASONS,
  CANCEL_SHIPMENT_REASONS,
  DECLINE_OTHERS_REASON,
  SELLER_DECLINE_REASONS,
  SYSTEM_REASON,
  isChoice,
  isUnitUnavailableReason,
} from "../../domain/reasons";
import {
  BUY_STATES,
  COMMON_STATES,
  actionNeededBy,
  completedFlagFor,
  displayStatusFor,
  isTerminalState,
  isValidRating,
  stageForState,
  type BuyState,
  type CommonState,
  type Role,
} from "../../domain/states";
import {
  BUY_ERRORS,
  BUY_INVALID_INPUT,
  BUY_MESSAGES,
  BUY_REDIRECTS,
  BUY_STEPS,
  CARRIER_STATUSES,
  WRONG_PARTY_MESSAGES,
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  buyIdempotencyKey,
  buyWorkflowId,
  canRequestRmaQuery,
  cancelShipmentUpdate,
  carrierEventSignal,
  completeCheckoutUpdate,
  confirmReceivedUpdate,
  declineCheckoutUpdate,
  declineModifiedPurchaseUpdate,
  declineSaleUpdate,
  modifySaleUpdate,
  orderViewQuery,
  paymentEventSignal,
  rateOrderUpdate,
  unitsTakenSignal,
  type BuyAction,
  type BuyActionRecord,
  type BuyCommandResult,
  type BuyCommandStatus,
  type BuyErrorCode,
  type BuyOrderInput,
  type BuyOrderResult,
  type BuyOrderView,
  type BuyStep,
  type CarrierEventSignal,
  type PaymentEventSignal,
  type PaymentMethodInput,
} from "./contract";

type State = BuyState | CommonState;
type ActorRole = BuyActionRecord["role"];

/**
 * Every buy activity heartbeats while it runs longer than a few seconds (activities/buy/index.ts keepAlive,
 * every 3 s), so an activity whose worker died (killed, OOM, host lost) times out after this and is retried
 * on another worker within seconds, instead of after its whole startToCloseTimeout (30–60 s, kept as the
 * bound for a live but hung call). Retries reuse the idempotency key: nothing is charged twice
 * (tests/e2e/reliability.test.ts kills the worker mid-payment on the real dev server).
 */
const HEARTBEAT_TIMEOUT = "10s";

/**
 * The step's database work (read model with its action rows and the outbox rows of its notices, stock,
 * conflicts, ratings, the card-on-file lookup): LOCAL activities, run by the worker inside the workflow task
 * and recorded with it, so a step costs no server round trip per write (ADR 0012). Each is one transaction
 * and idempotent (dedupe keys, idempotency keys), so a rerun after a worker dies (the workflow task times
 * out and another worker replays it) changes nothing twice. Retried until they succeed: an outage delays,
 * never loses, a step.
 */
const store = proxyLocalActivities<BuyActivities>({
  startToCloseTimeout: "30s",
  retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", nonRetryableErrorTypes: ["IdempotencyConflict"] },
});

/** The carrier (pickups, call tags): a regular activity with its idempotency key, retried until it succeeds. */
const carrierOps = proxyActivities<BuyActivities>({
  startToCloseTimeout: "30s",
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: "1s", backoffCoefficient: 2, maximumInterval: "30s", nonRetryableErrorTypes: ["IdempotencyConflict"] },
});

/** Payments a retailer waits for (authorise, capture, save a card): a few tries, then the command fails. */
const payNow = proxyActivities<BuyActivities>({
  startToCloseTimeout: "60s",
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: {
    initialInterval: "2s",
    backoffCoefficient: 2,
    maximumInterval: "20s",
    maximumAttempts: 5,
    nonRetryableErrorTypes: ["IdempotencyConflict", "PaymentRejected"],
  },
});

/** Payments that must happen (releases, refunds, penalties, payouts): retried until the provider accepts. */
const payEventually = proxyActivities<BuyActivities>({
  startToCloseTimeout: "60s",
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: "2s", backoffCoefficient: 2, maximumInterval: "5m", nonRetryableErrorTypes: ["IdempotencyConflict"] },
});

/** A notice a step sends: to whom, which template, and the deadline it names. */
type Notice = [Role, OrderNoticeTemplate, (number | null)?];

const NEGOTIATION: readonly State[] = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
];
const SHIPPING: readonly State[] = [BUY_STATES.SHIP_ORDER, BUY_STATES.SHIP_ORDER_TRY2];
const SCANNED = new Set(["picked_up", "in_transit", "out_for_delivery", "delivered"]);
const MAX_COMMENT_LENGTH = 2000;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function reject(code: BuyErrorCode, message: string = BUY_ERRORS[code]): never {
  throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

function invalidInput(message: string): never {
  throw ApplicationFailure.create({ type: BUY_INVALID_INPUT, message, nonRetryable: true });
}

function isPositiveId(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0;
}

function isPaymentMethod(pm: unknown): pm is PaymentMethodInput {
  const p = pm as PaymentMethodInput | null;
  return !!p && typeof p === "object" && typeof p.paymentMethodId === "string" && p.paymentMethodId.length > 0 && typeof p.lastFour === "string";
}

export async function buyOrderWorkflow(input: BuyOrderInput): Promise<BuyOrderResult> {
  const { workflowId } = workflowInfo();

  // --- input (checked before anything happens; a bad start fails without touching money) -------------------
  if (!input || typeof input !== "object") invalidInput("missing input");
  if (!isPositiveId(input.orderId) || !isPositiveId(input.providerId) || !isPositiveId(input.receiverId)) {
    invalidInput("orderId, providerId and receiverId must be positive integers");
  }
  if (input.providerId === input.receiverId) invalidInput("a retailer cannot buy from itself");
  if (input.kind !== "from_listing" && input.kind !== "for_request") invalidInput(`unknown kind ${String(input.kind)}`);
  const linesCheck = checkOrderLines(input.lines);
  if (!linesCheck.ok) invalidInput(linesCheck.message);
  const requested: OrderLine[] = input.lines.map((l) => ({ ...l, sizes: { ...l.sizes } }));
  const requestedQuote = orderQuote(requested);
  if (input.expectedQuote) {
    const e = input.expectedQuote;
    const q = requestedQuote;
    if (e.goodsCents !== q.goodsCents || e.feeCents !== q.feeCents || e.shippingCents !== q.shippingCents || e.totalCents !== q.totalCents) {
      invalidInput(`the checkout's amounts ${JSON.stringify(e)} differ from the order's quote ${JSON.stringify(q)}`);
    }
  }

  const { orderId, providerId, receiverId, kind } = input;
  const externalId = input.externalId ?? String(orderId);
  const tz = input.timeZone ?? DEFAULT_MARKETPLACE_TZ;
  const holidays = input.holidays ?? US_FEDERAL_HOLIDAYS;
  const startedAt = Date.now();

  // --- state ------------------------------------------------------------------------------------------------
  let statename = BUY_STATES.COMPLETE_ORDER_CHECKOUT as State;
  /** A command, timer outcome or webhook is running its activities. */
  let busy = false;
  /** Bumped whenever something the main loop may act on changes. */
  let version = 0;
  let pendingLines: OrderLine[] | null = null;
  let approvedLines: OrderLine[] | null = null;
  let isModified = false;
  let authorization: { paymentIntentId: string; amountCents: number; at: number } | null = null;
  let authorizationClosed = false;
  let paymentMethod: { lastFour: string; description: string } | null = null;
  let lastAuthorize: { paymentMethodId: string; outcome: "declined" | "error" } | null = null;
  /** While in `payment`: what the seller was doing when the card was asked for. */
  let pendingCommand: { kind: "approve" } | { kind: "modify"; lines: OrderLine[] } | null = null;
  const attempts: Partial<Record<BuyStep, number>> = {};
  const ledger: LedgerEntry[] = [];
  const actions: BuyActionRecord[] = [];
  const reasons: Record<string, number> = {};
  const deadlines = {
    checkoutBy: (startedAt + (kind === "for_request" ? WINDOWS.requestCheckout : WINDOWS.checkoutExpiry)) as number | null,
    sellerResponseBy: null as number | null,
    modifiedResponseBy: null as number | null,
    pickupBy: null as number | null,
    ratingBy: null as number | null,
    rmaBy: null as number | null,
  };
  let shipment: { shipmentId: string; callTag: string; trackingNumber: string; labelUrl: string | null; attempt: number } | null = null;
  let approvedAt: number | null = null;
  let pickupWindowStartedAt: number | null = null;
  let payoutReleasedAt: string | null = null;
  let deliveredAt: number | null = null;
  let receivedConfirmed = false;
  let rating: BuyOrderView["rating"] = null;
  let rmaOpen = false;
  const seenEvents = new Set<string>();
  const carrierQueue: CarrierEventSignal[] = [];
  const paymentQueue: PaymentEventSignal[] = [];
  let unitsTakenBy: number | null = null;
  let recordSeq = 0;

  // --- derived ----------------------------------------------------------------------------------------------
  const partyId = (role: Role) => (role === "provider" ? providerId : receiverId);
  const displayStatus = () => displayStatusFor("buy", statename);
  const currentQuote = () => (approvedLines ? orderQuote(approvedLines) : pendingLines ? orderQuote(pendingLines) : requestedQuote);
  const capturedCents = () => orderLedger(ledger).buyerPaidCents;

  function actionNeeded(): Role | null {
    if (statename === COMMON_STATES.DELIVERED && rating) return null;
    return actionNeededBy("buy", statename);
  }

  /** The deadline the main loop waits for in the current state (epoch ms), or null. */
  function currentDeadline(): number | null {
    switch (statename) {
      case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
        return deadlines.checkoutBy;
      case BUY_STATES.PROVIDER_APPROVE_SALE:
      case BUY_STATES.PAYMENT:
        return deadlines.sellerResponseBy;
      case BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE:
        return deadlines.modifiedResponseBy;
      case BUY_STATES.SHIP_ORDER:
      case BUY_STATES.SHIP_ORDER_TRY2:
        return deadlines.pickupBy;
      case COMMON_STATES.DELIVERED:
        if (rmaOpen && deadlines.rmaBy !== null) return rating ? deadlines.rmaBy : Math.min(deadlines.rmaBy, deadlines.ratingBy ?? deadlines.rmaBy);
        return rating ? null : deadlines.ratingBy;
      default:
        return null;
    }
  }

  function allowedActions(): { provider: BuyAction[]; receiver: BuyAction[] } {
    const provider: BuyAction[] = [];
    const receiver: BuyAction[] = [];
    switch (statename) {
      case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
        receiver.push("completeCheckout");
        if (kind === "for_request") receiver.push("declineCheckout");
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
        if (!receivedConfirmed) receiver.push("confirmReceived");
        if (!rating && deadlines.ratingBy !== null && Date.now() < deadlines.ratingBy) receiver.push("rateOrder");
        if (rmaOpen) receiver.push("requestRma");
        break;
    }
    return { provider, receiver };
  }

  function view(): BuyOrderView {
    const l = orderLedger(ledger);
    return {
      orderId,
      externalId,
      workflowId,
      kind,
      providerId,
      receiverId,
      requestId: input.requestId ?? null,
      statename,
      displayStatus: displayStatus(),
      stage: stageForState(statename),
      completed: completedFlagFor(statename),
      actionNeeded: actionNeeded(),
      allowedActions: allowedActions(),
      isModified,
      lines: requested,
      pendingLines,
      approvedLines,
      amounts: {
        requested: requestedQuote,
        pending: pendingLines ? orderQuote(pendingLines) : null,
        approved: approvedLines ? orderQuote(approvedLines) : null,
        authorizedCents: l.authorizedCents,
        capturedCents: l.buyerPaidCents,
        refundedCents: l.buyerRefundedCents,
        payoutCents: l.sellerPaidCents,
        penaltyCents: l.sellerPenaltyCents,
      },
      ledger: l,
      deadlines: {
        checkoutBy: iso(deadlines.checkoutBy),
        sellerResponseBy: iso(deadlines.sellerResponseBy),
        modifiedResponseBy: iso(deadlines.modifiedResponseBy),
        pickupBy: iso(deadlines.pickupBy),
        ratingBy: iso(deadlines.ratingBy),
        rmaBy: iso(deadlines.rmaBy),
      },
      actions: [...actions],
      reasons: { ...reasons },
      paymentMethod,
      authorizeAttempts: attempts.authorize ?? 0,
      shipment,
      approvedAt: iso(approvedAt),
      pickupWindowStartedAt: iso(pickupWindowStartedAt),
      payoutReleasedAt,
      deliveredAt: iso(deliveredAt),
      receivedConfirmed,
      rating,
      rmaOpen,
      busy,
    };
  }

  function result(status: BuyCommandStatus = "ok", extra: Partial<BuyCommandResult> = {}): BuyCommandResult {
    return { status, statename, displayStatus: displayStatus(), ...extra };
  }

  // --- side effects -----------------------------------------------------------------------------------------
  function nextAttempt(step: BuyStep): number {
    attempts[step] = (attempts[step] ?? 0) + 1;
    return attempts[step] as number;
  }
  const key = (step: BuyStep, attempt: number) => buyIdempotencyKey(workflowId, step, attempt);

  /** The outbox row of a notice (dedupe key workflow id + template + role: each notice goes out once). */
  function notice([role, template, actBy = null]: Notice): OrderNotice {
    return {
      orderId,
      externalId,
      dedupeKey: `${workflowId}:mail:${template}:${role}`,
      role,
      retailerId: partyId(role),
      counterpartyId: partyId(role === "provider" ? "receiver" : "provider"),
      template,
      statename,
      displayStatus: displayStatus(),
      actBy: iso(actBy),
    };
  }

  /**
   * Writes the read model for this step, with the action codes the step recorded (possibly none) and the
   * outbox rows of its notices, in one transaction (a local activity): the page never shows a state whose
   * notice is lost, and the e-mails are sent from the outbox after the step, never on the click's path.
   */
  async function record(codes: Array<[number, ActorRole]>, notices: Notice[] = []): Promise<void> {
    const at = new Date(Date.now()).toISOString();
    const recs: BuyActionRecord[] = codes.map(([code, role]) => ({
      code,
      role,
      participantId: role === "provider" ? providerId : role === "receiver" ? receiverId : null,
      statename,
      at,
    }));
    actions.push(...recs);
    recordSeq += 1;
    const v = view();
    await store.recordOrderState({
      orderId,
      workflowId,
      dedupeKey: `${workflowId}:record:${recordSeq}`,
      sequence: recordSeq,
      kind,
      providerId,
      receiverId,
      statename,
      displayStatus: v.displayStatus,
      stage: v.stage,
      completed: v.completed,
      actionNeeded: v.actionNeeded,
      actions: recs,
      isModified,
      lines: approvedLines ?? requested,
      pendingLines,
      amounts: { quote: currentQuote(), authorizedCents: v.amounts.authorizedCents, capturedCents: v.amounts.capturedCents },
      ledger: v.ledger,
      reasons: { ...reasons },
      deadlines: v.deadlines,
      floorTime: input.sellInfo?.floorTime ?? null,
      paymentMethod,
      rating,
      notices: notices.map(notice),
    });
  }

  /** Runs a state change alone: commands arriving meanwhile are rejected as busy; the loop waits for it. */
  async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
      version += 1;
    }
  }

  async function releaseAuthorization(reason: "declined" | "expired" | "cancelled"): Promise<boolean> {
    if (!authorization || authorizationClosed) return false;
    authorizationClosed = true;
    await payEventually.releaseAuthorization({
      idempotencyKey: key(BUY_STEPS.releaseAuthorization, nextAttempt(BUY_STEPS.releaseAuthorization)),
      orderId,
      paymentIntentId: authorization.paymentIntentId,
      amountCents: authorization.amountCents,
      reason,
    });
    ledger.push({ kind: "authorization_released", amountCents: authorization.amountCents });
    return true;
  }

  /** Ends the negotiation as declined, releasing the authorisation; codes first, then 813 when released. */
  async function declineWith(codes: Array<[number, ActorRole]>, notifyRoles: Role[], releaseReason: "declined" | "expired"): Promise<void> {
    const released = await releaseAuthorization(releaseReason);
    statename = COMMON_STATES.DECLINED;
    deadlines.checkoutBy = deadlines.sellerResponseBy = deadlines.modifiedResponseBy = null;
    await record(
      released ? [...codes, [ACTION.AUTHORIZATION_RELEASED, "system"]] : codes,
      notifyRoles.map((role): Notice => [role, "order_declined"]),
    );
  }

  async function conflictsFor(lines: OrderLine[]): Promise<number[]> {
    const r = await store.findConflictingOrders({ orderId, providerId, lines });
    return r.orderIds.filter((id) => id !== orderId);
  }

  /**
   * Approval: stock (atomic, all or nothing), capture (approved lines, never more than authorised), call tag.
   * Then the other pending orders that wanted these units are told to decline.
   */
  async function finalizeApproval(
    lines: OrderLine[],
    approvalCodes: Array<[number, ActorRole]>,
    knownConflicts?: number[],
  ): Promise<"ok" | "units_unavailable" | "payment_failed"> {
    if (!authorization) throw ApplicationFailure.nonRetryable("approval without an authorisation");
    const conflicts = knownConflicts ?? (await conflictsFor(lines));
    const dec = await store.decrementStock({ idempotencyKey: key(BUY_STEPS.decrementStock, nextAttempt(BUY_STEPS.decrementStock)), orderId, lines });
    if (!dec.ok) return "units_unavailable";
    const entry = captureEntry(lines, authorization.amountCents);
    try {
      await payNow.capturePayment({
        idempotencyKey: key(BUY_STEPS.capture, nextAttempt(BUY_STEPS.capture)),
        orderId,
        paymentIntentId: authorization.paymentIntentId,
        amountCents: entry.amountCents,
        authorizedCents: authorization.amountCents,
      });
    } catch (err) {
      log.warn("capture failed; stock restored", { workflowId, error: String(err) });
      await store.restoreStock({ idempotencyKey: key(BUY_STEPS.restoreStock, nextAttempt(BUY_STEPS.restoreStock)), orderId, lines });
      return "payment_failed";
    }
    ledger.push(entry);
    authorizationClosed = true;
    approvedLines = lines;
    pendingLines = null;
    const now = Date.now();
    approvedAt = pickupWindowStartedAt = now;
    deadlines.checkoutBy = deadlines.sellerResponseBy = deadlines.modifiedResponseBy = null;
    deadlines.pickupBy = pickupDeadline(now, tz, holidays);
    shipment = { ...(await bookPickup(1, deadlines.pickupBy)), attempt: 1 };
    statename = BUY_STATES.SHIP_ORDER;
    await record([...approvalCodes, [ACTION.PAYMENT_CAPTURED, "system"], [ACTION.CALL_TAG_SCHEDULED_ORDER, "system"]], [
      ["provider", "ready_for_pickup", deadlines.pickupBy],
    ]);
    for (const other of conflicts) {
      try {
        await getExternalWorkflowHandle(buyWorkflowId(other)).signal(unitsTakenSignal, { byOrderId: orderId });
      } catch (err) {
        log.warn("could not tell another order its units were taken", { workflowId, other, error: String(err) });
      }
    }
    return "ok";
  }

  async function bookPickup(attempt: number, pickupBy: number) {
    return carrierOps.bookPickup({
      idempotencyKey: key(BUY_STEPS.bookPickup, attempt),
      orderId,
      externalId,
      attempt,
      senderId: providerId,
      receiverId,
      units: orderUnits(approvedLines ?? requested),
      pickupBy: new Date(pickupBy).toISOString(),
    });
  }

  /** After capture: call tag cancelled, buyer refunded in full, seller charged 10%, optionally units back. */
  async function cancelAfterCapture(reason: "shipment_cancelled" | "not_picked_up", firstCodes: Array<[number, ActorRole]>): Promise<void> {
    if (!authorization || !approvedLines) throw ApplicationFailure.nonRetryable("cancellation without a capture");
    if (shipment) {
      await carrierOps.cancelPickup({ idempotencyKey: key(BUY_STEPS.cancelPickup, nextAttempt(BUY_STEPS.cancelPickup)), orderId, shipmentId: shipment.shipmentId });
    }
    const s = cancellationForLines(capturedCents(), approvedLines);
    await payEventually.refundPayment({
      idempotencyKey: key(BUY_STEPS.refund, nextAttempt(BUY_STEPS.refund)),
      orderId,
      paymentIntentId: authorization.paymentIntentId,
      amountCents: s.buyerRefundCents,
      reason,
    });
    ledger.push({ kind: "refund", amountCents: s.buyerRefundCents });
    if (reason === "shipment_cancelled") {
      // decisions.md: a cancelled shipment puts the units back on the listing.
      await store.restoreStock({ idempotencyKey: key(BUY_STEPS.restoreStock, nextAttempt(BUY_STEPS.restoreStock)), orderId, lines: approvedLines });
    }
    await payEventually.chargeSellerPenalty({
      idempotencyKey: key(BUY_STEPS.penalty, nextAttempt(BUY_STEPS.penalty)),
      orderId,
      retailerId: providerId,
      amountCents: s.sellerPenaltyCents,
    });
    ledger.push({ kind: "penalty", amountCents: s.sellerPenaltyCents });
    statename = COMMON_STATES.CANCELLED;
    deadlines.pickupBy = null;
    await record(
      [...firstCodes, [ACTION.REFUND_ISSUED, "system"], [ACTION.PENALTY_CHARGED, "system"]],
      [
        ["receiver", "order_cancelled"],
        ["provider", "order_cancelled"],
      ],
    );
  }

  // --- commands ---------------------------------------------------------------------------------------------
  function requireParty(role: Role, cmd: { actorRetailerId?: unknown } | undefined): void {
    if (!cmd || typeof cmd !== "object" || cmd.actorRetailerId !== partyId(role)) reject("wrong_party", WRONG_PARTY_MESSAGES[role]);
  }
  function requireState(...states: State[]): void {
    if (!states.includes(statename)) reject("wrong_state");
    const d = currentDeadline();
    // An answer arriving when its window has closed (the timer fires in the same instant) is too late.
    if (NEGOTIATION.includes(statename) && d !== null && Date.now() >= d) reject("wrong_state");
  }
  /**
   * A retailer command: `validate` refuses it before it is accepted (the specification's errors); `run` does
   * it alone (exclusive). A command that arrives while another step of this order is still running its
   * activities (the notice after the state the page already shows, say) waits for that step, is validated
   * again against the state it left, and then runs: the retailer's click is not refused as busy.
   */
  function command<Cmd>(def: UpdateDefinition<BuyCommandResult, [Cmd]>, validate: (cmd: Cmd) => void, run: (cmd: Cmd) => Promise<BuyCommandResult>): void {
    setHandler(
      def,
      async (cmd: Cmd) => {
        while (busy) {
          await condition(() => !busy);
          validate(cmd);
        }
        return exclusive(() => run(cmd));
      },
      { validator: validate },
    );
  }
  function requireCard(pm: unknown): void {
    if (!isPaymentMethod(pm)) reject("card_required");
  }

  /** Seller approval after the card check: confirm other orders' decline, then finalize. */
  async function continueApproval(confirm: boolean): Promise<BuyCommandResult> {
    const conflicts = await conflictsFor(requested);
    if (conflicts.length > 0 && !confirm) {
      if (statename === BUY_STATES.PAYMENT) {
        statename = BUY_STATES.PROVIDER_APPROVE_SALE;
        await record([]);
      }
      return result("need_confirm_decline_others", { conflictingOrderIds: conflicts });
    }
    statename = BUY_STATES.PROVIDER_APPROVE_SALE;
    const outcome = await finalizeApproval(requested, [[ACTION.PROVIDER_APPROVE_SALE, "provider"]], conflicts);
    if (outcome === "units_unavailable") reject("units_unavailable");
    if (outcome === "payment_failed") reject("payment_failed");
    return result("ok", { redirectTo: BUY_REDIRECTS.orders });
  }

  async function continueModify(lines: OrderLine[], confirm: boolean): Promise<BuyCommandResult> {
    const conflicts = await conflictsFor(lines);
    if (conflicts.length > 0 && !confirm) {
      if (statename === BUY_STATES.PAYMENT) {
        statename = BUY_STATES.PROVIDER_APPROVE_SALE;
        await record([]);
      }
      return result("need_confirm_decline_others", { conflictingOrderIds: conflicts });
    }
    if (!authorization) throw ApplicationFailure.nonRetryable("modification without an authorisation");
    const now = Date.now();
    pendingLines = lines;
    isModified = true;
    deadlines.sellerResponseBy = null;
    deadlines.modifiedResponseBy = modifiedPurchaseDeadline(now, authorization.at);
    statename = BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE;
    await record([[ACTION.PROVIDER_MODIFY_SALE, "provider"]], [["receiver", "modified_purchase_needed", deadlines.modifiedResponseBy]]);
    return result("ok");
  }

  /** No card on file: wait in `payment` (810) until addPaymentMethod. */
  async function askForCard(command: NonNullable<typeof pendingCommand>): Promise<BuyCommandResult> {
    pendingCommand = command;
    if (statename !== BUY_STATES.PAYMENT) {
      statename = BUY_STATES.PAYMENT;
      await record([[ACTION.PAYMENT, "provider"]], [["provider", "payment_method_needed", deadlines.sellerResponseBy]]);
    }
    return result("need_payment_method");
  }

  command(
    completeCheckoutUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      requireState(BUY_STATES.COMPLETE_ORDER_CHECKOUT);
      requireCard(cmd.paymentMethod);
    },
    async (cmd) => {
      const pm = cmd.paymentMethod;
      // A new attempt after a decline or with another card; the same card retried after an outage keeps
      // its key, so a charge that did go through is not made twice.
      const sameRetry = lastAuthorize?.outcome === "error" && lastAuthorize.paymentMethodId === pm.paymentMethodId;
      const attempt = sameRetry ? (attempts.authorize as number) : nextAttempt(BUY_STEPS.authorize);
      let res;
      try {
        res = await payNow.authorizePayment({
          idempotencyKey: key(BUY_STEPS.authorize, attempt),
          orderId,
          retailerId: receiverId,
          paymentMethod: pm,
          amountCents: requestedQuote.totalCents,
          description: `Order ${externalId}`,
        });
      } catch (err) {
        log.warn("authorisation failed", { workflowId, error: String(err) });
        lastAuthorize = { paymentMethodId: pm.paymentMethodId, outcome: "error" };
        return reject("payment_failed");
      }
      if (res.status === "declined") {
        lastAuthorize = { paymentMethodId: pm.paymentMethodId, outcome: "declined" };
        await record([[ACTION.CARD_DECLINED, "receiver"]]);
        return reject("card_declined");
      }
      lastAuthorize = null;
      const now = Date.now();
      authorization = { paymentIntentId: res.paymentIntentId, amountCents: res.amountCents, at: now };
      authorizationClosed = false;
      paymentMethod = { lastFour: res.lastFour, description: res.description };
      ledger.push({ kind: "authorization", amountCents: res.amountCents });
      deadlines.checkoutBy = null;

      if (kind === "from_listing") {
        statename = BUY_STATES.PROVIDER_APPROVE_SALE;
        deadlines.sellerResponseBy = Math.min(now + WINDOWS.sellerResponse, now + WINDOWS.authorizationLifetime - WINDOWS.authorizationSafetyMargin);
        await record([[ACTION.CHECKOUT_COMPLETED, "receiver"]], [["provider", "approve_sale_needed", deadlines.sellerResponseBy]]);
        return result("ok");
      }
      // An order made for a request: the seller approved with its offer; checking out captures and ships.
      const outcome = await finalizeApproval(requested, [[ACTION.RECEIVER_APPROVE_PURCHASE, "receiver"]]);
      if (outcome === "units_unavailable") {
        reasons.provider_decline_buy_reason = DECLINE_OTHERS_REASON;
        await declineWith([[ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER, "provider"]], ["receiver"], "declined");
        return result("ok");
      }
      if (outcome === "payment_failed") {
        // Release this authorisation so that the next try (a new attempt) does not hold the card twice.
        await releaseAuthorization("declined");
        authorization = null;
        await record([[ACTION.AUTHORIZATION_RELEASED, "system"]]);
        return reject("payment_failed");
      }
      return result("ok", { redirectTo: BUY_REDIRECTS.orders });
    },
  );

  command(
    declineCheckoutUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      if (kind !== "for_request") reject("wrong_state");
      requireState(BUY_STATES.COMPLETE_ORDER_CHECKOUT);
      if (!isChoice(BUYER_DECLINE_REASONS, cmd.reason) || cmd.reason === BUYER_DECLINE_DEFAULT_REASON) reject("decline_reason_required");
    },
    async (cmd) => {
      reasons.receiver_decline_checkout_reason = cmd.reason;
      await declineWith([[ACTION.RECEIVER_DECLINE_CHECKOUT, "receiver"]], ["provider"], "declined");
      return result("ok");
    },
  );

  command(
    approveSaleUpdate,
    (cmd) => {
      requireParty("provider", cmd);
      requireState(BUY_STATES.PROVIDER_APPROVE_SALE, BUY_STATES.PAYMENT);
    },
    async (cmd) => {
      const card = await store.getCardOnFile({ retailerId: providerId });
      if (!card) return askForCard({ kind: "approve" });
      return continueApproval(cmd.confirmDeclineOthers === true);
    },
  );

  command(
    addPaymentMethodUpdate,
    (cmd) => {
      requireParty("provider", cmd);
      requireState(BUY_STATES.PAYMENT);
      requireCard(cmd.paymentMethod);
    },
    async (cmd) => {
      const saved = await payNow.saveCardOnFile({
        idempotencyKey: key(BUY_STEPS.saveCard, nextAttempt(BUY_STEPS.saveCard)),
        retailerId: providerId,
        paymentMethod: cmd.paymentMethod,
      });
      if (saved.status === "declined") {
        await record([[ACTION.CARD_DECLINED, "provider"]]);
        return reject("card_declined");
      }
      const command = pendingCommand ?? { kind: "approve" as const };
      pendingCommand = null;
      statename = BUY_STATES.PROVIDER_APPROVE_SALE;
      await record([[ACTION.PAYMENT_METHOD_ADDED, "provider"]]);
      const confirm = cmd.confirmDeclineOthers === true;
      return command.kind === "approve" ? continueApproval(confirm) : continueModify(command.lines, confirm);
    },
  );

  function modificationOf(lines: ModifiedLineInput[] | undefined): OrderLine[] {
    const check = checkModification(requested, Array.isArray(lines) ? lines : []);
    if (!check.ok) {
      if (check.code === "total_too_high") reject("total_too_high");
      if (check.code === "no_units") reject("no_units");
      reject("invalid_units");
    }
    if (!check.changed) reject("unchanged");
    return check.lines;
  }

  command(
    modifySaleUpdate,
    (cmd) => {
      requireParty("provider", cmd);
      requireState(BUY_STATES.PROVIDER_APPROVE_SALE);
      modificationOf(cmd.lines);
    },
    async (cmd) => {
      const lines = modificationOf(cmd.lines);
      const card = await store.getCardOnFile({ retailerId: providerId });
      if (!card) return askForCard({ kind: "modify", lines });
      return continueModify(lines, cmd.confirmDeclineOthers === true);
    },
  );

  command(
    declineSaleUpdate,
    (cmd) => {
      requireParty("provider", cmd);
      requireState(BUY_STATES.PROVIDER_APPROVE_SALE, BUY_STATES.PAYMENT);
      if (!isChoice(SELLER_DECLINE_REASONS, cmd.reason)) reject("decline_reason_required");
    },
    async (cmd) => {
      reasons.provider_decline_buy_reason = cmd.reason;
      await declineWith([[ACTION.PROVIDER_DECLINE_SALE, "provider"]], ["receiver"], "declined");
      const unavailable = isUnitUnavailableReason(cmd.reason);
      return result("ok", unavailable ? { redirectTo: BUY_REDIRECTS.activeListings, message: BUY_MESSAGES.updateYourListings } : {});
    },
  );

  command(
    approveModifiedPurchaseUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      requireState(BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE);
    },
    async (_cmd) => {
      const outcome = await finalizeApproval(pendingLines as OrderLine[], [[ACTION.RECEIVER_APPROVE_PURCHASE, "receiver"]]);
      if (outcome === "units_unavailable") {
        reasons.provider_decline_buy_reason = DECLINE_OTHERS_REASON;
        await declineWith([[ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER, "provider"]], ["receiver"], "declined");
        return result("ok");
      }
      if (outcome === "payment_failed") return reject("payment_failed");
      return result("ok", { redirectTo: BUY_REDIRECTS.orders });
    },
  );

  command(
    declineModifiedPurchaseUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      requireState(BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE);
      if (cmd.reason !== undefined && cmd.reason !== null && !isChoice(BUYER_DECLINE_REASONS, cmd.reason)) reject("decline_reason_required");
    },
    async (cmd) => {
      reasons.receiver_decline_modified_purchase_reason = cmd.reason ?? BUYER_DECLINE_DEFAULT_REASON;
      await declineWith([[ACTION.RECEIVER_DECLINE_MODIFIED_PURCHASE, "receiver"]], ["provider"], "declined");
      return result("ok");
    },
  );

  command(
    cancelShipmentUpdate,
    (cmd) => {
      requireParty("provider", cmd);
      requireState(...SHIPPING);
      // A scan already reported (not yet processed) means the goods are In-Route.
      if (carrierQueue.some((e) => SCANNED.has(e.status))) reject("wrong_state");
      if (!isChoice(CANCEL_SHIPMENT_REASONS, cmd.reason)) reject("cancel_reason_required");
    },
    async (cmd) => {
      reasons.provider_cancel_shipment_reason = cmd.reason;
      await cancelAfterCapture("shipment_cancelled", [[ACTION.SHIPMENT_CANCELLED, "provider"]]);
      return result("ok");
    },
  );

  command(
    confirmReceivedUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      requireState(COMMON_STATES.DELIVERED);
      if (receivedConfirmed) reject("wrong_state");
    },
    async (_cmd) => {
      receivedConfirmed = true;
      await record([[ACTION.RECEIVER_CONFIRM_ORDER, "receiver"]]);
      return result("ok");
    },
  );

  command(
    rateOrderUpdate,
    (cmd) => {
      requireParty("receiver", cmd);
      requireState(COMMON_STATES.DELIVERED);
      if (rating) reject("already_rated");
      if (deadlines.ratingBy === null || Date.now() >= deadlines.ratingBy) reject("rating_closed");
      const s = cmd.stars as Record<string, unknown> | undefined;
      if (!s || typeof s !== "object" || !["condition", "packaging", "timeliness", "overall"].every((k) => isValidRating(s[k]))) reject("rating_invalid");
      if (cmd.comments !== undefined && (typeof cmd.comments !== "string" || cmd.comments.length > MAX_COMMENT_LENGTH)) reject("rating_invalid");
    },
    async (cmd) => {
      const comments = typeof cmd.comments === "string" ? cmd.comments.trim() : "";
      const stars = { condition: cmd.stars.condition, packaging: cmd.stars.packaging, timeliness: cmd.stars.timeliness, overall: cmd.stars.overall };
      await store.saveOrderRating({
        idempotencyKey: key(BUY_STEPS.rating, nextAttempt(BUY_STEPS.rating)),
        orderId,
        raterId: receiverId,
        rateeId: providerId,
        role: "receiver",
        stars,
        comments,
      });
      const codes: Array<[number, ActorRole]> = receivedConfirmed ? [] : [[ACTION.RECEIVER_CONFIRM_ORDER, "receiver"]];
      receivedConfirmed = true;
      rating = { ...stars, comments };
      await record([...codes, [ACTION.RECEIVER_RATED, "receiver"]]);
      return result("ok", { message: BUY_MESSAGES.ratingSaved, redirectTo: BUY_REDIRECTS.home });
    },
  );

  // --- signals and queries ----------------------------------------------------------------------------------
  setHandler(carrierEventSignal, (ev) => {
    if (!ev || typeof ev.eventId !== "string" || seenEvents.has(`carrier:${ev.eventId}`)) return;
    seenEvents.add(`carrier:${ev.eventId}`);
    if (!(CARRIER_STATUSES as readonly string[]).includes(ev.status)) return;
    carrierQueue.push(ev);
    version += 1;
  });

  setHandler(paymentEventSignal, (ev) => {
    if (!ev || typeof ev.eventId !== "string" || seenEvents.has(`payment:${ev.eventId}`)) return;
    seenEvents.add(`payment:${ev.eventId}`);
    paymentQueue.push(ev);
    version += 1;
  });

  setHandler(unitsTakenSignal, (s) => {
    if (!s || !isPositiveId(s.byOrderId) || s.byOrderId === orderId) return;
    if (!NEGOTIATION.includes(statename)) return;
    unitsTakenBy = s.byOrderId;
    version += 1;
  });

  setHandler(orderViewQuery, () => view());

  setHandler(canRequestRmaQuery, (at?: string) => {
    if (statename !== COMMON_STATES.DELIVERED || !rmaOpen || deliveredAt === null) return false;
    if (at === undefined || at === null) return true;
    try {
      return isWithinRmaWindow(deliveredAt, toEpochMs(at));
    } catch {
      return false;
    }
  });

  // --- the main loop: webhooks, internal signals and deadlines ---------------------------------------------
  async function onCarrierEvent(ev: CarrierEventSignal): Promise<void> {
    if (SHIPPING.includes(statename) && SCANNED.has(ev.status)) {
      statename = COMMON_STATES.IN_ROUTE;
      deadlines.pickupBy = null;
      await record([[ACTION.SHIPMENT_PICKED_UP, "carrier"]]);
      const amount = payoutForLines(approvedLines as OrderLine[]);
      const payout = await payEventually.releaseSellerPayout({
        idempotencyKey: key(BUY_STEPS.payout, nextAttempt(BUY_STEPS.payout)),
        orderId,
        retailerId: providerId,
        amountCents: amount,
      });
      ledger.push({ kind: "payout", amountCents: amount });
      payoutReleasedAt = payout.releasedAt;
      await record([[ACTION.PAYOUT_RELEASED, "system"]], [["provider", "payout_released"]]);
    }
    if (statename === COMMON_STATES.IN_ROUTE && ev.status === "delivered") {
      const now = Date.now();
      statename = COMMON_STATES.DELIVERED;
      deliveredAt = now;
      rmaOpen = true;
      deadlines.rmaBy = now + WINDOWS.rmaRequest;
      deadlines.ratingBy = ratingDeadline(now, tz, holidays);
      await record([[ACTION.SHIPMENT_DELIVERED, "carrier"]], [["receiver", "rate_order", deadlines.ratingBy]]);
    }
  }

  async function processQueues(): Promise<void> {
    if (unitsTakenBy !== null) {
      const by = unitsTakenBy;
      unitsTakenBy = null;
      if (NEGOTIATION.includes(statename)) {
        await exclusive(async () => {
          reasons.provider_decline_buy_reason = DECLINE_OTHERS_REASON;
          log.info("units taken by another order", { workflowId, by });
          await declineWith([[ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER, "provider"]], ["receiver"], "declined");
        });
      }
    }
    while (paymentQueue.length > 0) {
      const ev = paymentQueue.shift() as PaymentEventSignal;
      await exclusive(() => store.recordPaymentEvent({ orderId, eventId: ev.eventId, type: ev.type, paymentRef: ev.paymentRef, occurredAt: ev.occurredAt }));
    }
    if (statename === COMMON_STATES.DELIVERED || isTerminalState(statename)) carrierQueue.length = 0;
    while (carrierQueue.length > 0 && (SHIPPING.includes(statename) || statename === COMMON_STATES.IN_ROUTE)) {
      const ev = carrierQueue.shift() as CarrierEventSignal;
      await exclusive(() => onCarrierEvent(ev));
    }
  }

  /** The current state's deadline has passed. */
  async function onDeadline(): Promise<void> {
    switch (statename) {
      case BUY_STATES.COMPLETE_ORDER_CHECKOUT: {
        reasons.system_reason = SYSTEM_REASON.CHECKOUT_NOT_COMPLETED;
        const released = await releaseAuthorization("expired");
        statename = COMMON_STATES.EXPIRED;
        deadlines.checkoutBy = null;
        const code = kind === "for_request" ? ACTION.REQUEST_CHECKOUT_EXPIRED : ACTION.CHECKOUT_EXPIRED;
        await record(released ? [[code, "system"], [ACTION.AUTHORIZATION_RELEASED, "system"]] : [[code, "system"]], [
          [kind === "for_request" ? "provider" : "receiver", "order_expired"],
        ]);
        return;
      }
      case BUY_STATES.PROVIDER_APPROVE_SALE:
      case BUY_STATES.PAYMENT:
        reasons.system_reason = SYSTEM_REASON.NOT_ANSWERED_IN_TIME;
        await declineWith([[ACTION.SELLER_RESPONSE_EXPIRED, "system"]], ["receiver", "provider"], "expired");
        return;
      case BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE:
        reasons.system_reason = SYSTEM_REASON.NOT_ANSWERED_IN_TIME;
        await declineWith([[ACTION.MODIFIED_PURCHASE_EXPIRED, "system"]], ["provider"], "expired");
        return;
      case BUY_STATES.SHIP_ORDER: {
        const now = Date.now();
        pickupWindowStartedAt = now;
        deadlines.pickupBy = pickupDeadline(now, tz, holidays);
        shipment = { ...(await bookPickup(2, deadlines.pickupBy)), attempt: 2 };
        statename = BUY_STATES.SHIP_ORDER_TRY2;
        await record([[ACTION.CALL_TAG_RESCHEDULED_ORDER, "system"]], [["provider", "pickup_rescheduled", deadlines.pickupBy]]);
        return;
      }
      case BUY_STATES.SHIP_ORDER_TRY2:
        reasons.system_reason = SYSTEM_REASON.NOT_PICKED_UP;
        await cancelAfterCapture("not_picked_up", [[ACTION.PROVIDER_ORDER_NON_SHIPMENT, "system"]]);
        return;
      case COMMON_STATES.DELIVERED:
        await settleDelivered();
        return;
    }
  }

  /** Delivered: close the RMA window at 48 h; complete when rated (or the rating window closed) and it is shut. */
  async function settleDelivered(): Promise<void> {
    if (statename !== COMMON_STATES.DELIVERED) return;
    const now = Date.now();
    const codes: Array<[number, ActorRole]> = [];
    let changed = false;
    if (rmaOpen && deadlines.rmaBy !== null && now >= deadlines.rmaBy) {
      rmaOpen = false;
      changed = true;
    }
    if (!rmaOpen && !rating && deadlines.ratingBy !== null && now >= deadlines.ratingBy) codes.push([ACTION.RATING_WINDOW_CLOSED, "system"]);
    if (!rmaOpen && (rating || codes.length > 0)) {
      statename = COMMON_STATES.COMPLETED;
      codes.push([ACTION.ORDER_COMPLETED, "system"]);
    }
    if (changed || codes.length > 0) await record(codes);
  }

  async function cleanUpAfterCancellation(): Promise<void> {
    // The workflow was cancelled (a draft withdrawn from the cart, or by staff). Release an uncaptured
    // authorisation; a draft still in checkout may already be gone from the database, so it is not written.
    if (!NEGOTIATION.includes(statename)) {
      log.error("buy workflow cancelled after capture: settle by hand", { workflowId, statename });
      return;
    }
    const released = await releaseAuthorization("cancelled");
    if (statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT && !released) return;
    statename = COMMON_STATES.DECLINED;
    await record(released ? [[ACTION.AUTHORIZATION_RELEASED, "system"]] : []);
  }

  try {
    // The buyer of a listing is at the checkout page right now; a requestor learns of the offer by e-mail.
    if (kind === "for_request") await record([[ACTION.ORDER_CREATED_FOR_REQUEST, "provider"]], [["receiver", "checkout_needed", deadlines.checkoutBy]]);
    else await record([]);

    while (!isTerminalState(statename)) {
      await processQueues();
      if (isTerminalState(statename)) break;
      if (statename === COMMON_STATES.DELIVERED) await exclusive(settleDelivered);
      if (isTerminalState(statename)) break;
      const deadline = currentDeadline();
      if (deadline !== null && Date.now() >= deadline) {
        await exclusive(onDeadline);
        continue;
      }
      const seen = version;
      const wake = () => !busy && version !== seen;
      if (deadline === null) await condition(wake);
      else await condition(wake, Math.max(1, deadline - Date.now()));
      // A command may be running when the timer fires: let it finish, then look at the state again.
      await condition(() => !busy);
    }
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(cleanUpAfterCancellation);
    }
    throw err;
  }

  await condition(allHandlersFinished);
  return { statename, displayStatus: displayStatus(), ledger: orderLedger(ledger) };
}

/**
 * The buy order's state machine: every step (a retailer command, a deadline, a carrier or payment event, the
 * opening write, the clean-up after a cancellation) as a generator over the model (model.ts) that yields the
 * effects it needs (workflows/common/steps.ts) and receives their results, written with the order-process kit
 * (workflows/common/: the record, the parcel, the payment steps, the guards; ADR 0023). Pure: no Temporal, no
 * I/O; the clock comes from the step context. The driver (workflows/common/driver.ts) runs the effects with
 * Temporal, every call as a local activity, the provider's with its idempotency key. Table tests
 * (tests/unit/buy-machine.test.ts) run the same steps with scripted results.
 *
 *   from_listing:  complete_order_checkout --completeCheckout (authorise)--> provider_approve_sale
 *                  (over the placer's limit: --> store_approve_purchase --storeApprove--> provider_approve_sale
 *                   | --storeDecline--> declined | --2 business days (308, 813)--> cancelled)
 *   for_request:   (223) complete_order_checkout --completeCheckout (authorise + capture)--> ship_order
 *   from_offer:    complete_order_checkout --opening (capture against the offer's hold)--> ship_order
 *   provider_approve_sale --approveSale--> [payment --addPaymentMethod-->] ship_order (capture, stock, call tag)
 *                         --modifySale--> receiver_approve_modified_purchase --approve--> ship_order | --decline--> declined
 *                         --declineSale--> declined
 *   ship_order --2 business days--> ship_order_try2 (921) --2 business days--> cancelled (117, refund, penalty)
 *   ship_order(_try2) --carrier scan--> in_route (110, payout 816) --delivered--> delivered (119)
 *   delivered: rating within 3 business days, RMA button within 48 h; completed (390) when both windows close.
 *   Timers: checkout 24 h (301) / 3 days for a request (304); seller 5 days (302); modified purchase 1 day,
 *   never past the authorisation (303).
 */
import type {
  BookPickupResult,
  BuyActivities,
  OrderNoticeTemplate,
  OrderStateRecord,
} from "./activities";
import { ACTION } from "../../domain/action-codes";
import { WINDOWS, modifiedPurchaseDeadline } from "../../domain/business-days";
import {
  cancellationForLines,
  captureEntry,
  orderLedger,
  orderUnits,
  payoutForLines,
  type OrderLine,
} from "../../domain/order-money";
import {
  BUYER_DECLINE_DEFAULT_REASON,
  BUYER_DECLINE_REASONS,
  DECLINE_OTHERS_REASON,
  SELLER_DECLINE_REASONS,
  SYSTEM_REASON,
  isChoice,
  isUnitUnavailableReason,
} from "../../domain/reasons";
import {
  BUY_STATES,
  COMMON_STATES,
  completedFlagFor,
  isTerminalState,
  stageForState,
  type Role,
} from "../../domain/states";
import { TEAM_MSG, storeApprovalDeadline, storeApprovalMessage } from "../../domain/teams";
import { isStoreApprovalRequest, type CarrierEventSignal } from "../common/contract";
import { ratingOf, storeDecisionRefusal } from "../common/guards";
import {
  PICKUP_ATTEMPTS,
  bookParcel,
  deliveryWindows,
  isScan,
  missedPickup,
  pickupWindowEnd,
} from "../common/parcel";
import { payments } from "../common/payments";
import { iso, isoDeadlines, nextKey, noticeDedupeKey, stepRecord } from "../common/record";
import {
  caller,
  signalWorkflow,
  type Command,
  type Machine,
  type Step,
  type StepContext,
} from "../common/steps";
import {
  BUY_MESSAGES,
  BUY_REDIRECTS,
  BUY_STEPS,
  addPaymentMethodUpdate,
  approveModifiedPurchaseUpdate,
  approveSaleUpdate,
  buyWorkflowId,
  cancelShipmentUpdate,
  staffBookPickupUpdate,
  completeCheckoutUpdate,
  confirmReceivedUpdate,
  declineCheckoutUpdate,
  declineModifiedPurchaseUpdate,
  declineSaleUpdate,
  modifySaleUpdate,
  rateOrderUpdate,
  storeApprovePurchaseUpdate,
  storeDeclinePurchaseUpdate,
  unitsTakenSignal,
  type AddPaymentMethodCommand,
  type ApproveModifiedPurchaseCommand,
  type ApproveSaleCommand,
  type BuyCommandResult,
  type BuyOrderInput,
  type BuyOrderResult,
  type CancelShipmentCommand,
  type StaffBookPickupCommand,
  type CompleteCheckoutCommand,
  type ConfirmReceivedCommand,
  type DeclineCheckoutCommand,
  type DeclineModifiedPurchaseCommand,
  type DeclineSaleCommand,
  type ModifySaleCommand,
  type RateOrderCommand,
  type StoreApprovalRequest,
  type StoreDecisionCommand,
} from "./contract";
import {
  SHIPPING,
  NEGOTIATION,
  acceptCarrierEvent,
  actionNeeded,
  actionRecords,
  buySearchFacts,
  capturedCents,
  commandResult,
  createBuyModel,
  currentQuote,
  deadline,
  displayStatus,
  modificationOf,
  partyId,
  reject,
  requireCancelReason,
  requireCard,
  requireParty,
  requireState,
  requireValidRating,
  scanQueued,
  type BuyModel,
  type Codes,
  type State,
} from "./model";

const call = caller<BuyActivities>();
const pay = payments<BuyActivities>();

/** A notice a step sends: to whom, which template, and the deadline it names. */
export type Notice = [Role, OrderNoticeTemplate, (number | null)?];

// --- effects every step uses ----------------------------------------------------------------------------

/** The read-model write of the current state (what pages show), with the step's codes and notices. */
export function stateRecord(
  m: BuyModel,
  codes: Codes,
  notices: Notice[],
  at: string,
): OrderStateRecord {
  const { actions, sequence } = stepRecord(
    m,
    codes,
    at,
    (code, role, when) => actionRecords(m, [[code, role]], when)[0],
  );
  const ledger = orderLedger(m.ledger);
  return {
    orderId: m.orderId,
    workflowId: m.workflowId,
    dedupeKey: `${m.workflowId}:record:${sequence}`,
    sequence,
    kind: m.kind,
    providerId: m.providerId,
    receiverId: m.receiverId,
    statename: m.statename,
    displayStatus: displayStatus(m),
    stage: stageForState(m.statename),
    completed: completedFlagFor(m.statename),
    actionNeeded: actionNeeded(m),
    actions,
    isModified: m.isModified,
    lines: m.approvedLines ?? m.requested,
    pendingLines: m.pendingLines,
    amounts: {
      quote: currentQuote(m),
      authorizedCents: ledger.authorizedCents,
      capturedCents: ledger.buyerPaidCents,
    },
    ledger,
    reasons: { ...m.reasons },
    deadlines: isoDeadlines(m.deadlines),
    floorTime: m.floorTime,
    ...(m.approvedByUserId !== null ? { approvedByUserId: m.approvedByUserId } : {}),
    paymentMethod: m.paymentMethod,
    rating: m.rating,
    notices: notices.map(([role, template, actBy = null]) => ({
      orderId: m.orderId,
      externalId: m.externalId,
      dedupeKey: noticeDedupeKey(m.workflowId, template, role),
      role,
      retailerId: partyId(m, role),
      counterpartyId: partyId(m, role === "provider" ? "receiver" : "provider"),
      template,
      statename: m.statename,
      displayStatus: displayStatus(m),
      actBy: iso(actBy),
    })),
  };
}

/**
 * Writes the read model for this step, with the action codes it recorded (possibly none) and the outbox rows
 * of its notices, in one transaction (a local activity): the page never shows a state whose notice is lost,
 * and e-mails are sent from the outbox after the step, never on the click's path.
 */
function* record(m: BuyModel, ctx: StepContext, codes: Codes, notices: Notice[] = []): Step {
  yield* call(
    "recordOrderState",
    stateRecord(m, codes, notices, new Date(ctx.now()).toISOString()),
    "local",
  );
}

function* releaseAuthorization(
  m: BuyModel,
  reason: "declined" | "expired" | "cancelled",
): Step<boolean> {
  if (!m.authorization || m.authorizationClosed) return false;
  m.authorizationClosed = true;
  const { paymentIntentId, amountCents } = m.authorization;
  yield* pay(m, "release", "releaseAuthorization", BUY_STEPS.releaseAuthorization, {
    orderId: m.orderId,
    paymentIntentId,
    amountCents,
    reason,
  });
  m.ledger.push({ kind: "authorization_released", amountCents: m.authorization.amountCents });
  return true;
}

/** Ends the negotiation as declined, releasing the authorisation; codes first, then 813 when released. */
function* declineWith(
  m: BuyModel,
  ctx: StepContext,
  codes: Codes,
  notify: Role[],
  releaseReason: "declined" | "expired",
): Step {
  const released = yield* releaseAuthorization(m, releaseReason);
  m.statename = COMMON_STATES.DECLINED;
  m.deadlines.checkoutBy = m.deadlines.sellerResponseBy = m.deadlines.modifiedResponseBy = null;
  yield* record(
    m,
    ctx,
    released ? [...codes, [ACTION.AUTHORIZATION_RELEASED, "system"]] : codes,
    notify.map((role): Notice => [role, "order_declined"]),
  );
}

/** The units were taken by another order: declined for that reason (reason 15, code 229). */
function* declineForOtherOrder(m: BuyModel, ctx: StepContext): Step {
  m.reasons.provider_decline_buy_reason = DECLINE_OTHERS_REASON;
  yield* declineWith(
    m,
    ctx,
    [[ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER, "provider"]],
    ["receiver"],
    "declined",
  );
}

function* conflictsFor(m: BuyModel, lines: OrderLine[]): Step<number[]> {
  const r = yield* call(
    "findConflictingOrders",
    { orderId: m.orderId, providerId: m.providerId, lines },
    "local",
  );
  return r.orderIds.filter((id) => id !== m.orderId);
}

/** Books the parcel's pickup (workflows/common/parcel.ts), its window starting now. */
function* bookPickup(m: BuyModel, ctx: StepContext): Step {
  const now = ctx.now();
  const pickupBy = pickupWindowEnd(now, m);
  m.pickupWindowStartedAt = now;
  m.deadlines.pickupBy = pickupBy;
  const { booking, attempt } = yield* bookParcel<BookPickupResult>(
    m,
    BUY_STEPS.bookPickup,
    "bookPickup",
    (n) => ({
      orderId: m.orderId,
      externalId: m.externalId,
      attempt: n,
      senderId: m.providerId,
      receiverId: m.receiverId,
      units: orderUnits(m.approvedLines ?? m.requested),
      pickupBy: new Date(pickupBy).toISOString(),
    }),
  );
  m.shipment = { ...booking, attempt };
}

/**
 * Approval: stock (atomic, all or nothing), capture (approved lines, never more than authorised), call tag.
 * Then the other pending orders that wanted these units are told to decline.
 */
function* finalizeApproval(
  m: BuyModel,
  ctx: StepContext,
  lines: OrderLine[],
  approvalCodes: Codes,
  knownConflicts?: number[],
): Step<"ok" | "units_unavailable" | "payment_failed"> {
  const auth = m.authorization;
  if (!auth) throw new Error("approval without an authorisation");
  const conflicts = knownConflicts ?? (yield* conflictsFor(m, lines));
  const dec = yield* call(
    "decrementStock",
    { idempotencyKey: nextKey(m, BUY_STEPS.decrementStock), orderId: m.orderId, lines },
    "local",
  );
  if (!dec.ok) return "units_unavailable";
  const entry = captureEntry(lines, auth.amountCents);
  try {
    const capture = {
      orderId: m.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: entry.amountCents,
      authorizedCents: auth.amountCents,
    };
    yield* pay(m, "capture", "capturePayment", BUY_STEPS.capture, capture);
  } catch (err) {
    ctx.log("warn", "capture failed; stock restored", {
      workflowId: m.workflowId,
      error: String(err),
    });
    yield* call(
      "restoreStock",
      { idempotencyKey: nextKey(m, BUY_STEPS.restoreStock), orderId: m.orderId, lines },
      "local",
    );
    return "payment_failed";
  }
  m.ledger.push(entry);
  m.authorizationClosed = true;
  m.approvedLines = lines;
  m.pendingLines = null;
  m.approvedAt = ctx.now();
  m.deadlines.checkoutBy = m.deadlines.sellerResponseBy = m.deadlines.modifiedResponseBy = null;
  yield* bookPickup(m, ctx);
  m.statename = BUY_STATES.SHIP_ORDER;
  yield* record(
    m,
    ctx,
    [
      ...approvalCodes,
      [ACTION.PAYMENT_CAPTURED, "system"],
      [ACTION.CALL_TAG_SCHEDULED_ORDER, "system"],
    ],
    [["provider", "ready_for_pickup", m.deadlines.pickupBy]],
  );
  for (const other of conflicts) {
    try {
      yield* signalWorkflow(buyWorkflowId(other), unitsTakenSignal.name, { byOrderId: m.orderId });
    } catch (err) {
      ctx.log("warn", "could not tell another order its units were taken", {
        workflowId: m.workflowId,
        other,
        error: String(err),
      });
    }
  }
  return "ok";
}

/** After capture: call tag cancelled, buyer refunded in full, seller charged 10%, optionally units back. */
function* cancelAfterCapture(
  m: BuyModel,
  ctx: StepContext,
  reason: "shipment_cancelled" | "not_picked_up",
  firstCodes: Codes,
): Step {
  const auth = m.authorization;
  const lines = m.approvedLines;
  if (!auth || !lines) throw new Error("cancellation without a capture");
  if (m.shipment) {
    yield* call(
      "cancelPickup",
      {
        idempotencyKey: nextKey(m, BUY_STEPS.cancelPickup),
        orderId: m.orderId,
        shipmentId: m.shipment.shipmentId,
      },
      "carrier",
    );
  }
  const s = cancellationForLines(capturedCents(m), lines);
  yield* pay(m, "refund", "refundPayment", BUY_STEPS.refund, {
    orderId: m.orderId,
    paymentIntentId: auth.paymentIntentId,
    amountCents: s.buyerRefundCents,
    reason,
  });
  m.ledger.push({ kind: "refund", amountCents: s.buyerRefundCents });
  if (reason === "shipment_cancelled") {
    // A cancelled shipment puts the units back on the listing (docs/product/orders.md, "Purchase from a listing").
    yield* call(
      "restoreStock",
      { idempotencyKey: nextKey(m, BUY_STEPS.restoreStock), orderId: m.orderId, lines },
      "local",
    );
  }
  yield* pay(m, "charge", "chargeSellerPenalty", BUY_STEPS.penalty, {
    orderId: m.orderId,
    retailerId: m.providerId,
    amountCents: s.sellerPenaltyCents,
  });
  m.ledger.push({ kind: "penalty", amountCents: s.sellerPenaltyCents });
  m.statename = COMMON_STATES.CANCELLED;
  m.deadlines.pickupBy = null;
  yield* record(
    m,
    ctx,
    [...firstCodes, [ACTION.REFUND_ISSUED, "system"], [ACTION.PENALTY_CHARGED, "system"]],
    [
      ["receiver", "order_cancelled"],
      ["provider", "order_cancelled"],
    ],
  );
}

/** A pickup window passed unscanned: booked again once (921), then the order is cancelled (117). */
function* onMissedPickup(m: BuyModel, ctx: StepContext): Step {
  // The state says which booking the window was: ship_order the first, ship_order_try2 the second.
  if (missedPickup(m.statename === BUY_STATES.SHIP_ORDER ? 1 : PICKUP_ATTEMPTS) === "rebook") {
    yield* bookPickup(m, ctx);
    m.statename = BUY_STATES.SHIP_ORDER_TRY2;
    yield* record(
      m,
      ctx,
      [[ACTION.CALL_TAG_RESCHEDULED_ORDER, "system"]],
      [["provider", "pickup_rescheduled", m.deadlines.pickupBy]],
    );
    return;
  }
  m.reasons.system_reason = SYSTEM_REASON.NOT_PICKED_UP;
  yield* cancelAfterCapture(m, ctx, "not_picked_up", [
    [ACTION.PROVIDER_ORDER_NON_SHIPMENT, "system"],
  ]);
}

// --- the seller's approval and modification -------------------------------------------------------------

/** Approving takes units other pending orders wanted: ask the seller to confirm first (back to approve). */
function* askToConfirm(m: BuyModel, ctx: StepContext, conflicts: number[]): Step<BuyCommandResult> {
  if (m.statename === BUY_STATES.PAYMENT) {
    m.statename = BUY_STATES.PROVIDER_APPROVE_SALE;
    yield* record(m, ctx, []);
  }
  return commandResult(m, "need_confirm_decline_others", { conflictingOrderIds: conflicts });
}

/**
 * Seller approval after the card check: confirm other orders' decline, then finalize. `knownConflicts`: the
 * conflicts read with the card check (approvalFacts), else read here.
 */
function* continueApproval(
  m: BuyModel,
  ctx: StepContext,
  confirm: boolean,
  knownConflicts?: number[],
): Step<BuyCommandResult> {
  const conflicts = knownConflicts ?? (yield* conflictsFor(m, m.requested));
  if (conflicts.length > 0 && !confirm) return yield* askToConfirm(m, ctx, conflicts);
  m.statename = BUY_STATES.PROVIDER_APPROVE_SALE;
  const outcome = yield* finalizeApproval(
    m,
    ctx,
    m.requested,
    [[ACTION.PROVIDER_APPROVE_SALE, "provider"]],
    conflicts,
  );
  if (outcome === "units_unavailable") reject("units_unavailable");
  if (outcome === "payment_failed") reject("payment_failed");
  return commandResult(m, "ok", { redirectTo: BUY_REDIRECTS.orders });
}

/** Seller modification after the card check; `knownConflicts` as in continueApproval. */
function* continueModify(
  m: BuyModel,
  ctx: StepContext,
  lines: OrderLine[],
  confirm: boolean,
  knownConflicts?: number[],
): Step<BuyCommandResult> {
  const conflicts = knownConflicts ?? (yield* conflictsFor(m, lines));
  if (conflicts.length > 0 && !confirm) return yield* askToConfirm(m, ctx, conflicts);
  if (!m.authorization) throw new Error("modification without an authorisation");
  m.pendingLines = lines;
  m.isModified = true;
  m.deadlines.sellerResponseBy = null;
  m.deadlines.modifiedResponseBy = modifiedPurchaseDeadline(ctx.now(), m.authorization.at);
  m.statename = BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE;
  yield* record(
    m,
    ctx,
    [[ACTION.PROVIDER_MODIFY_SALE, "provider"]],
    [["receiver", "modified_purchase_needed", m.deadlines.modifiedResponseBy]],
  );
  return commandResult(m);
}

/** No card on file: wait in `payment` (810) until addPaymentMethod. */
function* askForCard(
  m: BuyModel,
  ctx: StepContext,
  pending: NonNullable<BuyModel["pendingCommand"]>,
): Step<BuyCommandResult> {
  m.pendingCommand = pending;
  if (m.statename !== BUY_STATES.PAYMENT) {
    m.statename = BUY_STATES.PAYMENT;
    yield* record(
      m,
      ctx,
      [[ACTION.PAYMENT, "provider"]],
      [["provider", "payment_method_needed", m.deadlines.sellerResponseBy]],
    );
  }
  return commandResult(m, "need_payment_method");
}

// --- commands -------------------------------------------------------------------------------------------

/** One retailer command: `validate` refuses it (the specification's errors) without changing anything; `run` does it. */
export type CommandSpec<Cmd> = Command<BuyModel, Cmd, BuyCommandResult>;

function* completeCheckout(
  m: BuyModel,
  cmd: CompleteCheckoutCommand,
  ctx: StepContext,
): Step<BuyCommandResult> {
  const pm = cmd.paymentMethod;
  // A new attempt after a decline or with another card; the same card retried after an outage keeps its key,
  // so a charge that did go through is not made twice.
  const sameRetry =
    m.lastAuthorize?.outcome === "error" && m.lastAuthorize.paymentMethodId === pm.paymentMethodId;
  const attempt = sameRetry ? (m.attempts.authorize as number) : undefined;
  const amountCents = m.requestedQuote.totalCents;
  let res;
  try {
    const input = {
      orderId: m.orderId,
      retailerId: m.receiverId,
      paymentMethod: pm,
      amountCents,
      description: `Order ${m.externalId}`,
    };
    res = yield* pay(m, "authorise", "authorizePayment", BUY_STEPS.authorize, input, attempt);
  } catch (err) {
    ctx.log("warn", "authorisation failed", { workflowId: m.workflowId, error: String(err) });
    m.lastAuthorize = { paymentMethodId: pm.paymentMethodId, outcome: "error" };
    // A purchase its checkout started has no write yet (the checkout's step writes it): the opening write, now.
    if (m.recordSeq === 0) yield* openOrder(m, ctx);
    return reject("payment_failed");
  }
  if (res.status === "declined") {
    m.lastAuthorize = { paymentMethodId: pm.paymentMethodId, outcome: "declined" };
    yield* record(m, ctx, [[ACTION.CARD_DECLINED, "receiver"]]);
    return reject("card_declined");
  }
  m.lastAuthorize = null;
  const now = ctx.now();
  m.authorization = { paymentIntentId: res.paymentIntentId, amountCents: res.amountCents, at: now };
  m.authorizationClosed = false;
  m.paymentMethod = { lastFour: res.lastFour, description: res.description };
  m.ledger.push({ kind: "authorization", amountCents: res.amountCents });
  m.deadlines.checkoutBy = null;

  if (m.kind === "from_listing" && cmd.storeApproval)
    return yield* awaitStore(m, ctx, cmd.storeApproval, now);
  if (m.kind === "from_listing") {
    m.statename = BUY_STATES.PROVIDER_APPROVE_SALE;
    m.deadlines.sellerResponseBy = Math.min(now + WINDOWS.sellerResponse, authorizationEnd(m));
    yield* record(
      m,
      ctx,
      [[ACTION.CHECKOUT_COMPLETED, "receiver"]],
      [["provider", "approve_sale_needed", m.deadlines.sellerResponseBy]],
    );
    return commandResult(m);
  }
  // An order made for a request: the seller approved with its offer; checking out captures and ships.
  const outcome = yield* finalizeApproval(m, ctx, m.requested, [
    [ACTION.RECEIVER_APPROVE_PURCHASE, "receiver"],
  ]);
  if (outcome === "units_unavailable") {
    yield* declineForOtherOrder(m, ctx);
    return commandResult(m);
  }
  if (outcome === "payment_failed") {
    // Release this authorisation so that the next try (a new attempt) does not hold the card twice.
    yield* releaseAuthorization(m, "declined");
    m.authorization = null;
    yield* record(m, ctx, [[ACTION.AUTHORIZATION_RELEASED, "system"]]);
    return reject("payment_failed");
  }
  return commandResult(m, "ok", { redirectTo: BUY_REDIRECTS.orders });
}

/** The last instant a pre-authorisation may still be answered on (the provider's lifetime less a margin). */
const authorizationEnd = (m: BuyModel): number =>
  (m.authorization?.at ?? 0) + WINDOWS.authorizationLifetime - WINDOWS.authorizationSafetyMargin;

/**
 * Checked out over the placer's limit: the buyer's store approves first, within 2 business days (docs/product/
 * teams.md, "Limits and approval"); the seller hears of the order only then.
 */
function* awaitStore(
  m: BuyModel,
  ctx: StepContext,
  ask: StoreApprovalRequest,
  now: number,
): Step<BuyCommandResult> {
  m.storeApproval = { ...ask };
  m.statename = BUY_STATES.STORE_APPROVE_PURCHASE;
  m.deadlines.storeApprovalBy = storeApprovalDeadline(now, m);
  yield* record(
    m,
    ctx,
    [[ACTION.STORE_APPROVAL_REQUESTED, "receiver"]],
    [["receiver", "store_approval_needed", m.deadlines.storeApprovalBy]],
  );
  return commandResult(m, "ok", { message: storeApprovalMessage(ask) });
}

/** An approver of the buyer's store approves: the seller's turn, with the seller's own window. */
function* storeApprove(
  m: BuyModel,
  cmd: StoreDecisionCommand,
  ctx: StepContext,
): Step<BuyCommandResult> {
  const now = ctx.now();
  m.approvedByUserId = cmd.actorUserId;
  m.statename = BUY_STATES.PROVIDER_APPROVE_SALE;
  m.deadlines.storeApprovalBy = null;
  m.deadlines.sellerResponseBy = Math.min(now + WINDOWS.sellerResponse, authorizationEnd(m));
  yield* record(
    m,
    ctx,
    [[ACTION.STORE_APPROVED, "receiver"]],
    [["provider", "approve_sale_needed", m.deadlines.sellerResponseBy]],
  );
  return commandResult(m, "ok", { message: TEAM_MSG.approved });
}

/** An approver of the buyer's store declines: the authorisation is released; the seller never had it. */
function* storeDecline(
  m: BuyModel,
  _cmd: StoreDecisionCommand,
  ctx: StepContext,
): Step<BuyCommandResult> {
  m.deadlines.storeApprovalBy = null;
  yield* declineWith(m, ctx, [[ACTION.STORE_DECLINED, "receiver"]], ["receiver"], "declined");
  return commandResult(m, "ok", { message: TEAM_MSG.declinedByStore });
}

/** Nobody of the buyer's store answered in 2 business days: cancelled, the authorisation released. */
function* storeApprovalExpired(m: BuyModel, ctx: StepContext): Step {
  m.reasons.system_reason = SYSTEM_REASON.NOT_APPROVED_BY_STORE;
  const released = yield* releaseAuthorization(m, "expired");
  m.statename = COMMON_STATES.CANCELLED;
  m.deadlines.storeApprovalBy = null;
  yield* record(
    m,
    ctx,
    released
      ? [
          [ACTION.STORE_APPROVAL_EXPIRED, "system"],
          [ACTION.AUTHORIZATION_RELEASED, "system"],
        ]
      : [[ACTION.STORE_APPROVAL_EXPIRED, "system"]],
    [["receiver", "store_approval_expired"]],
  );
}

/** A store decision's own checks: a person of the store, and not the one who placed the order. */
function requireStoreDecider(m: BuyModel, cmd: StoreDecisionCommand): void {
  const refused = storeDecisionRefusal(m.storeApproval, cmd.actorUserId);
  if (refused) reject(refused);
}

function* approveModified(
  m: BuyModel,
  _cmd: ApproveModifiedPurchaseCommand,
  ctx: StepContext,
): Step<BuyCommandResult> {
  const outcome = yield* finalizeApproval(m, ctx, m.pendingLines as OrderLine[], [
    [ACTION.RECEIVER_APPROVE_PURCHASE, "receiver"],
  ]);
  if (outcome === "units_unavailable") {
    yield* declineForOtherOrder(m, ctx);
    return commandResult(m);
  }
  if (outcome === "payment_failed") return reject("payment_failed");
  return commandResult(m, "ok", { redirectTo: BUY_REDIRECTS.orders });
}

function* addPaymentMethod(
  m: BuyModel,
  cmd: AddPaymentMethodCommand,
  ctx: StepContext,
): Step<BuyCommandResult> {
  const saved = yield* pay(m, "saveCard", "saveCardOnFile", BUY_STEPS.saveCard, {
    retailerId: m.providerId,
    paymentMethod: cmd.paymentMethod,
  });
  if (saved.status === "declined") {
    yield* record(m, ctx, [[ACTION.CARD_DECLINED, "provider"]]);
    return reject("card_declined");
  }
  const pending = m.pendingCommand ?? { kind: "approve" as const };
  m.pendingCommand = null;
  m.statename = BUY_STATES.PROVIDER_APPROVE_SALE;
  yield* record(m, ctx, [[ACTION.PAYMENT_METHOD_ADDED, "provider"]]);
  const confirm = cmd.confirmDeclineOthers === true;
  return pending.kind === "approve"
    ? yield* continueApproval(m, ctx, confirm)
    : yield* continueModify(m, ctx, pending.lines, confirm);
}

function* rateOrder(m: BuyModel, cmd: RateOrderCommand, ctx: StepContext): Step<BuyCommandResult> {
  const { stars, comments } = ratingOf(cmd);
  const rating = {
    idempotencyKey: nextKey(m, BUY_STEPS.rating),
    orderId: m.orderId,
    raterId: m.receiverId,
    rateeId: m.providerId,
    role: "receiver" as const,
    stars,
    comments,
  };
  yield* call("saveOrderRating", rating, "local");
  const codes: Codes = m.receivedConfirmed ? [] : [[ACTION.RECEIVER_CONFIRM_ORDER, "receiver"]];
  m.receivedConfirmed = true;
  m.rating = { ...stars, comments };
  yield* record(m, ctx, [...codes, [ACTION.RECEIVER_RATED, "receiver"]]);
  return commandResult(m, "ok", {
    message: BUY_MESSAGES.ratingSaved,
    redirectTo: BUY_REDIRECTS.home,
  });
}

/**
 * The reads of a seller's approval or modification in one local activity: its card on file and the orders
 * that want the same units.
 */
function* approvalFacts(
  m: BuyModel,
  lines: OrderLine[],
): Step<{ cardOnFile: boolean; conflicts: number[] }> {
  const r = yield* call(
    "approvalFacts",
    { orderId: m.orderId, providerId: m.providerId, lines },
    "local",
  );
  return {
    cardOnFile: r.cardOnFile,
    conflicts: r.conflictingOrderIds.filter((id) => id !== m.orderId),
  };
}

/**
 * The validator of a command that `role` may send in `states`, then its own payload checks: refuses with the
 * specification's errors, never changes the model.
 */
function allowed<Cmd>(
  role: Role,
  states: State[],
  payload: (m: BuyModel, cmd: Cmd, now: number) => void = () => {},
) {
  return (m: BuyModel, cmd: Cmd, now: number): void => {
    requireParty(m, role, cmd as { actorRetailerId?: unknown });
    requireState(m, now, ...states);
    payload(m, cmd, now);
  };
}

const NEGOTIATING_SELLER: State[] = [BUY_STATES.PROVIDER_APPROVE_SALE, BUY_STATES.PAYMENT];

/** Every retailer (and staff) command of the buy order, by update name (contract.ts defines the updates). */
export const BUY_COMMANDS = {
  completeCheckout: {
    update: completeCheckoutUpdate,
    validate: allowed<CompleteCheckoutCommand>(
      "receiver",
      [BUY_STATES.COMPLETE_ORDER_CHECKOUT],
      (m, cmd) => {
        if (m.kind === "from_offer") reject("wrong_state");
        requireCard(cmd.paymentMethod);
        if (cmd.storeApproval != null && !isStoreApprovalRequest(cmd.storeApproval))
          reject("bad_request");
      },
    ),
    run: completeCheckout,
  } satisfies CommandSpec<CompleteCheckoutCommand>,

  storeApprovePurchase: {
    update: storeApprovePurchaseUpdate,
    validate: allowed<StoreDecisionCommand>(
      "receiver",
      [BUY_STATES.STORE_APPROVE_PURCHASE],
      requireStoreDecider,
    ),
    run: storeApprove,
  } satisfies CommandSpec<StoreDecisionCommand>,

  storeDeclinePurchase: {
    update: storeDeclinePurchaseUpdate,
    validate: allowed<StoreDecisionCommand>(
      "receiver",
      [BUY_STATES.STORE_APPROVE_PURCHASE],
      requireStoreDecider,
    ),
    run: storeDecline,
  } satisfies CommandSpec<StoreDecisionCommand>,

  declineCheckout: {
    update: declineCheckoutUpdate,
    validate: allowed<DeclineCheckoutCommand>(
      "receiver",
      [BUY_STATES.COMPLETE_ORDER_CHECKOUT],
      (m, cmd) => {
        if (m.kind !== "for_request") reject("wrong_state");
        if (
          !isChoice(BUYER_DECLINE_REASONS, cmd.reason) ||
          cmd.reason === BUYER_DECLINE_DEFAULT_REASON
        )
          reject("decline_reason_required");
      },
    ),
    *run(m, cmd, ctx) {
      m.reasons.receiver_decline_checkout_reason = cmd.reason;
      yield* declineWith(
        m,
        ctx,
        [[ACTION.RECEIVER_DECLINE_CHECKOUT, "receiver"]],
        ["provider"],
        "declined",
      );
      return commandResult(m);
    },
  } satisfies CommandSpec<DeclineCheckoutCommand>,

  approveSale: {
    update: approveSaleUpdate,
    validate: allowed<ApproveSaleCommand>("provider", NEGOTIATING_SELLER),
    *run(m, cmd, ctx) {
      const facts = yield* approvalFacts(m, m.requested);
      if (!facts.cardOnFile) return yield* askForCard(m, ctx, { kind: "approve" });
      return yield* continueApproval(m, ctx, cmd.confirmDeclineOthers === true, facts.conflicts);
    },
  } satisfies CommandSpec<ApproveSaleCommand>,

  addPaymentMethod: {
    update: addPaymentMethodUpdate,
    validate: allowed<AddPaymentMethodCommand>("provider", [BUY_STATES.PAYMENT], (_m, cmd) =>
      requireCard(cmd.paymentMethod),
    ),
    run: addPaymentMethod,
  } satisfies CommandSpec<AddPaymentMethodCommand>,

  modifySale: {
    update: modifySaleUpdate,
    validate: allowed<ModifySaleCommand>(
      "provider",
      [BUY_STATES.PROVIDER_APPROVE_SALE],
      (m, cmd) => void modificationOf(m, cmd.lines),
    ),
    *run(m, cmd, ctx) {
      const lines = modificationOf(m, cmd.lines);
      const facts = yield* approvalFacts(m, lines);
      if (!facts.cardOnFile) return yield* askForCard(m, ctx, { kind: "modify", lines });
      return yield* continueModify(
        m,
        ctx,
        lines,
        cmd.confirmDeclineOthers === true,
        facts.conflicts,
      );
    },
  } satisfies CommandSpec<ModifySaleCommand>,

  declineSale: {
    update: declineSaleUpdate,
    validate: allowed<DeclineSaleCommand>("provider", NEGOTIATING_SELLER, (_m, cmd) => {
      if (!isChoice(SELLER_DECLINE_REASONS, cmd.reason)) reject("decline_reason_required");
    }),
    *run(m, cmd, ctx) {
      m.reasons.provider_decline_buy_reason = cmd.reason;
      yield* declineWith(
        m,
        ctx,
        [[ACTION.PROVIDER_DECLINE_SALE, "provider"]],
        ["receiver"],
        "declined",
      );
      const unavailable = isUnitUnavailableReason(cmd.reason);
      return commandResult(
        m,
        "ok",
        unavailable
          ? { redirectTo: BUY_REDIRECTS.activeListings, message: BUY_MESSAGES.updateYourListings }
          : {},
      );
    },
  } satisfies CommandSpec<DeclineSaleCommand>,

  approveModifiedPurchase: {
    update: approveModifiedPurchaseUpdate,
    validate: allowed<ApproveModifiedPurchaseCommand>("receiver", [
      BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
    ]),
    run: approveModified,
  } satisfies CommandSpec<ApproveModifiedPurchaseCommand>,

  declineModifiedPurchase: {
    update: declineModifiedPurchaseUpdate,
    validate: allowed<DeclineModifiedPurchaseCommand>(
      "receiver",
      [BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE],
      (_m, cmd) => {
        if (
          cmd.reason !== undefined &&
          cmd.reason !== null &&
          !isChoice(BUYER_DECLINE_REASONS, cmd.reason)
        )
          reject("decline_reason_required");
      },
    ),
    *run(m, cmd, ctx) {
      m.reasons.receiver_decline_modified_purchase_reason =
        cmd.reason ?? BUYER_DECLINE_DEFAULT_REASON;
      yield* declineWith(
        m,
        ctx,
        [[ACTION.RECEIVER_DECLINE_MODIFIED_PURCHASE, "receiver"]],
        ["provider"],
        "declined",
      );
      return commandResult(m);
    },
  } satisfies CommandSpec<DeclineModifiedPurchaseCommand>,

  cancelShipment: {
    update: cancelShipmentUpdate,
    validate: allowed<CancelShipmentCommand>("provider", [...SHIPPING], (m, cmd) => {
      if (scanQueued(m)) reject("wrong_state");
      requireCancelReason(cmd.reason);
    }),
    *run(m, cmd, ctx) {
      m.reasons.provider_cancel_shipment_reason = cmd.reason;
      yield* cancelAfterCapture(m, ctx, "shipment_cancelled", [
        [ACTION.SHIPMENT_CANCELLED, "provider"],
      ]);
      return commandResult(m);
    },
  } satisfies CommandSpec<CancelShipmentCommand>,

  staffBookPickup: {
    update: staffBookPickupUpdate,
    validate: (m, _cmd, now) => {
      requireState(m, now, ...SHIPPING);
      if (scanQueued(m)) reject("wrong_state");
    },
    *run(m, cmd, ctx) {
      // A repeat of a command already served (the call tag it replaces is gone): nothing booked twice.
      if (m.shipment?.callTag !== cmd.replacesCallTag) return commandResult(m);
      yield* bookPickup(m, ctx);
      yield* record(m, ctx, [[ACTION.CALL_TAG_BOOKED_BY_STAFF_ORDER, "system"]]);
      return commandResult(m);
    },
  } satisfies CommandSpec<StaffBookPickupCommand>,

  confirmReceived: {
    update: confirmReceivedUpdate,
    validate: allowed<ConfirmReceivedCommand>("receiver", [COMMON_STATES.DELIVERED], (m) => {
      if (m.receivedConfirmed) reject("wrong_state");
    }),
    *run(m, _cmd, ctx) {
      m.receivedConfirmed = true;
      yield* record(m, ctx, [[ACTION.RECEIVER_CONFIRM_ORDER, "receiver"]]);
      return commandResult(m);
    },
  } satisfies CommandSpec<ConfirmReceivedCommand>,

  rateOrder: {
    update: rateOrderUpdate,
    validate: allowed<RateOrderCommand>("receiver", [COMMON_STATES.DELIVERED], requireValidRating),
    run: rateOrder,
  } satisfies CommandSpec<RateOrderCommand>,
};

export type BuyCommandName = keyof typeof BUY_COMMANDS;

// --- what happens without a command: the opening write, queued events, deadlines ------------------------

/** The first step: the order's opening write (a requestor learns of the offer by e-mail; a buyer is at checkout). */
export function* openOrder(m: BuyModel, ctx: StepContext): Step {
  if (m.kind === "for_request") {
    yield* record(
      m,
      ctx,
      [[ACTION.ORDER_CREATED_FOR_REQUEST, "provider"]],
      [["receiver", "checkout_needed", m.deadlines.checkoutBy]],
    );
  } else if (m.kind === "from_offer") {
    yield* openFromOffer(m, ctx);
  } else {
    yield* record(m, ctx, []);
  }
}

/**
 * An accepted offer (docs/product/offers.md): the acceptance was the seller's approval and the offer's hold is
 * the authorisation, so the order opens by capturing against it and goes on to shipping as any approved
 * purchase; units another order took meanwhile decline it, and a failed capture releases the hold and declines.
 */
function* openFromOffer(m: BuyModel, ctx: StepContext): Step {
  yield* record(m, ctx, [[ACTION.CHECKOUT_COMPLETED, "receiver"]]);
  const outcome = yield* finalizeApproval(m, ctx, m.requested, [
    [ACTION.PROVIDER_APPROVE_SALE, "provider"],
  ]);
  if (outcome === "units_unavailable") yield* declineForOtherOrder(m, ctx);
  else if (outcome === "payment_failed")
    yield* declineWith(m, ctx, [], ["receiver", "provider"], "declined");
}

function* onCarrierEvent(m: BuyModel, ctx: StepContext, ev: CarrierEventSignal): Step {
  if (SHIPPING.includes(m.statename) && isScan(ev.status)) {
    m.statename = COMMON_STATES.IN_ROUTE;
    m.deadlines.pickupBy = null;
    yield* record(m, ctx, [[ACTION.SHIPMENT_PICKED_UP, "carrier"]]);
    const amount = payoutForLines(m.approvedLines as OrderLine[]);
    const payout = yield* pay(m, "payout", "releaseSellerPayout", BUY_STEPS.payout, {
      orderId: m.orderId,
      retailerId: m.providerId,
      amountCents: amount,
    });
    m.ledger.push({ kind: "payout", amountCents: amount });
    m.payoutReleasedAt = payout.releasedAt;
    yield* record(m, ctx, [[ACTION.PAYOUT_RELEASED, "system"]], [["provider", "payout_released"]]);
  }
  if (m.statename === COMMON_STATES.IN_ROUTE && ev.status === "delivered") {
    const now = ctx.now();
    const windows = deliveryWindows(now, m);
    m.statename = COMMON_STATES.DELIVERED;
    m.deliveredAt = now;
    m.rmaOpen = true;
    m.deadlines.rmaBy = windows.rmaBy;
    m.deadlines.ratingBy = windows.ratingBy;
    yield* record(
      m,
      ctx,
      [[ACTION.SHIPMENT_DELIVERED, "carrier"]],
      [["receiver", "rate_order", m.deadlines.ratingBy]],
    );
  }
}

/**
 * The next queued piece of work (another order took the units, a payment event, a carrier event), as a step
 * the driver runs alone; null when there is none.
 */
export function nextQueuedStep(m: BuyModel, ctx: StepContext): Step | null {
  if (m.unitsTakenBy !== null) {
    const by = m.unitsTakenBy;
    m.unitsTakenBy = null;
    if (NEGOTIATION.includes(m.statename)) {
      return (function* () {
        ctx.log("info", "units taken by another order", { workflowId: m.workflowId, by });
        yield* declineForOtherOrder(m, ctx);
      })();
    }
  }
  const pay = m.paymentQueue.shift();
  if (pay) {
    return (function* () {
      yield* call(
        "recordPaymentEvent",
        {
          orderId: m.orderId,
          eventId: pay.eventId,
          type: pay.type,
          paymentRef: pay.paymentRef,
          occurredAt: pay.occurredAt,
        },
        "local",
      );
    })();
  }
  if (m.statename === COMMON_STATES.DELIVERED || isTerminalState(m.statename))
    m.carrierQueue.length = 0;
  if (
    m.carrierQueue.length > 0 &&
    (SHIPPING.includes(m.statename) || m.statename === COMMON_STATES.IN_ROUTE)
  ) {
    const ev = m.carrierQueue.shift() as CarrierEventSignal;
    return onCarrierEvent(m, ctx, ev);
  }
  return null;
}

/** Delivered: close the RMA window at 48 h; complete when rated (or the rating window closed) and it is shut. */
export function* settleDelivered(m: BuyModel, ctx: StepContext): Step {
  if (m.statename !== COMMON_STATES.DELIVERED) return;
  const now = ctx.now();
  const codes: Codes = [];
  let changed = false;
  if (m.rmaOpen && m.deadlines.rmaBy !== null && now >= m.deadlines.rmaBy) {
    m.rmaOpen = false;
    changed = true;
  }
  if (!m.rmaOpen && !m.rating && m.deadlines.ratingBy !== null && now >= m.deadlines.ratingBy)
    codes.push([ACTION.RATING_WINDOW_CLOSED, "system"]);
  if (!m.rmaOpen && (m.rating || codes.length > 0)) {
    m.statename = COMMON_STATES.COMPLETED;
    codes.push([ACTION.ORDER_COMPLETED, "system"]);
  }
  if (changed || codes.length > 0) yield* record(m, ctx, codes);
}

/** The current state's deadline has passed. */
export function* onDeadline(m: BuyModel, ctx: StepContext): Step {
  switch (m.statename) {
    case BUY_STATES.COMPLETE_ORDER_CHECKOUT: {
      m.reasons.system_reason = SYSTEM_REASON.CHECKOUT_NOT_COMPLETED;
      const released = yield* releaseAuthorization(m, "expired");
      m.statename = COMMON_STATES.EXPIRED;
      m.deadlines.checkoutBy = null;
      const code =
        m.kind === "for_request" ? ACTION.REQUEST_CHECKOUT_EXPIRED : ACTION.CHECKOUT_EXPIRED;
      yield* record(
        m,
        ctx,
        released
          ? [
              [code, "system"],
              [ACTION.AUTHORIZATION_RELEASED, "system"],
            ]
          : [[code, "system"]],
        [[m.kind === "for_request" ? "provider" : "receiver", "order_expired"]],
      );
      return;
    }
    case BUY_STATES.STORE_APPROVE_PURCHASE:
      yield* storeApprovalExpired(m, ctx);
      return;
    case BUY_STATES.PROVIDER_APPROVE_SALE:
    case BUY_STATES.PAYMENT:
      m.reasons.system_reason = SYSTEM_REASON.NOT_ANSWERED_IN_TIME;
      yield* declineWith(
        m,
        ctx,
        [[ACTION.SELLER_RESPONSE_EXPIRED, "system"]],
        ["receiver", "provider"],
        "expired",
      );
      return;
    case BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE:
      m.reasons.system_reason = SYSTEM_REASON.NOT_ANSWERED_IN_TIME;
      yield* declineWith(
        m,
        ctx,
        [[ACTION.MODIFIED_PURCHASE_EXPIRED, "system"]],
        ["provider"],
        "expired",
      );
      return;
    case BUY_STATES.SHIP_ORDER:
    case BUY_STATES.SHIP_ORDER_TRY2:
      yield* onMissedPickup(m, ctx);
      return;
    case COMMON_STATES.DELIVERED:
      yield* settleDelivered(m, ctx);
      return;
  }
}

/**
 * The workflow was cancelled (a draft withdrawn from the cart, or by staff): release an uncaptured
 * authorisation. A draft still in checkout may already be gone from the database, so it is not written.
 */
export function* afterCancellation(m: BuyModel, ctx: StepContext): Step {
  if (!NEGOTIATION.includes(m.statename)) {
    ctx.log("error", "buy workflow cancelled after capture: settle by hand", {
      workflowId: m.workflowId,
      statename: m.statename,
    });
    return;
  }
  const released = yield* releaseAuthorization(m, "cancelled");
  if (m.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT && !released) return;
  m.statename = COMMON_STATES.DECLINED;
  yield* record(m, ctx, released ? [[ACTION.AUTHORIZATION_RELEASED, "system"]] : []);
}

/** Whether the order has reached an end (the driver's loop stops). */
export const isFinished = (m: BuyModel): boolean => isTerminalState(m.statename);

/** Delivered: the windows that ended are closed before the order waits again. */
const settle = (m: BuyModel, ctx: StepContext): Step | null =>
  m.statename === COMMON_STATES.DELIVERED ? settleDelivered(m, ctx) : null;

/** The buy order's machine (workflows/common/steps.ts Machine), as the driver runs it. */
export const buyMachine: Machine<BuyModel, BuyOrderInput> = {
  newModel: createBuyModel,
  searchFacts: buySearchFacts,
  acceptCarrierEvent,
  open: openOrder,
  isFinished,
  deadline,
  onDeadline,
  nextQueuedStep,
  settle,
  afterCancellation,
};

/** What the workflow returns when it ends. */
export function buyResult(m: BuyModel): BuyOrderResult {
  return { statename: m.statename, displayStatus: displayStatus(m), ledger: orderLedger(m.ledger) };
}

/**
 * The swap order's steps (pure; effects yielded to the shared driver), after docs/product/orders.md
 * "Swap" and ADR 0019/0021:
 *
 *   complete_order_checkout --receiver checks out (pre-authorised: fee + shipping of what it receives), 210-->
 *   (over the placer's limit: 232 --> store_approve_purchase --the store approves (233, 210)--> | --declines (234)
 *    --> declined | --2 business days (308, 813)--> cancelled; docs/product/teams.md)
 *   provider_choose_items --provider chooses from the receiver's swap listings (211)--> provider_approve
 *   (the provider may choose again while the swap waits on its approval)
 *   provider_approve / receiver_approve: the side whose turn it is modifies (lowers, raises up to what the
 *     listing still has, adds a listing of the side whose goods it is, removes: ADR 0025; the turn passes), approves
 *     (212 / 213, optionally calling it even; the second approval of the same terms opens payment, 810) or
 *     declines: over money (61) -> swap_declined_by_{role}_money: the other side calls it even (-> payment) or
 *     accepts the decline; any other reason -> declined. Each turn has 5 calendar days.
 *   payment (1 day): each side pays its due (cash + 5% of the larger value + shipping of what it receives);
 *     both paid -> stock of both sides taken at once (214) -> a call tag per side (910) -> ship_swap
 *   ship_swap --2 business days--> unscanned sides rebooked (911) -> ship_swap_try2 --2 more--> a side still
 *     unscanned did not ship (115 provider / 116 receiver): it pays its goods' value, paid out to the other
 *     side, whose fee and shipping are refunded; both failed -> each settled so in turn, the cash difference
 *     refunded to its payer, cancelled.
 *   every live parcel scanned -> in_route (the cash difference paid out to the side it was meant for);
 *   delivered -> the side that received rates within 3 business days (230 / 231), RMA within 48 h;
 *   completed (390) when every window has closed.
 */
import type { SwapActivities, SwapStateRecord } from "./activities";
import { ACTION } from "../../domain/action-codes";
import { WINDOWS } from "../../domain/business-days";
import {
  checkOrderLines,
  orderLineKey,
  orderQuote,
  orderUnits,
  type OrderLine,
} from "../../domain/order-money";
import { SWAP_DECLINE_REASONS, SYSTEM_REASON, isChoice } from "../../domain/reasons";
import {
  BUY_STATES,
  COMMON_STATES,
  SWAP_STATES,
  displayStatusFor,
  type Role,
  type ShipmentStatus,
} from "../../domain/states";
import {
  isStoreApprovalRequest,
  type CarrierEventSignal,
  type StaffBookPickupCommand,
  type StoreApprovalRequest,
  type StoreDecisionCommand,
} from "../common/contract";
import { TEAM_MSG, storeApprovalDeadline, storeApprovalMessage } from "../../domain/teams";
import { isPaymentMethod, ratingOf, ratingRefusal, storeDecisionRefusal } from "../common/guards";
import {
  PICKUP_ATTEMPTS,
  bookParcel,
  deliveryWindows,
  missedPickup,
  newParcel,
  pickupWindowEnd,
  staffPickup,
  takeDelivery,
  takeScan,
  type Parcel,
} from "../common/parcel";
import { payments } from "../common/payments";
import {
  isoDeadlines,
  nextKey,
  noticeDedupeKey,
  stepRecord,
  type Codes as StepCodes,
} from "../common/record";
import { caller, type Command, type Machine, type Step, type StepContext } from "../common/steps";
import {
  SWAP_SOLD_OUT_MESSAGE,
  SWAP_STEPS,
  acceptDeclineUpdate,
  approveSwapUpdate,
  callItEvenUpdate,
  cancelSwapShipmentUpdate,
  chooseItemsUpdate,
  confirmSwapReceivedUpdate,
  declineSwapUpdate,
  makePaymentUpdate,
  modifySwapUpdate,
  rateSwapUpdate,
  staffBookSwapPickupUpdate,
  storeApproveSwapUpdate,
  storeDeclineSwapUpdate,
  swapCheckoutUpdate,
  type ApproveSwapCommand,
  type CancelSwapShipmentCommand,
  type ChooseItemsCommand,
  type DeclineSwapCommand,
  type LastChanceCommand,
  type MakePaymentCommand,
  type ModifySwapCommand,
  type RateSwapCommand,
  type SwapActionRecord,
  type SwapCheckoutCommand,
  type SwapCommandResult,
  type SwapInput,
} from "./contract";
import {
  ROLES,
  acceptCarrierEvent,
  actionNeeded,
  createSwapModel,
  deadline,
  isFinished,
  other,
  partyId,
  reject,
  requireTurn,
  roleOf,
  senderOf,
  swapSearchFacts,
  swapView,
  valuationOf,
  type State,
  type SwapModel,
} from "./model";

const call = caller<SwapActivities>();
const pay = payments<SwapActivities>();
type Codes = StepCodes<SwapActionRecord["role"]>;
type Notice = [Role, string];

/** The decline reason that is about money ("The value difference is too large"): it opens the last chance. */
export const MONEY_DECLINE_REASON = 61;
const NEGOTIATION_TURNS: readonly State[] = [
  SWAP_STATES.PROVIDER_APPROVE,
  SWAP_STATES.RECEIVER_APPROVE,
];

/** A step done for one side: its own attempts and keys (`swap-refund:provider`). */
const sideStep = (step: string, side: Role): string => `${step}:${side}`;

function result(m: SwapModel, extra: Partial<SwapCommandResult> = {}): SwapCommandResult {
  return { statename: m.statename, displayStatus: displayStatusFor("swap", m.statename), ...extra };
}

/** A parcel in the read model's words. */
function parcelStatus(p: Parcel | null): ShipmentStatus | null {
  if (!p) return null;
  if (p.failed) return "cancelled";
  if (p.delivered) return "delivered";
  return p.scanned ? "in_route" : "pickup_scheduled";
}

function* record(m: SwapModel, ctx: StepContext, codes: Codes, notices: Notice[] = []): Step {
  const at = new Date(ctx.now()).toISOString();
  const { actions, sequence } = stepRecord(
    m,
    codes,
    at,
    (code, role, when): SwapActionRecord => ({ code, role, statename: m.statename, at: when }),
  );
  const v = valuationOf(m);
  const rec: SwapStateRecord = {
    orderId: m.orderId,
    workflowId: m.workflowId,
    externalId: m.externalId,
    providerId: m.providerId,
    receiverId: m.receiverId,
    sequence,
    statename: m.statename,
    isModified: m.isModified,
    displayStatus: displayStatusFor("swap", m.statename),
    actionNeeded: actionNeeded(m),
    providerLines: m.side.provider.lines,
    receiverLines: m.side.receiver.lines,
    callItEven: { provider: m.side.provider.callItEven, receiver: m.side.receiver.callItEven },
    dues: { provider: v.provider.totalDueCents, receiver: v.receiver.totalDueCents },
    reasons: { ...m.reasons },
    deadlines: isoDeadlines(m.deadlines),
    sides: {
      provider: {
        parcel: parcelStatus(m.side.provider.parcel),
        ...isoDeadlines({ ratingBy: m.side.provider.ratingBy, rmaBy: m.side.provider.rmaBy }),
      },
      receiver: {
        parcel: parcelStatus(m.side.receiver.parcel),
        ...isoDeadlines({ ratingBy: m.side.receiver.ratingBy, rmaBy: m.side.receiver.rmaBy }),
      },
    },
    actions,
    ...(m.approvedByUserId !== null ? { approvedByUserId: m.approvedByUserId } : {}),
    view: swapView(m, false),
    notices: notices.map(([role, template]) => ({
      role,
      template,
      dedupeKey: noticeDedupeKey(m.workflowId, template, role, sequence),
    })),
  };
  yield* call("recordSwapState", rec, "local");
}

function* releaseAuthorization(m: SwapModel): Step {
  if (!m.authorization) return;
  const auth = m.authorization;
  m.authorization = null;
  yield* pay(m, "release", "releaseSwapAuthorization", SWAP_STEPS.release, {
    orderId: m.orderId,
    paymentIntentId: auth.paymentIntentId,
  });
}

/**
 * Refunds `amount` of a side's payment, capped at what is left of it; each refund is the side's next attempt
 * (its own key): a side may get its fee and shipping back, then its cash when both sides failed.
 */
function* refund(m: SwapModel, r: Role, amountCents: number): Step {
  const p = m.side[r].payment;
  const amount = p ? Math.min(amountCents, p.amountCents - (p.refundedCents ?? 0)) : 0;
  if (!p || amount <= 0) return;
  yield* pay(m, "refund", "refundSwapSide", sideStep(SWAP_STEPS.refund, r), {
    orderId: m.orderId,
    paymentIntentId: p.paymentIntentId,
    amountCents: amount,
  });
  p.refundedCents = (p.refundedCents ?? 0) + amount;
}

function* payOut(m: SwapModel, r: Role, amountCents: number): Step {
  if (amountCents <= 0) return;
  yield* pay(m, "payout", "payOutSwapSide", sideStep(SWAP_STEPS.payout, r), {
    orderId: m.orderId,
    retailerId: partyId(m, r),
    amountCents,
  });
}

/** Ends the swap before shipping: the authorisation released, every payment refunded in full. */
function* endDeclined(m: SwapModel, ctx: StepContext, codes: Codes): Step {
  yield* releaseAuthorization(m);
  for (const r of ROLES) yield* refund(m, r, m.side[r].payment?.amountCents ?? 0);
  m.statename = COMMON_STATES.DECLINED;
  m.deadlines.turnBy = m.deadlines.paymentBy = null;
  yield* record(m, ctx, codes, [
    ["provider", "swap_declined"],
    ["receiver", "swap_declined"],
  ]);
}

/**
 * Checked out over the placer's limit: the receiver's store approves first, within 2 business days (never past
 * the pre-authorisation's life; docs/product/teams.md, "Limits and approval"); the provider hears of the swap only
 * then.
 */
function* awaitStore(
  m: SwapModel,
  ctx: StepContext,
  ask: StoreApprovalRequest,
): Step<SwapCommandResult> {
  const now = ctx.now();
  m.storeApproval = { ...ask };
  m.statename = BUY_STATES.STORE_APPROVE_PURCHASE;
  m.deadlines.storeApprovalBy = storeApprovalDeadline(now, m);
  yield* record(
    m,
    ctx,
    [[ACTION.STORE_APPROVAL_REQUESTED, "receiver"]],
    [["receiver", "swap_store_approval_needed"]],
  );
  return result(m, { message: storeApprovalMessage(ask, "swap"), redirectTo: "/orders" });
}

/** The receiver's store's decision: a person of the store (not the provider), and not the one who placed it. */
function storeDecider(m: SwapModel, cmd: StoreDecisionCommand, now: number): void {
  const role = requireTurn(m, cmd, now, [BUY_STATES.STORE_APPROVE_PURCHASE]);
  const refused =
    role === "receiver" ? storeDecisionRefusal(m.storeApproval, cmd.actorUserId) : "wrong_party";
  if (refused) reject(refused);
}

/** Nobody of the receiver's store answered in time: cancelled, the authorisation released (308, 813). */
function* storeApprovalExpired(m: SwapModel, ctx: StepContext): Step {
  m.reasons.system_reason = SYSTEM_REASON.NOT_APPROVED_BY_STORE;
  m.deadlines.storeApprovalBy = null;
  yield* releaseAuthorization(m);
  m.statename = COMMON_STATES.CANCELLED;
  yield* record(
    m,
    ctx,
    [
      [ACTION.STORE_APPROVAL_EXPIRED, "system"],
      [ACTION.AUTHORIZATION_RELEASED, "system"],
    ],
    [["receiver", "swap_store_approval_expired"]],
  );
}

function startTurn(m: SwapModel, ctx: StepContext, state: State): void {
  m.statename = state;
  m.deadlines.turnBy = ctx.now() + WINDOWS.sellerResponse;
}

function* openPayment(m: SwapModel, ctx: StepContext, codes: Codes): Step {
  m.statename = SWAP_STATES.PAYMENT;
  m.deadlines.turnBy = null;
  m.deadlines.paymentBy = ctx.now() + WINDOWS.modifiedPurchaseResponse;
  yield* record(
    m,
    ctx,
    [...codes, [ACTION.PAYMENT, "system"]],
    [
      ["provider", "swap_payment_needed"],
      ["receiver", "swap_payment_needed"],
    ],
  );
}

/** Both paid: every swapped unit taken at once, then a call tag for each side. */
function* confirmAndShip(m: SwapModel, ctx: StepContext): Step {
  const all = [...m.side.provider.lines, ...m.side.receiver.lines];
  const stock = yield* call(
    "decrementSwapStock",
    { idempotencyKey: nextKey(m, SWAP_STEPS.decrementStock), orderId: m.orderId, lines: all },
    "local",
  );
  if (!stock.ok) {
    // A listing sold out meanwhile: the swap is declined ("The units are no longer available").
    m.reasons.units_unavailable_reason = 62;
    return yield* endDeclined(m, ctx, [[ACTION.CONFIRM_SWAP_ITEMS, "system"]]);
  }
  m.deadlines.paymentBy = null;
  m.deadlines.pickupBy = pickupWindowEnd(ctx.now(), m);
  for (const r of ROLES) yield* book(m, r);
  m.statename = SWAP_STATES.SHIP_SWAP;
  yield* record(
    m,
    ctx,
    [
      [ACTION.CONFIRM_SWAP_ITEMS, "system"],
      [ACTION.CALL_TAG_SCHEDULED_SWAP, "system"],
    ],
    [
      ["provider", "swap_ready_for_pickup"],
      ["receiver", "swap_ready_for_pickup"],
    ],
  );
}

/** Books the pickup of the parcel side `r` sends (workflows/common/parcel.ts), by the current pickup deadline. */
function* book(m: SwapModel, r: Role): Step {
  const { booking, attempt } = yield* bookParcel<{ trackingNumber: string; callTag: string }>(
    m,
    sideStep(SWAP_STEPS.bookPickup, r),
    "bookSwapPickup",
    (n) => ({
      orderId: m.orderId,
      side: r,
      attempt: n,
      senderId: partyId(m, r),
      receiverId: partyId(m, other(r)),
      units: orderUnits(m.side[r].lines),
      pickupBy: new Date(m.deadlines.pickupBy as number).toISOString(),
    }),
  );
  m.side[r].parcel = newParcel(booking, attempt);
}

// --- commands -------------------------------------------------------------------------------------------

/** The side whose parcel carries the call tag staff's "Schedule pickup" names, if any. */
const staffPickupSide = (m: SwapModel, cmd: StaffBookPickupCommand | undefined): Role | undefined =>
  ROLES.find((r) => cmd && m.side[r].parcel?.callTag === cmd.replacesCallTag);

/** The most units of one size a modification may ask for (the form's whole numbers, 0-9999). */
const MAX_UNITS = 9999;

/**
 * A side's goods as a modification wants them (ADR 0025): each wanted line is a line of the side (any
 * quantity: a raise is checked against its listing when the step runs) or a new line from a listing; a line
 * left out is removed. New lines take no price from the command (`unitPriceCents` 0 until the step reads it).
 */
function linesFrom(current: OrderLine[], wanted: ModifySwapCommand["providerLines"]): OrderLine[] {
  if (wanted === undefined) return current;
  if (!Array.isArray(wanted)) reject("invalid_units");
  const byKey = new Map(current.map((l) => [orderLineKey(l), l]));
  const seen = new Set<string>();
  const out: OrderLine[] = [];
  for (const w of wanted) {
    if (!w || typeof w !== "object" || !w.sizes || typeof w.sizes !== "object")
      reject("invalid_units");
    const key = lineKeyOf(w);
    if (seen.has(key)) reject("invalid_units");
    seen.add(key);
    const line = byKey.get(key);
    if (!line && !(Number.isSafeInteger(w.listingId) && (w.listingId as number) > 0))
      reject("invalid_units");
    const sizes: Record<string, number> = {};
    for (const [size, n] of Object.entries(w.sizes)) {
      if (!Number.isSafeInteger(n) || n < 0 || n > MAX_UNITS || size.length > 20)
        reject("invalid_units");
      if (n > 0) sizes[size] = n;
    }
    if (!Object.keys(sizes).length) continue;
    out.push(
      line
        ? { ...line, sizes }
        : { listingId: w.listingId, variationId: w.variationId, sizes, unitPriceCents: 0 },
    );
  }
  if (out.length === 0) reject("invalid_units");
  return out;
}

/** A wanted line's key, or invalid_units (neither a listing nor a variation). */
function lineKeyOf(w: { listingId: number | null; variationId?: number | null }): string {
  try {
    return orderLineKey(w);
  } catch {
    return reject("invalid_units");
  }
}

function modification(
  m: SwapModel,
  cmd: ModifySwapCommand,
): { provider: OrderLine[]; receiver: OrderLine[] } {
  const provider = linesFrom(m.side.provider.lines, cmd.providerLines);
  const receiver = linesFrom(m.side.receiver.lines, cmd.receiverLines);
  if (
    JSON.stringify(provider) === JSON.stringify(m.side.provider.lines) &&
    JSON.stringify(receiver) === JSON.stringify(m.side.receiver.lines)
  )
    reject("unchanged");
  return { provider, receiver };
}

/** Units of one size (an own entry only: a size named like an Object member is no units). */
const unitsOf = (sizes: Record<string, number> | undefined, size: string): number =>
  sizes && Object.hasOwn(sizes, size) && typeof sizes[size] === "number" ? sizes[size] : 0;

/** The lines of `next` that ask for more than `current` had of some size (raised, or added), with what they ask. */
function grown(current: OrderLine[], next: OrderLine[]): OrderLine[] {
  const before = new Map(current.map((l) => [orderLineKey(l), l.sizes]));
  return next.filter((l) =>
    Object.entries(l.sizes).some(([size, n]) => n > unitsOf(before.get(orderLineKey(l)), size)),
  );
}

/**
 * Stock checked again when the step runs (ADR 0025): every raised or added line must be an active swap
 * listing of the side whose goods it is, with at least the units asked for of each size (units that ran out
 * since the page was shown: units_unavailable, nothing changed). An added line takes its listing's variation
 * and unit price. Lowering and removing read nothing.
 */
function* checkListed(
  m: SwapModel,
  next: Record<Role, OrderLine[]>,
): Step<Record<Role, OrderLine[]>> {
  const asked = ROLES.flatMap((r) => grown(m.side[r].lines, next[r]).map((l) => ({ r, l })));
  if (asked.length === 0) return next;
  if (asked.some(({ l }) => l.listingId === null)) reject("invalid_units");
  const listingIds = [...new Set(asked.map(({ l }) => l.listingId as number))].sort(
    (a, b) => a - b,
  );
  const listed = yield* call("swapListedUnits", { orderId: m.orderId, listingIds }, "local");
  const byId = new Map(listed.map((x) => [x.listingId, x]));
  for (const { r, l } of asked) {
    const x = byId.get(l.listingId as number);
    if (!x || !x.swappable || x.retailerId !== partyId(m, r)) reject("units_unavailable");
    if (Object.entries(l.sizes).some(([size, n]) => n > unitsOf(x.sizes, size)))
      reject("units_unavailable");
  }
  const priced = (r: Role) =>
    next[r].map((l) => {
      const x = l.unitPriceCents === 0 && l.listingId !== null ? byId.get(l.listingId) : undefined;
      return x && !m.side[r].lines.some((c) => orderLineKey(c) === orderLineKey(l))
        ? { ...l, variationId: x.variationId, unitPriceCents: x.unitPriceCents }
        : l;
    });
  return { provider: priced("provider"), receiver: priced("receiver") };
}

const TURN_STATE: Record<Role, State> = {
  provider: SWAP_STATES.PROVIDER_APPROVE,
  receiver: SWAP_STATES.RECEIVER_APPROVE,
};
const APPROVE_CODE: Record<Role, number> = {
  provider: ACTION.PROVIDER_APPROVE_SWAP,
  receiver: ACTION.RECEIVER_APPROVE_SWAP,
};
const MONEY_DECLINE_STATE: Record<Role, State> = {
  provider: SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY,
  receiver: SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY,
};

/** The last chance after a decline over money: only the side whose turn it is, before its window closes. */
function lastChanceTurn(m: SwapModel, cmd: LastChanceCommand, now: number): void {
  requireTurn(m, cmd, now, [
    SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY,
    SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY,
  ]);
}

export const SWAP_COMMANDS = {
  completeCheckout: {
    update: swapCheckoutUpdate,
    validate(m, cmd, now) {
      requireTurn(m, cmd, now, [BUY_STATES.COMPLETE_ORDER_CHECKOUT]);
      if (!isPaymentMethod(cmd.paymentMethod)) reject("card_required");
      if (cmd.storeApproval != null && !isStoreApprovalRequest(cmd.storeApproval))
        reject("bad_request");
    },
    *run(m, cmd, ctx) {
      // The receiver's estimated due: the fee and the shipping of what it receives (the provider's goods).
      const v = valuationOf(m);
      const amount = v.receiver.feeCents + v.receiver.shippingCents;
      const auth = {
        orderId: m.orderId,
        retailerId: m.receiverId,
        paymentMethod: cmd.paymentMethod,
        amountCents: amount,
      };
      const r = yield* pay(m, "authorise", "authorizeSwap", SWAP_STEPS.authorize, auth);
      if (r.status === "declined") {
        yield* record(m, ctx, [[ACTION.CARD_DECLINED, "receiver"]]);
        return reject("card_declined");
      }
      m.authorization = { paymentIntentId: r.paymentIntentId, amountCents: amount };
      m.deadlines.checkoutBy = null;
      if (cmd.storeApproval) return yield* awaitStore(m, ctx, cmd.storeApproval);
      startTurn(m, ctx, SWAP_STATES.PROVIDER_CHOOSE_ITEMS);
      yield* record(
        m,
        ctx,
        [[ACTION.SWAP_REQUESTED, "receiver"]],
        [["provider", "swap_choose_items"]],
      );
      return result(m, { redirectTo: "/orders" });
    },
  } satisfies Command<SwapModel, SwapCheckoutCommand, SwapCommandResult>,

  storeApprovePurchase: {
    update: storeApproveSwapUpdate,
    validate: storeDecider,
    *run(m, cmd, ctx) {
      m.approvedByUserId = cmd.actorUserId;
      m.deadlines.storeApprovalBy = null;
      startTurn(m, ctx, SWAP_STATES.PROVIDER_CHOOSE_ITEMS);
      yield* record(
        m,
        ctx,
        [
          [ACTION.STORE_APPROVED, "receiver"],
          [ACTION.SWAP_REQUESTED, "receiver"],
        ],
        [["provider", "swap_choose_items"]],
      );
      return result(m, { message: TEAM_MSG.approved });
    },
  } satisfies Command<SwapModel, StoreDecisionCommand, SwapCommandResult>,

  storeDeclinePurchase: {
    update: storeDeclineSwapUpdate,
    validate: storeDecider,
    *run(m, _cmd, ctx) {
      m.deadlines.storeApprovalBy = null;
      yield* releaseAuthorization(m);
      m.statename = COMMON_STATES.DECLINED;
      yield* record(m, ctx, [[ACTION.STORE_DECLINED, "receiver"]], [["receiver", "swap_declined"]]);
      return result(m, { message: TEAM_MSG.declinedByStore });
    },
  } satisfies Command<SwapModel, StoreDecisionCommand, SwapCommandResult>,

  chooseItems: {
    update: chooseItemsUpdate,
    validate(m, cmd, now) {
      requireTurn(m, cmd, now, [SWAP_STATES.PROVIDER_CHOOSE_ITEMS, SWAP_STATES.PROVIDER_APPROVE]);
      if (!Array.isArray(cmd.lines) || !checkOrderLines(cmd.lines).ok) reject("invalid_units");
    },
    *run(m, cmd, ctx) {
      m.side.receiver.lines = cmd.lines.map((l) => ({ ...l, sizes: { ...l.sizes } }));
      for (const r of ROLES) m.side[r].approved = false;
      startTurn(m, ctx, SWAP_STATES.PROVIDER_APPROVE);
      yield* record(m, ctx, [[ACTION.PROVIDER_CHOOSES_SWAP_ITEMS, "provider"]]);
      return result(m);
    },
  } satisfies Command<SwapModel, ChooseItemsCommand, SwapCommandResult>,

  modifySwap: {
    update: modifySwapUpdate,
    validate(m, cmd, now) {
      requireTurn(m, cmd, now, NEGOTIATION_TURNS);
      modification(m, cmd);
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      const next = yield* checkListed(m, modification(m, cmd));
      m.side.provider.lines = next.provider;
      m.side.receiver.lines = next.receiver;
      for (const r of ROLES) m.side[r].approved = false;
      m.isModified = true;
      // "Submit Response": the other side answers the new terms.
      startTurn(m, ctx, TURN_STATE[other(role)]);
      yield* record(m, ctx, [], [[other(role), "swap_modified"]]);
      return result(m);
    },
  } satisfies Command<SwapModel, ModifySwapCommand, SwapCommandResult>,

  approveSwap: {
    update: approveSwapUpdate,
    validate(m, cmd, now) {
      const role = requireTurn(m, cmd, now, [
        SWAP_STATES.PROVIDER_CHOOSE_ITEMS,
        ...NEGOTIATION_TURNS,
      ]);
      if (role === "provider" && orderQuote(m.side.receiver.lines).goodsCents <= 0)
        reject("no_receiver_value");
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      m.side[role].approved = true;
      if (cmd.callItEven === true) m.side[role].callItEven = true;
      if (m.side[other(role)].approved) {
        yield* openPayment(m, ctx, [[APPROVE_CODE[role], role]]);
        return result(m);
      }
      startTurn(m, ctx, TURN_STATE[other(role)]);
      yield* record(m, ctx, [[APPROVE_CODE[role], role]], [[other(role), "swap_approve_needed"]]);
      return result(m);
    },
  } satisfies Command<SwapModel, ApproveSwapCommand, SwapCommandResult>,

  declineSwap: {
    update: declineSwapUpdate,
    validate(m, cmd, now) {
      requireTurn(m, cmd, now, [SWAP_STATES.PROVIDER_CHOOSE_ITEMS, ...NEGOTIATION_TURNS]);
      if (!isChoice(SWAP_DECLINE_REASONS, cmd.reason)) reject("decline_reason_required");
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      m.reasons[`${role}_decline_swap_reason`] = cmd.reason;
      m.declinedBy = role;
      if (
        cmd.reason === MONEY_DECLINE_REASON &&
        m.statename !== SWAP_STATES.PROVIDER_CHOOSE_ITEMS
      ) {
        // Over the money: the other side gets one last chance to call it even.
        startTurn(m, ctx, MONEY_DECLINE_STATE[role]);
        yield* record(m, ctx, [], [[other(role), "swap_call_it_even"]]);
        return result(m);
      }
      yield* endDeclined(m, ctx, []);
      return result(m);
    },
  } satisfies Command<SwapModel, DeclineSwapCommand, SwapCommandResult>,

  callItEven: {
    update: callItEvenUpdate,
    validate: lastChanceTurn,
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      m.side[role].callItEven = true;
      m.declinedBy = null;
      for (const r of ROLES) m.side[r].approved = true;
      yield* openPayment(m, ctx, [[APPROVE_CODE[role], role]]);
      return result(m);
    },
  } satisfies Command<SwapModel, LastChanceCommand, SwapCommandResult>,

  acceptDecline: {
    update: acceptDeclineUpdate,
    validate: lastChanceTurn,
    *run(m, _cmd, ctx) {
      yield* endDeclined(m, ctx, []);
      return result(m);
    },
  } satisfies Command<SwapModel, LastChanceCommand, SwapCommandResult>,

  makePayment: {
    update: makePaymentUpdate,
    validate(m, cmd, now) {
      requireTurn(m, cmd, now, [SWAP_STATES.PAYMENT]);
      if (!isPaymentMethod(cmd.paymentMethod)) reject("card_required");
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      const due = valuationOf(m)[role].totalDueCents;
      if (due > 0) {
        // The side's payment, which it waits for: a capture in the kit's words (workflows/common/payments.ts).
        const charge = {
          orderId: m.orderId,
          retailerId: partyId(m, role),
          paymentMethod: cmd.paymentMethod,
          amountCents: due,
        };
        const r = yield* pay(
          m,
          "capture",
          "chargeSwapSide",
          sideStep(SWAP_STEPS.charge, role),
          charge,
        );
        if (r.status === "declined") {
          yield* record(m, ctx, [[ACTION.CARD_DECLINED, role]]);
          return reject("card_declined");
        }
        m.side[role].payment = { paymentIntentId: r.paymentIntentId, amountCents: due };
      } else {
        m.side[role].payment = { paymentIntentId: "", amountCents: 0 };
      }
      if (role === "receiver") yield* releaseAuthorization(m);
      if (ROLES.every((r) => m.side[r].payment)) yield* confirmAndShip(m, ctx);
      else yield* record(m, ctx, [[ACTION.PAYMENT_CAPTURED, role]]);
      // A line sold out before the stock was taken (214): the payer stays on the swap and reads why.
      if (m.statename === COMMON_STATES.DECLINED)
        return result(m, { message: SWAP_SOLD_OUT_MESSAGE });
      return result(m, { redirectTo: "/orders/sentswaps/" });
    },
  } satisfies Command<SwapModel, MakePaymentCommand, SwapCommandResult>,

  cancelShipment: {
    update: cancelSwapShipmentUpdate,
    validate(m, cmd) {
      if (m.statename !== SWAP_STATES.SHIP_SWAP && m.statename !== SWAP_STATES.SHIP_SWAP_TRY2)
        reject("wrong_state");
      const p = m.side[roleOf(m, cmd)].parcel;
      if (!p || p.scanned || p.failed) reject("wrong_state");
      if (!Number.isSafeInteger(cmd.reason)) reject("cancel_reason_required");
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      m.reasons[`${role}_cancel_shipment_reason`] = cmd.reason;
      yield* failSides(m, ctx, [role]);
      return result(m);
    },
  } satisfies Command<SwapModel, CancelSwapShipmentCommand, SwapCommandResult>,

  confirmReceived: {
    update: confirmSwapReceivedUpdate,
    validate(m, cmd) {
      const role = roleOf(m, cmd);
      if (!m.side[other(role)].parcel?.delivered) reject("wrong_state");
      if (m.side[role].received) reject("already_received");
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      m.side[role].received = true;
      yield* record(m, ctx, [[ACTION.RECEIVER_CONFIRM_ORDER, role]]);
      return result(m, { message: "Thank you: the package is confirmed as received." });
    },
  } satisfies Command<SwapModel, LastChanceCommand, SwapCommandResult>,

  staffBookPickup: {
    update: staffBookSwapPickupUpdate,
    validate(m, cmd, now) {
      if (m.statename !== SWAP_STATES.SHIP_SWAP && m.statename !== SWAP_STATES.SHIP_SWAP_TRY2)
        reject("wrong_state");
      const d = deadline(m);
      if (d !== null && now >= d) reject("wrong_state");
      const r = staffPickupSide(m, cmd);
      if (r && staffPickup(m.side[r].parcel, m.carrierQueue, cmd.replacesCallTag) === "refused")
        reject("wrong_state");
    },
    *run(m, cmd, ctx) {
      // The side whose parcel carries the call tag staff saw; none: a repeat already served, nothing booked.
      const r = staffPickupSide(m, cmd);
      if (!r || staffPickup(m.side[r].parcel, m.carrierQueue, cmd.replacesCallTag) !== "book")
        return result(m);
      // The swap's one pickup window starts over, as a rebooking's does (workflows/common/parcel.ts).
      m.deadlines.pickupBy = pickupWindowEnd(ctx.now(), m);
      yield* book(m, r);
      yield* record(m, ctx, [[ACTION.CALL_TAG_BOOKED_BY_STAFF_SWAP, "system"]]);
      return result(m);
    },
  } satisfies Command<SwapModel, StaffBookPickupCommand, SwapCommandResult>,

  rateSwap: {
    update: rateSwapUpdate,
    validate(m, cmd, now) {
      const role = roleOf(m, cmd);
      const s = m.side[role];
      // A side rates the goods it received: the other side's parcel must be delivered.
      if (!m.side[other(role)].parcel?.delivered) reject("wrong_state");
      const refusal = ratingRefusal(s.rating !== null, s.ratingBy, cmd.stars, now);
      if (refusal) reject(refusal);
    },
    *run(m, cmd, ctx) {
      const role = roleOf(m, cmd);
      const { stars, comments } = ratingOf(cmd);
      const rating = {
        idempotencyKey: nextKey(m, sideStep(SWAP_STEPS.rating, role)),
        orderId: m.orderId,
        raterId: partyId(m, role),
        rateeId: partyId(m, other(role)),
        role,
        stars,
        comments,
      };
      yield* call("saveSwapRating", rating, "local");
      m.side[role].rating = { ...stars, comments };
      yield* record(m, ctx, [
        [role === "receiver" ? ACTION.RECEIVER_RATED : ACTION.PROVIDER_RATED, role],
      ]);
      return result(m, { message: "Rating saved!", redirectTo: "/" });
    },
  } satisfies Command<SwapModel, RateSwapCommand, SwapCommandResult>,
};

// --- shipping, scans, deliveries ------------------------------------------------------------------------

/**
 * The pickup window passed with parcels unscanned (workflows/common/parcel.ts): after the first booking they
 * are booked again (911), after the second those sides did not ship.
 */
function* onMissedPickup(m: SwapModel, ctx: StepContext): Step {
  const unscanned = ROLES.filter((r) => !m.side[r].parcel?.scanned && !m.side[r].parcel?.failed);
  // The state says which booking the window was: ship_swap the first, ship_swap_try2 the second.
  if (missedPickup(m.statename === SWAP_STATES.SHIP_SWAP ? 1 : PICKUP_ATTEMPTS) === "rebook") {
    m.deadlines.pickupBy = pickupWindowEnd(ctx.now(), m);
    for (const r of unscanned) yield* book(m, r);
    m.statename = SWAP_STATES.SHIP_SWAP_TRY2;
    yield* record(
      m,
      ctx,
      [[ACTION.CALL_TAG_RESCHEDULED_SWAP, "system"]],
      unscanned.map((r): Notice => [r, "swap_pickup_rescheduled"]),
    );
    return;
  }
  m.deadlines.pickupBy = null;
  yield* failSides(m, ctx, unscanned);
}

const NON_SHIPMENT: Record<Role, number> = {
  provider: ACTION.PROVIDER_SWAP_NON_SHIPMENT,
  receiver: ACTION.RECEIVER_SWAP_NON_SHIPMENT,
};

/**
 * Sides that did not ship, each on its own in turn (docs/product/money.md, "Swap settlement"; ADR 0037): it
 * pays the value of its goods (card on file), paid out to the other side, whose fee and shipping are refunded.
 * Once both have failed, the cash difference (never paid out: no parcel was scanned) goes back to its payer
 * and the swap is cancelled.
 */
function* failSides(m: SwapModel, ctx: StepContext, failing: Role[]): Step {
  const v = valuationOf(m);
  for (const r of failing) (m.side[r].parcel as Parcel).failed = true;
  const codes: Codes = failing.map((r) => [NON_SHIPMENT[r], "system"]);
  for (const r of failing) {
    const kept = other(r);
    yield* pay(m, "charge", "chargeSwapPenalty", sideStep(SWAP_STEPS.penalty, r), {
      orderId: m.orderId,
      retailerId: partyId(m, r),
      amountCents: v[r].goodsCents,
    });
    yield* payOut(m, kept, v[r].goodsCents);
    yield* refund(m, kept, v[kept].feeCents + v[kept].shippingCents);
    codes.push(
      [ACTION.PENALTY_CHARGED, "system"],
      [ACTION.PAYOUT_RELEASED, "system"],
      [ACTION.REFUND_ISSUED, "system"],
    );
  }
  if (ROLES.every((r) => m.side[r].parcel?.failed)) {
    yield* endBothFailed(m, ctx, codes);
    return;
  }
  yield* record(
    m,
    ctx,
    codes,
    failing.map((r): Notice => [other(r), "swap_other_side_did_not_ship"]),
  );
  yield* afterScans(m, ctx);
}

/** Both sides failed: the cash difference refunded to its payer (a second refund of that side, its own key); cancelled. */
function* endBothFailed(m: SwapModel, ctx: StepContext, codes: Codes): Step {
  const v = valuationOf(m);
  for (const r of ROLES) {
    if (m.cashPaidOut || v[r].cashCents <= 0) continue;
    yield* refund(m, r, v[r].cashCents);
    codes.push([ACTION.REFUND_ISSUED, "system"]);
  }
  m.statename = COMMON_STATES.CANCELLED;
  m.deadlines.pickupBy = null;
  yield* record(m, ctx, codes, [
    ["provider", "swap_cancelled"],
    ["receiver", "swap_cancelled"],
  ]);
}

/** Every parcel that will travel has been scanned: in route, and the cash difference paid out. */
function* afterScans(m: SwapModel, ctx: StepContext): Step {
  const live = ROLES.filter((r) => !m.side[r].parcel?.failed);
  if (live.length === 0 || !live.every((r) => m.side[r].parcel?.scanned)) return;
  if (m.statename === SWAP_STATES.SHIP_SWAP || m.statename === SWAP_STATES.SHIP_SWAP_TRY2) {
    m.statename = COMMON_STATES.IN_ROUTE;
    m.deadlines.pickupBy = null;
  }
  const v = valuationOf(m);
  if (!m.cashPaidOut) {
    m.cashPaidOut = true;
    if (v.cashFrom && v.differenceCents > 0) {
      yield* payOut(m, other(v.cashFrom), v.differenceCents);
      yield* record(m, ctx, [[ACTION.PAYOUT_RELEASED, "system"]]);
      return;
    }
  }
  yield* record(m, ctx, []);
}

function* onCarrierEvent(m: SwapModel, ctx: StepContext, ev: CarrierEventSignal): Step {
  const r = senderOf(m, ev);
  const p = r ? m.side[r].parcel : null;
  if (!r || !p) return;
  if (takeScan(p, ev.status)) {
    yield* record(m, ctx, [[ACTION.SHIPMENT_PICKED_UP, "carrier"]]);
    yield* afterScans(m, ctx);
  }
  if (takeDelivery(p, ev.status)) {
    const receiving = m.side[other(r)];
    const windows = deliveryWindows(ctx.now(), m);
    receiving.ratingBy = windows.ratingBy;
    receiving.rmaBy = windows.rmaBy;
    if (ROLES.every((x) => m.side[x].parcel?.failed || m.side[x].parcel?.delivered))
      m.statename = COMMON_STATES.DELIVERED;
    yield* record(m, ctx, [[ACTION.SHIPMENT_DELIVERED, "carrier"]], [[other(r), "swap_rate"]]);
  }
}

export function nextQueuedStep(m: SwapModel, ctx: StepContext): Step | null {
  const ev = m.carrierQueue.shift();
  return ev ? onCarrierEvent(m, ctx, ev) : null;
}

/** Delivered: completes once every rating window and RMA window has closed (or every rating is in). */
export function* settleDelivered(m: SwapModel, ctx: StepContext): Step {
  if (m.statename !== COMMON_STATES.DELIVERED) return;
  const now = ctx.now();
  const open = ROLES.some((r) => {
    const s = m.side[r];
    return (
      (s.rmaBy !== null && now < s.rmaBy) || (!s.rating && s.ratingBy !== null && now < s.ratingBy)
    );
  });
  if (open) return;
  m.statename = COMMON_STATES.COMPLETED;
  yield* record(m, ctx, [[ACTION.ORDER_COMPLETED, "system"]]);
}

export function* onDeadline(m: SwapModel, ctx: StepContext): Step {
  switch (m.statename) {
    case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
      m.statename = COMMON_STATES.EXPIRED;
      m.deadlines.checkoutBy = null;
      m.reasons.system_reason = SYSTEM_REASON.CHECKOUT_NOT_COMPLETED;
      yield* record(m, ctx, [[ACTION.CHECKOUT_EXPIRED, "system"]], [["receiver", "swap_expired"]]);
      return;
    case BUY_STATES.STORE_APPROVE_PURCHASE:
      yield* storeApprovalExpired(m, ctx);
      return;
    case SWAP_STATES.PROVIDER_CHOOSE_ITEMS:
    case SWAP_STATES.PROVIDER_APPROVE:
    case SWAP_STATES.RECEIVER_APPROVE:
    case SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY:
    case SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY:
    case SWAP_STATES.PAYMENT: {
      // Whose answer (or payment) was late: the side's own key, so each reads "You:" or "Other Retailer:"
      // rightly; both sides late (neither paid) is the system's.
      const late = actionNeeded(m);
      m.reasons[
        late === "provider" || late === "receiver" ? `${late}_system_reason` : "system_reason"
      ] = SYSTEM_REASON.NOT_ANSWERED_IN_TIME;
      yield* endDeclined(m, ctx, [[ACTION.SELLER_RESPONSE_EXPIRED, "system"]]);
      return;
    }
    case SWAP_STATES.SHIP_SWAP:
    case SWAP_STATES.SHIP_SWAP_TRY2:
      yield* onMissedPickup(m, ctx);
      return;
    case COMMON_STATES.IN_ROUTE:
    case COMMON_STATES.DELIVERED:
      yield* settleDelivered(m, ctx);
      return;
  }
}

/** Delivered: completes once its windows have closed. */
const settle = (m: SwapModel, ctx: StepContext): Step | null =>
  m.statename === COMMON_STATES.DELIVERED ? settleDelivered(m, ctx) : null;

/** The swap order's machine (workflows/common/steps.ts Machine), as the driver runs it. */
export const swapMachine: Machine<SwapModel, SwapInput> = {
  newModel: createSwapModel,
  searchFacts: swapSearchFacts,
  acceptCarrierEvent,
  isFinished,
  deadline,
  onDeadline,
  nextQueuedStep,
  settle,
};

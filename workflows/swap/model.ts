/**
 * A swap order as plain data: both sides' lines, approvals, call-it-even, payments, parcels and ratings; its
 * validators, deadlines and view. Pure (no Temporal, no clock: time is passed in). Steps: machine.ts.
 */
import { DEFAULT_MARKETPLACE_TZ, US_FEDERAL_HOLIDAYS, WINDOWS } from "../../domain/business-days";
import { swapValuation, type SwapValuation } from "../../domain/fees";
import { checkOrderLines, orderQuote, orderUnits, type OrderLine } from "../../domain/order-money";
import {
  BUY_STATES,
  COMMON_STATES,
  SWAP_STATES,
  displayStatusFor,
  isTerminalState,
  stageForState,
  type CommonState,
  type Role,
  type SwapState,
} from "../../domain/states";
import type { CarrierEventSignal, StoreApprovalRequest } from "../common/contract";
import { takeCarrierEvent, type Parcel } from "../common/parcel";
import { iso, isoDeadlines } from "../common/record";
import { InvalidInput, Rejection } from "../common/steps";
import { orderSearchFacts, type OrderSearchFacts } from "../common/search-attributes";
import {
  SWAP_ERRORS,
  type SwapActionRecord,
  type SwapErrorCode,
  type SwapInput,
  type SwapSideView,
  type SwapView,
} from "./contract";

export type State =
  | SwapState
  | CommonState
  | typeof BUY_STATES.COMPLETE_ORDER_CHECKOUT
  | typeof BUY_STATES.STORE_APPROVE_PURCHASE;
export const ROLES: readonly Role[] = ["provider", "receiver"];
export const other = (r: Role): Role => (r === "provider" ? "receiver" : "provider");

/** A side's parcel (workflows/common/parcel.ts); one that failed (never shipped, or cancelled by its sender) makes the side pay the value of its goods. */
export type { Parcel };

export interface Side {
  /** The goods this side GIVES. */
  lines: OrderLine[];
  approved: boolean;
  callItEven: boolean;
  /** What the side paid at payment, and how much of it has been refunded since (never beyond what it paid). */
  payment: { paymentIntentId: string; amountCents: number; refundedCents?: number } | null;
  /** The parcel this side SENDS. */
  parcel: Parcel | null;
  /** This side confirmed it received the other side's parcel ("I received the package", action 222). */
  received?: boolean;
  /** The rating this side gives (of the goods it received), its window, and its RMA window. */
  rating: {
    condition: number;
    packaging: number;
    timeliness: number;
    overall: number;
    comments: string;
  } | null;
  ratingBy: number | null;
  rmaBy: number | null;
}

export interface SwapModel {
  workflowId: string;
  orderId: number;
  externalId: string;
  providerId: number;
  receiverId: number;
  timeZone: string;
  holidays: readonly string[];
  statename: State;
  side: Record<Role, Side>;
  isModified: boolean;
  declinedBy: Role | null;
  reasons: Record<string, number>;
  /** The receiver's checkout pre-authorisation (released when it pays, or when the swap ends before). */
  authorization: { paymentIntentId: string; amountCents: number } | null;
  deadlines: {
    checkoutBy: number | null;
    /** Only on a swap that waited for the receiver's store (absent otherwise: older records unchanged). */
    storeApprovalBy?: number | null;
    turnBy: number | null;
    paymentBy: number | null;
    pickupBy: number | null;
  };
  cashPaidOut: boolean;
  attempts: Partial<Record<string, number>>;
  actions: SwapActionRecord[];
  seenEvents: Set<string>;
  carrierQueue: CarrierEventSignal[];
  recordSeq: number;
  /** Checked out over the placer's limit: why, and who placed it (docs/product/teams.md). */
  storeApproval: StoreApprovalRequest | null;
  /** Who of the receiver's store approved it (orders.approved_by_user_id). */
  approvedByUserId: number | null;
}

const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

export function reject(code: SwapErrorCode): never {
  throw new Rejection(code, SWAP_ERRORS[code]);
}

const emptySide = (lines: OrderLine[]): Side => ({
  lines,
  approved: false,
  callItEven: false,
  payment: null,
  parcel: null,
  rating: null,
  ratingBy: null,
  rmaBy: null,
});

export function createSwapModel(
  input: SwapInput,
  workflowId: string,
  startedAt: number,
): SwapModel {
  if (!input || typeof input !== "object") throw new InvalidInput("missing input");
  if (!isId(input.orderId) || !isId(input.providerId) || !isId(input.receiverId))
    throw new InvalidInput("orderId, providerId and receiverId must be positive integers");
  if (input.providerId === input.receiverId)
    throw new InvalidInput("a retailer cannot swap with itself");
  const check = checkOrderLines(input.providerLines);
  if (!check.ok) throw new InvalidInput(check.message);
  return {
    workflowId,
    orderId: input.orderId,
    externalId: input.externalId ?? String(input.orderId),
    providerId: input.providerId,
    receiverId: input.receiverId,
    timeZone: input.timeZone ?? DEFAULT_MARKETPLACE_TZ,
    holidays: input.holidays ?? US_FEDERAL_HOLIDAYS,
    statename: BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    side: {
      provider: emptySide(input.providerLines.map((l) => ({ ...l, sizes: { ...l.sizes } }))),
      receiver: emptySide([]),
    },
    isModified: false,
    declinedBy: null,
    reasons: {},
    authorization: null,
    deadlines: {
      checkoutBy: startedAt + WINDOWS.checkoutExpiry,
      turnBy: null,
      paymentBy: null,
      pickupBy: null,
    },
    cashPaidOut: false,
    attempts: {},
    actions: [],
    seenEvents: new Set(),
    carrierQueue: [],
    recordSeq: 0,
    storeApproval: null,
    approvedByUserId: null,
  };
}

export const partyId = (m: SwapModel, r: Role): number =>
  r === "provider" ? m.providerId : m.receiverId;

/** The swap's valuation on the current lines (call-it-even: either side's choice forgives the difference). */
export function valuationOf(m: SwapModel): SwapValuation {
  const side = (r: Role) => ({
    goodsCents: orderQuote(m.side[r].lines).goodsCents,
    units: orderUnits(m.side[r].lines),
  });
  return swapValuation({
    provider: side("provider"),
    receiver: side("receiver"),
    callItEven: m.side.provider.callItEven || m.side.receiver.callItEven,
  });
}

/** Whose move it is: the side whose turn it is, both in payment (until each paid), the receiver at checkout. */
export function actionNeeded(m: SwapModel): Role | "both" | null {
  switch (m.statename) {
    case BUY_STATES.COMPLETE_ORDER_CHECKOUT:
    case BUY_STATES.STORE_APPROVE_PURCHASE:
    case SWAP_STATES.RECEIVER_APPROVE:
    case SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY:
      return "receiver";
    case SWAP_STATES.PROVIDER_CHOOSE_ITEMS:
    case SWAP_STATES.PROVIDER_APPROVE:
    case SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY:
      return "provider";
    case SWAP_STATES.PAYMENT: {
      const unpaid = ROLES.filter((r) => !m.side[r].payment);
      return unpaid.length === 2 ? "both" : (unpaid[0] ?? null);
    }
    default:
      return null;
  }
}

/** What the swap's search attributes say (workflows/common/search-attributes.ts): the read model's columns. */
export const swapSearchFacts = (m: SwapModel): OrderSearchFacts =>
  orderSearchFacts("swap", m, actionNeeded(m));

/** Which deadline each state waits for (docs/product/windows.md, "Swap windows"); delivered has its own rule. */
const DEADLINE_OF: Partial<Record<State, keyof SwapModel["deadlines"]>> = {
  [BUY_STATES.COMPLETE_ORDER_CHECKOUT]: "checkoutBy",
  [BUY_STATES.STORE_APPROVE_PURCHASE]: "storeApprovalBy",
  [SWAP_STATES.PROVIDER_CHOOSE_ITEMS]: "turnBy",
  [SWAP_STATES.PROVIDER_APPROVE]: "turnBy",
  [SWAP_STATES.RECEIVER_APPROVE]: "turnBy",
  [SWAP_STATES.SWAP_DECLINED_BY_PROVIDER_MONEY]: "turnBy",
  [SWAP_STATES.SWAP_DECLINED_BY_RECEIVER_MONEY]: "turnBy",
  [SWAP_STATES.PAYMENT]: "paymentBy",
  [SWAP_STATES.SHIP_SWAP]: "pickupBy",
  [SWAP_STATES.SHIP_SWAP_TRY2]: "pickupBy",
};

/** The deadline the swap waits for in its current state (epoch ms), or null. */
export function deadline(m: SwapModel): number | null {
  if (m.statename === COMMON_STATES.DELIVERED) {
    // The swap completes when the last rating or RMA window closes (a rating given closes its own).
    const open = ROLES.flatMap((r) => [
      m.side[r].rating ? null : m.side[r].ratingBy,
      m.side[r].rmaBy,
    ]).filter((x): x is number => x !== null);
    return open.length ? Math.max(...open) : null;
  }
  const which = DEADLINE_OF[m.statename];
  return which ? (m.deadlines[which] ?? null) : null;
}

export function requireTurn(
  m: SwapModel,
  cmd: { actorRetailerId?: unknown } | undefined,
  now: number,
  states: readonly State[],
): Role {
  if (!states.includes(m.statename)) reject("wrong_state");
  const who = actionNeeded(m);
  const actor = cmd && typeof cmd === "object" ? cmd.actorRetailerId : undefined;
  const role: Role | null =
    actor === m.providerId ? "provider" : actor === m.receiverId ? "receiver" : null;
  if (!role || (who !== "both" && who !== role)) reject("wrong_party");
  const d = deadline(m);
  if (d !== null && now >= d) reject("wrong_state");
  return role;
}

/** The party of a command in any state (shipping, rating), or wrong_party. */
export function roleOf(m: SwapModel, cmd: { actorRetailerId?: unknown } | undefined): Role {
  const actor = cmd && typeof cmd === "object" ? cmd.actorRetailerId : undefined;
  if (actor === m.providerId) return "provider";
  if (actor === m.receiverId) return "receiver";
  return reject("wrong_party");
}

export const isFinished = (m: SwapModel): boolean => isTerminalState(m.statename);

/** The side whose parcel a carrier event is about (by tracking number), or undefined. */
export const senderOf = (m: SwapModel, ev: CarrierEventSignal): Role | undefined =>
  ROLES.find((r) => m.side[r].parcel?.trackingNumber === ev.trackingNumber);

/** Queues a carrier event of one of the swap's parcels (workflows/common/parcel.ts). */
export function acceptCarrierEvent(m: SwapModel, ev: CarrierEventSignal | undefined): boolean {
  return takeCarrierEvent(m, ev, (e) => senderOf(m, e) !== undefined);
}

export function swapView(m: SwapModel, busy: boolean): SwapView {
  const v = valuationOf(m);
  const sideView = (r: Role): SwapSideView => {
    const s = m.side[r];
    return {
      lines: s.lines,
      approved: s.approved,
      callItEven: s.callItEven,
      dueCents: v[r].totalDueCents,
      paid: s.payment !== null,
      shipment: s.parcel,
      rating: s.rating
        ? {
            condition: s.rating.condition,
            packaging: s.rating.packaging,
            timeliness: s.rating.timeliness,
            overall: s.rating.overall,
          }
        : null,
      ratingBy: iso(s.ratingBy),
      rmaBy: iso(s.rmaBy),
    };
  };
  return {
    orderId: m.orderId,
    workflowId: m.workflowId,
    statename: m.statename,
    displayStatus: displayStatusFor("swap", m.statename),
    actionNeeded: actionNeeded(m),
    isModified: m.isModified,
    declinedBy: m.declinedBy,
    provider: sideView("provider"),
    receiver: sideView("receiver"),
    valuation: {
      largerGoodsCents: v.largerGoodsCents,
      differenceCents: v.differenceCents,
      cashFrom: v.cashFrom,
      callItEven: v.callItEven,
    },
    deadlines: isoDeadlines(m.deadlines),
    actions: [...m.actions],
    busy,
  };
}

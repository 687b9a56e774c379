/**
 * Returns (RMA): who pays what (docs/product/money.md, "RMA refund and charge"). One pure function for the
 * victim's refund and the perpetrator's charge, used by the RMA workflow and the pages alike.
 *
 * Names: the VICTIM received faulty or missing goods and asked for the RMA (refunded; the RMA record calls it
 * provider); the PERPETRATOR sent them (charged; the RMA record calls it receiver).
 *
 * - approved value = Σ approved quantity × unit price; full = the approved units are all the units the victim
 *   received on the original order.
 * - RMA shipping = the shipping table applied to the approved units whose reason ships something back:
 *   0 damaged, 1 defective, 3 wrong item, 4 other when its text mentions "ship"; 2 (missing) ships nothing.
 * - Sale (victim = buyer): refund = approved value + 10% of it (half up) + the original shipping if full;
 *   charge = approved value + RMA shipping + RMA fee + 10% of the approved value + the original shipping if
 *   full.
 * - Swap: refund = approved value; charge = approved value + RMA shipping + RMA fee.
 * - The marketplace keeps RMA shipping + RMA fee: refund − charge = −(RMA shipping + RMA fee).
 */
import { purchaseFeeCents } from "./fees";
import { assertNonNegativeCents, paymentBooked, type Cents } from "./money";
import { isChoice, rmaReasonCountsForShipping, RMA_REASONS } from "./reasons";
import { shippingCentsForUnits } from "./shipping";
import { otherRole, type Role } from "./states";

export type RmaKind = "sale" | "swap";

/** One line of an RMA: a product the victim received, as staff decided it (or not yet). */
export interface RmaLineInput {
  unitPriceCents: Cents;
  /** Units the victim asked to return or be refunded. */
  requestedQuantity: number;
  /** Staff's decision: approved units (0 = denied), or null while pending. */
  approvedQuantity: number | null;
  /** RMA reason code (domain/reasons RMA_REASONS). */
  reason: number;
  /** The free text of reason 4 ("other"). */
  otherText?: string | null;
}

/** The original order as the victim received it. */
export interface RmaOrderInput {
  kind: RmaKind;
  /** Units the victim received on the original order (all lines together). */
  unitsReceived: number;
  /** Sale: what the buyer paid (goods, 10% fee, shipping, total). Swap: only goods matter. */
  goodsCents: Cents;
  feeCents: Cents;
  shippingCents: Cents;
  totalCents: Cents;
}

/**
 * Which side's goods lines a party received on an order: a sale's goods are the provider's (its buyer, the
 * receiver, got them); in a swap each side received the other side's. The RMA wizard (which lines it offers)
 * and the RMA request (what it checks and settles against) both ask this.
 */
export function receivedGoodsSide(kind: RmaKind, role: Role): Role {
  return kind === "swap" ? otherRole(role) : "provider";
}

/**
 * The original order as the victim received it: its goods lines (units, value) and, for a sale, what the
 * buyer paid; a swap's side counts goods only. The RMA request and the wizard's estimate use it alike.
 */
export function rmaOrderInputOf(
  kind: RmaKind,
  received: readonly { quantity: number; valueCents: Cents }[],
  paid: { feeCents: Cents; shippingCents: Cents; totalCents: Cents },
): RmaOrderInput {
  const goodsCents = received.reduce((a, l) => a + l.valueCents, 0);
  const unitsReceived = received.reduce((a, l) => a + l.quantity, 0);
  return kind === "sale"
    ? {
        kind,
        unitsReceived,
        goodsCents,
        feeCents: paid.feeCents,
        shippingCents: paid.shippingCents,
        totalCents: paid.totalCents,
      }
    : { kind, unitsReceived, goodsCents, feeCents: 0, shippingCents: 0, totalCents: goodsCents };
}

export interface RmaSettlement {
  approvedUnits: number;
  approvedValueCents: Cents;
  /** The approved units are all the units the victim received. */
  full: boolean;
  /** Units that ship back (reasons 0, 1, 3, and 4 mentioning shipping). */
  returnUnits: number;
  rmaShippingCents: Cents;
  rmaFeeCents: Cents;
  /** Sale: 10% of the approved value (half up); swap: 0. */
  feeRefundCents: Cents;
  /** Sale, full: the original shipping; otherwise 0. */
  originalShippingRefundCents: Cents;
  victimRefundCents: Cents;
  perpetratorChargeCents: Cents;
  /** RMA shipping + RMA fee (= charge − refund). */
  marketplaceKeepsCents: Cents;
  /** Every line decided (none pending): staff may process the RMA. */
  decided: boolean;
  /** Every line denied (or nothing approved): the RMA is declined. */
  declined: boolean;
}

function checkQuantity(n: unknown, what: string): asserts n is number {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`${what} must be a whole number ≥ 0, got ${String(n)}`);
}

function checkLines(order: RmaOrderInput, lines: readonly RmaLineInput[]): void {
  if (order.kind !== "sale" && order.kind !== "swap")
    throw new RangeError(`unknown RMA kind ${String(order.kind)}`);
  checkQuantity(order.unitsReceived, "units received");
  for (const [what, v] of [
    ["goods", order.goodsCents],
    ["fee", order.feeCents],
    ["shipping", order.shippingCents],
    ["total", order.totalCents],
  ] as const) {
    assertNonNegativeCents(v, `original ${what}`);
  }
  let requested = 0;
  for (const l of lines) {
    assertNonNegativeCents(l.unitPriceCents, "unit price");
    checkQuantity(l.requestedQuantity, "requested quantity");
    if (l.approvedQuantity !== null) {
      checkQuantity(l.approvedQuantity, "approved quantity");
      if (l.approvedQuantity > l.requestedQuantity)
        throw new RangeError("approved quantity cannot exceed the requested quantity");
    }
    if (!isChoice(RMA_REASONS, l.reason))
      throw new RangeError(`unknown RMA reason ${String(l.reason)}`);
    requested += l.requestedQuantity;
  }
  if (requested > order.unitsReceived)
    throw new RangeError("an RMA cannot ask for more units than were received");
}

/**
 * The RMA's money as decided so far: pending lines count as not approved. `rmaFeeCents` is staff's RMA fee.
 * Throws RangeError on impossible input (negative amounts, approved > requested, requested > received).
 */
export function rmaSettlement(
  order: RmaOrderInput,
  lines: readonly RmaLineInput[],
  rmaFeeCents: Cents = 0,
): RmaSettlement {
  checkLines(order, lines);
  assertNonNegativeCents(rmaFeeCents, "RMA fee");
  let approvedUnits = 0;
  let approvedValue = 0;
  let returnUnits = 0;
  for (const l of lines) {
    const q = l.approvedQuantity ?? 0;
    approvedUnits += q;
    approvedValue += q * l.unitPriceCents;
    if (rmaReasonCountsForShipping(l.reason, l.otherText)) returnUnits += q;
  }
  const full = approvedUnits > 0 && approvedUnits === order.unitsReceived;
  const rmaShipping = shippingCentsForUnits(returnUnits);
  const sale = order.kind === "sale";
  const feeRefund = sale ? purchaseFeeCents(approvedValue) : 0;
  const originalShipping = sale && full ? order.shippingCents : 0;
  const nothing = approvedUnits === 0;
  // Nothing approved: nobody pays anything, not even the RMA fee (the RMA is declined).
  const fee = nothing ? 0 : rmaFeeCents;
  const victimRefund = approvedValue + feeRefund + originalShipping;
  const perpetratorCharge = nothing
    ? 0
    : approvedValue + rmaShipping + fee + feeRefund + originalShipping;
  return {
    approvedUnits,
    approvedValueCents: approvedValue,
    full,
    returnUnits,
    rmaShippingCents: nothing ? 0 : rmaShipping,
    rmaFeeCents: fee,
    feeRefundCents: feeRefund,
    originalShippingRefundCents: originalShipping,
    victimRefundCents: victimRefund,
    perpetratorChargeCents: perpetratorCharge,
    marketplaceKeepsCents: perpetratorCharge - victimRefund,
    decided: lines.every((l) => l.approvedQuantity !== null),
    declined: lines.length > 0 && lines.every((l) => l.approvedQuantity === 0),
  };
}

/**
 * "Amount You Will Receive" before staff decide: sale with every unit requested → the original grand total;
 * sale with some units → requested value + 10%; swap → requested value.
 */
export function rmaAmountYouWillReceive(
  order: RmaOrderInput,
  lines: readonly Pick<RmaLineInput, "unitPriceCents" | "requestedQuantity">[],
): Cents {
  let units = 0;
  let value = 0;
  for (const l of lines) {
    assertNonNegativeCents(l.unitPriceCents, "unit price");
    checkQuantity(l.requestedQuantity, "requested quantity");
    units += l.requestedQuantity;
    value += l.requestedQuantity * l.unitPriceCents;
  }
  if (order.kind === "swap") return value;
  if (units > 0 && units === order.unitsReceived) return order.totalCents;
  return value + purchaseFeeCents(value);
}

/** The RMA's ledger: what moves, and that it balances (victim refund − perpetrator charge + kept = 0). */
export function rmaLedger(s: RmaSettlement): {
  refundedCents: Cents;
  chargedCents: Cents;
  keptCents: Cents;
  balanced: boolean;
} {
  const kept = s.rmaShippingCents + s.rmaFeeCents;
  return {
    refundedCents: s.victimRefundCents,
    chargedCents: s.perpetratorChargeCents,
    keptCents: kept,
    balanced: s.perpetratorChargeCents - s.victimRefundCents === kept,
  };
}

/** One payments row of an RMA, as its ledger reads it. */
export interface RmaMoneyRow {
  /** The row's retailer is the victim (else the perpetrator). */
  toVictim: boolean;
  txtype: string;
  status: string;
  amountCents: Cents;
}

/**
 * Whether an ended RMA's payments rows moved what it recorded (docs/product/money.md, "Ledgers"): the
 * victim refunded or paid out exactly the refund, the perpetrator charged exactly the charge (a queued charge is
 * owed, so it counts); nothing moved for a declined or cancelled one. Null while the RMA is still open.
 */
export function rmaBalanced(
  stage: string,
  recorded: { victimRefundCents: number; perpetratorChargeCents: number },
  rows: readonly RmaMoneyRow[],
): boolean | null {
  const ended = stage === "rmacompleted" || stage === "rmadeclined" || stage === "rmacancelled";
  if (!ended) return null;
  let toVictim = 0;
  let charged = 0;
  for (const r of rows) {
    if (!paymentBooked(r.status)) continue;
    if (r.toVictim && (r.txtype === "refund" || r.txtype === "transfer")) toVictim += r.amountCents;
    else if (!r.toVictim && r.txtype === "penalty") charged += r.amountCents;
    else return false;
  }
  const want =
    stage === "rmacompleted" ? recorded : { victimRefundCents: 0, perpetratorChargeCents: 0 };
  return toVictim === want.victimRefundCents && charged === want.perpetratorChargeCents;
}

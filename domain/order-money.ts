/**
 * Money of one purchase order (buy workflow), pure: the lines of an order, what a seller's modification may
 * change, the amounts the workflow hands to payment activities, and the order's ledger.
 *
 * - Requested lines are priced by domain/fees purchaseQuote: goods + 10% fee + shipping (table) = the
 *   pre-authorisation.
 * - A seller may only lower units ("You cannot select more units than what the retailer has requested to
 *   purchase."): checkModification.
 * - The capture is the quote of the approved lines, never more than was authorised (captureCents).
 * - The seller is paid the full approved goods value when the carrier scans the goods.
 * - A cancellation after capture refunds the buyer everything captured and charges the seller 10% of the
 *   approved goods value (cancellationSettlement).
 * - The ledger (orderLedger) replays an order's money movements and proves they balance:
 *     buyer paid (captured) - refunded + penalty = seller paid + fee kept + shipping kept + penalty kept + escrow
 *   with every term non-negative; impossible sequences (capturing more than authorised, refunding more than
 *   was paid, paying the seller goods that are not in escrow) throw a RangeError.
 */
import {
  purchaseQuote,
  captureCents,
  cancellationSettlement,
  sellerPayoutCents,
  type GoodsLine,
  type PurchaseQuote,
  type CancellationSettlement,
} from "./fees";
import { assertNonNegativeCents, type Cents } from "./money";
import { totalUnitsOfSizes } from "./shipping";

/** Size label -> units. */
export type Sizes = Record<string, number>;

/** One line of a purchase order: units of one listing (or, selling to a request, of one variation). */
export interface OrderLine {
  /** The listing the units come from (null when an offer to a request has no listing). */
  listingId: number | null;
  variationId?: number | null;
  sizes: Sizes;
  unitPriceCents: Cents;
}

/** What a seller sends to modify an order: units per line (prices come from the requested lines). */
export interface ModifiedLineInput {
  listingId: number | null;
  variationId?: number | null;
  sizes: Sizes;
}

/** Stable key of a line: the listing id, or the variation id when there is no listing. */
export function orderLineKey(line: {
  listingId: number | null;
  variationId?: number | null;
}): string {
  if (line.listingId !== null && line.listingId !== undefined) return `listing:${line.listingId}`;
  if (line.variationId !== null && line.variationId !== undefined)
    return `variation:${line.variationId}`;
  throw new RangeError("an order line needs a listing id or a variation id");
}

function goodsLines(lines: readonly OrderLine[]): GoodsLine[] {
  return lines.map((l) => ({ unitPriceCents: l.unitPriceCents, units: l.sizes }));
}

/** Units of all lines. */
export function orderUnits(lines: readonly OrderLine[]): number {
  return lines.reduce((sum, l) => sum + totalUnitsOfSizes(l.sizes), 0);
}

/** goods + 10% fee + shipping (table) of the lines: the pre-authorisation for requested lines. */
export function orderQuote(lines: readonly OrderLine[]): PurchaseQuote {
  return purchaseQuote(goodsLines(lines));
}

/** Lines with zero-unit sizes dropped, and lines with no units left dropped. */
export function compactOrderLines(lines: readonly OrderLine[]): OrderLine[] {
  const out: OrderLine[] = [];
  for (const l of lines) {
    const sizes: Sizes = {};
    for (const [label, n] of Object.entries(l.sizes)) if (n > 0) sizes[label] = n;
    if (Object.keys(sizes).length > 0) out.push({ ...l, sizes });
  }
  return out;
}

/** Validates lines handed to a new order: positive integer units, non-negative integer prices, unique keys. */
export function checkOrderLines(
  lines: readonly OrderLine[],
): { ok: true } | { ok: false; message: string } {
  if (!Array.isArray(lines) || lines.length === 0)
    return { ok: false, message: "an order needs at least one line" };
  const keys = new Set<string>();
  for (const l of lines) {
    let key: string;
    try {
      key = orderLineKey(l);
      assertNonNegativeCents(l.unitPriceCents, "unit price");
      if (totalUnitsOfSizes(l.sizes) <= 0)
        return { ok: false, message: `line ${key} has no units` };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    if (keys.has(key)) return { ok: false, message: `line ${key} appears twice` };
    keys.add(key);
  }
  return { ok: true };
}

export type ModificationCheck =
  | { ok: true; lines: OrderLine[]; changed: boolean }
  | { ok: false; code: "total_too_high" | "no_units" | "unknown_line" | "invalid_quantity" };

/**
 * A seller's modification of the requested lines: sizes may be lowered or removed (a line left out, or with
 * zero units, is removed), never raised, and no new line or size may appear (total_too_high). At least one
 * unit must remain (no_units: removing everything is a decline). Prices are the requested lines' prices.
 */
export function checkModification(
  requested: readonly OrderLine[],
  modified: readonly ModifiedLineInput[],
): ModificationCheck {
  const byKey = new Map<string, OrderLine>();
  for (const l of requested) byKey.set(orderLineKey(l), l);
  const seen = new Set<string>();
  const out: OrderLine[] = [];
  for (const m of modified) {
    let key: string;
    try {
      key = orderLineKey(m);
    } catch {
      return { ok: false, code: "unknown_line" };
    }
    const req = byKey.get(key);
    if (!req || seen.has(key)) return { ok: false, code: "unknown_line" };
    seen.add(key);
    if (typeof m.sizes !== "object" || m.sizes === null)
      return { ok: false, code: "invalid_quantity" };
    const sizes: Sizes = {};
    for (const [label, n] of Object.entries(m.sizes)) {
      if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
        return { ok: false, code: "invalid_quantity" };
      const max = req.sizes[label] ?? 0;
      if (n > max) return { ok: false, code: "total_too_high" };
      if (n > 0) sizes[label] = n;
    }
    if (Object.keys(sizes).length > 0) out.push({ ...req, sizes });
  }
  if (orderUnits(out) === 0) return { ok: false, code: "no_units" };
  const changed = !sameLines(compactOrderLines(requested), out);
  return { ok: true, lines: out, changed };
}

function sameLines(a: readonly OrderLine[], b: readonly OrderLine[]): boolean {
  if (a.length !== b.length) return false;
  const byKey = new Map(b.map((l) => [orderLineKey(l), l]));
  for (const l of a) {
    const o = byKey.get(orderLineKey(l));
    if (!o) return false;
    const ka = Object.keys(l.sizes).filter((k) => l.sizes[k] > 0);
    const kb = Object.keys(o.sizes).filter((k) => o.sizes[k] > 0);
    if (ka.length !== kb.length || ka.some((k) => l.sizes[k] !== o.sizes[k])) return false;
  }
  return true;
}

/** Amount to capture for the approved lines: their quote, capped at the authorisation. */
export function captureForLines(approved: readonly OrderLine[], authorizedCents: Cents): Cents {
  return captureCents(orderQuote(approved), authorizedCents);
}

/** The seller's payout for the approved lines: the full goods value. */
export function payoutForLines(approved: readonly OrderLine[]): Cents {
  return sellerPayoutCents(orderQuote(approved).goodsCents);
}

/** Cancellation after capture (shipment cancelled, pickup missed twice): full refund, 10% penalty. */
export function cancellationForLines(
  capturedCents: Cents,
  approved: readonly OrderLine[],
): CancellationSettlement {
  return cancellationSettlement(capturedCents, orderQuote(approved).goodsCents);
}

// ---------------------------------------------------------------------------------------------------------
// The ledger.

export type LedgerEntry =
  /** The buyer's card is pre-authorised (no money moves yet). */
  | { kind: "authorization"; amountCents: Cents }
  /** An authorisation is released (decline, expiry) without capture. */
  | { kind: "authorization_released"; amountCents: Cents }
  /** The buyer is charged: goods + fee + shipping of the approved lines (capped at the authorisation). */
  | {
      kind: "capture";
      amountCents: Cents;
      goodsCents: Cents;
      feeCents: Cents;
      shippingCents: Cents;
    }
  /** Money returned to the buyer. */
  | { kind: "refund"; amountCents: Cents }
  /** The seller is paid (transfer to its connected account). */
  | { kind: "payout"; amountCents: Cents }
  /** The seller's card is charged a penalty. */
  | { kind: "penalty"; amountCents: Cents };

export interface OrderLedger {
  authorizedCents: Cents;
  authorizationReleasedCents: Cents;
  /** Charged to the buyer's card. */
  buyerPaidCents: Cents;
  buyerRefundedCents: Cents;
  /** buyerPaid - buyerRefunded. */
  buyerNetCents: Cents;
  /** Of the capture: goods, fee and shipping (the capture is split in this order when capped). */
  goodsCents: Cents;
  feeCents: Cents;
  shippingCents: Cents;
  /** Paid out to the seller. */
  sellerPaidCents: Cents;
  /** Charged to the seller (penalties). */
  sellerPenaltyCents: Cents;
  /** Goods money held for the seller, neither paid out nor refunded yet. */
  escrowCents: Cents;
  /** The marketplace's fee, after refunds. */
  feeKeptCents: Cents;
  /** Shipping kept to pay the carrier, after refunds. */
  shippingKeptCents: Cents;
  /** Penalties kept by the marketplace. */
  penaltyKeptCents: Cents;
  /** buyerNet + sellerPenalty === sellerPaid + escrow + feeKept + shippingKept + penaltyKept. */
  balanced: boolean;
}

/**
 * Replays an order's money movements. Refunds come out of escrowed goods first, then the fee, then shipping
 * (a full refund returns all three). Throws a RangeError for an impossible sequence.
 */
export function orderLedger(entries: readonly LedgerEntry[]): OrderLedger {
  let authorized = 0;
  let released = 0;
  let paid = 0;
  let refunded = 0;
  let goods = 0;
  let fee = 0;
  let shipping = 0;
  let sellerPaid = 0;
  let penalty = 0;
  // What is left of each part of the buyer's money.
  let escrow = 0;
  let feeKept = 0;
  let shippingKept = 0;

  for (const e of entries) {
    assertNonNegativeCents(e.amountCents, `${e.kind} amount`);
    switch (e.kind) {
      case "authorization":
        authorized += e.amountCents;
        break;
      case "authorization_released":
        if (released + e.amountCents > authorized)
          throw new RangeError("cannot release more than was authorised");
        released += e.amountCents;
        break;
      case "capture": {
        assertNonNegativeCents(e.goodsCents, "captured goods");
        assertNonNegativeCents(e.feeCents, "captured fee");
        assertNonNegativeCents(e.shippingCents, "captured shipping");
        if (e.goodsCents + e.feeCents + e.shippingCents !== e.amountCents) {
          throw new RangeError("a capture must equal its goods + fee + shipping");
        }
        if (paid + e.amountCents > authorized - released)
          throw new RangeError("cannot capture more than was authorised");
        paid += e.amountCents;
        goods += e.goodsCents;
        fee += e.feeCents;
        shipping += e.shippingCents;
        escrow += e.goodsCents;
        feeKept += e.feeCents;
        shippingKept += e.shippingCents;
        break;
      }
      case "refund": {
        if (e.amountCents > escrow + feeKept + shippingKept)
          throw new RangeError("cannot refund more than the buyer paid");
        let left = e.amountCents;
        const fromEscrow = Math.min(left, escrow);
        escrow -= fromEscrow;
        left -= fromEscrow;
        const fromFee = Math.min(left, feeKept);
        feeKept -= fromFee;
        left -= fromFee;
        shippingKept -= left;
        refunded += e.amountCents;
        break;
      }
      case "payout":
        if (e.amountCents > escrow)
          throw new RangeError("cannot pay the seller goods money that is not in escrow");
        escrow -= e.amountCents;
        sellerPaid += e.amountCents;
        break;
      case "penalty":
        penalty += e.amountCents;
        break;
      default:
        throw new RangeError(`unknown ledger entry ${JSON.stringify(e)}`);
    }
  }
  const buyerNet = paid - refunded;
  const balanced =
    buyerNet + penalty === sellerPaid + escrow + feeKept + shippingKept + penalty &&
    [escrow, feeKept, shippingKept, buyerNet].every((v) => v >= 0);
  return {
    authorizedCents: authorized,
    authorizationReleasedCents: released,
    buyerPaidCents: paid,
    buyerRefundedCents: refunded,
    buyerNetCents: buyerNet,
    goodsCents: goods,
    feeCents: fee,
    shippingCents: shipping,
    sellerPaidCents: sellerPaid,
    sellerPenaltyCents: penalty,
    escrowCents: escrow,
    feeKeptCents: feeKept,
    shippingKeptCents: shippingKept,
    penaltyKeptCents: penalty,
    balanced,
  };
}

/**
 * The capture entry of approved lines against an authorisation. When the cap applies (it cannot, since a
 * seller only lowers units, but the rule is "never more than authorised"), shipping then fee are reduced.
 */
export function captureEntry(
  approved: readonly OrderLine[],
  authorizedCents: Cents,
): Extract<LedgerEntry, { kind: "capture" }> {
  const q = orderQuote(approved);
  const amount = captureCents(q, authorizedCents);
  let over = q.totalCents - amount;
  const shipping = q.shippingCents - Math.min(over, q.shippingCents);
  over -= q.shippingCents - shipping;
  const fee = q.feeCents - Math.min(over, q.feeCents);
  over -= q.feeCents - fee;
  const goods = q.goodsCents - over;
  return {
    kind: "capture",
    amountCents: amount,
    goodsCents: goods,
    feeCents: fee,
    shippingCents: shipping,
  };
}

import {
  assertNonNegativeCents,
  basisPointsOf,
  multiplyCents,
  sumCents,
  type Cents,
} from "./money";
import { shippingCentsForUnits, totalUnitsOfSizes } from "./shipping";

/**
 * Fees of the marketplace (docs/product/money.md, "Fees"), in basis points.
 * - Purchase: the receiver (buyer) pays 10% of the approved goods value; the seller is paid the full goods value.
 * - Sale at cost: free for the seller.
 * - Swap: each party pays 5% of the LARGER goods value (with or without call-it-even).
 * - Penalty: a seller whose goods are never picked up (or who cancels a shipment) pays 10% of the
 *   approved goods value; the buyer is refunded in full.
 * Every percentage rounds half up to the cent, once per party per transaction (on the total, not per line).
 */
export const FEE_BASIS_POINTS = Object.freeze({
  purchase: 1000,
  saleAtCost: 0,
  swap: 500,
  sellerPenalty: 1000,
});

export const FEE_PERCENT = Object.freeze({
  purchase: 10,
  saleAtCost: 0,
  swap: 5,
  sellerPenalty: 10,
});

/** A line of goods: a unit price and either a unit count or a sizes map (size label -> units). */
export interface GoodsLine {
  readonly unitPriceCents: Cents;
  readonly units: number | Readonly<Record<string, number>>;
}

export function lineUnits(line: GoodsLine): number {
  if (typeof line.units === "number") {
    if (!Number.isSafeInteger(line.units) || line.units < 0) {
      throw new RangeError(`units must be a non-negative integer, got ${String(line.units)}`);
    }
    return line.units;
  }
  return totalUnitsOfSizes(line.units);
}

export function lineValueCents(line: GoodsLine): Cents {
  assertNonNegativeCents(line.unitPriceCents, "unit price");
  return multiplyCents(line.unitPriceCents, lineUnits(line));
}

export function goodsValueCents(lines: readonly GoodsLine[]): Cents {
  return sumCents(lines.map(lineValueCents));
}

export function goodsUnits(lines: readonly GoodsLine[]): number {
  return lines.reduce((sum, l) => sum + lineUnits(l), 0);
}

/** Buyer's fee on a purchase: 10% of the goods value, half up. */
export function purchaseFeeCents(goodsCents: Cents): Cents {
  return basisPointsOf(goodsCents, FEE_BASIS_POINTS.purchase);
}

/** Each swap party's fee: 5% of the larger goods value, half up. */
export function swapFeeCents(largerGoodsCents: Cents): Cents {
  return basisPointsOf(largerGoodsCents, FEE_BASIS_POINTS.swap);
}

/** Seller's penalty for goods never picked up / a cancelled shipment: 10% of the approved goods value. */
export function sellerPenaltyCents(approvedGoodsCents: Cents): Cents {
  return basisPointsOf(approvedGoodsCents, FEE_BASIS_POINTS.sellerPenalty);
}

/** What the seller is paid for a purchase: the full goods value (selling at cost has no fee). */
export function sellerPayoutCents(goodsCents: Cents): Cents {
  assertNonNegativeCents(goodsCents, "goods value");
  return goodsCents - basisPointsOf(goodsCents, FEE_BASIS_POINTS.saleAtCost);
}

export interface PurchaseQuote {
  /** Units the buyer receives (drives shipping). */
  readonly units: number;
  readonly goodsCents: Cents;
  readonly feeCents: Cents;
  readonly shippingCents: Cents;
  /** goods + fee + shipping: what the buyer's card is authorised for (requested units) or charged (approved units). */
  readonly totalCents: Cents;
}

/** Quote from totals: goods value and units received by the buyer. */
export function purchaseQuoteFromTotals(goodsCents: Cents, units: number): PurchaseQuote {
  assertNonNegativeCents(goodsCents, "goods value");
  const feeCents = purchaseFeeCents(goodsCents);
  const shippingCents = shippingCentsForUnits(units);
  return {
    units,
    goodsCents,
    feeCents,
    shippingCents,
    totalCents: goodsCents + feeCents + shippingCents,
  };
}

/** Quote of a purchase from its lines: {goodsCents, feeCents, shippingCents, totalCents, units}. */
export function purchaseQuote(lines: readonly GoodsLine[]): PurchaseQuote {
  return purchaseQuoteFromTotals(goodsValueCents(lines), goodsUnits(lines));
}

/** Pre-authorisation for a purchase: requested goods + 10% fee + shipping for the requested units. */
export function preAuthorizationCents(requestedLines: readonly GoodsLine[]): Cents {
  return purchaseQuote(requestedLines).totalCents;
}

/** True when the approved quote would charge more than was authorised (it must not: see captureCents). */
export function exceedsAuthorization(approved: PurchaseQuote, authorizedCents: Cents): boolean {
  assertNonNegativeCents(authorizedCents, "authorised amount");
  return approved.totalCents > authorizedCents;
}

/**
 * Amount to capture at approval: the quote of the APPROVED units, never more than was authorised.
 * (A seller can only lower the units, so the approved total is normally below the authorisation.)
 */
export function captureCents(approved: PurchaseQuote, authorizedCents: Cents): Cents {
  assertNonNegativeCents(authorizedCents, "authorised amount");
  return Math.min(approved.totalCents, authorizedCents);
}

export interface CancellationSettlement {
  /** Refunded to the buyer: everything captured. */
  readonly buyerRefundCents: Cents;
  /** Charged to the seller's card on file: 10% of the approved goods value. */
  readonly sellerPenaltyCents: Cents;
  /** Nothing is paid out to the seller. */
  readonly sellerPayoutCents: Cents;
}

/** Money when a purchase is cancelled after capture (shipment cancelled, or pickup missed twice). */
export function cancellationSettlement(
  capturedCents: Cents,
  approvedGoodsCents: Cents,
): CancellationSettlement {
  assertNonNegativeCents(capturedCents, "captured amount");
  return {
    buyerRefundCents: capturedCents,
    sellerPenaltyCents: sellerPenaltyCents(approvedGoodsCents),
    sellerPayoutCents: 0,
  };
}

export type SwapSide = "provider" | "receiver";

export interface SwapSideInput {
  /** Value of the goods this side GIVES. */
  readonly goodsCents: Cents;
  /** Units this side GIVES (the other side receives them and pays their shipping). */
  readonly units: number;
}

export interface SwapSideValuation {
  readonly goodsCents: Cents;
  /** Cash this side adds to even out the values (0 with call-it-even, or for the side worth more). */
  readonly cashCents: Cents;
  /** goods + cash: equals the larger goods value unless the difference is forgiven. */
  readonly contributionCents: Cents;
  /** 5% of the larger goods value. */
  readonly feeCents: Cents;
  /** Shipping for the units this side RECEIVES. */
  readonly shippingCents: Cents;
  /** What this side's card is charged: cash + fee + shipping. */
  readonly totalDueCents: Cents;
}

export interface SwapValuation {
  readonly largerGoodsCents: Cents;
  readonly differenceCents: Cents;
  readonly callItEven: boolean;
  /** The difference forgiven by call-it-even (0 without it). */
  readonly forgivenCents: Cents;
  /** Side that adds cash (the one whose goods are worth less), or null when none does. */
  readonly cashFrom: SwapSide | null;
  readonly provider: SwapSideValuation;
  readonly receiver: SwapSideValuation;
}

/**
 * Valuation of a swap (docs/product/money.md, "Swap value difference"): without call-it-even the side whose goods are worth less adds the
 * difference in cash so both contributions are worth the larger goods value; with call-it-even the
 * difference is forgiven. Either way each party pays 5% of the larger goods value, plus shipping for the
 * units it receives.
 */
export function swapValuation(input: {
  provider: SwapSideInput;
  receiver: SwapSideInput;
  callItEven: boolean;
}): SwapValuation {
  const p = input.provider;
  const r = input.receiver;
  assertNonNegativeCents(p.goodsCents, "provider goods value");
  assertNonNegativeCents(r.goodsCents, "receiver goods value");
  const larger = Math.max(p.goodsCents, r.goodsCents);
  const difference = Math.abs(p.goodsCents - r.goodsCents);
  const fee = swapFeeCents(larger);
  const cashFrom: SwapSide | null =
    input.callItEven || difference === 0
      ? null
      : p.goodsCents < r.goodsCents
        ? "provider"
        : "receiver";

  const side = (own: SwapSideInput, other: SwapSideInput, name: SwapSide): SwapSideValuation => {
    const cashCents = cashFrom === name ? difference : 0;
    const shippingCents = shippingCentsForUnits(other.units);
    // Validate own units too (they drive the other side's shipping).
    shippingCentsForUnits(own.units);
    return {
      goodsCents: own.goodsCents,
      cashCents,
      contributionCents: own.goodsCents + cashCents,
      feeCents: fee,
      shippingCents,
      totalDueCents: cashCents + fee + shippingCents,
    };
  };

  return {
    largerGoodsCents: larger,
    differenceCents: difference,
    callItEven: input.callItEven,
    forgivenCents: input.callItEven ? difference : 0,
    cashFrom,
    provider: side(p, r, "provider"),
    receiver: side(r, p, "receiver"),
  };
}

/**
 * A swap's money from payment to the end (decisions.md "Money" and "Who moves when (swaps)"), for both sides,
 * from `swapValuation` (domain/fees.ts). Pure; the swap workflow and the pages use it alike.
 *
 * - At payment each side is charged its due: cash (the side whose goods are worth less, unless called even)
 *   + 5% of the larger goods value + shipping for the units it receives.
 * - Both parcels scanned: the cash difference is paid out to the side that receives it; the marketplace keeps
 *   both fees and both shippings.
 * - One side never ships (or cancels its shipment): that side's card on file is charged the value of the goods
 *   it did not send, which is paid out to the other side; the other side's fee and shipping are refunded. The
 *   cash difference still goes to the side it was meant for, so each side ends where a completed swap would
 *   have put it, less the failing side's fee and shipping (ADR 0019).
 * - Neither side ships: the swap is undone: every due is refunded, nobody is charged more (ADR 0019).
 */
import { swapValuation, type SwapSide, type SwapSideInput, type SwapValuation } from "./fees";
import type { Cents } from "./money";

export type SwapOutcome = "both_shipped" | "provider_did_not_ship" | "receiver_did_not_ship" | "neither_shipped";

export interface SwapSideMoney {
  /** Charged at payment (cash + fee + shipping). */
  paidCents: Cents;
  /** Charged afterwards to the card on file: the value of the goods this side did not send. */
  penaltyCents: Cents;
  /** Returned to this side (its fee and shipping when the other side failed; everything when undone). */
  refundCents: Cents;
  /** Paid out to this side's payout account (the cash difference it receives, the other side's penalty). */
  payoutCents: Cents;
  /** Money in minus money out for this side: payout + refund − paid − penalty. */
  netCents: Cents;
}

export interface SwapSettlement {
  valuation: SwapValuation;
  outcome: SwapOutcome;
  provider: SwapSideMoney;
  receiver: SwapSideMoney;
  /** What the marketplace keeps: every charge minus every refund and payout. */
  keptCents: Cents;
}

const other = (s: SwapSide): SwapSide => (s === "provider" ? "receiver" : "provider");

export function swapSettlement(input: { provider: SwapSideInput; receiver: SwapSideInput; callItEven: boolean }, outcome: SwapOutcome): SwapSettlement {
  const v = swapValuation(input);
  const side = (name: SwapSide): SwapSideMoney => ({ paidCents: v[name].totalDueCents, penaltyCents: 0, refundCents: 0, payoutCents: 0, netCents: 0 });
  const money: Record<SwapSide, SwapSideMoney> = { provider: side("provider"), receiver: side("receiver") };
  const cashTo: SwapSide | null = v.cashFrom ? other(v.cashFrom) : null;

  if (outcome === "neither_shipped") {
    for (const s of ["provider", "receiver"] as const) money[s].refundCents = money[s].paidCents;
  } else {
    if (cashTo) money[cashTo].payoutCents += v.differenceCents;
    if (outcome !== "both_shipped") {
      const failed: SwapSide = outcome === "provider_did_not_ship" ? "provider" : "receiver";
      const kept = other(failed);
      money[failed].penaltyCents = v[failed].goodsCents;
      money[kept].payoutCents += v[failed].goodsCents;
      money[kept].refundCents = v[kept].feeCents + v[kept].shippingCents;
    }
  }
  for (const s of ["provider", "receiver"] as const) {
    const m = money[s];
    m.netCents = m.payoutCents + m.refundCents - m.paidCents - m.penaltyCents;
  }
  const keptCents = 0 - (money.provider.netCents + money.receiver.netCents);
  return { valuation: v, outcome, provider: money.provider, receiver: money.receiver, keptCents };
}

/**
 * Each side's position counting goods at their value: net money + value of the goods it received − value of
 * the goods it gave. A completed swap leaves each side at −(fee + shipping), the call-it-even beneficiary at
 * + the forgiven difference.
 */
export function swapPosition(s: SwapSettlement, who: SwapSide): Cents {
  const v = s.valuation;
  const shipped = (x: SwapSide) => s.outcome === "both_shipped" || (s.outcome !== "neither_shipped" && s.outcome !== `${x}_did_not_ship`);
  const gave = shipped(who) ? v[who].goodsCents : 0;
  const got = shipped(other(who)) ? v[other(who)].goodsCents : 0;
  return s[who].netCents + got - gave;
}

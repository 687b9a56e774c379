/**
 * A swap's money from payment to the end (docs/product/money.md, "Swap settlement"), for both sides,
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
 * - Neither side ships (one after the other, or found by the same timer): the rule above applies to each failure:
 *   each side pays the value of the goods it did not send, paid out to the other side, and gets its fee and
 *   shipping back; the cash difference, never paid out, is refunded to its payer. Every payment comes back
 *   whole and the two charges net to the difference of the goods values (ADR 0037).
 */
import { swapValuation, type SwapSide, type SwapSideInput, type SwapValuation } from "./fees";
import { paymentBooked, type Cents } from "./money";

export type SwapOutcome =
  | "both_shipped"
  | "provider_did_not_ship"
  | "receiver_did_not_ship"
  | "neither_shipped";

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

export function swapSettlement(
  input: { provider: SwapSideInput; receiver: SwapSideInput; callItEven: boolean },
  outcome: SwapOutcome,
): SwapSettlement {
  const v = swapValuation(input);
  const side = (name: SwapSide): SwapSideMoney => ({
    paidCents: v[name].totalDueCents,
    penaltyCents: 0,
    refundCents: 0,
    payoutCents: 0,
    netCents: 0,
  });
  const money: Record<SwapSide, SwapSideMoney> = {
    provider: side("provider"),
    receiver: side("receiver"),
  };
  const cashTo: SwapSide | null = v.cashFrom ? other(v.cashFrom) : null;

  const failedSides: SwapSide[] =
    outcome === "neither_shipped"
      ? ["provider", "receiver"]
      : outcome === "both_shipped"
        ? []
        : [outcome === "provider_did_not_ship" ? "provider" : "receiver"];
  if (cashTo && failedSides.length < 2) money[cashTo].payoutCents += v.differenceCents;
  for (const failed of failedSides) {
    const kept = other(failed);
    money[failed].penaltyCents = v[failed].goodsCents;
    money[kept].payoutCents += v[failed].goodsCents;
    money[kept].refundCents += v[kept].feeCents + v[kept].shippingCents;
  }
  if (failedSides.length === 2)
    for (const s of ["provider", "receiver"] as const) money[s].refundCents += v[s].cashCents;
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
  const shipped = (x: SwapSide) =>
    s.outcome === "both_shipped" ||
    (s.outcome !== "neither_shipped" && s.outcome !== `${x}_did_not_ship`);
  const gave = shipped(who) ? v[who].goodsCents : 0;
  const got = shipped(other(who)) ? v[other(who)].goodsCents : 0;
  return s[who].netCents + got - gave;
}

/** A payments row of a swap as the ledger reads it (db payments: side of the retailer, txtype, status, amount). */
export interface SwapMoneyRow {
  side: SwapSide;
  txtype: string;
  status: string;
  amountCents: Cents;
}

export interface SwapLedger {
  providerPaidCents: Cents;
  providerPenaltyCents: Cents;
  providerRefundedCents: Cents;
  providerPayoutCents: Cents;
  receiverPaidCents: Cents;
  receiverPenaltyCents: Cents;
  receiverRefundedCents: Cents;
  receiverPayoutCents: Cents;
  /** Every charge minus every refund and payout. */
  keptCents: Cents;
  /** What the settlement says the marketplace keeps, once the outcome is known. */
  expectedKeptCents: Cents | null;
  /** Nothing paid back beyond what was charged and, once the outcome is known, every side where the settlement puts it. */
  balanced: boolean;
}

const KIND: Record<string, keyof SwapSideMoney | undefined> = {
  capture: "paidCents",
  penalty: "penaltyCents",
  refund: "refundCents",
  transfer: "payoutCents",
};

/**
 * A swap's ledger from its payments rows: per side what was charged at payment, charged as a penalty, refunded
 * and paid out; what the marketplace keeps; and, when the outcome is known (`expected`), whether each side
 * ended where swapSettlement puts it.
 */
export function swapLedger(
  rows: readonly SwapMoneyRow[],
  expected: SwapSettlement | null,
): SwapLedger {
  const zero = (): SwapSideMoney => ({
    paidCents: 0,
    penaltyCents: 0,
    refundCents: 0,
    payoutCents: 0,
    netCents: 0,
  });
  const m: Record<SwapSide, SwapSideMoney> = { provider: zero(), receiver: zero() };
  for (const r of rows) {
    const k = KIND[r.txtype];
    if (!k || !paymentBooked(r.status)) continue;
    m[r.side][k] += r.amountCents;
  }
  for (const s of ["provider", "receiver"] as const)
    m[s].netCents = m[s].payoutCents + m[s].refundCents - m[s].paidCents - m[s].penaltyCents;
  const kept = 0 - (m.provider.netCents + m.receiver.netCents);
  const sane =
    kept >= 0 &&
    (["provider", "receiver"] as const).every((s) => m[s].refundCents <= m[s].paidCents);
  const matches =
    expected === null ||
    (["provider", "receiver"] as const).every((s) =>
      (["paidCents", "penaltyCents", "refundCents", "payoutCents"] as const).every(
        (k) => m[s][k] === expected[s][k],
      ),
    );
  return {
    providerPaidCents: m.provider.paidCents,
    providerPenaltyCents: m.provider.penaltyCents,
    providerRefundedCents: m.provider.refundCents,
    providerPayoutCents: m.provider.payoutCents,
    receiverPaidCents: m.receiver.paidCents,
    receiverPenaltyCents: m.receiver.penaltyCents,
    receiverRefundedCents: m.receiver.refundCents,
    receiverPayoutCents: m.receiver.payoutCents,
    keptCents: kept,
    expectedKeptCents: expected ? expected.keptCents : null,
    balanced: sane && matches,
  };
}

/** The outcome of a swap whose parcels have all settled (delivered or cancelled), else null. */
export function swapOutcomeOf(
  parcels: Record<SwapSide, "delivered" | "cancelled" | "other" | null>,
): SwapOutcome | null {
  const p = parcels.provider;
  const r = parcels.receiver;
  if (p === null || r === null || p === "other" || r === "other") return null;
  if (p === "cancelled" && r === "cancelled") return "neither_shipped";
  if (p === "cancelled") return "provider_did_not_ship";
  if (r === "cancelled") return "receiver_did_not_ship";
  return "both_shipped";
}

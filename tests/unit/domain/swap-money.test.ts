// A swap's money to the end (domain/swap-money.ts): table cases and a fast-check property over random swaps
// (values, units, call-it-even, who fails to ship): each side's charges match swapValuation, the ledger
// balances to the cent, and every side ends where docs/product/money.md ("Swap settlement") puts it.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  swapLedger,
  swapOutcomeOf,
  swapPosition,
  swapSettlement,
  type SwapMoneyRow,
  type SwapOutcome,
} from "../../../domain/swap-money";

const P = { goodsCents: 10000, units: 2 }; // the provider gives $100.00 in 2 units
const R = { goodsCents: 16000, units: 3 }; // the receiver gives $160.00 in 3 units

describe("swapSettlement: cases", () => {
  test("both ship: the provider adds the $60 difference, both pay 5% of $160 and their shipping; the receiver gets the $60", () => {
    const s = swapSettlement({ provider: P, receiver: R, callItEven: false }, "both_shipped");
    // provider receives 3 units ($23.75), receiver 2 units ($23.75); fee $8.00 each.
    expect(s.provider).toEqual({
      paidCents: 6000 + 800 + 2375,
      penaltyCents: 0,
      refundCents: 0,
      payoutCents: 0,
      netCents: -9175,
    });
    expect(s.receiver).toEqual({
      paidCents: 800 + 2375,
      penaltyCents: 0,
      refundCents: 0,
      payoutCents: 6000,
      netCents: 2825,
    });
    expect(s.keptCents).toBe(2 * (800 + 2375));
    expect([swapPosition(s, "provider"), swapPosition(s, "receiver")]).toEqual([-3175, -3175]);
  });

  test("called even: nobody adds cash; the provider is better off by the forgiven $60", () => {
    const s = swapSettlement({ provider: P, receiver: R, callItEven: true }, "both_shipped");
    expect(s.provider.paidCents).toBe(800 + 2375);
    expect(s.receiver.payoutCents).toBe(0);
    expect([swapPosition(s, "provider"), swapPosition(s, "receiver")]).toEqual([
      -3175 + 6000,
      -3175 - 6000,
    ]);
  });

  test("the provider never ships: charged its goods ($100), paid to the receiver with the $60 cash; the receiver's fee and shipping refunded", () => {
    const s = swapSettlement(
      { provider: P, receiver: R, callItEven: false },
      "provider_did_not_ship",
    );
    expect(s.provider.penaltyCents).toBe(10000);
    expect(s.receiver).toMatchObject({ payoutCents: 6000 + 10000, refundCents: 800 + 2375 });
    expect([swapPosition(s, "provider"), swapPosition(s, "receiver")]).toEqual([-3175, 0]);
    expect(s.keptCents).toBe(800 + 2375);
  });

  test("the receiver never ships: charged its goods ($160), paid to the provider, whose fee and shipping are refunded; the $60 cash still goes to the receiver it was meant for", () => {
    const s = swapSettlement(
      { provider: P, receiver: R, callItEven: false },
      "receiver_did_not_ship",
    );
    expect(s.receiver.penaltyCents).toBe(16000);
    expect(s.provider).toMatchObject({ payoutCents: 16000, refundCents: 800 + 2375 });
    expect(s.receiver.payoutCents).toBe(6000);
    expect([swapPosition(s, "provider"), swapPosition(s, "receiver")]).toEqual([0, -3175]);
  });

  test("neither ships: each pays its goods' value to the other, every payment refunded whole, nothing kept", () => {
    const s = swapSettlement({ provider: P, receiver: R, callItEven: false }, "neither_shipped");
    expect([s.provider.penaltyCents, s.provider.payoutCents, s.provider.refundCents]).toEqual([
      10000,
      16000,
      s.provider.paidCents,
    ]);
    expect([s.receiver.penaltyCents, s.receiver.payoutCents, s.receiver.refundCents]).toEqual([
      16000,
      10000,
      s.receiver.paidCents,
    ]);
    expect([s.provider.netCents, s.receiver.netCents, s.keptCents]).toEqual([6000, -6000, 0]);
  });
});

describe("swapSettlement: property over random swaps", () => {
  const side = fc.record({
    goodsCents: fc.integer({ min: 0, max: 2_000_000 }),
    units: fc.integer({ min: 0, max: 250 }),
  });
  const outcome = fc.constantFrom<SwapOutcome>(
    "both_shipped",
    "provider_did_not_ship",
    "receiver_did_not_ship",
    "neither_shipped",
  );

  test("charges match swapValuation, the ledger balances, and each side ends where docs/product/money.md puts it", () => {
    fc.assert(
      fc.property(side, side, fc.boolean(), outcome, (p, r, callItEven, o) => {
        const s = swapSettlement({ provider: p, receiver: r, callItEven }, o);
        const v = s.valuation;
        for (const who of ["provider", "receiver"] as const) {
          const m = s[who];
          expect(m.paidCents).toBe(v[who].cashCents + v[who].feeCents + v[who].shippingCents);
          expect(m.refundCents).toBeLessThanOrEqual(m.paidCents);
          expect(
            Math.min(m.paidCents, m.penaltyCents, m.refundCents, m.payoutCents),
          ).toBeGreaterThanOrEqual(0);
        }
        // Balance: every cent charged is refunded, paid out or kept.
        const charged =
          s.provider.paidCents +
          s.provider.penaltyCents +
          s.receiver.paidCents +
          s.receiver.penaltyCents;
        const returned =
          s.provider.refundCents +
          s.provider.payoutCents +
          s.receiver.refundCents +
          s.receiver.payoutCents;
        expect(charged - returned).toBe(s.keptCents);
        const cost = (who: "provider" | "receiver") => v[who].feeCents + v[who].shippingCents;
        const forgiven = (who: "provider" | "receiver") =>
          v.callItEven && v.forgivenCents > 0
            ? v[who].goodsCents < v[who === "provider" ? "receiver" : "provider"].goodsCents
              ? v.forgivenCents
              : -v.forgivenCents
            : 0;
        if (o === "both_shipped") {
          expect(s.keptCents).toBe(cost("provider") + cost("receiver"));
          expect(swapPosition(s, "provider")).toBe(-cost("provider") + forgiven("provider"));
          expect(swapPosition(s, "receiver")).toBe(-cost("receiver") + forgiven("receiver"));
        } else if (o === "neither_shipped") {
          // Each failure on its own: both payments back whole, the two charges net to the goods' difference.
          expect(s.keptCents).toBe(0);
          for (const who of ["provider", "receiver"] as const) {
            const them = who === "provider" ? "receiver" : "provider";
            expect(s[who].refundCents).toBe(s[who].paidCents);
            expect(s[who].netCents).toBe(v[them].goodsCents - v[who].goodsCents);
            expect(swapPosition(s, who)).toBe(v[them].goodsCents - v[who].goodsCents);
          }
        } else {
          const failed = o === "provider_did_not_ship" ? "provider" : "receiver";
          const kept = failed === "provider" ? "receiver" : "provider";
          expect(s.keptCents).toBe(cost(failed));
          expect(swapPosition(s, kept)).toBe(forgiven(kept));
          expect(swapPosition(s, failed)).toBe(-cost(failed) + forgiven(failed));
        }
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });
});

describe("swapLedger: the staff ledger from a swap's payments rows", () => {
  const row = (
    side: "provider" | "receiver",
    txtype: string,
    amountCents: number,
    status = "succeeded",
  ): SwapMoneyRow => ({
    side,
    txtype,
    status,
    amountCents,
  });

  test.each<[string, SwapOutcome, (s: ReturnType<typeof swapSettlement>) => SwapMoneyRow[]]>([
    [
      "both shipped",
      "both_shipped",
      (s) => [
        row("provider", "capture", s.provider.paidCents),
        row("receiver", "capture", s.receiver.paidCents),
        row("receiver", "transfer", 6000, "paid"),
      ],
    ],
    [
      "the provider never shipped (its penalty queued for staff still counts as owed)",
      "provider_did_not_ship",
      (s) => [
        row("provider", "capture", s.provider.paidCents),
        row("receiver", "capture", s.receiver.paidCents),
        row("provider", "penalty", 10000, "queued"),
        row("receiver", "transfer", 6000, "paid"),
        row("receiver", "transfer", 10000, "paid"),
        row("receiver", "refund", 800 + 2375, "succeeded"),
      ],
    ],
    [
      "neither shipped (each failure in turn: two refunds to the provider, its fee and shipping then its cash)",
      "neither_shipped",
      (s) => [
        row("provider", "capture", s.provider.paidCents),
        row("receiver", "capture", s.receiver.paidCents),
        row("receiver", "penalty", 16000),
        row("provider", "transfer", 16000, "paid"),
        row("provider", "refund", s.provider.paidCents - 6000),
        row("provider", "penalty", 10000),
        row("receiver", "transfer", 10000, "paid"),
        row("receiver", "refund", s.receiver.paidCents),
        row("provider", "refund", 6000),
      ],
    ],
  ])("%s: balanced, kept as the settlement says", (_name, outcome, rows) => {
    const s = swapSettlement({ provider: P, receiver: R, callItEven: false }, outcome);
    const l = swapLedger(rows(s), s);
    expect(l.balanced).toBe(true);
    expect(l.keptCents).toBe(s.keptCents);
    expect(l.expectedKeptCents).toBe(s.keptCents);
  });

  test("declined, failed and pending rows move nothing; authorisations are not charges", () => {
    const l = swapLedger(
      [
        row("receiver", "authorization", 5000, "authorized"),
        row("receiver", "capture", 3175, "declined"),
        row("provider", "capture", 3175, "pending"),
      ],
      null,
    );
    expect([l.receiverPaidCents, l.providerPaidCents, l.keptCents, l.balanced]).toEqual([
      0,
      0,
      0,
      true,
    ]);
  });

  test("a payout missing at the end, or a refund beyond what was paid, is not balanced", () => {
    const s = swapSettlement({ provider: P, receiver: R, callItEven: false }, "both_shipped");
    expect(
      swapLedger(
        [
          row("provider", "capture", s.provider.paidCents),
          row("receiver", "capture", s.receiver.paidCents),
        ],
        s,
      ).balanced,
    ).toBe(false);
    expect(
      swapLedger([row("provider", "capture", 100), row("provider", "refund", 200)], null).balanced,
    ).toBe(false);
  });

  test.each<[Parameters<typeof swapOutcomeOf>[0], SwapOutcome | null]>([
    [{ provider: "delivered", receiver: "delivered" }, "both_shipped"],
    [{ provider: "cancelled", receiver: "delivered" }, "provider_did_not_ship"],
    [{ provider: "delivered", receiver: "cancelled" }, "receiver_did_not_ship"],
    [{ provider: "cancelled", receiver: "cancelled" }, "neither_shipped"],
    [{ provider: "delivered", receiver: "other" }, null],
    [{ provider: null, receiver: "delivered" }, null],
  ])("swapOutcomeOf(%j) = %s", (parcels, outcome) => {
    expect(swapOutcomeOf(parcels)).toBe(outcome);
  });
});

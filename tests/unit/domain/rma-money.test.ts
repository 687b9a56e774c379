// RMA arithmetic (docs/product/money.md, "RMA refund and charge"): the worked example, our own cases, and a
// property test over random orders and RMAs.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { purchaseQuote } from "../../../domain/fees";
import {
  receivedGoodsSide,
  rmaAmountYouWillReceive,
  rmaBalanced,
  rmaLedger,
  rmaOrderInputOf,
  rmaSettlement,
  type RmaLineInput,
  type RmaOrderInput,
} from "../../../domain/rma-money";
import { shippingCentsForUnits } from "../../../domain/shipping";
import { WORKED_EXAMPLE_SALE as SALE } from "../../factories/worked-example";

const SWAP: RmaOrderInput = {
  kind: "swap",
  unitsReceived: 4,
  goodsCents: 20000,
  feeCents: 0,
  shippingCents: 0,
  totalCents: 0,
};

const line = (over: Partial<RmaLineInput> = {}): RmaLineInput => ({
  unitPriceCents: 4250,
  requestedQuantity: 1,
  approvedQuantity: 1,
  reason: 0,
  ...over,
});

describe("the worked example of docs/product/money.md", () => {
  test("1 unit damaged approved, RMA fee $5.00: refund $46.75, charge $71.50", () => {
    const s = rmaSettlement(SALE, [line()], 500);
    expect(s).toMatchObject({
      approvedValueCents: 4250,
      feeRefundCents: 425,
      rmaShippingCents: 1975,
      victimRefundCents: 4675,
      perpetratorChargeCents: 7150,
      marketplaceKeepsCents: 2475,
      full: false,
    });
  });

  test("all 3 units defective approved, no RMA fee: refund $164.00, charge $187.75", () => {
    const s = rmaSettlement(
      SALE,
      [line({ requestedQuantity: 3, approvedQuantity: 3, reason: 1 })],
      0,
    );
    expect(s).toMatchObject({
      full: true,
      victimRefundCents: 16400,
      perpetratorChargeCents: 18775,
      rmaShippingCents: 2375,
      originalShippingRefundCents: 2375,
    });
  });
});

describe("our cases", () => {
  test.each([
    // [what, order, lines, fee, refund, charge, kept]
    [
      "sale, 1 missing unit (reason 2): no return shipping",
      SALE,
      [line({ reason: 2 })],
      0,
      4675,
      4675,
      0,
    ],
    [
      "sale, 2 of 3 approved of 3 requested, reason 3",
      SALE,
      [line({ requestedQuantity: 3, approvedQuantity: 2, reason: 3 })],
      0,
      9350,
      9350 + 2375,
      2375,
    ],
    [
      "sale, 'other' mentioning shipping counts for shipping",
      SALE,
      [line({ reason: 4, otherText: "Box crushed in SHIPping" })],
      0,
      4675,
      4675 + 1975,
      1975,
    ],
    [
      "sale, 'other' without shipping ships nothing back",
      SALE,
      [line({ reason: 4, otherText: "wrong colour label" })],
      300,
      4675,
      4675 + 300,
      300,
    ],
    [
      "sale, every line denied: nothing moves, not even the fee",
      SALE,
      [line({ requestedQuantity: 2, approvedQuantity: 0 })],
      500,
      0,
      0,
      0,
    ],
    [
      "sale, two lines: 1 damaged + 2 missing = full",
      SALE,
      [line({ reason: 0 }), line({ requestedQuantity: 2, approvedQuantity: 2, reason: 2 })],
      0,
      16400,
      16400 + 1975,
      1975,
    ],
    [
      "swap, 1 damaged: the value only, no fee or shipping refund",
      SWAP,
      [line({ unitPriceCents: 5000 })],
      0,
      5000,
      5000 + 1975,
      1975,
    ],
    [
      "swap, all 4 approved (full), fee $2: still the value only",
      SWAP,
      [line({ unitPriceCents: 5000, requestedQuantity: 4, approvedQuantity: 4, reason: 1 })],
      200,
      20000,
      20000 + 2775 + 200,
      2975,
    ],
    [
      "swap, missing units: value, no shipping",
      SWAP,
      [line({ unitPriceCents: 5000, reason: 2, requestedQuantity: 2, approvedQuantity: 2 })],
      0,
      10000,
      10000,
      0,
    ],
    [
      "sale, 10% rounds half up per party: $0.05 → $0.01",
      { ...SALE, unitsReceived: 10 },
      [line({ unitPriceCents: 5 })],
      0,
      6,
      5 + 1975 + 1,
      1975,
    ],
    [
      "sale, a pending line counts as not approved",
      SALE,
      [line(), line({ approvedQuantity: null })],
      0,
      4675,
      4675 + 1975,
      1975,
    ],
  ] as const)("%s", (_what, order, lines, fee, refund, charge, kept) => {
    const s = rmaSettlement(order, lines as unknown as RmaLineInput[], fee);
    expect([s.victimRefundCents, s.perpetratorChargeCents, s.marketplaceKeepsCents]).toEqual([
      refund,
      charge,
      kept,
    ]);
    expect(rmaLedger(s).balanced).toBe(true);
  });

  test("decided and declined", () => {
    expect(rmaSettlement(SALE, [line(), line({ approvedQuantity: null })]).decided).toBe(false);
    expect(
      rmaSettlement(SALE, [line({ approvedQuantity: 0 }), line({ approvedQuantity: 0 })]),
    ).toMatchObject({
      decided: true,
      declined: true,
    });
    expect(rmaSettlement(SALE, [line({ approvedQuantity: 0 }), line()])).toMatchObject({
      decided: true,
      declined: false,
    });
  });

  test("impossible input is refused", () => {
    expect(() =>
      rmaSettlement(SALE, [line({ requestedQuantity: 1, approvedQuantity: 2 })]),
    ).toThrow(/exceed/);
    expect(() => rmaSettlement(SALE, [line({ requestedQuantity: 4 })])).toThrow(
      /more units than were received/,
    );
    expect(() => rmaSettlement(SALE, [line({ reason: 9 })])).toThrow(/reason/);
    expect(() => rmaSettlement(SALE, [line({ unitPriceCents: 1.5 })])).toThrow();
    expect(() => rmaSettlement(SALE, [line()], -1)).toThrow();
  });

  test("Amount You Will Receive before staff decide", () => {
    expect(rmaAmountYouWillReceive(SALE, [{ unitPriceCents: 4250, requestedQuantity: 3 }])).toBe(
      16400,
    );
    expect(rmaAmountYouWillReceive(SALE, [{ unitPriceCents: 4250, requestedQuantity: 1 }])).toBe(
      4675,
    );
    expect(rmaAmountYouWillReceive(SWAP, [{ unitPriceCents: 5000, requestedQuantity: 4 }])).toBe(
      20000,
    );
  });
});

describe("property: every RMA's ledger balances, and no victim gets back more than it paid (sale) or received (swap)", () => {
  const order = fc
    .record({
      kind: fc.constantFrom("sale" as const, "swap" as const),
      prices: fc.array(
        fc.record({
          unitPriceCents: fc.integer({ min: 0, max: 500_000 }),
          units: fc.integer({ min: 1, max: 60 }),
        }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
    })
    .chain(({ kind, prices }) => {
      const units = prices.reduce((a, p) => a + p.units, 0);
      const goods = prices.reduce((a, p) => a + p.units * p.unitPriceCents, 0);
      const q = purchaseQuote(
        prices.map((p) => ({ unitPriceCents: p.unitPriceCents, units: p.units })),
      );
      const base: RmaOrderInput =
        kind === "sale"
          ? {
              kind,
              unitsReceived: units,
              goodsCents: q.goodsCents,
              feeCents: q.feeCents,
              shippingCents: q.shippingCents,
              totalCents: q.totalCents,
            }
          : {
              kind,
              unitsReceived: units,
              goodsCents: goods,
              feeCents: 0,
              shippingCents: 0,
              totalCents: 0,
            };
      const lines = fc.tuple(
        ...prices.map((p) =>
          fc.integer({ min: 0, max: p.units }).chain((requested) =>
            fc.record({
              unitPriceCents: fc.constant(p.unitPriceCents),
              requestedQuantity: fc.constant(requested),
              approvedQuantity: fc.option(fc.integer({ min: 0, max: requested }), { nil: null }),
              reason: fc.integer({ min: 0, max: 4 }),
              otherText: fc.constantFrom(null, "ship it back", "scuffed"),
            }),
          ),
        ),
      );
      return fc.record({
        order: fc.constant(base),
        lines,
        fee: fc.integer({ min: 0, max: 10_000 }),
      });
    });

  test("refund − charge = −(RMA shipping + fee); refund ≤ what the victim paid or received; charge ≥ refund", () => {
    fc.assert(
      fc.property(order, ({ order: o, lines, fee }) => {
        const s = rmaSettlement(o, lines, fee);
        const l = rmaLedger(s);
        expect(l.balanced).toBe(true);
        expect(s.perpetratorChargeCents).toBeGreaterThanOrEqual(s.victimRefundCents);
        const cap = o.kind === "sale" ? o.totalCents : o.goodsCents;
        expect(s.victimRefundCents).toBeLessThanOrEqual(cap);
        if (s.approvedUnits === 0)
          expect([s.victimRefundCents, s.perpetratorChargeCents]).toEqual([0, 0]);
        expect(s.rmaShippingCents).toBe(
          s.approvedUnits === 0 ? 0 : shippingCentsForUnits(s.returnUnits),
        );
      }),
      { numRuns: 2000, seed: 20261123 },
    );
  });
});

describe("receivedGoodsSide: whose goods lines a party received", () => {
  test.each([
    ["sale", "receiver", "provider"],
    ["sale", "provider", "provider"],
    ["swap", "receiver", "provider"],
    ["swap", "provider", "receiver"],
  ] as const)("%s, the %s received the %s's goods", (kind, role, side) => {
    expect(receivedGoodsSide(kind, role)).toBe(side);
  });
});

describe("rmaOrderInputOf: the original order as the victim received it", () => {
  test.each([
    ["a sale: units and goods of the lines, what the buyer paid", "sale" as const, SALE],
    [
      "a swap side: goods only",
      "swap" as const,
      { ...SALE, kind: "swap", feeCents: 0, shippingCents: 0, totalCents: 12750 },
    ],
  ])("%s", (_name, kind, expected) => {
    const lines = [
      { quantity: 2, valueCents: 8500 },
      { quantity: 1, valueCents: 4250 },
    ];
    expect(
      rmaOrderInputOf(kind, lines, { feeCents: 1275, shippingCents: 2375, totalCents: 16400 }),
    ).toEqual(expected);
  });
});

describe("rmaBalanced", () => {
  const recorded = { victimRefundCents: 4675, perpetratorChargeCents: 7150 };
  const refund = { toVictim: true, txtype: "refund", status: "succeeded", amountCents: 4675 };
  const payout = { toVictim: true, txtype: "transfer", status: "paid", amountCents: 4675 };
  const charge = { toVictim: false, txtype: "penalty", status: "succeeded", amountCents: 7150 };
  test.each([
    ["open: not judged yet", "shipping", [], null],
    ["completed, refund and charge as recorded", "rmacompleted", [refund, charge], true],
    ["completed, a swap's victim paid out", "rmacompleted", [payout, charge], true],
    [
      "completed, the charge queued for a card (owed)",
      "rmacompleted",
      [refund, { ...charge, status: "queued" }],
      true,
    ],
    ["completed, the charge missing", "rmacompleted", [refund], false],
    [
      "completed, a declined attempt does not count",
      "rmacompleted",
      [refund, { ...charge, status: "declined" }, charge],
      true,
    ],
    ["completed, refunded twice", "rmacompleted", [refund, refund, charge], false],
    [
      "completed, money the wrong way",
      "rmacompleted",
      [refund, charge, { ...charge, toVictim: true }],
      false,
    ],
    ["cancelled, nothing moved", "rmacancelled", [], true],
    ["declined, a refund moved anyway", "rmadeclined", [refund], false],
  ] as const)("%s", (_what, stage, rows, balanced) => {
    expect(rmaBalanced(stage, recorded, rows)).toBe(balanced);
  });
});

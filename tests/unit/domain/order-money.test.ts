import { describe, expect, it } from "vitest";
import {
  cancellationForLines,
  captureEntry,
  captureForLines,
  checkModification,
  checkOrderLines,
  compactOrderLines,
  orderLedger,
  orderLineKey,
  orderQuote,
  orderUnits,
  payoutForLines,
  type LedgerEntry,
  type OrderLine,
} from "../../../domain/order-money";

const requested: OrderLine[] = [
  { listingId: 11, variationId: 101, sizes: { "8": 2, "9": 1 }, unitPriceCents: 4500 },
  { listingId: 12, variationId: 102, sizes: { M: 3 }, unitPriceCents: 1999 },
];

describe("order lines", () => {
  it("keys by listing, else by variation", () => {
    expect(orderLineKey({ listingId: 11 })).toBe("listing:11");
    expect(orderLineKey({ listingId: null, variationId: 5 })).toBe("variation:5");
    expect(() => orderLineKey({ listingId: null })).toThrow(RangeError);
  });

  it("quotes goods + 10% fee + shipping for the units (6 units -> $31.75)", () => {
    const q = orderQuote(requested);
    expect(orderUnits(requested)).toBe(6);
    expect(q.goodsCents).toBe(3 * 4500 + 3 * 1999); // 19497
    expect(q.feeCents).toBe(1950); // 1949.7 half up
    expect(q.shippingCents).toBe(3175);
    expect(q.totalCents).toBe(19497 + 1950 + 3175);
  });

  it("validates new lines", () => {
    expect(checkOrderLines(requested)).toEqual({ ok: true });
    expect(checkOrderLines([])).toMatchObject({ ok: false });
    expect(checkOrderLines([{ ...requested[0], sizes: { "8": 0 } }])).toMatchObject({ ok: false });
    expect(checkOrderLines([requested[0], requested[0]])).toMatchObject({
      ok: false,
      message: "line listing:11 appears twice",
    });
    expect(checkOrderLines([{ ...requested[0], unitPriceCents: 1.5 }])).toMatchObject({
      ok: false,
    });
    expect(checkOrderLines([{ ...requested[0], sizes: { "8": -1 } }])).toMatchObject({ ok: false });
  });

  it("compacts zero sizes and empty lines", () => {
    expect(
      compactOrderLines([
        { ...requested[0], sizes: { "8": 0, "9": 1 } },
        { ...requested[1], sizes: { M: 0 } },
      ]),
    ).toEqual([{ ...requested[0], sizes: { "9": 1 } }]);
  });
});

describe("checkModification", () => {
  it("accepts fewer units and removed lines, with the requested prices", () => {
    const r = checkModification(requested, [{ listingId: 11, sizes: { "8": 1, "9": 0 } }]);
    expect(r).toEqual({ ok: true, changed: true, lines: [{ ...requested[0], sizes: { "8": 1 } }] });
  });

  it("reports an unchanged selection", () => {
    const r = checkModification(requested, [
      { listingId: 12, sizes: { M: 3 } },
      { listingId: 11, sizes: { "9": 1, "8": 2 } },
    ]);
    expect(r).toMatchObject({ ok: true, changed: false });
  });

  it("never more than requested: total_too_high (a size raised, or a new size)", () => {
    expect(checkModification(requested, [{ listingId: 11, sizes: { "8": 3 } }])).toEqual({
      ok: false,
      code: "total_too_high",
    });
    expect(checkModification(requested, [{ listingId: 11, sizes: { "10": 1 } }])).toEqual({
      ok: false,
      code: "total_too_high",
    });
  });

  it("rejects unknown or repeated lines, bad quantities and an empty result", () => {
    expect(checkModification(requested, [{ listingId: 99, sizes: { "8": 1 } }])).toEqual({
      ok: false,
      code: "unknown_line",
    });
    expect(
      checkModification(requested, [
        { listingId: 11, sizes: { "8": 1 } },
        { listingId: 11, sizes: { "8": 1 } },
      ]),
    ).toEqual({
      ok: false,
      code: "unknown_line",
    });
    expect(checkModification(requested, [{ listingId: 11, sizes: { "8": 1.5 } }])).toEqual({
      ok: false,
      code: "invalid_quantity",
    });
    expect(checkModification(requested, [{ listingId: 11, sizes: { "8": -1 } }])).toEqual({
      ok: false,
      code: "invalid_quantity",
    });
    expect(checkModification(requested, [{ listingId: 11, sizes: { "8": 0 } }])).toEqual({
      ok: false,
      code: "no_units",
    });
    expect(checkModification(requested, [])).toEqual({ ok: false, code: "no_units" });
  });
});

describe("capture, payout, cancellation", () => {
  it("captures the approved quote, never more than authorised", () => {
    const authorized = orderQuote(requested).totalCents;
    const approved = [{ ...requested[0], sizes: { "8": 1 } }];
    expect(captureForLines(approved, authorized)).toBe(4500 + 450 + 1975);
    expect(captureForLines(requested, 1000)).toBe(1000);
    expect(payoutForLines(approved)).toBe(4500);
    expect(cancellationForLines(6925, approved)).toEqual({
      buyerRefundCents: 6925,
      sellerPenaltyCents: 450,
      sellerPayoutCents: 0,
    });
  });

  it("splits a capture into goods, fee and shipping; a capped capture loses shipping first, then fee", () => {
    // [capture asked, captured, fee, shipping]: the goods (19497) stay whole in both.
    for (const [asked, amountCents, feeCents, shippingCents] of [
      [1_000_000, 24622, 1950, 3175],
      [20000, 20000, 503, 0],
    ]) {
      expect(captureEntry(requested, asked)).toEqual({
        kind: "capture",
        amountCents,
        goodsCents: 19497,
        feeCents,
        shippingCents,
      });
    }
    const tiny = captureEntry(requested, 100);
    expect(tiny.goodsCents + tiny.feeCents + tiny.shippingCents).toBe(100);
    expect(tiny).toMatchObject({ goodsCents: 100, feeCents: 0, shippingCents: 0 });
  });
});

describe("orderLedger", () => {
  const approved = [{ ...requested[0], sizes: { "8": 1 } }];
  const auth: LedgerEntry = {
    kind: "authorization",
    amountCents: orderQuote(requested).totalCents,
  };

  it("a completed order: the buyer paid goods + fee + shipping, the seller the goods, the fee and shipping are kept", () => {
    const cap = captureEntry(approved, auth.amountCents);
    const l = orderLedger([auth, cap, { kind: "payout", amountCents: payoutForLines(approved) }]);
    expect(l).toMatchObject({
      buyerPaidCents: 6925,
      buyerNetCents: 6925,
      sellerPaidCents: 4500,
      escrowCents: 0,
      feeKeptCents: 450,
      shippingKeptCents: 1975,
      balanced: true,
    });
  });

  it("before pickup the goods money is in escrow", () => {
    const l = orderLedger([auth, captureEntry(approved, auth.amountCents)]);
    expect(l).toMatchObject({ escrowCents: 4500, sellerPaidCents: 0, balanced: true });
  });

  it("a cancelled order: full refund, penalty kept, nothing paid out", () => {
    const cap = captureEntry(approved, auth.amountCents);
    const s = cancellationForLines(cap.amountCents, approved);
    const l = orderLedger([
      auth,
      cap,
      { kind: "refund", amountCents: s.buyerRefundCents },
      { kind: "penalty", amountCents: s.sellerPenaltyCents },
    ]);
    expect(l).toMatchObject({
      buyerNetCents: 0,
      buyerRefundedCents: 6925,
      escrowCents: 0,
      feeKeptCents: 0,
      shippingKeptCents: 0,
      sellerPenaltyCents: 450,
      penaltyKeptCents: 450,
      sellerPaidCents: 0,
      balanced: true,
    });
  });

  it("a declined order only authorises and releases", () => {
    const l = orderLedger([
      auth,
      { kind: "authorization_released", amountCents: auth.amountCents },
    ]);
    expect(l).toMatchObject({
      buyerPaidCents: 0,
      authorizationReleasedCents: auth.amountCents,
      balanced: true,
    });
  });

  it("refuses impossible sequences", () => {
    const cap = captureEntry(approved, auth.amountCents);
    expect(() => orderLedger([{ ...cap }])).toThrow(/more than was authorised/);
    expect(() =>
      orderLedger([auth, cap, { kind: "refund", amountCents: cap.amountCents + 1 }]),
    ).toThrow(/more than the buyer paid/);
    expect(() => orderLedger([auth, cap, { kind: "payout", amountCents: 4501 }])).toThrow(
      /not in escrow/,
    );
    expect(() =>
      orderLedger([
        auth,
        cap,
        { kind: "refund", amountCents: 1 },
        { kind: "payout", amountCents: 4500 },
      ]),
    ).toThrow(/not in escrow/);
    expect(() => orderLedger([auth, { ...cap, goodsCents: 1 }])).toThrow(
      /goods \+ fee \+ shipping/,
    );
    expect(() => orderLedger([{ kind: "authorization_released", amountCents: 1 }])).toThrow(
      /release more/,
    );
    expect(() => orderLedger([{ kind: "refund", amountCents: -1 }])).toThrow(RangeError);
  });

  it("balances for every prefix of random valid sequences", () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 200; i++) {
      const lines: OrderLine[] = [
        { listingId: 1, sizes: { a: 1 + rnd(120) }, unitPriceCents: rnd(100000) },
      ];
      const a: LedgerEntry = { kind: "authorization", amountCents: orderQuote(lines).totalCents };
      const cap = captureEntry(lines, a.amountCents);
      const entries: LedgerEntry[] = [a, cap];
      if (rnd(2) === 0) entries.push({ kind: "payout", amountCents: cap.goodsCents });
      else
        entries.push(
          { kind: "refund", amountCents: cap.amountCents },
          {
            kind: "penalty",
            amountCents: cancellationForLines(cap.amountCents, lines).sellerPenaltyCents,
          },
        );
      for (let k = 1; k <= entries.length; k++)
        expect(orderLedger(entries.slice(0, k)).balanced).toBe(true);
    }
  });
});

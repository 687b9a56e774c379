import { describe, expect, it } from "vitest";
import {
  cancellationSettlement,
  captureCents,
  exceedsAuthorization,
  FEE_BASIS_POINTS,
  FEE_PERCENT,
  goodsUnits,
  goodsValueCents,
  lineValueCents,
  preAuthorizationCents,
  purchaseFeeCents,
  purchaseQuote,
  purchaseQuoteFromTotals,
  sellerPayoutCents,
  sellerPenaltyCents,
  swapFeeCents,
  swapValuation,
} from "../../../domain/fees";

describe("fee rates", () => {
  it("are the specification's", () => {
    expect(FEE_PERCENT).toEqual({ purchase: 10, saleAtCost: 0, swap: 5, sellerPenalty: 10 });
    for (const k of Object.keys(FEE_PERCENT) as (keyof typeof FEE_PERCENT)[]) {
      expect(FEE_BASIS_POINTS[k]).toBe(FEE_PERCENT[k] * 100);
    }
  });

  it("purchase fee is 10% half up", () => {
    expect(purchaseFeeCents(0)).toBe(0);
    expect(purchaseFeeCents(4)).toBe(0);
    expect(purchaseFeeCents(5)).toBe(1);
    expect(purchaseFeeCents(15)).toBe(2);
    expect(purchaseFeeCents(25)).toBe(3);
    expect(purchaseFeeCents(10000)).toBe(1000);
    expect(purchaseFeeCents(12345)).toBe(1235); // 1234.5 -> up
  });

  it("swap fee is 5% half up", () => {
    expect(swapFeeCents(10)).toBe(1);
    expect(swapFeeCents(9)).toBe(0);
    expect(swapFeeCents(30)).toBe(2);
    expect(swapFeeCents(20000)).toBe(1000);
  });

  it("sale at cost is free: the seller is paid the full goods value", () => {
    expect(sellerPayoutCents(0)).toBe(0);
    expect(sellerPayoutCents(12345)).toBe(12345);
  });

  it("penalty is 10% of the approved goods", () => {
    expect(sellerPenaltyCents(10000)).toBe(1000);
    expect(sellerPenaltyCents(25)).toBe(3);
  });
});

describe("goods lines", () => {
  it("accept a unit count or a sizes map", () => {
    expect(lineValueCents({ unitPriceCents: 2500, units: 3 })).toBe(7500);
    expect(lineValueCents({ unitPriceCents: 2500, units: { S: 1, M: 2 } })).toBe(7500);
    const lines = [
      { unitPriceCents: 2500, units: { S: 1, M: 2 } },
      { unitPriceCents: 1999, units: 2 },
    ];
    expect(goodsValueCents(lines)).toBe(7500 + 3998);
    expect(goodsUnits(lines)).toBe(5);
    expect(goodsValueCents([])).toBe(0);
  });

  it("reject bad units and prices", () => {
    expect(() => lineValueCents({ unitPriceCents: 2500, units: -1 })).toThrow(RangeError);
    expect(() => lineValueCents({ unitPriceCents: 2500, units: { S: 1.5 } })).toThrow(RangeError);
    expect(() => lineValueCents({ unitPriceCents: -1, units: 1 })).toThrow(RangeError);
    expect(() => lineValueCents({ unitPriceCents: 12.5, units: 1 })).toThrow(RangeError);
  });
});

describe("purchase quote", () => {
  it("is goods + 10% fee + shipping for the units", () => {
    const q = purchaseQuote([{ unitPriceCents: 2500, units: { S: 2, M: 2 } }]);
    expect(q).toEqual({
      units: 4,
      goodsCents: 10000,
      feeCents: 1000,
      shippingCents: 2775,
      totalCents: 13775,
    });
  });

  it("rounds the fee once on the whole goods value, not per line", () => {
    // two lines of 5 cents: per line 10% would be 1 + 1 = 2; on the total (10 cents) it is 1.
    const q = purchaseQuote([
      { unitPriceCents: 5, units: 1 },
      { unitPriceCents: 5, units: 1 },
    ]);
    expect(q.feeCents).toBe(1);
    expect(q.totalCents).toBe(10 + 1 + 2375);
  });

  it("an empty quote is zero", () => {
    expect(purchaseQuote([])).toEqual({
      units: 0,
      goodsCents: 0,
      feeCents: 0,
      shippingCents: 0,
      totalCents: 0,
    });
  });

  it("large orders ship as parcels", () => {
    const q = purchaseQuoteFromTotals(150 * 1000, 150);
    expect(q.shippingCents).toBe(3975 + 3975);
    expect(q.feeCents).toBe(15000);
    expect(q.totalCents).toBe(150000 + 15000 + 7950);
  });

  it("pre-authorisation = requested goods + fee + shipping of the requested units", () => {
    const requested = [{ unitPriceCents: 3150, units: { "7": 3, "8": 3 } }];
    // goods 18900, fee 1890, shipping (6 units) 3175
    expect(preAuthorizationCents(requested)).toBe(18900 + 1890 + 3175);
  });

  it("capture is for the approved units and never more than authorised", () => {
    const requested = purchaseQuote([{ unitPriceCents: 3150, units: 6 }]);
    const approved = purchaseQuote([{ unitPriceCents: 3150, units: 4 }]);
    expect(approved.totalCents).toBe(12600 + 1260 + 2775);
    expect(captureCents(approved, requested.totalCents)).toBe(approved.totalCents);
    expect(exceedsAuthorization(approved, requested.totalCents)).toBe(false);
    expect(captureCents(requested, approved.totalCents)).toBe(approved.totalCents);
    expect(exceedsAuthorization(requested, approved.totalCents)).toBe(true);
  });

  it("a cancellation refunds the buyer in full and charges the seller 10% of the approved goods", () => {
    expect(cancellationSettlement(13775, 10000)).toEqual({
      buyerRefundCents: 13775,
      sellerPenaltyCents: 1000,
      sellerPayoutCents: 0,
    });
  });
});

describe("swap valuation", () => {
  it("without call-it-even the cheaper side adds the difference in cash", () => {
    const v = swapValuation({
      provider: { goodsCents: 10000, units: 4 },
      receiver: { goodsCents: 7000, units: 3 },
      callItEven: false,
    });
    expect(v.largerGoodsCents).toBe(10000);
    expect(v.differenceCents).toBe(3000);
    expect(v.cashFrom).toBe("receiver");
    expect(v.forgivenCents).toBe(0);
    expect(v.receiver).toEqual({
      goodsCents: 7000,
      cashCents: 3000,
      contributionCents: 10000,
      feeCents: 500,
      shippingCents: 2775, // receives the provider's 4 units
      totalDueCents: 3000 + 500 + 2775,
    });
    expect(v.provider).toEqual({
      goodsCents: 10000,
      cashCents: 0,
      contributionCents: 10000,
      feeCents: 500,
      shippingCents: 2375, // receives the receiver's 3 units
      totalDueCents: 500 + 2375,
    });
    // both contributions are worth the larger goods value
    expect(v.provider.contributionCents).toBe(v.receiver.contributionCents);
  });

  it("the provider adds cash when its goods are worth less", () => {
    const v = swapValuation({
      provider: { goodsCents: 100, units: 1 },
      receiver: { goodsCents: 250, units: 1 },
      callItEven: false,
    });
    expect(v.cashFrom).toBe("provider");
    expect(v.provider.cashCents).toBe(150);
    expect(v.receiver.cashCents).toBe(0);
  });

  it("with call-it-even the difference is forgiven and both pay 5% of the larger value", () => {
    const v = swapValuation({
      provider: { goodsCents: 10000, units: 4 },
      receiver: { goodsCents: 7000, units: 3 },
      callItEven: true,
    });
    expect(v.cashFrom).toBeNull();
    expect(v.forgivenCents).toBe(3000);
    expect(v.provider.cashCents).toBe(0);
    expect(v.receiver.cashCents).toBe(0);
    expect(v.provider.feeCents).toBe(500);
    expect(v.receiver.feeCents).toBe(500);
    expect(v.receiver.contributionCents).toBe(7000);
  });

  it("equal values need no cash; fees round half up", () => {
    const v = swapValuation({
      provider: { goodsCents: 30, units: 0 },
      receiver: { goodsCents: 30, units: 0 },
      callItEven: false,
    });
    expect(v.cashFrom).toBeNull();
    expect(v.provider.feeCents).toBe(2); // 1.5 -> 2
    expect(v.receiver.shippingCents).toBe(0);
  });

  it("rejects bad inputs", () => {
    expect(() =>
      swapValuation({
        provider: { goodsCents: -1, units: 1 },
        receiver: { goodsCents: 1, units: 1 },
        callItEven: false,
      }),
    ).toThrow(RangeError);
    expect(() =>
      swapValuation({
        provider: { goodsCents: 1, units: -1 },
        receiver: { goodsCents: 1, units: 1 },
        callItEven: false,
      }),
    ).toThrow(RangeError);
  });
});

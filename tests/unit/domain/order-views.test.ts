// How an order reads on its pages (domain/order-views.ts): table cases of the type labels, the reasons' owners
// and texts, a swap's units, amounts, windows and staff ledger.
import { describe, expect, test } from "vitest";
import { ACTION } from "../../../domain/action-codes";
import {
  orderTypeLabel,
  packingSlipTypeLabel,
  reasonOwner,
  reasonViews,
  swapAmountsOf,
  swapLedgerOf,
  swapUnitsOf,
  swapWindowsOf,
  ttypeOf,
} from "../../../domain/order-views";
import type { Role } from "../../../domain/states";

describe("type labels", () => {
  test.each([
    [1, "provider", "Sale"],
    [1, "receiver", "Purchase"],
    [1, null, "Sale"],
    [2, "provider", "Swap"],
    [2, "receiver", "Swap"],
    [2, null, "Swap"],
    [3, "provider", "RMA"],
    [3, null, "RMA"],
  ] as const)("type %i read by %s: %s", (type, role, label) => {
    expect(orderTypeLabel(type, role)).toBe(label);
  });

  test.each([
    [1, "Sale"],
    [2, "Swap"],
    [3, "Return (RMA)"],
  ])("the packing slip of type %i says %s", (type, label) => {
    expect(packingSlipTypeLabel(type)).toBe(label);
  });

  test.each([
    [1, "buy"],
    [2, "swap"],
    [3, "buy"],
  ])("type %i opens at /transaction/%s/", (type, ttype) => {
    expect(ttypeOf(type)).toBe(ttype);
  });
});

describe("reasons", () => {
  test.each<[string, number[], Role | "system"]>([
    ["provider_decline_buy_reason", [], "provider"],
    ["receiver_decline_modified_purchase_reason", [ACTION.SELLER_RESPONSE_EXPIRED], "receiver"],
    ["system_reason", [], "system"],
    ["system_reason", [ACTION.CHECKOUT_COMPLETED], "system"],
    ["system_reason", [ACTION.CHECKOUT_COMPLETED, ACTION.SELLER_RESPONSE_EXPIRED], "provider"],
    ["system_reason", [ACTION.PROVIDER_ORDER_NON_SHIPMENT], "provider"],
    ["system_reason", [ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER], "provider"],
    ["system_reason", [ACTION.CHECKOUT_EXPIRED], "receiver"],
    ["system_reason", [ACTION.MODIFIED_PURCHASE_EXPIRED], "receiver"],
    ["system_reason", [ACTION.REQUEST_CHECKOUT_EXPIRED], "receiver"],
    // The last timer step counts.
    [
      "system_reason",
      [ACTION.CHECKOUT_EXPIRED, ACTION.SELLER_RESPONSE_EXPIRED, ACTION.CHECKOUT_COMPLETED],
      "provider",
    ],
    [
      "system_reason",
      [ACTION.SELLER_RESPONSE_EXPIRED, ACTION.MODIFIED_PURCHASE_EXPIRED],
      "receiver",
    ],
  ])("%s after %j was given by %s", (key, codes, owner) => {
    expect(reasonOwner(key, codes)).toBe(owner);
  });

  test.each<[Record<string, number | string>, Role | null, number[], string[]]>([
    [{ provider_decline_buy_reason: 14 }, "provider", [], ["You: The units sold in my store"]],
    [
      { provider_decline_buy_reason: 14 },
      "receiver",
      [],
      ["Other Retailer: The units sold in my store"],
    ],
    [{ provider_decline_buy_reason: 14 }, null, [], ["Seller: The units sold in my store"]],
    [
      { receiver_decline_modified_purchase_reason: 30 },
      "provider",
      [],
      ["Other Retailer: The modified order no longer works for me"],
    ],
    [
      { receiver_decline_modified_purchase_reason: "30" },
      null,
      [],
      ["Buyer: The modified order no longer works for me"],
    ],
    [
      { system_reason: 40 },
      "receiver",
      [ACTION.CHECKOUT_COMPLETED, ACTION.SELLER_RESPONSE_EXPIRED],
      ["Other Retailer: Not answered in time"],
    ],
    [
      { system_reason: 40 },
      "provider",
      [ACTION.SELLER_RESPONSE_EXPIRED],
      ["You: Not answered in time"],
    ],
    [{ system_reason: 40 }, "provider", [], ["Not answered in time"]],
    // Display copies and values that are no code are left out.
    [
      { provider_decline_buy_reason: 14, provider_decline_buy_reason_display: "x", other: "n/a" },
      "provider",
      [],
      ["You: The units sold in my store"],
    ],
  ])("%j read by %s after %j", (reasons, role, codes, texts) => {
    expect(reasonViews(reasons, role, codes).map((r) => r.text)).toEqual(texts);
  });

  test("a view carries the key, code, label and owner", () => {
    expect(reasonViews({ provider_decline_buy_reason: 14 }, "receiver")).toEqual([
      {
        key: "provider_decline_buy_reason",
        code: 14,
        label: "The units sold in my store",
        by: "provider",
        text: "Other Retailer: The units sold in my store",
      },
    ]);
  });
});

describe("a swap", () => {
  test.each<[Role, { sent: number; received: number }]>([
    ["provider", { sent: 2, received: 3 }],
    ["receiver", { sent: 3, received: 2 }],
  ])("the %s of 5 units, 2 of them the provider's, sends and receives %j", (role, units) => {
    expect(swapUnitsOf(role, 5, 2)).toEqual(units);
  });

  const row = {
    transactionType: 2,
    providerFeeCents: 800,
    providerShippingCents: 2375,
    receiverFeeCents: 900,
    receiverShippingCents: 2400,
  };

  test("amounts: the valuation's goods, cash, due and forgiven; fee and shipping from the columns; 0 for a missing entry", () => {
    const ledger = {
      providerGoodsCents: 10000,
      providerCashCents: 6000,
      providerDueCents: 9175,
      receiverGoodsCents: 16000,
      receiverDueCents: 3300,
      callItEven: false,
    };
    expect(swapAmountsOf({ ...row, ledger })).toEqual({
      provider: {
        goodsCents: 10000,
        cashCents: 6000,
        feeCents: 800,
        shippingCents: 2375,
        dueCents: 9175,
      },
      receiver: {
        goodsCents: 16000,
        cashCents: 0,
        feeCents: 900,
        shippingCents: 2400,
        dueCents: 3300,
      },
      forgivenCents: 0,
    });
  });

  test.each([
    ["a purchase", { ...row, transactionType: 1, ledger: { providerGoodsCents: 1 } }],
    ["a swap with nothing recorded", { ...row, ledger: null }],
  ])("amounts of %s: null", (_, order) => {
    expect(swapAmountsOf(order)).toBeNull();
  });

  test.each<[unknown, Role, { ratingBy: string | null; rmaBy: string | null }]>([
    [
      { providerRatingBy: "2026-01-02T00:00:00.000Z", providerRmaBy: "2026-01-09T00:00:00.000Z" },
      "provider",
      { ratingBy: "2026-01-02T00:00:00.000Z", rmaBy: "2026-01-09T00:00:00.000Z" },
    ],
    [
      { providerRatingBy: "2026-01-02T00:00:00.000Z", receiverRmaBy: 5 },
      "receiver",
      { ratingBy: null, rmaBy: null },
    ],
    [null, "provider", { ratingBy: null, rmaBy: null }],
  ])("windows of %j for the %s", (deadlines, role, windows) => {
    expect(swapWindowsOf(deadlines, role)).toEqual(windows);
  });

  describe("staff ledger", () => {
    // The provider (id 1) gives $100.00 in 2 units, the receiver (id 2) $160.00 in 3: the provider adds $60,
    // both pay a $8.00 fee and $23.75 shipping (the cases of tests/unit/domain/swap-money.test.ts).
    const order = {
      providerId: 1,
      ledger: { providerGoodsCents: 10000, callItEven: false } as Record<string, number | boolean>,
    };
    const lines = [
      { side: "provider", type: "goods", quantity: 2, valueCents: 10000 },
      { side: "receiver", type: "goods", quantity: 3, valueCents: 16000 },
      { side: "provider", type: "cash", quantity: 1, valueCents: 6000 },
    ];
    const paid = [
      { retailerId: 1, txtype: "capture", status: "succeeded", amountCents: 9175 },
      { retailerId: 2, txtype: "capture", status: "succeeded", amountCents: 3175 },
    ];
    const payout = { retailerId: 2, txtype: "transfer", status: "succeeded", amountCents: 6000 };
    const delivered = [
      { senderId: 1, status: "delivered" },
      { senderId: 2, status: "delivered" },
    ];

    test.each([
      [
        "a parcel still on its way: no expectation yet",
        [
          { senderId: 1, status: "in_route" },
          { senderId: 2, status: "delivered" },
        ],
        [...paid],
        { keptCents: 12350, balanced: true },
      ],
      [
        "both delivered, the receiver paid out: where the settlement puts them",
        delivered,
        [...paid, payout],
        { keptCents: 6350, expectedKeptCents: 6350, balanced: true },
      ],
      [
        "both delivered, no payout yet: not balanced",
        delivered,
        [...paid],
        { keptCents: 12350, expectedKeptCents: 6350, balanced: false },
      ],
    ])("%s", (_, ships, pays, figures) => {
      const out = swapLedgerOf(order, lines, ships, pays);
      expect(out).toMatchObject({
        providerGoodsCents: 10000,
        callItEven: false,
        providerPaidCents: 9175,
        receiverPaidCents: 3175,
        ...figures,
      });
      if (!("expectedKeptCents" in figures)) expect(out).not.toHaveProperty("expectedKeptCents");
    });

    test("the last parcel of a side counts: a rebooked parcel delivered after a cancelled one", () => {
      const ships = [{ senderId: 1, status: "cancelled" }, ...delivered];
      expect(swapLedgerOf(order, lines, ships, [...paid, payout])).toMatchObject({
        expectedKeptCents: 6350,
        balanced: true,
      });
    });
  });
});

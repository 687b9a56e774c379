import { describe, expect, test } from "vitest";
import {
  SWAP_AWAITING_RETAILER,
  SWAP_AWAITING_YOUR_SELECTION,
  SWAP_REQUEST_DECLINED,
} from "../../domain/messages";
import { currentReasons } from "../../domain/reasons";
import { isMoveOf } from "../../domain/states";
import { orderCardStatus, swapCompletionText } from "../../domain/swap-texts";

describe("swapCompletionText", () => {
  test.each([
    // [role, statename, actionNeeded, text]
    ["receiver", "provider_choose_items", "provider", SWAP_AWAITING_RETAILER],
    ["provider", "provider_choose_items", "provider", SWAP_AWAITING_YOUR_SELECTION],
    ["provider", "receiver_approve", "receiver", SWAP_AWAITING_RETAILER],
    ["receiver", "receiver_approve", "receiver", null],
    ["provider", "payment", "both", null],
    ["provider", "payment", "receiver", SWAP_AWAITING_RETAILER],
    ["receiver", "swap_declined_by_provider_money", "receiver", null],
    ["provider", "swap_declined_by_provider_money", "receiver", SWAP_AWAITING_RETAILER],
    ["receiver", "declined", null, SWAP_REQUEST_DECLINED],
    ["provider", "declined", null, SWAP_REQUEST_DECLINED],
    ["receiver", "ship_swap", null, null],
    [null, "provider_choose_items", "provider", null],
  ] as const)("%s in %s (move: %s) -> %s", (role, statename, actionNeeded, text) => {
    expect(swapCompletionText({ role, statename, actionNeeded })).toBe(text);
  });

  test("the texts are the specification's", () => {
    expect([SWAP_AWAITING_RETAILER, SWAP_AWAITING_YOUR_SELECTION, SWAP_REQUEST_DECLINED]).toEqual([
      "awaiting retailer's response",
      "awaiting your selection",
      "Swap Request Declined",
    ]);
  });
});

describe("orderCardStatus", () => {
  test.each([
    // [swap, statename, stored display status, my move, shown]
    [true, "payment", "Payment Method Needed", true, "Payment Due"],
    [true, "payment", "Payment Method Needed", false, "Awaiting the Other Side's Payment"],
    [true, "receiver_approve", "Awaiting Swap Approval", true, "Awaiting Swap Approval"],
    [false, "payment", "Payment Method Needed", true, "Payment Method Needed"],
    [false, "ship_order", "Pickup Scheduled", false, "Pickup Scheduled"],
  ] as const)(
    "swap %s in %s (%s, my move %s) -> %s",
    (swap, statename, displayStatus, myMove, shown) => {
      expect(orderCardStatus({ swap, statename, displayStatus, myMove })).toBe(shown);
    },
  );
});

describe("isMoveOf", () => {
  test.each([
    // [actionNeeded, role, the side's move]
    ["provider", "provider", true],
    ["provider", "receiver", false],
    ["receiver", "receiver", true],
    ["both", "provider", true],
    ["both", "receiver", true],
    [null, "provider", false],
    ["staff", "provider", false],
    ["both", null, false],
  ] as const)("%s, %s -> %s", (actionNeeded, role, mine) => {
    expect(isMoveOf(actionNeeded, role)).toBe(mine);
  });
});

describe("currentReasons", () => {
  const money = { receiver_decline_swap_reason: 61 };
  test.each([
    // [kind, statename, reasons, shown]
    ["swap", "swap_declined_by_receiver_money", money, money],
    ["swap", "declined", money, money],
    // Called even: the money decline no longer stands.
    ["swap", "payment", money, {}],
    [
      "swap",
      "ship_swap",
      { ...money, provider_cancel_shipment_reason: 50 },
      { provider_cancel_shipment_reason: 50 },
    ],
    ["swap", "declined", { provider_system_reason: 40 }, { provider_system_reason: 40 }],
    ["buy", "declined", { provider_decline_buy_reason: 12 }, { provider_decline_buy_reason: 12 }],
    ["buy", "provider_approve_sale", null, {}],
  ] as const)("%s in %s: %j -> %j", (kind, statename, reasons, shown) => {
    expect(currentReasons(kind, statename, reasons)).toEqual(shown);
  });
});

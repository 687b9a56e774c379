import { describe, expect, it } from "vitest";
import {
  ACTION_PANELS,
  actionNeededBy,
  actionPanelFor,
  ADMIN_STAGES,
  ALL_BUY_STATES,
  ALL_SWAP_STATES,
  ALL_TRANSACTION_STATES,
  BUY_STATES,
  canCancelShipment,
  canProviderModifySale,
  COMMON_STATES,
  completedFlagFor,
  counterpartyId,
  DISPLAY_STATUS,
  displayStatusFor,
  isAdminStage,
  isParty,
  isTerminalState,
  isTransactionState,
  isTransactionType,
  isValidRating,
  otherRole,
  retailerActivation,
  rmaLineApprovalLabel,
  rmaRoleOf,
  roleOf,
  SHIPMENT_STATUS_DISPLAY,
  stageForState,
  SWAP_STATES,
  TRANSACTION_TYPE,
  TRANSACTION_TYPE_LABELS,
  transactionTypeLabel,
} from "../../../domain/states";

describe("state names", () => {
  it("keep the specification's names", () => {
    expect(Object.values(BUY_STATES)).toEqual([
      "complete_order_checkout",
      "store_approve_purchase", // ours: a store's approval over a buyer's limit (docs/product/teams.md)
      "provider_approve_sale",
      "payment",
      "receiver_approve_modified_purchase",
      "ship_order",
      "ship_order_try2",
    ]);
    expect(Object.values(SWAP_STATES)).toEqual([
      "provider_choose_items",
      "provider_approve",
      "receiver_approve",
      "payment",
      "ship_swap",
      "ship_swap_try2",
      "swap_declined_by_provider_money",
      "swap_declined_by_receiver_money",
    ]);
  });

  it("are snake_case and unique", () => {
    for (const s of ALL_TRANSACTION_STATES) expect(s).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    expect(new Set(ALL_TRANSACTION_STATES).size).toBe(ALL_TRANSACTION_STATES.length);
    expect(isTransactionState("ship_order")).toBe(true);
    expect(isTransactionState("shipped")).toBe(false);
    expect(isTransactionState(3)).toBe(false);
  });

  it("terminal states", () => {
    for (const s of ["completed", "declined", "cancelled", "expired"])
      expect(isTerminalState(s)).toBe(true);
    for (const s of ["ship_order", "delivered", "in_route", "provider_approve_sale"])
      expect(isTerminalState(s)).toBe(false);
  });
});

describe("display statuses", () => {
  it("use the specification's texts where it has them", () => {
    expect(displayStatusFor("buy", "ship_order")).toBe("Pickup Scheduled");
    expect(displayStatusFor("buy", "ship_order_try2")).toBe("Pickup Scheduled");
    expect(displayStatusFor("buy", "in_route")).toBe("In-Route");
    expect(displayStatusFor("buy", "delivered")).toBe("Delivered");
    expect(displayStatusFor("buy", "cancelled")).toBe("Cancelled");
    expect(displayStatusFor("buy", "declined")).toBe("Declined");
    expect(displayStatusFor("buy", "receiver_approve_modified_purchase")).toBe(
      "Approve/Decline Modified Purchase",
    );
    expect(displayStatusFor("swap", "ship_swap")).toBe("Pickup Scheduled");
    expect(SHIPMENT_STATUS_DISPLAY.in_route).toBe("In-Route");
  });

  it("every state of a kind has one; unknown ones throw", () => {
    for (const s of ALL_BUY_STATES)
      expect(Object.values(DISPLAY_STATUS)).toContain(displayStatusFor("buy", s));
    for (const s of ALL_SWAP_STATES)
      expect(Object.values(DISPLAY_STATUS)).toContain(displayStatusFor("swap", s));
    expect(() => displayStatusFor("buy", "provider_choose_items")).toThrow(RangeError);
    expect(() => displayStatusFor("buy", "nope")).toThrow(RangeError);
  });
});

describe('action panel by state name (docs/product/glossary.md, "Action panels")', () => {
  it.each([
    ["buy", "complete_order_checkout", "complete-checkout"],
    ["buy", "provider_approve_sale", "provider-approve"],
    ["buy", "payment", "provider-approve"],
    ["buy", "receiver_approve_modified_purchase", "provider-approve"],
    ["buy", "ship_order", "shipment-pending"],
    ["buy", "ship_order_try2", "shipment-pending"],
    ["buy", "some_unknown_state", "provider-approve"],
    ["swap", "provider_choose_items", "modify-approve-swap"],
    ["swap", "provider_approve", "modify-approve-swap"],
    ["swap", "receiver_approve", "modify-approve-swap"],
    ["swap", "payment", "modify-approve-swap"],
    ["swap", "ship_swap", "swap-shipment-pending"],
    ["swap", "ship_swap_try2", "swap-shipment-pending"],
    ["swap", "swap_declined_by_provider_money", "call-it-even"],
    ["swap", "swap_declined_by_receiver_money", "call-it-even"],
    ["buy", "in_route", "order-summary"],
    ["buy", "delivered", "order-summary"],
    ["swap", "completed", "order-summary"],
    ["buy", "declined", "order-summary"],
  ] as const)("%s %s -> %s", (kind, state, panel) => {
    expect(actionPanelFor(kind, state)).toBe(panel);
  });

  it("panel names are the spec's", () => {
    expect(Object.values(ACTION_PANELS)).toContain("call-it-even");
  });
});

describe("whose move", () => {
  it.each([
    ["buy", "complete_order_checkout", "receiver"],
    ["buy", "provider_approve_sale", "provider"],
    ["buy", "payment", "provider"],
    ["buy", "receiver_approve_modified_purchase", "receiver"],
    ["buy", "ship_order", null],
    ["buy", "in_route", null],
    ["buy", "delivered", "receiver"],
    ["buy", "completed", null],
    ["swap", "provider_choose_items", "provider"],
    ["swap", "receiver_approve", "receiver"],
    ["swap", "swap_declined_by_provider_money", "receiver"],
    ["swap", "swap_declined_by_receiver_money", "provider"],
    ["swap", "payment", null],
  ] as const)("%s %s -> %s", (kind, state, role) => {
    expect(actionNeededBy(kind, state)).toBe(role);
  });

  it("modify and cancel rules", () => {
    expect(canProviderModifySale("provider_approve_sale", false)).toBe(true);
    expect(canProviderModifySale("provider_approve_sale", true)).toBe(false);
    expect(canProviderModifySale("payment", false)).toBe(false);
    for (const s of ["ship_order", "ship_order_try2", "ship_swap", "ship_swap_try2"])
      expect(canCancelShipment(s)).toBe(true);
    for (const s of ["in_route", "delivered", "cancelled", "completed", "provider_approve_sale"])
      expect(canCancelShipment(s)).toBe(false);
  });
});

describe("admin stages", () => {
  it("are the specification's list", () => {
    expect(ADMIN_STAGES).toEqual([
      "all",
      "pre_shipping",
      "approved",
      "shipping",
      "delivered",
      "complete",
      "declined",
      "cancelled",
    ]);
    expect(isAdminStage("shipping")).toBe(true);
    expect(isAdminStage("pending")).toBe(false);
  });

  it.each([
    ["complete_order_checkout", "pre_shipping"],
    ["provider_approve_sale", "pre_shipping"],
    ["payment", "pre_shipping"],
    ["receiver_approve_modified_purchase", "pre_shipping"],
    ["provider_choose_items", "pre_shipping"],
    ["swap_declined_by_receiver_money", "pre_shipping"],
    ["ship_order", "approved"],
    ["ship_order_try2", "approved"],
    ["ship_swap", "approved"],
    ["in_route", "shipping"],
    ["delivered", "delivered"],
    ["completed", "complete"],
    ["declined", "declined"],
    ["expired", "declined"],
    ["cancelled", "cancelled"],
  ])("%s -> %s", (state, stage) => {
    expect(stageForState(state)).toBe(stage);
  });

  it("every state maps to a real stage; unknown states throw", () => {
    for (const s of ALL_TRANSACTION_STATES) expect(ADMIN_STAGES).toContain(stageForState(s));
    expect(() => stageForState("nope")).toThrow(RangeError);
  });

  it("completed flag: null awaiting, false declined, true done", () => {
    expect(completedFlagFor("provider_approve_sale")).toBeNull();
    expect(completedFlagFor("ship_order")).toBeNull();
    expect(completedFlagFor(COMMON_STATES.DECLINED)).toBe(false);
    expect(completedFlagFor(COMMON_STATES.EXPIRED)).toBe(false);
    expect(completedFlagFor(COMMON_STATES.CANCELLED)).toBe(false);
    expect(completedFlagFor(COMMON_STATES.COMPLETED)).toBe(true);
  });
});

describe("transaction types and roles", () => {
  it("types 1 Sale, 2 Swap, 3 RMA", () => {
    expect(TRANSACTION_TYPE).toEqual({ SALE: 1, SWAP: 2, RMA: 3 });
    expect(TRANSACTION_TYPE_LABELS).toEqual({ 1: "Sale", 2: "Swap", 3: "RMA" });
    expect(isTransactionType(2)).toBe(true);
    expect(isTransactionType(4)).toBe(false);
    expect(isTransactionType("1")).toBe(false);
  });

  it("provider if the order's provider is the current retailer, else receiver", () => {
    const order = { providerId: 7, receiverId: 9 };
    expect(roleOf(order, 7)).toBe("provider");
    expect(roleOf(order, 9)).toBe("receiver");
    expect(counterpartyId(order, 7)).toBe(9);
    expect(counterpartyId(order, 9)).toBe(7);
    expect(otherRole("provider")).toBe("receiver");
    expect(isParty(order, 7)).toBe(true);
    expect(isParty(order, 8)).toBe(false);
    expect(rmaRoleOf(order, 9)).toBe("receiver");
    expect(rmaRoleOf(order, 7)).toBe("provider");
  });

  it("a sale is a Purchase to the receiver", () => {
    expect(transactionTypeLabel(1, "provider")).toBe("Sale");
    expect(transactionTypeLabel(1, "receiver")).toBe("Purchase");
    expect(transactionTypeLabel(2, "receiver")).toBe("Swap");
    expect(transactionTypeLabel(3, "provider")).toBe("RMA");
  });

  it("other lists", () => {
    expect(retailerActivation(null)).toBe("pending");
    expect(retailerActivation(true)).toBe("active");
    expect(retailerActivation(false)).toBe("inactive");
    expect(rmaLineApprovalLabel(null)).toBe("pending");
    expect(rmaLineApprovalLabel(true)).toBe("approved");
    expect(rmaLineApprovalLabel(false)).toBe("declined");
    expect(isValidRating(1)).toBe(true);
    expect(isValidRating(5)).toBe(true);
    expect(isValidRating(0)).toBe(false);
    expect(isValidRating(6)).toBe(false);
    expect(isValidRating(2.5)).toBe(false);
  });
});

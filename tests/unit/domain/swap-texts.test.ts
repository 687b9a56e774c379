import { describe, expect, it } from "vitest";
import { swapPaymentDueText } from "../../../domain/swap-texts";

describe("swapPaymentDueText", () => {
  it("a side that owes its payment reads the amount; a side that paid or owes nothing, or another state, reads nothing", () => {
    expect(swapPaymentDueText("payment", { dueCents: 1234, paid: false })).toBe(
      "Payment Due: $12.34",
    );
    expect(swapPaymentDueText("payment", { dueCents: 1234, paid: true })).toBeNull();
    expect(swapPaymentDueText("payment", { dueCents: 0, paid: false })).toBeNull();
    expect(swapPaymentDueText("payment", null)).toBeNull();
    expect(swapPaymentDueText("ship_swap", { dueCents: 1234, paid: false })).toBeNull();
  });
});

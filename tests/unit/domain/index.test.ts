import { describe, expect, it } from "vitest";
import * as domain from "../../../domain";

describe("domain/index re-exports every module", () => {
  it.each([
    "formatCents",
    "percentOf",
    "purchaseQuote",
    "swapValuation",
    "shippingCentsForUnits",
    "addBusinessDays",
    "WINDOWS",
    "BUY_STATES",
    "actionPanelFor",
    "ACTION",
    "ACTION_CODES",
    "SELLER_DECLINE_REASONS",
    "anonymousRetailerLabel",
    "CARD_DECLINED",
  ])("%s", (name) => {
    expect((domain as Record<string, unknown>)[name]).toBeDefined();
  });
});

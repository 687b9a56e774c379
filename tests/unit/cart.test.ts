/** The cart's pure rules (domain/cart.ts) and the test cards (domain/cards.ts). */
import { describe, expect, it } from "vitest";
import {
  CART_MESSAGES,
  CheckoutTermsSchema,
  SELL_TO_REQUEST_MAX_PER_SIZE,
  SellInfoSchema,
  cartTabState,
  checkAdd,
  lineKey,
  orderNumber,
  proceedLabel,
  selectionFromEntries,
  swapBlock,
  validateSelection,
  withLine,
  withoutLine,
  type CartState,
} from "../../domain/cart";
import {
  CARD_DECLINED,
  cardBrandLabel,
  testCardFormSchema,
  testCardFromNumber,
} from "../../domain/cards";
import { ADD_AT_LEAST_ONE_SIZE, FILL_OUT_EVERYTHING } from "../../domain/messages";

const ME = 1;
const empty: CartState = { type: null, items: [] };

describe("cartTabState: the type lock of the marketplace tabs", () => {
  it("an empty cart disables nothing", () => {
    expect(cartTabState(null)).toEqual({
      lockedTo: null,
      disabled: { buy: false, swap: false, sell: false },
    });
    expect(cartTabState(undefined).disabled).toEqual({ buy: false, swap: false, sell: false });
  });
  it.each([
    ["buy", { buy: false, swap: true, sell: true }],
    ["swap", { buy: true, swap: false, sell: true }],
    ["sell", { buy: true, swap: true, sell: false }],
  ] as const)("a %s cart disables the other two tabs", (type, disabled) => {
    expect(cartTabState(type)).toEqual({ lockedTo: type, disabled });
  });
  it("labels of the bar are the spec's", () => {
    expect(proceedLabel("buy")).toBe("Proceed with purchase");
    expect(proceedLabel("swap")).toBe("Proceed with swap");
    expect(proceedLabel("sell")).toBe("Proceed with sell");
  });
});

describe("validateSelection", () => {
  const available = { S: 2, M: 1, L: 0 };
  it("needs at least one unit: the spec's message verbatim", () => {
    expect(validateSelection({ selection: {}, available, mode: "buy" })).toEqual({
      ok: false,
      message: ADD_AT_LEAST_ONE_SIZE,
    });
    expect(validateSelection({ selection: { S: 0, M: 0 }, available, mode: "swap" })).toEqual({
      ok: false,
      message: "Please add at least one size.",
    });
  });
  it("never more than available for buy and swap", () => {
    expect(validateSelection({ selection: { S: 3 }, available, mode: "buy" })).toEqual({
      ok: false,
      message: CART_MESSAGES.moreThanAvailable,
    });
    expect(validateSelection({ selection: { L: 1 }, available, mode: "swap" })).toEqual({
      ok: false,
      message: CART_MESSAGES.moreThanAvailable,
    });
    expect(validateSelection({ selection: { S: 2, M: 1, L: 0 }, available, mode: "buy" })).toEqual({
      ok: true,
      selection: { S: 2, M: 1 },
    });
  });
  it("selling to a request is relaxed to 10000 per size", () => {
    expect(validateSelection({ selection: { S: 50 }, available, mode: "sell" })).toEqual({
      ok: true,
      selection: { S: 50 },
    });
    expect(
      validateSelection({ selection: { S: SELL_TO_REQUEST_MAX_PER_SIZE }, available, mode: "sell" })
        .ok,
    ).toBe(true);
    expect(
      validateSelection({
        selection: { S: SELL_TO_REQUEST_MAX_PER_SIZE + 1 },
        available,
        mode: "sell",
      }),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.tooManyForRequest,
    });
  });
  it("refuses sizes the style does not have and non-integers", () => {
    expect(validateSelection({ selection: { XXL: 1 }, available, mode: "buy" })).toEqual({
      ok: false,
      message: CART_MESSAGES.unknownSize,
    });
    expect(validateSelection({ selection: { S: 1.5 }, available, mode: "buy" })).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidQuantity,
    });
    expect(validateSelection({ selection: { S: -1 }, available, mode: "buy" })).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidQuantity,
    });
  });
});

describe("selectionFromEntries: the size.<label> form fields", () => {
  it("reads size fields, skips blanks and other fields", () => {
    expect(
      selectionFromEntries([
        ["intent", "add"],
        ["size.S", "2"],
        ["size.M", ""],
        ["size.10.5", " 1 "],
      ]),
    ).toEqual({ ok: true, selection: { S: 2, "10.5": 1 } });
  });
  it("refuses what is not a whole number", () => {
    expect(selectionFromEntries([["size.S", "two"]])).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidQuantity,
    });
    expect(selectionFromEntries([["size.S", "-1"]])).toEqual({
      ok: false,
      message: CART_MESSAGES.invalidQuantity,
    });
    expect(selectionFromEntries([["size.", "1"]])).toEqual({
      ok: false,
      message: CART_MESSAGES.unknownSize,
    });
  });
});

describe("checkAdd: type lock, swap lock, own items", () => {
  const buyLine = { listingId: 10, selection: { S: 1 }, providerId: 2, brandId: 5 };
  it("the first item sets the type", () => {
    expect(checkAdd(empty, buyLine, "buy", ME)).toEqual({ ok: true, type: "buy" });
    const cart = withLine(empty, buyLine, "buy");
    expect(cart.type).toBe("buy");
  });
  it("another type is refused while the cart has items", () => {
    const cart = withLine(empty, buyLine, "buy");
    const r = checkAdd(
      cart,
      { listingId: 11, selection: { S: 1 }, providerId: 3, brandId: 5 },
      "swap",
      ME,
    );
    expect(r).toEqual({ ok: false, message: CART_MESSAGES.typeLocked("buy", "swap") });
    expect(
      checkAdd(cart, { requestId: 7, selection: { S: 1 }, providerId: 3, brandId: 5 }, "sell", ME)
        .ok,
    ).toBe(false);
  });
  it("buy carts take several brands and sellers", () => {
    const cart = withLine(empty, buyLine, "buy");
    expect(
      checkAdd(cart, { listingId: 12, selection: { M: 1 }, providerId: 9, brandId: 6 }, "buy", ME)
        .ok,
    ).toBe(true);
  });
  it("a swap cart is fixed to the first item's brand and provider", () => {
    const swap = withLine(
      empty,
      { listingId: 20, selection: { S: 1 }, providerId: 2, brandId: 5 },
      "swap",
    );
    expect(
      checkAdd(swap, { listingId: 21, selection: { S: 1 }, providerId: 2, brandId: 5 }, "swap", ME)
        .ok,
    ).toBe(true);
    expect(
      checkAdd(swap, { listingId: 22, selection: { S: 1 }, providerId: 2, brandId: 6 }, "swap", ME),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.swapBrandLocked,
    });
    expect(
      checkAdd(swap, { listingId: 23, selection: { S: 1 }, providerId: 3, brandId: 5 }, "swap", ME),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.swapProviderLocked,
    });
  });
  it("re-adding the only item of a cart may change nothing but its selection", () => {
    const swap = withLine(
      empty,
      { listingId: 20, selection: { S: 1 }, providerId: 2, brandId: 5 },
      "swap",
    );
    const again = withLine(
      swap,
      { listingId: 20, selection: { S: 2 }, providerId: 2, brandId: 5 },
      "swap",
    );
    expect(again.items).toEqual([
      { listingId: 20, selection: { S: 2 }, providerId: 2, brandId: 5 },
    ]);
  });
  it("never one's own listing or request", () => {
    expect(
      checkAdd(empty, { listingId: 1, selection: { S: 1 }, providerId: ME, brandId: 5 }, "buy", ME),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.ownListing,
    });
    expect(
      checkAdd(
        empty,
        { requestId: 1, selection: { S: 1 }, providerId: ME, brandId: 5 },
        "sell",
        ME,
      ),
    ).toEqual({
      ok: false,
      message: CART_MESSAGES.ownRequest,
    });
  });
  it("removing the last item frees the type", () => {
    const cart = withLine(empty, buyLine, "buy");
    expect(withoutLine(cart, lineKey(buyLine))).toEqual({ type: null, items: [] });
    expect(lineKey({ requestId: 4 })).toBe("request:4");
    expect(lineKey({ listingId: 4 })).toBe("listing:4");
  });
});

describe("checkout preconditions and forms", () => {
  it("swapping needs payout, then an active listing of the brand", () => {
    expect(swapBlock({ payoutSet: false, activeListingsOfBrand: 3 })).toBe("no_payout");
    expect(swapBlock({ payoutSet: true, activeListingsOfBrand: 0 })).toBe("no_active_listings");
    expect(swapBlock({ payoutSet: true, activeListingsOfBrand: 1 })).toBeNull();
  });
  it("terms must be accepted", () => {
    expect(CheckoutTermsSchema.safeParse({}).success).toBe(false);
    expect(CheckoutTermsSchema.safeParse({ terms: "on" }).success).toBe(true);
  });
  it("the sell info dialog needs reason and floor_time: the spec's message verbatim", () => {
    const r = SellInfoSchema.safeParse({ reason: "overstock", terms: "on" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe(FILL_OUT_EVERYTHING);
    expect(FILL_OUT_EVERYTHING).toBe("* Please fill out everything to continue.");
    expect(
      SellInfoSchema.safeParse({ reason: "nonsense", floor_time: "0-30", terms: "on" }).success,
    ).toBe(false);
    expect(
      SellInfoSchema.safeParse({ reason: "overstock", floor_time: "0-30" }).error!.issues[0]
        .message,
    ).toBe(CART_MESSAGES.acceptTerms);
    expect(SellInfoSchema.parse({ reason: "overstock", floor_time: "0-30", terms: "on" })).toEqual({
      reason: "overstock",
      floor_time: "0-30",
      terms: true,
    });
  });
  it("order numbers", () => {
    expect(orderNumber(123)).toBe("WX-000123");
    expect(() => orderNumber(0)).toThrow(RangeError);
  });
});

describe("test cards", () => {
  it("only the provider's documented test numbers, as tokens", () => {
    expect(testCardFromNumber("4242 4242 4242 4242")).toMatchObject({
      token: "tok_visa",
      brand: "visa",
      last4: "4242",
      outcome: "succeeds",
    });
    expect(testCardFromNumber("5555-5555-5555-4444")).toMatchObject({
      token: "tok_mastercard",
      brand: "mastercard",
      last4: "4444",
    });
    expect(testCardFromNumber("4000000000000002")).toMatchObject({
      token: "tok_chargeDeclined",
      outcome: "declined",
    });
    expect(testCardFromNumber("4111111111111112")).toBeNull();
    expect(testCardFromNumber("abc")).toBeNull();
    expect(cardBrandLabel("visa")).toBe("Visa");
    expect(cardBrandLabel("mastercard")).toBe("Mastercard");
    expect(CARD_DECLINED).toBe("Sorry but this card was declined. Please try another.");
  });
  it("the form keeps the token and drops the number", () => {
    const schema = testCardFormSchema({ year: 2025, month: 6 });
    const ok = schema.parse({
      card_number: "4242424242424242",
      card_expiry: "12/30",
      card_cvc: "123",
    });
    expect(ok).toEqual({ testToken: "tok_visa", brand: "visa", last4: "4242" });
    expect(JSON.stringify(ok)).not.toContain("4242424242424242");
    expect(
      schema.safeParse({ card_number: "4242424242424242", card_expiry: "05/25", card_cvc: "123" })
        .error!.issues[0].path,
    ).toEqual(["card_expiry"]);
    expect(
      schema.safeParse({ card_number: "1234123412341234", card_expiry: "12/30", card_cvc: "123" })
        .error!.issues[0].path,
    ).toEqual(["card_number"]);
    expect(
      schema.safeParse({ card_number: "4242424242424242", card_expiry: "13/30", card_cvc: "1" })
        .success,
    ).toBe(false);
  });
});

describe("the sell draft notice", () => {
  it("says what happens now: confirming the sell dialog sends the offer; nothing waits for a later release", () => {
    expect(CART_MESSAGES.sellDraftRecorded).not.toMatch(/release/i);
    expect(CART_MESSAGES.sellDraftRecorded).toContain("has not been sent yet");
    expect(CART_MESSAGES.sellDraftRecorded).toContain("24 hours");
  });
});

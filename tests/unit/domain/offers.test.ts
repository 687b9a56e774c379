/** Offers' rules (docs/product/offers.md; domain/offers.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { purchaseFeeCents } from "../../../domain/fees";
import {
  applyOfferCommand,
  checkNewOffer,
  holdStillGood,
  newOffer,
  offerChoices,
  offerDeadline,
  offerHoldCents,
  offerPurchaseLine,
  OFFER_MESSAGES,
  type NewOfferInput,
  type OfferCommand,
  type OfferState,
} from "../../../domain/offers";
import { captureEntry, orderLedger, orderQuote, payoutForLines } from "../../../domain/order-money";
import { shippingCentsForUnits } from "../../../domain/shipping";

const MADE = "2026-03-06T20:00:00.000Z"; // a Friday, 15:00 in New York
const NEW: NewOfferInput = {
  buyerId: 2,
  sellerId: 1,
  listingType: "sell",
  listedUnitCents: 4000,
  offeredUnitCents: 3000,
  sizes: { M: 3 },
  availableSizes: { M: 5, L: 2 },
  hasOpenOffer: false,
};

function open(): OfferState {
  return newOffer({ listedUnitCents: 4000, offeredUnitCents: 3000, sizes: { M: 3 }, at: MADE });
}

function run(state: OfferState, ...cmds: OfferCommand[]): OfferState {
  for (const cmd of cmds) {
    const step = applyOfferCommand(state, cmd);
    if (!step.ok) throw new Error(step.message);
    state = step.state;
  }
  return state;
}

describe("a new offer", () => {
  it("is below the listed price, on available units, by someone else, once per listing", () => {
    expect(checkNewOffer(NEW)).toEqual({ ok: true, sizes: { M: 3 } });
    expect(checkNewOffer({ ...NEW, sizes: { M: 3, L: 0 } })).toEqual({ ok: true, sizes: { M: 3 } });
  });

  it.each([
    ["its own listing", { buyerId: 1 }, OFFER_MESSAGES.ownListing],
    ["a swap listing", { listingType: "swap" as const }, OFFER_MESSAGES.notForSale],
    ["a second open offer", { hasOpenOffer: true }, OFFER_MESSAGES.alreadyOpen],
    ["the listed price", { offeredUnitCents: 4000 }, OFFER_MESSAGES.notBelow(4000)],
    ["above the listed price", { offeredUnitCents: 4001 }, OFFER_MESSAGES.notBelow(4000)],
    ["zero", { offeredUnitCents: 0 }, OFFER_MESSAGES.notPositive],
    ["a fraction of a cent", { offeredUnitCents: 10.5 }, OFFER_MESSAGES.notPositive],
    ["no units", { sizes: { M: 0 } }, OFFER_MESSAGES.noUnits],
    ["negative units", { sizes: { M: -1 } }, OFFER_MESSAGES.noUnits],
    ["more units than listed", { sizes: { M: 6 } }, OFFER_MESSAGES.tooManyUnits],
    ["a size not listed", { sizes: { S: 1 } }, OFFER_MESSAGES.tooManyUnits],
  ])("refuses %s", (_, change, message) => {
    expect(checkNewOffer({ ...NEW, ...change })).toEqual({ ok: false, message });
  });

  it("says the listed price in dollars", () => {
    expect(OFFER_MESSAGES.notBelow(4000)).toBe(
      "An offer must be below the listed price of $40.00 a unit.",
    );
  });

  it("is the seller's turn, for 2 business days, and holds the card for the quote", () => {
    const s = open();
    expect(s).toMatchObject({ status: "open", turn: "seller", tableUnitCents: 3000 });
    expect(s.deadline).toBe("2026-03-10T19:00:00.000Z"); // Tuesday 15:00, daylight time since Sunday
    // 3 x $30.00 + 10% fee + shipping of 3 units.
    expect(offerHoldCents({ M: 3 }, 3000)).toBe(9000 + 900 + shippingCentsForUnits(3));
  });
});

describe("the deadline of a turn", () => {
  it.each([
    ["Friday afternoon", "2026-03-06T20:00:00Z", "2026-03-10T19:00:00.000Z"],
    ["before a holiday Monday", "2026-01-16T20:00:00Z", "2026-01-21T20:00:00.000Z"],
    [
      "on a Saturday (from the next business day's start)",
      "2026-03-07T15:00:00Z",
      "2026-03-11T04:00:00.000Z",
    ],
    ["on a Tuesday", "2026-03-10T14:00:00Z", "2026-03-12T14:00:00.000Z"],
  ])("made %s", (_, at, deadline) => {
    expect(offerDeadline(at)).toBe(deadline);
  });
});

describe("turns", () => {
  const T1 = "2026-03-09T15:00:00.000Z";
  const T2 = "2026-03-10T15:00:00.000Z";
  const T3 = "2026-03-11T15:00:00.000Z";
  const T4 = "2026-03-12T15:00:00.000Z";

  it("the seller accepts the offer: a purchase at the buyer's price, the hold as it is", () => {
    const step = applyOfferCommand(open(), { kind: "accept", by: "seller", at: T1 });
    expect(step).toMatchObject({
      ok: true,
      state: { status: "accepted", agreedUnitCents: 3000 },
      effects: [
        { kind: "purchase", unitPriceCents: 3000 },
        { kind: "notify", to: "buyer", what: "accepted" },
      ],
    });
  });

  it("the seller declines: the hold is released and the buyer told", () => {
    const step = applyOfferCommand(open(), { kind: "decline", by: "seller", at: T1 });
    expect(step).toMatchObject({
      ok: true,
      state: { status: "declined", endReason: "seller_declined" },
      effects: [{ kind: "release" }, { kind: "notify", to: "buyer", what: "declined" }],
    });
  });

  it("a counter passes the turn with a new deadline; the buyer accepting it raises the hold", () => {
    const s = run(open(), { kind: "counter", by: "seller", unitPriceCents: 3600, at: T1 });
    expect(s).toMatchObject({
      turn: "buyer",
      tableUnitCents: 3600,
      buyerUnitCents: 3000,
      sellerCounters: 1,
      deadline: "2026-03-11T15:00:00.000Z",
    });
    const step = applyOfferCommand(s, { kind: "accept", by: "buyer", at: T2 });
    expect(step).toMatchObject({
      ok: true,
      state: { status: "accepted", agreedUnitCents: 3600 },
      effects: [
        { kind: "hold", unitPriceCents: 3600, amountCents: offerHoldCents({ M: 3 }, 3600) },
        { kind: "purchase", unitPriceCents: 3600 },
        { kind: "notify", to: "seller", what: "accepted" },
      ],
    });
  });

  it("the seller counters twice, the buyer once between; then only accept or decline", () => {
    const s = run(
      open(),
      { kind: "counter", by: "seller", unitPriceCents: 3800, at: T1 },
      { kind: "counter", by: "buyer", unitPriceCents: 3200, at: T2 },
      { kind: "counter", by: "seller", unitPriceCents: 3500, at: T3 },
    );
    expect(s).toMatchObject({ turn: "buyer", sellerCounters: 2, buyerCounters: 1 });
    expect(s.buyerUnitCents).toBe(3200);
    expect(offerChoices(s, "buyer")).toEqual({
      accept: true,
      decline: true,
      counter: false,
      withdraw: true,
    });
    expect(offerChoices(s, "seller")).toEqual({
      accept: false,
      decline: false,
      counter: false,
      withdraw: false,
    });
    expect(
      applyOfferCommand(s, { kind: "counter", by: "buyer", unitPriceCents: 3300, at: T4 }),
    ).toEqual({ ok: false, message: OFFER_MESSAGES.noCounterLeft });
    expect(run(s, { kind: "accept", by: "buyer", at: T4 }).agreedUnitCents).toBe(3500);
  });

  it("the buyer's counter holds the card at its new price", () => {
    const s = run(open(), { kind: "counter", by: "seller", unitPriceCents: 3800, at: T1 });
    const step = applyOfferCommand(s, {
      kind: "counter",
      by: "buyer",
      unitPriceCents: 3200,
      at: T2,
    });
    expect(step).toMatchObject({
      ok: true,
      effects: [
        { kind: "hold", unitPriceCents: 3200, amountCents: offerHoldCents({ M: 3 }, 3200) },
        { kind: "notify", to: "seller", what: "counter" },
      ],
    });
  });

  it.each([
    [
      "the seller at the buyer's price",
      "seller",
      3000,
      OFFER_MESSAGES.counterOutOfRange(3000, 4000),
    ],
    [
      "the seller at the listed price",
      "seller",
      4000,
      OFFER_MESSAGES.counterOutOfRange(3000, 4000),
    ],
    ["the buyer out of turn", "buyer", 3500, OFFER_MESSAGES.notYourTurn],
  ] as const)("refuses a counter by %s", (_, by, price, message) => {
    expect(
      applyOfferCommand(open(), { kind: "counter", by, unitPriceCents: price, at: T1 }),
    ).toEqual({ ok: false, message });
  });

  it("refuses a buyer's counter outside its last price and the seller's counter", () => {
    const s = run(open(), { kind: "counter", by: "seller", unitPriceCents: 3800, at: T1 });
    for (const p of [3000, 3800, 2500])
      expect(
        applyOfferCommand(s, { kind: "counter", by: "buyer", unitPriceCents: p, at: T2 }),
      ).toEqual({ ok: false, message: OFFER_MESSAGES.counterOutOfRange(3000, 3800) });
  });

  it("expires on the side whose turn it is, not before its deadline", () => {
    expect(applyOfferCommand(open(), { kind: "expire", at: T1 })).toEqual({
      ok: false,
      message: OFFER_MESSAGES.closed,
    });
    const seller = applyOfferCommand(open(), { kind: "expire", at: "2026-03-10T19:00:00.000Z" });
    expect(seller).toMatchObject({
      ok: true,
      state: { status: "expired", endReason: "seller_expired" },
      effects: [{ kind: "release" }, { kind: "notify" }, { kind: "notify" }],
    });
    const s = run(open(), { kind: "counter", by: "seller", unitPriceCents: 3600, at: T1 });
    expect(run(s, { kind: "expire", at: "2026-03-11T15:00:00.000Z" }).endReason).toBe(
      "buyer_expired",
    );
  });

  it("withdrawn by the buyer at any time, declined when another order takes the units", () => {
    expect(run(open(), { kind: "withdraw", by: "buyer", at: T1 })).toMatchObject({
      status: "withdrawn",
    });
    const taken = applyOfferCommand(open(), { kind: "taken", at: T1 });
    expect(taken).toMatchObject({
      ok: true,
      state: { status: "declined", endReason: "units_taken" },
      effects: [{ kind: "release" }, { kind: "notify", to: "buyer", what: "declined" }],
    });
  });

  it("a closed offer takes no command", () => {
    const s = run(open(), { kind: "decline", by: "seller", at: T1 });
    expect(applyOfferCommand(s, { kind: "accept", by: "seller", at: T2 })).toEqual({
      ok: false,
      message: OFFER_MESSAGES.closed,
    });
  });
});

describe("the hold", () => {
  it("is good until an hour before the provider's 7 days", () => {
    expect(holdStillGood(MADE, "2026-03-13T18:59:59.999Z")).toBe(true);
    expect(holdStillGood(MADE, "2026-03-13T19:00:00.000Z")).toBe(false);
  });
});

describe("money of an accepted offer (property)", () => {
  it("the agreed price runs through fee, shipping and payout as any purchase, and the ledger balances", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 500_000 }),
        fc.dictionary(fc.constantFrom("S", "M", "L", "XL"), fc.integer({ min: 1, max: 150 }), {
          minKeys: 1,
        }),
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 0, maxLength: 3 }),
        (listed, sizes, rawCounters) => {
          const units = Object.values(sizes).reduce((a, b) => a + b, 0);
          // The buyer offers, the seller counters up; any sequence ends below the listed price.
          let state = newOffer({
            listedUnitCents: listed,
            offeredUnitCents: 1,
            sizes,
            at: MADE,
          });
          let at = Date.parse(MADE);
          for (const raw of rawCounters) {
            at += 3_600_000;
            const by = state.turn;
            const low = by === "seller" ? state.tableUnitCents : state.buyerUnitCents;
            const high = by === "seller" ? listed : state.tableUnitCents;
            if (high - low < 2 || !offerChoices(state, by).counter) break;
            const price = low + 1 + (raw % (high - low - 1));
            state = run(state, {
              kind: "counter",
              by,
              unitPriceCents: price,
              at: new Date(at).toISOString(),
            });
          }
          const accepted = applyOfferCommand(state, {
            kind: "accept",
            by: state.turn,
            at: new Date(at + 60_000).toISOString(),
          });
          if (!accepted.ok) throw new Error(accepted.message);
          const agreed = accepted.state.agreedUnitCents!;
          expect(agreed).toBeLessThan(listed);
          const hold = accepted.effects.find((e) => e.kind === "hold");
          const heldCents =
            hold?.kind === "hold" ? hold.amountCents : offerHoldCents(sizes, agreed);

          const line = offerPurchaseLine({ listingId: 7, variationId: 70, sizes }, agreed);
          const q = orderQuote([line]);
          expect(q.goodsCents).toBe(agreed * units);
          expect(q.feeCents).toBe(purchaseFeeCents(agreed * units));
          expect(q.shippingCents).toBe(shippingCentsForUnits(units));
          expect(heldCents).toBe(q.totalCents);

          const capture = captureEntry([line], heldCents);
          expect(capture.amountCents).toBe(q.totalCents);
          const payout = payoutForLines([line]);
          expect(payout).toBe(agreed * units);
          const ledger = orderLedger([
            { kind: "authorization", amountCents: heldCents },
            capture,
            { kind: "payout", amountCents: payout },
          ]);
          expect(ledger).toMatchObject({
            balanced: true,
            escrowCents: 0,
            sellerPaidCents: agreed * units,
            feeKeptCents: q.feeCents,
            shippingKeptCents: q.shippingCents,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

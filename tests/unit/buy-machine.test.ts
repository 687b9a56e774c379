// The buy order's state machine without Temporal (workflows/buy/model.ts, machine.ts): which command each
// state allows, which effects each step asks for and in which order (with their idempotency keys), which
// state, action codes, notices and deadline follow. The same steps run in the workflow through the driver;
// tests/workflows/buy.test.ts covers the timers and the replayed histories.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { OrderStateRecord } from "../../workflows/buy/activities";
import { ACTION } from "../../domain/action-codes";
import { addBusinessDays, WINDOWS } from "../../domain/business-days";
import { captureEntry, orderLedger } from "../../domain/order-money";
import { SYSTEM_REASON } from "../../domain/reasons";
import { BUY_STATES, COMMON_STATES } from "../../domain/states";
import { storeApprovalMessage, TEAM_MSG } from "../../domain/teams";
import { BUY_ERRORS, type BuyOrderInput } from "../../workflows/buy/contract";
import {
  BUY_COMMANDS,
  nextQueuedStep,
  onDeadline,
  openOrder,
  settleDelivered,
  type BuyCommandName,
} from "../../workflows/buy/machine";
import {
  acceptCarrierEvent,
  acceptUnitsTaken,
  allowedActions,
  createBuyModel,
  deadline as currentDeadline,
  type BuyModel,
  type State,
} from "../../workflows/buy/model";
import { InvalidInput, Rejection, runStepSync } from "../../workflows/common/steps";
import type { CallEffect, Effect, Step, StepContext } from "../../workflows/common/steps";

const SELLER = 11;
const BUYER = 22;
const WF = "buy-order:7";
/** A buyer of BUYER's store who placed an order over its limit, and an approver of that store. */
const PLACER = 301;
const APPROVER = 302;
const OVER_LIMIT = { reason: "order_limit", limitCents: 10_000, placedByUserId: PLACER } as const;
const T0 = Date.parse("2026-03-02T15:00:00.000Z"); // a Monday
const CARD = { paymentMethodId: "pm_card_visa", lastFour: "4242", description: "Visa" };

function input(over: Partial<BuyOrderInput> = {}): BuyOrderInput {
  return {
    orderId: 7,
    externalId: "B-7",
    kind: "from_listing",
    providerId: SELLER,
    receiverId: BUYER,
    lines: [{ listingId: 5, variationId: 9, sizes: { S: 2, M: 1 }, unitPriceCents: 5000 }],
    ...over,
  };
}

/** A scripted world: answers every effect, records them, and keeps a clock. */
function world(
  opts: {
    cardOnFile?: boolean;
    declined?: boolean;
    authorizeFails?: boolean;
    stockOk?: boolean;
    conflicts?: number[];
    captureFails?: boolean;
  } = {},
) {
  let clock = T0;
  const effects: Effect[] = [];
  const ctx: StepContext = { now: () => clock, log: () => {} };
  const answer = (e: Effect): unknown => {
    effects.push(e);
    if (e.kind === "signal") return undefined;
    const i = e.input as Record<string, unknown>;
    switch (e.name) {
      case "authorizePayment":
        if (opts.authorizeFails) throw new Error("provider down");
        return opts.declined
          ? { status: "declined", declineCode: "card_declined", message: "declined" }
          : {
              status: "authorized",
              paymentIntentId: "pi_1",
              amountCents: i.amountCents,
              lastFour: "4242",
              description: "Visa",
            };
      case "findConflictingOrders":
        return { orderIds: opts.conflicts ?? [] };
      case "approvalFacts":
        return {
          cardOnFile: opts.cardOnFile !== false,
          conflictingOrderIds:
            opts.cardOnFile === false ? [] : [...(opts.conflicts ?? []), i.orderId],
        };
      case "decrementStock":
        return opts.stockOk === false ? { ok: false, listingId: 5, size: "S" } : { ok: true };
      case "capturePayment":
        if (opts.captureFails) throw new Error("provider down");
        return { status: "captured", capturedCents: i.amountCents, chargeId: "ch_1" };
      case "bookPickup":
        return {
          shipmentId: "shp_7",
          callTag: `CT-${i.attempt}`,
          trackingNumber: "TRK7",
          labelUrl: null,
        };
      case "releaseSellerPayout":
        return { status: "paid", transferId: "tr_1", releasedAt: new Date(clock).toISOString() };
      case "saveCardOnFile":
        return { status: "saved", card: CARD };
      default:
        return undefined;
    }
  };
  return {
    ctx,
    effects,
    at: (ms: number) => (clock = ms),
    run: <R>(step: Step<R>): R => runStepSync(step, answer),
    calls: () =>
      effects.filter((e): e is CallEffect => e.kind === "call").map((e) => `${e.name}/${e.policy}`),
    keys: () =>
      effects
        .filter((e): e is CallEffect => e.kind === "call")
        .flatMap((e) =>
          (e.input as { idempotencyKey?: string }).idempotencyKey
            ? [(e.input as { idempotencyKey: string }).idempotencyKey]
            : [],
        ),
    records: () =>
      effects
        .filter((e): e is CallEffect => e.kind === "call" && e.name === "recordOrderState")
        .map((e) => e.input as OrderStateRecord),
  };
}

function model(over: Partial<BuyOrderInput> = {}): BuyModel {
  return createBuyModel(input(over), WF, T0);
}

/** A model put in `state` with what that state implies (an authorisation, approved lines, delivery). */
function inState(state: State): BuyModel {
  const m = model();
  m.statename = state;
  m.authorization = { paymentIntentId: "pi_1", amountCents: m.requestedQuote.totalCents, at: T0 };
  m.ledger.push({ kind: "authorization", amountCents: m.requestedQuote.totalCents });
  m.deadlines.checkoutBy = null;
  if (state === BUY_STATES.PROVIDER_APPROVE_SALE || state === BUY_STATES.PAYMENT)
    m.deadlines.sellerResponseBy = T0 + WINDOWS.sellerResponse;
  if (state === BUY_STATES.STORE_APPROVE_PURCHASE) {
    m.storeApproval = { ...OVER_LIMIT };
    m.deadlines.storeApprovalBy = addBusinessDays(T0, 2);
  }
  if (state === BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE) {
    m.pendingLines = [{ ...m.requested[0], sizes: { S: 1 } }];
    m.deadlines.modifiedResponseBy = T0 + WINDOWS.modifiedPurchaseResponse;
  }
  if (
    state === BUY_STATES.SHIP_ORDER ||
    state === BUY_STATES.SHIP_ORDER_TRY2 ||
    state === COMMON_STATES.IN_ROUTE ||
    state === COMMON_STATES.DELIVERED
  ) {
    m.approvedLines = m.requested;
    m.ledger.push(captureEntry(m.requested, m.requestedQuote.totalCents));
    m.authorizationClosed = true;
    m.shipment = {
      shipmentId: "shp_7",
      callTag: "CT-1",
      trackingNumber: "TRK7",
      labelUrl: null,
      attempt: 1,
    };
    m.deadlines.pickupBy = addBusinessDays(T0, 2);
  }
  if (state === COMMON_STATES.DELIVERED) {
    m.deliveredAt = T0;
    m.rmaOpen = true;
    m.deadlines.pickupBy = null;
    m.deadlines.rmaBy = T0 + WINDOWS.rmaRequest;
    m.deadlines.ratingBy = addBusinessDays(T0, 3);
  }
  return m;
}

/** The error code a command gets in a state (null: accepted). */
function verdict(m: BuyModel, name: BuyCommandName, cmd: unknown): string | null {
  try {
    (BUY_COMMANDS[name].validate as (m: BuyModel, c: unknown, now: number) => void)(
      m,
      cmd,
      T0 + 1000,
    );
    return null;
  } catch (err) {
    if (err instanceof Rejection) return err.code;
    throw err;
  }
}

const COMMANDS: Record<BuyCommandName, { cmd: unknown; allowedIn: State[] }> = {
  completeCheckout: {
    cmd: { actorRetailerId: BUYER, paymentMethod: CARD },
    allowedIn: [BUY_STATES.COMPLETE_ORDER_CHECKOUT],
  },
  storeApprovePurchase: {
    cmd: { actorRetailerId: BUYER, actorUserId: APPROVER },
    allowedIn: [BUY_STATES.STORE_APPROVE_PURCHASE],
  },
  storeDeclinePurchase: {
    cmd: { actorRetailerId: BUYER, actorUserId: APPROVER },
    allowedIn: [BUY_STATES.STORE_APPROVE_PURCHASE],
  },
  declineCheckout: { cmd: { actorRetailerId: BUYER, reason: 1 }, allowedIn: [] }, // only for request orders
  approveSale: {
    cmd: { actorRetailerId: SELLER },
    allowedIn: [BUY_STATES.PROVIDER_APPROVE_SALE, BUY_STATES.PAYMENT],
  },
  addPaymentMethod: {
    cmd: { actorRetailerId: SELLER, paymentMethod: CARD },
    allowedIn: [BUY_STATES.PAYMENT],
  },
  modifySale: {
    cmd: { actorRetailerId: SELLER, lines: [{ listingId: 5, variationId: 9, sizes: { S: 1 } }] },
    allowedIn: [BUY_STATES.PROVIDER_APPROVE_SALE],
  },
  declineSale: {
    cmd: { actorRetailerId: SELLER, reason: 10 },
    allowedIn: [BUY_STATES.PROVIDER_APPROVE_SALE, BUY_STATES.PAYMENT],
  },
  approveModifiedPurchase: {
    cmd: { actorRetailerId: BUYER },
    allowedIn: [BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE],
  },
  declineModifiedPurchase: {
    cmd: { actorRetailerId: BUYER, reason: 1 },
    allowedIn: [BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE],
  },
  cancelShipment: {
    cmd: { actorRetailerId: SELLER, reason: 50 },
    allowedIn: [BUY_STATES.SHIP_ORDER, BUY_STATES.SHIP_ORDER_TRY2],
  },
  staffBookPickup: {
    cmd: { replacesCallTag: "CT-1" },
    allowedIn: [BUY_STATES.SHIP_ORDER, BUY_STATES.SHIP_ORDER_TRY2],
  },
  confirmReceived: { cmd: { actorRetailerId: BUYER }, allowedIn: [COMMON_STATES.DELIVERED] },
  rateOrder: {
    cmd: {
      actorRetailerId: BUYER,
      stars: { condition: 5, packaging: 5, timeliness: 4, overall: 5 },
    },
    allowedIn: [COMMON_STATES.DELIVERED],
  },
};

const STATES: State[] = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.STORE_APPROVE_PURCHASE,
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
  BUY_STATES.SHIP_ORDER,
  BUY_STATES.SHIP_ORDER_TRY2,
  COMMON_STATES.IN_ROUTE,
  COMMON_STATES.DELIVERED,
  COMMON_STATES.DECLINED,
  COMMON_STATES.EXPIRED,
  COMMON_STATES.CANCELLED,
  COMMON_STATES.COMPLETED,
];

describe("which command each state allows (validators)", () => {
  const rows = STATES.flatMap((state) =>
    (Object.keys(COMMANDS) as BuyCommandName[]).map((name) => [state, name] as const),
  );
  test.each(rows)("%s × %s", (state, name) => {
    const { cmd, allowedIn } = COMMANDS[name];
    expect(verdict(inState(state), name, cmd)).toBe(
      allowedIn.includes(state) ? null : "wrong_state",
    );
  });

  test("the other party is refused with its own message; a late answer is too late", () => {
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(verdict(m, "approveSale", { actorRetailerId: BUYER })).toBe("wrong_party");
    expect(() =>
      BUY_COMMANDS.approveSale.validate(
        m,
        { actorRetailerId: SELLER },
        (m.deadlines.sellerResponseBy as number) + 1,
      ),
    ).toThrow(BUY_ERRORS.wrong_state);
  });

  test.each([
    [
      "a modification adding units",
      "modifySale",
      BUY_STATES.PROVIDER_APPROVE_SALE,
      { actorRetailerId: SELLER, lines: [{ listingId: 5, variationId: 9, sizes: { S: 3 } }] },
      "total_too_high",
    ],
    [
      "a modification removing everything",
      "modifySale",
      BUY_STATES.PROVIDER_APPROVE_SALE,
      { actorRetailerId: SELLER, lines: [] },
      "no_units",
    ],
    [
      "an unchanged modification",
      "modifySale",
      BUY_STATES.PROVIDER_APPROVE_SALE,
      { actorRetailerId: SELLER, lines: [{ listingId: 5, variationId: 9, sizes: { S: 2, M: 1 } }] },
      "unchanged",
    ],
    [
      "a decline without a reason",
      "declineSale",
      BUY_STATES.PROVIDER_APPROVE_SALE,
      { actorRetailerId: SELLER },
      "decline_reason_required",
    ],
    [
      "a cancellation without a reason",
      "cancelShipment",
      BUY_STATES.SHIP_ORDER,
      { actorRetailerId: SELLER, reason: 999 },
      "cancel_reason_required",
    ],
    [
      "a checkout without a card",
      "completeCheckout",
      BUY_STATES.COMPLETE_ORDER_CHECKOUT,
      { actorRetailerId: BUYER },
      "card_required",
    ],
    [
      "a checkout with a malformed limit hand-over",
      "completeCheckout",
      BUY_STATES.COMPLETE_ORDER_CHECKOUT,
      { actorRetailerId: BUYER, paymentMethod: CARD, storeApproval: { reason: "why not" } },
      "bad_request",
    ],
    [
      "a rating of 6 stars",
      "rateOrder",
      COMMON_STATES.DELIVERED,
      { actorRetailerId: BUYER, stars: { condition: 6, packaging: 5, timeliness: 5, overall: 5 } },
      "rating_invalid",
    ],
  ] as const)("%s: %s", (_what, name, state, cmd, code) => {
    expect(verdict(inState(state), name, cmd)).toBe(code);
  });

  test("a request order can be declined at checkout; a listing order cannot", () => {
    const m = model({ kind: "for_request", requestId: 3 });
    expect(verdict(m, "declineCheckout", { actorRetailerId: BUYER, reason: 1 })).toBeNull();
    expect(verdict(m, "declineCheckout", { actorRetailerId: BUYER, reason: 30 })).toBe(
      "decline_reason_required",
    );
  });

  test("allowed actions per state, as pages show them", () => {
    expect(allowedActions(inState(BUY_STATES.PROVIDER_APPROVE_SALE), T0)).toEqual({
      provider: ["approveSale", "modifySale", "declineSale"],
      receiver: [],
    });
    expect(allowedActions(inState(COMMON_STATES.DELIVERED), T0)).toEqual({
      provider: [],
      receiver: ["confirmReceived", "rateOrder", "requestRma"],
    });
    expect(allowedActions(inState(COMMON_STATES.COMPLETED), T0)).toEqual({
      provider: [],
      receiver: [],
    });
  });

  test("a bad start is refused before anything happens", () => {
    expect(() => createBuyModel(input({ providerId: BUYER }), WF, T0)).toThrow(InvalidInput);
    expect(() =>
      createBuyModel(
        input({ expectedQuote: { goodsCents: 1, feeCents: 0, shippingCents: 0, totalCents: 1 } }),
        WF,
        T0,
      ),
    ).toThrow(/differ/);
  });
});

describe("which deadline runs in each state", () => {
  test.each([
    [BUY_STATES.COMPLETE_ORDER_CHECKOUT, "checkoutBy"],
    [BUY_STATES.PROVIDER_APPROVE_SALE, "sellerResponseBy"],
    [BUY_STATES.PAYMENT, "sellerResponseBy"],
    [BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE, "modifiedResponseBy"],
    [BUY_STATES.SHIP_ORDER, "pickupBy"],
    [BUY_STATES.SHIP_ORDER_TRY2, "pickupBy"],
    [COMMON_STATES.DELIVERED, "rmaBy"],
    [COMMON_STATES.IN_ROUTE, null],
    [COMMON_STATES.COMPLETED, null],
  ] as const)("%s → %s", (state, which) => {
    const m = inState(state);
    if (state === BUY_STATES.COMPLETE_ORDER_CHECKOUT)
      m.deadlines.checkoutBy = T0 + WINDOWS.checkoutExpiry;
    expect(currentDeadline(m)).toBe(which === null ? null : m.deadlines[which]);
  });

  test("delivered and rated: only the RMA window is left; delivered, rating window shorter: the earlier", () => {
    const m = inState(COMMON_STATES.DELIVERED);
    m.deadlines.ratingBy = T0 + 3_600_000;
    expect(currentDeadline(m)).toBe(T0 + 3_600_000);
    m.rating = { condition: 5, packaging: 5, timeliness: 5, overall: 5, comments: "" };
    expect(currentDeadline(m)).toBe(m.deadlines.rmaBy);
  });
});

describe("a purchase from an accepted offer (docs/product/offers.md; ADR 0056)", () => {
  const HELD = "2026-03-01T15:00:00.000Z";
  const offerInput = (amountCents?: number): Partial<BuyOrderInput> => {
    const quoteTotal = model().requestedQuote.totalCents;
    return {
      kind: "from_offer",
      offerHold: {
        offerId: 4,
        paymentIntentId: "pi_offer",
        amountCents: amountCents ?? quoteTotal,
        heldAt: HELD,
      },
    };
  };

  test("opens by capturing against the offer's hold, then ships as any approved purchase", () => {
    const w = world();
    const m = model(offerInput());
    expect(allowedActions(m, T0).receiver).toEqual([]);
    expect(verdict(m, "completeCheckout", { actorRetailerId: BUYER, paymentMethod: CARD })).toBe(
      "wrong_state",
    );
    w.run(openOrder(m, w.ctx));
    expect(m.statename).toBe(BUY_STATES.SHIP_ORDER);
    expect(w.calls()).toEqual([
      "recordOrderState/local",
      "findConflictingOrders/local",
      "decrementStock/local",
      "capturePayment/payNow",
      "bookPickup/carrier",
      "recordOrderState/local",
    ]);
    const capture = w.effects.find((e) => e.kind === "call" && e.name === "capturePayment");
    expect((capture as CallEffect).input).toMatchObject({
      paymentIntentId: "pi_offer",
      amountCents: m.requestedQuote.totalCents,
    });
    expect(
      w
        .records()
        .at(-1)
        ?.actions.map((a) => a.code),
    ).toEqual([
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
    ]);
    expect(orderLedger(m.ledger)).toMatchObject({
      balanced: true,
      buyerPaidCents: m.requestedQuote.totalCents,
      escrowCents: m.requestedQuote.goodsCents,
    });
  });

  test("units another order took: declined, the hold released", () => {
    const w = world({ stockOk: false });
    const m = model(offerInput());
    w.run(openOrder(m, w.ctx));
    expect(m.statename).toBe(COMMON_STATES.DECLINED);
    expect(w.calls().filter((c) => c.startsWith("releaseAuthorization/"))).toHaveLength(1);
    expect(orderLedger(m.ledger)).toMatchObject({ balanced: true, buyerPaidCents: 0 });
  });

  test("a hold below the quote, or none, is a bad start", () => {
    const quoteTotal = model().requestedQuote.totalCents;
    expect(() => model(offerInput(quoteTotal - 1))).toThrow(InvalidInput);
    expect(() => model({ kind: "from_offer" })).toThrow(InvalidInput);
  });
});

describe("steps: effects in order, with idempotency keys; state, codes, notices and deadline after", () => {
  test("checkout of a listing order: authorise (payNow), then one write (224) with the seller's notice", () => {
    const w = world();
    const m = model();
    w.run(openOrder(m, w.ctx));
    const res = w.run(
      BUY_COMMANDS.completeCheckout.run(m, { actorRetailerId: BUYER, paymentMethod: CARD }, w.ctx),
    );
    expect(res).toMatchObject({ status: "ok", statename: BUY_STATES.PROVIDER_APPROVE_SALE });
    expect(w.calls()).toEqual([
      "recordOrderState/local",
      "authorizePayment/payNow",
      "recordOrderState/local",
    ]);
    expect(w.keys()).toEqual([`${WF}:authorize:1`]);
    const last = w.records().at(-1) as OrderStateRecord;
    expect(last.actions.map((a) => a.code)).toEqual([ACTION.CHECKOUT_COMPLETED]);
    expect(last.notices?.map((n) => `${n.role}:${n.template}`)).toEqual([
      "provider:approve_sale_needed",
    ]);
    expect(last.sequence).toBe(2);
    expect(currentDeadline(m)).toBe(T0 + WINDOWS.sellerResponse);
  });

  test("checkout over the placer's limit: authorised, then it waits for the buyer's store (232) for 2 business days, the store told", () => {
    const w = world();
    const m = model();
    const res = w.run(
      BUY_COMMANDS.completeCheckout.run(
        m,
        { actorRetailerId: BUYER, paymentMethod: CARD, storeApproval: OVER_LIMIT },
        w.ctx,
      ),
    );
    expect(res).toMatchObject({
      status: "ok",
      statename: BUY_STATES.STORE_APPROVE_PURCHASE,
      displayStatus: "Awaiting Store Approval",
      message: storeApprovalMessage(OVER_LIMIT),
    });
    expect(w.calls()).toEqual(["authorizePayment/payNow", "recordOrderState/local"]);
    const rec = w.records()[0];
    expect(rec.actions.map((a) => a.code)).toEqual([ACTION.STORE_APPROVAL_REQUESTED]);
    expect(rec.actionNeeded).toBe("receiver");
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual([
      "receiver:store_approval_needed",
    ]);
    // Monday 15:00 + 2 business days = Wednesday 15:00.
    expect(currentDeadline(m)).toBe(Date.parse("2026-03-04T15:00:00.000Z"));
    expect(rec.deadlines.storeApprovalBy).toBe("2026-03-04T15:00:00.000Z");
  });

  test("the store approves: the seller's turn with its own 5 days from now, the approver kept (233)", () => {
    const w = world();
    const m = inState(BUY_STATES.STORE_APPROVE_PURCHASE);
    const now = T0 + 3_600_000;
    w.at(now);
    const cmd = { actorRetailerId: BUYER, actorUserId: APPROVER };
    expect(verdict(m, "storeApprovePurchase", cmd)).toBeNull();
    const res = w.run(BUY_COMMANDS.storeApprovePurchase.run(m, cmd, w.ctx));
    expect(res).toMatchObject({ status: "ok", statename: BUY_STATES.PROVIDER_APPROVE_SALE });
    expect(w.calls()).toEqual(["recordOrderState/local"]);
    const rec = w.records()[0];
    expect(rec.approvedByUserId).toBe(APPROVER);
    expect(rec.actions.map((a) => a.code)).toEqual([ACTION.STORE_APPROVED]);
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual([
      "provider:approve_sale_needed",
    ]);
    expect(rec.deadlines.storeApprovalBy).toBeNull();
    expect(currentDeadline(m)).toBe(now + WINDOWS.sellerResponse);
  });

  test("the store declines: the authorisation released, declined (234, 813), the seller never told", () => {
    const w = world();
    const m = inState(BUY_STATES.STORE_APPROVE_PURCHASE);
    w.run(
      BUY_COMMANDS.storeDeclinePurchase.run(
        m,
        { actorRetailerId: BUYER, actorUserId: APPROVER },
        w.ctx,
      ),
    );
    expect(w.calls()).toEqual(["releaseAuthorization/payEventually", "recordOrderState/local"]);
    const rec = w.records()[0];
    expect(rec.statename).toBe(COMMON_STATES.DECLINED);
    expect(rec.actions.map((a) => a.code)).toEqual([
      ACTION.STORE_DECLINED,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual(["receiver:order_declined"]);
    expect(orderLedger(m.ledger)).toMatchObject({ buyerPaidCents: 0, balanced: true });
  });

  test("the placer cannot decide on its own order; the seller cannot either; nobody after the deadline", () => {
    const m = inState(BUY_STATES.STORE_APPROVE_PURCHASE);
    for (const name of ["storeApprovePurchase", "storeDeclinePurchase"] as const) {
      expect(verdict(m, name, { actorRetailerId: BUYER, actorUserId: PLACER })).toBe("own_order");
      expect(verdict(m, name, { actorRetailerId: BUYER })).toBe("wrong_party");
      expect(verdict(m, name, { actorRetailerId: SELLER, actorUserId: APPROVER })).toBe(
        "wrong_party",
      );
      expect(() =>
        BUY_COMMANDS[name].validate(
          m,
          { actorRetailerId: BUYER, actorUserId: APPROVER },
          m.deadlines.storeApprovalBy as number,
        ),
      ).toThrow(BUY_ERRORS.wrong_state);
    }
    expect(BUY_ERRORS.own_order).toBe(TEAM_MSG.ownOrder);
  });

  test("nobody of the store answers: cancelled (308, 813), the authorisation released, the store told", () => {
    const w = world();
    const m = inState(BUY_STATES.STORE_APPROVE_PURCHASE);
    w.run(onDeadline(m, w.ctx));
    expect(w.calls()).toEqual(["releaseAuthorization/payEventually", "recordOrderState/local"]);
    const rec = w.records()[0];
    expect(rec).toMatchObject({
      statename: COMMON_STATES.CANCELLED,
      displayStatus: "Cancelled",
      reasons: { system_reason: SYSTEM_REASON.NOT_APPROVED_BY_STORE },
    });
    expect(rec.actions.map((a) => a.code)).toEqual([
      ACTION.STORE_APPROVAL_EXPIRED,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual([
      "receiver:store_approval_expired",
    ]);
    expect(orderLedger(m.ledger)).toMatchObject({
      authorizationReleasedCents: m.requestedQuote.totalCents,
      buyerPaidCents: 0,
      balanced: true,
    });
  });

  test("a checkout that started the purchase (no opening write before it): its write is the order's first", () => {
    const w = world();
    const m = model();
    w.run(
      BUY_COMMANDS.completeCheckout.run(m, { actorRetailerId: BUYER, paymentMethod: CARD }, w.ctx),
    );
    expect(w.calls()).toEqual(["authorizePayment/payNow", "recordOrderState/local"]);
    expect(w.records().map((r) => [r.sequence, r.statename, r.actions.map((a) => a.code)])).toEqual(
      [[1, BUY_STATES.PROVIDER_APPROVE_SALE, [ACTION.CHECKOUT_COMPLETED]]],
    );
  });

  test("an authorisation that fails (provider down): refused; the opening write is made when nothing was written yet", () => {
    for (const [opened, writes] of [
      [false, [[1, BUY_STATES.COMPLETE_ORDER_CHECKOUT, []]]],
      [true, [[1, BUY_STATES.COMPLETE_ORDER_CHECKOUT, []]]],
    ] as const) {
      const w = world({ authorizeFails: true });
      const m = model();
      if (opened) w.run(openOrder(m, w.ctx));
      expect(() =>
        w.run(
          BUY_COMMANDS.completeCheckout.run(
            m,
            { actorRetailerId: BUYER, paymentMethod: CARD },
            w.ctx,
          ),
        ),
      ).toThrow(BUY_ERRORS.payment_failed);
      expect(
        w.records().map((r) => [r.sequence, r.statename, r.actions.map((a) => a.code)]),
        `opened: ${opened}`,
      ).toEqual(writes);
      expect(m.statename).toBe(BUY_STATES.COMPLETE_ORDER_CHECKOUT);
      expect(m.lastAuthorize).toEqual({ paymentMethodId: CARD.paymentMethodId, outcome: "error" });
    }
  });

  test("a declined card: recorded (code), the specification's message, the next card is attempt 2", () => {
    const w = world({ declined: true });
    const m = model();
    expect(() =>
      w.run(
        BUY_COMMANDS.completeCheckout.run(
          m,
          { actorRetailerId: BUYER, paymentMethod: CARD },
          w.ctx,
        ),
      ),
    ).toThrow(BUY_ERRORS.card_declined);
    expect(m.statename).toBe(BUY_STATES.COMPLETE_ORDER_CHECKOUT);
    expect(
      w
        .records()
        .at(-1)
        ?.actions.map((a) => a.code),
    ).toEqual([ACTION.CARD_DECLINED]);
    const w2 = world();
    w2.run(
      BUY_COMMANDS.completeCheckout.run(
        m,
        { actorRetailerId: BUYER, paymentMethod: { ...CARD, paymentMethodId: "pm_other" } },
        w2.ctx,
      ),
    );
    expect(w2.keys()).toEqual([`${WF}:authorize:2`]);
  });

  test("approval: card check and conflicts (one local read), stock (local), capture (payNow), call tag (carrier), one write (221, 812, 920)", () => {
    const w = world({ conflicts: [8] });
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(
      w.run(BUY_COMMANDS.approveSale.run(m, { actorRetailerId: SELLER }, w.ctx)),
    ).toMatchObject({
      status: "need_confirm_decline_others",
      conflictingOrderIds: [8],
    });
    const w2 = world({ conflicts: [8] });
    const res = w2.run(
      BUY_COMMANDS.approveSale.run(
        m,
        { actorRetailerId: SELLER, confirmDeclineOthers: true },
        w2.ctx,
      ),
    );
    expect(res).toMatchObject({
      status: "ok",
      statename: BUY_STATES.SHIP_ORDER,
      redirectTo: "/orders",
    });
    expect(w2.calls()).toEqual([
      "approvalFacts/local",
      "decrementStock/local",
      "capturePayment/payNow",
      "bookPickup/carrier",
      "recordOrderState/local",
    ]);
    expect(w2.keys()).toEqual([
      `${WF}:decrement-stock:1`,
      `${WF}:capture:1`,
      `${WF}:book-pickup:1`,
    ]);
    expect(w2.effects.at(-1)).toEqual({
      kind: "signal",
      workflowId: "buy-order:8",
      signal: "unitsTaken",
      arg: { byOrderId: 7 },
    });
    const rec = w2.records()[0];
    expect(rec.actions.map((a) => a.code)).toEqual([
      ACTION.PROVIDER_APPROVE_SALE,
      ACTION.PAYMENT_CAPTURED,
      ACTION.CALL_TAG_SCHEDULED_ORDER,
    ]);
    expect(rec.notices?.map((n) => n.template)).toEqual(["ready_for_pickup"]);
    expect(m.deadlines.pickupBy).toBe(addBusinessDays(T0, WINDOWS.pickupBusinessDays));
  });

  test("approval without a card on file: payment (810), the seller asked for a card; adding it continues the approval", () => {
    const w = world({ cardOnFile: false });
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(
      w.run(BUY_COMMANDS.approveSale.run(m, { actorRetailerId: SELLER }, w.ctx)),
    ).toMatchObject({
      status: "need_payment_method",
      statename: BUY_STATES.PAYMENT,
    });
    expect(w.records()[0].notices?.map((n) => n.template)).toEqual(["payment_method_needed"]);
    const w2 = world();
    expect(
      w2.run(
        BUY_COMMANDS.addPaymentMethod.run(
          m,
          { actorRetailerId: SELLER, paymentMethod: CARD },
          w2.ctx,
        ),
      ),
    ).toMatchObject({
      statename: BUY_STATES.SHIP_ORDER,
    });
    expect(w2.records().map((r) => r.actions.map((a) => a.code))).toEqual([
      [ACTION.PAYMENT_METHOD_ADDED],
      [ACTION.PROVIDER_APPROVE_SALE, ACTION.PAYMENT_CAPTURED, ACTION.CALL_TAG_SCHEDULED_ORDER],
    ]);
  });

  test("units gone at approval: refused, nothing captured; a failed capture puts the units back", () => {
    const w = world({ stockOk: false });
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(() =>
      w.run(BUY_COMMANDS.approveSale.run(m, { actorRetailerId: SELLER }, w.ctx)),
    ).toThrow(BUY_ERRORS.units_unavailable);
    expect(w.calls()).not.toContain("capturePayment/payNow");
    const w2 = world({ captureFails: true });
    expect(() =>
      w2.run(
        BUY_COMMANDS.approveSale.run(
          inState(BUY_STATES.PROVIDER_APPROVE_SALE),
          { actorRetailerId: SELLER },
          w2.ctx,
        ),
      ),
    ).toThrow(BUY_ERRORS.payment_failed);
    expect(w2.calls().slice(-2)).toEqual(["capturePayment/payNow", "restoreStock/local"]);
  });

  test("seller's decline: authorisation released (payEventually), declined (225, 813), the buyer told", () => {
    const w = world();
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    w.run(BUY_COMMANDS.declineSale.run(m, { actorRetailerId: SELLER, reason: 10 }, w.ctx));
    expect(w.calls()).toEqual(["releaseAuthorization/payEventually", "recordOrderState/local"]);
    const rec = w.records()[0];
    expect(rec.statename).toBe(COMMON_STATES.DECLINED);
    expect(rec.actions.map((a) => a.code)).toEqual([
      ACTION.PROVIDER_DECLINE_SALE,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual(["receiver:order_declined"]);
  });

  test.each([
    [
      BUY_STATES.COMPLETE_ORDER_CHECKOUT,
      COMMON_STATES.EXPIRED,
      [ACTION.CHECKOUT_EXPIRED, ACTION.AUTHORIZATION_RELEASED],
      ["receiver:order_expired"],
    ],
    [
      BUY_STATES.PROVIDER_APPROVE_SALE,
      COMMON_STATES.DECLINED,
      [ACTION.SELLER_RESPONSE_EXPIRED, ACTION.AUTHORIZATION_RELEASED],
      ["receiver:order_declined", "provider:order_declined"],
    ],
    [
      BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
      COMMON_STATES.DECLINED,
      [ACTION.MODIFIED_PURCHASE_EXPIRED, ACTION.AUTHORIZATION_RELEASED],
      ["provider:order_declined"],
    ],
    [
      BUY_STATES.SHIP_ORDER,
      BUY_STATES.SHIP_ORDER_TRY2,
      [ACTION.CALL_TAG_RESCHEDULED_ORDER],
      ["provider:pickup_rescheduled"],
    ],
    [
      BUY_STATES.SHIP_ORDER_TRY2,
      COMMON_STATES.CANCELLED,
      [ACTION.PROVIDER_ORDER_NON_SHIPMENT, ACTION.REFUND_ISSUED, ACTION.PENALTY_CHARGED],
      ["receiver:order_cancelled", "provider:order_cancelled"],
    ],
  ] as const)("deadline in %s → %s with %j and %j", (from, to, codes, notices) => {
    const w = world();
    const m = inState(from);
    w.run(onDeadline(m, w.ctx));
    expect(m.statename).toBe(to);
    const rec = w.records().at(-1) as OrderStateRecord;
    expect(rec.actions.map((a) => a.code)).toEqual(codes);
    expect(rec.notices?.map((n) => `${n.role}:${n.template}`)).toEqual(notices);
  });

  test("missed pickup twice: refund in full and the 10% penalty, keys of attempt 1; units stay off the listing", () => {
    const w = world();
    const m = inState(BUY_STATES.SHIP_ORDER_TRY2);
    w.run(onDeadline(m, w.ctx));
    expect(w.calls()).toEqual([
      "cancelPickup/carrier",
      "refundPayment/payEventually",
      "chargeSellerPenalty/payEventually",
      "recordOrderState/local",
    ]);
    const refund = w.effects.find(
      (e) => e.kind === "call" && e.name === "refundPayment",
    ) as CallEffect;
    expect((refund.input as { amountCents: number }).amountCents).toBe(m.requestedQuote.totalCents);
  });

  test("carrier events: the scan releases the payout (In-Route, 110 then 816), delivery opens the rating and RMA windows", () => {
    const w = world();
    const m = inState(BUY_STATES.SHIP_ORDER);
    expect(acceptCarrierEvent(m, { eventId: "e1", status: "picked_up" })).toBe(true);
    expect(acceptCarrierEvent(m, { eventId: "e1", status: "picked_up" })).toBe(false); // duplicate
    for (let s = nextQueuedStep(m, w.ctx); s; s = nextQueuedStep(m, w.ctx)) w.run(s);
    expect(m.statename).toBe(COMMON_STATES.IN_ROUTE);
    expect(w.calls()).toEqual([
      "recordOrderState/local",
      "releaseSellerPayout/payEventually",
      "recordOrderState/local",
    ]);
    acceptCarrierEvent(m, { eventId: "e2", status: "delivered" });
    w.at(T0 + 1000);
    for (let s = nextQueuedStep(m, w.ctx); s; s = nextQueuedStep(m, w.ctx)) w.run(s);
    expect(m.statename).toBe(COMMON_STATES.DELIVERED);
    expect(m.deadlines.rmaBy).toBe(T0 + 1000 + WINDOWS.rmaRequest);
    expect(
      w
        .records()
        .at(-1)
        ?.notices?.map((n) => n.template),
    ).toEqual(["rate_order"]);
    // The webhook relay may deliver an event again (docs/decisions/0042-webhook-inbox.md): nothing new to do.
    const calls = w.calls().length;
    expect(acceptCarrierEvent(m, { eventId: "e2", status: "delivered" })).toBe(false);
    expect(acceptCarrierEvent(m, { eventId: "e1", status: "picked_up" })).toBe(false);
    expect(nextQueuedStep(m, w.ctx)).toBeFalsy();
    expect(w.calls()).toHaveLength(calls);
    expect(m.deadlines.rmaBy).toBe(T0 + 1000 + WINDOWS.rmaRequest);
  });

  test("delivered: completes (305, 390) once the RMA and rating windows have closed", () => {
    const w = world();
    const m = inState(COMMON_STATES.DELIVERED);
    w.at(m.deadlines.ratingBy as number);
    w.run(settleDelivered(m, w.ctx));
    expect(m.statename).toBe(COMMON_STATES.COMPLETED);
    expect(
      w
        .records()
        .at(-1)
        ?.actions.map((a) => a.code),
    ).toEqual([ACTION.RATING_WINDOW_CLOSED, ACTION.ORDER_COMPLETED]);
  });

  test("another order took the units: only an order still negotiating declines (229)", () => {
    const w = world();
    const m = inState(BUY_STATES.PROVIDER_APPROVE_SALE);
    expect(acceptUnitsTaken(m, { byOrderId: 9 })).toBe(true);
    w.run(nextQueuedStep(m, w.ctx) as Step);
    expect(w.records()[0].actions.map((a) => a.code)).toEqual([
      ACTION.PROVIDER_DECLINED_FOR_OTHER_ORDER,
      ACTION.AUTHORIZATION_RELEASED,
    ]);
    expect(acceptUnitsTaken(inState(BUY_STATES.SHIP_ORDER), { byOrderId: 9 })).toBe(false);
  });
});

/** A purchase from an accepted offer at `agreedCents` a unit, on a hold of exactly its quote. */
function offerModel(agreedCents: number): BuyModel {
  const lines = input().lines.map((l) => ({ ...l, unitPriceCents: agreedCents }));
  const total = createBuyModel(input({ lines }), WF, T0).requestedQuote.totalCents;
  return model({
    kind: "from_offer",
    lines,
    offerHold: {
      offerId: 4,
      paymentIntentId: "pi_offer",
      amountCents: total,
      heldAt: "2026-03-01T15:00:00.000Z",
    },
  });
}

describe("money over random purchases (fast-check: the machine's own ledger)", () => {
  type Act =
    | { kind: "command"; name: BuyCommandName }
    | { kind: "modify"; sizes: { S: number; M: number } }
    | { kind: "deadline" }
    | { kind: "carrier"; status: "picked_up" | "delivered" };
  const act: fc.Arbitrary<Act> = fc.oneof(
    fc
      .constantFrom(...(Object.keys(COMMANDS) as BuyCommandName[]))
      .map((name): Act => ({ kind: "command", name })),
    fc
      .record({ S: fc.integer({ min: 0, max: 2 }), M: fc.integer({ min: 0, max: 1 }) })
      .map((sizes): Act => ({ kind: "modify", sizes })),
    fc.constant<Act>({ kind: "deadline" }),
    fc
      .constantFrom<"picked_up" | "delivered">("picked_up", "delivered")
      .map((status): Act => ({ kind: "carrier", status })),
  );
  const worldOpts = fc.record({
    declined: fc.boolean(),
    cardOnFile: fc.boolean(),
    stockOk: fc.boolean(),
    forRequest: fc.boolean(),
    // A purchase from an accepted offer (docs/product/offers.md): its hold, at an agreed price below the list.
    fromOffer: fc.option(fc.integer({ min: 1, max: 4999 }), { nil: null }),
  });
  const ok = {
    declined: false,
    cardOnFile: true,
    stockOk: true,
    forRequest: false,
    fromOffer: null,
  };
  const command = (name: BuyCommandName): Act => ({ kind: "command", name });

  test("checkouts, approvals, modifications, declines, cancellations, non-shipments, scans and deadlines in any order: the ledger balances, nothing is captured beyond the authorisation, no refund beyond what was paid", () => {
    const reached = new Set<string>();
    const moved = new Set<string>();
    fc.assert(
      fc.property(worldOpts, fc.array(act, { maxLength: 14 }), (o, acts) => {
        const w = world({ declined: o.declined, cardOnFile: o.cardOnFile, stockOk: o.stockOk });
        const m =
          o.fromOffer !== null
            ? offerModel(o.fromOffer)
            : o.forRequest
              ? model({ kind: "for_request", requestId: 3 })
              : model();
        w.run(openOrder(m, w.ctx));
        let events = 0;
        const attempt = (step: () => Step<unknown>) => {
          try {
            w.run(step());
          } catch (err) {
            if (!(err instanceof Rejection)) throw err; // a refusal changes nothing; anything else is a bug
          }
        };
        for (const a of acts) {
          if (a.kind === "deadline") {
            const at = currentDeadline(m);
            if (at === null) continue;
            w.at(at);
            attempt(() => onDeadline(m, w.ctx));
          } else if (a.kind === "carrier") {
            acceptCarrierEvent(m, { eventId: `e${events++}`, status: a.status });
            for (let s = nextQueuedStep(m, w.ctx); s; s = nextQueuedStep(m, w.ctx)) w.run(s);
          } else {
            const name = a.kind === "modify" ? "modifySale" : a.name;
            const cmd =
              a.kind === "modify"
                ? {
                    actorRetailerId: SELLER,
                    lines: [{ listingId: 5, variationId: 9, sizes: a.sizes }],
                  }
                : COMMANDS[name].cmd;
            try {
              (BUY_COMMANDS[name].validate as (m: BuyModel, c: unknown, now: number) => void)(
                m,
                cmd,
                w.ctx.now(),
              );
            } catch (err) {
              if (err instanceof Rejection) continue;
              throw err;
            }
            attempt(() =>
              (
                BUY_COMMANDS[name].run as (
                  m: BuyModel,
                  c: unknown,
                  ctx: StepContext,
                ) => Step<unknown>
              )(m, cmd, w.ctx),
            );
          }
          // Every state a run passes through counts (a second pickup try is rarely where a run stops).
          reached.add(m.statename);
        }
        const l = orderLedger(m.ledger);
        reached.add(m.statename);
        for (const e of m.ledger) moved.add(e.kind);
        expect(l.balanced).toBe(true);
        expect(l.buyerPaidCents).toBeLessThanOrEqual(l.authorizedCents);
        expect(l.authorizationReleasedCents).toBeLessThanOrEqual(l.authorizedCents);
        expect(l.buyerRefundedCents).toBeLessThanOrEqual(l.buyerPaidCents);
        expect(l.sellerPaidCents).toBeLessThanOrEqual(l.goodsCents);
        expect(l.authorizedCents).toBeLessThanOrEqual(m.requestedQuote.totalCents);
      }),
      {
        numRuns: 2000,
        // Besides the random runs, one path to each end, so the coverage below never depends on luck (a
        // second missed pickup, "cancelled", came up in about one of ten sets of 2,000 random runs).
        examples: [
          [
            ok,
            [
              command("completeCheckout"),
              command("approveSale"),
              { kind: "carrier", status: "picked_up" },
              { kind: "carrier", status: "delivered" },
              { kind: "deadline" },
            ],
          ],
          [
            ok,
            [
              command("completeCheckout"),
              command("approveSale"),
              { kind: "deadline" },
              { kind: "deadline" },
            ],
          ],
          [ok, [command("completeCheckout"), command("approveSale"), command("cancelShipment")]],
          [ok, [command("completeCheckout"), command("declineSale")]],
          [ok, [{ kind: "deadline" }]],
        ],
      },
    );
    // The runs went everywhere money moves: every end, the second pickup try, and every kind of movement.
    const ends: string[] = [
      COMMON_STATES.DELIVERED,
      COMMON_STATES.CANCELLED,
      COMMON_STATES.DECLINED,
      COMMON_STATES.EXPIRED,
      BUY_STATES.SHIP_ORDER_TRY2,
    ];
    expect(
      ends.filter((s) => !reached.has(s)),
      "states no run reached",
    ).toEqual([]);
    const movements = [
      "authorization",
      "authorization_released",
      "capture",
      "refund",
      "payout",
      "penalty",
    ];
    expect(
      movements.filter((k) => !moved.has(k)),
      "money movements no run made",
    ).toEqual([]);
  });
});

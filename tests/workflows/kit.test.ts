/**
 * The order-process kit (workflows/common/, ADR 0023) on its own, without Temporal: the pieces every order
 * machine is written with. The machines' own tests (tests/unit/*-machine.test.ts) and the workflow tests here
 * cover them in use.
 */
import { describe, expect, test } from "vitest";
import { ratingDeadline, WINDOWS } from "../../domain/business-days";
import { idempotencyKey, type CarrierEventSignal } from "../../workflows/common/contract";
import { isPaymentMethod, ratingOf, ratingRefusal } from "../../workflows/common/guards";
import {
  bookParcel,
  deliveryWindows,
  missedPickup,
  newParcel,
  pickupWindowEnd,
  staffPickup,
  takeCarrierEvent,
  takeDelivery,
  takeScan,
} from "../../workflows/common/parcel";
import { PAYMENT_POLICY, payments } from "../../workflows/common/payments";
import {
  iso,
  isoDeadlines,
  nextAttempt,
  nextKey,
  noticeDedupeKey,
  stepRecord,
} from "../../workflows/common/record";
import { runStepSync, type CallEffect, type Effect } from "../../workflows/common/steps";

const T0 = Date.parse("2026-03-02T15:00:00.000Z"); // a Monday
const CAL = { timeZone: "America/New_York", holidays: [] as string[] };

describe("keys and the attempt counter", () => {
  test("one key shape for every workflow; each step counts its own attempts", () => {
    expect(idempotencyKey("buy-order:7", "capture")).toBe("buy-order:7:capture:1");
    const m = { workflowId: "swap-order:9", attempts: {} };
    expect(nextKey(m, "swap-refund:provider")).toBe("swap-order:9:swap-refund:provider:1");
    expect(nextKey(m, "swap-refund:provider")).toBe("swap-order:9:swap-refund:provider:2");
    expect(nextAttempt(m, "swap-refund:receiver")).toBe(1);
  });
});

describe("the read-model record", () => {
  test("a step's codes become action rows; the write sequence moves on; notices and deadlines in the read model's words", () => {
    const m = {
      workflowId: "buy-order:7",
      actions: [] as { code: number; role: string; at: string }[],
      recordSeq: 4,
    };
    const r = stepRecord(m, [[224, "receiver"]], "2026-03-02T15:00:00.000Z", (code, role, at) => ({
      code,
      role,
      at,
    }));
    expect(r).toEqual({
      actions: [{ code: 224, role: "receiver", at: "2026-03-02T15:00:00.000Z" }],
      sequence: 5,
    });
    expect(m.actions).toHaveLength(1);
    expect(noticeDedupeKey("buy-order:7", "order_declined", "receiver")).toBe(
      "buy-order:7:mail:order_declined:receiver",
    );
    expect(noticeDedupeKey("swap-order:9", "swap_modified", "provider", 6)).toBe(
      "swap-order:9:mail:swap_modified:provider:6",
    );
    expect(isoDeadlines({ checkoutBy: T0, pickupBy: null })).toEqual({
      checkoutBy: "2026-03-02T15:00:00.000Z",
      pickupBy: null,
    });
    expect(iso(null)).toBeNull();
  });
});

describe("the parcel lifecycle", () => {
  test("booking: the carrier call with the key of the step's next attempt; a second window, then failed", () => {
    const m = { workflowId: "buy-order:7", attempts: {} };
    const calls: CallEffect[] = [];
    const answer = (e: Effect) => {
      calls.push(e as CallEffect);
      return { trackingNumber: "TRK7", callTag: `CT-${calls.length}` };
    };
    const first = runStepSync(
      bookParcel(m, "book-pickup", "bookPickup", (attempt) => ({ orderId: 7, attempt })),
      answer,
    );
    const second = runStepSync(
      bookParcel(m, "book-pickup", "bookPickup", (attempt) => ({ orderId: 7, attempt })),
      answer,
    );
    expect(calls.map((c) => [c.name, c.policy, c.input])).toEqual([
      [
        "bookPickup",
        "carrier",
        { idempotencyKey: "buy-order:7:book-pickup:1", orderId: 7, attempt: 1 },
      ],
      [
        "bookPickup",
        "carrier",
        { idempotencyKey: "buy-order:7:book-pickup:2", orderId: 7, attempt: 2 },
      ],
    ]);
    expect([first.attempt, second.attempt]).toEqual([1, 2]);
    expect(newParcel(second.booking, second.attempt)).toEqual({
      trackingNumber: "TRK7",
      callTag: "CT-2",
      attempt: 2,
      scanned: false,
      delivered: false,
      failed: false,
    });
    expect([missedPickup(1), missedPickup(2)]).toEqual(["rebook", "fail"]);
    expect(pickupWindowEnd(T0, CAL)).toBe(Date.parse("2026-03-04T15:00:00.000Z"));
  });

  test("scan and delivery: each once; a delivery reported first is a scan too; a failed parcel changes no more", () => {
    const p = newParcel({ trackingNumber: "T", callTag: "C" }, 1);
    expect(takeScan(p, "pre_transit")).toBe(false);
    expect([takeScan(p, "delivered"), takeDelivery(p, "delivered")]).toEqual([true, true]);
    expect([takeScan(p, "in_transit"), takeDelivery(p, "delivered")]).toEqual([false, false]);
    const failed = { ...newParcel({ trackingNumber: "U", callTag: "D" }, 2), failed: true };
    expect([takeScan(failed, "picked_up"), takeDelivery(failed, "delivered")]).toEqual([
      false,
      false,
    ]);
    expect(deliveryWindows(T0, CAL)).toEqual({
      ratingBy: ratingDeadline(T0, CAL.timeZone, CAL.holidays),
      rmaBy: T0 + WINDOWS.rmaRequest,
    });
  });

  test.each([
    ["the parcel staff saw", {}, [], "C", "book"],
    ["a call tag already replaced (a repeated click)", {}, [], "C-old", "repeat"],
    ["scanned", { scanned: true }, [], "C", "refused"],
    ["failed", { failed: true }, [], "C", "refused"],
    [
      "a scan of it queued",
      {},
      [{ eventId: "e", status: "picked_up", trackingNumber: "T" }],
      "C",
      "refused",
    ],
    [
      "a scan of another parcel queued",
      {},
      [{ eventId: "e", status: "picked_up", trackingNumber: "U" }],
      "C",
      "book",
    ],
    [
      "a pickup scheduled queued (not a scan)",
      {},
      [{ eventId: "e", status: "pre_transit", trackingNumber: "T" }],
      "C",
      "book",
    ],
  ] as const)("staff's Schedule pickup: %s", (_case, over, queue, tag, expected) => {
    const p = { ...newParcel({ trackingNumber: "T", callTag: "C" }, 1), ...over };
    expect(staffPickup(p, queue as readonly CarrierEventSignal[], tag)).toBe(expected);
  });

  test("staff's Schedule pickup before any parcel is booked is refused", () => {
    expect(staffPickup(null, [], "C")).toBe("refused");
  });

  test("one carrier-event intake: an event id once, a carrier status, about this order's parcel", () => {
    const m = { seenEvents: new Set<string>(), carrierQueue: [] as CarrierEventSignal[] };
    const ours = (ev: CarrierEventSignal) => ev.trackingNumber === "TRK7";
    const ev = { eventId: "evt_1", status: "picked_up", trackingNumber: "TRK7" } as const;
    expect(takeCarrierEvent(m, ev, ours)).toBe(true);
    expect(takeCarrierEvent(m, { ...ev }, ours)).toBe(false); // the carrier sent the webhook twice
    expect(
      takeCarrierEvent(m, { eventId: "evt_2", status: "picked_up", trackingNumber: "OTHER" }, ours),
    ).toBe(false);
    expect(
      takeCarrierEvent(
        m,
        { eventId: "evt_3", status: "lost" as never, trackingNumber: "TRK7" },
        ours,
      ),
    ).toBe(false);
    expect(takeCarrierEvent(m, undefined, ours)).toBe(false);
    expect([...m.seenEvents]).toEqual(["carrier:evt_1", "carrier:evt_2", "carrier:evt_3"]);
    expect(m.carrierQueue).toEqual([ev]);
  });
});

describe("the payment steps", () => {
  interface Pay {
    refundSwapSide(input: {
      idempotencyKey: string;
      orderId: number;
      amountCents: number;
    }): Promise<{ ok: true }>;
    authorizeSwap(input: { idempotencyKey: string; orderId: number }): Promise<{ status: string }>;
  }
  const pay = payments<Pay>();

  test("each with its key and its policy; a retry of the same attempt keeps its key", () => {
    const m = { workflowId: "swap-order:9", attempts: {} as Partial<Record<string, number>> };
    const calls: CallEffect[] = [];
    const answer = (e: Effect) => (calls.push(e as CallEffect), { ok: true });
    runStepSync(
      pay(m, "refund", "refundSwapSide", "swap-refund:provider", { orderId: 9, amountCents: 500 }),
      answer,
    );
    runStepSync(pay(m, "authorise", "authorizeSwap", "swap-authorize", { orderId: 9 }), answer);
    runStepSync(pay(m, "authorise", "authorizeSwap", "swap-authorize", { orderId: 9 }, 1), answer);
    expect(
      calls.map((c) => [c.name, c.policy, (c.input as { idempotencyKey: string }).idempotencyKey]),
    ).toEqual([
      ["refundSwapSide", "payEventually", "swap-order:9:swap-refund:provider:1"],
      ["authorizeSwap", "payNow", "swap-order:9:swap-authorize:1"],
      ["authorizeSwap", "payNow", "swap-order:9:swap-authorize:1"],
    ]);
    expect(m.attempts["swap-authorize"]).toBe(1);
    expect(PAYMENT_POLICY).toMatchObject({
      capture: "payNow",
      saveCard: "payNow",
      release: "payEventually",
      charge: "payEventually",
      payout: "payEventually",
    });
  });
});

describe("the guards", () => {
  test("a card: its payment method id and last four", () => {
    expect(
      isPaymentMethod({ paymentMethodId: "pm_1", lastFour: "4242", description: "Visa" }),
    ).toBe(true);
    expect(isPaymentMethod({ paymentMethodId: "", lastFour: "4242" })).toBe(false);
    expect(isPaymentMethod({ paymentMethodId: "pm_1" })).toBe(false);
    expect(isPaymentMethod(null)).toBe(false);
  });

  test("a rating: once, within its window, 1 to 5 stars per criterion; the comment trimmed", () => {
    const stars = { condition: 5, packaging: 4, timeliness: 3, overall: 1 };
    expect(ratingRefusal(false, T0 + 1, stars, T0)).toBeNull();
    expect(ratingRefusal(true, T0 + 1, stars, T0)).toBe("already_rated");
    expect(ratingRefusal(false, T0, stars, T0)).toBe("rating_closed");
    expect(ratingRefusal(false, null, stars, T0)).toBe("rating_closed");
    expect(ratingRefusal(false, T0 + 1, { ...stars, overall: 6 }, T0)).toBe("rating_invalid");
    expect(ratingOf({ stars, comments: `  ${"x".repeat(2100)} ` }).comments).toHaveLength(2000);
    expect(ratingOf({ stars: { ...stars, extra: 1 } as typeof stars })).toEqual({
      stars,
      comments: "",
    });
  });
});

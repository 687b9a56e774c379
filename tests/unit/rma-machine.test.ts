// The RMA's state machine without Temporal (workflows/rma/model.ts, machine.ts), driven by random RMAs of
// sales and swaps and random staff decisions, return scans, missed deadlines, declined charges and new cards
// (fast-check). What the machine asks the payment provider to move is checked against domain/rma-money:
// the victim is refunded at most once and never more than it paid (sale) or received in value (swap), the
// perpetrator is charged at most once (however often a declined charge is tried again), the RMA ledger
// balances (charge − refund = return shipping + RMA fee), and a declined or cancelled RMA moves nothing.
// tests/workflows/rma.test.ts covers the same paths with timers and recorded histories.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { rmaLedger, type RmaKind } from "../../domain/rma-money";
import {
  RMA_DECIDE,
  nextQueuedStep as nextRmaStep,
  onDeadline as onRmaDeadline,
  openRma,
} from "../../workflows/rma/machine";
import {
  acceptCardOnFile,
  acceptCarrierEvent,
  createRmaModel,
  deadline as rmaDeadline,
  settlementOf,
} from "../../workflows/rma/model";
import type { RmaInput } from "../../workflows/rma/contract";
import { Rejection, runStepSync } from "../../workflows/common/steps";
import type { CallEffect, Effect, Step, StepContext } from "../../workflows/common/steps";

const VICTIM = 21;
const PERPETRATOR = 12;
const T0 = Date.parse("2026-03-02T15:00:00.000Z"); // a Monday

const lineArb = fc.record({
  unitPriceCents: fc.integer({ min: 1, max: 50_000 }),
  requestedQuantity: fc.integer({ min: 1, max: 4 }),
  reason: fc.integer({ min: 0, max: 4 }),
});

/** A random RMA: the original order as the victim received it (the requested units and maybe more). */
const rmaArb = fc
  .record({
    kind: fc.constantFrom<RmaKind>("sale", "swap"),
    lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
    extraUnits: fc.integer({ min: 0, max: 3 }),
    shippingCents: fc.integer({ min: 0, max: 5_000 }),
  })
  .map(({ kind, lines, extraUnits, shippingCents }): RmaInput => {
    const requested = lines.reduce((a, l) => a + l.requestedQuantity, 0);
    const goods =
      lines.reduce((a, l) => a + l.requestedQuantity * l.unitPriceCents, 0) + extraUnits * 1_000;
    const fee = kind === "sale" ? Math.round(goods / 10) : 0;
    const shipping = kind === "sale" ? shippingCents : 0;
    return {
      rmaId: 70,
      externalId: "RMA-000070",
      orderId: 7,
      kind,
      victimId: VICTIM,
      perpetratorId: PERPETRATOR,
      order: {
        kind,
        unitsReceived: requested + extraUnits,
        goodsCents: goods,
        feeCents: fee,
        shippingCents: shipping,
        totalCents: goods + fee + shipping,
      },
      lines: lines.map((l, i) => ({
        lineId: 100 + i,
        ...l,
        otherText: l.reason === 4 ? "crushed" : null,
      })),
      victimPaymentIntentId: kind === "sale" ? "pi_victim" : null,
    };
  });

type Act =
  | { kind: "decide"; share: number[]; feeCents: number }
  | { kind: "scan"; status: "picked_up" | "delivered" }
  | { kind: "deadline" }
  | { kind: "newCard" };
const actArb: fc.Arbitrary<Act> = fc.oneof(
  fc
    .record({
      share: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 4, maxLength: 4 }),
      feeCents: fc.integer({ min: 0, max: 3_000 }),
    })
    .map((d): Act => ({ kind: "decide", ...d })),
  fc
    .constantFrom<"picked_up" | "delivered">("picked_up", "delivered")
    .map((status): Act => ({ kind: "scan", status })),
  fc.constant<Act>({ kind: "deadline" }),
  fc.constant<Act>({ kind: "newCard" }),
);

/** One sale of two units at $40.00, both returned: the fixed input of the example paths below. */
const ONE_SALE: RmaInput = {
  rmaId: 70,
  externalId: "RMA-000070",
  orderId: 7,
  kind: "sale",
  victimId: VICTIM,
  perpetratorId: PERPETRATOR,
  order: {
    kind: "sale",
    unitsReceived: 2,
    goodsCents: 8_000,
    feeCents: 800,
    shippingCents: 1_200,
    totalCents: 10_000,
  },
  lines: [{ lineId: 100, unitPriceCents: 4_000, requestedQuantity: 2, reason: 1, otherText: null }],
  victimPaymentIntentId: "pi_victim",
};
const approveAll: Act = { kind: "decide", share: [4, 4, 4, 4], feeCents: 500 };
const returnScan = (status: "picked_up" | "delivered"): Act => ({ kind: "scan", status });

function drive(input: RmaInput, acts: Act[], chargeDeclines: number) {
  let clock = T0;
  let declinesLeft = chargeDeclines;
  const effects: Effect[] = [];
  const ctx: StepContext = { now: () => clock, log: () => {} };
  const answer = (e: Effect): unknown => {
    effects.push(e);
    if (e.kind !== "call") return undefined;
    switch (e.name) {
      case "bookReturnPickup":
        return { trackingNumber: "TRK-R", callTag: "CT-R" };
      case "refundVictim":
        return { status: "refunded" };
      case "payVictim":
        return { status: "paid" };
      case "chargePerpetrator":
        if (declinesLeft > 0) {
          declinesLeft -= 1;
          return { status: "queued" };
        }
        return { status: "charged" };
      default:
        return undefined;
    }
  };
  const run = (s: Step<unknown>) => runStepSync(s, answer);
  const m = createRmaModel(input, "rma:70", T0);
  run(openRma(m, ctx));
  let events = 0;
  for (const a of acts) {
    if (a.kind === "decide") {
      const cmd = {
        staffUserId: 1,
        rmaFeeCents: a.feeCents,
        lines: input.lines.map((l, i) => ({
          lineId: l.lineId,
          approvedQuantity: Math.min(a.share[i] ?? 0, l.requestedQuantity),
        })),
      };
      try {
        RMA_DECIDE.validate(m, cmd);
      } catch (err) {
        if (err instanceof Rejection) continue;
        throw err;
      }
      run(RMA_DECIDE.run(m, cmd, ctx));
    } else if (a.kind === "deadline") {
      const at = rmaDeadline(m);
      if (at === null) continue;
      clock = at;
      run(onRmaDeadline(m, ctx));
    } else {
      if (a.kind === "scan") acceptCarrierEvent(m, { eventId: `e${events++}`, status: a.status });
      else acceptCardOnFile(m, { retailerId: PERPETRATOR });
    }
    for (let s = nextRmaStep(m, ctx); s; s = nextRmaStep(m, ctx)) run(s);
  }
  const calls = effects.filter((e): e is CallEffect => e.kind === "call");
  const amounts = (name: string) =>
    calls
      .filter((c) => c.name === name)
      .map((c) => (c.input as { amountCents: number }).amountCents);
  return { m, calls, amounts };
}

describe("money over random RMAs (fast-check: what the machine asks the provider to move)", () => {
  test("refunded at most once and never beyond what the victim paid or received; charged once; the ledger balances; a declined or cancelled RMA moves nothing", () => {
    const ends = new Set<string>();
    fc.assert(
      fc.property(
        rmaArb,
        fc.array(actArb, { maxLength: 10 }),
        fc.integer({ min: 0, max: 2 }),
        (input, acts, chargeDeclines) => {
          const { m, amounts } = drive(input, acts, chargeDeclines);
          ends.add(m.stage + (m.chargeQueued ? "+queued" : ""));
          const refunds = [...amounts("refundVictim"), ...amounts("payVictim")];
          const charged = amounts("chargePerpetrator");
          const s = settlementOf(m);
          expect(refunds.length).toBeLessThanOrEqual(1);
          if (
            m.stage === "rmadeclined" ||
            m.stage === "rmacancelled" ||
            m.stage === "rmarequested" ||
            m.stage === "shipping"
          ) {
            expect(refunds).toEqual([]);
            expect(charged).toEqual([]);
            return;
          }
          // Completed: refunded once, what domain/rma-money says, within what the victim paid or received.
          expect(refunds).toEqual([s.victimRefundCents]);
          expect(s.victimRefundCents).toBeLessThanOrEqual(
            input.kind === "sale" ? input.order.totalCents : input.order.goodsCents,
          );
          // Each attempt asks for the same amount; every attempt but a successful last one was declined (a new
          // card tries again), so once charged, never again.
          for (const c of charged) expect(c).toBe(s.perpetratorChargeCents);
          expect(charged.length - (m.charged ? 1 : 0)).toBeLessThanOrEqual(chargeDeclines);
          expect(m.charged !== m.chargeQueued).toBe(true);
          const l = rmaLedger(s);
          expect(l.balanced).toBe(true);
          expect(l.chargedCents - l.refundedCents).toBe(s.rmaShippingCents + s.rmaFeeCents);
        },
      ),
      {
        numRuns: 2000,
        // Besides the random runs, one path to each end, so the coverage below never depends on luck.
        examples: [
          [ONE_SALE, [], 0],
          [ONE_SALE, [approveAll], 0],
          [ONE_SALE, [approveAll, returnScan("picked_up"), returnScan("delivered")], 0],
          [ONE_SALE, [approveAll, returnScan("picked_up"), returnScan("delivered")], 1],
          [ONE_SALE, [{ kind: "decide", share: [0, 0, 0, 0], feeCents: 0 }], 0],
          [ONE_SALE, [approveAll, { kind: "deadline" }], 0],
        ],
      },
    );
    expect([...ends]).toEqual(
      expect.arrayContaining([
        "rmarequested",
        "shipping",
        "rmacompleted",
        "rmacompleted+queued",
        "rmadeclined",
        "rmacancelled",
      ]),
    );
  });
});

describe("staff's deadline is counted in the marketplace's time zone (docs/product/windows.md)", () => {
  // Friday 4 December 2026, 22:30 in Los Angeles: already Saturday 01:30 in New York.
  const FRIDAY_NIGHT_IN_LA = Date.UTC(2026, 11, 5, 6, 30);
  test.each<[string, string]>([
    // Friday is a business day there: five more end on Friday 11 December, at the same time of day.
    ["America/Los_Angeles", "2026-12-12T06:30:00.000Z"],
    // A Saturday start counts from Monday: the fifth business day ends as Monday 14 December begins.
    ["America/New_York", "2026-12-14T05:00:00.000Z"],
  ])("filed on that instant in %s: staff decide by %s", (timeZone, staffBy) => {
    const m = createRmaModel({ ...ONE_SALE, timeZone }, "rma:70", FRIDAY_NIGHT_IN_LA);
    expect(new Date(m.deadlines.staffBy ?? 0).toISOString()).toBe(staffBy);
  });
});

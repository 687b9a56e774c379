/**
 * The swap workflow (workflows/swap/) on the time-skipping test server, with in-memory activities recording
 * every call: the provider never chooses; modify back and forth; call-it-even by the provider and by the
 * receiver; decline over money → called even on the last chance, or accepted; decline for another reason;
 * a declined card then paid; the payment window lapses; one side never ships (try2, then non-shipment with
 * its charges and refunds); both ship and both rate; both fail to ship, one after the other and on the same
 * timer (each failure settled in turn, the cash refunded to its payer). Money calls are asserted with their idempotency keys and
 * amounts (domain/fees swapValuation, domain/swap-money); recorded histories replay
 * (tests/histories/swap-*.json; RECORD_HISTORIES=1 records them again).
 */
import { WorkflowUpdateFailedError, type WorkflowHandle } from "@temporalio/client";
import { moneyCalls, recordingActivities, type ActivityCall } from "./fakes/recording";
import { useSharedFakeWorker } from "./fakes/shared-worker";
import type {
  SwapActivities,
  SwapListedUnits,
  SwapStateRecord,
} from "../../workflows/swap/activities";
import { SYSTEM_REASON } from "../../domain/reasons";
import { storeApprovalMessage, TEAM_MSG } from "../../domain/teams";
import { ACTION } from "../../domain/action-codes";
import type { OrderLine } from "../../domain/order-money";
import { swapSettlement } from "../../domain/swap-money";
import {
  acceptDeclineUpdate,
  approveSwapUpdate,
  callItEvenUpdate,
  chooseItemsUpdate,
  cancelSwapShipmentUpdate,
  confirmSwapReceivedUpdate,
  declineSwapUpdate,
  makePaymentUpdate,
  modifySwapUpdate,
  rateSwapUpdate,
  staffBookSwapPickupUpdate,
  storeApproveSwapUpdate,
  SWAP_ERRORS,
  SWAP_SOLD_OUT_MESSAGE,
  SWAP_WORKFLOW_TYPE,
  swapCarrierEventSignal,
  swapCheckoutUpdate,
  swapViewQuery,
  swapWorkflowId,
  type SwapView,
} from "../../workflows/swap/contract";
import type { swapOrderWorkflow } from "../../workflows/swap/workflow";
import { viewWaiter, sleepUntil } from "../setup/temporal";

const DAY = 24 * 3600 * 1000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const PROVIDER = 51;
const RECEIVER = 62;
const CARD = { paymentMethodId: "pm_card_visa", lastFour: "4242", description: "Visa" };
const BAD_CARD = {
  paymentMethodId: "pm_card_chargeDeclined",
  lastFour: "0002",
  description: "Visa",
};
/** The provider gives 2 × $50 = $100 (2 units); the receiver gives 2 × $80 = $160 (2 units). */
const PROVIDER_LINES: OrderLine[] = [
  { listingId: 701, variationId: 8001, sizes: { M: 2 }, unitPriceCents: 5000 },
];
const RECEIVER_LINES: OrderLine[] = [
  { listingId: 801, variationId: 8101, sizes: { "9": 2 }, unitPriceCents: 8000 },
];

/**
 * The listings as they stand (swapListedUnits): the two in the swap with units to spare, one more of each side
 * to add from (the provider's 702: 3 × L at $40; the receiver's 802: 2 × 10 at $30), and a sold listing.
 */
const LISTED: SwapListedUnits[] = [
  {
    listingId: 701,
    retailerId: PROVIDER,
    variationId: 8001,
    swappable: true,
    sizes: { M: 5 },
    unitPriceCents: 5000,
  },
  {
    listingId: 702,
    retailerId: PROVIDER,
    variationId: 8002,
    swappable: true,
    sizes: { L: 3 },
    unitPriceCents: 4000,
  },
  {
    listingId: 801,
    retailerId: RECEIVER,
    variationId: 8101,
    swappable: true,
    sizes: { "9": 4 },
    unitPriceCents: 8000,
  },
  {
    listingId: 802,
    retailerId: RECEIVER,
    variationId: 8102,
    swappable: true,
    sizes: { "10": 2 },
    unitPriceCents: 3000,
  },
  {
    listingId: 803,
    retailerId: RECEIVER,
    variationId: 8103,
    swappable: false,
    sizes: {},
    unitPriceCents: 3000,
  },
];

function fakeSwapActivities() {
  const calls: ActivityCall<keyof SwapActivities>[] = [];
  const records: SwapStateRecord[] = [];
  let seq = 0;
  const listed = LISTED.map((l) => ({ ...l, sizes: { ...l.sizes } }));
  let stockLeft = true;
  const impl: SwapActivities = {
    async swapListedUnits(input) {
      return listed.filter((l) => input.listingIds.includes(l.listingId));
    },
    async recordSwapState(input) {
      if (!records.some((r) => r.sequence === input.sequence)) records.push(input); // the read model keeps a sequence once
    },
    async authorizeSwap(input) {
      return input.paymentMethod.paymentMethodId === BAD_CARD.paymentMethodId
        ? { status: "declined", message: "declined" }
        : { status: "authorized", paymentIntentId: `pi_auth_${++seq}` };
    },
    async releaseSwapAuthorization() {},
    async chargeSwapSide(input) {
      return input.paymentMethod.paymentMethodId === BAD_CARD.paymentMethodId
        ? { status: "declined", message: "declined" }
        : { status: "charged", paymentIntentId: `pi_${input.retailerId}_${++seq}` };
    },
    async refundSwapSide() {},
    async chargeSwapPenalty() {
      return { status: "charged" };
    },
    async payOutSwapSide() {
      return { status: "paid" };
    },
    async decrementSwapStock() {
      return { ok: stockLeft };
    },
    async bookSwapPickup(input) {
      return {
        trackingNumber: `TRK-${input.orderId}-${input.side}`,
        callTag: `CT-${input.orderId}-${input.side}-${String(input.idempotencyKey).split(":").pop()}`,
      };
    },
    async saveSwapRating() {},
  };
  const MONEY: (keyof SwapActivities)[] = [
    "authorizeSwap",
    "releaseSwapAuthorization",
    "chargeSwapSide",
    "refundSwapSide",
    "chargeSwapPenalty",
    "payOutSwapSide",
  ];
  return {
    activities: recordingActivities(impl, calls),
    money: () => moneyCalls(calls, MONEY),
    codes: () => records.flatMap((r) => r.actions.map((a) => a.code)),
    states: () => records.map((r) => r.statename),
    records: () => records,
    calls,
    /** The listings as the next swapListedUnits reads them (a test sells units meanwhile). */
    listed,
    /** Whether the next stock decrement (214) finds every unit. */
    sellOut: () => {
      stockLeft = false;
    },
  };
}

const shared = useSharedFakeWorker("swap", fakeSwapActivities);

type Handle = WorkflowHandle<typeof swapOrderWorkflow>;

async function scenario(
  orderId: number,
  fn: (h: Handle, fake: ReturnType<typeof fakeSwapActivities>) => Promise<void>,
): Promise<void> {
  const fake = fakeSwapActivities();
  await shared.withFake(fake, async () => {
    const h = await shared.env.client.workflow.start<typeof swapOrderWorkflow>(SWAP_WORKFLOW_TYPE, {
      taskQueue: shared.taskQueue,
      workflowId: swapWorkflowId(orderId),
      args: [
        {
          orderId,
          externalId: `SW-${orderId}`,
          providerId: PROVIDER,
          receiverId: RECEIVER,
          providerLines: PROVIDER_LINES,
        },
      ],
    });
    try {
      await fn(h, fake);
    } finally {
      // A swap left open would wake up when a later test skips time and call that test's activities.
      await h.terminate("scenario over").catch(() => {});
    }
  });
}

const by = (id: number) => ({ actorRetailerId: id });
const checkout = (h: Handle, card = CARD) =>
  h.executeUpdate(swapCheckoutUpdate, { args: [{ ...by(RECEIVER), paymentMethod: card }] });
const choose = (h: Handle) =>
  h.executeUpdate(chooseItemsUpdate, { args: [{ ...by(PROVIDER), lines: RECEIVER_LINES }] });
const approve = (h: Handle, who: number, callItEven = false) =>
  h.executeUpdate(approveSwapUpdate, { args: [{ ...by(who), callItEven }] });
const pay = (h: Handle, who: number, card = CARD) =>
  h.executeUpdate(makePaymentUpdate, { args: [{ ...by(who), paymentMethod: card }] });

/** Polls the view until `pred` holds (the workflow may still be processing a fired timer or a signal). */
const waitFor = viewWaiter(swapViewQuery, (v) => `state ${v?.statename}`, 200);

async function refused(p: Promise<unknown>, code: keyof typeof SWAP_ERRORS): Promise<void> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as { cause?: { type?: string } }).cause?.type).toBe(code);
}

/** Checkout, the provider's choice, both approve, both pay: the swap is in ship_swap. */
async function toShipping(h: Handle, callItEven = false): Promise<SwapView> {
  await checkout(h);
  await choose(h);
  await approve(h, PROVIDER, callItEven);
  await approve(h, RECEIVER);
  await pay(h, PROVIDER);
  await pay(h, RECEIVER);
  return waitFor(h, (v) => v.statename === "ship_swap" && !v.busy, "ship_swap");
}

const P_GOODS = { goodsCents: 10000, units: 2 };
const R_GOODS = { goodsCents: 16000, units: 2 };

describe("swap negotiation", () => {
  test("the provider never chooses: declined after 5 days, the receiver's authorisation released", async () => {
    await scenario(5101, async (h, fake) => {
      const r = await checkout(h);
      expect(r.statename).toBe("provider_choose_items");
      await refused(approve(h, PROVIDER), "no_receiver_value");
      await shared.env.sleep(6 * DAY);
      expect(await h.result()).toEqual({ statename: "declined" });
      // Pre-authorised: 5% of $100 + shipping of 2 units ($23.75).
      expect(fake.money()).toEqual([
        ["authorizeSwap", "swap-authorize:1", 500 + 2375],
        ["releaseSwapAuthorization", "swap-release:1", undefined],
      ]);
      expect(fake.codes()).toEqual([ACTION.SWAP_REQUESTED, ACTION.SELLER_RESPONSE_EXPIRED]);
      // The provider's answer was late: the reason is the provider's ("You:" to it, "Other Retailer:" to the receiver).
      expect(fake.records().at(-1)!.reasons).toEqual({
        provider_system_reason: SYSTEM_REASON.NOT_ANSWERED_IN_TIME,
      });
      await shared.keepHistory(h, "provider-never-chooses");
    });
  });

  test("modify back and forth, then both approve: payment with each side's due", async () => {
    await scenario(5102, async (h) => {
      await checkout(h);
      await choose(h);
      await refused(
        h.executeUpdate(modifySwapUpdate, { args: [{ ...by(RECEIVER), providerLines: [] }] }),
        "wrong_party",
      );
      await h.executeUpdate(modifySwapUpdate, {
        args: [
          {
            ...by(PROVIDER),
            receiverLines: [{ listingId: 801, variationId: 8101, sizes: { "9": 1 } }],
          },
        ],
      });
      let v = await h.query(swapViewQuery);
      expect(v).toMatchObject({ statename: "receiver_approve", isModified: true });
      await refused(
        h.executeUpdate(modifySwapUpdate, {
          args: [
            {
              ...by(RECEIVER),
              receiverLines: [{ listingId: 801, variationId: 8101, sizes: { "9": 5 } }],
            },
          ],
        }),
        "units_unavailable",
      );
      await h.executeUpdate(modifySwapUpdate, {
        args: [
          {
            ...by(RECEIVER),
            providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 1 } }],
          },
        ],
      });
      expect((await h.query(swapViewQuery)).statename).toBe("provider_approve");
      await approve(h, PROVIDER);
      await approve(h, RECEIVER);
      v = await waitFor(h, (x) => x.statename === "payment" && !x.busy, "payment");
      // $50 against $80: the provider adds $30; both pay 5% of $80 ($4.00) and 1 unit's shipping ($19.75).
      expect([v.provider.dueCents, v.receiver.dueCents]).toEqual([3000 + 400 + 1975, 400 + 1975]);
      expect(v.actionNeeded).toBe("both");
    });
  });

  test.each([
    ["the provider", PROVIDER],
    ["the receiver", RECEIVER],
  ] as const)("%s calls it even: nobody adds cash, both pay the same fee", async (_who, id) => {
    await scenario(id === PROVIDER ? 5103 : 5104, async (h) => {
      await checkout(h);
      await choose(h);
      await approve(h, PROVIDER, id === PROVIDER);
      await approve(h, RECEIVER, id === RECEIVER);
      const v = await waitFor(h, (x) => x.statename === "payment" && !x.busy, "payment");
      expect(v.valuation).toMatchObject({ callItEven: true, cashFrom: null });
      expect([v.provider.dueCents, v.receiver.dueCents]).toEqual([800 + 2375, 800 + 2375]);
    });
  });

  test("declined over money: the other side calls it even on the last chance and the swap goes on", async () => {
    await scenario(5105, async (h) => {
      await checkout(h);
      await choose(h);
      await approve(h, PROVIDER);
      await h.executeUpdate(declineSwapUpdate, { args: [{ ...by(RECEIVER), reason: 61 }] });
      expect((await h.query(swapViewQuery)).statename).toBe("swap_declined_by_receiver_money");
      await refused(h.executeUpdate(callItEvenUpdate, { args: [by(RECEIVER)] }), "wrong_party");
      await h.executeUpdate(callItEvenUpdate, { args: [by(PROVIDER)] });
      expect((await waitFor(h, (x) => !x.busy, "idle")).statename).toBe("payment");
    });
  });

  test("declined over money and the decline accepted: declined, the authorisation released", async () => {
    await scenario(5106, async (h, fake) => {
      await checkout(h);
      await choose(h);
      await h.executeUpdate(declineSwapUpdate, { args: [{ ...by(PROVIDER), reason: 61 }] });
      expect((await h.query(swapViewQuery)).statename).toBe("swap_declined_by_provider_money");
      await h.executeUpdate(acceptDeclineUpdate, { args: [by(RECEIVER)] });
      expect(await h.result()).toEqual({ statename: "declined" });
      expect(fake.money().map((x) => x[0])).toEqual(["authorizeSwap", "releaseSwapAuthorization"]);
    });
  });

  test("declined for another reason: declined at once", async () => {
    await scenario(5107, async (h) => {
      await checkout(h);
      await choose(h);
      await refused(
        h.executeUpdate(declineSwapUpdate, { args: [{ ...by(PROVIDER), reason: 7 }] }),
        "decline_reason_required",
      );
      await h.executeUpdate(declineSwapUpdate, { args: [{ ...by(PROVIDER), reason: 60 }] });
      expect(await h.result()).toEqual({ statename: "declined" });
    });
  });
});

describe("swap modified both ways (ADR 0025)", () => {
  const modify = (
    h: Handle,
    who: number,
    lines: { providerLines?: unknown[]; receiverLines?: unknown[] },
  ) => h.executeUpdate(modifySwapUpdate, { args: [{ ...by(who), ...(lines as object) }] });

  test("each side raises and adds lines on its move; the turn passes; money and the stock taken follow the new lines", async () => {
    await scenario(5111, async (h, fake) => {
      await checkout(h);
      await choose(h);
      // The provider gives one unit more of its line and asks for one of the receiver's other listing.
      await modify(h, PROVIDER, {
        providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 3 } }],
        receiverLines: [
          { listingId: 801, variationId: 8101, sizes: { "9": 2 } },
          { listingId: 802, variationId: 8102, sizes: { "10": 1 } },
        ],
      });
      let v = await h.query(swapViewQuery);
      expect(v).toMatchObject({ statename: "receiver_approve", isModified: true });
      expect(v.provider.lines).toEqual([{ ...PROVIDER_LINES[0], sizes: { M: 3 } }]);
      // The added line takes its listing's price, not anything the command said.
      expect(v.receiver.lines).toEqual([
        RECEIVER_LINES[0],
        { listingId: 802, variationId: 8102, sizes: { "10": 1 }, unitPriceCents: 3000 },
      ]);
      // The receiver asks for one unit of the provider's other listing: $190 against $190.
      await modify(h, RECEIVER, {
        providerLines: [
          { listingId: 701, variationId: 8001, sizes: { M: 3 } },
          { listingId: 702, variationId: 8002, sizes: { L: 1 } },
        ],
      });
      v = await h.query(swapViewQuery);
      expect(v.statename).toBe("provider_approve");
      expect(v.valuation).toMatchObject({
        largerGoodsCents: 19000,
        differenceCents: 0,
        cashFrom: null,
      });
      await approve(h, PROVIDER);
      await approve(h, RECEIVER);
      v = await waitFor(h, (x) => x.statename === "payment" && !x.busy, "payment");
      // Both pay 5% of $190 ($9.50); the provider receives 3 units ($23.75), the receiver 4 ($27.75).
      expect([v.provider.dueCents, v.receiver.dueCents]).toEqual([950 + 2375, 950 + 2775]);
      expect(fake.records().at(-1)!.dues).toEqual({ provider: 950 + 2375, receiver: 950 + 2775 });
      await pay(h, PROVIDER);
      await pay(h, RECEIVER);
      await waitFor(h, (x) => x.statename === "ship_swap" && !x.busy, "ship_swap");
      const stock = fake.calls.find((c) => c.name === "decrementSwapStock")!.input
        .lines as OrderLine[];
      expect(stock.map((l) => [l.listingId, l.sizes])).toEqual([
        [701, { M: 3 }],
        [702, { L: 1 }],
        [801, { "9": 2 }],
        [802, { "10": 1 }],
      ]);
      // Only the raises and additions read the listings; lowering reads nothing.
      expect(
        fake.calls.filter((c) => c.name === "swapListedUnits").map((c) => c.input.listingIds),
      ).toEqual([[701, 802], [702]]);
      // Kept so that a change to how a modification reads the listings shows in replay (ADR 0025).
      await shared.keepHistory(h, "raised-and-added");
    });
  });

  test("past the units listed, a listing of the wrong side, a listing no longer active, units sold meanwhile: refused, nothing changed", async () => {
    await scenario(5112, async (h, fake) => {
      await checkout(h);
      await choose(h);
      const before = await h.query(swapViewQuery);
      const recorded = fake.records().length;
      await refused(
        modify(h, PROVIDER, {
          providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 6 } }],
        }),
        "units_unavailable",
      );
      await refused(
        modify(h, PROVIDER, {
          providerLines: [
            ...PROVIDER_LINES,
            { listingId: 802, variationId: 8102, sizes: { "10": 1 } },
          ],
        }),
        "units_unavailable",
      );
      await refused(
        modify(h, PROVIDER, {
          receiverLines: [
            ...RECEIVER_LINES,
            { listingId: 803, variationId: 8103, sizes: { "10": 1 } },
          ],
        }),
        "units_unavailable",
      );
      // A size named like an Object member is no units of the listing.
      await refused(
        modify(h, PROVIDER, {
          providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 2, constructor: 1 } }],
        }),
        "units_unavailable",
      );
      fake.listed[0].sizes.M = 2; // the provider's other orders took three units since the page was shown
      await refused(
        modify(h, PROVIDER, {
          providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 3 } }],
        }),
        "units_unavailable",
      );
      await refused(
        modify(h, PROVIDER, {
          providerLines: [{ listingId: 701, variationId: 8001, sizes: { M: 1.5 } }],
        }),
        "invalid_units",
      );
      const after = await h.query(swapViewQuery);
      expect({ ...after, busy: false }).toEqual({ ...before, busy: false });
      expect(fake.records()).toHaveLength(recorded);
    });
  });

  test("the provider chooses again while the swap waits on its approval; once it has approved, it cannot", async () => {
    await scenario(5113, async (h, fake) => {
      await checkout(h);
      await choose(h);
      const again = [
        { listingId: 802, variationId: 8102, sizes: { "10": 2 }, unitPriceCents: 3000 },
      ];
      const r = await h.executeUpdate(chooseItemsUpdate, {
        args: [{ ...by(PROVIDER), lines: again }],
      });
      expect(r.statename).toBe("provider_approve");
      const v = await h.query(swapViewQuery);
      expect(v.receiver.lines).toEqual(again);
      // $100 against $60 now: the receiver adds $40.
      expect(v.valuation).toMatchObject({ differenceCents: 4000, cashFrom: "receiver" });
      expect(fake.codes()).toEqual([
        ACTION.SWAP_REQUESTED,
        ACTION.PROVIDER_CHOOSES_SWAP_ITEMS,
        ACTION.PROVIDER_CHOOSES_SWAP_ITEMS,
      ]);
      await approve(h, PROVIDER);
      await refused(
        h.executeUpdate(chooseItemsUpdate, { args: [{ ...by(PROVIDER), lines: RECEIVER_LINES }] }),
        "wrong_state",
      );
    });
  });

  test("a line sold out before the stock is taken (214): declined with the reason, both payments refunded in full", async () => {
    await scenario(5114, async (h, fake) => {
      await checkout(h);
      await choose(h);
      await approve(h, PROVIDER);
      await approve(h, RECEIVER);
      await pay(h, PROVIDER);
      fake.sellOut();
      // The payer stays on the swap and reads why (no redirect to its sent swaps).
      expect(await pay(h, RECEIVER)).toEqual({
        statename: "declined",
        displayStatus: expect.any(String),
        message: SWAP_SOLD_OUT_MESSAGE,
      });
      expect(await h.result()).toEqual({ statename: "declined" });
      const last = fake.records().at(-1)!;
      expect(last.reasons).toEqual({ units_unavailable_reason: 62 });
      const paid = fake.money().filter((x) => x[0] === "chargeSwapSide");
      const refunds = fake.money().filter((x) => x[0] === "refundSwapSide");
      expect(refunds.map((x) => x[2])).toEqual(paid.map((x) => x[2]));
    });
  });
});

describe("swap payment", () => {
  test("a declined card is refused with the message and a new attempt; then paid; both paid → stock, two call tags", async () => {
    await scenario(5108, async (h, fake) => {
      await checkout(h);
      await choose(h);
      await approve(h, PROVIDER);
      await approve(h, RECEIVER);
      await refused(pay(h, PROVIDER, BAD_CARD), "card_declined");
      await pay(h, PROVIDER);
      await pay(h, RECEIVER);
      const v = await waitFor(h, (x) => x.statename === "ship_swap" && !x.busy, "ship_swap");
      expect(v.provider.shipment?.trackingNumber).toBe("TRK-5108-provider");
      const due = swapSettlement(
        { provider: P_GOODS, receiver: R_GOODS, callItEven: false },
        "both_shipped",
      );
      expect(fake.money()).toEqual([
        ["authorizeSwap", "swap-authorize:1", 500 + 2375],
        ["chargeSwapSide", "swap-charge:provider:1", due.provider.paidCents],
        ["chargeSwapSide", "swap-charge:provider:2", due.provider.paidCents],
        ["chargeSwapSide", "swap-charge:receiver:1", due.receiver.paidCents],
        ["releaseSwapAuthorization", "swap-release:1", undefined],
      ]);
      expect(fake.codes()).toContain(ACTION.CONFIRM_SWAP_ITEMS);
      expect(fake.codes()).toContain(ACTION.CALL_TAG_SCHEDULED_SWAP);
    });
  });

  test("the payment window lapses: declined after 1 day, the side that paid refunded in full", async () => {
    await scenario(5109, async (h, fake) => {
      await checkout(h);
      await choose(h);
      await approve(h, PROVIDER);
      await approve(h, RECEIVER);
      await pay(h, PROVIDER);
      await shared.env.sleep(2 * DAY);
      expect(await h.result()).toEqual({ statename: "declined" });
      const paid = swapSettlement(
        { provider: P_GOODS, receiver: R_GOODS, callItEven: false },
        "both_shipped",
      ).provider.paidCents;
      expect(fake.money().slice(-2)).toEqual([
        ["releaseSwapAuthorization", "swap-release:1", undefined],
        ["refundSwapSide", "swap-refund:provider:1", paid],
      ]);
      // The receiver did not pay in time: the reason is the receiver's.
      expect(fake.records().at(-1)!.reasons).toEqual({
        receiver_system_reason: SYSTEM_REASON.NOT_ANSWERED_IN_TIME,
      });
      await shared.keepHistory(h, "payment-lapses");
    });
  });
});

describe("swap shipping", () => {
  test("one side never ships: rebooked (911), then non-shipment (116): its goods' value charged and paid out, the other's fee and shipping refunded", async () => {
    await scenario(5110, async (h, fake) => {
      await toShipping(h);
      await h.signal(swapCarrierEventSignal, {
        eventId: "p1",
        status: "picked_up",
        trackingNumber: "TRK-5110-provider",
      });
      // The pickup window is in business days (weekends and holidays move it): sleep past the deadline the
      // swap shows, once the scan is in (a query does not make this server skip time).
      const scanned = await waitFor(
        h,
        (v) => v.statename === "ship_swap" && !v.busy && v.provider.shipment?.scanned === true,
        "the provider's scan",
      );
      await sleepUntil(shared.env, scanned.deadlines.pickupBy, MINUTE);
      const retry = await waitFor(h, (v) => v.statename === "ship_swap_try2" && !v.busy, "try2");
      await sleepUntil(shared.env, retry.deadlines.pickupBy, MINUTE);
      const v = await waitFor(
        h,
        (x) => x.statename === "in_route" && !x.busy,
        "in route with one parcel",
      );
      expect(v.receiver.shipment?.failed).toBe(true);
      const s = swapSettlement(
        { provider: P_GOODS, receiver: R_GOODS, callItEven: false },
        "receiver_did_not_ship",
      );
      const after = fake
        .money()
        .filter((x) =>
          ["chargeSwapPenalty", "payOutSwapSide", "refundSwapSide"].includes(x[0] as string),
        );
      expect(after).toEqual([
        ["chargeSwapPenalty", "swap-penalty:receiver:1", s.receiver.penaltyCents],
        ["payOutSwapSide", "swap-payout:provider:1", 16000],
        ["refundSwapSide", "swap-refund:provider:1", s.provider.refundCents],
        // The $60 cash still goes to the side it was meant for (ADR 0019).
        ["payOutSwapSide", "swap-payout:receiver:1", 6000],
      ]);
      expect(fake.codes()).toContain(ACTION.RECEIVER_SWAP_NON_SHIPMENT);
      expect(fake.codes()).toContain(ACTION.CALL_TAG_RESCHEDULED_SWAP);
      await shared.keepHistory(h, "one-side-never-ships");
    });
  });

  test("both ship and both rate: the cash difference paid out at the second scan; completed when the windows close", async () => {
    await scenario(5111, async (h, fake) => {
      await toShipping(h);
      await h.signal(swapCarrierEventSignal, {
        eventId: "a",
        status: "picked_up",
        trackingNumber: "TRK-5111-provider",
      });
      await h.signal(swapCarrierEventSignal, {
        eventId: "b",
        status: "picked_up",
        trackingNumber: "TRK-5111-receiver",
      });
      await waitFor(h, (v) => v.statename === "in_route" && !v.busy, "in route");
      expect(fake.money().at(-1)).toEqual(["payOutSwapSide", "swap-payout:receiver:1", 6000]);
      await h.signal(swapCarrierEventSignal, {
        eventId: "c",
        status: "delivered",
        trackingNumber: "TRK-5111-provider",
      });
      await h.signal(swapCarrierEventSignal, {
        eventId: "d",
        status: "delivered",
        trackingNumber: "TRK-5111-receiver",
      });
      await waitFor(h, (v) => v.statename === "delivered" && !v.busy, "delivered");
      const stars = { condition: 5, packaging: 5, timeliness: 4, overall: 5 };
      await h.executeUpdate(rateSwapUpdate, { args: [{ ...by(RECEIVER), stars }] });
      await h.executeUpdate(rateSwapUpdate, { args: [{ ...by(PROVIDER), stars }] });
      await refused(
        h.executeUpdate(rateSwapUpdate, { args: [{ ...by(PROVIDER), stars }] }),
        "already_rated",
      );
      await shared.env.sleep(3 * DAY);
      expect(await h.result()).toEqual({ statename: "completed" });
      expect(
        fake.codes().filter((c) => c === ACTION.RECEIVER_RATED || c === ACTION.PROVIDER_RATED),
      ).toEqual([ACTION.RECEIVER_RATED, ACTION.PROVIDER_RATED]);
      expect(fake.codes().at(-1)).toBe(ACTION.ORDER_COMPLETED);
      await shared.keepHistory(h, "both-ship-both-rate");
    });
  });
});

describe("swap: staff's Schedule pickup", () => {
  test("books a new call tag for the side whose parcel staff saw (912), the pickup window starting over; a repeat books nothing; a scanned parcel is refused", async () => {
    await scenario(5120, async (h, fake) => {
      const v1 = await toShipping(h);
      const replacesCallTag = v1.receiver.shipment?.callTag as string;
      const book = (tag: string) =>
        h.executeUpdate(staffBookSwapPickupUpdate, { args: [{ replacesCallTag: tag }] });
      await sleepUntil(shared.env, v1.deadlines.pickupBy, -60 * MINUTE);
      expect(await book(replacesCallTag)).toMatchObject({ statename: "ship_swap" });
      const v2 = await h.query(swapViewQuery);
      expect(v2.receiver.shipment).toMatchObject({
        trackingNumber: "TRK-5120-receiver",
        callTag: "CT-5120-receiver-2",
        attempt: 2,
      });
      expect(v2.provider.shipment).toEqual(v1.provider.shipment);
      expect(Date.parse(v2.deadlines.pickupBy as string)).toBeGreaterThan(
        Date.parse(v1.deadlines.pickupBy as string),
      );
      // The same click again (the call tag it replaces is gone): nothing booked, nothing recorded.
      expect(await book(replacesCallTag)).toMatchObject({ statename: "ship_swap" });
      await h.signal(swapCarrierEventSignal, {
        eventId: "p1",
        status: "picked_up",
        trackingNumber: "TRK-5120-provider",
      });
      await waitFor(h, (v) => v.provider.shipment?.scanned === true && !v.busy, "provider scan");
      await refused(book(v1.provider.shipment?.callTag as string), "wrong_state");
      // The old window has passed and the new one has not: still the first booking's state.
      await sleepUntil(shared.env, v1.deadlines.pickupBy, 60 * MINUTE);
      expect((await h.query(swapViewQuery)).statename).toBe("ship_swap");
      const bookings = fake.calls.filter((c) => c.name === "bookSwapPickup");
      expect(bookings.map((c) => [c.input.idempotencyKey, c.input.attempt])).toEqual([
        ["swap-order:5120:swap-book-pickup:provider:1", 1],
        ["swap-order:5120:swap-book-pickup:receiver:1", 1],
        ["swap-order:5120:swap-book-pickup:receiver:2", 2],
      ]);
      expect(fake.codes().slice(-3)).toEqual([
        ACTION.CALL_TAG_SCHEDULED_SWAP,
        ACTION.CALL_TAG_BOOKED_BY_STAFF_SWAP,
        ACTION.SHIPMENT_PICKED_UP,
      ]);
    });
  });
});

describe("swap: both sides fail to ship (docs/product/money.md, ADR 0037)", () => {
  // Provider paid $91.75 ($60 cash + $8 fee + $23.75 shipping), receiver $31.75 ($8 fee + $23.75 shipping).
  const failMoney = (fake: ReturnType<typeof fakeSwapActivities>) =>
    fake
      .money()
      .filter((x) =>
        ["chargeSwapPenalty", "payOutSwapSide", "refundSwapSide"].includes(x[0] as string),
      );

  test("one side cancels its shipment, then the other never ships: each failure settled in turn, the cash refunded to its payer, cancelled", async () => {
    await scenario(5113, async (h, fake) => {
      const shipping = await toShipping(h);
      await h.executeUpdate(cancelSwapShipmentUpdate, { args: [{ ...by(RECEIVER), reason: 52 }] });
      // The provider's pickup still stands after the receiver's failure.
      const first = await waitFor(
        h,
        (v) => v.statename === "ship_swap" && !v.busy && v.receiver.shipment?.failed === true,
        "receiver failed",
      );
      expect(first.provider.shipment?.failed).toBeFalsy();
      expect(failMoney(fake)).toEqual([
        ["chargeSwapPenalty", "swap-penalty:receiver:1", 16000],
        ["payOutSwapSide", "swap-payout:provider:1", 16000],
        ["refundSwapSide", "swap-refund:provider:1", 3175],
      ]);
      await sleepUntil(shared.env, shipping.deadlines.pickupBy, MINUTE);
      const retry = await waitFor(h, (v) => v.statename === "ship_swap_try2" && !v.busy, "try2");
      await sleepUntil(shared.env, retry.deadlines.pickupBy, MINUTE);
      expect(await h.result()).toEqual({ statename: "cancelled" });
      expect(failMoney(fake).slice(3)).toEqual([
        ["chargeSwapPenalty", "swap-penalty:provider:1", 10000],
        ["payOutSwapSide", "swap-payout:receiver:1", 10000],
        ["refundSwapSide", "swap-refund:receiver:1", 3175],
        // The $60 cash was never paid out (no parcel scanned): back to the provider, under its own key.
        ["refundSwapSide", "swap-refund:provider:2", 6000],
      ]);
      const codes = fake.codes();
      expect(codes.slice(codes.indexOf(ACTION.RECEIVER_SWAP_NON_SHIPMENT))).toEqual([
        ACTION.RECEIVER_SWAP_NON_SHIPMENT,
        ACTION.PENALTY_CHARGED,
        ACTION.PAYOUT_RELEASED,
        ACTION.REFUND_ISSUED,
        ACTION.CALL_TAG_RESCHEDULED_SWAP,
        ACTION.PROVIDER_SWAP_NON_SHIPMENT,
        ACTION.PENALTY_CHARGED,
        ACTION.PAYOUT_RELEASED,
        ACTION.REFUND_ISSUED,
        ACTION.REFUND_ISSUED,
      ]);
      expect(fake.states().at(-1)).toBe("cancelled");
      const s = swapSettlement(
        { provider: P_GOODS, receiver: R_GOODS, callItEven: false },
        "neither_shipped",
      );
      expect([s.provider.netCents, s.receiver.netCents, s.keptCents]).toEqual([6000, -6000, 0]);
      await shared.keepHistory(h, "one-fails-then-the-other");
    });
  });

  test("both miss the second pickup window on the same timer: the rule applied to each (provider first), cancelled", async () => {
    await scenario(5114, async (h, fake) => {
      const shipping = await toShipping(h);
      await sleepUntil(shared.env, shipping.deadlines.pickupBy, MINUTE);
      const retry = await waitFor(h, (v) => v.statename === "ship_swap_try2" && !v.busy, "try2");
      await sleepUntil(shared.env, retry.deadlines.pickupBy, MINUTE);
      expect(await h.result()).toEqual({ statename: "cancelled" });
      expect(failMoney(fake)).toEqual([
        ["chargeSwapPenalty", "swap-penalty:provider:1", 10000],
        ["payOutSwapSide", "swap-payout:receiver:1", 10000],
        ["refundSwapSide", "swap-refund:receiver:1", 3175],
        ["chargeSwapPenalty", "swap-penalty:receiver:1", 16000],
        ["payOutSwapSide", "swap-payout:provider:1", 16000],
        ["refundSwapSide", "swap-refund:provider:1", 3175],
        ["refundSwapSide", "swap-refund:provider:2", 6000],
      ]);
      const codes = fake.codes();
      expect(codes.slice(codes.indexOf(ACTION.PROVIDER_SWAP_NON_SHIPMENT))).toEqual([
        ACTION.PROVIDER_SWAP_NON_SHIPMENT,
        ACTION.RECEIVER_SWAP_NON_SHIPMENT,
        ACTION.PENALTY_CHARGED,
        ACTION.PAYOUT_RELEASED,
        ACTION.REFUND_ISSUED,
        ACTION.PENALTY_CHARGED,
        ACTION.PAYOUT_RELEASED,
        ACTION.REFUND_ISSUED,
        ACTION.REFUND_ISSUED,
      ]);
      expect(fake.states().at(-1)).toBe("cancelled");
      await shared.keepHistory(h, "both-fail-same-timer");
    });
  });
});

describe("swap receipt", () => {
  test("each side confirms the package it received once it is delivered (222 with its role); before that, or twice, it is refused", async () => {
    await scenario(5112, async (h, fake) => {
      await toShipping(h);
      const confirm = (who: number) =>
        h.executeUpdate(confirmSwapReceivedUpdate, { args: [by(who)] });
      await refused(confirm(RECEIVER), "wrong_state");
      await h.signal(swapCarrierEventSignal, {
        eventId: "a",
        status: "delivered",
        trackingNumber: "TRK-5112-provider",
      });
      await waitFor(
        h,
        (v) => v.provider.shipment?.delivered === true && !v.busy,
        "the provider's parcel delivered",
      );
      // The provider's parcel reached the receiver; the receiver's has not reached the provider.
      await refused(confirm(PROVIDER), "wrong_state");
      await confirm(RECEIVER);
      await refused(confirm(RECEIVER), "already_received");
      const last = fake.records().at(-1)!;
      expect(last.actions.map((a) => [a.code, a.role])).toEqual([
        [ACTION.RECEIVER_CONFIRM_ORDER, "receiver"],
      ]);
    });
  });
});

describe("a swap over its placer's limit (docs/product/teams.md, 'Limits and approval')", () => {
  const PLACER = 911;
  const APPROVER = 912;
  const overLimit = (h: Handle) =>
    h.executeUpdate(swapCheckoutUpdate, {
      args: [
        {
          ...by(RECEIVER),
          paymentMethod: CARD,
          storeApproval: { reason: "month_limit", limitCents: 5_000, placedByUserId: PLACER },
        },
      ],
    });
  const decide = (h: Handle, userId: number) =>
    h.executeUpdate(storeApproveSwapUpdate, {
      args: [{ ...by(RECEIVER), actorUserId: userId }],
    });

  test("nobody of the store answers: cancelled after 2 business days (308), the pre-authorisation released", async () => {
    await scenario(5901, async (h, fake) => {
      const r = await overLimit(h);
      expect(r).toMatchObject({
        statename: "store_approve_purchase",
        message: storeApprovalMessage({ reason: "month_limit", limitCents: 5_000 }, "swap"),
      });
      // The provider cannot choose yet; the placer cannot approve its own swap.
      await refused(choose(h), "wrong_state");
      await refused(decide(h, PLACER), "own_order");
      const v = await waitFor(
        h,
        (x) => x.statename === "store_approve_purchase" && !x.busy,
        "store",
      );
      const by2 = Date.parse(v.deadlines.storeApprovalBy as string);
      await sleepUntil(shared.env, new Date(by2).toISOString(), -HOUR);
      expect((await h.query(swapViewQuery)).statename).toBe("store_approve_purchase");
      await sleepUntil(shared.env, new Date(by2).toISOString(), MINUTE);
      expect(await h.result()).toEqual({ statename: "cancelled" });
      expect(fake.money()).toEqual([
        ["authorizeSwap", "swap-authorize:1", 500 + 2375],
        ["releaseSwapAuthorization", "swap-release:1", undefined],
      ]);
      expect(fake.codes()).toEqual([
        ACTION.STORE_APPROVAL_REQUESTED,
        ACTION.STORE_APPROVAL_EXPIRED,
        ACTION.AUTHORIZATION_RELEASED,
      ]);
      await shared.keepHistory(h, "store-approval-runs-out");
    });
  });

  test("an approver approves: the provider's turn begins, the approver kept", async () => {
    await scenario(5902, async (h, fake) => {
      await overLimit(h);
      const r = await decide(h, APPROVER);
      expect(r).toMatchObject({ statename: "provider_choose_items", message: TEAM_MSG.approved });
      expect((await choose(h)).statename).toBe("provider_approve");
      expect(fake.records().at(-1)!.approvedByUserId).toBe(APPROVER);
      expect(fake.codes().slice(0, 3)).toEqual([
        ACTION.STORE_APPROVAL_REQUESTED,
        ACTION.STORE_APPROVED,
        ACTION.SWAP_REQUESTED,
      ]);
      await shared.keepHistory(h, "store-approves");
    });
  });
});

describe("swap replay", () => {
  shared.replayTests("the timer paths and a swap modified both ways", [
    "swap-both-fail-same-timer.json",
    "swap-both-ship-both-rate.json",
    "swap-one-fails-then-the-other.json",
    "swap-one-side-never-ships.json",
    "swap-payment-lapses.json",
    "swap-provider-never-chooses.json",
    "swap-raised-and-added.json",
    // Over the placer's limit: nobody of the store answers; an approver approves (docs/product/teams.md).
    "swap-store-approval-runs-out.json",
    "swap-store-approves.json",
  ]);
});

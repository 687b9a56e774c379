/**
 * offerWorkflow (workflows/offer; docs/product/offers.md; ADR 0056) on the time-skipping server with in-memory
 * activities. Every timer path: the seller's turn expires, the buyer's turn expires (after a counter), and the
 * answers before a deadline (accept, counter then accept, decline, withdraw, units taken); the holds and their
 * idempotency keys (a new price is a new attempt, its release the same attempt); refused answers leave the
 * offer as it was. Timers are driven with env.sleep (waiting on an update does not advance time on this
 * server). An accepted offer's purchase (the buy workflow, kind from_offer) is started on a task queue no worker
 * polls, its input read back and the run terminated; the scenarios that sleep come before those. Each path's
 * history is recorded (tests/histories/offer-*.json) and replays.
 */
import { WorkflowUpdateFailedError, type WorkflowHandle } from "@temporalio/client";
import { defaultPayloadConverter, type Payload } from "@temporalio/common";
import { ApplicationFailure } from "@temporalio/activity";
import { describe, expect, test } from "vitest";
import { HOUR_MS, toEpochMs, toISO } from "../../domain/business-days";
import { newOffer, offerHoldCents, OFFER_MESSAGES, type OfferState } from "../../domain/offers";
import { BUY_WORKFLOW_TYPE, buyWorkflowId, type BuyOrderInput } from "../../workflows/buy/contract";
import type { OfferActivities } from "../../workflows/offer/activities";
import {
  acceptOfferUpdate,
  counterOfferUpdate,
  declineOfferUpdate,
  OFFER_CARD_DECLINED,
  OFFER_WORKFLOW_TYPE,
  offerStateQuery,
  offerUnitsTakenSignal,
  offerWorkflowId,
  withdrawOfferUpdate,
} from "../../workflows/offer/contract";
import type { offerWorkflow } from "../../workflows/offer/workflow";
import {
  closedStatus,
  sleepUntil as sleepUntilInstant,
  testDataConverter,
  viewWaiter,
} from "../setup/temporal";
import { recordingActivities, type ActivityCall } from "./fakes/recording";
import { useSharedFakeWorker } from "./fakes/shared-worker";

type Name = keyof OfferActivities;
type Handle = WorkflowHandle<typeof offerWorkflow>;

const BUYER = 21;
const SELLER = 11;
const SIZES = { M: 3 };
const PURCHASES = "offer-purchases-not-polled";

function fakeActivities(overrides: Partial<Record<Name, (input: never) => unknown>> = {}) {
  const calls: ActivityCall<Name>[] = [];
  let holds = 0;
  const activities = recordingActivities<Name>(
    {
      holdOfferCard: async () => ({ reference: `pi_${++holds}` }),
      releaseOfferHold: async () => undefined,
      saveOffer: async () => undefined,
      createOfferPurchase: async (i: { offerId: number; unitPriceCents: number }) => ({
        orderId: 900 + i.offerId,
        externalId: `T${900 + i.offerId}`,
        workflowId: buyWorkflowId(900 + i.offerId),
        providerId: SELLER,
        receiverId: BUYER,
        line: { listingId: 5, variationId: 50, sizes: SIZES, unitPriceCents: i.unitPriceCents },
      }),
      ...overrides,
    },
    calls,
  );
  const of = (name: Name) => calls.filter((c) => c.name === name).map((c) => c.input);
  /** The e-mails each step wrote with its state: [to, what]. */
  const notices = () =>
    of("saveOffer").flatMap((s) =>
      ((s.notices ?? []) as { to: string; what: string }[]).map((n) => [n.to, n.what]),
    );
  return { activities, calls, of, notices };
}

const shared = useSharedFakeWorker("offer", fakeActivities);
let nextOffer = 1;

const waitFor = viewWaiter(offerStateQuery, (v) => `offer ${v?.status} (${v?.turn})`, 200);
const settled = (h: Handle, pred: (v: OfferState) => boolean, what: string) =>
  waitFor(h, (v) => pred(v) && !v.busy, what);

/**
 * Starts an offer of $30.00 a unit for 3 M on a $40.00 listing, made now (the server's clock), and waits until
 * it is open (`open: false`: does not wait).
 */
async function start(
  opts: { open?: boolean } = {},
): Promise<{ handle: Handle; offerId: number; state: OfferState }> {
  const offerId = nextOffer++;
  const at = toISO(await shared.env.currentTimeMs());
  const state = newOffer({ listedUnitCents: 4000, offeredUnitCents: 3000, sizes: SIZES, at });
  const handle = await shared.env.client.workflow.start<typeof offerWorkflow>(OFFER_WORKFLOW_TYPE, {
    taskQueue: shared.taskQueue,
    workflowId: offerWorkflowId(offerId),
    workflowIdReusePolicy: "REJECT_DUPLICATE",
    args: [
      {
        offerId,
        listingId: 5,
        variationId: 50,
        buyerId: BUYER,
        sellerId: SELLER,
        state,
        holdCents: offerHoldCents(SIZES, 3000),
        // No worker polls it: the purchase's run is started, and looked at, not run here.
        purchaseTaskQueue: PURCHASES,
      },
    ],
  });
  if (opts.open !== false) await settled(handle, (v) => v.status === "open", "the offer open");
  return { handle, offerId, state };
}

const closed = (handle: Handle) => closedStatus(handle);
/** Sleeps the server until `ms` before (negative: after) the ISO `deadline`. */
const sleepUntil = (deadline: string, msBefore: number) =>
  sleepUntilInstant(shared.env, deadline, -msBefore);

/** The input the purchase's buy workflow was started with (kind from_offer), from its first event. */
async function purchaseStarted(orderId: number): Promise<BuyOrderInput> {
  const h = shared.env.client.workflow.getHandle(buyWorkflowId(orderId));
  expect(await h.describe()).toMatchObject({ type: BUY_WORKFLOW_TYPE, taskQueue: PURCHASES });
  const history = await h.fetchHistory();
  let payloads = (history.events?.[0].workflowExecutionStartedEventAttributes?.input?.payloads ??
    []) as Payload[];
  for (const codec of [...(testDataConverter.payloadCodecs ?? [])].reverse())
    payloads = await codec.decode(payloads);
  // Its first task waits on a queue no worker polls, which holds the server's time skipping: end it.
  await h.terminate("looked at only");
  return defaultPayloadConverter.fromPayload<BuyOrderInput>(payloads[0]);
}

async function refused(p: Promise<unknown>, message: string) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
  expect((err as WorkflowUpdateFailedError).cause?.message).toBe(message);
}

const keys = (calls: ActivityCall<Name>[], names: Name[]) =>
  calls
    .filter((c) => names.includes(c.name))
    .map((c) => [c.name, String(c.input.idempotencyKey).split(":").slice(2).join(":")]);

describe("offerWorkflow", () => {
  test("the seller never answers: the offer expires on its side after 2 business days, the hold released", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const { handle, state } = await start();
      expect(m.of("holdOfferCard")[0]).toMatchObject({
        amountCents: offerHoldCents(SIZES, 3000),
        idempotencyKey: `${handle.workflowId}:hold:1`,
      });
      await sleepUntil(state.deadline, HOUR_MS);
      expect((await handle.query(offerStateQuery)).status).toBe("open");
      await sleepUntil(state.deadline, -HOUR_MS);
      const end = await settled(handle, (v) => v.status === "expired", "expired");
      expect(end.endReason).toBe("seller_expired");
      expect(await closed(handle)).toBe("COMPLETED");
      expect(keys(m.calls, ["holdOfferCard", "releaseOfferHold"])).toEqual([
        ["holdOfferCard", "hold:1"],
        ["releaseOfferHold", "release:1"],
      ]);
      expect(m.notices()).toEqual([
        ["seller", "offer"],
        ["buyer", "expired"],
        ["seller", "expired"],
      ]);
      expect(m.of("createOfferPurchase")).toEqual([]);
      await shared.keepHistory(handle, "seller-expires");
    });
  });

  test("the seller counters; the buyer never answers: it expires on the buyer's side, from the counter", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const { handle, state } = await start();
      await shared.env.sleep(HOUR_MS);
      const countered = await handle.executeUpdate(counterOfferUpdate, {
        args: [{ actorRetailerId: SELLER, unitPriceCents: 3600 }],
      });
      expect(countered).toMatchObject({ turn: "buyer", tableUnitCents: 3600 });
      expect(toEpochMs(countered.deadline)).toBeGreaterThan(toEpochMs(state.deadline));
      await sleepUntil(state.deadline, -HOUR_MS);
      expect((await handle.query(offerStateQuery)).status).toBe("open");
      await sleepUntil(countered.deadline, -HOUR_MS);
      const end = await settled(handle, (v) => v.status === "expired", "expired");
      expect(end.endReason).toBe("buyer_expired");
      expect(keys(m.calls, ["holdOfferCard", "releaseOfferHold"])).toEqual([
        ["holdOfferCard", "hold:1"],
        ["releaseOfferHold", "release:1"],
      ]);
      await shared.keepHistory(handle, "buyer-expires");
    });
  });

  test("the seller accepts: a purchase at the offered price on the same hold, nothing released", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const { handle, offerId } = await start();
      await refused(
        handle.executeUpdate(acceptOfferUpdate, { args: [{ actorRetailerId: BUYER }] }),
        OFFER_MESSAGES.notYourTurn,
      );
      await refused(
        handle.executeUpdate(acceptOfferUpdate, { args: [{ actorRetailerId: 99 }] }),
        "This offer is not yours.",
      );
      const accepted = await handle.executeUpdate(acceptOfferUpdate, {
        args: [{ actorRetailerId: SELLER }],
      });
      expect(accepted).toMatchObject({ status: "accepted", agreedUnitCents: 3000 });
      expect(await closed(handle)).toBe("COMPLETED");
      expect(m.of("createOfferPurchase")).toEqual([
        {
          offerId,
          unitPriceCents: 3000,
          hold: {
            reference: "pi_1",
            amountCents: offerHoldCents(SIZES, 3000),
            idempotencyKey: `${handle.workflowId}:hold:1`,
          },
        },
      ]);
      expect(await purchaseStarted(900 + offerId)).toMatchObject({
        kind: "from_offer",
        lines: [{ listingId: 5, sizes: SIZES, unitPriceCents: 3000 }],
        offerHold: { offerId, paymentIntentId: "pi_1", amountCents: offerHoldCents(SIZES, 3000) },
      });
      expect(m.of("releaseOfferHold")).toEqual([]);
      expect(m.of("saveOffer").at(-1)).toMatchObject({ orderId: 900 + offerId });
      await shared.keepHistory(handle, "accepted");
    });
  });

  test("the seller counters, the buyer accepts: the card held again at the counter, the old hold released", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const { handle, offerId } = await start();
      await refused(
        handle.executeUpdate(counterOfferUpdate, {
          args: [{ actorRetailerId: SELLER, unitPriceCents: 4000 }],
        }),
        OFFER_MESSAGES.counterOutOfRange(3000, 4000),
      );
      await handle.executeUpdate(counterOfferUpdate, {
        args: [{ actorRetailerId: SELLER, unitPriceCents: 3600 }],
      });
      const accepted = await handle.executeUpdate(acceptOfferUpdate, {
        args: [{ actorRetailerId: BUYER }],
      });
      expect(accepted).toMatchObject({ status: "accepted", agreedUnitCents: 3600 });
      expect(await closed(handle)).toBe("COMPLETED");
      expect(keys(m.calls, ["holdOfferCard", "releaseOfferHold"])).toEqual([
        ["holdOfferCard", "hold:1"],
        ["holdOfferCard", "hold:2"],
        ["releaseOfferHold", "release:1"],
      ]);
      expect(m.of("holdOfferCard")[1].amountCents).toBe(offerHoldCents(SIZES, 3600));
      expect(m.of("createOfferPurchase")[0]).toMatchObject({
        unitPriceCents: 3600,
        hold: { reference: "pi_2", idempotencyKey: `${handle.workflowId}:hold:2` },
      });
      expect(await purchaseStarted(900 + offerId)).toMatchObject({
        kind: "from_offer",
        lines: [{ unitPriceCents: 3600 }],
        offerHold: { paymentIntentId: "pi_2", amountCents: offerHoldCents(SIZES, 3600) },
      });
      await shared.keepHistory(handle, "counter-accepted");
    });
  });

  test("the seller declines: the hold released at once, the buyer told", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const { handle } = await start();
      const declined = await handle.executeUpdate(declineOfferUpdate, {
        args: [{ actorRetailerId: SELLER }],
      });
      expect(declined).toMatchObject({ status: "declined", endReason: "seller_declined" });
      expect(await closed(handle)).toBe("COMPLETED");
      expect(keys(m.calls, ["releaseOfferHold"])).toEqual([["releaseOfferHold", "release:1"]]);
      expect(m.notices().at(-1)).toEqual(["buyer", "declined"]);
      await shared.keepHistory(handle, "declined");
    });
  });

  test("withdrawn by the buyer; declined when another order takes the units", async () => {
    const m = fakeActivities();
    await shared.withFake(m, async () => {
      const a = await start();
      await refused(
        a.handle.executeUpdate(withdrawOfferUpdate, { args: [{ actorRetailerId: SELLER }] }),
        "Only the buyer may withdraw.",
      );
      await a.handle.executeUpdate(withdrawOfferUpdate, { args: [{ actorRetailerId: BUYER }] });
      expect(await closed(a.handle)).toBe("COMPLETED");
      const b = await start();
      await b.handle.signal(offerUnitsTakenSignal);
      const end = await settled(b.handle, (v) => v.status !== "open", "declined");
      expect(end).toMatchObject({ status: "declined", endReason: "units_taken" });
      expect(m.of("releaseOfferHold")).toHaveLength(2);
    });
  });

  test("accepted on units another order took meanwhile: declined instead, the hold released", async () => {
    const m = fakeActivities({ createOfferPurchase: async () => null });
    await shared.withFake(m, async () => {
      const { handle } = await start();
      const answer = await handle.executeUpdate(acceptOfferUpdate, {
        args: [{ actorRetailerId: SELLER }],
      });
      expect(answer).toMatchObject({ status: "declined", endReason: "units_taken" });
      expect(await closed(handle)).toBe("COMPLETED");
      expect(keys(m.calls, ["releaseOfferHold"])).toEqual([["releaseOfferHold", "release:1"]]);
      expect(m.notices().at(-1)).toEqual(["buyer", "declined"]);
    });
  });

  test("a card declined for the first hold: the offer closes before the seller hears of it", async () => {
    const m = fakeActivities({
      holdOfferCard: async () => {
        throw ApplicationFailure.nonRetryable("Your card was declined.", OFFER_CARD_DECLINED);
      },
    });
    await shared.withFake(m, async () => {
      const { handle, offerId } = await start({ open: false });
      expect(await closed(handle)).toBe("COMPLETED");
      expect(m.of("saveOffer")).toEqual([
        {
          offerId,
          state: expect.objectContaining({ status: "declined", endReason: "card_declined" }),
          holdCents: 0,
        },
      ]);
      expect(m.notices()).toEqual([]);
    });
  });

  shared.replayTests("every timer path and answer", [
    "offer-accepted.json",
    "offer-buyer-expires.json",
    "offer-counter-accepted.json",
    "offer-declined.json",
    "offer-seller-expires.json",
  ]);
});

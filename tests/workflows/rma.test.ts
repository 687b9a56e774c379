/**
 * The RMA workflow (workflows/rma/) on the time-skipping test server, with in-memory activities that record
 * every call: staff approve some lines → the return ships in time → delivered → refund and charge; the return
 * never ships → cancelled, nothing paid; every line denied → declined; only missing units → paid at approval
 * without a return; staff silent for 5 business days → escalated; the perpetrator's card declined → queued,
 * then paid after a new card; an RMA on a swap side (the victim paid to its payout account). Payment calls are
 * asserted with their idempotency keys; the recorded histories replay (tests/histories/rma-*.json;
 * RECORD_HISTORIES=1 records them again).
 */
import { WorkflowUpdateFailedError, type WorkflowHandle } from "@temporalio/client";
import { moneyCalls, recordingActivities, type ActivityCall } from "./fakes/recording";
import { useSharedFakeWorker } from "./fakes/shared-worker";
import type { RmaActivities, RmaStateRecord } from "../../workflows/rma/activities";
import { ACTION } from "../../domain/action-codes";
import type { RmaOrderInput } from "../../domain/rma-money";
import {
  cardOnFileSignal,
  decideRmaUpdate,
  RMA_ERRORS,
  RMA_WORKFLOW_TYPE,
  rmaCarrierEventSignal,
  rmaViewQuery,
  rmaWorkflowId,
  staffBookReturnPickupUpdate,
  type RmaInput,
  type RmaView,
} from "../../workflows/rma/contract";
import type { rmaWorkflow } from "../../workflows/rma/workflow";
import { RETURN_DELIVERED_ACTIONS, WORKED_EXAMPLE_SALE as SALE } from "../factories/worked-example";
import { viewWaiter, sleepUntil } from "../setup/temporal";

const DAY = 24 * 3600 * 1000;

/** In-memory RMA activities: every call recorded; the perpetrator's card declines while `declineCharges`. */
function fakeRmaActivities(opts: { declineCharges?: boolean } = {}) {
  const calls: ActivityCall<keyof RmaActivities>[] = [];
  const records: RmaStateRecord[] = [];
  const state = { declineCharges: opts.declineCharges === true };
  const impl: RmaActivities = {
    async recordRmaState(input) {
      if (!records.some((r) => r.sequence === input.sequence)) records.push(input); // the read model keeps a sequence once
    },
    async bookReturnPickup(input) {
      return {
        trackingNumber: `TRK-RMA-${input.rmaId}`,
        callTag: `CT-RMA-${input.rmaId}-${input.attempt}`,
      };
    },
    async refundVictim() {
      return { status: "refunded" as const };
    },
    async payVictim() {
      return { status: "paid" as const };
    },
    async chargePerpetrator() {
      return { status: state.declineCharges ? ("queued" as const) : ("charged" as const) };
    },
  };
  return {
    activities: recordingActivities(impl, calls),
    state,
    records,
    money: () => moneyCalls(calls, ["refundVictim", "payVictim", "chargePerpetrator"]),
    codes: () => records.flatMap((r) => r.actions.map((a) => a.code)),
    notices: () => records.flatMap((r) => r.notices.map((n) => `${n.to}:${n.template}`)),
    calls,
  };
}

const shared = useSharedFakeWorker("rma", fakeRmaActivities);

const VICTIM = 31;
const PERPETRATOR = 42;

function rmaInput(rmaId: number, over: Partial<RmaInput> = {}): RmaInput {
  return {
    rmaId,
    externalId: `RMA-${rmaId}`,
    orderId: 900 + rmaId,
    kind: "sale",
    victimId: VICTIM,
    perpetratorId: PERPETRATOR,
    order: SALE,
    lines: [
      { lineId: 1, unitPriceCents: 4250, requestedQuantity: 1, reason: 0 },
      { lineId: 2, unitPriceCents: 4250, requestedQuantity: 1, reason: 1 },
    ],
    victimPaymentIntentId: "pi_victim",
    ...over,
  };
}

type Handle = WorkflowHandle<typeof rmaWorkflow>;

async function run<T>(
  fake: ReturnType<typeof fakeRmaActivities>,
  fn: () => Promise<T>,
): Promise<T> {
  return shared.withFake(fake, fn);
}

function start(input: RmaInput): Promise<Handle> {
  return shared.env.client.workflow.start<typeof rmaWorkflow>(RMA_WORKFLOW_TYPE, {
    taskQueue: shared.taskQueue,
    workflowId: rmaWorkflowId(input.rmaId),
    args: [input],
  });
}

/** Polls the view until `pred` holds (the workflow may still be processing a fired timer or a signal). */
const waitFor = viewWaiter(rmaViewQuery, (v) => `stage ${v?.stage}`, 200);

const decide = (
  handle: Handle,
  lines: { lineId: number; approvedQuantity: number }[],
  rmaFeeCents = 0,
) => handle.executeUpdate(decideRmaUpdate, { args: [{ staffUserId: 7, lines, rmaFeeCents }] });

async function carrier(handle: Handle, status: "picked_up" | "delivered", id: string) {
  await handle.signal(rmaCarrierEventSignal, { eventId: id, status });
}

describe("rma workflow", () => {
  test("staff approve one line with a fee → the return ships in time → delivered → refund $46.75 and charge $71.50", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(1));
      await waitFor(handle, (v) => v.actions.length === 1 && !v.busy, "requested");
      expect(fake.notices()).toEqual([
        "staff:rma_requested_staff",
        "perpetrator:rma_requested_perpetrator",
        "victim:rma_requested_victim",
      ]);
      const r = await decide(
        handle,
        [
          { lineId: 1, approvedQuantity: 1 },
          { lineId: 2, approvedQuantity: 0 },
        ],
        500,
      );
      expect(r).toMatchObject({
        stage: "shipping",
        settlement: { victimRefundCents: 4675, perpetratorChargeCents: 7150 },
      });
      const v = await waitFor(handle, (x) => x.returnShipment !== null && !x.busy, "return booked");
      expect(v.deadlines.shipBy).not.toBeNull();
      await carrier(handle, "picked_up", "e1");
      await carrier(handle, "delivered", "e2");
      await carrier(handle, "delivered", "e2"); // a duplicate webhook
      expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
      expect(fake.money()).toEqual([
        ["refundVictim", "rma-refund:1", 4675],
        ["chargePerpetrator", "rma-charge:1", 7150],
      ]);
      expect(fake.codes()).toEqual(RETURN_DELIVERED_ACTIONS);
      await shared.keepHistory(handle, "return-delivered");
    });
  });

  test("the return never ships: cancelled after 4 business days (306), nothing paid", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(2));
      await decide(handle, [
        { lineId: 1, approvedQuantity: 1 },
        { lineId: 2, approvedQuantity: 1 },
      ]);
      const v = await waitFor(handle, (x) => x.stage === "shipping" && !x.busy, "shipping");
      expect(Date.parse(v.deadlines.shipBy as string)).toBeGreaterThan(0);
      await shared.env.sleep(8 * DAY);
      expect(await handle.result()).toEqual({ stage: "rmacancelled", charged: false });
      expect(fake.money()).toEqual([]);
      expect(fake.codes().at(-1)).toBe(ACTION.RMA_RETURN_NOT_SHIPPED);
      expect(fake.notices()).toContain("victim:rma_cancelled");
      // The read model says nothing is paid or charged (the approval's figures are not left standing).
      expect(fake.records.at(-1)).toMatchObject({
        stage: "rmacancelled",
        victimRefundCents: 0,
        perpetratorChargeCents: 0,
      });
      await shared.keepHistory(handle, "return-not-shipped");
    });
  });

  test("staff's Schedule pickup books the return again once (931), its 4 business days starting over; a repeat books nothing; once scanned it is refused", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(10));
      await decide(handle, [
        { lineId: 1, approvedQuantity: 1 },
        { lineId: 2, approvedQuantity: 0 },
      ]);
      const v1 = await waitFor(handle, (x) => x.stage === "shipping" && !x.busy, "shipping");
      const replacesCallTag = v1.returnShipment?.callTag as string;
      expect(replacesCallTag).toBe("CT-RMA-10-1");
      // Two days on: the 4 business days the new pickup gets count from the booking.
      await shared.env.sleep(2 * DAY);
      const book = () =>
        handle.executeUpdate(staffBookReturnPickupUpdate, { args: [{ replacesCallTag }] });
      expect(await book()).toEqual({ stage: "shipping" });
      const v2 = await handle.query(rmaViewQuery);
      expect(v2.returnShipment).toEqual({ trackingNumber: "TRK-RMA-10", callTag: "CT-RMA-10-2" });
      expect(Date.parse(v2.deadlines.shipBy as string)).toBeGreaterThan(
        Date.parse(v1.deadlines.shipBy as string),
      );
      // The same click again (the call tag it replaces is gone): nothing booked, nothing recorded.
      expect(await book()).toEqual({ stage: "shipping" });
      await carrier(handle, "picked_up", "e1");
      await waitFor(handle, (x) => x.returnScanned && !x.busy, "return scanned");
      const err = await handle
        .executeUpdate(staffBookReturnPickupUpdate, { args: [{ replacesCallTag: "CT-RMA-10-2" }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((err as { cause?: { type?: string } }).cause?.type).toBe("wrong_state");
      await handle.terminate("test done");
    });
    expect(
      fake.calls
        .filter((c) => c.name === "bookReturnPickup")
        .map((c) => [c.input.idempotencyKey, c.input.attempt]),
    ).toEqual([
      ["rma:10:return-pickup:1", 1],
      ["rma:10:return-pickup:2", 2],
    ]);
    expect(fake.codes()).toEqual([
      ACTION.RMA_REQUESTED,
      ACTION.RMA_APPROVED,
      ACTION.CALL_TAG_SCHEDULED_RMA,
      ACTION.CALL_TAG_BOOKED_BY_STAFF_RMA,
      ACTION.SHIPMENT_PICKED_UP,
    ]);
  });

  test("every line denied: declined (242), nothing paid, no fee", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(3));
      const r = await decide(
        handle,
        [
          { lineId: 1, approvedQuantity: 0 },
          { lineId: 2, approvedQuantity: 0 },
        ],
        500,
      );
      expect(r).toMatchObject({
        stage: "rmadeclined",
        settlement: { victimRefundCents: 0, perpetratorChargeCents: 0, rmaFeeCents: 0 },
      });
      expect(await handle.result()).toEqual({ stage: "rmadeclined", charged: false });
      expect(fake.money()).toEqual([]);
    });
  });

  test("only missing units: paid at approval, no return shipment", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(
        rmaInput(4, {
          lines: [{ lineId: 1, unitPriceCents: 4250, requestedQuantity: 2, reason: 2 }],
        }),
      );
      const r = await decide(handle, [{ lineId: 1, approvedQuantity: 2 }]);
      expect(r.stage).toBe("rmacompleted");
      expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
      expect(fake.calls.map((c) => c.name)).not.toContain("bookReturnPickup");
      expect(fake.money()).toEqual([
        ["refundVictim", "rma-refund:1", 9350],
        ["chargePerpetrator", "rma-charge:1", 9350],
      ]);
      await shared.keepHistory(handle, "missing-units");
    });
  });

  test("staff silent for 5 business days: staff are told again (307) and the RMA still waits for them", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(5));
      const v0 = await waitFor(handle, (v) => v.actions.length === 1 && !v.busy, "requested");
      expect(Date.parse(v0.deadlines.staffBy as string)).toBeGreaterThan(0);
      // Business days (weekends and holidays move it): sleep a minute past the deadline the RMA shows.
      await sleepUntil(shared.env, v0.deadlines.staffBy, 60_000);
      const v = await waitFor(handle, (x) => x.escalated && !x.busy, "escalated");
      expect(v.stage).toBe("rmarequested");
      expect(fake.codes()).toEqual([ACTION.RMA_REQUESTED, ACTION.RMA_STAFF_ESCALATED]);
      expect(fake.notices()).toContain("staff:rma_staff_overdue");
      await decide(handle, [
        { lineId: 1, approvedQuantity: 0 },
        { lineId: 2, approvedQuantity: 0 },
      ]);
      expect((await handle.result()).stage).toBe("rmadeclined");
      await shared.keepHistory(handle, "staff-escalated");
    });
  });

  test("the perpetrator's card is declined: the charge is queued (821), then paid after a new card (attempt 2)", async () => {
    const fake = fakeRmaActivities({ declineCharges: true });
    await run(fake, async () => {
      const handle = await start(
        rmaInput(6, {
          lines: [{ lineId: 1, unitPriceCents: 4250, requestedQuantity: 1, reason: 2 }],
        }),
      );
      await decide(handle, [{ lineId: 1, approvedQuantity: 1 }]);
      await waitFor(handle, (v) => v.chargeQueued && !v.busy, "charge queued");
      expect(fake.notices()).toContain("perpetrator:rma_charge_queued");
      fake.state.declineCharges = false;
      await handle.signal(cardOnFileSignal, { retailerId: VICTIM }); // not the perpetrator: ignored
      await handle.signal(cardOnFileSignal, { retailerId: PERPETRATOR });
      expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
      expect(fake.money()).toEqual([
        ["refundVictim", "rma-refund:1", 4675],
        ["chargePerpetrator", "rma-charge:1", 4675],
        ["chargePerpetrator", "rma-charge:2", 4675],
      ]);
      expect(
        fake
          .codes()
          .filter((c) => c === ACTION.RMA_CHARGE_QUEUED || c === ACTION.RMA_PERPETRATOR_CHARGED),
      ).toEqual([ACTION.RMA_CHARGE_QUEUED, ACTION.RMA_PERPETRATOR_CHARGED]);
      await shared.keepHistory(handle, "charge-queued");
    });
  });

  test("an RMA on a swap side: the victim is paid to its payout account (value only)", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const swap: RmaOrderInput = {
        kind: "swap",
        unitsReceived: 2,
        goodsCents: 10000,
        feeCents: 0,
        shippingCents: 0,
        totalCents: 0,
      };
      const handle = await start(
        rmaInput(7, {
          kind: "swap",
          order: swap,
          victimPaymentIntentId: null,
          lines: [{ lineId: 1, unitPriceCents: 5000, requestedQuantity: 1, reason: 2 }],
        }),
      );
      await decide(handle, [{ lineId: 1, approvedQuantity: 1 }], 100);
      expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
      expect(fake.money()).toEqual([
        ["payVictim", "rma-payout:1", 5000],
        ["chargePerpetrator", "rma-charge:1", 5100],
      ]);
    });
  });

  test("staff's bad decisions are refused with a clear message and change nothing", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(rmaInput(8));
      const refused = async (p: Promise<unknown>, code: keyof typeof RMA_ERRORS) => {
        const err = await p.then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
        expect((err as { cause?: { type?: string; message?: string } }).cause).toMatchObject({
          type: code,
          message: RMA_ERRORS[code],
        });
      };
      await refused(
        decide(handle, [
          { lineId: 1, approvedQuantity: 2 },
          { lineId: 2, approvedQuantity: 0 },
        ]),
        "approved_too_many",
      );
      await refused(decide(handle, [{ lineId: 1, approvedQuantity: 1 }]), "lines_pending");
      await refused(
        decide(handle, [
          { lineId: 1, approvedQuantity: 1 },
          { lineId: 99, approvedQuantity: 0 },
        ]),
        "unknown_line",
      );
      await refused(
        decide(
          handle,
          [
            { lineId: 1, approvedQuantity: 1 },
            { lineId: 2, approvedQuantity: 0 },
          ],
          -5,
        ),
        "bad_fee",
      );
      expect((await handle.query(rmaViewQuery)).stage).toBe("rmarequested");
      await decide(handle, [
        { lineId: 1, approvedQuantity: 1 },
        { lineId: 2, approvedQuantity: 0 },
      ]);
      // Decided once: a second decision (another staff member's stale page) is refused.
      await refused(
        decide(handle, [
          { lineId: 1, approvedQuantity: 0 },
          { lineId: 2, approvedQuantity: 0 },
        ]),
        "wrong_state",
      );
      expect((await handle.query(rmaViewQuery)).stage).toBe("shipping");
      await handle.terminate("test done");
    });
  });

  test("a bad start is refused before anything happens (more units than received)", async () => {
    const fake = fakeRmaActivities();
    await run(fake, async () => {
      const handle = await start(
        rmaInput(9, {
          lines: [{ lineId: 1, unitPriceCents: 4250, requestedQuantity: 4, reason: 0 }],
        }),
      );
      await expect(handle.result()).rejects.toThrow();
      expect(fake.calls).toEqual([]);
    });
  });
});

describe("rma replay", () => {
  shared.replayTests("every timer and money path", [
    "rma-charge-queued.json",
    "rma-missing-units.json",
    "rma-return-delivered.json",
    "rma-return-not-shipped.json",
    "rma-staff-escalated.json",
  ]);
});

/**
 * RMA requests in the read model (db/queries/rmas.ts createRma): an RMA is an order of type 3 for the original
 * order. For a swap, either side may ask, for the goods it RECEIVED (the other side's lines); its own lines, a
 * line of another order, more units than received, an unknown reason or an undescribed "other" are refused;
 * one RMA per order and victim. A swap's RMA starts without a payment to refund (its victim is paid out).
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import {
  createRma,
  getRmaView,
  listAdminRmas,
  recordRmaState,
  RMA_REQUEST_ERRORS,
  rmaOfOrder,
  rmaWorkflowsAwaitingCharge,
} from "../../db/queries/rmas";
import { listOrderShipments, upsertShipment } from "../../db/queries/shipments";
import { createSwapOrder } from "../../db/queries/swap-orders";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { orderContributions, outboxEmails } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { rmaWorkflowId } from "../../workflows/rma/contract";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { createStaffUser } from "../factories";
import { createSellerWithListing } from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(2);

async function swapWithBothSides() {
  const p = await createSellerWithListing(db, { sizes: { M: 3 } });
  const r = await createSellerWithListing(db, { sizes: { L: 2 } });
  const providerId = p.seller.retailer.id;
  const receiverId = r.seller.retailer.id;
  const order = await createSwapOrder(db, {
    providerId,
    receiverId,
    brandId: p.brand.id,
    providerLines: [
      {
        listingId: p.listing.id,
        variationId: p.variation.id,
        sizes: { M: 2 },
        unitPriceCents: 5000,
      },
    ],
    workflowIdFor: swapWorkflowId,
  });
  await db.insert(orderContributions).values({
    orderId: order.orderId,
    side: "receiver",
    type: "goods",
    listingId: r.listing.id,
    variationId: r.variation.id,
    units: { L: 1 },
    quantity: 1,
    unitPriceCents: 8000,
    valueCents: 8000,
  });
  const lines = await db
    .select()
    .from(orderContributions)
    .where(eq(orderContributions.orderId, order.orderId));
  return {
    order,
    providerId,
    receiverId,
    providerLine: lines.find((l) => l.side === "provider")!,
    receiverLine: lines.find((l) => l.side === "receiver")!,
  };
}

const contact = { name: "A", email: "a@example.test", phone: "555-0101", packingSlipName: "A" };

/** A return request by `victimId` of `quantity` of swap `s`'s line `sourceId`, for `reason`. */
const askRma = (
  s: Awaited<ReturnType<typeof swapWithBothSides>>,
  victimId: number,
  sourceId: number,
  quantity = 1,
  reason = 1,
  reasonOther: string | null = null,
) =>
  createRma(db, {
    orderId: s.order.orderId,
    victimId,
    contact,
    lines: [{ sourceId, quantity, reason, reasonOther }],
    workflowIdFor: rmaWorkflowId,
  });

describe("createRma", () => {
  test("a swap: each side asks for the goods it received, once; its own goods, too many units, an unknown or undescribed reason are refused", async () => {
    const s = await swapWithBothSides();
    const ask = askRma.bind(null, s);

    await expect(ask(s.receiverId, s.receiverLine.id)).rejects.toThrow(RMA_REQUEST_ERRORS.bad_line);
    await expect(ask(s.receiverId, s.providerLine.id, 3)).rejects.toThrow(
      RMA_REQUEST_ERRORS.too_many,
    );
    await expect(ask(s.receiverId, s.providerLine.id, 1, 99)).rejects.toThrow(
      RMA_REQUEST_ERRORS.reason,
    );
    await expect(ask(s.receiverId, s.providerLine.id, 1, 4, "  ")).rejects.toThrow(
      RMA_REQUEST_ERRORS.other_text,
    );

    const byReceiver = await ask(
      s.receiverId,
      s.providerLine.id,
      2,
      4,
      "The box was crushed in shipping",
    );
    expect(byReceiver).toMatchObject({
      kind: "swap",
      victimId: s.receiverId,
      perpetratorId: s.providerId,
      victimPaymentIntentId: null,
      order: { kind: "swap", unitsReceived: 2, goodsCents: 10000 },
      lines: [
        {
          unitPriceCents: 5000,
          requestedQuantity: 2,
          reason: 4,
          otherText: "The box was crushed in shipping",
        },
      ],
    });
    await expect(ask(s.receiverId, s.providerLine.id)).rejects.toThrow(RMA_REQUEST_ERRORS.exists);
    // The other side of the same swap may ask for what it received.
    const byProvider = await ask(s.providerId, s.receiverLine.id, 1, 0);
    expect(byProvider).toMatchObject({
      victimId: s.providerId,
      perpetratorId: s.receiverId,
      order: { unitsReceived: 1, goodsCents: 8000 },
    });
    expect(await rmaOfOrder(db, s.order.orderId, s.receiverId)).toMatchObject({
      id: byReceiver.rmaId,
      stage: "rmarequested",
    });
    expect(byReceiver.externalId).toMatch(/^RMA-\d{6}$/);
  });

  test("an outsider, or an RMA of an RMA, is refused as not returnable", async () => {
    const s = await swapWithBothSides();
    const other = await createSellerWithListing(db);
    const req = {
      orderId: s.order.orderId,
      victimId: other.seller.retailer.id,
      contact,
      lines: [{ sourceId: s.providerLine.id, quantity: 1, reason: 0 }],
      workflowIdFor: rmaWorkflowId,
    };
    await expect(createRma(db, req)).rejects.toThrow(RMA_REQUEST_ERRORS.not_found);
    const rma = await createRma(db, { ...req, victimId: s.receiverId });
    await expect(
      createRma(db, { ...req, orderId: rma.rmaId, victimId: s.receiverId }),
    ).rejects.toThrow(RMA_REQUEST_ERRORS.not_found);
  });
});

describe("staff's RMA screen", () => {
  const write = (
    rmaId: number,
    sequence: number,
    stage: string,
    ledger: Record<string, number | boolean>,
  ) =>
    recordRmaState(db, {
      rmaId,
      dedupeKey: `t:${rmaId}:${sequence}`,
      sequence,
      stage,
      decisions: null,
      rmaFeeCents: 0,
      ledger,
      deadlines: {},
      actions: [],
      notices: [],
      staffNotices: [],
    });
  const listed = async (status: Parameters<typeof listAdminRmas>[1]["status"], ids: number[]) =>
    (await listAdminRmas(db, { tab: "all", status, limit: 100 })).items
      .map((r) => r.id)
      .filter((id) => ids.includes(id));

  test("the return parcel follows the RMA: in route at its first scan, delivered when completed, cancelled when it never shipped; never backwards", async () => {
    const s = await swapWithBothSides();
    const ask = (victimId: number, sourceId: number) => askRma(s, victimId, sourceId, 1, 0);
    const a = await ask(s.receiverId, s.providerLine.id);
    const b = await ask(s.providerId, s.receiverLine.id);
    for (const [r, victimId, perpetratorId] of [
      [a, s.receiverId, s.providerId],
      [b, s.providerId, s.receiverId],
    ] as const) {
      await upsertShipment(db, {
        orderId: r.rmaId,
        senderId: victimId,
        receiverId: perpetratorId,
        trackingNumber: `RMA-T-${r.rmaId}`,
        callTag: "CT",
        labelUrl: null,
        trackingUrl: null,
        pickupBy: new Date(),
      });
    }
    const parcel = async (rmaId: number) =>
      (await listOrderShipments(db, rmaId)).map((x) => x.status);
    const at = new Date().toISOString();
    const writeWith = (rmaId: number, sequence: number, stage: string, codes: number[]) =>
      recordRmaState(db, {
        rmaId,
        dedupeKey: `p:${rmaId}:${sequence}`,
        sequence,
        stage,
        decisions: null,
        rmaFeeCents: 0,
        ledger: {},
        deadlines: {},
        actions: codes.map((code) => ({ code, role: "system", at })),
        notices: [],
        staffNotices: [],
      });

    await writeWith(a.rmaId, 1, "shipping", [ACTION.RMA_APPROVED, ACTION.CALL_TAG_SCHEDULED_RMA]);
    expect(await parcel(a.rmaId)).toEqual(["pickup_scheduled"]);
    await writeWith(a.rmaId, 2, "shipping", [ACTION.SHIPMENT_PICKED_UP]);
    expect(await parcel(a.rmaId)).toEqual(["in_route"]);
    await writeWith(a.rmaId, 3, "rmacompleted", [ACTION.SHIPMENT_DELIVERED]);
    expect(await parcel(a.rmaId)).toEqual(["delivered"]);
    // A late write of the scan changes nothing.
    await writeWith(a.rmaId, 2, "shipping", [ACTION.SHIPMENT_PICKED_UP]);
    expect(await parcel(a.rmaId)).toEqual(["delivered"]);

    await writeWith(b.rmaId, 1, "shipping", [ACTION.RMA_APPROVED]);
    await writeWith(b.rmaId, 2, "rmacancelled", [ACTION.RMA_RETURN_NOT_SHIPPED]);
    expect(await parcel(b.rmaId)).toEqual(["cancelled"]);
  });

  test("each RMA names its original order's number", async () => {
    const s = await swapWithBothSides();
    const rma = await askRma(s, s.receiverId, s.providerLine.id, 1, 0);
    const original = await getOrderRow(db, s.order.orderId);
    const row = (await listAdminRmas(db, { tab: "all", limit: 100 })).items.find(
      (r) => r.id === rma.rmaId,
    );
    expect(original?.externalId).toBeTruthy();
    expect(row?.rmaForExternalId).toBe(original?.externalId);
  });

  test("the status filter: pending, overdue (escalated and still pending), cancelled, a charge queued; a new card finds the RMAs waiting to charge", async () => {
    const s = await swapWithBothSides();
    const ask = (victimId: number, sourceId: number) => askRma(s, victimId, sourceId, 1, 2);
    const a = await ask(s.receiverId, s.providerLine.id); // the provider is its perpetrator
    const b = await ask(s.providerId, s.receiverLine.id); // the receiver is its perpetrator
    const ids = [a.rmaId, b.rmaId];
    expect(await listed("rmarequested", ids)).toEqual(expect.arrayContaining(ids));
    expect(await listed("overdue", ids)).toEqual([]);

    await write(a.rmaId, 1, "rmarequested", { escalated: true, chargeQueued: false });
    await write(b.rmaId, 1, "rmacompleted", {
      victimRefundCents: 8000,
      perpetratorChargeCents: 8000,
      chargeQueued: true,
      escalated: false,
    });
    expect(await listed("overdue", ids)).toEqual([a.rmaId]);
    expect(await listed("charge_queued", ids)).toEqual([b.rmaId]);
    expect(await listed("rmacompleted", ids)).toEqual([b.rmaId]);
    expect(await rmaWorkflowsAwaitingCharge(db, s.receiverId)).toEqual([b.workflowId]);
    expect(await rmaWorkflowsAwaitingCharge(db, s.providerId)).toEqual([]);

    await write(b.rmaId, 2, "rmacompleted", {
      victimRefundCents: 8000,
      perpetratorChargeCents: 8000,
      chargeQueued: false,
      escalated: false,
    });
    await write(a.rmaId, 2, "rmacancelled", { escalated: true, chargeQueued: false });
    expect(await listed("charge_queued", ids)).toEqual([]);
    expect(await listed("overdue", ids)).toEqual([]);
    expect(await listed("rmacancelled", ids)).toEqual([a.rmaId]);
    expect(await rmaWorkflowsAwaitingCharge(db, s.receiverId)).toEqual([]);

    // The card shows what staff settle against: the goods the victim received on the swap.
    expect((await getRmaView(db, b.rmaId))?.original).toEqual({
      kind: "swap",
      unitsReceived: 1,
      goodsCents: 8000,
      feeCents: 0,
      shippingCents: 0,
      totalCents: 8000,
    });
    // A retailer's RMA page does not ask for it (it is staff's).
    expect(await getRmaView(db, b.rmaId, { withOriginal: false })).toMatchObject({
      original: null,
      rmaForId: expect.any(Number),
    });
  });
});

describe("recordRmaState (one step, by recordStep)", () => {
  test("a newer step applies staff's decisions (units, value, comment) and the RMA's value; a late one only adds its actions; staff notices go to every staff member", async () => {
    const s = await swapWithBothSides();
    const staffUser = await createStaffUser(db);
    const rma = await askRma(s, s.receiverId, s.providerLine.id, 2, 0);
    const lineId = rma.lines[0].lineId;
    const at = new Date().toISOString();
    const step = (sequence: number, approvedQuantity: number, actions: [number, string][]) =>
      recordRmaState(db, {
        rmaId: rma.rmaId,
        dedupeKey: `d:${rma.rmaId}:${sequence}:${approvedQuantity}`,
        sequence,
        stage: "shipping",
        decisions: [
          { lineId, approvedQuantity, comment: `approved ${approvedQuantity}` },
          // A line of another order is not this RMA's to decide.
          { lineId: s.providerLine.id, approvedQuantity: 0, comment: "not mine" },
        ],
        rmaFeeCents: 500,
        ledger: { escalated: false },
        deadlines: {},
        actions: actions.map(([code, role]) => ({ code, role, at })),
        notices: [],
        staffNotices: [
          {
            subject: "RMA approved",
            text: "An RMA was approved.",
            kind: "rma:test",
            dedupeKey: `staff:${rma.rmaId}:${sequence}:${approvedQuantity}`,
          },
        ],
      });

    const first: [number, string][] = [
      [ACTION.RMA_APPROVED, "victim"],
      [ACTION.CALL_TAG_SCHEDULED_RMA, "perpetrator"],
      [ACTION.SHIPMENT_PICKED_UP, "system"],
    ];
    expect(await step(1, 1, first)).toEqual({ recorded: true });
    const line = async () =>
      (await db.select().from(orderContributions).where(eq(orderContributions.id, lineId)))[0];
    expect(await line()).toMatchObject({
      quantity: 1,
      valueCents: 5000,
      rmaApproved: true,
      rmaApprovalComment: "approved 1",
    });
    expect(
      (
        await db
          .select()
          .from(orderContributions)
          .where(eq(orderContributions.id, s.providerLine.id))
      )[0],
    ).toMatchObject({
      quantity: 2,
      rmaApprovalComment: null,
    });
    expect(await getOrderRow(db, rma.rmaId)).toMatchObject({
      stage: "shipping",
      statename: "shipping",
      valueCents: 5000,
      rmaFeeCents: 500,
      recordSeq: 1,
      completed: null,
    });
    const actions = await listOrderActions(db, rma.rmaId);
    expect(actions.map((a) => [a.role, a.participantId])).toEqual([
      ["provider", s.receiverId],
      ["receiver", s.providerId],
      ["system", null],
    ]);
    const mails = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.dedupeKey, `staff:${rma.rmaId}:1:1:${staffUser.id}`));
    expect(mails.map((m) => m.toEmail)).toEqual([staffUser.email]);

    // A late write of the same step with other decisions changes nothing but adds its action row.
    expect(await step(1, 2, [[ACTION.RMA_RETURN_NOT_SHIPPED, "victim"]])).toEqual({
      recorded: true,
    });
    expect(await line()).toMatchObject({
      quantity: 1,
      valueCents: 5000,
      rmaApprovalComment: "approved 1",
    });
    expect((await getOrderRow(db, rma.rmaId))?.valueCents).toBe(5000);
    expect(await listOrderActions(db, rma.rmaId)).toHaveLength(4);

    // No such RMA: nothing written.
    expect(
      await recordRmaState(db, {
        rmaId: 2_000_000_000,
        dedupeKey: "gone",
        sequence: 1,
        stage: "shipping",
        decisions: null,
        rmaFeeCents: 0,
        ledger: {},
        deadlines: {},
        actions: [],
        notices: [],
        staffNotices: [],
      }),
    ).toEqual({
      recorded: false,
    });
  });
});

/**
 * rmaWorkflow on the time-skipping test server with the REAL activities (createActivities: Postgres read model,
 * sandbox payments, sandbox carrier, outbox), against the test database. A purchase paid for with a card; the
 * buyer (the victim) asks to return 1 damaged unit and 1 missing unit (createRma: an order of type 3 for the
 * purchase); staff approve both with an RMA fee; a return label is booked for the victim; the carrier scans and
 * delivers the return parcel (the real webhook route of tests/setup/real-worker.ts); the victim is refunded
 * on its original payment and the seller's card on file is charged, as domain/rma-money says.
 *
 * Asserted: the RMA's order row (stage, amounts, ledger), its lines (staff's decisions), its action codes, its
 * return shipment, the payments rows (refund and charge with their amounts), a second RMA refused, and every
 * notice anonymous (staff are told too).
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createBuyActivities } from "../../activities/buy";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { listOrderPayments } from "../../db/queries/payments";
import { createRma, RmaRequestRefused } from "../../db/queries/rmas";
import { listOrderShipments } from "../../db/queries/shipments";
import { orderContributions, outboxEmails, retailers } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { formatCents } from "../../domain/money";
import { rmaSettlement } from "../../domain/rma-money";
import { CARD_ON_FILE_WORKFLOW_TYPE, cardOnFileWorkflowId } from "../../workflows/card/contract";
import type { cardOnFileWorkflow } from "../../workflows/card/workflow";
import {
  decideRmaUpdate,
  RMA_WORKFLOW_TYPE,
  rmaViewQuery,
  rmaWorkflowId,
  staffBookReturnPickupUpdate,
  type RmaView,
} from "../../workflows/rma/contract";
import type { rmaWorkflow } from "../../workflows/rma/workflow";
import { createRetailer, createStaffUser } from "../factories";
import {
  authorizePurchase,
  captureThenRefund,
  createDraftOrder,
  createSellerWithListing,
  listingLine,
  TEST_MASTERCARD,
} from "../db/buy-fixtures";
import { useTestDb } from "../db/helpers";
import { RETURN_DELIVERED_ACTIONS } from "../factories/worked-example";
import { useRealWorker } from "../setup/real-worker";
import { viewWaiter } from "../setup/temporal";

const SECRET = "carrier_rma_test_secret";
const db = useTestDb(6);
const real = useRealWorker(db, { secret: SECRET, prefix: "rma-real" });

/** A purchase from the seller of `f` to the buyer, paid with a test card (authorised and captured). */
async function paidPurchase(
  f: Awaited<ReturnType<typeof createSellerWithListing>>,
  buyerId: number,
  sizes: Record<string, number>,
) {
  const buy = createBuyActivities({
    db,
    payments: new SandboxPayments(db),
    carrier: real.carrier,
    appOrigin: "http://localhost:3000",
    timeZone: "America/New_York",
  });
  const order = await createDraftOrder(db, {
    providerId: f.seller.retailer.id,
    receiverId: buyerId,
    lines: [listingLine(f, sizes)],
  });
  const row = (await getOrderRow(db, order.orderId))!;
  const auth = await authorizePurchase(buy, order, buyerId, row.receiverGrandTotalCents);
  await captureThenRefund(buy, order, auth.paymentIntentId, row.receiverGrandTotalCents);
  return { buy, order, auth };
}

/** The buyer's contact on its return requests. */
const PAT = {
  name: "Pat Buyer",
  email: "pat@example.test",
  phone: "555-0100",
  packingSlipName: "Pat",
};

/** An order's lines (order_contributions). */
const linesOf = (orderId: number) =>
  db.select().from(orderContributions).where(eq(orderContributions.orderId, orderId));

const waitForView = viewWaiter(rmaViewQuery, (v) => `stage ${v?.stage}`);

/** Starts the workflow of the RMA createRma wrote (`start`) and waits until it has been requested. */
async function startRma(start: Awaited<ReturnType<typeof createRma>>) {
  const handle = await real.env.client.workflow.start<typeof rmaWorkflow>(RMA_WORKFLOW_TYPE, {
    taskQueue: real.taskQueue,
    workflowId: start.workflowId,
    args: [{ ...start }],
  });
  const waitFor = (pred: (v: RmaView) => boolean, what: string) => waitForView(handle, pred, what);
  await waitFor((v) => v.stage === "rmarequested" && !v.busy, "requested");
  return { handle, waitFor };
}

describe("RMA workflow with the real activities", () => {
  test("a sale's RMA: requested, approved with a fee, the return shipped and delivered, the buyer refunded on its payment, the seller's card charged", async () => {
    const f = await createSellerWithListing(db, { sizes: { S: 2, M: 3 } });
    const sellerId = f.seller.retailer.id;
    const buyer = await createRetailer(db, { payout: true });
    const buyerId = buyer.retailer.id;
    const staff = await createStaffUser(db, {});
    // The purchase: S x 1, M x 2 paid with a card; the seller has a card on file (RMAs are charged to it).
    const { buy, order, auth } = await paidPurchase(f, buyerId, { S: 1, M: 2 });
    await buy.saveCardOnFile({
      idempotencyKey: `card-${sellerId}`,
      retailerId: sellerId,
      paymentMethod: TEST_MASTERCARD,
    });
    const [line] = await linesOf(order.orderId);

    // The buyer's request: 1 damaged, 1 missing (two lines of the same product line).
    const request = {
      orderId: order.orderId,
      victimId: buyerId,
      contact: PAT,
      lines: [
        { sourceId: line.id, quantity: 1, reason: 0 },
        { sourceId: line.id, quantity: 1, reason: 2 },
      ],
      workflowIdFor: rmaWorkflowId,
    };
    await expect(createRma(db, { ...request, victimId: sellerId })).rejects.toThrow(
      RmaRequestRefused,
    );
    await expect(
      createRma(db, { ...request, lines: [{ sourceId: line.id, quantity: 4, reason: 0 }] }),
    ).rejects.toThrow("You cannot return more units than you received.");
    const start = await createRma(db, request);
    await expect(createRma(db, request)).rejects.toThrow("An RMA already exists for this order.");
    expect(start).toMatchObject({
      kind: "sale",
      victimId: buyerId,
      perpetratorId: sellerId,
      victimPaymentIntentId: auth.paymentIntentId,
    });

    const { handle, waitFor } = await startRma(start);
    expect(await getOrderRow(db, start.rmaId)).toMatchObject({
      transactionType: 3,
      stage: "rmarequested",
      actionNeeded: "staff",
      providerId: buyerId,
      receiverId: sellerId,
      rmaForId: order.orderId,
    });

    // Staff approve both lines with a $5.00 fee: a return label for the damaged unit.
    const decided = await handle.executeUpdate(decideRmaUpdate, {
      args: [
        {
          staffUserId: staff.id,
          rmaFeeCents: 500,
          lines: start.lines.map((l) => ({ lineId: l.lineId, approvedQuantity: 1, comment: "ok" })),
        },
      ],
    });
    expect(decided.stage).toBe("shipping");
    const expected = rmaSettlement(
      start.order,
      start.lines.map((l) => ({
        unitPriceCents: l.unitPriceCents,
        requestedQuantity: l.requestedQuantity,
        approvedQuantity: 1,
        reason: l.reason,
      })),
      500,
    );
    const shipping = await waitFor(
      (v) => v.stage === "shipping" && !v.busy && v.returnShipment !== null,
      "shipping",
    );
    const [parcel] = await listOrderShipments(db, start.rmaId);
    expect(parcel).toMatchObject({
      senderId: buyerId,
      receiverId: sellerId,
      trackingNumber: shipping.returnShipment!.trackingNumber,
    });

    // Staff's "Schedule pickup": the carrier books a new call tag for the same parcel, which the read model's
    // row takes (931); the same click again books nothing.
    const replacesCallTag = parcel.callTag as string;
    const book = () =>
      handle.executeUpdate(staffBookReturnPickupUpdate, { args: [{ replacesCallTag }] });
    expect(await book()).toEqual({ stage: "shipping" });
    const [rebooked] = await listOrderShipments(db, start.rmaId);
    expect(rebooked).toMatchObject({ id: parcel.id, trackingNumber: parcel.trackingNumber });
    expect(rebooked.callTag).not.toBe(replacesCallTag);
    expect((await handle.query(rmaViewQuery)).returnShipment?.callTag).toBe(rebooked.callTag);
    expect(await book()).toEqual({ stage: "shipping" });
    expect((await listOrderShipments(db, start.rmaId))[0].callTag).toBe(rebooked.callTag);

    // The return parcel is scanned and delivered: the victim refunded, the perpetrator charged.
    // Staff's card shows the parcel as the carrier reports it: Pickup Scheduled, In-Route, Delivered.
    expect(parcel.status).toBe("pickup_scheduled");
    expect(
      (await real.carrier.sendTrackingEvent(parcel.trackingNumber!, "picked_up")).httpStatus,
    ).toBe(200);
    await expect
      .poll(async () => (await listOrderShipments(db, start.rmaId))[0].status, { timeout: 15_000 })
      .toBe("in_route");
    expect(
      (await real.carrier.sendTrackingEvent(parcel.trackingNumber!, "delivered")).httpStatus,
    ).toBe(200);
    expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
    expect((await listOrderShipments(db, start.rmaId)).map((x) => x.status)).toEqual(["delivered"]);

    const rma = await getOrderRow(db, start.rmaId);
    expect(rma).toMatchObject({
      stage: "rmacompleted",
      completed: true,
      rmaFeeCents: 500,
      valueCents: 2 * f.priceCents,
    });
    expect(rma?.ledger).toEqual({
      victimRefundCents: expected.victimRefundCents,
      perpetratorChargeCents: expected.perpetratorChargeCents,
      rmaKeptCents: expected.perpetratorChargeCents - expected.victimRefundCents,
      chargeQueued: false,
      escalated: false,
    });
    const lines = await linesOf(start.rmaId);
    expect(
      lines
        .map((l) => [
          l.rmaReason,
          l.rmaQuantityRequested,
          l.rmaApproved,
          l.quantity,
          l.rmaApprovalComment,
        ])
        .sort(),
    ).toEqual(
      [
        [0, 1, true, 1, "ok"],
        [2, 1, true, 1, "ok"],
      ].sort(),
    );
    // The shared return's actions, with staff's new pickup booked after the carrier's first call tag.
    const [requested, approved, callTag, ...rest] = RETURN_DELIVERED_ACTIONS;
    expect((await listOrderActions(db, start.rmaId)).map((a) => a.code)).toEqual([
      requested,
      approved,
      callTag,
      ACTION.CALL_TAG_BOOKED_BY_STAFF_RMA,
      ...rest,
    ]);
    const pays = await listOrderPayments(db, start.rmaId);
    expect(pays.find((p) => p.txtype === "penalty")?.name).toBe("RMA charge");
    expect(pays.map((p) => [p.txtype, p.retailerId, p.amountCents, p.status]).sort()).toEqual(
      [
        ["refund", buyerId, expected.victimRefundCents, "succeeded"],
        ["penalty", sellerId, expected.perpetratorChargeCents, "succeeded"],
      ].sort(),
    );

    // Every notice: the other party by number only; staff told of the new RMA.
    const mails = (await db.select().from(outboxEmails)).filter((m) =>
      m.bodyText.includes(start.externalId),
    );
    expect(mails.map((m) => m.kind)).toEqual(
      expect.arrayContaining([
        "rma:rma_requested_staff",
        "rma:rma_requested_perpetrator",
        "rma:rma_approved_ship_return",
        "rma:rma_completed",
      ]),
    );
    expect(mails.some((m) => m.toEmail === staff.email)).toBe(true);
    // The perpetrator (the seller) is told when the RMA is filed and when staff decide it, with its RMA page's link
    // and the victim only as retailer-00{id} (docs/product/screens.md, "My returns").
    const sellerAddress = await retailerNoticeAddress(db, sellerId);
    const toSeller = mails.filter((m) => m.toEmail === sellerAddress);
    expect(toSeller.map((m) => m.kind)).toEqual(
      expect.arrayContaining(["rma:rma_requested_perpetrator", "rma:rma_approved_ship_return"]),
    );
    for (const m of toSeller) expect(m.bodyText).toContain(`/rma/${start.rmaId}`);
    expect(toSeller.find((m) => m.kind === "rma:rma_requested_perpetrator")?.bodyText).toContain(
      `retailer-00${buyerId}`,
    );
    // Filing tells both parties what the RMA comes to as asked (both lines, no fee), as the decision's e-mail does.
    const asked = rmaSettlement(
      start.order,
      start.lines.map((l) => ({ ...l, approvedQuantity: l.requestedQuantity })),
    );
    expect(toSeller.find((m) => m.kind === "rma:rma_requested_perpetrator")?.bodyText).toContain(
      `If staff approve it as asked, you will be charged ${formatCents(asked.perpetratorChargeCents)}.`,
    );
    const buyerAddress = await retailerNoticeAddress(db, buyerId);
    const filed = mails.find(
      (m) => m.kind === "rma:rma_requested_victim" && m.toEmail === buyerAddress,
    );
    expect(filed?.bodyText).toContain(
      `If staff approve it as asked, you will get back ${formatCents(asked.victimRefundCents)}.`,
    );
    expect(filed?.bodyText).toContain(`retailer-00${sellerId}`);
    expect(filed?.bodyText).toContain(`/rma/${start.rmaId}`);
    // Staff's decision tells the perpetrator what it will be charged, the victim what it gets back.
    expect(toSeller.find((m) => m.kind === "rma:rma_approved_ship_return")?.bodyText).toContain(
      `You will be charged ${formatCents(expected.perpetratorChargeCents)} once the return is delivered.`,
    );
    expect(
      mails.find((m) => m.kind === "rma:rma_approved_ship_return" && m.toEmail !== sellerAddress)
        ?.bodyText,
    ).toContain(`You will get back ${formatCents(expected.victimRefundCents)}.`);
    expect(toSeller.find((m) => m.kind === "rma:rma_completed")?.bodyText).toContain(
      `You are charged ${formatCents(expected.perpetratorChargeCents)}.`,
    );
    const names = await db
      .select({ name: retailers.storeName })
      .from(retailers)
      .where(eq(retailers.id, sellerId));
    for (const m of mails) expect(`${m.subject}${m.bodyText}`).not.toContain(names[0].name);
  });

  test("the seller has no card: the charge is queued for staff; putting a card on file (Settings) charges it", async () => {
    const f = await createSellerWithListing(db, { sizes: { S: 2 } });
    const sellerId = f.seller.retailer.id;
    const buyer = await createRetailer(db, { payout: true });
    const buyerId = buyer.retailer.id;
    const staff = await createStaffUser(db, {});
    const { order } = await paidPurchase(f, buyerId, { S: 2 });
    const [line] = await linesOf(order.orderId);
    // One unit missing: nothing to send back, so staff's approval settles it.
    const start = await createRma(db, {
      orderId: order.orderId,
      victimId: buyerId,
      contact: PAT,
      lines: [{ sourceId: line.id, quantity: 1, reason: 2 }],
      workflowIdFor: rmaWorkflowId,
    });
    const { handle, waitFor } = await startRma(start);
    await handle.executeUpdate(decideRmaUpdate, {
      args: [
        {
          staffUserId: staff.id,
          rmaFeeCents: 0,
          lines: [{ lineId: start.lines[0].lineId, approvedQuantity: 1 }],
        },
      ],
    });
    await waitFor((v) => v.chargeQueued && !v.busy, "charge queued");
    expect((await getOrderRow(db, start.rmaId))?.ledger).toMatchObject({ chargeQueued: true });

    // The seller saves a card (the Settings page runs this workflow): the queued charge is taken.
    const card = await real.env.client.workflow.execute<typeof cardOnFileWorkflow>(
      CARD_ON_FILE_WORKFLOW_TYPE,
      {
        taskQueue: real.taskQueue,
        workflowId: cardOnFileWorkflowId(sellerId, `rma-${start.rmaId}`),
        args: [
          {
            retailerId: sellerId,
            submissionId: `rma-${start.rmaId}`,
            card: { source: "test_card", testToken: "tok_visa" },
          },
        ],
      },
    );
    expect(card.status).toBe("saved");
    expect(await handle.result()).toEqual({ stage: "rmacompleted", charged: true });
    const pays = (await listOrderPayments(db, start.rmaId)).filter(
      (p) => p.retailerId === sellerId,
    );
    const expected = rmaSettlement(start.order, [
      { unitPriceCents: f.priceCents, requestedQuantity: 1, approvedQuantity: 1, reason: 2 },
    ]);
    expect(pays.filter((p) => p.status === "succeeded").map((p) => p.amountCents)).toEqual([
      expected.perpetratorChargeCents,
    ]);
    expect(pays.filter((p) => p.status !== "succeeded").every((p) => p.queued)).toBe(true);
    expect((await getOrderRow(db, start.rmaId))?.ledger).toMatchObject({ chargeQueued: false });
    expect((await listOrderActions(db, start.rmaId)).map((a) => a.code)).toEqual(
      expect.arrayContaining([ACTION.RMA_CHARGE_QUEUED, ACTION.RMA_PERPETRATOR_CHARGED]),
    );
  });
});

/**
 * swapOrderWorkflow on the time-skipping test server with the REAL activities (createActivities: Postgres
 * read model, sandbox payments, sandbox carrier, outbox), against the test database: checkout with a
 * pre-authorisation, the provider's choice, both approve, each side pays its due, stock of both sides taken,
 * a shipment per side, both scanned (the cash difference paid out), both delivered, both rate, completed.
 * Carrier events take the real route through the stand-in webhook endpoint of tests/setup/real-worker.ts.
 *
 * Asserted: the orders row and both sides' contributions, order_actions codes, payments rows (what each side
 * was charged, the release, the payout), both listings' stock, the two shipments, ratings, and that every
 * notice names the other side only as retailer-00{id}.
 */
import type { WorkflowHandle } from "@temporalio/client";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getOrderRow, listOrderActions } from "../../db/queries/orders";
import { listOrderPayments } from "../../db/queries/payments";
import { listOrderShipments } from "../../db/queries/shipments";
import { createSwapOrder } from "../../db/queries/swap-orders";
import { listings, orderContributions, outboxEmails, ratings, retailers } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { MINUTE_MS } from "../../domain/business-days";
import { swapValuation } from "../../domain/fees";
import {
  approveSwapUpdate,
  chooseItemsUpdate,
  makePaymentUpdate,
  rateSwapUpdate,
  SWAP_WORKFLOW_TYPE,
  swapCheckoutUpdate,
  swapViewQuery,
  swapWorkflowId,
  type SwapView,
} from "../../workflows/swap/contract";
import type { swapOrderWorkflow } from "../../workflows/swap/workflow";
import { createSellerWithListing, listingLine, TEST_VISA } from "../db/buy-fixtures";
import { useTestDb } from "../db/helpers";
import { useRealWorker } from "../setup/real-worker";
import { viewWaiter, sleepUntil } from "../setup/temporal";

const SECRET = "carrier_swap_test_secret";
const db = useTestDb(8);
const real = useRealWorker(db, { secret: SECRET, prefix: "swap-real" });

type Handle = WorkflowHandle<typeof swapOrderWorkflow>;

/** Polls the view until `pred` holds (the workflow may still be processing a fired timer or a signal). */
const waitFor = viewWaiter(swapViewQuery, (v) => `state ${v?.statename}`);

describe("swap workflow with the real activities", () => {
  test("checkout, choice, both approve, both pay, both ship, both rate: read model, money, stock, shipments and notices", async () => {
    // The provider gives 2 units of its listing; the receiver gives 1 unit of its own, chosen by the provider.
    const p = await createSellerWithListing(db, { sizes: { S: 2, M: 3 } });
    const r = await createSellerWithListing(db, { sizes: { L: 4 } });
    const providerId = p.seller.retailer.id;
    const receiverId = r.seller.retailer.id;
    const providerLines = [listingLine(p, { M: 2 })];
    const receiverLines = [listingLine(r, { L: 1 })];
    const order = await createSwapOrder(db, {
      providerId,
      receiverId,
      brandId: p.brand.id,
      providerLines,
      workflowIdFor: swapWorkflowId,
    });
    const handle = await real.env.client.workflow.start<typeof swapOrderWorkflow>(
      SWAP_WORKFLOW_TYPE,
      {
        taskQueue: real.taskQueue,
        workflowId: order.workflowId,
        args: [
          {
            orderId: order.orderId,
            externalId: order.externalId,
            providerId,
            receiverId,
            providerLines,
          },
        ],
      },
    );
    const v = swapValuation({
      provider: { goodsCents: 2 * p.priceCents, units: 2 },
      receiver: { goodsCents: r.priceCents, units: 1 },
      callItEven: false,
    });

    const card = TEST_VISA;
    expect(
      await handle.executeUpdate(swapCheckoutUpdate, {
        args: [{ actorRetailerId: receiverId, paymentMethod: card }],
      }),
    ).toMatchObject({
      statename: "provider_choose_items",
    });
    expect(await getOrderRow(db, order.orderId)).toMatchObject({
      transactionType: 2,
      statename: "provider_choose_items",
      actionNeeded: "provider",
    });
    await handle.executeUpdate(chooseItemsUpdate, {
      args: [{ actorRetailerId: providerId, lines: receiverLines }],
    });
    await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: providerId }] });
    await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: receiverId }] });
    await waitFor(handle, (x) => x.statename === "payment" && !x.busy, "payment");

    // Both sides' goods are on the order as they stand.
    const contribs = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, order.orderId));
    expect(contribs.map((c) => [c.side, c.listingId, c.units, c.valueCents]).sort()).toEqual(
      [
        ["provider", p.listing.id, { M: 2 }, 2 * p.priceCents],
        ["receiver", r.listing.id, { L: 1 }, r.priceCents],
      ].sort(),
    );
    expect(await getOrderRow(db, order.orderId)).toMatchObject({
      statename: "payment",
      actionNeeded: "both",
      providerFeeCents: v.provider.feeCents,
      receiverFeeCents: v.receiver.feeCents,
      receiverGrandTotalCents: v.receiver.totalDueCents,
    });

    await handle.executeUpdate(makePaymentUpdate, {
      args: [
        {
          actorRetailerId: providerId,
          paymentMethod: { ...card, paymentMethodId: "tok_mastercard" },
        },
      ],
    });
    await handle.executeUpdate(makePaymentUpdate, {
      args: [{ actorRetailerId: receiverId, paymentMethod: card }],
    });
    const shipping = await waitFor(
      handle,
      (x) => x.statename === "ship_swap" && !x.busy,
      "ship_swap",
    );

    // Stock of both sides taken at once; a shipment per side.
    const stock = await db
      .select({ id: listings.id, sizes: listings.sizes })
      .from(listings)
      .where(inArray(listings.id, [p.listing.id, r.listing.id]));
    expect(Object.fromEntries(stock.map((s) => [s.id, s.sizes]))).toEqual({
      [p.listing.id]: { S: 2, M: 1 },
      [r.listing.id]: { L: 3 },
    });
    const ships = await listOrderShipments(db, order.orderId);
    expect(ships.map((s) => [s.senderId, s.receiverId]).sort()).toEqual(
      [
        [providerId, receiverId],
        [receiverId, providerId],
      ].sort(),
    );
    const trackings = [
      shipping.provider.shipment?.trackingNumber,
      shipping.receiver.shipment?.trackingNumber,
    ] as string[];
    expect(new Set(trackings).size).toBe(2);
    expect(trackings.sort()).toEqual(ships.map((s) => s.trackingNumber).sort());

    // Both parcels scanned: in route, the cash difference paid out to the side it was meant for.
    for (const t of trackings)
      expect((await real.carrier.sendTrackingEvent(t, "picked_up")).httpStatus).toBe(200);
    await waitFor(handle, (x) => x.statename === "in_route" && !x.busy, "in_route");
    for (const t of trackings)
      expect((await real.carrier.sendTrackingEvent(t, "delivered")).httpStatus).toBe(200);
    const delivered = await waitFor(
      handle,
      (x) => x.statename === "delivered" && !x.busy,
      "delivered",
    );

    const stars = { condition: 5, packaging: 4, timeliness: 5, overall: 4 };
    await handle.executeUpdate(rateSwapUpdate, {
      args: [{ actorRetailerId: receiverId, stars, comments: "As described." }],
    });
    await handle.executeUpdate(rateSwapUpdate, {
      args: [{ actorRetailerId: providerId, stars: { ...stars, overall: 5 } }],
    });
    const closes = [
      delivered.provider.ratingBy,
      delivered.receiver.ratingBy,
      delivered.provider.rmaBy,
      delivered.receiver.rmaBy,
    ]
      .filter((x): x is string => !!x)
      .sort();
    await sleepUntil(real.env, closes[closes.length - 1], MINUTE_MS);
    expect(await handle.result()).toEqual({ statename: "completed" });

    const row = await getOrderRow(db, order.orderId);
    expect(row).toMatchObject({
      statename: "completed",
      completed: true,
      receiverRating: 4,
      providerRating: 5,
      receiverRatingComments: "As described.",
    });
    expect(
      await db
        .select({ raterId: ratings.raterId })
        .from(ratings)
        .where(eq(ratings.orderId, order.orderId)),
    ).toHaveLength(2);

    const codes = (await listOrderActions(db, order.orderId)).map((a) => a.code);
    for (const c of [
      ACTION.SWAP_REQUESTED,
      ACTION.PROVIDER_CHOOSES_SWAP_ITEMS,
      ACTION.CONFIRM_SWAP_ITEMS,
      ACTION.CALL_TAG_SCHEDULED_SWAP,
      ACTION.ORDER_COMPLETED,
    ]) {
      expect(codes).toContain(c);
    }

    // Money: the receiver's pre-authorisation released; each side charged exactly its due; the cash
    // difference (if any) paid out to the other side.
    const pays = await listOrderPayments(db, order.orderId);
    const captured = (id: number) =>
      pays
        .filter((x) => x.txtype === "capture" && x.retailerId === id)
        .reduce((a, x) => a + x.amountCents, 0);
    expect(captured(providerId)).toBe(v.provider.totalDueCents);
    expect(captured(receiverId)).toBe(v.receiver.totalDueCents);
    expect(pays.some((x) => x.txtype === "release" && x.retailerId === receiverId)).toBe(true);
    const payouts = pays
      .filter((x) => x.txtype === "transfer")
      .map((x) => [x.retailerId, x.amountCents]);
    if (v.cashFrom === null) expect(payouts).toEqual([]);
    else
      expect(payouts).toEqual([
        [v.cashFrom === "provider" ? receiverId : providerId, v.differenceCents],
      ]);
    expect(pays.every((x) => x.idempotencyKey.startsWith(`${order.workflowId}:`))).toBe(true);

    // Notices went to both sides, naming the other only anonymously.
    const names = (
      await db
        .select({ name: retailers.storeName })
        .from(retailers)
        .where(inArray(retailers.id, [providerId, receiverId]))
    ).map((x) => x.name);
    const mails = (await db.select().from(outboxEmails)).filter((m) =>
      m.bodyText.includes(order.externalId),
    );
    expect(mails.length).toBeGreaterThan(3);
    for (const m of mails) {
      for (const n of names) expect(`${m.subject}\n${m.bodyText}`).not.toContain(n);
    }
    expect(mails.some((m) => m.bodyText.includes(`retailer-00${receiverId}`))).toBe(true);
    expect(mails.some((m) => m.bodyText.includes(`retailer-00${providerId}`))).toBe(true);
  });
});

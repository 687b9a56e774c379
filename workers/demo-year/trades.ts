/**
 * The demo year's trades, each played as the product plays it (ADR 0063): the draft made the way the pages
 * make it (a purchase through the cart and proceedFromCart; a swap's draft as its cart writes it; an RMA with
 * createRma), its workflow started by type name on the time-skipping server, then driven through the same
 * updates the pages send and the carrier events the webhook delivers, waiting on the clock (clock.ts) between
 * the steps for the days a retailer or the carrier would take. Windows (rating, RMA) close on their own timers.
 */
import type { Client } from "@temporalio/client";
import { eq } from "drizzle-orm";
import type { SandboxCarrier } from "../../activities/carrier/sandbox";
import type { Db } from "../../db/client";
import { addToCart } from "../../db/queries/cart";
import { detachOrdersFromCart, proceedFromCart } from "../../db/queries/checkout";
import { postOrderMessage } from "../../db/queries/order-messages";
import { createRma } from "../../db/queries/rmas";
import { createSwapOrder } from "../../db/queries/swap-orders";
import { orderContributions } from "../../db/schema";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../domain/business-days";
import { MESSAGE_MAIL_WINDOW_MS, messageNoticeMail } from "../../domain/order-messages";
import {
  addPaymentMethodUpdate,
  approveSaleUpdate,
  BUY_WORKFLOW_TYPE,
  buyOrderInputFromDraft,
  buyWorkflowId,
  completeCheckoutUpdate,
  orderViewQuery,
  rateOrderUpdate,
  type BuyOrderView,
} from "../../workflows/buy/contract";
import {
  decideRmaUpdate,
  RMA_WORKFLOW_TYPE,
  rmaViewQuery,
  rmaWorkflowId,
} from "../../workflows/rma/contract";
import {
  approveSwapUpdate,
  chooseItemsUpdate,
  makePaymentUpdate,
  rateSwapUpdate,
  SWAP_WORKFLOW_TYPE,
  swapCheckoutUpdate,
  swapViewQuery,
  swapWorkflowId,
} from "../../workflows/swap/contract";
import { TEST_MASTERCARD, TEST_VISA } from "../../tests/db/buy-fixtures";
import { viewWaiter } from "../../tests/setup/temporal";
import type { DemoClock } from "./clock";
import type { PlannedPurchase, PlannedSwap } from "./plan";

/** What every trade needs: the database, the server's client and queue, the carrier, the clock, who is who. */
export interface TradeContext {
  db: Db;
  client: Client;
  taskQueue: string;
  carrier: SandboxCarrier;
  clock: DemoClock;
  timeZone: string;
  /** The server instant of the year's day 0. */
  startMs: number;
  retailerId(n: number): number;
  userId(n: number): number;
  userOfRetailer(retailerId: number): number;
  staffUserId: number;
  listing(key: number): { id: number; variationId: number; priceCents: number; providerId: number };
  /** Cart and checkout of one retailer at a time (a cart is per retailer). */
  serial<T>(f: () => Promise<T>): Promise<T>;
  count(what: "purchases" | "swaps" | "rmas" | "ratings" | "messages"): void;
}

const waitBuy = viewWaiter(orderViewQuery, (v) => `state ${v?.statename}`);
const waitSwap = viewWaiter(swapViewQuery, (v) => `state ${v?.statename}`);
const waitRma = viewWaiter(rmaViewQuery, (v) => `stage ${v?.stage}`);

/** The instant `ms` into day `day` of the year (server time). */
const at = (ctx: TradeContext, day: number, ms = 10 * HOUR_MS) => ctx.startMs + day * DAY_MS + ms;

/** Waits until a run has closed (its last window's timer may need the clock to move on). */
async function closed(
  ctx: TradeContext,
  handle: { describe(): Promise<{ status: { name: string } }> },
) {
  for (let hours = 0; hours < 24 * 10; hours++) {
    for (let i = 0; i < 8; i++) {
      if ((await handle.describe()).status.name !== "RUNNING") return;
      await new Promise((r) => setTimeout(r, 25));
    }
    await ctx.clock.after(HOUR_MS);
  }
  throw new Error("a demo trade's workflow did not close");
}

/** The last of some ISO instants (a view's deadlines), in ms. */
const lastOf = (isos: (string | null | undefined)[]) =>
  Math.max(...isos.filter((x): x is string => !!x).map(Date.parse));

/** The carrier picks the parcel up after `pickupMs`, delivers it `transitMs` later. */
async function carry(ctx: TradeContext, tracking: string, pickupMs: number, transitMs: number) {
  await ctx.clock.after(pickupMs);
  await ctx.carrier.sendTrackingEvent(tracking, "picked_up");
  await ctx.clock.after(transitMs);
  await ctx.carrier.sendTrackingEvent(tracking, "delivered");
}

const QUESTIONS = [
  ["Could you ship these in the original boxes?", "Yes, all in their original boxes."],
  ["Is the colour true to the photos?", "It is, maybe a shade darker in store light."],
  ["Any chance this ships before Friday?", "Booked the pickup for tomorrow morning."],
  ["Are the hang tags still on?", "Tags are on every unit."],
];

/** A question from the buyer and the seller's answer some hours later, as the order's Messages tab posts them. */
async function talk(ctx: TradeContext, order: BuyOrderView, k: number) {
  const o = {
    id: order.orderId,
    externalId: order.externalId,
    providerId: order.providerId,
    receiverId: order.receiverId,
  };
  const post = (authorRetailerId: number, authorUserId: number, body: string) =>
    postOrderMessage(
      ctx.db,
      { order: o, authorUserId, authorRetailerId, body },
      {
        windowMs: MESSAGE_MAIL_WINDOW_MS,
        fromLabel: anonymousRetailerLabel(authorRetailerId),
        build: (_to, from) =>
          messageNoticeMail({ externalId: o.externalId, from, link: `/orders/${o.id}` }),
      },
    );
  const [question, answer] = QUESTIONS[k % QUESTIONS.length];
  return {
    question: () => post(o.receiverId, ctx.userOfRetailer(o.receiverId), question),
    answer: () => post(o.providerId, ctx.userOfRetailer(o.providerId), answer),
  };
}

/** A purchase from a listing: checkout, the seller's approval, pickup, delivery, rating, messages, an RMA. */
export async function playPurchase(
  ctx: TradeContext,
  p: PlannedPurchase,
  k: number,
): Promise<void> {
  await ctx.clock.until(at(ctx, p.day, (9 + (k % 3)) * HOUR_MS));
  const buyerId = ctx.retailerId(p.buyer);
  const listing = ctx.listing(p.listing);
  const drafts = await ctx.serial(async () => {
    const added = await addToCart(ctx.db, buyerId, {
      listingId: listing.id,
      selection: p.sizes,
      type: "buy",
    });
    if (!added.ok) throw new Error(`demo purchase ${k}: ${added.message}`);
    const out = await proceedFromCart(ctx.db, buyerId, {
      workflowIdFor: buyWorkflowId,
      placedBy: ctx.userId(p.buyer),
    });
    if (!out.ok || out.kind !== "buy")
      throw new Error(`demo purchase ${k}: ${JSON.stringify(out)}`);
    await detachOrdersFromCart(
      ctx.db,
      buyerId,
      out.drafts.map((d) => d.orderId),
    );
    return out.drafts;
  });
  const draft = drafts[0];
  const handle = await ctx.client.workflow.start(BUY_WORKFLOW_TYPE, {
    taskQueue: ctx.taskQueue,
    workflowId: draft.workflowId,
    args: [buyOrderInputFromDraft(draft, { timeZone: ctx.timeZone })],
  });
  await handle.executeUpdate(completeCheckoutUpdate, {
    args: [{ actorRetailerId: buyerId, paymentMethod: TEST_VISA }],
  });
  ctx.count("purchases");

  // The seller answers within the day; its first sale asks for a card on file, which it adds.
  await ctx.clock.after((3 + (k % 6)) * HOUR_MS);
  const sellerId = listing.providerId;
  const approved = await handle.executeUpdate(approveSaleUpdate, {
    args: [{ actorRetailerId: sellerId, confirmDeclineOthers: true }],
  });
  if (approved.status === "need_payment_method")
    await handle.executeUpdate(addPaymentMethodUpdate, {
      args: [
        { actorRetailerId: sellerId, paymentMethod: TEST_MASTERCARD, confirmDeclineOthers: true },
      ],
    });
  const ship = await waitBuy(
    handle,
    (v) => v.statename === "ship_order" && !v.busy && !!v.shipment,
    "ship_order",
  );
  const chat = p.message ? await talk(ctx, ship, k) : null;
  if (chat) {
    await chat.question();
    ctx.count("messages");
  }
  await carry(
    ctx,
    ship.shipment!.trackingNumber,
    (14 + (k % 10)) * HOUR_MS,
    (1 + (k % 3)) * DAY_MS,
  );
  if (chat) await chat.answer();
  const delivered = await waitBuy(
    handle,
    (v) => v.statename === "delivered" && !v.busy,
    "delivered",
  );

  if (p.overall !== null) {
    await ctx.clock.after(5 * HOUR_MS);
    await handle.executeUpdate(rateOrderUpdate, {
      args: [
        {
          actorRetailerId: buyerId,
          stars: {
            condition: Math.min(5, p.overall + 1),
            packaging: p.overall,
            timeliness: 5 - (k % 2),
            overall: p.overall,
          },
          comments: p.overall >= 4 ? "Well packed, as described." : "Fine, one box was dented.",
        },
      ],
    });
    ctx.count("ratings");
  }
  if (p.rma) await playRma(ctx, delivered, buyerId, k);
  // The order completes when its last window closes: the RMA window, and the rating window when not rated.
  const closes = [
    delivered.deadlines.rmaBy,
    p.overall === null ? delivered.deadlines.ratingBy : null,
  ];
  await ctx.clock.until(lastOf(closes) + MINUTE_MS);
  await closed(ctx, handle);
}

/** One unit returned damaged: the RMA requested, staff approve it with a fee, the return carried back. */
async function playRma(ctx: TradeContext, order: BuyOrderView, victimId: number, k: number) {
  await ctx.clock.after(6 * HOUR_MS);
  const [line] = await ctx.db
    .select({ id: orderContributions.id })
    .from(orderContributions)
    .where(eq(orderContributions.orderId, order.orderId));
  const start = await createRma(ctx.db, {
    orderId: order.orderId,
    victimId,
    contact: {
      name: "Store receiving desk",
      email: `returns+${k}@demo.test`,
      phone: "+1-555-0100",
      packingSlipName: "Receiving",
    },
    lines: [{ sourceId: line.id, quantity: 1, reason: 0 }],
    workflowIdFor: rmaWorkflowId,
  });
  const handle = await ctx.client.workflow.start(RMA_WORKFLOW_TYPE, {
    taskQueue: ctx.taskQueue,
    workflowId: start.workflowId,
    args: [{ ...start, timeZone: ctx.timeZone }],
  });
  await waitRma(handle, (v) => v.stage === "rmarequested" && !v.busy, "requested");
  ctx.count("rmas");
  await ctx.clock.after(DAY_MS);
  await handle.executeUpdate(decideRmaUpdate, {
    args: [
      {
        staffUserId: ctx.staffUserId,
        rmaFeeCents: 500,
        lines: start.lines.map((l) => ({
          lineId: l.lineId,
          approvedQuantity: 1,
          comment: "Damage confirmed on the photos.",
        })),
      },
    ],
  });
  const shipping = await waitRma(
    handle,
    (v) => v.stage === "shipping" && !v.busy && v.returnShipment !== null,
    "shipping",
  );
  await carry(ctx, shipping.returnShipment!.trackingNumber, DAY_MS, 2 * DAY_MS);
  await closed(ctx, handle);
}

/** A swap: the receiver checks out, the provider chooses its goods, both approve, pay, ship and rate. */
export async function playSwap(ctx: TradeContext, s: PlannedSwap, k: number): Promise<void> {
  await ctx.clock.until(at(ctx, s.day, (9 + (k % 7)) * HOUR_MS));
  const mine = ctx.listing(s.listing);
  const theirs = ctx.listing(s.receiverListing);
  const receiverId = ctx.retailerId(s.receiver);
  const providerId = mine.providerId;
  const providerLines = [
    {
      listingId: mine.id,
      variationId: mine.variationId,
      sizes: s.sizes,
      unitPriceCents: mine.priceCents,
    },
  ];
  const order = await createSwapOrder(ctx.db, {
    providerId,
    receiverId,
    brandId: null,
    providerLines,
    workflowIdFor: swapWorkflowId,
    placedBy: ctx.userId(s.receiver),
  });
  const handle = await ctx.client.workflow.start(SWAP_WORKFLOW_TYPE, {
    taskQueue: ctx.taskQueue,
    workflowId: order.workflowId,
    args: [
      {
        orderId: order.orderId,
        externalId: order.externalId,
        providerId,
        receiverId,
        providerLines,
        timeZone: ctx.timeZone,
      },
    ],
  });
  await handle.executeUpdate(swapCheckoutUpdate, {
    args: [{ actorRetailerId: receiverId, paymentMethod: TEST_VISA }],
  });
  ctx.count("swaps");
  await ctx.clock.after(6 * HOUR_MS);
  const receiverLines = [
    {
      listingId: theirs.id,
      variationId: theirs.variationId,
      sizes: s.receiverSizes,
      unitPriceCents: theirs.priceCents,
    },
  ];
  await handle.executeUpdate(chooseItemsUpdate, {
    args: [{ actorRetailerId: providerId, lines: receiverLines }],
  });
  await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: providerId }] });
  await ctx.clock.after(4 * HOUR_MS);
  await handle.executeUpdate(approveSwapUpdate, { args: [{ actorRetailerId: receiverId }] });
  await waitSwap(handle, (v) => v.statename === "payment" && !v.busy, "payment");
  await handle.executeUpdate(makePaymentUpdate, {
    args: [{ actorRetailerId: providerId, paymentMethod: TEST_MASTERCARD }],
  });
  await handle.executeUpdate(makePaymentUpdate, {
    args: [{ actorRetailerId: receiverId, paymentMethod: TEST_VISA }],
  });
  const shipping = await waitSwap(
    handle,
    (v) => v.statename === "ship_swap" && !v.busy,
    "ship_swap",
  );
  const trackings = [
    shipping.provider.shipment!.trackingNumber,
    shipping.receiver.shipment!.trackingNumber,
  ];
  await ctx.clock.after(18 * HOUR_MS);
  for (const t of trackings) await ctx.carrier.sendTrackingEvent(t, "picked_up");
  await ctx.clock.after(2 * DAY_MS);
  for (const t of trackings) await ctx.carrier.sendTrackingEvent(t, "delivered");
  const delivered = await waitSwap(
    handle,
    (v) => v.statename === "delivered" && !v.busy,
    "delivered",
  );
  await ctx.clock.after(4 * HOUR_MS);
  const stars = { condition: 5, packaging: 4, timeliness: 5, overall: 4 + (k % 2) };
  await handle.executeUpdate(rateSwapUpdate, {
    args: [{ actorRetailerId: receiverId, stars, comments: "A fair swap." }],
  });
  await handle.executeUpdate(rateSwapUpdate, { args: [{ actorRetailerId: providerId, stars }] });
  ctx.count("ratings");
  const closes = [
    delivered.provider.ratingBy,
    delivered.receiver.ratingBy,
    delivered.provider.rmaBy,
    delivered.receiver.rmaBy,
  ];
  await ctx.clock.until(lastOf(closes) + MINUTE_MS);
  await closed(ctx, handle);
}

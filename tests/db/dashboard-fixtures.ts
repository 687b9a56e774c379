/**
 * The surplus dashboard's fixture (database and browser tests): a brand of its own; retailer A with listings
 * 5, 45, 120 and 400 days old, a sale to B's request (its listing 20 days old, paid out by the factory's transfer), a swap with C (A's
 * listing 60 days old), a sale not approved and a sale older than twelve months (neither counted).
 * Prices are $20.00 a unit; the figures below are what A's dashboard and the brand's show.
 * Matches of the brand's listings (staff's matches per week, ADR 0030): B's request matched to the sale's
 * listing 2 minutes before the fixture (then bought: the sale), C's saved search matched to A's 5-day listing
 * 8 days before, and B's saved search matched to A's 45-day listing 100 days before (outside the 12 weeks).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  listingMatches,
  orderContributions,
  orders,
  payments,
  savedSearches,
} from "../../db/schema";
import {
  actionNeededBy,
  COMMON_STATES,
  displayStatusFor,
  TRANSACTION_TYPE,
} from "../../domain/states";
import { SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { createOrder, createOrderAt } from "../factories/orders";

const DAY = 24 * 60 * 60 * 1000;

export async function createDashboardFixture(db: Db, opts: { emailA?: string } = {}) {
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY - 60_000);
  const { brand, products } = await createWorld(db, {
    products: [{ sizes: SIZE_RUNS.apparel, colors: 2, priceCents: 2000 }],
  });
  const { variations } = products[0];
  const [v1, v2] = variations;
  const a = await createRetailer(db, {
    payout: true,
    ...(opts.emailA ? { user: { email: opts.emailA } } : {}),
  });
  const b = await createRetailer(db, { payout: true });
  const c = await createRetailer(db, { payout: true });
  for (const r of [a, b, c]) await authorizeBrand(db, r.retailer.id, brand.id);
  const A = a.retailer.id;
  const listed: { days: number; sizes: Record<string, number> }[] = [
    { days: 5, sizes: { S: 2 } },
    { days: 45, sizes: { M: 1 } },
    { days: 120, sizes: { L: 3 } },
    { days: 400, sizes: { S: 1 } },
  ];
  const listings = [];
  for (const l of listed)
    listings.push(
      await createListing(db, {
        variationId: v1.id,
        providerId: A,
        sizes: l.sizes,
        createdAt: ago(l.days),
      }),
    );
  // Sold out: the sale's and the swap's listings.
  const soldListing = await createListing(db, {
    variationId: v1.id,
    providerId: A,
    sizes: {},
    createdAt: ago(20),
  });
  const swappedListing = await createListing(db, {
    variationId: v2.id,
    providerId: A,
    sizes: {},
    listingType: "swap",
    createdAt: ago(60),
  });

  const request = await createRequest(db, {
    variationId: v1.id,
    requestorId: b.retailer.id,
    sizes: { M: 2 },
  });
  const sale = await createOrderAt(db, COMMON_STATES.DELIVERED, {
    providerId: A,
    receiverId: b.retailer.id,
    requestId: request.id,
    lines: [{ variationId: v1.id, listingId: soldListing.id, sizes: { M: 2 } }],
    deliveredAt: new Date(now - 3_600_000),
  });

  const swap = await createOrder(db, {
    providerId: c.retailer.id,
    receiverId: A,
    transactionType: TRANSACTION_TYPE.SWAP,
    statename: COMMON_STATES.DELIVERED,
    displayStatus: displayStatusFor("swap", COMMON_STATES.DELIVERED),
    actionNeeded: actionNeededBy("swap", COMMON_STATES.DELIVERED),
    stage: "delivered",
    lines: [{ variationId: v2.id, sizes: { S: 3 } }],
  });
  await db.insert(orderContributions).values({
    orderId: swap.order.id,
    side: "receiver",
    type: "goods",
    listingId: swappedListing.id,
    variationId: v2.id,
    units: { M: 1 },
    quantity: 1,
    unitPriceCents: 2000,
    valueCents: 2000,
  });
  await db
    .update(orders)
    .set({ providerFeeCents: 300, receiverFeeCents: 300, valueCents: 6000 })
    .where(eq(orders.id, swap.order.id));

  // Not counted: a sale waiting for approval, and one older than twelve months.
  await createOrderAt(db, "provider_approve_sale", {
    providerId: A,
    receiverId: b.retailer.id,
    lines: [{ variationId: v1.id, sizes: { S: 1 } }],
  });
  const old = await createOrderAt(db, COMMON_STATES.DELIVERED, {
    providerId: A,
    receiverId: b.retailer.id,
    lines: [{ variationId: v1.id, sizes: { L: 5 } }],
    createdAt: ago(400),
  });
  await db
    .update(payments)
    .set({ createdAt: ago(399) })
    .where(eq(payments.orderId, old.order.id));
  const [searchB, searchC] = await db
    .insert(savedSearches)
    .values([
      { retailerId: b.retailer.id, brandId: brand.id },
      { retailerId: c.retailer.id, brandId: brand.id },
    ])
    .returning();
  const matchedAt = {
    request: new Date(now - 120_000),
    search: new Date(now - 8 * DAY),
    old: new Date(now - 100 * DAY),
  };
  await db.insert(listingMatches).values([
    {
      retailerId: b.retailer.id,
      listingId: soldListing.id,
      requestId: request.id,
      createdAt: matchedAt.request,
    },
    {
      retailerId: c.retailer.id,
      listingId: listings[0].id,
      savedSearchId: searchC.id,
      createdAt: matchedAt.search,
    },
    {
      retailerId: b.retailer.id,
      listingId: listings[1].id,
      savedSearchId: searchB.id,
      createdAt: matchedAt.old,
    },
  ]);
  return { brand, a, b, c, sale, swap, matchedAt };
}

/** What A's dashboard shows (cents). */
export const RETAILER_A_FIGURES = {
  ages: [
    { listings: 1, units: 2, valueCents: 4000 },
    { listings: 1, units: 1, valueCents: 2000 },
    { listings: 1, units: 3, valueCents: 6000 },
    { listings: 1, units: 1, valueCents: 2000 },
  ],
  listedCents: 14_000,
  soldCents: 4000,
  swappedCents: 2000,
  payoutsCents: 4000,
  swapValuesCents: 6000,
  recoveredCents: 10_000,
  feesCents: 300,
  requestsFilled: 1,
  medianDaysToSell: 40,
};

/** What the brand's dashboard shows: A's listings and sale, both sides of the swap. */
export const BRAND_FIGURES = {
  listedCents: 14_000,
  soldCents: 4000,
  swappedCents: 8000,
  payoutsCents: 4000,
  swapValuesCents: 8000,
  recoveredCents: 12_000,
  feesCents: 600,
  requestsFilled: 1,
  medianDaysToSell: 40,
};

/**
 * The server-side cart (db/queries/cart.ts) and the hand-over to checkout (db/queries/checkout.ts
 * proceedFromCart): visibility (404), the type and swap locks, dropped items, and draft orders with the
 * right cents (goods + 10% fee half up + shipping by the table), created then updated then removed.
 */
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  addToCart,
  clearCart,
  getCart,
  getCartSummary,
  removeFromCart,
} from "../../db/queries/cart";
import { expireStaleDrafts, getDraftOrders, proceedFromCart } from "../../db/queries/checkout";
import { listAlerts } from "../../db/queries/order-views/retailer-lists";
import { listAdminOrders } from "../../db/queries/order-views/staff-lists";
import { decrementListingUnits } from "../../db/queries/listings";
import { carts, orderActions, orderContributions, orders } from "../../db/schema";
import { CART_MESSAGES, orderNumber } from "../../domain/cart";
import {
  BUY_ALREADY_THEIR_MOVE,
  CONFIGURE_PAYOUT_TEXT,
  FILL_OUT_EVERYTHING,
  LISTING_UNAVAILABLE,
  SWAP_NO_ACTIVE_LISTINGS,
  SWAP_NO_PAYOUT,
} from "../../domain/messages";
import { buyWorkflowId } from "../../workflows/buy/contract";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { authorizeBrand, createRetailer, createUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { useTestDb } from "./helpers";

const db = useTestDb(5);
const wf = { workflowIdFor: buyWorkflowId, swapWorkflowIdFor: swapWorkflowId };

let brand1: number;
let brand2: number;
let brand3: number; // nobody in these tests is authorized for it
let v1: number; // brand1, $19.99
let v2: number; // brand2, $33.33
let v3: number; // brand3

async function retailer(opts: { payout?: boolean; brands?: number[] } = {}) {
  const { retailer: r } = await createRetailer(db, { payout: opts.payout ?? true, user: false });
  for (const b of opts.brands ?? [brand1, brand2]) await authorizeBrand(db, r.id, b);
  return r;
}

beforeAll(async () => {
  const b1 = await createBrand(db);
  const b2 = await createBrand(db);
  const b3 = await createBrand(db);
  brand1 = b1.id;
  brand2 = b2.id;
  brand3 = b3.id;
  const p1 = await createProduct(db, {
    collectionId: (await createCollection(db, { brandId: brand1 })).id,
    sizes: SIZE_RUNS.apparel,
    colors: 1,
    priceCents: 1999,
  });
  const p2 = await createProduct(db, {
    collectionId: (await createCollection(db, { brandId: brand2 })).id,
    sizes: SIZE_RUNS.apparel,
    colors: 1,
    priceCents: 3333,
  });
  const p3 = await createProduct(db, {
    collectionId: (await createCollection(db, { brandId: brand3 })).id,
    sizes: SIZE_RUNS.apparel,
    colors: 1,
    priceCents: 1000,
  });
  v1 = p1.variations[0].id;
  v2 = p2.variations[0].id;
  v3 = p3.variations[0].id;
});

describe("addToCart: what a retailer may see", () => {
  it("listings it cannot see are not found (404): unknown, unauthorized brand, hidden until payout, reserved for another request", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const noPayout = await retailer({ payout: false });
    const other = await createListing(db, {
      variationId: v3,
      providerId: seller.id,
      sizes: { S: 2 },
    });
    const hidden = await createListing(db, {
      variationId: v1,
      providerId: noPayout.id,
      sizes: { S: 2 },
    });
    const req = await createRequest(db, {
      variationId: v1,
      requestorId: noPayout.id,
      sizes: { S: 1 },
    });
    const reserved = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2 },
      reservedForRequestId: req.id,
    });
    for (const listingId of [2_000_000_000, other.id, hidden.id, reserved.id]) {
      expect(await addToCart(db, buyer.id, { listingId, selection: { S: 1 } })).toEqual({
        ok: false,
        status: 404,
        message: LISTING_UNAVAILABLE,
      });
    }
    const foreignRequest = await createRequest(db, {
      variationId: v3,
      requestorId: seller.id,
      sizes: { S: 1 },
    });
    expect(
      (await addToCart(db, buyer.id, { requestId: foreignRequest.id, selection: { S: 1 } })).ok,
    ).toBe(false);
    expect(await getCart(db, buyer.id)).toEqual({ type: null, items: [], draftOrderIds: [] });
  });

  it("a visible listing goes in with the chosen sizes; never more than available; at least one size", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const l = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2, M: 1 },
    });
    expect(await addToCart(db, buyer.id, { listingId: l.id, selection: {} })).toEqual({
      ok: false,
      status: 400,
      message: "Please add at least one size.",
    });
    expect(await addToCart(db, buyer.id, { listingId: l.id, selection: { S: 3 } })).toEqual({
      ok: false,
      status: 400,
      message: CART_MESSAGES.moreThanAvailable,
    });
    const r = await addToCart(db, buyer.id, { listingId: l.id, selection: { S: 2, M: 0 } });
    expect(r.ok).toBe(true);
    expect(await getCart(db, buyer.id)).toEqual({
      type: "buy",
      items: [{ listingId: l.id, selection: { S: 2 }, providerId: seller.id, brandId: brand1 }],
      draftOrderIds: [],
    });
    // The form's tab must agree with the listing.
    expect(
      (await addToCart(db, buyer.id, { listingId: l.id, selection: { S: 1 }, type: "swap" })).ok,
    ).toBe(false);
  });

  it("own listings and requests are refused", async () => {
    const me = await retailer();
    const l = await createListing(db, { variationId: v1, providerId: me.id, sizes: { S: 2 } });
    expect(await addToCart(db, me.id, { listingId: l.id, selection: { S: 1 } })).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.ownListing,
    });
    const q = await createRequest(db, { variationId: v1, requestorId: me.id, sizes: { S: 2 } });
    expect(await addToCart(db, me.id, { requestId: q.id, selection: { S: 1 } })).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.ownRequest,
    });
  });
});

describe("the type lock and the swap lock", () => {
  it("the first item's type locks the cart until it is emptied", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const sell = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2 },
    });
    const swap = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const req = await createRequest(db, {
      variationId: v1,
      requestorId: seller.id,
      sizes: { S: 2 },
    });
    expect((await addToCart(db, buyer.id, { listingId: sell.id, selection: { S: 1 } })).ok).toBe(
      true,
    );
    expect(await addToCart(db, buyer.id, { listingId: swap.id, selection: { S: 1 } })).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.typeLocked("buy", "swap"),
    });
    expect(await addToCart(db, buyer.id, { requestId: req.id, selection: { S: 1 } })).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.typeLocked("buy", "sell"),
    });
    expect(await removeFromCart(db, buyer.id, { listingId: 999_999 })).toEqual({
      ok: false,
      status: 404,
      message: CART_MESSAGES.notInCart,
    });
    expect((await removeFromCart(db, buyer.id, { listingId: sell.id })).ok).toBe(true);
    // Empty again: any type may start it.
    const r = await addToCart(db, buyer.id, { requestId: req.id, selection: { S: 50 } });
    expect(r.ok && r.cart.type).toBe("sell");
    // Selling to a request: relaxed to 10000 per size.
    expect((await addToCart(db, buyer.id, { requestId: req.id, selection: { S: 10001 } })).ok).toBe(
      false,
    );
  });

  it("a swap cart is fixed to the first item's brand and provider", async () => {
    const me = await retailer();
    const s1 = await retailer();
    const s2 = await retailer();
    const a = await createListing(db, {
      variationId: v1,
      providerId: s1.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const sameBoth = await createListing(db, {
      variationId: v1,
      providerId: s1.id,
      sizes: { M: 2 },
      listingType: "swap",
    });
    const otherProvider = await createListing(db, {
      variationId: v1,
      providerId: s2.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const otherBrand = await createListing(db, {
      variationId: v2,
      providerId: s1.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    expect((await addToCart(db, me.id, { listingId: a.id, selection: { S: 1 } })).ok).toBe(true);
    expect((await addToCart(db, me.id, { listingId: sameBoth.id, selection: { M: 2 } })).ok).toBe(
      true,
    );
    expect(
      await addToCart(db, me.id, { listingId: otherProvider.id, selection: { S: 1 } }),
    ).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.swapProviderLocked,
    });
    expect(await addToCart(db, me.id, { listingId: otherBrand.id, selection: { S: 1 } })).toEqual({
      ok: false,
      status: 409,
      message: CART_MESSAGES.swapBrandLocked,
    });
  });
});

describe("getCartSummary", () => {
  it("names the other retailer anonymously (staff see names) and drops items that disappeared", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const l1 = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 2, M: 2 },
    });
    const l2 = await createListing(db, { variationId: v2, providerId: seller.id, sizes: { L: 1 } });
    await addToCart(db, buyer.id, { listingId: l1.id, selection: { S: 2, M: 1 } });
    await addToCart(db, buyer.id, { listingId: l2.id, selection: { L: 1 } });
    const s = await getCartSummary(db, buyer.id);
    expect(s).toMatchObject({
      type: "buy",
      itemCount: 2,
      unitCount: 4,
      goodsCents: 3 * 1999 + 3333,
      dropped: 0,
      proceedLabel: "Proceed with purchase",
    });
    expect(s.lines[0].counterpartyLabel).toBe(`retailer-00${seller.id}`);
    expect(JSON.stringify(s)).not.toContain(seller.storeName);
    expect(
      (await getCartSummary(db, buyer.id, { viewerIsStaff: true })).lines[0].counterpartyLabel,
    ).toBe(seller.storeName);

    // Another buyer takes the last L: the line is dropped (once) with a notice.
    expect(await decrementListingUnits(db, l2.id, { L: 1 })).toBe(true);
    const after = await getCartSummary(db, buyer.id);
    expect(after.dropped).toBe(1);
    expect(after.lines.map((l) => l.listingId)).toEqual([l1.id]);
    expect((await getCartSummary(db, buyer.id)).dropped).toBe(0);
  });
});

describe("proceedFromCart: buy carts become draft orders", () => {
  it("one draft per seller with goods, 10% fee (half up), shipping and total in cents; again = update; seller gone = draft removed", async () => {
    const buyer = await retailer();
    const s1 = await retailer();
    const s2 = await retailer();
    const a = await createListing(db, {
      variationId: v1,
      providerId: s1.id,
      sizes: { S: 5, M: 5 },
    });
    const b = await createListing(db, { variationId: v2, providerId: s1.id, sizes: { M: 3 } });
    const c = await createListing(db, { variationId: v2, providerId: s2.id, sizes: { M: 3 } });
    await addToCart(db, buyer.id, { listingId: a.id, selection: { S: 2, M: 1 } });
    await addToCart(db, buyer.id, { listingId: b.id, selection: { M: 1 } });
    await addToCart(db, buyer.id, { listingId: c.id, selection: { M: 3 } });

    // The store's person who proceeds is each order's "placed by" (docs/product/teams.md).
    const placer = await createUser(db, { retailerId: buyer.id });
    const first = await proceedFromCart(db, buyer.id, { ...wf, placedBy: placer.id });
    if (!first.ok || first.kind === "swap") throw new Error(JSON.stringify(first));
    expect(first.kind).toBe("buy");
    expect(first.created).toHaveLength(2);
    expect(
      (
        await db
          .select({ by: orders.placedByUserId })
          .from(orders)
          .where(inArray(orders.id, first.created))
      ).map((r) => r.by),
    ).toEqual([placer.id, placer.id]);
    expect(first.updated).toEqual([]);
    const d1 = first.drafts.find((d) => d.providerId === s1.id)!;
    const d2 = first.drafts.find((d) => d.providerId === s2.id)!;
    // Seller 1: 3 x $19.99 + 1 x $33.33 = $93.30; fee $9.33; 4 units ship $27.75; total $130.38.
    expect(d1).toMatchObject({
      receiverId: buyer.id,
      goodsCents: 9330,
      feeCents: 933,
      shippingCents: 2775,
      totalCents: 13038,
      requestId: null,
    });
    // Seller 2: 3 x $33.33 = $99.99; fee 999.9 -> $10.00 (half up); 3 units ship $23.75; total $133.74.
    expect(d2).toMatchObject({
      goodsCents: 9999,
      feeCents: 1000,
      shippingCents: 2375,
      totalCents: 13374,
    });
    expect(d1.workflowId).toBe(buyWorkflowId(d1.orderId));
    expect(d1.externalId).toBe(orderNumber(d1.orderId));

    const [row] = await db.select().from(orders).where(eq(orders.id, d1.orderId));
    expect(row).toMatchObject({
      statename: "complete_order_checkout",
      displayStatus: "Checkout Pending",
      actionNeeded: "receiver",
      transactionType: 1,
      providerId: s1.id,
      receiverId: buyer.id,
      valueCents: 9330,
      receiverFeeCents: 933,
      receiverShippingCents: 2775,
      receiverGrandTotalCents: 13038,
      authorizedCents: 0,
      completed: null,
      workflowId: `buy-order:${d1.orderId}`,
    });
    const contribs = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, d1.orderId))
      .orderBy(orderContributions.id);
    expect(
      contribs.map((x) => ({
        listingId: x.listingId,
        units: x.units,
        quantity: x.quantity,
        price: x.unitPriceCents,
        value: x.valueCents,
        side: x.side,
      })),
    ).toEqual([
      {
        listingId: a.id,
        units: { S: 2, M: 1 },
        quantity: 3,
        price: 1999,
        value: 5997,
        side: "provider",
      },
      { listingId: b.id, units: { M: 1 }, quantity: 1, price: 3333, value: 3333, side: "provider" },
    ]);
    expect((await getCart(db, buyer.id)).draftOrderIds.sort()).toEqual(
      [d1.orderId, d2.orderId].sort(),
    );

    // Change a selection and proceed again: the same drafts are updated.
    await addToCart(db, buyer.id, { listingId: c.id, selection: { M: 1 } });
    const second = await proceedFromCart(db, buyer.id, wf);
    if (!second.ok || second.kind === "swap") throw new Error(JSON.stringify(second));
    expect(second.created).toEqual([]);
    expect(second.updated.sort()).toEqual([d1.orderId, d2.orderId].sort());
    const d2b = second.drafts.find((d) => d.providerId === s2.id)!;
    expect(d2b).toMatchObject({
      orderId: d2.orderId,
      externalId: d2.externalId,
      goodsCents: 3333,
      feeCents: 333,
      shippingCents: 1975,
      totalCents: 5641,
    });
    expect(
      await db.select().from(orderContributions).where(eq(orderContributions.orderId, d2.orderId)),
    ).toHaveLength(1);

    // The review reads them back (for this buyer only).
    const views = await getDraftOrders(db, buyer.id, [d1.orderId, d2.orderId]);
    expect(views.map((v) => [v.externalId, v.totalCents, v.counterpartyLabel])).toEqual([
      [d1.externalId, 13038, `retailer-00${s1.id}`],
      [d2.externalId, 5641, `retailer-00${s2.id}`],
    ]);
    expect(await getDraftOrders(db, s2.id + 100000, [d1.orderId])).toEqual([]);

    // Seller 2 leaves the cart: its draft is removed on the next proceed.
    await removeFromCart(db, buyer.id, { listingId: c.id });
    const third = await proceedFromCart(db, buyer.id, wf);
    if (!third.ok || third.kind === "swap") throw new Error(JSON.stringify(third));
    expect(third.removed).toEqual([{ orderId: d2.orderId, workflowId: buyWorkflowId(d2.orderId) }]);
    expect(await db.select().from(orders).where(eq(orders.id, d2.orderId))).toEqual([]);

    // Start Over empties the cart and deletes the remaining draft.
    const cleared = await clearCart(db, buyer.id);
    expect(cleared.removedDrafts).toEqual([
      { orderId: d1.orderId, workflowId: buyWorkflowId(d1.orderId) },
    ]);
    expect(await getCart(db, buyer.id)).toEqual({ type: null, items: [], draftOrderIds: [] });
  });

  it("an empty cart, a vanished item, and an order already waiting for the seller are refused", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    expect(await proceedFromCart(db, buyer.id, wf)).toMatchObject({
      ok: false,
      status: 400,
      code: "empty",
    });
    const l = await createListing(db, { variationId: v1, providerId: seller.id, sizes: { S: 2 } });
    await addToCart(db, buyer.id, { listingId: l.id, selection: { S: 2 } });
    // An order for the same listing already waits for this seller's answer.
    const [o] = await db
      .insert(orders)
      .values({
        externalId: `T-${l.id}`,
        workflowId: `t-${l.id}`,
        transactionType: 1,
        providerId: seller.id,
        receiverId: buyer.id,
        statename: "provider_approve_sale",
        displayStatus: "Awaiting Approval",
      })
      .returning();
    await db.insert(orderContributions).values({
      orderId: o.id,
      side: "provider",
      listingId: l.id,
      variationId: v1,
      units: { S: 1 },
      quantity: 1,
    });
    expect(await proceedFromCart(db, buyer.id, wf)).toEqual({
      ok: false,
      status: 409,
      code: "already_transacting",
      message: BUY_ALREADY_THEIR_MOVE,
    });
    await db.delete(orders).where(eq(orders.id, o.id));
    // The listing sells out before checkout: dropped, with the notice.
    await decrementListingUnits(db, l.id, { S: 2 });
    expect(await proceedFromCart(db, buyer.id, wf)).toEqual({
      ok: false,
      status: 409,
      code: "dropped",
      message: CART_MESSAGES.itemDropped,
    });
    expect((await getCart(db, buyer.id)).items).toEqual([]);
  });
});

describe("proceedFromCart: swap and sell carts", () => {
  it("swap: needs payout and an active listing of the brand; then one swap draft of the cart (proceeding again replaces it); the cart is kept", async () => {
    const other = await retailer();
    const theirs = await createListing(db, {
      variationId: v1,
      providerId: other.id,
      sizes: { S: 2 },
      listingType: "swap",
    });
    const noPayout = await retailer({ payout: false });
    await addToCart(db, noPayout.id, { listingId: theirs.id, selection: { S: 1 } });
    expect(await proceedFromCart(db, noPayout.id, wf)).toEqual({
      ok: false,
      status: 403,
      code: "no_payout",
      message: SWAP_NO_PAYOUT,
    });

    const me = await retailer();
    await addToCart(db, me.id, { listingId: theirs.id, selection: { S: 1 } });
    expect(await proceedFromCart(db, me.id, wf)).toEqual({
      ok: false,
      status: 403,
      code: "no_active_listings",
      message: SWAP_NO_ACTIVE_LISTINGS,
    });
    await createListing(db, { variationId: v2, providerId: me.id, sizes: { S: 1 } }); // another brand: not enough
    expect((await proceedFromCart(db, me.id, wf)).ok).toBe(false);
    await createListing(db, { variationId: v1, providerId: me.id, sizes: { S: 1 } });
    const first = await proceedFromCart(db, me.id, wf);
    expect(first).toMatchObject({
      ok: true,
      kind: "swap",
      swap: {
        providerId: other.id,
        receiverId: me.id,
        providerLines: [{ listingId: theirs.id, sizes: { S: 1 }, unitPriceCents: 1999 }],
      },
    });
    const again = await proceedFromCart(db, me.id, wf);
    expect(again.ok && again.kind === "swap" ? again.swap.orderId : null).not.toBe(
      first.ok && first.kind === "swap" ? first.swap.orderId : null,
    );
    expect((await getCart(db, me.id)).items).toHaveLength(1);
    const rows = await db.select().from(orders).where(eq(orders.receiverId, me.id));
    expect(rows.map((o) => [o.transactionType, o.statename, o.workflowId])).toEqual([
      [2, "complete_order_checkout", `swap-order:${rows[0].id}`],
    ]);
  });

  it("sell: needs payout and the info dialog; the offer is a draft with the seller as provider", async () => {
    const requestor = await retailer();
    const req = await createRequest(db, {
      variationId: v2,
      requestorId: requestor.id,
      sizes: { S: 2, M: 1 },
    });
    const noPayout = await retailer({ payout: false });
    await addToCart(db, noPayout.id, { requestId: req.id, selection: { S: 2 } });
    expect(
      await proceedFromCart(db, noPayout.id, {
        ...wf,
        sellInfo: { reason: "overstock", floorTime: "0-30" },
      }),
    ).toEqual({
      ok: false,
      status: 403,
      code: "payout_required",
      message: CONFIGURE_PAYOUT_TEXT,
    });

    const sellerR = await retailer();
    await addToCart(db, sellerR.id, { requestId: req.id, selection: { S: 2 } });
    expect(await proceedFromCart(db, sellerR.id, wf)).toEqual({
      ok: false,
      status: 400,
      code: "sell_info_required",
      message: FILL_OUT_EVERYTHING,
    });
    const out = await proceedFromCart(db, sellerR.id, {
      ...wf,
      sellInfo: { reason: "overstock", floorTime: "61-90" },
    });
    if (!out.ok || out.kind !== "sell") throw new Error(JSON.stringify(out));
    expect(out.drafts).toHaveLength(1);
    expect(out.drafts[0]).toMatchObject({
      providerId: sellerR.id,
      receiverId: requestor.id,
      requestId: req.id,
      goodsCents: 6666,
      feeCents: 667,
      shippingCents: 2375,
    });
    const [row] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, out.drafts[0].orderId)));
    expect(row).toMatchObject({
      floorTime: "61-90",
      reasons: { sell_reason: "overstock" },
      statename: "complete_order_checkout",
    });
    const views = await getDraftOrders(db, sellerR.id, [row.id]);
    expect(views[0]).toMatchObject({
      kind: "sell",
      counterpartyLabel: `retailer-00${requestor.id}`,
    });
  });
});

describe('drafts never checked out expire after 24 hours (docs/product/windows.md, "Checkout")', () => {
  it("a backdated cart draft is expired at once in every list, then written down (301, out of the cart); proceeding makes a new draft", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const listing = await createListing(db, {
      variationId: v1,
      providerId: seller.id,
      sizes: { S: 3 },
    });
    expect((await addToCart(db, buyer.id, { listingId: listing.id, selection: { S: 1 } })).ok).toBe(
      true,
    );
    const out = await proceedFromCart(db, buyer.id, wf);
    if (!out.ok || out.kind === "swap") throw new Error("expected drafts");
    const [id] = out.created;
    const pendingIds = async () =>
      (
        await listAlerts(db, buyer.id, { kind: "purchases", view: "pending", limit: 100 })
      ).items.map((o) => o.id);
    const staffPending = async () =>
      (await listAdminOrders(db, { stage: "pre_shipping", limit: 100 })).items.map((o) => o.id);
    expect(await pendingIds()).toContain(id);
    expect(await staffPending()).toContain(id);
    // 23 hours old: still a draft.
    await db
      .update(orders)
      .set({ modifiedAt: new Date(Date.now() - 23 * 3_600_000) })
      .where(eq(orders.id, id));
    expect(await expireStaleDrafts(db)).not.toContain(id);
    expect(await staffPending()).toContain(id);

    // 25 hours old: expired in the lists before anything writes it down.
    await db
      .update(orders)
      .set({ modifiedAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(orders.id, id));
    expect(await pendingIds()).not.toContain(id);
    expect(await staffPending()).not.toContain(id);

    // The sweep writes it down, once.
    expect(await expireStaleDrafts(db)).toContain(id);
    expect(await expireStaleDrafts(db)).not.toContain(id);
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({
      statename: "expired",
      displayStatus: "Expired",
      stage: "declined",
      actionNeeded: null,
    });
    expect(row.reasons).toMatchObject({ system_reason: 41 });
    expect(
      (await db.select().from(orderActions).where(eq(orderActions.orderId, id))).map((a) => [
        a.code,
        a.role,
      ]),
    ).toEqual([[301, "system"]]);
    const [cart] = await db.select().from(carts).where(eq(carts.retailerId, buyer.id));
    expect(cart.draftOrderIds).toEqual([]);
    expect(cart.items).toHaveLength(1);
    expect(
      (await listAdminOrders(db, { stage: "declined", limit: 100 })).items.map((o) => o.id),
    ).toContain(id);
    expect(
      (
        await listAlerts(db, buyer.id, { kind: "purchases", view: "declined", limit: 100 })
      ).items.map((o) => o.id),
    ).not.toContain(id);

    // The cart is kept: proceeding again makes a new draft, the expired one stays expired.
    const again = await proceedFromCart(db, buyer.id, wf);
    if (!again.ok || again.kind === "swap") throw new Error("expected drafts");
    expect(again.created).toHaveLength(1);
    expect(again.created[0]).not.toBe(id);
    expect((await db.select().from(orders).where(eq(orders.id, id)))[0].statename).toBe("expired");
  });

  it("proceeding with a cart whose draft is stale expires it first (not rewritten, not deleted)", async () => {
    const buyer = await retailer();
    const seller = await retailer();
    const listing = await createListing(db, {
      variationId: v2,
      providerId: seller.id,
      sizes: { M: 2 },
    });
    await addToCart(db, buyer.id, { listingId: listing.id, selection: { M: 2 } });
    const out = await proceedFromCart(db, buyer.id, wf);
    if (!out.ok || out.kind === "swap") throw new Error("expected drafts");
    const [id] = out.created;
    await db
      .update(orders)
      .set({ modifiedAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(orders.id, id));
    const again = await proceedFromCart(db, buyer.id, wf);
    if (!again.ok || again.kind === "swap") throw new Error("expected drafts");
    expect(again.updated).toEqual([]);
    expect(again.created).toHaveLength(1);
    expect((await db.select().from(orders).where(eq(orders.id, id)))[0].statename).toBe("expired");
  });
});

/**
 * An inactive or pending retailer cannot trade anywhere, checked on the server in one place
 * (assertMayTrade / requireTradingRetailer of app/utils/auth.server.ts): cart add / proceed, checkout, pay,
 * selling to a request, swap, and order commands. An inactive retailer gets a 403 with a plain message; a
 * pending one is sent to its status page (/wait-for-activation/). Nothing is saved: the cart, the orders,
 * their actions and the card on file are compared before and after.
 */
import { eq, or, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "./harness";
import { addToCart } from "../../db/queries/cart";
import { carts, orderActions, orders, paymentMethods } from "../../db/schema";
import { MSG } from "../../domain/accounts";
import { createBrand, createCollection, createProduct, SIZE_RUNS } from "../factories/catalogue";
import { authorizeBrand, createRetailer, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { createOrderAt } from "../factories/orders";
import { freshEmail, htmlDecode, HttpClient } from "./http";

type Who = {
  label: "inactive" | "pending";
  id: number;
  client: HttpClient;
  buyListing: number;
  swapListing: number;
  request: number;
  sale: number;
  purchase: number;
};
const who: Who[] = [];

const TEST_CARD = {
  card_choice: "new",
  card_number: "4242424242424242",
  card_expiry: "12/34",
  card_cvc: "123",
};

beforeAll(async () => {
  const brand = (await createBrand(db())).id;
  const variations = (
    await createProduct(db(), {
      collectionId: (await createCollection(db(), { brandId: brand })).id,
      sizes: SIZE_RUNS.apparel,
      colors: 3,
      priceCents: 2500,
    })
  ).variations;
  const other = (await createRetailer(db(), { payout: true, user: false })).retailer;
  await authorizeBrand(db(), other.id, brand);
  for (const label of ["inactive", "pending"] as const) {
    const email = freshEmail(`trade-${label}`);
    const me = (await createRetailer(db(), { status: label, payout: true, user: { email } }))
      .retailer;
    await authorizeBrand(db(), me.id, brand);
    const buyListing = (
      await createListing(db(), {
        variationId: variations[0].id,
        providerId: other.id,
        sizes: { M: 3 },
      })
    ).id;
    const swapListing = (
      await createListing(db(), {
        variationId: variations[1].id,
        providerId: other.id,
        sizes: { M: 3 },
        listingType: "swap",
      })
    ).id;
    const request = (
      await createRequest(db(), {
        variationId: variations[2].id,
        requestorId: other.id,
        sizes: { M: 2 },
      })
    ).id;
    // An order it sells (waiting for its answer) and one it buys (waiting for its checkout).
    const sale = (
      await createOrderAt(db(), "provider_approve_sale", {
        providerId: me.id,
        receiverId: other.id,
        lines: [{ variationId: variations[0].id, sizes: { M: 1 } }],
      })
    ).order.id;
    const purchase = (
      await createOrderAt(db(), "complete_order_checkout", {
        providerId: other.id,
        receiverId: me.id,
        lines: [{ variationId: variations[0].id, sizes: { M: 1 } }],
      })
    ).order.id;
    // A cart filled while it could still trade.
    const added = await addToCart(db(), me.id, { listingId: buyListing, selection: { M: 1 } });
    expect(added.ok).toBe(true);
    const client = new HttpClient();
    await client.signIn(email, DEFAULT_TEST_PASSWORD);
    who.push({ label, id: me.id, client, buyListing, swapListing, request, sale, purchase });
  }
});

/** Everything a trading request could change for this retailer. */
async function snapshot(retailerId: number) {
  const os = await db()
    .select()
    .from(orders)
    .where(or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)))
    .orderBy(orders.id);
  const actions = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(orderActions)
    .where(
      sql`${orderActions.orderId} IN (SELECT id FROM orders WHERE provider_id = ${retailerId} OR receiver_id = ${retailerId})`,
    );
  const [cart] = await db().select().from(carts).where(eq(carts.retailerId, retailerId));
  const cards = await db()
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.retailerId, retailerId));
  return {
    orders: os.map((o) => ({
      id: o.id,
      statename: o.statename,
      modifiedAt: o.modifiedAt.toISOString(),
      authorizedCents: o.authorizedCents,
    })),
    actions: actions[0].n,
    cart: cart ? { type: cart.type, items: cart.items, draftOrderIds: cart.draftOrderIds } : null,
    cards: cards.length,
  };
}

function expectRefused(
  w: Who,
  r: { status: number; location: string | null; body: string },
  what: string,
) {
  if (w.label === "inactive") {
    expect(r.status, `${what}: ${r.body.slice(0, 200)}`).toBe(403);
    expect(htmlDecode(r.body)).toContain(MSG.notTrading);
  } else {
    expect([302, 303], `${what}: ${r.status} ${r.body.slice(0, 200)}`).toContain(r.status);
    expect(r.location, what).toBe("/wait-for-activation/");
  }
}

describe.each(["inactive", "pending"] as const)("a %s retailer cannot trade", (label) => {
  const w = () => who.find((x) => x.label === label)!;

  it("cart: add (buy, swap, sell to a request), proceed, remove and Start Over are refused; nothing saved", async () => {
    const me = w();
    const before = await snapshot(me.id);
    const attempts: [string, Record<string, string | number>][] = [
      ["add to buy", { intent: "add", listingId: me.buyListing, "size.M": 2, returnTo: "/buy" }],
      ["add to swap", { intent: "add", listingId: me.swapListing, "size.M": 1, returnTo: "/swap" }],
      [
        "sell to a request",
        { intent: "add", requestId: me.request, "size.M": 1, returnTo: "/sell" },
      ],
      ["proceed", { intent: "proceed", terms: "on" }],
      ["remove", { intent: "remove", listingId: me.buyListing }],
      ["start over", { intent: "clear", returnTo: "/cart" }],
    ];
    for (const [what, fields] of attempts)
      expectRefused(me, await me.client.postForm("/cart", fields), what);
    expect(await snapshot(me.id)).toEqual(before);
  });

  it("checkout: the page, proceed (buy terms, the sell dialog) and the review are refused; no draft order is made", async () => {
    const me = w();
    const before = await snapshot(me.id);
    expectRefused(me, await me.client.get("/checkout"), "GET /checkout");
    expectRefused(
      me,
      await me.client.postForm("/checkout", { intent: "proceed", terms: "on" }),
      "buy proceed",
    );
    expectRefused(
      me,
      await me.client.postForm("/checkout", {
        intent: "proceed",
        terms: "on",
        reason: "overstock",
        floor_time: "0-30",
        ...TEST_CARD,
      }),
      "sell proceed",
    );
    expectRefused(me, await me.client.get("/checkout/review"), "GET /checkout/review");
    expect(await snapshot(me.id)).toEqual(before);
  });

  it("pay: the card step of an order awaiting its checkout is refused; no workflow, no authorisation, no card saved", async () => {
    const me = w();
    const before = await snapshot(me.id);
    expectRefused(me, await me.client.get(`/checkout/pay?order=${me.purchase}`), "GET pay");
    expectRefused(
      me,
      await me.client.postForm(`/checkout/pay?order=${me.purchase}`, TEST_CARD),
      "POST pay",
    );
    expect(await snapshot(me.id)).toEqual(before);
  });

  it("order commands on its sale and its purchase are refused before anything is sent", async () => {
    const me = w();
    const before = await snapshot(me.id);
    const commands: [number, Record<string, string>][] = [
      [me.sale, { intent: "respond" }],
      [me.sale, { intent: "decline", reason: "12" }],
      [
        me.sale,
        {
          intent: "add_card",
          card_number: "4242424242424242",
          card_expiry: "12/34",
          card_cvc: "123",
        },
      ],
      [me.sale, { intent: "cancel_shipment", reason: "50" }],
      [
        me.purchase,
        {
          intent: "complete_checkout",
          card_number: "4242424242424242",
          card_expiry: "12/34",
          card_cvc: "123",
        },
      ],
      [me.purchase, { intent: "decline_checkout", reason: "0" }],
      [me.purchase, { intent: "approve_modified" }],
    ];
    for (const [id, fields] of commands)
      expectRefused(
        me,
        await me.client.postForm(`/transaction/buy/${id}`, fields),
        `${fields.intent} on ${id}`,
      );
    expect(await snapshot(me.id)).toEqual(before);
  });
});

/**
 * Offers in the database (db/queries/offers.ts; docs/product/offers.md): an offer made at the listing's current
 * price and units, the refusals (a message, a 4xx, nothing written), one open offer per buyer and listing even
 * when two arrive together, the workflow's write after a turn, what each side sees (the other anonymous, a third
 * retailer nothing), the open offers whose units another order took, and the offer's activities on the sandbox
 * provider (the hold and its release, the purchase at the agreed price written once, the e-mails anonymous).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  getOfferForRetailer,
  listOffersForRetailer,
  makeOffer,
  openOffersOutOfUnits,
  saveOfferState,
} from "../../db/queries/offers";
import { createOfferActivities } from "../../activities/offer";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { getAuthorizationByIntent } from "../../db/queries/payments";
import { listings, offers, orderContributions, orders, outboxEmails } from "../../db/schema";
import { applyOfferCommand, OFFER_MESSAGES, offerHoldCents } from "../../domain/offers";
import { createSellerWithListing, sandboxBuyActivities, visaOnFile } from "./buy-fixtures";
import { createRetailer } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb(3);
const AT = "2026-03-06T20:00:00.000Z";
const workflowIdFor = (id: number) => `offer:${id}`;

/** A seller's listing of { S: 2, M: 3 } at $40.00, and a buyer. */
async function world() {
  const f = await createSellerWithListing(db, { catalogueCents: 4000 });
  const buyer = await createRetailer(db, { payout: true });
  return { f, listingId: f.listing.id, sellerId: f.seller.retailer.id, buyerId: buyer.retailer.id };
}

/** The buyer's offer of $30.00 for one M, with `change`. */
function offerOn(
  listingId: number,
  buyerId: number,
  change: Partial<Parameters<typeof makeOffer>[1]> = {},
) {
  return makeOffer(db, {
    listingId,
    buyerId,
    offeredUnitCents: 3000,
    sizes: { M: 1 },
    at: AT,
    workflowIdFor,
    ...change,
  });
}

async function offerCount(listingId: number) {
  return (await db.select().from(offers).where(eq(offers.listingId, listingId))).length;
}

describe("making an offer", () => {
  it("writes it open, the seller's turn, held for the quote at its price", async () => {
    const w = await world();
    const made = await offerOn(w.listingId, w.buyerId, { sizes: { M: 2, S: 0 } });
    if (!made.ok) throw new Error(made.message);
    expect(made).toMatchObject({
      sellerId: w.sellerId,
      workflowId: `offer:${made.offerId}`,
      holdCents: offerHoldCents({ M: 2 }, 3000),
    });
    const [row] = await db.select().from(offers).where(eq(offers.id, made.offerId));
    expect(row).toMatchObject({
      status: "open",
      turn: "seller",
      sizes: { M: 2 },
      units: 2,
      listedUnitCents: 4000,
      buyerUnitCents: 3000,
      workflowId: `offer:${made.offerId}`,
    });
    expect(row.deadline.toISOString()).toBe("2026-03-10T19:00:00.000Z");
  });

  it.each([
    ["at the listed price", { offeredUnitCents: 4000 }, 400, OFFER_MESSAGES.notBelow(4000)],
    ["above it", { offeredUnitCents: 9000 }, 400, OFFER_MESSAGES.notBelow(4000)],
    ["for more units than listed", { sizes: { M: 4 } }, 400, OFFER_MESSAGES.tooManyUnits],
    ["for no units", { sizes: {} }, 400, OFFER_MESSAGES.noUnits],
  ])("refuses an offer %s, writing nothing", async (_, change, status, message) => {
    const w = await world();
    const made = await offerOn(w.listingId, w.buyerId, change);
    expect(made).toEqual({ ok: false, status, message });
    expect(await offerCount(w.listingId)).toBe(0);
  });

  it("refuses the seller's offer on its own listing (403) and an unknown listing (404)", async () => {
    const w = await world();
    const own = await offerOn(w.listingId, w.sellerId);
    expect(own).toEqual({ ok: false, status: 403, message: OFFER_MESSAGES.ownListing });
    const none = await offerOn(2_000_000_000, w.buyerId);
    expect(none).toMatchObject({ ok: false, status: 404 });
    expect(await offerCount(w.listingId)).toBe(0);
  });

  it("reads the listing's current (marked-down) price", async () => {
    const w = await world();
    await db.update(listings).set({ ownPriceCents: 3500 }).where(eq(listings.id, w.listingId));
    const made = await offerOn(w.listingId, w.buyerId, { offeredUnitCents: 3600 });
    expect(made).toEqual({ ok: false, status: 400, message: OFFER_MESSAGES.notBelow(3500) });
  });

  it("keeps one open offer per buyer and listing, even for two at once", async () => {
    const w = await world();
    const offer = () => offerOn(w.listingId, w.buyerId);
    const both = await Promise.all([offer(), offer()]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.find((r) => !r.ok)).toEqual({
      ok: false,
      status: 409,
      message: OFFER_MESSAGES.alreadyOpen,
    });
    expect(await offerCount(w.listingId)).toBe(1);
    // Once closed, the buyer may offer again.
    const first = both.find((r) => r.ok)!;
    if (!first.ok) throw new Error("unreachable");
    const declined = applyOfferCommand(first.state, {
      kind: "decline",
      by: "seller",
      at: "2026-03-09T15:00:00.000Z",
    });
    if (!declined.ok) throw new Error(declined.message);
    await saveOfferState(db, first.offerId, declined.state);
    expect((await offer()).ok).toBe(true);
  });
});

describe("what each side sees", () => {
  it("the other side anonymous, a third retailer nothing; the lists by side", async () => {
    const w = await world();
    const made = await offerOn(w.listingId, w.buyerId, { sizes: { S: 1 } });
    if (!made.ok) throw new Error(made.message);
    const countered = applyOfferCommand(made.state, {
      kind: "counter",
      by: "seller",
      unitPriceCents: 3500,
      at: "2026-03-09T15:00:00.000Z",
    });
    if (!countered.ok) throw new Error(countered.message);
    await saveOfferState(db, made.offerId, countered.state);

    const buyerView = await getOfferForRetailer(db, made.offerId, w.buyerId);
    expect(buyerView).toMatchObject({
      side: "buyer",
      counterpart: `retailer-00${w.sellerId}`,
      turn: "buyer",
      tableUnitCents: 3500,
      choices: { accept: true, decline: true, counter: true, withdraw: true },
    });
    const sellerView = await getOfferForRetailer(db, made.offerId, w.sellerId);
    expect(sellerView).toMatchObject({
      side: "seller",
      counterpart: `retailer-00${w.buyerId}`,
      choices: { accept: false, decline: false, counter: false, withdraw: false },
    });
    expect(JSON.stringify(sellerView)).not.toContain(w.f.seller.retailer.storeName ?? "§");
    const stranger = await createRetailer(db, {});
    expect(await getOfferForRetailer(db, made.offerId, stranger.retailer.id)).toBeNull();

    expect(
      (await listOffersForRetailer(db, w.buyerId, { side: "buyer" })).map((o) => o.id),
    ).toEqual([made.offerId]);
    expect(await listOffersForRetailer(db, w.buyerId, { side: "seller" })).toEqual([]);
    expect((await listOffersForRetailer(db, w.sellerId)).map((o) => o.id)).toContain(made.offerId);
  });
});

describe("units another order takes", () => {
  /** Two open offers on a listing of three M: one for one M, another retailer's for all three. */
  async function smallAndBigOffers() {
    const w = await world();
    const small = await offerOn(w.listingId, w.buyerId);
    const other = await createRetailer(db, { payout: true });
    const big = await offerOn(w.listingId, other.retailer.id, { sizes: { M: 3 } });
    if (!small.ok || !big.ok) throw new Error("offers refused");
    return { w, big };
  }

  it("finds the open offers the listing's units no longer cover", async () => {
    const { w, big } = await smallAndBigOffers();
    expect(await openOffersOutOfUnits(db, w.listingId)).toEqual([]);
    // A purchase took two M.
    await db
      .update(listings)
      .set({ sizes: { S: 2, M: 1 }, totalUnits: 3 })
      .where(eq(listings.id, w.listingId));
    expect(await openOffersOutOfUnits(db, w.listingId)).toEqual([
      { offerId: big.offerId, workflowId: big.workflowId },
    ]);
  });

  it("an order's approval taking the units tells those offers at once; a failure to tell does not stop it", async () => {
    const { w, big } = await smallAndBigOffers();
    const told: string[] = [];
    const take = (tell: (id: string) => Promise<void>, key: string) =>
      sandboxBuyActivities(db, { tellOfferUnitsTaken: tell }).decrementStock({
        idempotencyKey: key,
        orderId: 0,
        lines: [{ listingId: w.listingId, sizes: { M: 1 }, unitPriceCents: 4000 }],
      });
    // The first order takes one M of three: the offer for three is out of units, the offer for one is not.
    expect(await take(async (id) => void told.push(id), `${big.workflowId}:t1`)).toEqual({
      ok: true,
    });
    expect(told).toEqual([big.workflowId]);
    // Telling fails (Temporal unreachable): the units are still taken, the order goes on.
    const failing = async () => {
      throw new Error("unreachable");
    };
    expect(await take(failing, `${big.workflowId}:t2`)).toEqual({ ok: true });
    const [row] = await db.select().from(listings).where(eq(listings.id, w.listingId));
    expect(row.sizes).toMatchObject({ M: 1 });
  });
});

describe("the offer's activities", () => {
  it("hold and release on the buyer's card, the purchase at the agreed price once, anonymous e-mails", async () => {
    const w = await world();
    await visaOnFile(db, w.buyerId);
    const made = await offerOn(w.listingId, w.buyerId, { sizes: { M: 2 } });
    if (!made.ok) throw new Error(made.message);
    const act = createOfferActivities({
      db,
      payments: new SandboxPayments(db),
      appOrigin: "http://localhost:3000",
    });
    const key = `${made.workflowId}:hold:1`;
    const hold = await act.holdOfferCard({
      offerId: made.offerId,
      buyerId: w.buyerId,
      amountCents: made.holdCents,
      idempotencyKey: key,
    });
    expect(hold.reference).toMatch(/^pi_/);
    // The same key again is the same hold.
    expect(
      await act.holdOfferCard({
        offerId: made.offerId,
        buyerId: w.buyerId,
        amountCents: made.holdCents,
        idempotencyKey: key,
      }),
    ).toEqual(hold);

    const purchase = {
      offerId: made.offerId,
      unitPriceCents: 3200,
      hold: { reference: hold.reference, amountCents: made.holdCents, idempotencyKey: key },
    };
    const first = (await act.createOfferPurchase(purchase))!;
    const again = await act.createOfferPurchase(purchase);
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      providerId: w.sellerId,
      receiverId: w.buyerId,
      workflowId: `buy-order:${first.orderId}`,
      line: { listingId: w.listingId, sizes: { M: 2 }, unitPriceCents: 3200 },
    });
    const [order] = await db.select().from(orders).where(eq(orders.id, first.orderId));
    expect(order).toMatchObject({ valueCents: 6400, receiverFeeCents: 640 });
    const lines = await db
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, first.orderId));
    expect(lines).toHaveLength(1);
    const [row] = await db.select().from(offers).where(eq(offers.id, made.offerId));
    expect(row.orderId).toBe(first.orderId);
    // The hold is the order's authorisation: the purchase captures against it.
    expect(await getAuthorizationByIntent(db, hold.reference)).toMatchObject({
      orderId: first.orderId,
      retailerId: w.buyerId,
      amountCents: made.holdCents,
      status: "requires_capture",
      lastFour: "4242",
    });

    // Another offer, whose units a purchase then took: no order.
    const other = await createRetailer(db, { payout: true });
    const late = await offerOn(w.listingId, other.retailer.id, { sizes: { S: 2 } });
    if (!late.ok) throw new Error(late.message);
    await db
      .update(listings)
      .set({ sizes: { S: 1, M: 3 }, totalUnits: 4 })
      .where(eq(listings.id, w.listingId));
    expect(
      await act.createOfferPurchase({ ...purchase, offerId: late.offerId, unitPriceCents: 3000 }),
    ).toBeNull();

    // A hold is released without capture (a sandbox call; the order's capture would use it instead).
    await act.releaseOfferHold({
      reference: hold.reference,
      idempotencyKey: `${made.workflowId}:release:1`,
    });
    // The step's state and its e-mail in one write; the same step again writes no second e-mail.
    const notices = [
      { to: "seller" as const, what: "offer" as const, dedupeKey: `${made.workflowId}:notify:1` },
    ];
    await act.saveOffer({ offerId: made.offerId, state: made.state, notices });
    await act.saveOffer({ offerId: made.offerId, state: made.state, notices });
    const mails = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "offer_offer"));
    const mine = mails.filter((m) => m.bodyText.includes(`/offers/${made.offerId}`));
    expect(mine).toHaveLength(1);
    expect(mine[0].bodyText).toContain(
      `New offer on your listing: 2 units, $30.00 a unit, with retailer-00${w.buyerId}.`,
    );
    expect(mine[0].bodyText).not.toMatch(/Store|@/);
  });

  it("no card on file: the hold fails as a declined card, not retried", async () => {
    const w = await world();
    const act = createOfferActivities({
      db,
      payments: new SandboxPayments(db),
      appOrigin: "http://localhost:3000",
    });
    await expect(
      act.holdOfferCard({ offerId: 1, buyerId: w.buyerId, amountCents: 100, idempotencyKey: "k" }),
    ).rejects.toMatchObject({ type: "OfferCardDeclined", nonRetryable: true });
  });
});

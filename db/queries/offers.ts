/**
 * Offers below the listed price (docs/product/offers.md; ADR 0056): making one (refusals write nothing), the
 * offer workflow's read-model write after each turn, an offer as one side sees it (the other side anonymous),
 * the /alerts and /orders lists, and the open offers whose units another order took.
 *
 * The workflow id comes from the caller (offerWorkflowId of workflows/offer/contract.ts): db/ does not import
 * workflows/.
 */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { dbErrorCode } from "../errors";
import { beginPayment, completePayment, PAYMENT_NAMES } from "./payments";
import {
  listings,
  offers,
  orderContributions,
  orders,
  payments,
  productVariations,
} from "../schema";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { orderNumber } from "../../domain/cart";
import type { Cents } from "../../domain/money";
import {
  checkNewOffer,
  newOffer,
  offerChoices,
  offerHoldCents,
  OFFER_MESSAGES,
  type Calendar,
  type OfferSide,
  type OfferState,
  type OfferPurchase,
  type OfferStatus,
} from "../../domain/offers";
import { orderQuote, type OrderLine, type Sizes } from "../../domain/order-money";
import { totalUnitsOfSizes } from "../../domain/shipping";
import {
  actionNeededBy,
  BUY_STATES,
  displayStatusFor,
  TRANSACTION_TYPE,
} from "../../domain/states";

export type OfferRow = typeof offers.$inferSelect;

export type MakeOfferResult =
  | {
      ok: true;
      offerId: number;
      workflowId: string;
      sellerId: number;
      variationId: number;
      holdCents: Cents;
      state: OfferState;
    }
  | { ok: false; status: 400 | 403 | 404 | 409; message: string };

const NOT_FOUND = "This listing is not available.";

/**
 * The buyer's offer on a visible sell listing at `at` (an ISO instant): checked against the listing's current
 * price and units (domain/offers checkNewOffer) under a lock of the listing row, then written open with the
 * seller's turn and its deadline. Refused with a 4xx and a message, nothing written, otherwise.
 */
export async function makeOffer(
  db: Db,
  input: {
    listingId: number;
    buyerId: number;
    /** The buyer's user making it (its purchase's "placed by", docs/product/teams.md). */
    buyerUserId?: number | null;
    offeredUnitCents: number;
    sizes: Sizes;
    at: string;
    workflowIdFor: (offerId: number) => string;
    calendar?: Calendar;
  },
): Promise<MakeOfferResult> {
  try {
    return await db.transaction(async (tx) => {
      const listing = await listingOfOffer(tx, input.listingId, true);
      if (!listing || listing.status !== "active" || listing.totalUnits <= 0)
        return { ok: false, status: 404, message: NOT_FOUND } as const;
      const open = await hasOpenOffer(tx, input.listingId, input.buyerId);
      const check = checkNewOffer({
        buyerId: input.buyerId,
        sellerId: listing.providerId,
        listingType: listing.listingType,
        listedUnitCents: listing.priceCents,
        offeredUnitCents: input.offeredUnitCents,
        sizes: input.sizes,
        availableSizes: listing.sizes as Sizes,
        hasOpenOffer: open,
      });
      if (!check.ok) {
        const status =
          check.message === OFFER_MESSAGES.ownListing
            ? 403
            : check.message === OFFER_MESSAGES.alreadyOpen
              ? 409
              : 400;
        return { ok: false, status, message: check.message } as const;
      }
      const state = newOffer(
        {
          listedUnitCents: listing.priceCents,
          offeredUnitCents: input.offeredUnitCents,
          sizes: check.sizes,
          at: input.at,
        },
        input.calendar,
      );
      const holdCents = offerHoldCents(check.sizes, input.offeredUnitCents);
      const [row] = await tx
        .insert(offers)
        .values({
          listingId: input.listingId,
          buyerId: input.buyerId,
          buyerUserId: input.buyerUserId ?? null,
          sellerId: listing.providerId,
          sizes: check.sizes,
          units: totalUnitsOfSizes(check.sizes),
          holdCents,
          ...stateColumns(state),
          createdAt: new Date(input.at),
        })
        .returning({ id: offers.id });
      const workflowId = input.workflowIdFor(row.id);
      await tx.update(offers).set({ workflowId }).where(eq(offers.id, row.id));
      return {
        ok: true,
        offerId: row.id,
        workflowId,
        sellerId: listing.providerId,
        variationId: listing.variationId,
        holdCents,
        state,
      } as const;
    });
  } catch (e) {
    // Two offers of the same buyer at once: the partial unique index keeps one.
    if (dbErrorCode(e) === "23505")
      return { ok: false, status: 409, message: OFFER_MESSAGES.alreadyOpen };
    throw e;
  }
}

/** A listing's side of an offer: seller, price, units and visibility (locked for share when `lock`). */
async function listingOfOffer(tx: DbOrTx, listingId: number, lock = false) {
  const q = tx
    .select({
      id: listings.id,
      providerId: listings.providerId,
      variationId: listings.variationId,
      listingType: listings.listingType,
      priceCents: listings.priceCents,
      sizes: listings.sizes,
      totalUnits: listings.totalUnits,
      status: listings.status,
    })
    .from(listings)
    .where(eq(listings.id, listingId));
  const [row] = lock ? await q.for("share") : await q;
  return row ?? null;
}

async function hasOpenOffer(tx: DbOrTx, listingId: number, buyerId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: offers.id })
    .from(offers)
    .where(
      and(eq(offers.listingId, listingId), eq(offers.buyerId, buyerId), eq(offers.status, "open")),
    )
    .limit(1);
  return Boolean(row);
}

function stateColumns(state: OfferState) {
  return {
    listedUnitCents: state.listedUnitCents,
    buyerUnitCents: state.buyerUnitCents,
    tableUnitCents: state.tableUnitCents,
    agreedUnitCents: state.agreedUnitCents,
    status: state.status,
    turn: state.turn,
    sellerCounters: state.sellerCounters,
    buyerCounters: state.buyerCounters,
    deadline: new Date(state.deadline),
    endReason: state.endReason,
    moves: state.moves,
  };
}

/**
 * The offer workflow's write after a turn: the state as the domain left it, the hold now on the card, and the
 * purchase an accepted offer became. Idempotent (the same state written twice is the same row).
 */
export async function saveOfferState(
  db: DbOrTx,
  offerId: number,
  state: OfferState,
  extra: { holdCents?: Cents; orderId?: number | null } = {},
): Promise<void> {
  await db
    .update(offers)
    .set({
      ...stateColumns(state),
      ...(extra.holdCents !== undefined ? { holdCents: extra.holdCents } : {}),
      ...(extra.orderId !== undefined ? { orderId: extra.orderId } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(offers.id, offerId));
}

export interface OfferView {
  id: number;
  listingId: number;
  side: OfferSide;
  /** The other side, as `retailer-00{id}`. */
  counterpart: string;
  status: OfferStatus;
  turn: OfferSide;
  sizes: Sizes;
  units: number;
  listedUnitCents: Cents;
  tableUnitCents: Cents;
  agreedUnitCents: Cents | null;
  holdCents: Cents;
  deadline: string;
  endReason: string | null;
  orderId: number | null;
  workflowId: string;
  choices: ReturnType<typeof offerChoices>;
  moves: OfferRow["moves"];
}

function toView(row: OfferRow, retailerId: number): OfferView {
  const side: OfferSide = row.buyerId === retailerId ? "buyer" : "seller";
  const state = {
    status: row.status as OfferStatus,
    turn: row.turn as OfferSide,
    sellerCounters: row.sellerCounters,
    buyerCounters: row.buyerCounters,
  } as OfferState;
  return {
    id: row.id,
    listingId: row.listingId,
    side,
    counterpart: anonymousRetailerLabel(side === "buyer" ? row.sellerId : row.buyerId),
    status: state.status,
    turn: state.turn,
    sizes: row.sizes as Sizes,
    units: row.units,
    listedUnitCents: row.listedUnitCents,
    tableUnitCents: row.tableUnitCents,
    agreedUnitCents: row.agreedUnitCents,
    holdCents: row.holdCents,
    deadline: row.deadline.toISOString(),
    endReason: row.endReason,
    orderId: row.orderId,
    workflowId: row.workflowId,
    choices: offerChoices(state, side),
    moves: row.moves,
  };
}

/**
 * A visible sell listing a buyer may offer on (the "Make an offer" form): its current price and units; null when
 * it is gone, hidden, sold out, a swap listing, or the viewer's own (the page answers 404).
 */
export async function offerableListing(
  db: DbOrTx,
  listingId: number,
  buyerId: number,
): Promise<{ id: number; priceCents: Cents; sizes: Sizes; sellerLabel: string } | null> {
  const row = await listingOfOffer(db, listingId);
  if (
    !row ||
    row.status !== "active" ||
    row.totalUnits <= 0 ||
    row.listingType !== "sell" ||
    row.providerId === buyerId
  )
    return null;
  return {
    id: row.id,
    priceCents: row.priceCents,
    sizes: row.sizes as Sizes,
    sellerLabel: anonymousRetailerLabel(row.providerId),
  };
}

/** The two sides of an offer (for its e-mails), or null. */
export async function offerParties(
  db: DbOrTx,
  offerId: number,
): Promise<{ buyerId: number; sellerId: number } | null> {
  const [row] = await db
    .select({ buyerId: offers.buyerId, sellerId: offers.sellerId })
    .from(offers)
    .where(eq(offers.id, offerId));
  return row ?? null;
}

/** An offer as its buyer or its seller sees it; null for anyone else (the page answers 404). */
export async function getOfferForRetailer(
  db: DbOrTx,
  offerId: number,
  retailerId: number,
): Promise<OfferView | null> {
  const [row] = await db
    .select()
    .from(offers)
    .where(
      and(
        eq(offers.id, offerId),
        or(eq(offers.buyerId, retailerId), eq(offers.sellerId, retailerId)),
      ),
    );
  return row ? toView(row, retailerId) : null;
}

/** A retailer's offers, newest change first: made (buyer), received (seller) or both. */
export async function listOffersForRetailer(
  db: DbOrTx,
  retailerId: number,
  opts: { side?: OfferSide; limit?: number } = {},
): Promise<OfferView[]> {
  const where =
    opts.side === "buyer"
      ? eq(offers.buyerId, retailerId)
      : opts.side === "seller"
        ? eq(offers.sellerId, retailerId)
        : or(eq(offers.buyerId, retailerId), eq(offers.sellerId, retailerId));
  const rows = await db
    .select()
    .from(offers)
    .where(where)
    .orderBy(desc(offers.updatedAt), desc(offers.id))
    .limit(opts.limit ?? 50);
  return rows.map((r) => toView(r, retailerId));
}

/**
 * The open offers of a listing whose units the listing no longer has (another order took them): the workflow
 * ids to signal "units taken" (docs/product/offers.md, "Units another order takes").
 */
export async function openOffersOutOfUnits(
  db: DbOrTx,
  listingId: number,
): Promise<{ offerId: number; workflowId: string }[]> {
  const [listing] = await db
    .select({ sizes: listings.sizes })
    .from(listings)
    .where(eq(listings.id, listingId));
  const left = (listing?.sizes ?? {}) as Sizes;
  const open = await db
    .select({ id: offers.id, workflowId: offers.workflowId, sizes: offers.sizes })
    .from(offers)
    .where(and(eq(offers.listingId, listingId), eq(offers.status, "open")));
  return open
    .filter((o) => Object.entries(o.sizes as Sizes).some(([label, n]) => n > (left[label] ?? 0)))
    .map((o) => ({ offerId: o.id, workflowId: o.workflowId }));
}

/**
 * The purchase an accepted offer becomes (docs/product/offers.md, "When it is accepted"): an order of the
 * offer's units at the agreed unit price, written as checkout writes a draft (its line, its quote), its hold
 * recorded as the order's authorisation, and linked from the offer. Idempotent: the offer's order when it has
 * one already. Null when the listing no longer has the offer's units (another order took them).
 */
export async function createOfferOrder(
  db: Db,
  input: {
    offerId: number;
    unitPriceCents: Cents;
    /** The offer's hold, recorded as the order's authorisation (the purchase captures against it). */
    hold: { reference: string; amountCents: Cents; idempotencyKey: string };
    card?: { description: string; lastFour: string } | null;
    workflowIdFor: (orderId: number) => string;
  },
): Promise<OfferPurchase | null> {
  return db.transaction(async (tx) => {
    const [offer] = await tx
      .select({
        listingId: offers.listingId,
        buyerId: offers.buyerId,
        buyerUserId: offers.buyerUserId,
        sellerId: offers.sellerId,
        sizes: offers.sizes,
        orderId: offers.orderId,
        variationId: listings.variationId,
        brandId: productVariations.brandId,
      })
      .from(offers)
      .innerJoin(listings, eq(listings.id, offers.listingId))
      .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
      .where(eq(offers.id, input.offerId))
      .for("update", { of: offers });
    if (!offer) throw new RangeError(`no offer ${input.offerId}`);
    const line: OrderLine = {
      listingId: offer.listingId,
      variationId: offer.variationId,
      sizes: offer.sizes as Sizes,
      unitPriceCents: input.unitPriceCents,
    };
    const parties = { providerId: offer.sellerId, receiverId: offer.buyerId, line };
    if (offer.orderId !== null) {
      const [o] = await tx
        .select({ externalId: orders.externalId, workflowId: orders.workflowId })
        .from(orders)
        .where(eq(orders.id, offer.orderId));
      return { orderId: offer.orderId, ...o, ...parties };
    }
    // Another order may have taken the units since the offer was made: then no purchase.
    const listing = await listingOfOffer(tx, offer.listingId, true);
    const left = (listing?.sizes ?? {}) as Sizes;
    if (Object.entries(line.sizes).some(([size, n]) => n > (left[size] ?? 0))) return null;
    const [{ id }] = await tx.execute<{ id: number }>(
      sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
    );
    const orderId = Number(id);
    const externalId = orderNumber(orderId);
    const workflowId = input.workflowIdFor(orderId);
    const quote = orderQuote([line]);
    const state = BUY_STATES.COMPLETE_ORDER_CHECKOUT;
    await tx.insert(orders).values({
      id: orderId,
      externalId,
      workflowId,
      transactionType: TRANSACTION_TYPE.SALE,
      brandId: offer.brandId,
      providerId: offer.sellerId,
      receiverId: offer.buyerId,
      placedByUserId: offer.buyerUserId,
      statename: state,
      displayStatus: displayStatusFor("buy", state),
      actionNeeded: actionNeededBy("buy", state),
      stage: "pre_shipping",
      completed: null,
      valueCents: quote.goodsCents,
      receiverFeeCents: quote.feeCents,
      receiverShippingCents: quote.shippingCents,
      receiverGrandTotalCents: quote.totalCents,
      reasons: {},
    });
    await tx.insert(orderContributions).values({
      orderId,
      side: "provider",
      type: "goods",
      listingId: offer.listingId,
      variationId: offer.variationId,
      units: line.sizes,
      quantity: quote.units,
      unitPriceCents: input.unitPriceCents,
      valueCents: quote.goodsCents,
    });
    await beginPayment(tx, {
      idempotencyKey: input.hold.idempotencyKey,
      orderId,
      retailerId: offer.buyerId,
      name: PAYMENT_NAMES.authorization,
      txtype: "authorization",
      amountCents: input.hold.amountCents,
      paymentMethodDescription: input.card?.description ?? null,
      lastFour: input.card?.lastFour ?? null,
    });
    // The hold's row, written when it was taken with no order yet (activities/offer.ts), is now the order's.
    await tx
      .update(payments)
      .set({ orderId })
      .where(and(eq(payments.idempotencyKey, input.hold.idempotencyKey), isNull(payments.orderId)));
    await completePayment(tx, input.hold.idempotencyKey, {
      status: "requires_capture",
      providerRef: input.hold.reference,
    });
    await tx.update(offers).set({ orderId }).where(eq(offers.id, input.offerId));
    return { orderId, externalId, workflowId, ...parties };
  });
}

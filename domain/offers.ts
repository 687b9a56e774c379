/**
 * Offers below the listed price, pure (docs/product/offers.md; ADR 0056): who may make one, whose turn it
 * is, which answers are allowed on each turn, the deadline of a turn, the card's hold for the buyer's price,
 * and the purchase an accepted offer becomes. The offer workflow (workflows/offer) only feeds commands and
 * timer firings to `applyOfferCommand` and runs the effects it names; the money of the purchase is
 * domain/order-money's, at the agreed unit price.
 */
import { addBusinessDays, WINDOWS, toEpochMs, type Instant } from "./business-days";
import { z } from "zod";
import { dollarsInputSchema, formatCents, type Cents } from "./money";
import { orderQuote, type OrderLine, type Sizes } from "./order-money";
import { totalUnitsOfSizes } from "./shipping";

export const OFFER_RULES = Object.freeze({
  /** Each side answers within 2 business days of the turn passing to it; then the offer expires. */
  answerBusinessDays: 2,
  /** The seller counters at most twice. */
  sellerCounters: 2,
  /** The buyer answers the seller's first counter with a new price at most once. */
  buyerCounters: 1,
});

export const OFFER_MESSAGES = Object.freeze({
  ownListing: "You cannot make an offer on your own listing.",
  notForSale: "Offers can only be made on a listing for sale.",
  notBelow: (listedCents: Cents) =>
    `An offer must be below the listed price of ${formatCents(listedCents)} a unit.`,
  notPositive: "Enter a price above $0.00.",
  noUnits: "Choose at least one unit.",
  tooManyUnits: "You cannot offer for more units than the listing has.",
  alreadyOpen: "You already have an open offer on this listing.",
  notYourTurn: "It is not your turn to answer this offer.",
  closed: "This offer is no longer open.",
  noCounterLeft: "No counter-offer is left: accept or decline.",
  counterOutOfRange: (lowCents: Cents, highCents: Cents) =>
    `A counter-offer must be above ${formatCents(lowCents)} and below ${formatCents(highCents)} a unit.`,
  unitsTaken: "Sorry, another order took the units of this offer, so it was declined.",
});

export type OfferSide = "buyer" | "seller";
export type OfferStatus = "open" | "accepted" | "declined" | "expired" | "withdrawn";
/** Why an offer was closed without a purchase (declined by whom, or its units taken). */
export type OfferEndReason =
  | "seller_declined"
  | "buyer_declined"
  | "units_taken"
  | "seller_expired"
  | "buyer_expired"
  | "withdrawn"
  /** The card could not be held for the offer: it never reached the seller. */
  | "card_declined";

export const OFFER_STATUSES: readonly OfferStatus[] = [
  "open",
  "accepted",
  "declined",
  "expired",
  "withdrawn",
];

/** One price put on the table, by whom, when. */
export interface OfferMove {
  by: OfferSide;
  kind: "offer" | "counter" | "accept" | "decline" | "withdraw" | "expire" | "taken";
  unitPriceCents: Cents | null;
  at: string;
}

export interface OfferState {
  status: OfferStatus;
  /** The side that must answer (meaningful while open). */
  turn: OfferSide;
  /** The listing's price a unit when the offer was made (the ceiling of every price). */
  listedUnitCents: Cents;
  /** The last price the buyer committed to (its card is held for it). */
  buyerUnitCents: Cents;
  /** The price on the table: the buyer's, or the seller's counter while it is the buyer's turn. */
  tableUnitCents: Cents;
  sizes: Sizes;
  sellerCounters: number;
  buyerCounters: number;
  /** ISO instant the current turn ends (business days in the marketplace's zone). */
  deadline: string;
  endReason: OfferEndReason | null;
  /** The agreed price a unit once accepted. */
  agreedUnitCents: Cents | null;
  moves: OfferMove[];
}

export interface Calendar {
  timeZone?: string;
  holidays?: readonly string[];
}

/** When a turn that starts at `start` ends: 2 business days later (domain/business-days addBusinessDays). */
export function offerDeadline(start: Instant, cal: Calendar = {}): string {
  return new Date(
    addBusinessDays(start, OFFER_RULES.answerBusinessDays, cal.timeZone, cal.holidays),
  ).toISOString();
}

export interface NewOfferInput {
  buyerId: number;
  sellerId: number;
  listingType: "sell" | "swap";
  listedUnitCents: Cents;
  offeredUnitCents: Cents;
  sizes: Sizes;
  /** The listing's units per size now. */
  availableSizes: Sizes;
  /** The buyer has an open offer on this listing already. */
  hasOpenOffer: boolean;
}

export type Refusal = { ok: false; message: string };

/** The checks a new offer passes before anything is written or held; the first failing one is returned. */
export function checkNewOffer(input: NewOfferInput): { ok: true; sizes: Sizes } | Refusal {
  if (input.buyerId === input.sellerId) return { ok: false, message: OFFER_MESSAGES.ownListing };
  if (input.listingType !== "sell") return { ok: false, message: OFFER_MESSAGES.notForSale };
  if (input.hasOpenOffer) return { ok: false, message: OFFER_MESSAGES.alreadyOpen };
  const price = checkPrice(input.offeredUnitCents, 0, input.listedUnitCents);
  if (price) return price;
  const sizes: Sizes = {};
  for (const [label, n] of Object.entries(input.sizes)) {
    if (!Number.isSafeInteger(n) || n < 0) return { ok: false, message: OFFER_MESSAGES.noUnits };
    if (n > (input.availableSizes[label] ?? 0))
      return { ok: false, message: OFFER_MESSAGES.tooManyUnits };
    if (n > 0) sizes[label] = n;
  }
  if (totalUnitsOfSizes(sizes) === 0) return { ok: false, message: OFFER_MESSAGES.noUnits };
  return { ok: true, sizes };
}

function checkPrice(price: Cents, low: Cents, listed: Cents): Refusal | null {
  if (!Number.isSafeInteger(price) || price <= 0)
    return { ok: false, message: OFFER_MESSAGES.notPositive };
  if (price >= listed) return { ok: false, message: OFFER_MESSAGES.notBelow(listed) };
  if (price <= low) return { ok: false, message: OFFER_MESSAGES.counterOutOfRange(low, listed) };
  return null;
}

/** The state of an offer just made (the seller answers first). */
export function newOffer(
  made: { listedUnitCents: Cents; offeredUnitCents: Cents; sizes: Sizes; at: string },
  cal: Calendar = {},
): OfferState {
  return {
    status: "open",
    turn: "seller",
    listedUnitCents: made.listedUnitCents,
    buyerUnitCents: made.offeredUnitCents,
    tableUnitCents: made.offeredUnitCents,
    sizes: made.sizes,
    sellerCounters: 0,
    buyerCounters: 0,
    deadline: offerDeadline(made.at, cal),
    endReason: null,
    agreedUnitCents: null,
    moves: [{ by: "buyer", kind: "offer", unitPriceCents: made.offeredUnitCents, at: made.at }],
  };
}

export type OfferCommand =
  | { kind: "accept"; by: OfferSide; at: string }
  | { kind: "decline"; by: OfferSide; at: string }
  | { kind: "counter"; by: OfferSide; unitPriceCents: Cents; at: string }
  | { kind: "withdraw"; by: "buyer"; at: string }
  /** The turn's timer fired. */
  | { kind: "expire"; at: string }
  /** Another order took units of the offer. */
  | { kind: "taken"; at: string };

/** What the workflow does after a command (in this order). */
export type OfferEffect =
  /** Hold the buyer's card for the quote at this unit price (a new attempt), then release the older hold. */
  | { kind: "hold"; unitPriceCents: Cents; amountCents: Cents }
  | { kind: "release" }
  /** Create the purchase at the agreed price and start it after the seller's approval. */
  | { kind: "purchase"; unitPriceCents: Cents }
  | {
      kind: "notify";
      to: OfferSide;
      what: "offer" | "counter" | "accepted" | "declined" | "expired";
    };

export type OfferStep =
  | { ok: true; state: OfferState; effects: OfferEffect[] }
  | { ok: false; message: string };

/** The hold (pre-authorisation) for a unit price: the purchase quote of the offer's units at that price. */
export function offerHoldCents(sizes: Sizes, unitPriceCents: Cents): Cents {
  return orderQuote([{ listingId: 0, sizes, unitPriceCents }]).totalCents;
}

/** The purchase order an accepted offer became (written by db/queries/offers.ts createOfferOrder). */
export interface OfferPurchase {
  orderId: number;
  externalId: string;
  workflowId: string;
  providerId: number;
  receiverId: number;
  line: OrderLine;
}

/** The purchase an accepted offer becomes: one line of the listing's units at the agreed unit price. */
export function offerPurchaseLine(
  offer: { listingId: number; variationId: number | null; sizes: Sizes },
  agreedUnitCents: Cents,
): OrderLine {
  return {
    listingId: offer.listingId,
    variationId: offer.variationId,
    sizes: offer.sizes,
    unitPriceCents: agreedUnitCents,
  };
}

/**
 * Applies one command to an open offer. Refusals leave the state as it is (the page shows the message).
 * - accept: the side whose turn it is takes the price on the table; a buyer accepting a counter raises its
 *   hold to the counter's price first.
 * - counter: the seller (at most twice) between the buyer's price and the listed price; the buyer (at most
 *   once, and only while the seller has a counter left) between its last price and the seller's counter.
 * - decline (either side on its turn), withdraw (the buyer at any time), expire (the timer of the turn),
 *   taken (another order took the units): the offer closes and the hold is released.
 */
export function applyOfferCommand(
  state: OfferState,
  cmd: OfferCommand,
  cal: Calendar = {},
): OfferStep {
  if (state.status !== "open") return { ok: false, message: OFFER_MESSAGES.closed };
  const close = (
    status: OfferStatus,
    endReason: OfferEndReason,
    move: OfferMove,
    notify: OfferSide[],
    what: "declined" | "expired",
  ): OfferStep => ({
    ok: true,
    state: { ...state, status, endReason, moves: [...state.moves, move] },
    effects: [{ kind: "release" }, ...notify.map((to) => ({ kind: "notify" as const, to, what }))],
  });
  switch (cmd.kind) {
    case "withdraw":
      return close(
        "withdrawn",
        "withdrawn",
        { by: "buyer", kind: "withdraw", unitPriceCents: null, at: cmd.at },
        ["seller"],
        "declined",
      );
    case "expire": {
      if (toEpochMs(cmd.at) < toEpochMs(state.deadline))
        return { ok: false, message: OFFER_MESSAGES.closed };
      const late = state.turn;
      return close(
        "expired",
        late === "seller" ? "seller_expired" : "buyer_expired",
        { by: late, kind: "expire", unitPriceCents: null, at: cmd.at },
        ["buyer", "seller"],
        "expired",
      );
    }
    case "taken":
      return close(
        "declined",
        "units_taken",
        { by: "seller", kind: "taken", unitPriceCents: null, at: cmd.at },
        ["buyer"],
        "declined",
      );
    default:
      break;
  }
  if (cmd.by !== state.turn) return { ok: false, message: OFFER_MESSAGES.notYourTurn };
  const other: OfferSide = cmd.by === "buyer" ? "seller" : "buyer";
  switch (cmd.kind) {
    case "decline":
      return close(
        "declined",
        cmd.by === "seller" ? "seller_declined" : "buyer_declined",
        { by: cmd.by, kind: "decline", unitPriceCents: null, at: cmd.at },
        [other],
        "declined",
      );
    case "accept": {
      const agreed = state.tableUnitCents;
      const effects: OfferEffect[] = [];
      if (agreed !== state.buyerUnitCents)
        effects.push({
          kind: "hold",
          unitPriceCents: agreed,
          amountCents: offerHoldCents(state.sizes, agreed),
        });
      effects.push(
        { kind: "purchase", unitPriceCents: agreed },
        { kind: "notify", to: other, what: "accepted" },
      );
      return {
        ok: true,
        state: {
          ...state,
          status: "accepted",
          agreedUnitCents: agreed,
          buyerUnitCents: agreed,
          moves: [
            ...state.moves,
            { by: cmd.by, kind: "accept", unitPriceCents: agreed, at: cmd.at },
          ],
        },
        effects,
      };
    }
    case "counter": {
      const seller = cmd.by === "seller";
      const left = seller
        ? state.sellerCounters < OFFER_RULES.sellerCounters
        : state.buyerCounters < OFFER_RULES.buyerCounters &&
          state.sellerCounters < OFFER_RULES.sellerCounters;
      if (!left) return { ok: false, message: OFFER_MESSAGES.noCounterLeft };
      const low = seller ? state.tableUnitCents : state.buyerUnitCents;
      const high = seller ? state.listedUnitCents : state.tableUnitCents;
      const p = cmd.unitPriceCents;
      if (!Number.isSafeInteger(p) || p <= low || p >= high)
        return { ok: false, message: OFFER_MESSAGES.counterOutOfRange(low, high) };
      const effects: OfferEffect[] = seller
        ? []
        : [{ kind: "hold", unitPriceCents: p, amountCents: offerHoldCents(state.sizes, p) }];
      effects.push({ kind: "notify", to: other, what: "counter" });
      return {
        ok: true,
        state: {
          ...state,
          turn: other,
          tableUnitCents: p,
          buyerUnitCents: seller ? state.buyerUnitCents : p,
          sellerCounters: state.sellerCounters + (seller ? 1 : 0),
          buyerCounters: state.buyerCounters + (seller ? 0 : 1),
          deadline: offerDeadline(cmd.at, cal),
          moves: [...state.moves, { by: cmd.by, kind: "counter", unitPriceCents: p, at: cmd.at }],
        },
        effects,
      };
    }
  }
}

/** What the side may do now (the page's buttons). */
export function offerChoices(
  state: OfferState,
  side: OfferSide,
): { accept: boolean; decline: boolean; counter: boolean; withdraw: boolean } {
  const open = state.status === "open";
  const turn = open && state.turn === side;
  const counterLeft =
    side === "seller"
      ? state.sellerCounters < OFFER_RULES.sellerCounters
      : state.buyerCounters < OFFER_RULES.buyerCounters &&
        state.sellerCounters < OFFER_RULES.sellerCounters;
  return {
    accept: turn,
    decline: turn,
    counter: turn && counterLeft,
    withdraw: open && side === "buyer",
  };
}

/**
 * Whether a hold taken at `heldAt` is still good for a purchase starting at `now`: the provider's
 * authorisation lapses after 7 days (WINDOWS.authorizationLifetime) and nothing may wait closer than the
 * safety margin to it; the purchase then needs a new hold (ADR 0056).
 */
export function holdStillGood(heldAt: Instant, now: Instant): boolean {
  return (
    toEpochMs(now) <
    toEpochMs(heldAt) + WINDOWS.authorizationLifetime - WINDOWS.authorizationSafetyMargin
  );
}

const PRICE_MESSAGE = "Enter a price per unit in dollars, like 12.50";

/** The "Make an offer" form (the listing's page): the listing, a price per unit, units per size. */
export const MakeOfferFormSchema = z.object({
  listing: z.coerce.number().int().positive(),
  price: dollarsInputSchema(PRICE_MESSAGE),
  sizes: z.record(z.coerce.number().int().min(0).max(100_000)).default({}),
});

/** An answer on the offer's page: accept, decline, withdraw, or counter with a price per unit. */
export const OfferAnswerFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept") }),
  z.object({ intent: z.literal("decline") }),
  z.object({ intent: z.literal("withdraw") }),
  z.object({ intent: z.literal("counter"), price: dollarsInputSchema(PRICE_MESSAGE) }),
]);

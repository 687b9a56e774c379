/**
 * The offer workflow's contract (docs/product/offers.md; ADR 0056): the deterministic id of an offer's run, its
 * input, its messages (the sides' answers are UPDATES, another order taking the units a SIGNAL, the state a
 * QUERY) and the steps that call out (part of every idempotency key). No Temporal runtime imports, no I/O:
 * pages import it.
 */
import { commandErrorIn, query, signal, update } from "../common/messages";
import type { Cents } from "../../domain/money";
import type { OfferSide, OfferState } from "../../domain/offers";

/** One offer workflow per offer (reject duplicates). */
export function offerWorkflowId(offerId: number): string {
  if (!Number.isSafeInteger(offerId) || offerId <= 0)
    throw new RangeError(`offer id must be a positive integer, got ${String(offerId)}`);
  return `offer:${offerId}`;
}

/** The workflow's type name: routes start it by this name (type-only import of the function). */
export const OFFER_WORKFLOW_TYPE = "offerWorkflow";

export interface OfferWorkflowInput {
  offerId: number;
  listingId: number;
  variationId: number;
  buyerId: number;
  sellerId: number;
  /** The offer as made (domain/offers newOffer), written by db/queries/offers.ts makeOffer. */
  state: OfferState;
  /** The first hold: the purchase quote at the offered price (domain/offers offerHoldCents). */
  holdCents: Cents;
  /** The task queue of the purchase's buy workflow (default: this run's). */
  purchaseTaskQueue?: string;
  /** Marketplace time zone and holidays for business days (default: domain/business-days'). */
  timeZone?: string;
  holidays?: string[];
}

export interface OfferWorkflowResult {
  state: OfferState;
  /** The purchase an accepted offer became. */
  orderId: number | null;
}

/** Steps that call out; part of every idempotency key and e-mail dedupe key. */
export const OFFER_STEPS = {
  hold: "hold",
  release: "release",
  purchase: "purchase",
  notify: "notify",
} as const;

/** ApplicationFailure type of a refused answer (not your turn, a counter out of range, ...). */
export const OFFER_REFUSED = "OfferRefused";
/** ApplicationFailure type of a card the provider declined for the hold (non-retryable). */
export const OFFER_CARD_DECLINED = "OfferCardDeclined";

export interface OfferAnswer {
  /** The retailer answering: must be the side the command is for (the page passes the signed-in retailer). */
  actorRetailerId: number;
}

export const acceptOfferUpdate = update<OfferState, [OfferAnswer]>("acceptOffer");
export const declineOfferUpdate = update<OfferState, [OfferAnswer]>("declineOffer");
export const counterOfferUpdate = update<OfferState, [OfferAnswer & { unitPriceCents: Cents }]>(
  "counterOffer",
);
export const withdrawOfferUpdate = update<OfferState, [OfferAnswer]>("withdrawOffer");
/** Another order took units of the offer (sent after a purchase decrements the listing's stock). */
export const offerUnitsTakenSignal = signal<[]>("offerUnitsTaken");
export const offerStateQuery = query<OfferState & { busy: boolean }>("offerState");

/** The side a retailer is on in an offer, or null for anyone else. */
export function offerSideOf(
  input: { buyerId: number; sellerId: number },
  retailerId: number,
): OfferSide | null {
  if (retailerId === input.buyerId) return "buyer";
  if (retailerId === input.sellerId) return "seller";
  return null;
}

/** What a page shows for a refused answer (commandErrorIn of workflows/common/messages.ts). */
export const OFFER_ERRORS = {
  [OFFER_REFUSED]: "This answer was refused.",
  [OFFER_CARD_DECLINED]: "Your card was declined.",
  wrong_state: "This offer is no longer open.",
} as const;

/** The code and message of a refused answer from what the client threw, or null for anything else. */
export function offerCommandError(err: unknown) {
  return commandErrorIn(err, OFFER_ERRORS);
}

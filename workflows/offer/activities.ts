/**
 * The activities of an offer (./workflow.ts; ADR 0056): the interface only. Every provider call carries an
 * idempotency key = workflow id + step + attempt (workflows/common/contract.ts idempotencyKey).
 */
import type { Cents } from "../../domain/money";
import type { OfferPurchase, OfferSide, OfferState } from "../../domain/offers";

export interface OfferHold {
  /** The provider's reference of the authorisation. */
  reference: string;
  amountCents: Cents;
  /** ISO instant it was taken. */
  heldAt: string;
}

export interface OfferActivities {
  /** Pre-authorises the buyer's card for `amountCents` (fails OFFER_CARD_DECLINED when the card is declined). */
  holdOfferCard(input: {
    offerId: number;
    buyerId: number;
    amountCents: Cents;
    idempotencyKey: string;
  }): Promise<{ reference: string }>;
  /** Releases a hold without capture; releasing a released hold is a no-op. */
  releaseOfferHold(input: { reference: string; idempotencyKey: string }): Promise<void>;
  /**
   * Writes the offer's read model (db/queries/offers.ts saveOfferState) and, in the same transaction, the e-mails
   * of the step to the outbox (sent after the step, never on the click's path; the other side anonymous),
   * each deduplicated by its `dedupeKey`.
   */
  saveOffer(input: {
    offerId: number;
    state: OfferState;
    holdCents?: Cents;
    orderId?: number | null;
    notices?: OfferNotice[];
  }): Promise<void>;
  /**
   * Writes the purchase order at the agreed unit price (db/queries/offers.ts createOfferOrder); idempotent: a
   * second call returns the same order; null when the listing no longer has the offer's units. The workflow
   * then starts its buy workflow (kind from_offer).
   */
  createOfferPurchase(input: {
    offerId: number;
    unitPriceCents: Cents;
    /** The hold the purchase captures against, with the idempotency key it was taken under. */
    hold: { reference: string; amountCents: Cents; idempotencyKey: string };
  }): Promise<OfferPurchase | null>;
}

/** An e-mail a step of the offer sends one side. */
export interface OfferNotice {
  to: OfferSide;
  what: "offer" | "counter" | "accepted" | "declined" | "expired";
  dedupeKey: string;
}

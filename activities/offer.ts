/**
 * An offer's activities (workflows/offer/activities.ts; docs/product/offers.md; ADR 0056): the buyer's card held
 * for the offer's price on its default card and released, the read model (db/queries/offers.ts), the purchase
 * an accepted offer becomes, and the e-mails (the other side named only as retailer-00{id}).
 */
import { ApplicationFailure } from "@temporalio/activity";
import type { Db } from "../db/client";
import {
  createOfferOrder,
  getOfferForRetailer,
  offerParties,
  saveOfferState,
} from "../db/queries/offers";
import { retailerNotificationEmails } from "../db/queries/retailers";
import { getCardOnFile } from "../db/queries/settings";
import { anonymousRetailerLabel } from "../domain/anonymity";
import { formatCents } from "../domain/money";
import { buyWorkflowId } from "../workflows/buy/contract";
import type { OfferActivities } from "../workflows/offer/activities";
import { OFFER_CARD_DECLINED } from "../workflows/offer/contract";
import type { Mailer } from "./mail";
import { PaymentRejectedError, type PaymentsPort } from "./payments/port";

/** The e-mail's subject per event; the body adds the price and the link. */
const SUBJECTS = {
  offer: "New offer on your listing",
  counter: "Counter-offer received",
  accepted: "Offer accepted",
  declined: "Offer declined",
  expired: "Offer expired",
} as const;

export function createOfferActivities(deps: {
  db: Db;
  payments: PaymentsPort;
  mail: Mailer;
  appOrigin: string;
}): OfferActivities {
  const { db, payments } = deps;
  return {
    async holdOfferCard(input) {
      const card = await getCardOnFile(db, input.buyerId);
      if (!card)
        throw ApplicationFailure.nonRetryable(
          "Add a card before making an offer.",
          OFFER_CARD_DECLINED,
        );
      try {
        const r = await payments.authorizePayment({
          idempotencyKey: input.idempotencyKey,
          amountCents: input.amountCents,
          paymentMethod: card.providerPaymentMethodId,
          customerId: card.providerCustomerId ?? null,
          description: `Offer ${input.offerId}`,
          metadata: { offer_id: String(input.offerId), idempotency_key: input.idempotencyKey },
        });
        return { reference: r.paymentIntentId };
      } catch (err) {
        if (err instanceof PaymentRejectedError)
          throw ApplicationFailure.nonRetryable(err.message, OFFER_CARD_DECLINED);
        throw err;
      }
    },
    async releaseOfferHold(input) {
      await payments.releaseAuthorization({
        idempotencyKey: input.idempotencyKey,
        paymentIntentId: input.reference,
        reason: "requested_by_customer",
      });
    },
    saveOffer: ({ offerId, state, holdCents, orderId }) =>
      saveOfferState(db, offerId, state, { holdCents, orderId }),
    async createOfferPurchase(input) {
      const offer = await offerParties(db, input.offerId);
      const card = offer ? await getCardOnFile(db, offer.buyerId) : null;
      return createOfferOrder(db, { ...input, card, workflowIdFor: buyWorkflowId });
    },
    async notifyOffer(input) {
      const row = await offerParties(db, input.offerId);
      if (!row) return;
      const to = input.to === "buyer" ? row.buyerId : row.sellerId;
      const view = await getOfferForRetailer(db, input.offerId, to);
      if (!view) return;
      const other = anonymousRetailerLabel(input.to === "buyer" ? row.sellerId : row.buyerId);
      const text = [
        `${SUBJECTS[input.what]}: ${view.units} units, ${formatCents(view.agreedUnitCents ?? view.tableUnitCents)} a unit, with ${other}.`,
        `See the offer: ${deps.appOrigin}/offers/${input.offerId}`,
      ].join("\n");
      for (const email of await retailerNotificationEmails(db, to))
        await deps.mail.send({
          to: email,
          subject: SUBJECTS[input.what],
          text,
          kind: `offer_${input.what}`,
          dedupeKey: `${input.dedupeKey}:${email}`,
        });
    },
  };
}

/**
 * An offer's activities (workflows/offer/activities.ts; docs/product/offers.md; ADR 0056): the buyer's card held
 * for the offer's price on its default card and released, the read model (db/queries/offers.ts), the purchase
 * an accepted offer becomes, and the e-mails of each step, written to the outbox with the step's state (the other
 * side named only as retailer-00{id}).
 */
import { ApplicationFailure } from "@temporalio/activity";
import type { Db } from "../db/client";
import { createOfferOrder, offerParties, saveOfferState } from "../db/queries/offers";
import { insertOutboxEmail, type NewOutboxEmail } from "../db/queries/outbox";
import { retailerNotificationEmails } from "../db/queries/retailers";
import { getAuthorizationByIntent, PAYMENT_NAMES } from "../db/queries/payments";
import { getCardOnFile } from "../db/queries/settings";
import { anonymousRetailerLabel } from "../domain/anonymity";
import { formatCents } from "../domain/money";
import type { OfferState } from "../domain/offers";
import { totalUnitsOfSizes } from "../domain/shipping";
import { buyWorkflowId } from "../workflows/buy/contract";
import type { OfferActivities, OfferNotice } from "../workflows/offer/activities";
import { OFFER_CARD_DECLINED } from "../workflows/offer/contract";
import { recordedPayment } from "./buy/payments";
import type { PaymentsPort } from "./payments/port";

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
      // In the ledger as any authorisation, with no order yet (the purchase's row when it is accepted), so the
      // nightly reconciliation finds at the provider only what the ledger has.
      return recordedPayment<{ reference: string }>(
        db,
        {
          idempotencyKey: input.idempotencyKey,
          orderId: null,
          retailerId: input.buyerId,
          name: PAYMENT_NAMES.offerHold,
          txtype: "authorization",
          amountCents: input.amountCents,
          paymentMethodDescription: card.description,
          lastFour: card.lastFour,
        },
        async () => {
          const r = await payments.authorizePayment({
            idempotencyKey: input.idempotencyKey,
            amountCents: input.amountCents,
            paymentMethod: card.providerPaymentMethodId,
            customerId: card.providerCustomerId ?? null,
            description: `Offer ${input.offerId}`,
            metadata: { offer_id: String(input.offerId), idempotency_key: input.idempotencyKey },
          });
          return {
            outcome: { status: r.status, providerRef: r.paymentIntentId },
            answer: { reference: r.paymentIntentId },
          };
        },
        (err) => ({
          outcome: { status: "declined", providerRef: null },
          fails: ApplicationFailure.nonRetryable(err.message, OFFER_CARD_DECLINED),
        }),
      );
    },
    async releaseOfferHold(input) {
      const send = () =>
        payments.releaseAuthorization({
          idempotencyKey: input.idempotencyKey,
          paymentIntentId: input.reference,
          reason: "requested_by_customer",
        });
      const auth = await getAuthorizationByIntent(db, input.reference);
      // A hold taken before holds were in the ledger has no row to settle: released as then.
      if (!auth) return send();
      const released = {
        outcome: { status: "canceled", providerRef: input.reference },
        settles: { row: auth, status: "canceled" },
        answer: undefined,
      };
      return recordedPayment<void>(
        db,
        {
          idempotencyKey: input.idempotencyKey,
          orderId: auth.orderId,
          retailerId: auth.retailerId,
          name: PAYMENT_NAMES.offerRelease,
          txtype: "release",
          amountCents: auth.amountCents,
          paymentMethodDescription: auth.paymentMethodDescription,
          lastFour: auth.lastFour,
        },
        async () => (await send(), released),
        // Already canceled (or lapsed) at the provider: not held any more either way. Anything else: tried again.
        (err) =>
          err.code === "payment_intent_unexpected_state"
            ? released
            : { fails: ApplicationFailure.retryable(err.message, "PaymentRejected") },
      );
    },
    async saveOffer({ offerId, state, holdCents, orderId, notices = [] }) {
      const mails = notices.length ? await offerMails(offerId, state, notices) : [];
      await db.transaction(async (tx) => {
        await saveOfferState(tx, offerId, state, { holdCents, orderId });
        for (const mail of mails) await insertOutboxEmail(tx, mail);
      });
    },
    async createOfferPurchase(input) {
      const offer = await offerParties(db, input.offerId);
      const card = offer ? await getCardOnFile(db, offer.buyerId) : null;
      return createOfferOrder(db, { ...input, card, workflowIdFor: buyWorkflowId });
    },
  };

  /** The step's e-mails: to each address of the side told, the other side named only as retailer-00{id}. */
  async function offerMails(
    offerId: number,
    state: OfferState,
    notices: OfferNotice[],
  ): Promise<NewOutboxEmail[]> {
    const parties = await offerParties(db, offerId);
    if (!parties) return [];
    const units = totalUnitsOfSizes(state.sizes);
    const price = formatCents(state.agreedUnitCents ?? state.tableUnitCents);
    const mails: NewOutboxEmail[] = [];
    for (const n of notices) {
      const to = n.to === "buyer" ? parties.buyerId : parties.sellerId;
      const other = anonymousRetailerLabel(n.to === "buyer" ? parties.sellerId : parties.buyerId);
      const bodyText = [
        `${SUBJECTS[n.what]}: ${units} units, ${price} a unit, with ${other}.`,
        `See the offer: ${deps.appOrigin}/offers/${offerId}`,
      ].join("\n");
      for (const email of await retailerNotificationEmails(db, to))
        mails.push({
          toEmail: email,
          subject: SUBJECTS[n.what],
          bodyText,
          kind: `offer_${n.what}`,
          dedupeKey: `${n.dedupeKey}:${email}`,
        });
    }
    return mails;
  }
}

/**
 * The RMA workflow's activities (workflows/rma/activities.ts RmaActivities), for real. Money and the carrier go
 * through the buy activities (activities/buy/index.ts: the same payments rows, idempotency keys, sandbox
 * carrier, and the same answers to a missing card on file or payout account and to an outage), recorded on
 * the RMA's own order row (an order of type 3, db/queries/rmas.ts); the read model and the notices' outbox
 * rows are written in one transaction.
 */
import type { Db } from "../../db/client";
import { rmaNumber } from "../../domain/cart";
import { recordRmaState } from "../../db/queries/rmas";
import type { OrderProviderActivities } from "../../workflows/buy/activities";
import { rmaNoticeMail } from "./notices";
import type { RmaActivities, RmaNotice, RmaStateRecord } from "../../workflows/rma/activities";

export interface RmaActivityDeps {
  db: Db;
  /** The provider activities of the same worker (payments, carrier). */
  buy: OrderProviderActivities;
  /** APP_ORIGIN, for links in e-mails. */
  appOrigin: string;
  /** MARKETPLACE_TZ: the zone e-mails show dates in. */
  timeZone: string;
}

export function createRmaActivities(deps: RmaActivityDeps): RmaActivities {
  const { db, buy, appOrigin, timeZone } = deps;

  function notices(rec: RmaStateRecord) {
    const victim = rec.victimId ?? 0;
    const perpetrator = rec.perpetratorId ?? 0;
    const context = (n: RmaNotice) => ({
      rmaId: rec.rmaId,
      externalId: rec.externalId ?? String(rec.rmaId),
      counterpartyId: n.to === "victim" ? perpetrator : victim,
      amounts: n.amounts ?? {
        victimRefundCents: rec.victimRefundCents,
        perpetratorChargeCents: rec.perpetratorChargeCents,
      },
    });
    const parties = rec.notices
      .filter((n) => n.to !== "staff" && (n.to === "victim" ? victim : perpetrator) > 0)
      .map((n) => {
        const mail = rmaNoticeMail(n, context(n), appOrigin, timeZone);
        return {
          retailerId: n.to === "victim" ? victim : perpetrator,
          subject: mail.subject,
          text: mail.text,
          kind: `rma:${n.template}`,
          dedupeKey: n.dedupeKey,
        };
      });
    const staff = rec.notices
      .filter((n) => n.to === "staff")
      .map((n) => {
        const mail = rmaNoticeMail(n, context(n), appOrigin, timeZone);
        return {
          subject: mail.subject,
          text: mail.text,
          kind: `rma:${n.template}`,
          dedupeKey: n.dedupeKey,
        };
      });
    return { parties, staff };
  }

  return {
    async recordRmaState(rec) {
      const { parties, staff } = notices(rec);
      await recordRmaState(db, {
        rmaId: rec.rmaId,
        dedupeKey: `${rec.workflowId}:record:${rec.sequence}`,
        sequence: rec.sequence,
        stage: rec.stage,
        decisions: rec.decisions,
        rmaFeeCents: rec.rmaFeeCents,
        ledger: {
          victimRefundCents: rec.victimRefundCents,
          perpetratorChargeCents: rec.perpetratorChargeCents,
          // The marketplace keeps the RMA's shipping and fee (docs/product/money.md, "RMA refund and charge"): charge − refund.
          rmaKeptCents: rec.perpetratorChargeCents - rec.victimRefundCents,
          chargeQueued: rec.chargeQueued ?? false,
          escalated: rec.escalated ?? false,
        },
        deadlines: rec.deadlines,
        actions: rec.actions.map((a) => ({ code: a.code, role: a.role, at: a.at })),
        notices: parties,
        staffNotices: staff,
      });
    },

    async bookReturnPickup(input) {
      const b = await buy.bookPickup({
        idempotencyKey: input.idempotencyKey,
        orderId: input.rmaId,
        externalId: rmaNumber(input.rmaId),
        attempt: input.attempt,
        senderId: input.senderId,
        receiverId: input.receiverId,
        units: input.units,
        pickupBy: input.pickupBy,
      });
      return { trackingNumber: b.trackingNumber, callTag: b.callTag };
    },

    async refundVictim(input) {
      const r = await buy.refundPayment({
        idempotencyKey: input.idempotencyKey,
        orderId: input.rmaId,
        paymentIntentId: input.paymentIntentId,
        amountCents: input.amountCents,
        reason: "rma",
      });
      return { status: r.status };
    },

    async payVictim(input) {
      const r = await buy.releaseSellerPayout({
        idempotencyKey: input.idempotencyKey,
        orderId: input.rmaId,
        retailerId: input.retailerId,
        amountCents: input.amountCents,
      });
      return { status: r.status };
    },

    async chargePerpetrator(input) {
      const r = await buy.chargeSellerPenalty({
        idempotencyKey: input.idempotencyKey,
        orderId: input.rmaId,
        retailerId: input.retailerId,
        amountCents: input.amountCents,
        purpose: "rma",
      });
      return { status: r.status };
    },
  };
}

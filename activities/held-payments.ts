/**
 * The held movements' activities (workflows/held-payments/activities.ts; docs/decisions/0044-payments-needing-attention.md).
 *
 * A retry first asks the provider about the movement's latest idempotency key (the key travels in the
 * movement's metadata): found, the movement is done (the earlier attempt happened after all). Not found, a new
 * attempt is claimed (the key moves on to `<key>:retry-<n>` only if no other retry moved it first) and sent
 * with the card or payout account the retailer has now; a refusal keeps it held, an outage is thrown and the
 * next try asks about the new key first. So a movement is never made twice.
 */
import type { Db } from "../db/client";
import {
  claimNewAttempt,
  getHeldPayment,
  markHeldPaid,
  markHeldRefusedAgain,
  queueHeldPaymentsDigest,
} from "../db/queries/held-payments";
import { payoutAccountOf } from "../db/queries/payments";
import { getCardOnFile } from "../db/queries/settings";
import { NO_CARD, NO_PAYOUT_ACCOUNT } from "../domain/held-payments";
import type { HeldPaymentActivities } from "../workflows/held-payments/activities";
import { log, translate } from "./buy/log";
import { movementMetadata } from "./buy/payments";
import { PaymentRejectedError, type FindMovementInput, type PaymentsPort } from "./payments/port";

/** What a held row's `retry` holds (activities/buy/payments.ts writes it). */
interface RetryParams {
  paymentIntentId?: string;
  reason?: string;
  description?: string;
  transferGroup?: string;
}

const FIND_KIND: Record<string, FindMovementInput["kind"]> = {
  penalty: "payment_intent",
  refund: "refund",
  release: "release",
  transfer: "transfer",
};

export function createHeldPaymentActivities(deps: {
  db: Db;
  payments: PaymentsPort;
}): HeldPaymentActivities {
  const { db, payments } = deps;

  /** Sends a new attempt under `key`: the provider's object id and status. */
  async function send(
    h: NonNullable<Awaited<ReturnType<typeof getHeldPayment>>>,
    key: string,
    retry: RetryParams,
    target: { customerId: string; paymentMethodId: string } | { account: string } | null,
  ): Promise<{ id: string; status: string }> {
    const orderId = h.orderId ?? 0;
    if (h.kind === "penalty" && target && "customerId" in target) {
      const r = await payments.chargeSavedCard({
        idempotencyKey: key,
        amountCents: h.amountCents,
        customerId: target.customerId,
        paymentMethodId: target.paymentMethodId,
        description: retry.description ?? `Penalty: order ${orderId}`,
        metadata: movementMetadata(orderId, "penalty", key),
      });
      return { id: r.paymentIntentId, status: "succeeded" };
    }
    if (h.kind === "transfer" && target && "account" in target) {
      const r = await payments.createTransfer({
        idempotencyKey: key,
        amountCents: h.amountCents,
        destination: target.account,
        description: retry.description ?? `Payout: order id ${orderId}`,
        transferGroup: retry.transferGroup ?? `order-${orderId}`,
        metadata: movementMetadata(orderId, "payout", key),
      });
      return { id: r.transferId, status: "paid" };
    }
    if (h.kind === "refund" && retry.paymentIntentId) {
      const r = await payments.refundPayment({
        idempotencyKey: key,
        paymentIntentId: retry.paymentIntentId,
        amountCents: h.amountCents,
        metadata: { ...movementMetadata(orderId, "refund", key), reason: retry.reason ?? "" },
      });
      return { id: r.refundId, status: r.status };
    }
    if (h.kind === "release" && retry.paymentIntentId) {
      await payments.releaseAuthorization({
        idempotencyKey: key,
        paymentIntentId: retry.paymentIntentId,
        reason: retry.reason === "cancelled" ? "requested_by_customer" : "abandoned",
      });
      return { id: retry.paymentIntentId, status: "canceled" };
    }
    throw new PaymentRejectedError(`a held ${h.kind} cannot be sent again`, {
      code: "not_retryable",
    });
  }

  return {
    async retryHeldPayment({ paymentId, actorId }) {
      const h = await getHeldPayment(db, paymentId);
      if (!h || h.resolvedAt) return { paymentId, outcome: "ended" };
      const retry = h.retry as RetryParams;
      try {
        const found = await payments.findMovementByKey({
          idempotencyKey: h.lastKey,
          kind: FIND_KIND[h.kind] ?? "payment_intent",
          paymentIntentId: retry.paymentIntentId,
          transferGroup: retry.transferGroup,
        });
        // A refused attempt can leave its intent at the provider waiting for a payment method: it moved nothing.
        if (found && found.status !== "requires_payment_method") {
          await markHeldPaid(db, {
            paymentId,
            status: found.status,
            providerRef: found.id,
            actorId,
          });
          return { paymentId, outcome: "paid" };
        }
        // What the new attempt is sent with: the card or payout account the retailer has now.
        let target: Parameters<typeof send>[3] = null;
        if (h.kind === "penalty") {
          const card = await getCardOnFile(db, h.retailerId);
          if (!card?.providerCustomerId) {
            await markHeldRefusedAgain(db, { paymentId, reason: NO_CARD, actorId });
            return { paymentId, outcome: "held" };
          }
          target = {
            customerId: card.providerCustomerId,
            paymentMethodId: card.providerPaymentMethodId,
          };
        } else if (h.kind === "transfer") {
          const account = await payoutAccountOf(db, h.retailerId);
          if (!account) {
            await markHeldRefusedAgain(db, { paymentId, reason: NO_PAYOUT_ACCOUNT, actorId });
            return { paymentId, outcome: "held" };
          }
          target = { account };
        }
        const nextKey = `${h.idempotencyKey}:retry-${h.attempts + 1}`;
        if (!(await claimNewAttempt(db, { paymentId, lastKey: h.lastKey, nextKey, actorId })))
          return { paymentId, outcome: "busy" };
        const sent = await send(h, nextKey, retry, target);
        await markHeldPaid(db, { paymentId, status: sent.status, providerRef: sent.id, actorId });
        return { paymentId, outcome: "paid" };
      } catch (err) {
        if (!(err instanceof PaymentRejectedError)) throw translate(err);
        log.warn("held payment refused again", { paymentId, code: err.code });
        await markHeldRefusedAgain(db, { paymentId, reason: err.code, actorId });
        return { paymentId, outcome: "held" };
      }
    },

    async queueHeldPaymentsDigest({ day }) {
      return { queued: await queueHeldPaymentsDigest(db, day, new Date()) };
    },
  };
}

/**
 * The buy workflow's activities (workflows/buy/activities.ts BuyActivities), for real: read model in Postgres
 * (db/queries/orders, payments, shipments, stock) with each step's notices queued in the outbox in the same
 * transaction as its state (the mail sender delivers them after the step), money through
 * the payments port (sandbox or Stripe) and pickups through the sandbox carrier.
 *
 * Money: every movement is first written to `payments` as queued under the workflow's idempotency key, then
 * sent to the provider with that same key, then completed; a retry finds both the row and the provider's
 * first answer. Expected outcomes are returned (a declined card -> declined; no card on file for a penalty
 * or no payout account for a payout -> queued, for staff to settle); a provider refusal that a retry cannot
 * fix during a capture is a non-retryable "PaymentRejected"; a reused key with other parameters is a
 * non-retryable "IdempotencyConflict"; anything else (an outage) is thrown and retried by Temporal.
 */
import { ApplicationFailure, Context, log as activityLog } from "@temporalio/activity";
import type { Db } from "../../db/client";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import { findConflictingOrders, recordOrderState, saveOrderRating } from "../../db/queries/orders";
import {
  beginPayment,
  completePayment,
  findSavedCard,
  getAuthorizationByIntent,
  markPaymentEventProcessed,
  PAYMENT_NAMES,
  payoutAccountOf,
  type PaymentRow,
} from "../../db/queries/payments";
import { getCardOnFile, getPaymentCustomerId, recordPaymentMethod } from "../../db/queries/settings";
import { getShippingAddress, upsertShipment } from "../../db/queries/shipments";
import { decrementStockOnce, restoreStockOnce, StockIdempotencyConflictError } from "../../db/queries/stock";
import { cardBrandLabel, CARD_MESSAGES } from "../../domain/cards";
import { CarrierIdempotencyConflictError, type SandboxCarrier } from "../carrier/sandbox";
import { IdempotencyConflictError, PaymentRejectedError, type PaymentsPort } from "../payments/port";
import { orderNoticeMail } from "./notices";
import type { BuyActivities } from "../../workflows/buy/activities";

/** The activity logger inside a worker; the console when called directly (tests, scripts). */
const log = {
  info: (msg: string, meta?: Record<string, unknown>) => logWith("info", msg, meta),
  warn: (msg: string, meta?: Record<string, unknown>) => logWith("warn", msg, meta),
  error: (msg: string, meta?: Record<string, unknown>) => logWith("error", msg, meta),
};
function logWith(level: "info" | "warn" | "error", msg: string, meta?: Record<string, unknown>): void {
  try {
    activityLog[level](msg, meta);
  } catch {
    console[level](`[buy activities] ${msg}`, meta ?? "");
  }
}

export interface BuyActivityDeps {
  db: Db;
  payments: PaymentsPort;
  carrier: SandboxCarrier;
  /** APP_ORIGIN, for links in e-mails. */
  appOrigin: string;
  /** MARKETPLACE_TZ: the zone e-mails show dates in. */
  timeZone: string;
}

/** Where the label of a tracking number is served (app route; sender and staff only). */
export function labelPath(trackingNumber: string): string {
  return `/shipping-label/${encodeURIComponent(trackingNumber)}`;
}

function conflict(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, "IdempotencyConflict");
}

/** Errors every money activity translates the same way. */
function translate(err: unknown): unknown {
  if (
    err instanceof IdempotencyConflictError ||
    err instanceof StockIdempotencyConflictError ||
    err instanceof CarrierIdempotencyConflictError
  ) {
    return conflict(err.message);
  }
  return err;
}

const meta = (orderId: number, step: string) => ({ order_id: String(orderId), step });

/**
 * How often a running buy activity heartbeats. The workflow's activity options set heartbeatTimeout 10 s
 * (workflows/buy/workflow.ts HEARTBEAT_TIMEOUT): an activity on a worker that died stops heartbeating and is
 * retried elsewhere after 10 s, not after its 30–60 s startToCloseTimeout. The SDK throttles heartbeats to
 * 80% of the timeout, so most activities (milliseconds) never send one.
 */
export const HEARTBEAT_EVERY_MS = 3_000;

/** Runs an activity, heartbeating while it runs; called outside a worker (tests, scripts) it just runs it. */
function keepAlive<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    let ctx: Context;
    try {
      ctx = Context.current();
    } catch {
      return fn(...args);
    }
    // A local activity cannot heartbeat: the worker keeps its workflow task alive instead.
    if (ctx.info.isLocal) return fn(...args);
    const timer = setInterval(() => {
      try {
        ctx.heartbeat();
      } catch {
        // the activity is finishing; nothing to keep alive
      }
    }, HEARTBEAT_EVERY_MS);
    try {
      return await fn(...args);
    } finally {
      clearInterval(timer);
    }
  };
}

/** Every activity of `activities` wrapped in keepAlive. */
function heartbeating<T extends object>(activities: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = typeof fn === "function" ? keepAlive(fn as (...args: unknown[]) => Promise<unknown>) : fn;
  }
  return out as T;
}

export function createBuyActivities(deps: BuyActivityDeps): BuyActivities {
  const { db, payments, carrier } = deps;

  /** The authorisation row of a PaymentIntent: who paid, with which card. */
  async function payerOf(paymentIntentId: string): Promise<PaymentRow> {
    const auth = await getAuthorizationByIntent(db, paymentIntentId);
    if (!auth) throw ApplicationFailure.nonRetryable(`no authorisation recorded for ${paymentIntentId}`, "PaymentRejected");
    return auth;
  }

  /** A refusal of a movement that must happen: kept queued and marked for staff; the order goes on. */
  async function parkForStaff(key: string, err: PaymentRejectedError): Promise<void> {
    log.error("payment refused by the provider: queued for staff", { key, code: err.code, message: err.message });
    await completePayment(db, key, { status: `failed:${err.code}`, providerRef: null, queued: true });
  }

  const activities: BuyActivities = {
    // --- read model and notices ------------------------------------------------------------------------
    async recordOrderState(input) {
      const r = await recordOrderState(db, {
        orderId: input.orderId,
        dedupeKey: input.dedupeKey,
        sequence: input.sequence,
        statename: input.statename,
        displayStatus: input.displayStatus,
        stage: input.stage,
        completed: input.completed,
        actionNeeded: input.actionNeeded,
        isModified: input.isModified,
        quote: input.amounts.quote,
        authorizedCents: input.amounts.authorizedCents,
        capturedCents: input.amounts.capturedCents,
        ledger: input.ledger as unknown as Record<string, number | boolean>,
        reasons: input.reasons,
        deadlines: input.deadlines,
        floorTime: input.floorTime ?? null,
        lines: input.lines,
        pendingLines: input.pendingLines,
        actions: input.actions,
        rating: input.rating ?? null,
        notices: (input.notices ?? []).map((n) => ({
          retailerId: n.retailerId,
          kind: `order:${n.template}`,
          dedupeKey: n.dedupeKey,
          ...orderNoticeMail(n, deps.appOrigin, deps.timeZone),
        })),
      });
      if (!r.recorded) log.info("order row gone: read-model write skipped", { orderId: input.orderId, statename: input.statename });
    },

    // --- payments --------------------------------------------------------------------------------------
    async authorizePayment(input) {
      const pm = input.paymentMethod;
      const saved = await findSavedCard(db, input.retailerId, pm.paymentMethodId);
      await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: input.retailerId,
        name: input.paymentName ?? PAYMENT_NAMES.authorization,
        txtype: "authorization",
        amountCents: input.amountCents,
        paymentMethodDescription: pm.description,
        lastFour: pm.lastFour,
      });
      try {
        const r = await payments.authorizePayment({
          idempotencyKey: input.idempotencyKey,
          amountCents: input.amountCents,
          paymentMethod: pm.paymentMethodId,
          customerId: saved?.customerId ?? null,
          description: input.description,
          metadata: meta(input.orderId, "authorize"),
        });
        const lastFour = r.last4 || pm.lastFour;
        const description = r.brand ? cardBrandLabel(r.brand) : pm.description;
        await completePayment(db, input.idempotencyKey, {
          status: r.status,
          providerRef: r.paymentIntentId,
          lastFour,
          paymentMethodDescription: description,
        });
        return { status: "authorized", paymentIntentId: r.paymentIntentId, amountCents: r.amountCents, lastFour, description };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          await completePayment(db, input.idempotencyKey, { status: "declined", providerRef: null });
          const message = err.code === "card_declined" ? CARD_MESSAGES.declined : err.message;
          return { status: "declined", declineCode: err.code, message };
        }
        throw translate(err);
      }
    },

    async capturePayment(input) {
      if (input.amountCents > input.authorizedCents) {
        throw ApplicationFailure.nonRetryable(
          `capture of ${input.amountCents} above the authorisation of ${input.authorizedCents}`,
          "PaymentRejected",
        );
      }
      const auth = await payerOf(input.paymentIntentId);
      await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: auth.retailerId,
        name: input.paymentName ?? PAYMENT_NAMES.capture,
        txtype: "capture",
        amountCents: input.amountCents,
        paymentMethodDescription: auth.paymentMethodDescription,
        lastFour: auth.lastFour,
      });
      try {
        const r = await payments.capturePayment({
          idempotencyKey: input.idempotencyKey,
          paymentIntentId: input.paymentIntentId,
          amountCents: input.amountCents,
        });
        await completePayment(db, input.idempotencyKey, { status: "succeeded", providerRef: r.paymentIntentId });
        await completePayment(db, auth.idempotencyKey, { status: "captured", providerRef: auth.providerRef });
        return { status: "captured", capturedCents: r.capturedCents, chargeId: r.chargeId };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          await completePayment(db, input.idempotencyKey, { status: `failed:${err.code}`, providerRef: null });
          throw ApplicationFailure.nonRetryable(err.message, "PaymentRejected");
        }
        throw translate(err);
      }
    },

    async releaseAuthorization(input) {
      const auth = await payerOf(input.paymentIntentId);
      await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: auth.retailerId,
        name: input.paymentName ?? PAYMENT_NAMES.release,
        txtype: "release",
        amountCents: input.amountCents,
        paymentMethodDescription: auth.paymentMethodDescription,
        lastFour: auth.lastFour,
      });
      try {
        await payments.releaseAuthorization({
          idempotencyKey: input.idempotencyKey,
          paymentIntentId: input.paymentIntentId,
          reason: input.reason === "cancelled" ? "requested_by_customer" : "abandoned",
        });
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          // Already canceled (or lapsed) at the provider: the authorisation is not held any more either way.
          if (err.code !== "payment_intent_unexpected_state") return parkForStaff(input.idempotencyKey, err);
          log.warn("authorisation was no longer held", { paymentIntentId: input.paymentIntentId, message: err.message });
        } else {
          throw translate(err);
        }
      }
      await completePayment(db, input.idempotencyKey, { status: "canceled", providerRef: input.paymentIntentId });
      await completePayment(db, auth.idempotencyKey, { status: "canceled", providerRef: auth.providerRef });
    },

    async refundPayment(input) {
      const auth = await payerOf(input.paymentIntentId);
      await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: auth.retailerId,
        name: input.paymentName ?? PAYMENT_NAMES.refund,
        txtype: "refund",
        amountCents: input.amountCents,
        paymentMethodDescription: auth.paymentMethodDescription,
        lastFour: auth.lastFour,
      });
      try {
        const r = await payments.refundPayment({
          idempotencyKey: input.idempotencyKey,
          paymentIntentId: input.paymentIntentId,
          amountCents: input.amountCents,
          metadata: { ...meta(input.orderId, "refund"), reason: input.reason },
        });
        await completePayment(db, input.idempotencyKey, { status: r.status, providerRef: r.refundId });
        return { status: "refunded", refundId: r.refundId };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          await parkForStaff(input.idempotencyKey, err);
          return { status: "queued", refundId: null };
        }
        throw translate(err);
      }
    },

    async chargeSellerPenalty(input) {
      const card = await getCardOnFile(db, input.retailerId);
      await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: input.retailerId,
        name: input.purpose === "rma" ? PAYMENT_NAMES.rmaCharge : PAYMENT_NAMES.penalty,
        txtype: "penalty",
        amountCents: input.amountCents,
        paymentMethodDescription: card?.description ?? null,
        lastFour: card?.lastFour ?? null,
      });
      if (!card || !card.providerCustomerId || input.amountCents === 0) {
        // No card on file: recorded, queued for staff ("payment is queued for processing.").
        return { status: "queued", chargeId: null };
      }
      try {
        const r = await payments.chargeSavedCard({
          idempotencyKey: input.idempotencyKey,
          amountCents: input.amountCents,
          customerId: card.providerCustomerId,
          paymentMethodId: card.providerPaymentMethodId,
          description: input.purpose === "rma" ? `RMA charge: RMA ${input.orderId}` : `Penalty: order ${input.orderId} not shipped`,
          metadata: meta(input.orderId, "penalty"),
        });
        await completePayment(db, input.idempotencyKey, { status: "succeeded", providerRef: r.paymentIntentId });
        return { status: "charged", chargeId: r.chargeId };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          await parkForStaff(input.idempotencyKey, err);
          return { status: "queued", chargeId: null };
        }
        throw translate(err);
      }
    },

    async releaseSellerPayout(input) {
      const account = await payoutAccountOf(db, input.retailerId);
      const row = await beginPayment(db, {
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        retailerId: input.retailerId,
        name: input.paymentName ?? PAYMENT_NAMES.payout,
        txtype: "transfer",
        amountCents: input.amountCents,
      });
      const releasedAt = row.releasedAt ?? new Date();
      if (!account) {
        await completePayment(db, input.idempotencyKey, { status: "queued", providerRef: null, queued: true, releasedAt });
        return { status: "queued", transferId: null, releasedAt: releasedAt.toISOString() };
      }
      try {
        const r = await payments.createTransfer({
          idempotencyKey: input.idempotencyKey,
          amountCents: input.amountCents,
          destination: account,
          transferGroup: `order-${input.orderId}`,
          metadata: meta(input.orderId, "payout"),
        });
        await completePayment(db, input.idempotencyKey, { status: "paid", providerRef: r.transferId, releasedAt });
        return { status: "paid", transferId: r.transferId, releasedAt: releasedAt.toISOString() };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          log.error("payout refused by the provider: queued for staff", {
            key: input.idempotencyKey,
            code: err.code,
            message: err.message,
          });
          await completePayment(db, input.idempotencyKey, { status: `failed:${err.code}`, providerRef: null, queued: true, releasedAt });
          return { status: "queued", transferId: null, releasedAt: releasedAt.toISOString() };
        }
        throw translate(err);
      }
    },

    async getCardOnFile({ retailerId }) {
      const card = await getCardOnFile(db, retailerId);
      return card ? { paymentMethodId: card.providerPaymentMethodId, lastFour: card.lastFour, description: card.description } : null;
    },

    async saveCardOnFile(input) {
      try {
        let pmId = input.paymentMethod.paymentMethodId;
        if (/^tok_/.test(pmId)) {
          pmId = (
            await payments.createPaymentMethodFromTestCard({ idempotencyKey: `${input.idempotencyKey}:payment-method`, testToken: pmId })
          ).id;
        }
        const customerId = await getPaymentCustomerId(db, input.retailerId);
        const email = (await retailerNoticeAddress(db, input.retailerId)) ?? undefined;
        const attached = await payments.attachPaymentMethod({
          idempotencyKey: input.idempotencyKey,
          retailerId: input.retailerId,
          paymentMethodId: pmId,
          customerId,
          email,
        });
        const description = cardBrandLabel(attached.brand);
        await recordPaymentMethod(db, {
          retailerId: input.retailerId,
          providerPaymentMethodId: attached.paymentMethodId,
          providerCustomerId: attached.customerId,
          description,
          lastFour: attached.last4,
        });
        return { status: "saved", card: { paymentMethodId: attached.paymentMethodId, lastFour: attached.last4, description } };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          return { status: "declined", message: err.code === "card_declined" ? CARD_MESSAGES.declined : err.message };
        }
        throw translate(err);
      }
    },

    async recordPaymentEvent(input) {
      await markPaymentEventProcessed(db, input.eventId);
    },

    // --- stock -----------------------------------------------------------------------------------------
    async findConflictingOrders(input) {
      return { orderIds: await findConflictingOrders(db, input) };
    },

    async approvalFacts(input) {
      // Two independent reads, side by side: the card on file and the conflicting pending orders.
      const [card, orderIds] = await Promise.all([getCardOnFile(db, input.providerId), findConflictingOrders(db, input)]);
      return { cardOnFile: card !== null, conflictingOrderIds: orderIds };
    },

    async decrementStock(input) {
      try {
        return await decrementStockOnce(db, input);
      } catch (err) {
        throw translate(err);
      }
    },

    async restoreStock(input) {
      try {
        await restoreStockOnce(db, input);
      } catch (err) {
        throw translate(err);
      }
    },

    // --- carrier ---------------------------------------------------------------------------------------
    async bookPickup(input) {
      const address = await getShippingAddress(db, input.receiverId);
      if (!address) throw ApplicationFailure.nonRetryable(`retailer ${input.receiverId} not found`, "InvalidInput");
      try {
        const booking = await carrier.bookPickup({
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          externalId: input.externalId,
          attempt: input.attempt,
          senderId: input.senderId,
          receiverId: input.receiverId,
          to: address,
          units: input.units,
          pickupBy: input.pickupBy,
        });
        const labelUrl = labelPath(booking.trackingNumber);
        await upsertShipment(db, {
          orderId: input.orderId,
          senderId: input.senderId,
          receiverId: input.receiverId,
          trackingNumber: booking.trackingNumber,
          callTag: booking.callTag,
          labelUrl,
          pickupBy: new Date(input.pickupBy),
        });
        return { ...booking, labelUrl };
      } catch (err) {
        throw translate(err);
      }
    },

    async cancelPickup(input) {
      await carrier.cancelPickup(input);
    },

    // --- ratings ---------------------------------------------------------------------------------------
    async saveOrderRating(input) {
      await saveOrderRating(db, input);
    },
  };
  return heartbeating(activities);
}

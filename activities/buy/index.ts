/**
 * The buy workflow's activities (workflows/buy/activities.ts BuyActivities), for real: read model in Postgres
 * (db/queries/orders, payments, shipments, stock) with each step's notices queued in the outbox in the same
 * transaction as its state (the mail sender delivers them after the step), money through
 * the payments port (sandbox or Stripe) and pickups through the sandbox carrier.
 *
 * Money (activities/buy/payments.ts, one recordedPayment each): every movement is first written to `payments` as queued under the workflow's idempotency key, then
 * sent to the provider with that same key, then completed; a retry finds both the row and the provider's
 * first answer. Expected outcomes are returned (a declined card -> declined; a penalty, refund, release or
 * payout the provider refuses, or with no card on file or no payout account -> queued and held: on staff's
 * "Payments needing attention", the retailer told, tried again when it adds what was missing; ADR 0044); a
 * provider refusal that a retry cannot fix during a capture is a non-retryable "PaymentRejected"; a reused key
 * with other parameters is a non-retryable "IdempotencyConflict"; anything else (an outage) is thrown and
 * retried by Temporal.
 */
import { ApplicationFailure, Context } from "@temporalio/activity";
import type { Db } from "../../db/client";
import { findConflictingOrders, recordOrderState, saveOrderRating } from "../../db/queries/orders";
import { getCardOnFile } from "../../db/queries/settings";
import { getShippingAddress, upsertShipment } from "../../db/queries/shipments";
import { openOffersOutOfUnits } from "../../db/queries/offers";
import { decrementStockOnce, restoreStockOnce } from "../../db/queries/stock";
import type { SandboxCarrier } from "../carrier/sandbox";
import type { PaymentsPort } from "../payments/port";
import { log, translate } from "./log";
import { orderNoticeMail } from "./notices";
import type { BuyActivities } from "../../workflows/buy/activities";
import { offerUnitsTakenSignal } from "../../workflows/offer/contract";
import { createPaymentActivities } from "./payments";

export interface BuyActivityDeps {
  db: Db;
  payments: PaymentsPort;
  carrier: SandboxCarrier;
  /** APP_ORIGIN, for links in e-mails. */
  appOrigin: string;
  /** MARKETPLACE_TZ: the zone e-mails show dates in. */
  timeZone: string;
  /**
   * Tells an open offer's run that an order took its units (default: the offer's "units taken" signal, sent
   * with the worker's client from the activity's context).
   */
  tellOfferUnitsTaken?: (offerWorkflowId: string) => Promise<void>;
}

/** The offer's "units taken" signal, sent with the client of the worker running this activity. */
async function signalUnitsTaken(offerWorkflowId: string): Promise<void> {
  await Context.current().client.workflow.getHandle(offerWorkflowId).signal(offerUnitsTakenSignal);
}

/** Where the label of a tracking number is served (app route; sender and staff only). */
export function labelPath(trackingNumber: string): string {
  return `/shipping-label/${encodeURIComponent(trackingNumber)}`;
}

/**
 * How often a running buy activity heartbeats. The workflow's activity options set heartbeatTimeout 10 s
 * (workflows/buy/workflow.ts HEARTBEAT_TIMEOUT): an activity on a worker that died stops heartbeating and is
 * retried elsewhere after 10 s, not after its 30–60 s startToCloseTimeout. The SDK throttles heartbeats to
 * 80% of the timeout, so most activities (milliseconds) never send one.
 */
export const HEARTBEAT_EVERY_MS = 3_000;

/** Runs an activity, heartbeating while it runs; called outside a worker (tests, scripts) it just runs it. */
function keepAlive<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
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
    out[name] =
      typeof fn === "function" ? keepAlive(fn as (...args: unknown[]) => Promise<unknown>) : fn;
  }
  return out as T;
}

export function createBuyActivities(deps: BuyActivityDeps): BuyActivities {
  const { db, payments, carrier } = deps;
  const tellOffer = deps.tellOfferUnitsTaken ?? signalUnitsTaken;

  /**
   * The open offers on units this order just took are declined at once, their holds released
   * (docs/product/offers.md, "Units another order takes"). Best effort: an offer not told now is declined when
   * it is accepted, so a failure here is logged and the order goes on.
   */
  async function tellOffersOutOfUnits(lines: { listingId: number | null }[]): Promise<void> {
    const listingIds = new Set(lines.flatMap((l) => (l.listingId === null ? [] : [l.listingId])));
    for (const listingId of listingIds) {
      try {
        for (const offer of await openOffersOutOfUnits(db, listingId))
          await tellOffer(offer.workflowId).catch((err: unknown) =>
            log.warn("offer not told its units were taken", {
              offerId: offer.offerId,
              message: err instanceof Error ? err.message : String(err),
            }),
          );
      } catch (err) {
        log.warn("open offers of a listing not read after its units were taken", {
          listingId,
          message: err instanceof Error ? err.message : String(err),
        });
      }
    }
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
        approvedByUserId: input.approvedByUserId ?? null,
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
      if (!r.recorded)
        log.info("order row gone: read-model write skipped", {
          orderId: input.orderId,
          statename: input.statename,
        });
    },

    ...createPaymentActivities({ db, payments }),

    // --- stock -----------------------------------------------------------------------------------------
    async findConflictingOrders(input) {
      return { orderIds: await findConflictingOrders(db, input) };
    },

    async approvalFacts(input) {
      // Two independent reads, side by side: the card on file and the conflicting pending orders.
      const [card, orderIds] = await Promise.all([
        getCardOnFile(db, input.providerId),
        findConflictingOrders(db, input),
      ]);
      return { cardOnFile: card !== null, conflictingOrderIds: orderIds };
    },

    async decrementStock(input) {
      let result;
      try {
        result = await decrementStockOnce(db, input);
      } catch (err) {
        throw translate(err);
      }
      if (result.ok) await tellOffersOutOfUnits(input.lines);
      return result;
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
      if (!address)
        throw ApplicationFailure.nonRetryable(
          `retailer ${input.receiverId} not found`,
          "InvalidInput",
        );
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
          trackingUrl: booking.trackingUrl,
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

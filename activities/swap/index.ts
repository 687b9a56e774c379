/**
 * The swap workflow's activities (workflows/swap/activities.ts SwapActivities), for real. Money, stock and the
 * carrier go through the buy activities (activities/buy/index.ts: the same payments rows, idempotency keys,
 * sandbox carrier and stock queries, and the same answers to a declined card, a missing card on file or
 * payout account, and an outage); the read model is the swap's own (db/queries/swap-orders.ts), with both
 * sides' goods and each side's notices queued in the same transaction.
 */
import type { Db } from "../../db/client";
import { getAuthorizationByIntent, SWAP_PAYMENT_NAMES } from "../../db/queries/payments";
import { recordSwapState, saveSwapRating, swapListedUnits } from "../../db/queries/swap-orders";
import { orderNumber } from "../../domain/cart";
import { swapValuation } from "../../domain/fees";
import { orderQuote, orderUnits, type OrderLine } from "../../domain/order-money";
import { completedFlagFor, stageForState, type Role } from "../../domain/states";
import type { OrderProviderActivities } from "../../workflows/buy/activities";
import { swapNoticeMail } from "./notices";
import type { SwapActivities, SwapStateRecord } from "../../workflows/swap/activities";

export interface SwapActivityDeps {
  db: Db;
  /** The provider and stock activities of the same worker (payments, stock, carrier). */
  buy: OrderProviderActivities;
  /** APP_ORIGIN, for links in e-mails. */
  appOrigin: string;
  /** MARKETPLACE_TZ: the zone e-mails show dates in. */
  timeZone: string;
}

/** Which deadline a notice asks the retailer to meet. */
const NOTICE_DEADLINE: Record<string, keyof SwapStateRecord["deadlines"] | undefined> = {
  swap_store_approval_needed: "storeApprovalBy",
  swap_choose_items: "turnBy",
  swap_modified: "turnBy",
  swap_approve_needed: "turnBy",
  swap_call_it_even: "turnBy",
  swap_payment_needed: "paymentBy",
  swap_ready_for_pickup: "pickupBy",
  swap_pickup_rescheduled: "pickupBy",
};

/** Fee, shipping and due of each side, and the valuation as the order card shows it (domain/fees swapValuation). */
export function swapAmounts(
  rec: Pick<SwapStateRecord, "providerLines" | "receiverLines" | "callItEven">,
) {
  const side = (lines: OrderLine[]) => ({
    goodsCents: orderQuote(lines).goodsCents,
    units: orderUnits(lines),
  });
  const v = swapValuation({
    provider: side(rec.providerLines),
    receiver: side(rec.receiverLines),
    callItEven: rec.callItEven.provider || rec.callItEven.receiver,
  });
  const amounts = {
    provider: {
      feeCents: v.provider.feeCents,
      shippingCents: v.provider.shippingCents,
      dueCents: v.provider.totalDueCents,
    },
    receiver: {
      feeCents: v.receiver.feeCents,
      shippingCents: v.receiver.shippingCents,
      dueCents: v.receiver.totalDueCents,
    },
  };
  const ledger: Record<string, number | boolean> = {
    providerGoodsCents: v.provider.goodsCents,
    receiverGoodsCents: v.receiver.goodsCents,
    largerGoodsCents: v.largerGoodsCents,
    differenceCents: v.differenceCents,
    forgivenCents: v.forgivenCents,
    providerCashCents: v.provider.cashCents,
    receiverCashCents: v.receiver.cashCents,
    providerDueCents: v.provider.totalDueCents,
    receiverDueCents: v.receiver.totalDueCents,
    callItEven: rec.callItEven.provider || rec.callItEven.receiver,
  };
  return { amounts, ledger, valueCents: v.provider.goodsCents };
}

export function createSwapActivities(deps: SwapActivityDeps): SwapActivities {
  const { db, buy, appOrigin, timeZone } = deps;
  const partyOf = (rec: SwapStateRecord, role: Role) =>
    role === "provider" ? rec.providerId : rec.receiverId;

  return {
    async recordSwapState(rec) {
      const { amounts, ledger, valueCents } = swapAmounts(rec);
      await recordSwapState(db, {
        orderId: rec.orderId,
        dedupeKey: `${rec.workflowId}:record:${rec.sequence}`,
        sequence: rec.sequence,
        statename: rec.statename,
        displayStatus: rec.displayStatus,
        stage: stageForState(rec.statename),
        completed: completedFlagFor(rec.statename),
        actionNeeded: rec.actionNeeded,
        isModified: rec.isModified,
        lines: { provider: rec.providerLines, receiver: rec.receiverLines },
        amounts,
        valueCents,
        ledger,
        reasons: rec.reasons,
        deadlines: rec.deadlines,
        sides: rec.sides,
        view: rec.view ? { ...rec.view } : null,
        approvedByUserId: rec.approvedByUserId ?? null,
        actions: rec.actions.map((a) => ({
          code: a.code,
          role: a.role,
          participantId:
            a.role === "provider" || a.role === "receiver" ? partyOf(rec, a.role) : null,
          statename: a.statename,
          at: a.at,
        })),
        notices: rec.notices.map((n) => {
          const deadline = NOTICE_DEADLINE[n.template];
          const mail = swapNoticeMail(
            {
              template: n.template,
              orderId: rec.orderId,
              externalId: rec.externalId,
              counterpartyId: partyOf(rec, n.role === "provider" ? "receiver" : "provider"),
              actBy: deadline ? (rec.deadlines[deadline] ?? null) : null,
            },
            appOrigin,
            timeZone,
          );
          return {
            retailerId: partyOf(rec, n.role),
            kind: `swap:${n.template}`,
            dedupeKey: n.dedupeKey,
            ...mail,
          };
        }),
      });
    },

    async authorizeSwap(input) {
      const r = await buy.authorizePayment({
        ...input,
        description: `Swap ${orderNumber(input.orderId)}: fee and shipping`,
        paymentName: SWAP_PAYMENT_NAMES.authorization,
      });
      return r.status === "authorized"
        ? { status: "authorized", paymentIntentId: r.paymentIntentId }
        : { status: "declined", message: r.message };
    },

    async releaseSwapAuthorization(input) {
      const auth = await getAuthorizationByIntent(db, input.paymentIntentId);
      await buy.releaseAuthorization({
        ...input,
        amountCents: auth?.amountCents ?? 0,
        reason: "cancelled",
        paymentName: SWAP_PAYMENT_NAMES.release,
      });
    },

    /** "Make Payment": an authorisation of the side's due captured at once (two keys derived from the step's). */
    async chargeSwapSide(input) {
      const auth = await buy.authorizePayment({
        idempotencyKey: `${input.idempotencyKey}:authorize`,
        orderId: input.orderId,
        retailerId: input.retailerId,
        paymentMethod: input.paymentMethod,
        amountCents: input.amountCents,
        description: `Swap ${orderNumber(input.orderId)}: payment`,
        paymentName: SWAP_PAYMENT_NAMES.paymentAuthorization,
      });
      if (auth.status === "declined") return { status: "declined", message: auth.message };
      await buy.capturePayment({
        idempotencyKey: `${input.idempotencyKey}:capture`,
        orderId: input.orderId,
        paymentIntentId: auth.paymentIntentId,
        amountCents: input.amountCents,
        authorizedCents: input.amountCents,
        paymentName: SWAP_PAYMENT_NAMES.capture,
      });
      return { status: "charged", paymentIntentId: auth.paymentIntentId };
    },

    async refundSwapSide(input) {
      await buy.refundPayment({
        ...input,
        reason: "not_picked_up",
        paymentName: SWAP_PAYMENT_NAMES.refund,
      });
    },

    async chargeSwapPenalty(input) {
      const r = await buy.chargeSellerPenalty(input);
      return { status: r.status };
    },

    async payOutSwapSide(input) {
      const r = await buy.releaseSellerPayout({ ...input, paymentName: SWAP_PAYMENT_NAMES.payout });
      return { status: r.status };
    },

    async swapListedUnits(input) {
      return swapListedUnits(db, input.listingIds);
    },

    async decrementSwapStock(input) {
      const r = await buy.decrementStock(input);
      return { ok: r.ok };
    },

    async bookSwapPickup(input) {
      const b = await buy.bookPickup({
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        externalId: orderNumber(input.orderId),
        attempt: input.attempt,
        senderId: input.senderId,
        receiverId: input.receiverId,
        units: input.units,
        pickupBy: input.pickupBy,
      });
      return { trackingNumber: b.trackingNumber, callTag: b.callTag };
    },

    async saveSwapRating(input) {
      await saveSwapRating(db, input);
    },
  };
}

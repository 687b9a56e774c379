/**
 * The payment activities every order kind shares (workflows/buy/activities.ts OrderProviderActivities), and the
 * cards on file. Each money movement is one `recordedPayment`: its `payments` row written as queued under the
 * workflow's idempotency key, then sent to the provider with that same key, then completed; a retry finds both
 * the row and the provider's first answer (activities/buy/index.ts says what each outcome becomes). An order
 * created before a restore asks the provider first (docs/decisions/0048-restore-asks-the-provider.md).
 */
import { ApplicationFailure } from "@temporalio/activity";
import type { Db } from "../../db/client";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import {
  beginPayment,
  completePayment,
  externalIdOf,
  findSavedCard,
  getAuthorizationByIntent,
  markPaymentEventProcessed,
  PAYMENT_NAMES,
  payoutAccountOf,
  type BeginPaymentInput,
  type PaymentRow,
} from "../../db/queries/payments";
import {
  getCardOnFile,
  getPaymentCustomerId,
  recordPaymentMethod,
} from "../../db/queries/settings";
import { holdPayment, type HoldInput } from "../../db/queries/held-payments";
import { cardBrandLabel, CARD_MESSAGES } from "../../domain/cards";
import { orderPredatesRestore } from "../../db/queries/restores";
import { askingFirst } from "../payments/ask-first";
import { heldNeed, NO_CARD, NO_PAYOUT_ACCOUNT, type HeldKind } from "../../domain/held-payments";
import { PaymentRejectedError, type PaymentsPort } from "../payments/port";
import { log, translate } from "./log";
import type {
  AuthorizePaymentResult,
  BuyActivities,
  CapturePaymentResult,
  ChargePenaltyResult,
  RefundPaymentResult,
  ReleasePayoutResult,
} from "../../workflows/buy/activities";

/** What a movement's row is completed with (db/queries/payments completePayment). */
type PaymentOutcome = Parameters<typeof completePayment>[2];

/**
 * How a movement ends: the outcome written on its row (none: the row stays queued, as begun), the authorisation
 * it settles (a capture, a release), then the activity's answer, or the failure it throws.
 */
type Recorded<T> = {
  outcome?: PaymentOutcome;
  settles?: { row: PaymentRow; status: string };
  /** The movement is held for a new attempt or staff (db/queries/held-payments holdPayment), the retailer told. */
  hold?: Hold;
} & ({ answer: T } | { fails: ApplicationFailure });

/**
 * One money movement: its row begun as queued under `row.idempotencyKey` (or the row a first try began),
 * `send` to the provider with that key, and the outcome recorded. A refusal of the provider
 * (PaymentRejectedError) is `refused`'s to answer; a reused key is a non-retryable "IdempotencyConflict";
 * anything else (an outage) is thrown, for Temporal to retry with the same key.
 */
export async function recordedPayment<T>(
  db: Db,
  row: BeginPaymentInput,
  send: (begun: PaymentRow) => Promise<Recorded<T>>,
  refused: (err: PaymentRejectedError, begun: PaymentRow) => Recorded<T>,
): Promise<T> {
  const begun = await beginPayment(db, row);
  let recorded: Recorded<T>;
  try {
    recorded = await send(begun);
  } catch (err) {
    if (!(err instanceof PaymentRejectedError)) throw translate(err);
    recorded = refused(err, begun);
  }
  if (recorded.hold && recorded.outcome)
    await holdPayment(db, {
      idempotencyKey: row.idempotencyKey,
      status: recorded.outcome.status,
      releasedAt: recorded.outcome.releasedAt ?? undefined,
      ...recorded.hold,
    });
  else if (recorded.outcome) await completePayment(db, row.idempotencyKey, recorded.outcome);
  if (recorded.settles) {
    const { row: auth, status } = recorded.settles;
    await completePayment(db, auth.idempotencyKey, { status, providerRef: auth.providerRef });
  }
  if ("fails" in recorded) throw recorded.fails;
  return recorded.answer;
}

type Hold = Omit<HoldInput, "idempotencyKey" | "status" | "releasedAt">;

/**
 * A movement that must happen but cannot now (refused by the provider: `err`; or never sent: a reason code):
 * kept queued and held (docs/decisions/0044-payments-needing-attention.md), with what a new attempt needs; the
 * order goes on. Staff see it on "Payments needing attention", the retailer is told what to do.
 */
function held(
  key: string,
  kind: HeldKind,
  why: PaymentRejectedError | string,
  retry: Record<string, unknown>,
  releasedAt?: Date,
): { outcome: PaymentOutcome; hold: Hold } {
  const reason = typeof why === "string" ? why : why.code;
  if (typeof why !== "string")
    log.error("payment refused by the provider: held for a new attempt or staff", {
      key,
      code: why.code,
      message: why.message,
    });
  return {
    outcome: {
      status: typeof why === "string" ? "queued" : `failed:${why.code}`,
      providerRef: null,
      queued: true,
      ...(releasedAt ? { releasedAt } : {}),
    },
    hold: { reason, need: heldNeed(kind), retry },
  };
}

/**
 * A movement's metadata at the provider: its order, its step and the idempotency key it was sent with (what a
 * retry of a held movement, a reconciliation or a restore asks the provider about).
 */
export const movementMetadata = (orderId: number, step: string, idempotencyKey: string) => ({
  order_id: String(orderId),
  step,
  idempotency_key: idempotencyKey,
});
const meta = movementMetadata;

type PaymentActivities = Pick<
  BuyActivities,
  | "authorizePayment"
  | "capturePayment"
  | "releaseAuthorization"
  | "refundPayment"
  | "chargeSellerPenalty"
  | "releaseSellerPayout"
  | "getCardOnFile"
  | "saveCardOnFile"
  | "recordPaymentEvent"
>;

export function createPaymentActivities({
  db,
  payments,
}: {
  db: Db;
  payments: PaymentsPort;
}): PaymentActivities {
  /**
   * The provider as a movement of this order reaches it: an order created before a restore asks it first whether
   * the movement already happened (docs/decisions/0048-restore-asks-the-provider.md).
   */
  async function providerFor(orderId: number): Promise<PaymentsPort> {
    if (!(await orderPredatesRestore(db, orderId))) return payments;
    return askingFirst(payments, (key, movement) =>
      log.warn("restored order: the provider already has this movement; recorded, not sent again", {
        key,
        providerRef: movement.id,
      }),
    );
  }

  /** The order's or RMA's number (what its page and the provider dashboard link search for); else its id. */
  async function numberOf(orderId: number): Promise<string> {
    return (await externalIdOf(db, orderId)) ?? `order id ${orderId}`;
  }

  /** The authorisation row of a PaymentIntent: who paid, with which card. */
  async function payerOf(paymentIntentId: string): Promise<PaymentRow> {
    const auth = await getAuthorizationByIntent(db, paymentIntentId);
    if (!auth)
      throw ApplicationFailure.nonRetryable(
        `no authorisation recorded for ${paymentIntentId}`,
        "PaymentRejected",
      );
    return auth;
  }
  /** The begun row of a movement on an authorisation (its payer and card). */
  const onAuthorization = (
    auth: PaymentRow,
    input: { idempotencyKey: string; orderId: number; amountCents: number },
  ) => ({
    idempotencyKey: input.idempotencyKey,
    orderId: input.orderId,
    retailerId: auth.retailerId,
    amountCents: input.amountCents,
    paymentMethodDescription: auth.paymentMethodDescription,
    lastFour: auth.lastFour,
  });

  return {
    async authorizePayment(input) {
      const pm = input.paymentMethod;
      const saved = await findSavedCard(db, input.retailerId, pm.paymentMethodId);
      return recordedPayment<AuthorizePaymentResult>(
        db,
        {
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          retailerId: input.retailerId,
          name: input.paymentName ?? PAYMENT_NAMES.authorization,
          txtype: "authorization",
          amountCents: input.amountCents,
          paymentMethodDescription: pm.description,
          lastFour: pm.lastFour,
        },
        async () => {
          const r = await (
            await providerFor(input.orderId)
          ).authorizePayment({
            idempotencyKey: input.idempotencyKey,
            amountCents: input.amountCents,
            paymentMethod: pm.paymentMethodId,
            customerId: saved?.customerId ?? null,
            description: input.description,
            metadata: meta(input.orderId, "authorize", input.idempotencyKey),
          });
          const lastFour = r.last4 || pm.lastFour;
          const description = r.brand ? cardBrandLabel(r.brand) : pm.description;
          return {
            outcome: {
              status: r.status,
              providerRef: r.paymentIntentId,
              lastFour,
              paymentMethodDescription: description,
            },
            answer: {
              status: "authorized",
              paymentIntentId: r.paymentIntentId,
              amountCents: r.amountCents,
              lastFour,
              description,
            },
          };
        },
        (err) => ({
          outcome: { status: "declined", providerRef: null },
          answer: {
            status: "declined",
            declineCode: err.code,
            message: err.code === "card_declined" ? CARD_MESSAGES.declined : err.message,
          },
        }),
      );
    },

    async capturePayment(input) {
      if (input.amountCents > input.authorizedCents) {
        throw ApplicationFailure.nonRetryable(
          `capture of ${input.amountCents} above the authorisation of ${input.authorizedCents}`,
          "PaymentRejected",
        );
      }
      const auth = await payerOf(input.paymentIntentId);
      return recordedPayment<CapturePaymentResult>(
        db,
        {
          ...onAuthorization(auth, input),
          name: input.paymentName ?? PAYMENT_NAMES.capture,
          txtype: "capture",
        },
        async () => {
          const r = await (
            await providerFor(input.orderId)
          ).capturePayment({
            idempotencyKey: input.idempotencyKey,
            paymentIntentId: input.paymentIntentId,
            amountCents: input.amountCents,
          });
          return {
            outcome: { status: "succeeded", providerRef: r.paymentIntentId },
            settles: { row: auth, status: "captured" },
            answer: { status: "captured", capturedCents: r.capturedCents, chargeId: r.chargeId },
          };
        },
        (err) => ({
          outcome: { status: `failed:${err.code}`, providerRef: null },
          fails: ApplicationFailure.nonRetryable(err.message, "PaymentRejected"),
        }),
      );
    },

    async releaseAuthorization(input) {
      const auth = await payerOf(input.paymentIntentId);
      const released = {
        outcome: { status: "canceled", providerRef: input.paymentIntentId },
        settles: { row: auth, status: "canceled" },
        answer: undefined,
      };
      return recordedPayment<void>(
        db,
        {
          ...onAuthorization(auth, input),
          name: input.paymentName ?? PAYMENT_NAMES.release,
          txtype: "release",
        },
        async () => {
          await payments.releaseAuthorization({
            idempotencyKey: input.idempotencyKey,
            paymentIntentId: input.paymentIntentId,
            reason: input.reason === "cancelled" ? "requested_by_customer" : "abandoned",
          });
          return released;
        },
        (err) => {
          if (err.code !== "payment_intent_unexpected_state")
            return {
              ...held(input.idempotencyKey, "release", err, {
                paymentIntentId: input.paymentIntentId,
                reason: input.reason,
              }),
              answer: undefined,
            };
          // Already canceled (or lapsed) at the provider: the authorisation is not held any more either way.
          log.warn("authorisation was no longer held", {
            paymentIntentId: input.paymentIntentId,
            message: err.message,
          });
          return released;
        },
      );
    },

    async refundPayment(input) {
      const auth = await payerOf(input.paymentIntentId);
      return recordedPayment<RefundPaymentResult>(
        db,
        {
          ...onAuthorization(auth, input),
          name: input.paymentName ?? PAYMENT_NAMES.refund,
          txtype: "refund",
        },
        async () => {
          const r = await (
            await providerFor(input.orderId)
          ).refundPayment({
            idempotencyKey: input.idempotencyKey,
            paymentIntentId: input.paymentIntentId,
            amountCents: input.amountCents,
            metadata: {
              ...meta(input.orderId, "refund", input.idempotencyKey),
              reason: input.reason,
            },
          });
          return {
            outcome: { status: r.status, providerRef: r.refundId },
            answer: { status: "refunded", refundId: r.refundId },
          };
        },
        (err) => ({
          ...held(input.idempotencyKey, "refund", err, {
            paymentIntentId: input.paymentIntentId,
            reason: input.reason,
          }),
          answer: { status: "queued", refundId: null },
        }),
      );
    },

    async chargeSellerPenalty(input) {
      const card = await getCardOnFile(db, input.retailerId);
      const rma = input.purpose === "rma";
      // What staff search the provider's dashboard with: the order's or RMA's number.
      const number = await numberOf(input.orderId);
      const description = rma ? `RMA charge: ${number}` : `Penalty: order ${number} not shipped`;
      return recordedPayment<ChargePenaltyResult>(
        db,
        {
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          retailerId: input.retailerId,
          name: rma ? PAYMENT_NAMES.rmaCharge : PAYMENT_NAMES.penalty,
          txtype: "penalty",
          amountCents: input.amountCents,
          paymentMethodDescription: card?.description ?? null,
          lastFour: card?.lastFour ?? null,
        },
        async () => {
          // Nothing to charge: recorded, queued ("payment is queued for processing.").
          if (input.amountCents === 0) return { answer: { status: "queued", chargeId: null } };
          // No card on file: held until the seller adds one (an RMA's workflow waits for the card itself).
          if (!card || !card.providerCustomerId)
            return rma
              ? { answer: { status: "queued", chargeId: null } }
              : {
                  ...held(input.idempotencyKey, "penalty", NO_CARD, { description }),
                  answer: { status: "queued", chargeId: null },
                };
          const r = await (
            await providerFor(input.orderId)
          ).chargeSavedCard({
            idempotencyKey: input.idempotencyKey,
            amountCents: input.amountCents,
            customerId: card.providerCustomerId,
            paymentMethodId: card.providerPaymentMethodId,
            description,
            metadata: meta(input.orderId, "penalty", input.idempotencyKey),
          });
          return {
            outcome: { status: "succeeded", providerRef: r.paymentIntentId },
            answer: { status: "charged", chargeId: r.chargeId },
          };
        },
        (err) =>
          rma
            ? {
                outcome: { status: `failed:${err.code}`, providerRef: null, queued: true },
                answer: { status: "queued", chargeId: null },
              }
            : {
                ...held(input.idempotencyKey, "penalty", err, { description }),
                answer: { status: "queued", chargeId: null },
              },
      );
    },

    async releaseSellerPayout(input) {
      const account = await payoutAccountOf(db, input.retailerId);
      const transferGroup = `order-${input.orderId}`;
      const description = `Payout: ${await numberOf(input.orderId)}`;
      const queued = (releasedAt: Date) => ({
        status: "queued" as const,
        transferId: null,
        releasedAt: releasedAt.toISOString(),
      });
      /** When the payout left escrow: the first try's, else now (read once). */
      let released: Date | undefined;
      const releasedAtOf = (begun: PaymentRow) => (released ??= begun.releasedAt ?? new Date());
      return recordedPayment<ReleasePayoutResult>(
        db,
        {
          idempotencyKey: input.idempotencyKey,
          orderId: input.orderId,
          retailerId: input.retailerId,
          name: input.paymentName ?? PAYMENT_NAMES.payout,
          txtype: "transfer",
          amountCents: input.amountCents,
        },
        async (begun) => {
          const releasedAt = releasedAtOf(begun);
          if (!account)
            return {
              ...held(
                input.idempotencyKey,
                "transfer",
                NO_PAYOUT_ACCOUNT,
                { transferGroup, description },
                releasedAt,
              ),
              answer: queued(releasedAt),
            };
          const r = await (
            await providerFor(input.orderId)
          ).createTransfer({
            idempotencyKey: input.idempotencyKey,
            amountCents: input.amountCents,
            destination: account,
            description,
            transferGroup,
            metadata: meta(input.orderId, "payout", input.idempotencyKey),
          });
          return {
            outcome: { status: "paid", providerRef: r.transferId, releasedAt },
            answer: {
              status: "paid",
              transferId: r.transferId,
              releasedAt: releasedAt.toISOString(),
            },
          };
        },
        (err, begun) => {
          const releasedAt = releasedAtOf(begun);
          return {
            ...held(
              input.idempotencyKey,
              "transfer",
              err,
              { transferGroup, description },
              releasedAt,
            ),
            answer: queued(releasedAt),
          };
        },
      );
    },

    async getCardOnFile({ retailerId }) {
      const card = await getCardOnFile(db, retailerId);
      return card
        ? {
            paymentMethodId: card.providerPaymentMethodId,
            lastFour: card.lastFour,
            description: card.description,
          }
        : null;
    },

    async saveCardOnFile(input) {
      try {
        let pmId = input.paymentMethod.paymentMethodId;
        if (/^tok_/.test(pmId)) {
          pmId = (
            await payments.createPaymentMethodFromTestCard({
              idempotencyKey: `${input.idempotencyKey}:payment-method`,
              testToken: pmId,
            })
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
        return {
          status: "saved",
          card: {
            paymentMethodId: attached.paymentMethodId,
            lastFour: attached.last4,
            description,
          },
        };
      } catch (err) {
        if (err instanceof PaymentRejectedError) {
          return {
            status: "declined",
            message: err.code === "card_declined" ? CARD_MESSAGES.declined : err.message,
          };
        }
        throw translate(err);
      }
    },

    async recordPaymentEvent(input) {
      await markPaymentEventProcessed(db, input.eventId);
    },
  };
}

/**
 * Card on file: one run per submission of Settings → Card On File (id from cardOnFileWorkflowId).
 *   1. test card form: create the PaymentMethod from the test token (key <wf>:create-payment-method:1)
 *   2. the retailer's provider customer (read model), then attach the PaymentMethod to it and make it the
 *      default (key <wf>:attach:1; the provider creates the customer when there is none)
 *   3. record it in payment_methods: provider ids, card type and last four only
 *   4. tell the retailer's RMAs whose charge is queued (no card, or a declined one) that a card is on file:
 *      each tries its charge again (cardOnFile signal; an RMA that has ended meanwhile is skipped)
 * A card the provider refuses (declined, incorrect) fails the run with a non-retryable CardRejected
 * failure whose details carry the message to show.
 *
 * Deterministic: imports only @temporalio/workflow, domain/ and its own activities' interface (./activities).
 */
import {
  ActivityFailure,
  ApplicationFailure,
  getExternalWorkflowHandle,
  log,
  proxyActivities,
  workflowInfo,
} from "@temporalio/workflow";
import { SETUP_CALLS, setupProviderCalls } from "../common/policies";
import { cardBrandLabel, CARD_MESSAGES } from "../../domain/cards";
import { cardOnFileSignal } from "../rma/contract";
import { idempotencyKey } from "../common/contract";
import {
  CARD_REJECTED,
  CARD_STEPS,
  type CardOnFileInput,
  type CardOnFileResult,
  type CardRejection,
} from "./contract";
import type { CardActivities } from "./activities";

const readModel = proxyActivities<CardActivities>(SETUP_CALLS.database);
const provider = proxyActivities<CardActivities>(setupProviderCalls(CARD_REJECTED));

function rejectionOf(err: unknown): CardRejection | undefined {
  if (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === CARD_REJECTED
  ) {
    return (
      (err.cause.details?.[0] as CardRejection | undefined) ?? {
        code: "card_error",
        message: err.cause.message,
      }
    );
  }
  return undefined;
}

/** Signals every RMA waiting to charge this retailer; one that has already ended is no longer listening. */
async function tellQueuedRmaCharges(retailerId: number): Promise<void> {
  const waiting = await readModel.rmasAwaitingCharge({ retailerId });
  await Promise.all(
    waiting.map(async (id) => {
      try {
        await getExternalWorkflowHandle(id).signal(cardOnFileSignal, { retailerId });
      } catch {
        // ended meanwhile (charged, or staff settled it): nothing to tell
      }
    }),
  );
}

export async function cardOnFileWorkflow(input: CardOnFileInput): Promise<CardOnFileResult> {
  const { workflowId } = workflowInfo();
  const { retailerId } = input;
  let saved: CardOnFileResult;
  try {
    let paymentMethodId: string;
    if (input.card.source === "test_card") {
      const pm = await provider.createTestCardPaymentMethod({
        idempotencyKey: idempotencyKey(workflowId, CARD_STEPS.createPaymentMethod),
        testToken: input.card.testToken,
      });
      paymentMethodId = pm.paymentMethodId;
    } else {
      paymentMethodId = input.card.paymentMethodId;
    }
    const customerId = await readModel.cardCustomerId({ retailerId });
    const attached = await provider.attachCard({
      idempotencyKey: idempotencyKey(workflowId, CARD_STEPS.attach),
      retailerId,
      paymentMethodId,
      customerId,
      email: input.email,
    });
    const description = cardBrandLabel(attached.brand);
    await readModel.recordCard({
      retailerId,
      providerPaymentMethodId: attached.paymentMethodId,
      providerCustomerId: attached.customerId,
      description,
      lastFour: attached.last4,
    });
    saved = { status: "saved", description, lastFour: attached.last4 };
  } catch (err) {
    const rejection = rejectionOf(err);
    if (rejection)
      throw ApplicationFailure.nonRetryable(rejection.message, CARD_REJECTED, rejection);
    if (err instanceof ActivityFailure)
      throw ApplicationFailure.nonRetryable(CARD_MESSAGES.unavailable, "CardProviderUnavailable");
    throw err;
  }
  // The card is saved whatever happens next: a failure to tell the waiting RMAs (a non-retryable failure of
  // the read model's list) is not "the provider is unavailable" to the retailer. It is logged for ops,
  // who can signal the RMAs (cardOnFile); the next card on file tells them too.
  try {
    await tellQueuedRmaCharges(retailerId);
  } catch (err) {
    log.warn("card saved, but the RMAs waiting to charge this retailer were not told", {
      retailerId,
      error: String(err),
    });
  }
  return saved;
}

/**
 * Contract test of the Stripe adapter's order calls: every request it makes for a purchase is
 * accepted by stripe-mock, which validates each call against Stripe's published OpenAPI description:
 *   PaymentMethod from a test token, PaymentIntent with capture_method manual (pre-authorisation), capture
 *   (partial, amount_to_capture), cancel (release), refund, transfer to a connected account (payout), and
 *   an off-session PaymentIntent on a saved card (penalty).
 * Every POST carries the idempotency key the workflow gave (or one derived from it: `<key>:payment-method`).
 * stripe-mock keeps no state, so amounts and statuses in its answers are fixtures: the test checks the
 * requests (method, path, key, body parameters) and that each answer is a 200.
 */
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import {
  authorizeIntentParams,
  captureParams,
  offSessionChargeParams,
  refundParams,
  StripePayments,
  transferParams,
} from "../../activities/payments/stripe";
import { recordingStripe } from "./stripe-mock";

const WF = "buy-order:4242";

function recorder() {
  const recorded = recordingStripe();
  return { ...recorded, adapter: new StripePayments(recorded.stripe) };
}

describe("Stripe adapter: purchase money against stripe-mock", () => {
  test("authorise with a test card token: POST /v1/payment_methods, then a manual-capture PaymentIntent, each with its key", async () => {
    const { adapter, seen, statuses } = recorder();
    const key = `${WF}:authorize:1`;
    const out = await adapter.authorizePayment({
      idempotencyKey: key,
      amountCents: 12_345,
      paymentMethod: "tok_visa",
      customerId: null,
      description: "Order 4242",
      metadata: { order_id: "4242", step: "authorize" },
    });
    expect(out.paymentIntentId).toMatch(/^pi_/);
    expect(out).toMatchObject({ status: "requires_capture", amountCents: 12_345 });
    expect(out.last4).toMatch(/^\d{4}$/);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/payment_methods", key: `${key}:payment-method` },
      { method: "POST", path: "/v1/payment_intents", key },
    ]);
    expect(statuses).toEqual([200, 200]);
  });

  test("authorise with a saved card: the intent carries the customer; the request body is Stripe's", async () => {
    const { adapter, seen, statuses } = recorder();
    const input = {
      idempotencyKey: `${WF}:authorize:2`,
      amountCents: 5_000,
      paymentMethod: "pm_saved123",
      customerId: "cus_buyer1",
      description: "Order 4242",
      metadata: { order_id: "4242", step: "authorize" },
    };
    await adapter.authorizePayment(input);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/payment_intents", key: input.idempotencyKey },
    ]);
    expect(statuses).toEqual([200]);
    expect(authorizeIntentParams(input, "pm_saved123")).toEqual({
      amount: 5_000,
      currency: "usd",
      capture_method: "manual",
      confirm: true,
      payment_method: "pm_saved123",
      payment_method_types: ["card"],
      customer: "cus_buyer1",
      description: "Order 4242",
      metadata: { order_id: "4242", step: "authorize", idempotency_key: input.idempotencyKey },
    });
  });

  test("partial capture: POST /v1/payment_intents/{id}/capture with amount_to_capture", async () => {
    const { adapter, seen, statuses } = recorder();
    const input = {
      idempotencyKey: `${WF}:capture:1`,
      paymentIntentId: "pi_123",
      amountCents: 8_000,
    };
    const out = await adapter.capturePayment(input);
    expect(out.paymentIntentId).toMatch(/^pi_/);
    expect(out.capturedCents).toBe(8_000);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/payment_intents/pi_X/capture", key: input.idempotencyKey },
    ]);
    expect(statuses).toEqual([200]);
    expect(captureParams(input)).toEqual({ amount_to_capture: 8_000 });
  });

  test("release: POST /v1/payment_intents/{id}/cancel with a cancellation_reason", async () => {
    const { adapter, seen, statuses } = recorder();
    await adapter.releaseAuthorization({
      idempotencyKey: `${WF}:release-authorization:1`,
      paymentIntentId: "pi_123",
      reason: "abandoned",
    });
    await adapter.releaseAuthorization({
      idempotencyKey: `${WF}:release-authorization:2`,
      paymentIntentId: "pi_123",
      reason: "requested_by_customer",
    });
    expect(seen).toEqual([
      {
        method: "POST",
        path: "/v1/payment_intents/pi_X/cancel",
        key: `${WF}:release-authorization:1`,
      },
      {
        method: "POST",
        path: "/v1/payment_intents/pi_X/cancel",
        key: `${WF}:release-authorization:2`,
      },
    ]);
    expect(statuses).toEqual([200, 200]);
  });

  test("refund: POST /v1/refunds for the PaymentIntent and amount", async () => {
    const { adapter, seen, statuses } = recorder();
    const input = {
      idempotencyKey: `${WF}:refund:1`,
      paymentIntentId: "pi_123",
      amountCents: 8_000,
      metadata: { order_id: "4242", step: "refund", reason: "shipment_cancelled" },
    };
    const out = await adapter.refundPayment(input);
    expect(out.refundId).toMatch(/^re_/);
    expect(seen).toEqual([{ method: "POST", path: "/v1/refunds", key: input.idempotencyKey }]);
    expect(statuses).toEqual([200]);
    expect(refundParams(input)).toEqual({
      payment_intent: "pi_123",
      amount: 8_000,
      metadata: { ...input.metadata, idempotency_key: input.idempotencyKey },
    });
  });

  test("payout: POST /v1/transfers to the connected account with the order's transfer group", async () => {
    const { adapter, seen, statuses } = recorder();
    const input = {
      idempotencyKey: `${WF}:payout:1`,
      amountCents: 6_000,
      destination: "acct_seller1",
      description: "Payout: WX-004242",
      transferGroup: "order-4242",
      metadata: { order_id: "4242", step: "payout" },
    };
    const out = await adapter.createTransfer(input);
    expect(out.transferId).toMatch(/^tr_/);
    expect(seen).toEqual([{ method: "POST", path: "/v1/transfers", key: input.idempotencyKey }]);
    expect(statuses).toEqual([200]);
    expect(transferParams(input)).toEqual({
      amount: 6_000,
      currency: "usd",
      destination: "acct_seller1",
      description: "Payout: WX-004242",
      transfer_group: "order-4242",
      metadata: { ...input.metadata, idempotency_key: input.idempotencyKey },
    });
  });

  test("penalty: an off-session PaymentIntent on the seller's saved card, confirmed and captured at once", async () => {
    const { adapter, seen, statuses } = recorder();
    const input = {
      idempotencyKey: `${WF}:penalty:1`,
      amountCents: 600,
      customerId: "cus_seller1",
      paymentMethodId: "pm_sellercard",
      description: "Penalty: order 4242 not shipped",
      metadata: { order_id: "4242", step: "penalty" },
    };
    const out = await adapter.chargeSavedCard(input);
    expect(out.paymentIntentId).toMatch(/^pi_/);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/payment_intents", key: input.idempotencyKey },
    ]);
    expect(statuses).toEqual([200]);
    expect(offSessionChargeParams(input)).toMatchObject({
      off_session: true,
      confirm: true,
      capture_method: "automatic",
      customer: "cus_seller1",
      payment_method: "pm_sellercard",
    });
  });

  test("stripe-mock refuses a request the API description does not allow (the mock really validates)", async () => {
    const { stripe } = recorder();
    await expect(
      stripe.paymentIntents.create(
        {
          amount: 100,
          currency: "usd",
          capture_method: "sometimes",
        } as unknown as Stripe.PaymentIntentCreateParams,
        { idempotencyKey: `${WF}:bogus` },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

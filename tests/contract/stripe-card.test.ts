/**
 * Contract test of the Stripe adapter's card-on-file calls: every request it makes (PaymentMethod from a
 * test card token, customer, attach, default payment method) is accepted by stripe-mock, which validates
 * each call against Stripe's published OpenAPI description; every POST carries an idempotency key
 * derived from the workflow's.
 */
import { describe, expect, test } from "vitest";
import {
  customerParams,
  StripePayments,
  testCardPaymentMethodParams,
} from "../../activities/payments/stripe";
import { recordingStripe } from "./stripe-mock";

const KEY = "card-on-file:retailer-7:0b4e8f5a-1111-4222-8333-444455556666";

describe("Stripe adapter: card on file against stripe-mock", () => {
  test("createPaymentMethodFromTestCard: POST /v1/payment_methods with the test token and the key", async () => {
    const { stripe, seen, statuses } = recordingStripe();
    const pm = await new StripePayments(stripe).createPaymentMethodFromTestCard({
      idempotencyKey: `${KEY}:create-payment-method:1`,
      testToken: "tok_visa",
    });
    expect(pm.id).toMatch(/^pm_/);
    expect(pm.brand).toEqual(expect.any(String));
    expect(pm.last4).toMatch(/^\d{4}$/);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/payment_methods", key: `${KEY}:create-payment-method:1` },
    ]);
    expect(statuses).toEqual([200]);
    expect(testCardPaymentMethodParams("tok_visa")).toEqual({
      type: "card",
      card: { token: "tok_visa" },
    });
  });

  test("attachPaymentMethod without a customer: create the customer, attach, set the default; each with its key", async () => {
    const { stripe, seen, statuses } = recordingStripe();
    const key = `${KEY}:attach:1`;
    const out = await new StripePayments(stripe).attachPaymentMethod({
      idempotencyKey: key,
      retailerId: 7,
      paymentMethodId: "pm_123",
      customerId: null,
      email: "store@example.test",
    });
    expect(out.customerId).toMatch(/^cus_/);
    expect(out.paymentMethodId).toMatch(/^pm_/);
    expect(out.last4).toMatch(/^\d{4}$/);
    expect(seen).toEqual([
      { method: "POST", path: "/v1/customers", key: `${key}:customer` },
      { method: "POST", path: "/v1/payment_methods/pm_X/attach", key },
      { method: "POST", path: "/v1/customers/cus_X", key: `${key}:default` },
    ]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(
      customerParams({
        idempotencyKey: key,
        retailerId: 7,
        paymentMethodId: "pm_123",
        customerId: null,
        email: "store@example.test",
      }),
    ).toEqual({
      email: "store@example.test",
      description: "Retailer 7",
      metadata: { retailer_id: "7" },
    });
  });

  test("attachPaymentMethod with the retailer's customer reuses it (no customer creation)", async () => {
    const { stripe, seen } = recordingStripe();
    const out = await new StripePayments(stripe).attachPaymentMethod({
      idempotencyKey: `${KEY}:attach:2`,
      retailerId: 7,
      paymentMethodId: "pm_456",
      customerId: "cus_existing",
    });
    expect(out.customerId).toBe("cus_existing");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /v1/payment_methods/pm_X/attach",
      "POST /v1/customers/cus_X",
    ]);
  });
});

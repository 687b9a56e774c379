/**
 * Contract test of the Stripe adapter: every request it makes for a payout account is accepted by
 * stripe-mock (which validates each call against Stripe's published OpenAPI description), and every
 * POST carries an idempotency key derived from the one the workflow gave.
 */
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import type { Db } from "../../db/client";
import {
  createPayments,
  PaymentRejectedError,
  type CreateConnectedAccountInput,
} from "../../activities/payments";
import {
  bankAccountTokenParams,
  connectedAccountParams,
  createStripeClient,
  StripePayments,
  translateStripeError,
} from "../../activities/payments/stripe";
import { stripeOpts } from "./stripe-mock";
import { payoutDetailsSchema } from "../../domain/payout";
import { validPayoutForm } from "../factories/payout";

const details = payoutDetailsSchema.parse({ ...validPayoutForm, buspostal_code: "" });

const input: CreateConnectedAccountInput = {
  idempotencyKey: "payout-setup:retailer-7:3f1c2b9e-1111-4222-8333-444455556666:create-account:1",
  retailerId: 7,
  details,
  tosAcceptance: { date: 1_700_000_000, ip: "203.0.113.9", userAgent: "vitest" },
};

describe("Stripe adapter against stripe-mock", () => {
  test("createConnectedAccount: token, account and representative requests are accepted, each with an idempotency key", async () => {
    const stripe = createStripeClient(stripeOpts);
    const seen: { method: string; path: string; key?: string }[] = [];
    const responses: { path: string; status: number }[] = [];
    stripe.on("request", (e: Stripe.RequestEvent) =>
      seen.push({ method: e.method, path: e.path, key: e.idempotency_key }),
    );
    stripe.on("response", (e: Stripe.ResponseEvent) =>
      responses.push({ path: e.path, status: e.status }),
    );

    const account = await new StripePayments(stripe).createConnectedAccount(input);
    expect(account.id).toMatch(/^acct_/);
    expect(account.bankAccountLast4).toMatch(/^\d{4}$/);

    expect(seen.map((s) => `${s.method} ${s.path.replace(/acct_[A-Za-z0-9]+/, "acct_X")}`)).toEqual(
      ["POST /v1/tokens", "POST /v1/accounts", "POST /v1/accounts/acct_X/persons"],
    );
    expect(seen.map((s) => s.key)).toEqual([
      `${input.idempotencyKey}:bank-token`,
      input.idempotencyKey,
      `${input.idempotencyKey}:representative`,
    ]);
    expect(responses.every((r) => r.status === 200)).toBe(true);
  });

  test("the account request has the shape of a Custom company account with transfers", () => {
    const p = connectedAccountParams(input, "btok_123");
    expect(p).toMatchObject({
      type: "custom",
      country: "US",
      email: "jane@harborline.test",
      business_type: "company",
      company: {
        name: "Harborline Shoes LLC",
        tax_id: "123456789",
        address: { state: "ME", country: "US" },
      },
      external_account: "btok_123",
      tos_acceptance: { date: 1_700_000_000, ip: "203.0.113.9" },
      capabilities: { transfers: { requested: true } },
    });
    expect(bankAccountTokenParams(input).bank_account).toMatchObject({
      routing_number: "110000000",
      account_number: "000123456789",
      currency: "usd",
    });
  });

  test("createPayments chooses the Stripe adapter when a secret key is configured", async () => {
    const payments = createPayments(
      {
        STRIPE_SECRET_KEY: "sk_test_123",
        STRIPE_API_HOST: stripeOpts.host,
        STRIPE_API_PORT: stripeOpts.port,
        STRIPE_API_PROTOCOL: stripeOpts.protocol,
      },
      {} as Db,
    );
    expect(payments.provider).toBe("stripe");
    const account = await payments.createConnectedAccount({
      ...input,
      idempotencyKey: `${input.idempotencyKey}-b`,
    });
    expect(account.id).toMatch(/^acct_/);
  });

  test("a request stripe-mock refuses becomes a rejection (non-retryable), not a crash", async () => {
    const stripe = createStripeClient(stripeOpts);
    let caught: unknown;
    try {
      // An unknown parameter: stripe-mock answers 400 invalid_request_error like Stripe.
      await stripe.accounts.create(
        { type: "custom", not_a_param: "x" } as unknown as Stripe.AccountCreateParams,
        {
          idempotencyKey: "k-bad",
        },
      );
    } catch (err) {
      caught = translateStripeError(err, "k-bad");
    }
    expect(caught).toBeInstanceOf(PaymentRejectedError);
  });

  test("Stripe's routing-number error maps to the routing_number field", () => {
    const err = new Stripe.errors.StripeInvalidRequestError({
      type: "invalid_request_error",
      message: "Routing number must have 9 digits",
      code: "routing_number_invalid",
      param: "external_account[routing_number]",
      statusCode: 400,
    } as Stripe.StripeRawError);
    const t = translateStripeError(err, "k");
    expect(t).toBeInstanceOf(PaymentRejectedError);
    expect((t as PaymentRejectedError).field).toBe("routing_number");
    expect((t as PaymentRejectedError).code).toBe("routing_number_invalid");
  });

  test("outages stay retryable (passed through untranslated)", () => {
    const err = new Stripe.errors.StripeAPIError({
      type: "api_error",
      message: "boom",
      statusCode: 500,
    } as Stripe.StripeRawError);
    expect(translateStripeError(err, "k")).toBe(err);
  });
});

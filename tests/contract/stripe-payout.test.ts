/**
 * Contract test of the Stripe adapter: every request it makes for a payout account is accepted by
 * stripe-mock (which validates each call against Stripe's published OpenAPI description), and every
 * POST carries an idempotency key derived from the one the workflow gave. Also what the adapter makes of
 * Stripe's errors, for these calls and the card-on-file ones (tests/contract/stripe-card.test.ts).
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
  StripePayments,
  translateStripeError,
} from "../../activities/payments/stripe";
import { recordingStripe, refusalOf, stripeOpts } from "./stripe-mock";
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
    const { stripe, seen, statuses } = recordingStripe();

    const account = await new StripePayments(stripe).createConnectedAccount(input);
    expect(account.id).toMatch(/^acct_/);
    expect(account.bankAccountLast4).toMatch(/^\d{4}$/);

    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /v1/tokens",
      "POST /v1/accounts",
      "POST /v1/accounts/acct_X/persons",
    ]);
    expect(seen.map((s) => s.key)).toEqual([
      `${input.idempotencyKey}:bank-token`,
      input.idempotencyKey,
      `${input.idempotencyKey}:representative`,
    ]);
    expect(statuses.every((s) => s === 200)).toBe(true);
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
});

describe("Stripe's errors, as the adapter passes them on", () => {
  // An unknown parameter: stripe-mock answers 400 invalid_request_error like Stripe.
  test.each([
    [
      "a payout account's",
      (stripe: Stripe) =>
        stripe.accounts.create(
          { type: "custom", not_a_param: "x" } as unknown as Stripe.AccountCreateParams,
          { idempotencyKey: "k-bad" },
        ),
      "k-bad",
    ],
    [
      "a card's",
      (stripe: Stripe) =>
        stripe.paymentMethods.create(
          { type: "card", not_a_param: "x" } as unknown as Stripe.PaymentMethodCreateParams,
          { idempotencyKey: "k-bad-pm" },
        ),
      "k-bad-pm",
    ],
  ])(
    "%s request stripe-mock refuses becomes a rejection (non-retryable), not a crash",
    async (_what, call, key) => {
      expect(await refusalOf(call, key)).toBeInstanceOf(PaymentRejectedError);
    },
  );

  test.each([
    [
      "a declined card (card_declined, HTTP 402) is a rejection with that code",
      new Stripe.errors.StripeCardError({
        type: "card_error",
        message: "Your card was declined.",
        code: "card_declined",
        decline_code: "generic_decline",
        statusCode: 402,
      } as Stripe.StripeRawError),
      { code: "card_declined" },
    ],
    [
      "the routing-number error maps to the routing_number field",
      new Stripe.errors.StripeInvalidRequestError({
        type: "invalid_request_error",
        message: "Routing number must have 9 digits",
        code: "routing_number_invalid",
        param: "external_account[routing_number]",
        statusCode: 400,
      } as Stripe.StripeRawError),
      { field: "routing_number", code: "routing_number_invalid" },
    ],
  ])("%s", (_what, err, expected) => {
    const t = translateStripeError(err, "k");
    expect(t).toBeInstanceOf(PaymentRejectedError);
    expect(t).toMatchObject(expected);
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

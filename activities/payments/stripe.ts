/**
 * Stripe adapter of the payments port. A retailer's payout account is a Custom connected account
 * (business_type company) with the retailer's bank account as external account, plus its representative
 * (a Person); the bank account is first turned into a token. Every POST carries the idempotency key it
 * was given or one derived from it (`<key>:bank-token`, `<key>:representative`).
 * Its requests are contract-tested against stripe-mock (tests/contract/stripe*.test.ts).
 */
import Stripe from "stripe";
import { parseUsDate, taxIdDigits } from "../../domain/payout";
import {
  fieldForParam,
  IdempotencyConflictError,
  PaymentRejectedError,
  type AttachedPaymentMethod,
  type AttachPaymentMethodInput,
  type ConnectedAccount,
  type CreateConnectedAccountInput,
  type CreatePaymentMethodFromTestCardInput,
  type PaymentMethodInfo,
  type PaymentsPort,
} from "./port";

export interface StripeAdapterOptions {
  secretKey: string;
  /** stripe-mock (or a proxy): host, port and protocol of the API. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export function createStripeClient(opts: StripeAdapterOptions): Stripe {
  return new Stripe(opts.secretKey, {
    host: opts.host,
    port: opts.port,
    protocol: opts.protocol,
    // Temporal retries the activity (with the same idempotency key); no hidden retries underneath it.
    maxNetworkRetries: 0,
    timeout: 20_000,
    appInfo: { name: "wholesale-marketplace" },
  });
}

/**
 * The bank account becomes a token first (what Stripe.js would do in the browser in production), then the
 * account's external_account. stripe-mock's API description accepts only a token string there.
 */
export function bankAccountTokenParams(input: CreateConnectedAccountInput): Stripe.TokenCreateParams {
  const d = input.details;
  return {
    bank_account: {
      country: "US",
      currency: "usd",
      account_holder_name: d.buslegal_name,
      account_holder_type: "company",
      account_number: d.account_number,
      routing_number: d.routing_number,
    },
  };
}

/** The account-creation request (exported for the contract test and for review). */
export function connectedAccountParams(input: CreateConnectedAccountInput, bankAccountToken: string): Stripe.AccountCreateParams {
  const d = input.details;
  return {
    type: "custom",
    country: "US",
    email: d.email,
    business_type: "company",
    business_profile: { name: d.buslegal_name, product_description: "Wholesale apparel and goods traded between authorized retailers" },
    company: {
      name: d.buslegal_name,
      tax_id: taxIdDigits(d.bustax_id),
      address: {
        line1: d.busstreet_address,
        city: d.buslocality,
        state: d.busregion,
        ...(d.buspostal_code ? { postal_code: d.buspostal_code } : {}),
        country: "US",
      },
    },
    external_account: bankAccountToken,
    tos_acceptance: {
      date: input.tosAcceptance.date,
      ip: input.tosAcceptance.ip,
      ...(input.tosAcceptance.userAgent ? { user_agent: input.tosAcceptance.userAgent } : {}),
    },
    capabilities: { transfers: { requested: true } },
    metadata: { retailer_id: String(input.retailerId) },
  };
}

/** The representative (the person who filled in the form). */
export function representativeParams(input: CreateConnectedAccountInput): Stripe.AccountCreatePersonParams {
  const d = input.details;
  const dob = parseUsDate(d.date_of_birth);
  return {
    first_name: d.first_name,
    last_name: d.last_name,
    email: d.email,
    ...(dob ? { dob: { day: dob.day, month: dob.month, year: dob.year } } : {}),
    address: { line1: d.street_address, city: d.locality, state: d.region, postal_code: d.postal_code, country: "US" },
    relationship: { representative: true, executive: true, owner: true, title: "Owner" },
  };
}

/** Stripe errors → the port's errors: user-fixable 4xx become rejections, the rest stay retryable. */
export function translateStripeError(err: unknown, key: string): unknown {
  if (err instanceof Stripe.errors.StripeIdempotencyError) return new IdempotencyConflictError(key);
  if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
    const e = err as Stripe.errors.StripeError;
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429) {
      return new PaymentRejectedError(e.message, { code: e.code ?? e.rawType ?? "invalid_request", param: e.param, field: fieldForParam(e.param) });
    }
  }
  return err;
}

export class StripePayments implements PaymentsPort {
  readonly provider = "stripe" as const;
  constructor(private readonly stripe: Stripe) {}

  async createConnectedAccount(input: CreateConnectedAccountInput): Promise<ConnectedAccount> {
    const tokenKey = `${input.idempotencyKey}:bank-token`;
    let token: Stripe.Token;
    try {
      token = await this.stripe.tokens.create(bankAccountTokenParams(input), { idempotencyKey: tokenKey });
    } catch (err) {
      throw translateStripeError(err, tokenKey);
    }
    let account: Stripe.Account;
    try {
      account = await this.stripe.accounts.create(connectedAccountParams(input, token.id), { idempotencyKey: input.idempotencyKey });
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    const personKey = `${input.idempotencyKey}:representative`;
    try {
      await this.stripe.accounts.createPerson(account.id, representativeParams(input), { idempotencyKey: personKey });
    } catch (err) {
      throw translateStripeError(err, personKey);
    }
    const bank = account.external_accounts?.data?.find((x) => x.object === "bank_account") as Stripe.BankAccount | undefined;
    return { id: account.id, bankAccountLast4: bank?.last4 ?? input.details.account_number.slice(-4) };
  }

  /** POST /v1/payment_methods with the test card's token (Stripe test mode; stripe-mock). */
  async createPaymentMethodFromTestCard(input: CreatePaymentMethodFromTestCardInput): Promise<PaymentMethodInfo> {
    try {
      const pm = await this.stripe.paymentMethods.create(testCardPaymentMethodParams(input.testToken), { idempotencyKey: input.idempotencyKey });
      return { id: pm.id, ...cardOf(pm) };
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /**
   * POST /v1/customers (only when the retailer has none yet), POST /v1/payment_methods/{id}/attach, then
   * POST /v1/customers/{id} with invoice_settings.default_payment_method. Keys: `<key>:customer`, `<key>`,
   * `<key>:default`. A declined card fails the attach with card_declined (a StripeCardError).
   */
  async attachPaymentMethod(input: AttachPaymentMethodInput): Promise<AttachedPaymentMethod> {
    let customerId = input.customerId;
    if (!customerId) {
      const key = `${input.idempotencyKey}:customer`;
      try {
        customerId = (await this.stripe.customers.create(customerParams(input), { idempotencyKey: key })).id;
      } catch (err) {
        throw translateStripeError(err, key);
      }
    }
    let pm: Stripe.PaymentMethod;
    try {
      pm = await this.stripe.paymentMethods.attach(input.paymentMethodId, { customer: customerId }, { idempotencyKey: input.idempotencyKey });
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    const defaultKey = `${input.idempotencyKey}:default`;
    try {
      await this.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } }, { idempotencyKey: defaultKey });
    } catch (err) {
      throw translateStripeError(err, defaultKey);
    }
    return { customerId, paymentMethodId: pm.id, ...cardOf(pm) };
  }
}

/** The test-card PaymentMethod request (exported for the contract test and for review). */
export function testCardPaymentMethodParams(testToken: string): Stripe.PaymentMethodCreateParams {
  return { type: "card", card: { token: testToken } };
}

/** The customer of a retailer (its cards are attached to it). */
export function customerParams(input: AttachPaymentMethodInput): Stripe.CustomerCreateParams {
  return {
    ...(input.email ? { email: input.email } : {}),
    description: `Retailer ${input.retailerId}`,
    metadata: { retailer_id: String(input.retailerId) },
  };
}

function cardOf(pm: Stripe.PaymentMethod): { brand: string; last4: string } {
  return { brand: pm.card?.brand ?? "card", last4: pm.card?.last4 ?? "" };
}

export function createStripePayments(opts: StripeAdapterOptions): StripePayments {
  return new StripePayments(createStripeClient(opts));
}

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
  type AuthorizedPayment,
  type AuthorizePaymentInput,
  type CapturedPayment,
  type CapturePaymentInput,
  type ChargeResult,
  type ChargeSavedCardInput,
  type RefundInput,
  type RefundResult,
  type ReleaseAuthorizationInput,
  type TransferInput,
  type TransferResult,
  type FindMovementInput,
  type FoundMovement,
  IDEMPOTENCY_KEY_METADATA,
  type ListedMovement,
  type ConnectedAccount,
  type CreateConnectedAccountInput,
  type CreateConnectedAccountFromTokensInput,
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
export function bankAccountTokenParams(
  input: CreateConnectedAccountInput,
): Stripe.TokenCreateParams {
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
export function connectedAccountParams(
  input: CreateConnectedAccountInput,
  bankAccountToken: string,
): Stripe.AccountCreateParams {
  const d = input.details;
  return {
    type: "custom",
    country: "US",
    email: d.email,
    business_type: "company",
    business_profile: {
      name: d.buslegal_name,
      product_description: "Wholesale apparel and goods traded between authorized retailers",
    },
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

/**
 * The account-creation request from the browser's tokens (ADR 0050): the account token carries the company, its
 * tax id and the accepted terms (Stripe takes no company, individual or tos_acceptance beside it).
 */
export function connectedAccountFromTokensParams(
  input: CreateConnectedAccountFromTokensInput,
): Stripe.AccountCreateParams {
  return {
    type: "custom",
    country: "US",
    email: input.email,
    account_token: input.tokens.accountToken,
    business_profile: {
      name: input.businessName,
      product_description: "Wholesale apparel and goods traded between authorized retailers",
    },
    external_account: input.tokens.bankAccountToken,
    capabilities: { transfers: { requested: true } },
    metadata: { retailer_id: String(input.retailerId) },
  };
}

/** The representative (the person who filled in the form). */
export function representativeParams(
  input: CreateConnectedAccountInput,
): Stripe.AccountCreatePersonParams {
  const d = input.details;
  const dob = parseUsDate(d.date_of_birth);
  return {
    first_name: d.first_name,
    last_name: d.last_name,
    email: d.email,
    ...(dob ? { dob: { day: dob.day, month: dob.month, year: dob.year } } : {}),
    address: {
      line1: d.street_address,
      city: d.locality,
      state: d.region,
      postal_code: d.postal_code,
      country: "US",
    },
    relationship: { representative: true, executive: true, owner: true, title: "Owner" },
  };
}

/** Stripe errors → the port's errors: user-fixable 4xx become rejections, the rest stay retryable. */
export function translateStripeError(err: unknown, key: string): unknown {
  if (err instanceof Stripe.errors.StripeIdempotencyError) return new IdempotencyConflictError(key);
  if (
    err instanceof Stripe.errors.StripeInvalidRequestError ||
    err instanceof Stripe.errors.StripeCardError
  ) {
    const e = err as Stripe.errors.StripeError;
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 429) {
      return new PaymentRejectedError(e.message, {
        code: e.code ?? e.rawType ?? "invalid_request",
        param: e.param,
        field: fieldForParam(e.param),
      });
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
      token = await this.stripe.tokens.create(bankAccountTokenParams(input), {
        idempotencyKey: tokenKey,
      });
    } catch (err) {
      throw translateStripeError(err, tokenKey);
    }
    let account: Stripe.Account;
    try {
      account = await this.stripe.accounts.create(connectedAccountParams(input, token.id), {
        idempotencyKey: input.idempotencyKey,
      });
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    const personKey = `${input.idempotencyKey}:representative`;
    try {
      await this.stripe.accounts.createPerson(account.id, representativeParams(input), {
        idempotencyKey: personKey,
      });
    } catch (err) {
      throw translateStripeError(err, personKey);
    }
    const bank = account.external_accounts?.data?.find((x) => x.object === "bank_account") as
      | Stripe.BankAccount
      | undefined;
    return {
      id: account.id,
      bankAccountLast4: bank?.last4 ?? input.details.account_number.slice(-4),
    };
  }

  /** POST /v1/accounts from the tokens, then the representative from its person token (`<key>:representative`). */
  async createConnectedAccountFromTokens(
    input: CreateConnectedAccountFromTokensInput,
  ): Promise<ConnectedAccount> {
    let account: Stripe.Account;
    try {
      account = await this.stripe.accounts.create(connectedAccountFromTokensParams(input), {
        idempotencyKey: input.idempotencyKey,
      });
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    const personKey = `${input.idempotencyKey}:representative`;
    try {
      await this.stripe.accounts.createPerson(
        account.id,
        { person_token: input.tokens.personToken },
        { idempotencyKey: personKey },
      );
    } catch (err) {
      throw translateStripeError(err, personKey);
    }
    const bank = account.external_accounts?.data?.find((x) => x.object === "bank_account") as
      | Stripe.BankAccount
      | undefined;
    return { id: account.id, bankAccountLast4: bank?.last4 ?? "" };
  }

  /** POST /v1/payment_methods with the test card's token (Stripe test mode; stripe-mock). */
  async createPaymentMethodFromTestCard(
    input: CreatePaymentMethodFromTestCardInput,
  ): Promise<PaymentMethodInfo> {
    try {
      const pm = await this.stripe.paymentMethods.create(
        testCardPaymentMethodParams(input.testToken),
        {
          idempotencyKey: input.idempotencyKey,
        },
      );
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
        customerId = (
          await this.stripe.customers.create(customerParams(input), { idempotencyKey: key })
        ).id;
      } catch (err) {
        throw translateStripeError(err, key);
      }
    }
    let pm: Stripe.PaymentMethod;
    try {
      pm = await this.stripe.paymentMethods.attach(
        input.paymentMethodId,
        { customer: customerId },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    const defaultKey = `${input.idempotencyKey}:default`;
    try {
      await this.stripe.customers.update(
        customerId,
        { invoice_settings: { default_payment_method: pm.id } },
        { idempotencyKey: defaultKey },
      );
    } catch (err) {
      throw translateStripeError(err, defaultKey);
    }
    return { customerId, paymentMethodId: pm.id, ...cardOf(pm) };
  }

  /**
   * POST /v1/payment_methods (only for a test card token, key `<key>:payment-method`), then POST
   * /v1/payment_intents with capture_method manual and confirm true (key `<key>`). Stripe answers a declined
   * card with a 402 card_error (-> PaymentRejectedError card_declined); an intent that needs customer
   * authentication (3-D Secure) cannot be completed off the checkout page and is refused the same way.
   */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizedPayment> {
    let pmId = input.paymentMethod;
    let card = { brand: "", last4: "" };
    if (isTestToken(pmId)) {
      const pm = await this.createPaymentMethodFromTestCard({
        idempotencyKey: `${input.idempotencyKey}:payment-method`,
        testToken: pmId,
      });
      pmId = pm.id;
      card = { brand: pm.brand, last4: pm.last4 };
    }
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(authorizeIntentParams(input, pmId), {
        idempotencyKey: input.idempotencyKey,
      });
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
    if (intent.status === "requires_action") {
      throw new PaymentRejectedError(
        "This card needs the cardholder's authentication. Please try another.",
        {
          code: "authentication_required",
        },
      );
    }
    return {
      paymentIntentId: intent.id,
      amountCents: input.amountCents,
      status: "requires_capture",
      ...card,
    };
  }

  /** POST /v1/payment_intents/{id}/capture with amount_to_capture (the rest of the authorisation is released). */
  async capturePayment(input: CapturePaymentInput): Promise<CapturedPayment> {
    try {
      const intent = await this.stripe.paymentIntents.capture(
        input.paymentIntentId,
        captureParams(input),
        {
          idempotencyKey: input.idempotencyKey,
        },
      );
      const charge =
        typeof intent.latest_charge === "string"
          ? intent.latest_charge
          : (intent.latest_charge?.id ?? "");
      return { paymentIntentId: intent.id, capturedCents: input.amountCents, chargeId: charge };
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /** POST /v1/payment_intents/{id}/cancel with a cancellation_reason. */
  async releaseAuthorization(input: ReleaseAuthorizationInput): Promise<void> {
    try {
      await this.stripe.paymentIntents.cancel(
        input.paymentIntentId,
        { cancellation_reason: input.reason },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /** POST /v1/refunds for the PaymentIntent. */
  async refundPayment(input: RefundInput): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(refundParams(input), {
        idempotencyKey: input.idempotencyKey,
      });
      return {
        refundId: refund.id,
        amountCents: input.amountCents,
        status: refund.status ?? "pending",
      };
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /** POST /v1/transfers to the seller's connected account. */
  async createTransfer(input: TransferInput): Promise<TransferResult> {
    try {
      const transfer = await this.stripe.transfers.create(transferParams(input), {
        idempotencyKey: input.idempotencyKey,
      });
      return { transferId: transfer.id, amountCents: input.amountCents };
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /** POST /v1/payment_intents: the saved card charged off-session, confirmed and captured at once. */
  async chargeSavedCard(input: ChargeSavedCardInput): Promise<ChargeResult> {
    try {
      const intent = await this.stripe.paymentIntents.create(offSessionChargeParams(input), {
        idempotencyKey: input.idempotencyKey,
      });
      const charge =
        typeof intent.latest_charge === "string"
          ? intent.latest_charge
          : (intent.latest_charge?.id ?? "");
      return { paymentIntentId: intent.id, chargeId: charge, amountCents: input.amountCents };
    } catch (err) {
      throw translateStripeError(err, input.idempotencyKey);
    }
  }

  /**
   * GET /v1/payment_intents/search by the key in the metadata (an authorisation, a saved card's charge); GET
   * /v1/payment_intents/{id} for a capture (an intent is captured once: succeeded means it was) and a release
   * (canceled); GET
   * /v1/refunds?payment_intent= and GET /v1/transfers?transfer_group=, filtered by the key in the metadata
   * (Stripe's search covers neither refunds nor transfers). Search lags writes by up to a minute (more during
   * an outage): fit for a restore, which asks about movements older than that, not for a retry.
   */
  async findMovementByKey(input: FindMovementInput): Promise<FoundMovement | null> {
    const key = input.idempotencyKey;
    const hasKey = (o: { metadata?: Stripe.Metadata | null }) =>
      o.metadata?.[IDEMPOTENCY_KEY_METADATA] === key;
    try {
      switch (input.kind) {
        case "payment_intent": {
          const found = await this.stripe.paymentIntents.search(movementSearchParams(key));
          const intent = found.data.find(hasKey);
          return intent ? intentMovement(intent, intent.amount) : null;
        }
        case "capture": {
          const intent = await this.stripe.paymentIntents.retrieve(required(input.paymentIntentId));
          return intent.status === "succeeded"
            ? intentMovement(intent, intent.amount_received)
            : null;
        }
        case "release": {
          // A cancellation carries no metadata: the intent itself, once canceled.
          const intent = await this.stripe.paymentIntents.retrieve(required(input.paymentIntentId));
          return intent.status === "canceled" ? intentMovement(intent, intent.amount) : null;
        }
        case "refund":
          for await (const refund of this.stripe.refunds.list({
            payment_intent: required(input.paymentIntentId),
            limit: 100,
          }))
            if (hasKey(refund))
              return {
                id: refund.id,
                amountCents: refund.amount,
                status: refund.status ?? "",
                chargeId: null,
              };
          return null;
        case "transfer":
          for await (const transfer of this.stripe.transfers.list({
            transfer_group: required(input.transferGroup),
            limit: 100,
          }))
            if (hasKey(transfer))
              return {
                id: transfer.id,
                amountCents: transfer.amount,
                status: "paid",
                chargeId: null,
              };
          return null;
      }
    } catch (err) {
      throw translateStripeError(err, key);
    }
  }

  /**
   * The intents, refunds and transfers created in the range that carry a key in their metadata (the nightly
   * reconciliation's provider side; docs/decisions/0052-reconciliation-actions-and-reconciled-months.md): each
   * list a page of 100 at a time, auto-paging. An intent still waiting for a payment method moved nothing, as in
   * the sandbox.
   */
  async listMovementsCreated(range: { from: Date; to: Date }): Promise<ListedMovement[]> {
    const params = createdRangeParams(range);
    const listed: ListedMovement[] = [];
    const keep = (o: { id: string; amount: number; metadata?: Stripe.Metadata | null }) => {
      const key = o.metadata?.[IDEMPOTENCY_KEY_METADATA];
      if (key) listed.push({ id: o.id, idempotencyKey: key, amountCents: o.amount });
    };
    try {
      for await (const intent of this.stripe.paymentIntents.list(params))
        if (intent.status !== "requires_payment_method") keep(intent);
      for await (const refund of this.stripe.refunds.list(params)) keep(refund);
      for await (const transfer of this.stripe.transfers.list(params)) keep(transfer);
    } catch (err) {
      throw translateStripeError(err, "listMovementsCreated");
    }
    return listed;
  }
}

/**
 * The lists' filter of objects created in [from, to): Stripe's `created` is in whole seconds (exported for the
 * contract test and for review).
 */
export function createdRangeParams(range: { from: Date; to: Date }): {
  created: { gte: number; lt: number };
  limit: number;
} {
  return {
    created: {
      gte: Math.ceil(range.from.getTime() / 1000),
      lt: Math.ceil(range.to.getTime() / 1000),
    },
    limit: 100,
  };
}

/** The search of a movement's intent by its key (exported for the contract test and for review). */
export function movementSearchParams(key: string): Stripe.PaymentIntentSearchParams {
  // Stripe's search query language: a string value in single quotes, a quote inside escaped with a backslash.
  const quoted = key.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
  return { query: `metadata['${IDEMPOTENCY_KEY_METADATA}']:'${quoted}'`, limit: 10 };
}

function intentMovement(intent: Stripe.PaymentIntent, amountCents: number): FoundMovement {
  const charge =
    typeof intent.latest_charge === "string"
      ? intent.latest_charge
      : (intent.latest_charge?.id ?? null);
  return { id: intent.id, amountCents, status: intent.status, chargeId: charge };
}

function required(id: string | undefined): string {
  if (!id)
    throw new Error("findMovementByKey: the intent or transfer group to look in is required");
  return id;
}

/** A movement's metadata at the provider: the caller's, and the key it was sent with (findMovementByKey). */
function withKey(metadata: Record<string, string>, key: string): Record<string, string> {
  return { ...metadata, [IDEMPOTENCY_KEY_METADATA]: key };
}

/** Stripe's test card tokens (tok_visa, ...): a PaymentMethod is created from them first. */
export function isTestToken(paymentMethod: string): boolean {
  return /^tok_[A-Za-z0-9_]+$/.test(paymentMethod);
}

/** The pre-authorisation request (exported for the contract test and for review). */
export function authorizeIntentParams(
  input: AuthorizePaymentInput,
  paymentMethodId: string,
): Stripe.PaymentIntentCreateParams {
  return {
    amount: input.amountCents,
    currency: "usd",
    capture_method: "manual",
    confirm: true,
    payment_method: paymentMethodId,
    payment_method_types: ["card"],
    ...(input.customerId ? { customer: input.customerId } : {}),
    description: input.description,
    metadata: withKey(input.metadata, input.idempotencyKey),
  };
}

export function captureParams(input: CapturePaymentInput): Stripe.PaymentIntentCaptureParams {
  return { amount_to_capture: input.amountCents };
}

export function refundParams(input: RefundInput): Stripe.RefundCreateParams {
  return {
    payment_intent: input.paymentIntentId,
    amount: input.amountCents,
    metadata: withKey(input.metadata, input.idempotencyKey),
  };
}

export function transferParams(input: TransferInput): Stripe.TransferCreateParams {
  return {
    amount: input.amountCents,
    currency: "usd",
    destination: input.destination,
    description: input.description,
    transfer_group: input.transferGroup,
    metadata: withKey(input.metadata, input.idempotencyKey),
  };
}

/** The penalty: an off-session PaymentIntent on the seller's saved card, confirmed and captured at once. */
export function offSessionChargeParams(
  input: ChargeSavedCardInput,
): Stripe.PaymentIntentCreateParams {
  return {
    amount: input.amountCents,
    currency: "usd",
    customer: input.customerId,
    payment_method: input.paymentMethodId,
    payment_method_types: ["card"],
    off_session: true,
    confirm: true,
    capture_method: "automatic",
    description: input.description,
    metadata: withKey(input.metadata, input.idempotencyKey),
  };
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

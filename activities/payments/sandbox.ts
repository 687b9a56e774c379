/**
 * Sandbox adapter of the payments port: a stateful stand-in for Stripe kept in Postgres
 * (sandbox_payment_objects, sandbox_idempotency_keys), the default offline and in browser tests.
 *
 * Objects are stored Stripe-shaped by id and kind ("account", later "payment_intent", "refund",
 * "transfer", "payment_method"), so later issues add an operation by writing one method that calls
 * `this.idempotent(key, operation, params, run)` and `putObject`/`getObject`.
 *
 * Idempotency like Stripe's: the first request with a key is recorded with a hash of its operation and
 * parameters and its outcome (the object id, or the rejection). The same key with the same parameters
 * returns the same object (or the same rejection); the same key with other parameters is an
 * IdempotencyConflictError. Concurrent requests with one key serialise on the key's primary key.
 *
 * Test data (Stripe's documented test bank numbers): routing 110000000 with account 000123456789
 * succeeds; any routing number failing the ABA checksum is refused with routing_number_invalid.
 * Only the last four digits of an account number are kept.
 * Tokens (ADR 0050): the sandbox's stand-in of Stripe.js (app/routes/sandbox.v1.tokens.tsx) stores each token
 * redacted (domain/payout-tokens.ts sandboxToken); an account is made from one token of each kind, each used once.
 * Cards: only Stripe's documented test cards, as their test tokens (domain/cards.ts: tok_visa succeeds,
 * tok_chargeDeclined is declined at attach with card_declined); a PaymentMethod keeps brand and last four.
 *
 * Orders (Stripe semantics, each a recorded idempotent request):
 * - PaymentIntent with capture_method manual: created + confirmed -> requires_capture (a declining test card
 *   -> card_declined, recorded under the key like Stripe's 402); capture of at most amount_capturable ->
 *   succeeded (the rest released); cancel of an uncaptured intent -> canceled; anything else on the wrong
 *   status -> payment_intent_unexpected_state.
 * - Refunds of a succeeded intent, never more than received minus already refunded (amount_too_large).
 * - Transfers to an existing connected account (else resource_missing on destination).
 * - Off-session charge of a saved card: the PaymentMethod must be attached to that customer.
 * A PaymentMethod attached to a customer can only be used with that customer (as with Stripe).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../../db/client";
import { sandboxIdempotencyKeys, sandboxPaymentObjects } from "../../db/schema";
import { getSandboxObject, putSandboxObject } from "../../db/queries/payments";
import { isValidAbaRoutingNumber, lastFour, PAYOUT_PROVIDER_MESSAGES } from "../../domain/payout";
import { TEST_CARD_TOKENS } from "../../domain/cards";
import { PAYOUT_TOKEN_MESSAGES, type PayoutTokenKind } from "../../domain/payout-tokens";
import {
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
  type ListedMovement,
  IDEMPOTENCY_KEY_METADATA,
  type ConnectedAccount,
  type CreateConnectedAccountInput,
  type CreateConnectedAccountFromTokensInput,
  type CreatePaymentMethodFromTestCardInput,
  type PaymentMethodInfo,
  type PaymentsPort,
} from "./port";

export type SandboxObject = Record<string, unknown> & { id: string; object: string };

interface StoredRejection {
  message: string;
  code: string;
  param?: string;
  field?: PaymentRejectedError["field"];
}

/** Canonical JSON (sorted keys) so equal parameters hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

export function requestHash(operation: string, params: unknown): string {
  return createHash("sha256")
    .update(`${operation}\n${canonical(params)}`)
    .digest("hex");
}

export function sandboxId(prefix: string): string {
  return `${prefix}_sandbox_${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** How long a key's first answer is kept (Stripe: keys may be removed once they are 24 hours old). */
export const SANDBOX_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A movement's metadata as the provider keeps it: the caller's and its idempotency key (findMovementByKey). */
function withKey(metadata: Record<string, string>, key: string): Record<string, string> {
  return { ...metadata, [IDEMPOTENCY_KEY_METADATA]: key };
}

export class SandboxPayments implements PaymentsPort {
  readonly provider = "sandbox" as const;
  constructor(private readonly db: Db) {}

  /**
   * Runs `run` once per idempotency key. `run` returns the created/changed object (already stored with
   * putObject in the same transaction) or throws PaymentRejectedError, which is recorded and replayed.
   */
  protected async idempotent(
    key: string,
    operation: string,
    params: unknown,
    run: (tx: Tx) => Promise<SandboxObject>,
  ): Promise<SandboxObject> {
    if (!key) throw new Error("an idempotency key is required");
    const hash = requestHash(operation, params);
    type Outcome =
      | { kind: "conflict" }
      | { kind: "rejection"; rejection: StoredRejection }
      | { kind: "object"; object: SandboxObject };
    const outcome = await this.db.transaction(async (tx): Promise<Outcome> => {
      // Like Stripe, a key is forgotten a day after its first request: the same key then makes a new object.
      await tx
        .delete(sandboxIdempotencyKeys)
        .where(
          and(
            eq(sandboxIdempotencyKeys.key, key),
            lt(sandboxIdempotencyKeys.createdAt, new Date(Date.now() - SANDBOX_KEY_TTL_MS)),
          ),
        );
      const claimed = await tx
        .insert(sandboxIdempotencyKeys)
        .values({ key, requestHash: hash })
        .onConflictDoNothing()
        .returning({ key: sandboxIdempotencyKeys.key });
      if (claimed.length === 0) {
        const [row] = await tx
          .select()
          .from(sandboxIdempotencyKeys)
          .where(eq(sandboxIdempotencyKeys.key, key));
        if (!row || row.requestHash !== hash) return { kind: "conflict" };
        if (row.responseError)
          return { kind: "rejection", rejection: row.responseError as StoredRejection };
        const obj = row.responseObjectId ? await getObject(tx, row.responseObjectId) : undefined;
        if (!obj) throw new Error(`sandbox: idempotency key ${key} has no stored response`);
        return { kind: "object", object: obj };
      }
      try {
        const obj = await run(tx);
        await tx
          .update(sandboxIdempotencyKeys)
          .set({ responseObjectId: obj.id })
          .where(eq(sandboxIdempotencyKeys.key, key));
        return { kind: "object", object: obj };
      } catch (err) {
        if (!(err instanceof PaymentRejectedError)) throw err; // rolls back: the key is free again
        const rejection: StoredRejection = {
          message: err.message,
          code: err.code,
          param: err.param,
          field: err.field,
        };
        await tx
          .update(sandboxIdempotencyKeys)
          .set({ responseError: rejection })
          .where(eq(sandboxIdempotencyKeys.key, key));
        return { kind: "rejection", rejection };
      }
    });
    if (outcome.kind === "conflict") throw new IdempotencyConflictError(key);
    if (outcome.kind === "rejection") {
      const r = outcome.rejection;
      throw new PaymentRejectedError(r.message, { code: r.code, param: r.param, field: r.field });
    }
    return outcome.object;
  }

  async createConnectedAccount(input: CreateConnectedAccountInput): Promise<ConnectedAccount> {
    const d = input.details;
    const params = { retailerId: input.retailerId, details: d, tosAcceptance: input.tosAcceptance };
    const account = await this.idempotent(
      input.idempotencyKey,
      "accounts.create",
      params,
      async (tx) => {
        if (!isValidAbaRoutingNumber(d.routing_number)) {
          throw new PaymentRejectedError(PAYOUT_PROVIDER_MESSAGES.routingNumberInvalid, {
            code: "routing_number_invalid",
            param: "external_account[routing_number]",
            field: "routing_number",
          });
        }
        const id = sandboxId("acct");
        const data: SandboxObject = {
          id,
          object: "account",
          type: "custom",
          country: "US",
          email: d.email,
          business_type: "company",
          business_profile: { name: d.buslegal_name },
          company: {
            name: d.buslegal_name,
            tax_id_provided: true,
            address: {
              line1: d.busstreet_address,
              city: d.buslocality,
              state: d.busregion,
              postal_code: d.buspostal_code || null,
              country: "US",
            },
          },
          representative: { first_name: d.first_name, last_name: d.last_name, email: d.email },
          external_accounts: {
            object: "list",
            data: [
              {
                id: sandboxId("ba"),
                object: "bank_account",
                account: id,
                country: "US",
                currency: "usd",
                bank_name: "STRIPE TEST BANK",
                last4: lastFour(d.account_number),
                routing_number: d.routing_number,
                account_holder_type: "company",
                status: "new",
              },
            ],
          },
          capabilities: { transfers: "active" },
          charges_enabled: false,
          payouts_enabled: true,
          details_submitted: true,
          tos_acceptance: { date: input.tosAcceptance.date, ip: input.tosAcceptance.ip },
          metadata: { retailerId: String(input.retailerId) },
          created: Math.floor(Date.now() / 1000),
        };
        await putObject(tx, "account", data);
        return data;
      },
    );
    const bank = (account.external_accounts as { data: { last4: string }[] }).data[0];
    return { id: account.id, bankAccountLast4: bank?.last4 ?? lastFour(d.account_number) };
  }

  /**
   * The account from the browser's tokens: each must exist, be of its kind and unused (then it is used), as
   * Stripe refuses `resource_missing` / `token_already_used`; the account keeps what the tokens kept.
   */
  async createConnectedAccountFromTokens(
    input: CreateConnectedAccountFromTokensInput,
  ): Promise<ConnectedAccount> {
    const { tokens } = input;
    const params = {
      retailerId: input.retailerId,
      tokens,
      email: input.email,
      businessName: input.businessName,
    };
    const account = await this.idempotent(
      input.idempotencyKey,
      "accounts.create",
      params,
      async (tx) => {
        // All three are checked before any is used: a refused request uses none (as with Stripe).
        const check = async (id: string, kind: PayoutTokenKind, param: string) => {
          const token = await getObject(tx, id);
          if (!token || token.object !== "token" || token.type !== kind || token.used === true)
            throw new PaymentRejectedError(PAYOUT_TOKEN_MESSAGES.tokenInvalid, {
              code: token?.used === true ? "token_already_used" : "resource_missing",
              param,
            });
          return token;
        };
        const taken = [
          await check(tokens.accountToken, "account", "account_token"),
          await check(tokens.personToken, "person", "person_token"),
          await check(tokens.bankAccountToken, "bank_account", "external_account"),
        ];
        for (const token of taken) await putObject(tx, "token", { ...token, used: true });
        const acct = taken[0].account as { company: Record<string, unknown> };
        const person = taken[1].person as Record<string, unknown>;
        const bank = taken[2].bank_account as Record<string, unknown>;
        const id = sandboxId("acct");
        const data: SandboxObject = {
          id,
          object: "account",
          type: "custom",
          country: "US",
          email: input.email,
          business_type: "company",
          business_profile: { name: input.businessName },
          company: acct.company,
          representative: person,
          external_accounts: {
            object: "list",
            data: [{ ...bank, id: sandboxId("ba"), account: id, status: "new" }],
          },
          capabilities: { transfers: "active" },
          charges_enabled: false,
          payouts_enabled: true,
          details_submitted: true,
          tos_acceptance: { shown_and_accepted: true },
          metadata: { retailerId: String(input.retailerId) },
          created: Math.floor(Date.now() / 1000),
        };
        await putObject(tx, "account", data);
        return data;
      },
    );
    const bank = (account.external_accounts as { data: { last4: string }[] }).data[0];
    return { id: account.id, bankAccountLast4: bank?.last4 ?? "" };
  }

  /**
   * A card PaymentMethod from a documented test card's token (tok_visa, ...). Unknown tokens are refused
   * like an incorrect number. Stored: the card's brand, last four and test outcome, never a number.
   */
  async createPaymentMethodFromTestCard(
    input: CreatePaymentMethodFromTestCardInput,
  ): Promise<PaymentMethodInfo> {
    const pm = await this.idempotent(
      input.idempotencyKey,
      "payment_methods.create",
      { testToken: input.testToken },
      async (tx) => {
        const card = Object.hasOwn(TEST_CARD_TOKENS, input.testToken)
          ? TEST_CARD_TOKENS[input.testToken]
          : undefined;
        if (!card) {
          throw new PaymentRejectedError("Your card number is incorrect.", {
            code: "incorrect_number",
            param: "card[number]",
          });
        }
        const data: SandboxObject = {
          id: sandboxId("pm"),
          object: "payment_method",
          type: "card",
          card: {
            brand: card.brand,
            last4: card.last4,
            exp_month: 12,
            exp_year: new Date().getUTCFullYear() + 3,
            funding: "credit",
            country: "US",
          },
          customer: null,
          metadata: { test_outcome: card.outcome },
          created: Math.floor(Date.now() / 1000),
        };
        await putObject(tx, "payment_method", data);
        return data;
      },
    );
    const card = pm.card as { brand: string; last4: string };
    return { id: pm.id, brand: card.brand, last4: card.last4 };
  }

  /**
   * Attaches a PaymentMethod to the retailer's customer (created when missing) and makes it the default.
   * Like Stripe, attaching a card that declines fails with card_declined.
   */
  async attachPaymentMethod(input: AttachPaymentMethodInput): Promise<AttachedPaymentMethod> {
    const params = {
      retailerId: input.retailerId,
      paymentMethodId: input.paymentMethodId,
      customerId: input.customerId,
      email: input.email,
    };
    const pm = await this.idempotent(
      input.idempotencyKey,
      "payment_methods.attach",
      params,
      async (tx) => {
        const existing = await getObject(tx, input.paymentMethodId);
        if (!existing || existing.object !== "payment_method") {
          throw new PaymentRejectedError(`No such PaymentMethod: '${input.paymentMethodId}'`, {
            code: "resource_missing",
            param: "payment_method",
          });
        }
        const outcome = (existing.metadata as { test_outcome?: string } | undefined)?.test_outcome;
        if (outcome === "declined")
          throw new PaymentRejectedError("Your card was declined.", { code: "card_declined" });
        if (outcome === "insufficient_funds")
          throw new PaymentRejectedError("Your card has insufficient funds.", {
            code: "card_declined",
          });
        let customerId = input.customerId;
        const customer = customerId ? await getObject(tx, customerId) : undefined;
        if (!customer) {
          customerId = sandboxId("cus");
          await putObject(tx, "customer", {
            id: customerId,
            object: "customer",
            email: input.email ?? null,
            metadata: { retailerId: String(input.retailerId) },
            invoice_settings: { default_payment_method: input.paymentMethodId },
            created: Math.floor(Date.now() / 1000),
          });
        } else {
          await putObject(tx, "customer", {
            ...customer,
            invoice_settings: { default_payment_method: input.paymentMethodId },
          });
        }
        const attached: SandboxObject = { ...existing, customer: customerId };
        await putObject(tx, "payment_method", attached);
        return attached;
      },
    );
    const card = pm.card as { brand: string; last4: string };
    return {
      customerId: pm.customer as string,
      paymentMethodId: pm.id,
      brand: card.brand,
      last4: card.last4,
    };
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizedPayment> {
    let pmId = input.paymentMethod;
    if (/^tok_/.test(pmId)) {
      pmId = (
        await this.createPaymentMethodFromTestCard({
          idempotencyKey: `${input.idempotencyKey}:payment-method`,
          testToken: pmId,
        })
      ).id;
    }
    const params = {
      amount: input.amountCents,
      paymentMethod: pmId,
      customer: input.customerId,
      description: input.description,
      metadata: input.metadata,
    };
    const pi = await this.idempotent(
      input.idempotencyKey,
      "payment_intents.create",
      { ...params, capture_method: "manual", confirm: true },
      async (tx) => {
        assertAmount(input.amountCents);
        const pm = await usablePaymentMethod(tx, pmId, input.customerId);
        return putIntentWithCharge(tx, {
          amountCents: input.amountCents,
          paymentMethodId: pm.id,
          customerId: input.customerId,
          description: input.description,
          metadata: withKey(input.metadata, input.idempotencyKey),
          capture: "manual",
        });
      },
    );
    const pm = await getObject(this.db, pi.payment_method as string);
    const card = (pm?.card ?? { brand: "", last4: "" }) as { brand: string; last4: string };
    return {
      paymentIntentId: pi.id,
      amountCents: pi.amount as number,
      status: "requires_capture",
      brand: card.brand,
      last4: card.last4,
    };
  }

  async capturePayment(input: CapturePaymentInput): Promise<CapturedPayment> {
    const params = { paymentIntentId: input.paymentIntentId, amount_to_capture: input.amountCents };
    const pi = await this.idempotent(
      input.idempotencyKey,
      "payment_intents.capture",
      params,
      async (tx) => {
        assertAmount(input.amountCents);
        const intent = await intentIn(tx, input.paymentIntentId, "requires_capture");
        if (input.amountCents > (intent.amount_capturable as number)) {
          throw new PaymentRejectedError(
            `Amount to capture (${input.amountCents}) cannot be greater than amount_capturable (${intent.amount_capturable as number}).`,
            {
              code: "amount_too_large",
              param: "amount_to_capture",
            },
          );
        }
        const charge = await getObject(tx, intent.latest_charge as string);
        if (charge)
          await putObject(tx, "charge", {
            ...charge,
            captured: true,
            amount_captured: input.amountCents,
          });
        const next: SandboxObject = {
          ...intent,
          status: "succeeded",
          amount_received: input.amountCents,
          amount_capturable: 0,
        };
        await putObject(tx, "payment_intent", next);
        return next;
      },
    );
    return {
      paymentIntentId: pi.id,
      capturedCents: pi.amount_received as number,
      chargeId: pi.latest_charge as string,
    };
  }

  async releaseAuthorization(input: ReleaseAuthorizationInput): Promise<void> {
    const params = { paymentIntentId: input.paymentIntentId, cancellation_reason: input.reason };
    await this.idempotent(input.idempotencyKey, "payment_intents.cancel", params, async (tx) => {
      const intent = await getObject(tx, input.paymentIntentId);
      if (!intent || intent.object !== "payment_intent")
        throw noSuch("payment_intent", input.paymentIntentId, "intent");
      if (
        ![
          "requires_capture",
          "requires_payment_method",
          "requires_confirmation",
          "requires_action",
        ].includes(intent.status as string)
      ) {
        throw unexpectedState(intent, "cancel");
      }
      const next: SandboxObject = {
        ...intent,
        status: "canceled",
        amount_capturable: 0,
        cancellation_reason: input.reason,
        canceled_at: Math.floor(Date.now() / 1000),
      };
      await putObject(tx, "payment_intent", next);
      return next;
    });
  }

  async refundPayment(input: RefundInput): Promise<RefundResult> {
    const params = {
      paymentIntentId: input.paymentIntentId,
      amount: input.amountCents,
      metadata: input.metadata,
    };
    const refund = await this.idempotent(
      input.idempotencyKey,
      "refunds.create",
      params,
      async (tx) => {
        assertAmount(input.amountCents);
        const intent = await intentIn(tx, input.paymentIntentId, "succeeded");
        const charge = await getObject(tx, intent.latest_charge as string);
        const refunded = (charge?.amount_refunded as number | undefined) ?? 0;
        const received = intent.amount_received as number;
        if (input.amountCents > received - refunded) {
          throw new PaymentRejectedError(
            `Refund amount (${input.amountCents}) is greater than unrefunded amount on charge (${received - refunded}).`,
            {
              code: "amount_too_large",
              param: "amount",
            },
          );
        }
        if (charge) {
          await putObject(tx, "charge", {
            ...charge,
            amount_refunded: refunded + input.amountCents,
            refunded: refunded + input.amountCents === received,
          });
        }
        const data: SandboxObject = {
          id: sandboxId("re"),
          object: "refund",
          amount: input.amountCents,
          currency: "usd",
          payment_intent: intent.id,
          charge: intent.latest_charge,
          metadata: withKey(input.metadata, input.idempotencyKey),
          status: "succeeded",
          created: Math.floor(Date.now() / 1000),
        };
        await putObject(tx, "refund", data);
        return data;
      },
    );
    return {
      refundId: refund.id,
      amountCents: refund.amount as number,
      status: refund.status as string,
    };
  }

  async createTransfer(input: TransferInput): Promise<TransferResult> {
    const params = {
      amount: input.amountCents,
      destination: input.destination,
      description: input.description,
      transfer_group: input.transferGroup,
      metadata: input.metadata,
    };
    const tr = await this.idempotent(
      input.idempotencyKey,
      "transfers.create",
      params,
      async (tx) => {
        assertAmount(input.amountCents);
        const account = await getObject(tx, input.destination);
        if (!account || account.object !== "account") {
          throw new PaymentRejectedError(`No such destination: '${input.destination}'`, {
            code: "resource_missing",
            param: "destination",
          });
        }
        const data: SandboxObject = {
          id: sandboxId("tr"),
          object: "transfer",
          amount: input.amountCents,
          amount_reversed: 0,
          currency: "usd",
          destination: input.destination,
          description: input.description,
          transfer_group: input.transferGroup,
          metadata: withKey(input.metadata, input.idempotencyKey),
          reversed: false,
          created: Math.floor(Date.now() / 1000),
        };
        await putObject(tx, "transfer", data);
        return data;
      },
    );
    return { transferId: tr.id, amountCents: tr.amount as number };
  }

  async chargeSavedCard(input: ChargeSavedCardInput): Promise<ChargeResult> {
    const params = {
      amount: input.amountCents,
      customer: input.customerId,
      paymentMethod: input.paymentMethodId,
      description: input.description,
      metadata: input.metadata,
      off_session: true,
      confirm: true,
      capture_method: "automatic",
    };
    const pi = await this.idempotent(
      input.idempotencyKey,
      "payment_intents.create",
      params,
      async (tx) => {
        assertAmount(input.amountCents);
        if (!input.customerId)
          throw new PaymentRejectedError("An off-session payment needs a customer.", {
            code: "parameter_missing",
            param: "customer",
          });
        const pm = await usablePaymentMethod(tx, input.paymentMethodId, input.customerId);
        if (pm.customer !== input.customerId) {
          throw new PaymentRejectedError(
            "The PaymentMethod must be attached to the customer to be used off-session.",
            {
              code: "payment_method_unattached",
              param: "payment_method",
            },
          );
        }
        return putIntentWithCharge(tx, {
          amountCents: input.amountCents,
          paymentMethodId: pm.id,
          customerId: input.customerId,
          description: input.description,
          metadata: withKey(input.metadata, input.idempotencyKey),
          capture: "automatic",
        });
      },
    );
    return {
      paymentIntentId: pi.id,
      chargeId: pi.latest_charge as string,
      amountCents: pi.amount as number,
    };
  }

  /** The intents, refunds and transfers created in [from, to) with a key in their metadata; an intent that moved nothing is left out. */
  async listMovementsCreated(range: { from: Date; to: Date }): Promise<ListedMovement[]> {
    const rows = await this.db
      .select({ data: sandboxPaymentObjects.data })
      .from(sandboxPaymentObjects)
      .where(
        and(
          inArray(sandboxPaymentObjects.kind, ["payment_intent", "refund", "transfer"]),
          gte(sandboxPaymentObjects.createdAt, range.from),
          lt(sandboxPaymentObjects.createdAt, range.to),
          sql`${sandboxPaymentObjects.data} -> 'metadata' ->> ${IDEMPOTENCY_KEY_METADATA} IS NOT NULL`,
        ),
      );
    return rows
      .map((r) => r.data as SandboxObject)
      .filter((o) => o.status !== "requires_payment_method")
      .map((o) => ({
        id: o.id,
        idempotencyKey: (o.metadata as Record<string, string>)[IDEMPOTENCY_KEY_METADATA],
        amountCents: Number(o.amount),
      }));
  }

  /**
   * The object a movement's request left, found as Stripe finds it (findMovementByKey in ./stripe.ts): by the key
   * in its metadata, or for a capture or a release the intent's status. The idempotency records are not read: they are
   * forgotten after a day, the objects are not.
   */
  async findMovementByKey(input: FindMovementInput): Promise<FoundMovement | null> {
    if (input.kind === "capture") {
      const intent = input.paymentIntentId
        ? await getObject(this.db, input.paymentIntentId)
        : undefined;
      if (intent?.object !== "payment_intent" || intent.status !== "succeeded") return null;
      return movementOf(intent, intent.amount_received as number);
    }
    if (input.kind === "release") {
      const intent = input.paymentIntentId
        ? await getObject(this.db, input.paymentIntentId)
        : undefined;
      if (intent?.object !== "payment_intent" || intent.status !== "canceled") return null;
      return movementOf(intent, intent.amount as number);
    }
    const kind = input.kind;
    const rows = await this.db
      .select({ data: sandboxPaymentObjects.data })
      .from(sandboxPaymentObjects)
      .where(
        and(
          eq(sandboxPaymentObjects.kind, kind),
          sql`${sandboxPaymentObjects.data} -> 'metadata' ->> ${IDEMPOTENCY_KEY_METADATA} = ${input.idempotencyKey}`,
        ),
      )
      .limit(1);
    const found = rows[0]?.data as SandboxObject | undefined;
    return found ? movementOf(found, found.amount as number) : null;
  }

  /** Reads an object by id (tests, staff tools, later operations). */
  retrieve(id: string): Promise<SandboxObject | undefined> {
    return getObject(this.db, id);
  }
}

/**
 * A confirmed payment intent and its charge, as the provider stores them: "manual" capture leaves the amount
 * capturable (requires_capture, charge not captured); "automatic" captures it at once (succeeded).
 */
async function putIntentWithCharge(
  tx: DbOrTx,
  p: {
    amountCents: number;
    paymentMethodId: string;
    customerId: string | null | undefined;
    description?: string;
    metadata?: unknown;
    capture: "manual" | "automatic";
  },
): Promise<SandboxObject> {
  const captured = p.capture === "automatic";
  const now = Math.floor(Date.now() / 1000);
  const id = sandboxId("pi");
  const chargeId = sandboxId("ch");
  await putObject(tx, "charge", {
    id: chargeId,
    object: "charge",
    amount: p.amountCents,
    amount_captured: captured ? p.amountCents : 0,
    amount_refunded: 0,
    captured,
    refunded: false,
    paid: true,
    status: "succeeded",
    payment_intent: id,
    payment_method: p.paymentMethodId,
    customer: p.customerId,
    created: now,
  });
  const intent: SandboxObject = {
    id,
    object: "payment_intent",
    amount: p.amountCents,
    amount_capturable: captured ? 0 : p.amountCents,
    amount_received: captured ? p.amountCents : 0,
    capture_method: p.capture,
    ...(captured ? {} : { confirmation_method: "automatic" }),
    currency: "usd",
    customer: p.customerId,
    description: p.description,
    metadata: p.metadata,
    payment_method: p.paymentMethodId,
    payment_method_types: ["card"],
    latest_charge: chargeId,
    status: captured ? "succeeded" : "requires_capture",
    created: now,
  };
  await putObject(tx, "payment_intent", intent);
  return intent;
}

function movementOf(o: SandboxObject, amountCents: number): FoundMovement {
  return {
    id: o.id,
    amountCents,
    status: o.object === "transfer" ? "paid" : String(o.status),
    chargeId: typeof o.latest_charge === "string" ? o.latest_charge : null,
  };
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 50) {
    throw new PaymentRejectedError("Amount must be at least 50 cents.", {
      code: "amount_too_small",
      param: "amount",
    });
  }
}

function noSuch(kind: string, id: string, param: string): PaymentRejectedError {
  return new PaymentRejectedError(`No such ${kind}: '${id}'`, { code: "resource_missing", param });
}

function unexpectedState(intent: SandboxObject, action: string): PaymentRejectedError {
  return new PaymentRejectedError(
    `You cannot ${action} this PaymentIntent because it has a status of ${String(intent.status)}.`,
    {
      code: "payment_intent_unexpected_state",
    },
  );
}

async function intentIn(tx: DbOrTx, id: string, status: string): Promise<SandboxObject> {
  const intent = await getObject(tx, id);
  if (!intent || intent.object !== "payment_intent") throw noSuch("payment_intent", id, "intent");
  if (intent.status !== status)
    throw unexpectedState(intent, status === "requires_capture" ? "capture" : "refund");
  return intent;
}

/**
 * A PaymentMethod that can be charged with this customer: it exists, belongs to no other customer (an
 * attached one needs its customer, as with Stripe), and its test card does not decline.
 */
async function usablePaymentMethod(
  tx: DbOrTx,
  pmId: string,
  customerId: string | null,
): Promise<SandboxObject> {
  const pm = await getObject(tx, pmId);
  if (!pm || pm.object !== "payment_method") throw noSuch("PaymentMethod", pmId, "payment_method");
  if (pm.customer && pm.customer !== customerId) {
    throw new PaymentRejectedError(
      "The provided PaymentMethod was previously attached to a Customer; pass that Customer to use it.",
      {
        code: "invalid_request_error",
        param: "payment_method",
      },
    );
  }
  const outcome = (pm.metadata as { test_outcome?: string } | undefined)?.test_outcome;
  if (outcome === "declined")
    throw new PaymentRejectedError("Your card was declined.", { code: "card_declined" });
  if (outcome === "insufficient_funds")
    throw new PaymentRejectedError("Your card has insufficient funds.", { code: "card_declined" });
  return pm;
}

export async function putObject(db: DbOrTx, kind: string, data: SandboxObject): Promise<void> {
  await putSandboxObject(db, kind, data);
}

export async function getObject(db: DbOrTx, id: string): Promise<SandboxObject | undefined> {
  return getSandboxObject(db, id);
}

export function createSandboxPayments(db: Db): SandboxPayments {
  return new SandboxPayments(db);
}

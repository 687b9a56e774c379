/**
 * The payments port: what the product needs from a payment provider. Two adapters implement it:
 * Stripe (the SDK; contract-tested against stripe-mock) and the sandbox (a stateful stand-in kept in
 * Postgres, the default offline and in browser tests). Every mutating call takes an idempotency key
 * (workflow id + step + attempt): same key and same parameters = same result; same key and other
 * parameters = an IdempotencyConflict error.
 *
 * Orders use: a PaymentIntent with manual capture (authorizePayment), partial capture
 * (capturePayment), cancel (releaseAuthorization), refund (refundPayment), a transfer to the seller's
 * connected account (createTransfer) and an off-session charge of a saved card (chargeSavedCard).
 */
import type { PayoutDetails, PayoutField } from "../../domain/payout";
import type { PayoutTokens } from "../../domain/payout-tokens";

export type PaymentsProviderName = "stripe" | "sandbox";

export interface CreateConnectedAccountInput {
  idempotencyKey: string;
  retailerId: number;
  details: PayoutDetails;
  /** Terms-of-service acceptance: unix seconds and the client's IP. */
  tosAcceptance: { date: number; ip: string; userAgent?: string };
}

/**
 * A connected account from the provider's tokens, made in the browser (ADR 0050): the company and the
 * accepted terms (account token), the representative (person token), the bank account (bank account token).
 */
export interface CreateConnectedAccountFromTokensInput {
  idempotencyKey: string;
  retailerId: number;
  tokens: PayoutTokens;
  email: string;
  businessName: string;
}

export interface ConnectedAccount {
  id: string;
  /** The provider accepted the bank account (its last four). */
  bankAccountLast4: string;
}

export interface CreatePaymentMethodFromTestCardInput {
  idempotencyKey: string;
  /** The provider's test token of a documented test card (tok_visa, tok_chargeDeclined, ...): never a card number. */
  testToken: string;
}

export interface PaymentMethodInfo {
  id: string;
  /** Card network as the provider names it ("visa", "mastercard", ...). */
  brand: string;
  last4: string;
}

export interface AttachPaymentMethodInput {
  idempotencyKey: string;
  retailerId: number;
  paymentMethodId: string;
  /** The retailer's provider customer when it has one; otherwise one is created (key `<key>:customer`). */
  customerId: string | null;
  email?: string;
}

export interface AttachedPaymentMethod {
  customerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
}

export interface AuthorizePaymentInput {
  idempotencyKey: string;
  amountCents: number;
  /** A PaymentMethod id (pm_...), or a documented test card token (tok_visa, ...; becomes a PaymentMethod first, key `<key>:payment-method`). */
  paymentMethod: string;
  /** The provider customer when the PaymentMethod is one of the retailer's saved cards (Stripe requires it then). */
  customerId: string | null;
  description: string;
  metadata: Record<string, string>;
}

/** A PaymentIntent with manual capture that the provider authorised (status requires_capture). */
export interface AuthorizedPayment {
  paymentIntentId: string;
  amountCents: number;
  status: "requires_capture";
  brand: string;
  last4: string;
}

export interface CapturePaymentInput {
  idempotencyKey: string;
  paymentIntentId: string;
  /** amount_to_capture: at most the authorised amount (partial capture releases the rest). */
  amountCents: number;
}

export interface CapturedPayment {
  paymentIntentId: string;
  capturedCents: number;
  chargeId: string;
}

export interface ReleaseAuthorizationInput {
  idempotencyKey: string;
  paymentIntentId: string;
  /** Stripe cancellation_reason. */
  reason: "abandoned" | "requested_by_customer";
}

export interface RefundInput {
  idempotencyKey: string;
  paymentIntentId: string;
  amountCents: number;
  metadata: Record<string, string>;
}

export interface RefundResult {
  refundId: string;
  amountCents: number;
  status: string;
}

export interface TransferInput {
  idempotencyKey: string;
  amountCents: number;
  /** The connected account (retailers.bt_merchant_id). */
  destination: string;
  /** What the provider's dashboard shows and searches: "Payout: <order or RMA number>". */
  description: string;
  /** Groups an order's money movements (`order-<id>`). */
  transferGroup: string;
  metadata: Record<string, string>;
}

export interface TransferResult {
  transferId: string;
  amountCents: number;
}

export interface ChargeSavedCardInput {
  idempotencyKey: string;
  amountCents: number;
  customerId: string;
  paymentMethodId: string;
  description: string;
  metadata: Record<string, string>;
}

export interface ChargeResult {
  paymentIntentId: string;
  chargeId: string;
  amountCents: number;
}

/**
 * What a movement left at the provider: the object its request created or changed, looked up by the idempotency
 * key the movement carries in its metadata (`idempotency_key`; a capture: the intent it captured). Asked before a
 * movement is sent again after a restore (docs/decisions/0048-restore-asks-the-provider.md) and before staff's
 * retry of a held movement (docs/decisions/0044-payments-needing-attention.md).
 */
export type MovementKind = "payment_intent" | "capture" | "refund" | "transfer" | "release";

export interface FindMovementInput {
  kind: MovementKind;
  idempotencyKey: string;
  /**
   * capture: the intent captured; release: the intent released (found once canceled: a cancellation carries no
   * metadata); refund: the intent refunded (the provider lists refunds by intent).
   */
  paymentIntentId?: string;
  /** transfer: the order's transfer group (the provider lists transfers by group). */
  transferGroup?: string;
}

export interface FoundMovement {
  /** pi_..., re_..., tr_... */
  id: string;
  amountCents: number;
  status: string;
  /** An intent's latest charge. */
  chargeId: string | null;
}

/** A movement object at the provider with the key in its metadata (listMovementsCreated). */
export interface ListedMovement {
  id: string;
  idempotencyKey: string;
  amountCents: number;
}

/** The metadata entry that names a movement's idempotency key at the provider. */
export const IDEMPOTENCY_KEY_METADATA = "idempotency_key";

export interface PaymentsPort {
  readonly provider: PaymentsProviderName;
  /** A connected (payout) account with the retailer's bank account as external account. */
  createConnectedAccount(input: CreateConnectedAccountInput): Promise<ConnectedAccount>;
  /**
   * The same account from the provider's tokens: no bank number, tax id or birth date passes through us. A
   * token the provider refuses (unknown, used, of another kind) is a PaymentRejectedError.
   */
  createConnectedAccountFromTokens(
    input: CreateConnectedAccountFromTokensInput,
  ): Promise<ConnectedAccount>;
  /**
   * A card PaymentMethod from one of the provider's documented test cards (the sandbox's card form, and
   * Stripe test mode without Elements). A card the provider refuses is a PaymentRejectedError.
   */
  createPaymentMethodFromTestCard(
    input: CreatePaymentMethodFromTestCardInput,
  ): Promise<PaymentMethodInfo>;
  /**
   * Attaches a PaymentMethod (from the test card form, or from Stripe Elements in the browser) to the
   * retailer's customer (created when missing) and makes it the default. A declined card is a
   * PaymentRejectedError with code "card_declined".
   */
  attachPaymentMethod(input: AttachPaymentMethodInput): Promise<AttachedPaymentMethod>;
  /**
   * Pre-authorisation: a PaymentIntent with capture_method manual, confirmed at once. A card the provider
   * declines is a PaymentRejectedError with code "card_declined".
   */
  authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizedPayment>;
  /** Captures (part of) an authorised PaymentIntent; the rest of the authorisation is released. */
  capturePayment(input: CapturePaymentInput): Promise<CapturedPayment>;
  /** Cancels an uncaptured PaymentIntent (the authorisation is released). */
  releaseAuthorization(input: ReleaseAuthorizationInput): Promise<void>;
  /** Refunds (part of) a captured PaymentIntent. */
  refundPayment(input: RefundInput): Promise<RefundResult>;
  /** Pays a connected account (the seller's payout) from the platform balance. */
  createTransfer(input: TransferInput): Promise<TransferResult>;
  /** Charges a saved card off-session (the seller's penalty), captured at once. */
  chargeSavedCard(input: ChargeSavedCardInput): Promise<ChargeResult>;
  /**
   * The movement sent with this idempotency key, if the provider has it (null: it never happened). An intent is
   * found by its metadata (Stripe's search), a refund or a transfer in the list of its intent or group.
   */
  findMovementByKey(input: FindMovementInput): Promise<FoundMovement | null>;
  /**
   * The intents, refunds and transfers created in [from, to) that carry a key and moved money (the nightly
   * reconciliation's "missing with us"; docs/decisions/0045-nightly-reconciliation.md). The sandbox lists
   * them; an adapter without it is not asked.
   */
  listMovementsCreated?(range: { from: Date; to: Date }): Promise<ListedMovement[]>;
}

/**
 * The provider refused the request for a reason that retrying cannot fix (invalid routing number, bad
 * tax id, ...). `field` names the form field when the provider said which parameter was wrong.
 */
export class PaymentRejectedError extends Error {
  readonly code: string;
  readonly field?: PayoutField;
  readonly param?: string;
  constructor(message: string, opts: { code: string; field?: PayoutField; param?: string }) {
    super(message);
    this.name = "PaymentRejectedError";
    this.code = opts.code;
    this.field = opts.field;
    this.param = opts.param;
  }
}

/** The same idempotency key was used with other parameters (Stripe's idempotency_error). A bug, not user input. */
export class IdempotencyConflictError extends Error {
  readonly code = "idempotency_error";
  constructor(key: string) {
    super(
      `Keys for idempotent requests can only be used with the same parameters they were first used with (key ${key}).`,
    );
    this.name = "IdempotencyConflictError";
  }
}

/** Provider parameter paths → form fields: one table, shared with the browser's token step. */
export { fieldForParam } from "../../domain/payout-tokens";

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

export type PaymentsProviderName = "stripe" | "sandbox";

export interface CreateConnectedAccountInput {
  idempotencyKey: string;
  retailerId: number;
  details: PayoutDetails;
  /** Terms-of-service acceptance: unix seconds and the client's IP. */
  tosAcceptance: { date: number; ip: string; userAgent?: string };
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

export interface PaymentsPort {
  readonly provider: PaymentsProviderName;
  /** A connected (payout) account with the retailer's bank account as external account. */
  createConnectedAccount(input: CreateConnectedAccountInput): Promise<ConnectedAccount>;
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

/** Maps a provider's parameter path (e.g. "external_account[routing_number]") to our form field. */
export function fieldForParam(param: string | undefined): PayoutField | undefined {
  if (!param) return undefined;
  const p = param.replace(/\]/g, "").replace(/\[/g, ".");
  const table: [RegExp, PayoutField][] = [
    [/routing_number$/, "routing_number"],
    [/account_number$/, "account_number"],
    [/tax_id$/, "bustax_id"],
    [/^company\.name$/, "buslegal_name"],
    [/^company\.address\.line1$/, "busstreet_address"],
    [/^company\.address\.city$/, "buslocality"],
    [/^company\.address\.state$/, "busregion"],
    [/^company\.address\.postal_code$/, "buspostal_code"],
    [/first_name$/, "first_name"],
    [/last_name$/, "last_name"],
    [/dob/, "date_of_birth"],
    [/address\.line1$/, "street_address"],
    [/address\.city$/, "locality"],
    [/address\.state$/, "region"],
    [/address\.postal_code$/, "postal_code"],
    [/email$/, "email"],
    [/^tos_acceptance/, "tos_accepted"],
  ];
  return table.find(([re]) => re.test(p))?.[1];
}

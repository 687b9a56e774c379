/**
 * The payments port as a restored order reaches it (docs/decisions/0048-restore-asks-the-provider.md): before a
 * movement is sent, the provider is asked whether the movement with that idempotency key already happened
 * (findMovementByKey); if it did, its object is answered as the send would have answered it, and nothing is
 * sent. A movement found with another amount is the same key with other parameters: an
 * IdempotencyConflictError, for a person to look at. Every other call goes to the port unchanged.
 */
import { IdempotencyConflictError, type FoundMovement, type PaymentsPort } from "./port";

export function askingFirst(
  port: PaymentsPort,
  onFound: (key: string, movement: FoundMovement) => void = () => {},
): PaymentsPort {
  /** The movement the provider already has for `key` (of `amountCents`), or null. */
  async function already(
    found: Promise<FoundMovement | null>,
    key: string,
    amountCents: number,
  ): Promise<FoundMovement | null> {
    const movement = await found;
    // A refused attempt can leave its intent waiting for a payment method: it moved nothing, send it.
    if (!movement || movement.status === "requires_payment_method") return null;
    if (movement.amountCents !== amountCents) throw new IdempotencyConflictError(key);
    onFound(key, movement);
    return movement;
  }
  return {
    provider: port.provider,
    createConnectedAccount: (input) => port.createConnectedAccount(input),
    createConnectedAccountFromTokens: (input) => port.createConnectedAccountFromTokens(input),
    createPaymentMethodFromTestCard: (input) => port.createPaymentMethodFromTestCard(input),
    attachPaymentMethod: (input) => port.attachPaymentMethod(input),
    releaseAuthorization: (input) => port.releaseAuthorization(input),
    findMovementByKey: (input) => port.findMovementByKey(input),
    listMovementsCreated: port.listMovementsCreated?.bind(port),

    async authorizePayment(input) {
      const key = input.idempotencyKey;
      const m = await already(
        port.findMovementByKey({ kind: "payment_intent", idempotencyKey: key }),
        key,
        input.amountCents,
      );
      if (!m) return port.authorizePayment(input);
      return {
        paymentIntentId: m.id,
        amountCents: m.amountCents,
        status: "requires_capture",
        brand: "",
        last4: "",
      };
    },

    async capturePayment(input) {
      const key = input.idempotencyKey;
      const m = await already(
        port.findMovementByKey({
          kind: "capture",
          idempotencyKey: key,
          paymentIntentId: input.paymentIntentId,
        }),
        key,
        input.amountCents,
      );
      if (!m) return port.capturePayment(input);
      return { paymentIntentId: m.id, capturedCents: m.amountCents, chargeId: m.chargeId ?? "" };
    },

    async refundPayment(input) {
      const key = input.idempotencyKey;
      const m = await already(
        port.findMovementByKey({
          kind: "refund",
          idempotencyKey: key,
          paymentIntentId: input.paymentIntentId,
        }),
        key,
        input.amountCents,
      );
      if (!m) return port.refundPayment(input);
      return { refundId: m.id, amountCents: m.amountCents, status: m.status };
    },

    async createTransfer(input) {
      const key = input.idempotencyKey;
      const m = await already(
        port.findMovementByKey({
          kind: "transfer",
          idempotencyKey: key,
          transferGroup: input.transferGroup,
        }),
        key,
        input.amountCents,
      );
      if (!m) return port.createTransfer(input);
      return { transferId: m.id, amountCents: m.amountCents };
    },

    async chargeSavedCard(input) {
      const key = input.idempotencyKey;
      const m = await already(
        port.findMovementByKey({ kind: "payment_intent", idempotencyKey: key }),
        key,
        input.amountCents,
      );
      if (!m) return port.chargeSavedCard(input);
      return { paymentIntentId: m.id, chargeId: m.chargeId ?? "", amountCents: m.amountCents };
    },
  };
}

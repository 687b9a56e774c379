/**
 * The activities the card-on-file workflow (workflows/card/workflow.ts) calls: the interface only, owned by the
 * workflow. Implemented by activities/card.ts (the payments port) and activities/readmodel/card.ts
 * (payment_methods), which import it as a type. A provider refusal is a non-retryable CardRejected failure
 * (./contract CARD_REJECTED) carrying the message to show.
 */

/** The card as the provider holds it once attached to the retailer's customer. */
export interface AttachedCard {
  customerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
}

export interface CardActivities {
  /** The test card form: a PaymentMethod from the provider's test token. */
  createTestCardPaymentMethod(input: {
    idempotencyKey: string;
    testToken: string;
  }): Promise<{ paymentMethodId: string; brand: string; last4: string }>;
  /** Attaches the PaymentMethod to the retailer's customer (created when `customerId` is null) as its default. */
  attachCard(input: {
    idempotencyKey: string;
    retailerId: number;
    paymentMethodId: string;
    customerId: string | null;
    email?: string;
  }): Promise<AttachedCard>;
  /** The retailer's provider customer, or null before its first card. */
  cardCustomerId(input: { retailerId: number }): Promise<string | null>;
  /** payment_methods: provider ids, card type and last four only. */
  recordCard(input: {
    retailerId: number;
    providerPaymentMethodId: string;
    providerCustomerId: string | null;
    description: string;
    lastFour: string;
  }): Promise<{ recorded: boolean }>;
  /** The RMA workflows whose charge to this retailer waits for a card (told once the card is on file). */
  rmasAwaitingCharge(input: { retailerId: number }): Promise<string[]>;
}

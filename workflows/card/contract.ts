/**
 * The card-on-file workflow's contract (Settings → Card On File): ids, input and result types, failure
 * types. No Temporal imports, no I/O: the Remix action imports it to start the workflow by type name.
 *
 * The input never carries a card number: the sandbox's test card form turns a documented test number
 * into the provider's test token (domain/cards.ts) before the workflow starts; with Stripe keys the
 * browser's Stripe Elements hands over a PaymentMethod id.
 */

export const CARD_ON_FILE_WORKFLOW_TYPE = "cardOnFileWorkflow";

/** One id per form submission: a duplicate submit of the same form attaches to the same run. */
export function cardOnFileWorkflowId(retailerId: number, submissionId: string): string {
  return `card-on-file:retailer-${retailerId}:${submissionId}`;
}

export const CARD_STEPS = {
  createPaymentMethod: "create-payment-method",
  attach: "attach",
} as const;
export type CardStep = (typeof CARD_STEPS)[keyof typeof CARD_STEPS];

export type CardSource =
  /** Sandbox form (and Stripe test mode without Elements): a documented test card's token. */
  | { source: "test_card"; testToken: string }
  /** Stripe Elements: the PaymentMethod the browser created. */
  | { source: "payment_method"; paymentMethodId: string };

export interface CardOnFileInput {
  retailerId: number;
  submissionId: string;
  card: CardSource;
  /** The customer's e-mail at the provider (the store e-mail). */
  email?: string;
}

export interface CardOnFileResult {
  status: "saved";
  /** Card type as shown ("Visa") and the last four digits. */
  description: string;
  lastFour: string;
}

/** ApplicationFailure type of a card the provider refused (non-retryable; shown on the form). */
export const CARD_REJECTED = "CardRejected";

export interface CardRejection {
  code: string;
  /** What the person sees ("Sorry but this card was declined. Please try another." for card_declined). */
  message: string;
}

/**
 * The swap workflow's contract: id, input, messages, view and errors. One workflow per swap order; the
 * retailer who starts the swap is the RECEIVER (its swap cart holds the PROVIDER's listings); both give goods
 * and both receive (docs/product/orders.md, "Swap"). Money: domain/fees.ts swapValuation and
 * domain/swap-money.ts. Shape: ADR 0015; decisions: ADR 0021. No Temporal runtime imports.
 */
import { commandErrorIn, query, signal, update } from "../common/messages";
import type { OrderLine } from "../../domain/order-money";
import type { Role } from "../../domain/states";
import { TEAM_MSG } from "../../domain/teams";
import type {
  PaymentMethodInput,
  StaffBookPickupCommand,
  StoreApprovalRequest,
  StoreDecisionCommand,
} from "../common/contract";

export function swapWorkflowId(orderId: number): string {
  if (!Number.isSafeInteger(orderId) || orderId <= 0)
    throw new RangeError(`order id must be a positive integer, got ${String(orderId)}`);
  return `swap-order:${orderId}`;
}

export const SWAP_WORKFLOW_TYPE = "swapOrderWorkflow";

export interface SwapInput {
  orderId: number;
  externalId: string;
  providerId: number;
  receiverId: number;
  /** The goods the provider gives: the provider's swap listings in the receiver's cart. */
  providerLines: OrderLine[];
  timeZone?: string;
  holidays?: string[];
}

export const SWAP_STEPS = {
  authorize: "swap-authorize",
  release: "swap-release",
  charge: "swap-charge",
  refund: "swap-refund",
  penalty: "swap-penalty",
  payout: "swap-payout",
  decrementStock: "swap-decrement-stock",
  bookPickup: "swap-book-pickup",
  rating: "swap-rating",
} as const;
export type SwapStep = (typeof SWAP_STEPS)[keyof typeof SWAP_STEPS];

interface Actor {
  actorRetailerId: number;
}
export interface SwapCheckoutCommand extends Actor {
  paymentMethod: PaymentMethodInput;
  /**
   * Set when the receiver's person checking out is over its limit (domain/teams storeApprovalNeed): after the
   * pre-authorisation the swap waits in store_approve_purchase for an approver of its store (docs/product/teams.md).
   */
  storeApproval?: StoreApprovalRequest | null;
}
/** The provider's choice from the receiver's swap listings (add_provider_swap_choice). */
export interface ChooseItemsCommand extends Actor {
  lines: OrderLine[];
}
/**
 * A side's goods as the modification wants them: a line of the swap (lowered, raised or left), or a line added
 * from an active swap listing of the side whose goods it is (its price is the listing's, read by the workflow).
 */
export interface ModifiedSwapLine {
  listingId: number | null;
  variationId: number;
  sizes: Record<string, number>;
}
/**
 * New terms of either side (docs/product/orders.md, "Swap"; ADR 0025): a line left out is removed; a quantity
 * may be lowered, or raised up to the units its listing still has; a line may be added from an active swap
 * listing of that side. At least one unit must stay on each side.
 */
export interface ModifySwapCommand extends Actor {
  providerLines?: ModifiedSwapLine[];
  receiverLines?: ModifiedSwapLine[];
}
export interface ApproveSwapCommand extends Actor {
  /** This side forgives the value difference (both still pay the same fee). */
  callItEven?: boolean;
}
export interface DeclineSwapCommand extends Actor {
  /** {role}_decline_swap_reason (domain/reasons SWAP_DECLINE_REASONS); 61 = over money. */
  reason: number;
}
export type LastChanceCommand = Actor;
export interface MakePaymentCommand extends Actor {
  paymentMethod: PaymentMethodInput;
}
export interface CancelSwapShipmentCommand extends Actor {
  reason: number;
}
export interface RateSwapCommand extends Actor {
  stars: { condition: number; packaging: number; timeliness: number; overall: number };
  comments?: string;
}

export const SWAP_ERRORS = Object.freeze({
  wrong_party: "Only the other retailer of this swap can do that now.",
  wrong_state:
    "This swap has moved on since you opened it. Refresh the page to see where it stands.",
  card_required: "Please enter a card to continue.",
  card_declined: "Sorry but this card was declined. Please try another.",
  payment_failed: "We could not collect the payment right now. Please try again in a few minutes.",
  no_receiver_value: "Choose at least one item from the other retailer's swap listings first.",
  invalid_units: "Choose units of this swap only, in whole numbers, at least one on each side.",
  unchanged: "You have not changed anything.",
  decline_reason_required: "Please choose a reason.",
  cancel_reason_required: "Please choose a reason.",
  units_unavailable: "These units are no longer available.",
  more_than_listed: "You cannot choose more units than the listing has left.",
  rating_invalid: "Please rate every criterion with 1 to 5 stars.",
  rating_closed: "The time to rate this swap has passed.",
  already_rated: "You have already rated this swap.",
  already_received: "You have already confirmed this package.",
  own_order: TEAM_MSG.ownOrder,
  bad_request: "This request could not be read. Refresh the page and try again.",
} as const);
export type SwapErrorCode = keyof typeof SWAP_ERRORS;
/** What the side whose payment completed the swap reads when a line sold out before the stock was taken (214). */
export const SWAP_SOLD_OUT_MESSAGE =
  "These units are no longer available: the swap is declined and both payments are refunded in full.";
export const SWAP_INVALID_INPUT = "SwapInvalidInput";

/**
 * The code and message of a refused swap command, from what the Temporal client threw (the update's
 * ApplicationFailure, or WorkflowNotFoundError once the swap has ended), or null for anything else.
 */
export function swapCommandError(err: unknown): { code: SwapErrorCode; message: string } | null {
  return commandErrorIn(err, SWAP_ERRORS);
}

export interface SwapCommandResult {
  statename: string;
  displayStatus: string;
  message?: string;
  redirectTo?: string;
}

export interface SwapActionRecord {
  code: number;
  role: Role | "system" | "carrier";
  statename: string;
  at: string;
}

export interface SwapSideView {
  lines: OrderLine[];
  approved: boolean;
  callItEven: boolean;
  dueCents: number;
  paid: boolean;
  shipment: {
    trackingNumber: string;
    callTag: string;
    attempt: number;
    scanned: boolean;
    delivered: boolean;
    failed: boolean;
  } | null;
  rating: RateSwapCommand["stars"] | null;
  ratingBy: string | null;
  rmaBy: string | null;
}

export interface SwapView {
  orderId: number;
  workflowId: string;
  statename: string;
  displayStatus: string;
  /** Whose move it is (both in `payment` until each has paid). */
  actionNeeded: Role | "both" | null;
  isModified: boolean;
  declinedBy: Role | null;
  provider: SwapSideView;
  receiver: SwapSideView;
  valuation: {
    largerGoodsCents: number;
    differenceCents: number;
    cashFrom: Role | null;
    callItEven: boolean;
  };
  deadlines: {
    checkoutBy: string | null;
    /** Only on a swap that waited for the receiver's store. */
    storeApprovalBy?: string | null;
    turnBy: string | null;
    paymentBy: string | null;
    pickupBy: string | null;
  };
  actions: SwapActionRecord[];
  busy: boolean;
}

export const swapCheckoutUpdate = update<SwapCommandResult, [SwapCheckoutCommand]>(
  "completeCheckout",
);
/** The receiver's store: approve a swap over its placer's limit (then the provider chooses). */
export const storeApproveSwapUpdate = update<SwapCommandResult, [StoreDecisionCommand]>(
  "storeApprovePurchase",
);
/** The receiver's store: decline a swap over its placer's limit (the authorisation is released). */
export const storeDeclineSwapUpdate = update<SwapCommandResult, [StoreDecisionCommand]>(
  "storeDeclinePurchase",
);
export const chooseItemsUpdate = update<SwapCommandResult, [ChooseItemsCommand]>("chooseItems");
export const modifySwapUpdate = update<SwapCommandResult, [ModifySwapCommand]>("modifySwap");
export const approveSwapUpdate = update<SwapCommandResult, [ApproveSwapCommand]>("approveSwap");
export const declineSwapUpdate = update<SwapCommandResult, [DeclineSwapCommand]>("declineSwap");
export const callItEvenUpdate = update<SwapCommandResult, [LastChanceCommand]>("callItEven");
export const acceptDeclineUpdate = update<SwapCommandResult, [LastChanceCommand]>("acceptDecline");
export const makePaymentUpdate = update<SwapCommandResult, [MakePaymentCommand]>("makePayment");
export const cancelSwapShipmentUpdate = update<SwapCommandResult, [CancelSwapShipmentCommand]>(
  "cancelShipment",
);
export const rateSwapUpdate = update<SwapCommandResult, [RateSwapCommand]>("rateSwap");
/**
 * Staff: book the pickup of one side's parcel not yet scanned again, the parcel named by the call tag staff saw
 * (action 912; docs/guides/action-codes-and-reasons.md).
 */
export const staffBookSwapPickupUpdate = update<SwapCommandResult, [StaffBookPickupCommand]>(
  "staffBookPickup",
);
/** A side confirms it received the other side's parcel (once it is delivered). */
export const confirmSwapReceivedUpdate = update<SwapCommandResult, [LastChanceCommand]>(
  "confirmReceived",
);
export { carrierEventSignal as swapCarrierEventSignal } from "../common/contract";
export const swapViewQuery = query<SwapView>("swapView");

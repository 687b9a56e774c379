/**
 * What a swap's panel says to one side while it waits (verbatim; docs/product/screens.md, "Transaction detail"): the provider
 * choosing from the receiver's swap listings -> 'awaiting your selection'; the other side's move ->
 * "awaiting retailer's response"; declined -> 'Swap Request Declined'. Null when it is this side's move in
 * any other state (its controls answer) or the swap is past negotiation (the display status says it).
 */
import {
  SWAP_AWAITING_RETAILER,
  SWAP_AWAITING_YOUR_SELECTION,
  SWAP_REQUEST_DECLINED,
} from "./messages";
import { formatCents } from "./money";
import { COMMON_STATES, isMoveOf, SWAP_OPEN_STATES, SWAP_STATES, type Role } from "./states";

export function swapCompletionText(o: {
  role: Role | null;
  statename: string;
  actionNeeded: string | null;
}): string | null {
  if (o.statename === COMMON_STATES.DECLINED) return SWAP_REQUEST_DECLINED;
  if (!o.role || !SWAP_OPEN_STATES.includes(o.statename)) return null;
  if (!isMoveOf(o.actionNeeded, o.role)) return SWAP_AWAITING_RETAILER;
  if (o.statename === SWAP_STATES.PROVIDER_CHOOSE_ITEMS) return SWAP_AWAITING_YOUR_SELECTION;
  return null;
}

/**
 * What a swap side that owes its payment reads instead of "Payment Method Needed" (ours; docs/product/screens.md,
 * "Transaction detail"): the amount it owes. Null for a side that paid or owes nothing, or in any other state.
 */
export function swapPaymentDueText(
  statename: string,
  side: { dueCents: number; paid: boolean } | null | undefined,
): string | null {
  if (statename !== SWAP_STATES.PAYMENT || !side || side.paid || side.dueCents <= 0) return null;
  return `Payment Due: ${formatCents(side.dueCents)}`;
}

/** What a swap card on /alerts and /orders says while the swap waits on payment (ours; docs/product/screens.md, "Orders"). */
export const SWAP_CARD_PAYMENT_DUE = "Payment Due";
export const SWAP_CARD_AWAITING_PAYMENT = "Awaiting the Other Side's Payment";

/**
 * A card's status: a swap waiting on payment reads "Payment Due" for a side that still owes its payment and that it
 * waits for the other side's once it has paid (both sides have a card on file since checkout; the stored
 * "Payment Method Needed" is a purchase's words). Any other order keeps its stored display status.
 */
export function orderCardStatus(o: {
  swap: boolean;
  statename: string;
  displayStatus: string;
  myMove: boolean;
}): string {
  if (!o.swap || o.statename !== SWAP_STATES.PAYMENT) return o.displayStatus;
  return o.myMove ? SWAP_CARD_PAYMENT_DUE : SWAP_CARD_AWAITING_PAYMENT;
}

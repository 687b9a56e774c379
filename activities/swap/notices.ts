/**
 * Texts of swap notices (e-mail through the outbox), one per template the swap machine queues
 * (workflows/swap/machine.ts). Anonymous like every notice: the other side is only `retailer-00{id}`.
 */
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { when } from "../buy/notices";

export interface SwapNotice {
  template: string;
  orderId: number;
  externalId: string;
  /** The other side of the swap. */
  counterpartyId: number;
  /** ISO: the deadline of what the notice asks for, if any. */
  actBy: string | null;
}

export function swapNoticeMail(
  n: SwapNotice,
  appOrigin: string,
  timeZone: string,
): { subject: string; text: string } {
  const other = anonymousRetailerLabel(n.counterpartyId);
  const swap = `swap ${n.externalId}`;
  const by = when(n.actBy, timeZone);
  const deadline = by ? ` by ${by}` : "";
  const link = new URL(`/transaction/swap/${n.orderId}`, appOrigin).toString();
  const texts: Record<string, [string, string]> = {
    swap_store_approval_needed: [
      `Your approval is needed: ${swap}`,
      `A swap of your store (${swap}) is over its buyer's limit. An approver of your store (or its owner) must approve or decline it${deadline}; otherwise it is cancelled and the card's pre-authorization released.`,
    ],
    swap_store_approval_expired: [
      `${swap} was cancelled: not approved in time`,
      `Nobody of your store approved ${swap} in time. It was cancelled and the card's pre-authorization released.`,
    ],
    swap_choose_items: [
      `New swap request: ${swap}`,
      `${other} wants to swap for your items (${swap}). Choose what you would like from its swap listings${deadline}, or decline.`,
    ],
    swap_modified: [
      `${other} changed ${swap}`,
      `${other} changed the units of ${swap}. Please approve, modify or decline${deadline}.`,
    ],
    swap_approve_needed: [
      `${other} approved ${swap}`,
      `${other} approved ${swap}. Please approve it too, modify it or decline${deadline}.`,
    ],
    swap_call_it_even: [
      `${other} declined ${swap} over the value difference`,
      `${other} declined ${swap} because of the value difference. You can call it even${deadline}, or accept the decline.`,
    ],
    swap_payment_needed: [
      `Both sides approved ${swap}: make your payment`,
      `${swap} is approved by both sides. Please make your payment${deadline}.`,
    ],
    swap_ready_for_pickup: [
      `Paid: get ${swap} ready for pickup`,
      `Both sides have paid ${swap}. Print your shipping label and packing slip; the carrier picks your package up${deadline}.`,
    ],
    swap_pickup_rescheduled: [
      `Pickup rescheduled for ${swap}`,
      `The carrier could not pick up your package for ${swap}. A new pickup is booked${deadline}; please have the package ready.`,
    ],
    swap_other_side_did_not_ship: [
      `${other} did not ship ${swap}`,
      `${other} did not ship its goods for ${swap}. It pays their value to you, and your fee and shipping are refunded.`,
    ],
    swap_rate: [
      `Delivered: rate ${swap}`,
      `Your goods from ${swap} were delivered. Please rate them${deadline}.`,
    ],
    swap_declined: [
      `${swap} was declined`,
      `${swap} was declined. Any amount held on your card is released, and any payment you made for it is refunded.`,
    ],
    swap_expired: [`${swap} expired`, `${swap} was not completed in time and has expired.`],
    swap_cancelled: [`${swap} was cancelled`, `${swap} was cancelled. What you paid is refunded.`],
  };
  const [subject, body] = texts[n.template] ?? [
    `Update on ${swap}`,
    `There is an update on ${swap}.`,
  ];
  return { subject, text: `${body}\n\n${link}\n` };
}

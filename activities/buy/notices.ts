/**
 * Texts of order notices (e-mail; the outbox when no SMTP). Anonymous: the other party is only ever
 * `retailer-00{id}`; no store names, addresses or phone numbers. Dates are MM/DD/YYYY hh:mm in the
 * marketplace time zone (MARKETPLACE_TZ, passed in by the activities: docs/product/windows.md, "Time zone").
 */
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { formatDateTime } from "../../domain/date-format";
import type { OrderNotice } from "../../workflows/buy/activities";

/** MM/DD/YYYY hh:mm in the marketplace time zone, or null. */
export function when(iso: string | null | undefined, timeZone: string): string | null {
  return formatDateTime(iso, timeZone, { seconds: false }) || null;
}

export function orderNoticeMail(
  n: OrderNotice,
  appOrigin: string,
  timeZone: string,
): { subject: string; text: string } {
  const other = anonymousRetailerLabel(n.counterpartyId);
  const order = `order ${n.externalId}`;
  const by = when(n.actBy, timeZone);
  const link = new URL(`/transaction/buy/${n.orderId}`, appOrigin).toString();
  const deadline = by ? ` by ${by}` : "";
  let subject: string;
  let body: string;
  switch (n.template) {
    case "checkout_needed":
      subject = `An order was created for your request (${order})`;
      body = `${other} has created ${order} for your request. Please complete checkout${deadline}, or decline it.`;
      break;
    case "store_approval_needed":
      subject = `Your approval is needed: ${order}`;
      body = `A purchase of your store (${order}) is over its buyer's limit. An approver of your store (or its owner) must approve or decline it${deadline}; otherwise it is cancelled and the card's pre-authorization released.`;
      break;
    case "store_approval_expired":
      subject = `${order} was cancelled: not approved in time`;
      body = `Nobody of your store approved ${order} in time. It was cancelled and the card's pre-authorization released.`;
      break;
    case "approve_sale_needed":
      subject = `New purchase request: ${order}`;
      body = `${other} wants to buy your items (${order}). Please approve, modify or decline the sale${deadline}; unanswered requests are declined automatically.`;
      break;
    case "payment_method_needed":
      subject = `Add a card to approve ${order}`;
      body = `To approve ${order} we need a card on file (used only to resolve returns and penalties). Please add one${deadline}.`;
      break;
    case "modified_purchase_needed":
      subject = `${other} modified your purchase (${order})`;
      body = `${other} changed the units of ${order}. Please approve or decline the modified purchase${deadline}.`;
      break;
    case "ready_for_pickup":
      subject = `Approved: get ${order} ready for pickup`;
      body = `${order} is approved and paid. Print the shipping label and the packing slip; the carrier picks the package up${deadline}.`;
      break;
    case "pickup_rescheduled":
      subject = `Pickup rescheduled for ${order}`;
      body = `The carrier could not pick up ${order}. A new pickup is scheduled; have the package ready${deadline}, or the order is cancelled with a 10% penalty.`;
      break;
    case "payout_released":
      subject = `Payout released for ${order}`;
      body = `The carrier scanned ${order}: your payout has been released from escrow.`;
      break;
    case "rate_order":
      subject = `${order} was delivered: please rate it`;
      body = `${order} from ${other} was delivered. Please confirm the package and rate the transaction${deadline}. Returns (RMA) can be requested within 48 hours of delivery.`;
      break;
    case "order_declined":
      subject = `${order} was declined`;
      body = `${order} with ${other} was declined. Any card authorisation has been released.`;
      break;
    case "order_expired":
      subject = `${order} expired`;
      body = `${order} with ${other} expired without an answer.`;
      break;
    case "order_cancelled":
      subject = `${order} was cancelled`;
      body =
        n.role === "receiver"
          ? `${order} was cancelled before it shipped. You are refunded in full.`
          : `${order} was cancelled before it shipped. The buyer is refunded in full and a 10% penalty applies.`;
      break;
    default:
      subject = `Update on ${order}`;
      body = `${order} is now: ${n.displayStatus}.`;
  }
  return { subject, text: `${body}\n\nStatus: ${n.displayStatus}\nView the order: ${link}\n` };
}

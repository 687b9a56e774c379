/**
 * Texts of RMA notices (e-mail through the outbox), one per template the RMA machine queues
 * (workflows/rma/machine.ts). Anonymous like every notice: the other party is only `retailer-00{id}`; staff's
 * notices name the RMA and link the admin RMA screen.
 */
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { RMA_CANCELLED_NOTHING_PAID } from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { when } from "../buy/notices";
import type { RmaNotice } from "../../workflows/rma/activities";

export interface RmaNoticeContext {
  rmaId: number;
  externalId: string;
  /** The other party of the one told (for staff: the victim). */
  counterpartyId: number;
  /** The settlement once staff decided: what the victim gets back and the perpetrator is charged. */
  amounts?: { victimRefundCents: number; perpetratorChargeCents: number };
}

/** A decision's money line for the party told (docs/product/screens.md, "Alerts"): "" for staff or without amounts. */
function decisionMoney(
  to: RmaNotice["to"],
  amounts: RmaNoticeContext["amounts"],
  settled: boolean,
): string {
  if (!amounts || to === "staff") return "";
  if (to === "victim")
    return ` You ${settled ? "get back" : "will get back"} ${formatCents(amounts.victimRefundCents)}.`;
  return ` You ${settled ? "are charged" : "will be charged"} ${formatCents(amounts.perpetratorChargeCents)}${settled ? "" : " once the return is delivered"}.`;
}

/** On filing, what the RMA comes to if staff approve it as asked (the decision's e-mail states the decided amounts). */
function askedMoney(to: RmaNotice["to"], amounts: RmaNoticeContext["amounts"]): string {
  if (!amounts || to === "staff") return "";
  return to === "victim"
    ? ` If staff approve it as asked, you will get back ${formatCents(amounts.victimRefundCents)}.`
    : ` If staff approve it as asked, you will be charged ${formatCents(amounts.perpetratorChargeCents)}.`;
}

export function rmaNoticeMail(
  n: Pick<RmaNotice, "to" | "template" | "actBy">,
  c: RmaNoticeContext,
  appOrigin: string,
  timeZone: string,
): { subject: string; text: string } {
  const rma = `RMA ${c.externalId}`;
  const other = anonymousRetailerLabel(c.counterpartyId);
  const by = when(n.actBy ?? null, timeZone);
  const deadline = by ? ` by ${by}` : "";
  const path = n.to === "staff" ? `/admin/active-rmas?rma=${c.rmaId}` : `/rma/${c.rmaId}`;
  const link = new URL(path, appOrigin).toString();
  const texts: Record<string, [string, string]> = {
    rma_requested_staff: [
      `New ${rma} to review`,
      `${other} asked for a return (${rma}). Please approve or deny each line${deadline}.`,
    ],
    rma_requested_perpetrator: [
      `${other} asked for a return: ${rma}`,
      `${other} asked for a return of goods you sent (${rma}). Staff will review it and tell you the outcome.${askedMoney(n.to, c.amounts)}`,
    ],
    rma_requested_victim: [
      `Your return request ${rma} was sent`,
      `We received your return request (${rma}) for goods from ${other}. Staff will review it and tell you the outcome.${askedMoney(n.to, c.amounts)}`,
    ],
    rma_staff_overdue: [
      `${rma} is waiting for staff`,
      `${rma} has not been answered within five business days. Please review it now.`,
    ],
    rma_approved_ship_return: [
      `${rma} approved`,
      `${rma} was approved.${n.to === "victim" ? ` Print your return label and packing slip and have the parcel ready for the carrier${deadline}, or the RMA is cancelled.` : " The goods will be shipped back to you."}${decisionMoney(n.to, c.amounts, false)}`,
    ],
    rma_approved_missing: [
      `${rma} approved`,
      `${rma} was approved with nothing to ship back: it is settled now.${decisionMoney(n.to, c.amounts, true)}`,
    ],
    rma_declined: [
      `${rma} declined`,
      `${rma} was declined: every line was denied.${n.to === "perpetrator" ? " Nothing is charged to you." : ""}`,
    ],
    rma_cancelled: [`${rma} cancelled`, `${rma} was cancelled. ${RMA_CANCELLED_NOTHING_PAID}`],
    rma_completed: [
      `${rma} completed`,
      (n.to === "victim"
        ? `${rma} is complete: your refund is on its way.`
        : `${rma} is complete: the amount of the return is charged to your card on file.`) +
        decisionMoney(n.to, c.amounts, true),
    ],
    rma_charge_queued: [
      `${rma}: payment is queued for processing.`,
      `The charge for ${rma} could not be taken from the card on file: payment is queued for processing. Please check your card on file.`,
    ],
  };
  const [subject, body] = texts[n.template] ?? [
    `Update on ${rma}`,
    `There is an update on ${rma}.`,
  ];
  return { subject, text: `${body}\n\n${link}\n` };
}

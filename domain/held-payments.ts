/**
 * Held money movements (docs/decisions/0044-payments-needing-attention.md): a penalty, refund, release or payout
 * that the provider refused, or that could not be sent (no card on file, no payout account), is held until a
 * new attempt pays it, or staff settle it outside the platform or write it off. What each reason needs, what the
 * retailer is asked to do, how staff's list says a kind and an age, and the staff forms' schema: rules, no I/O.
 */
import { z } from "zod";
import { formatCents } from "./money";

/** What lets a held movement go again: the retailer's card on file, its payout account, or staff alone. */
export type HeldNeed = "card" | "payout" | "staff";

/** The reason code of a movement that was never sent: no card on file (a penalty), no payout account (a payout). */
export const NO_CARD = "no_card";
export const NO_PAYOUT_ACCOUNT = "no_payout_account";

/** The txtype of a movement that may be held (payments.txtype). */
export type HeldKind = "penalty" | "refund" | "release" | "transfer";

/**
 * What a new attempt needs. A penalty waits for a card (none, or the one it had was declined); a payout for a
 * payout account (none, or the provider refused the one it had); a refund or a release only staff can
 * unblock (the buyer's card is the provider's business, not something the retailer adds).
 */
export function heldNeed(kind: HeldKind): HeldNeed {
  if (kind === "penalty") return "card";
  if (kind === "transfer") return "payout";
  return "staff";
}

/** The kind as staff's list and the e-mails say it. */
export const HELD_KIND_LABELS: Readonly<Record<HeldKind, string>> = Object.freeze({
  penalty: "Penalty",
  refund: "Refund",
  release: "Authorisation release",
  transfer: "Payout",
});

export function heldKindLabel(kind: string): string {
  return (HELD_KIND_LABELS as Record<string, string | undefined>)[kind] ?? kind;
}

/** A reason code as people read it. */
export function heldReasonText(reason: string): string {
  if (reason === NO_CARD) return "No card on file";
  if (reason === NO_PAYOUT_ACCOUNT) return "No payout account";
  if (reason === "card_declined") return "Card declined";
  if (reason === "resource_missing") return "Refused: the account or payment no longer exists";
  return `Refused by the provider (${reason})`;
}

/** What the retailer is asked to do, and where (null: nothing, staff handle it). */
export function retailerTodo(need: HeldNeed): { text: string; to: string } | null {
  if (need === "card")
    return { text: "Add a card on file (Settings, Card on file).", to: "/settings/card" };
  if (need === "payout")
    return { text: "Set up your payout account (Settings, Payout info).", to: "/settings/payout" };
  return null;
}

/** What is held, in the retailer's words: "A penalty of $25.00 for order 100012 is on hold." */
export function heldWhat(m: { kind: string; amountCents: number; orderExternalId: string | null }) {
  const order = m.orderExternalId ? ` for order ${m.orderExternalId}` : "";
  return `A ${heldKindLabel(m.kind).toLowerCase()} of ${formatCents(m.amountCents)}${order} is on hold.`;
}

/** The retailer's e-mail for one held movement (its alert on /alerts says the same). */
export function heldNotice(m: {
  kind: string;
  amountCents: number;
  orderExternalId: string | null;
  need: HeldNeed;
}): { subject: string; text: string } {
  const todo = retailerTodo(m.need);
  return {
    subject: `Action needed: a ${heldKindLabel(m.kind).toLowerCase()} is on hold`,
    text: [
      heldWhat(m),
      todo
        ? `${todo.text} It is tried again on its own as soon as you do.`
        : "Our staff are looking into it; you do not need to do anything.",
    ].join("\n"),
  };
}

/** How long a movement has been held: "3 d", "5 h", "12 min" (staff's list). */
export function heldAge(heldAt: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - heldAt.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** How a held movement ended. */
export type HeldResolution = "paid" | "settled" | "written_off";

/** The payments.status a resolution leaves on the movement's row (statements read it). */
export const RESOLVED_STATUS: Readonly<Record<Exclude<HeldResolution, "paid">, string>> =
  Object.freeze({ settled: "settled_outside", written_off: "written_off" });

/** Staff's actions on one held movement: retry now, settled outside the platform (note required), write off. */
export const heldActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("retry"), paymentId: z.coerce.number().int().positive() }),
  z.object({
    intent: z.literal("settle"),
    paymentId: z.coerce.number().int().positive(),
    note: z
      .string({ required_error: "Say how it was settled." })
      .trim()
      .min(1, "Say how it was settled.")
      .max(500),
  }),
  z.object({
    intent: z.literal("writeOff"),
    paymentId: z.coerce.number().int().positive(),
    note: z.string().trim().max(500).optional(),
  }),
]);
export type HeldAction = z.infer<typeof heldActionSchema>;

/** The staff permission that opens "Payments needing attention" (users.admin_permissions). */
export const PAYMENTS_ATTENTION_PERMISSION = "ops.payments";

/** One line of staff's daily list. */
export interface HeldDigestItem {
  paymentId: number;
  orderExternalId: string | null;
  storeName: string;
  kind: string;
  amountCents: number;
  reason: string;
  heldAt: Date;
  attempts: number;
}

/** Staff's daily e-mail: every open held movement, oldest first, and where to act. */
export function heldDigestMail(
  items: readonly HeldDigestItem[],
  now: Date,
): { subject: string; text: string } {
  const total = items.reduce((sum, i) => sum + i.amountCents, 0);
  const lines = items.map(
    (i) =>
      `- ${heldKindLabel(i.kind)} ${formatCents(i.amountCents)}, ${i.storeName}` +
      `${i.orderExternalId ? `, order ${i.orderExternalId}` : ""}: ${heldReasonText(i.reason)}` +
      ` (held ${heldAge(i.heldAt, now)}, ${i.attempts} attempt${i.attempts === 1 ? "" : "s"})`,
  );
  return {
    subject: `Payments needing attention: ${items.length} open`,
    text: [
      `${items.length} held payment${items.length === 1 ? "" : "s"}, ${formatCents(total)} in all:`,
      ...lines,
      "",
      "Retry, settle or write them off at /admin/payments-attention.",
    ].join("\n"),
  };
}

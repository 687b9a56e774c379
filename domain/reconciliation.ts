/**
 * The nightly reconciliation's rule (docs/decisions/0045-nightly-reconciliation.md): a ledger movement (a
 * payments row that was sent) against what the provider has under its idempotency key; staff's form that
 * resolves a difference, and when a statement's month is reconciled
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md). Rules, no I/O.
 */
import { z } from "zod";
import { formatDate } from "./date-format";

/** A difference's kind: the provider has nothing under the key, or another amount; or the provider has an object whose key no ledger row holds. */
export type DifferenceKind = "missing_at_provider" | "amount_differs" | "missing_with_us";

/** A sent ledger movement of the day (payments.txtype, amount_cents, idempotency_key). */
export interface LedgerMovement {
  paymentId: number;
  idempotencyKey: string;
  kind: string;
  amountCents: number;
}

/** What the provider answered for the movement's key (findMovementByKey), or null. */
export interface ProviderMovement {
  id: string;
  amountCents: number;
  status: string;
}

export interface Difference {
  kind: DifferenceKind;
  idempotencyKey: string;
  paymentId: number | null;
  ledgerCents: number | null;
  providerCents: number | null;
  providerRef: string | null;
}

/**
 * One movement's difference, or null when the provider agrees. An intent left waiting for a payment method moved
 * nothing (missing). A release is compared by presence alone: the provider keeps the intent's amount, the ledger
 * the part released.
 */
export function compareMovement(
  ledger: LedgerMovement,
  found: ProviderMovement | null,
): Difference | null {
  const base = {
    idempotencyKey: ledger.idempotencyKey,
    paymentId: ledger.paymentId,
    ledgerCents: ledger.amountCents,
  };
  if (!found || found.status === "requires_payment_method")
    return { ...base, kind: "missing_at_provider", providerCents: null, providerRef: null };
  if (ledger.kind !== "release" && found.amountCents !== ledger.amountCents)
    return {
      ...base,
      kind: "amount_differs",
      providerCents: found.amountCents,
      providerRef: found.id,
    };
  return null;
}

/** The provider's objects of the day whose key no ledger movement holds (missing with us). */
export function missingWithUs(
  ledgerKeys: readonly string[],
  providerObjects: readonly { idempotencyKey: string; id: string; amountCents: number }[],
): Difference[] {
  const known = new Set(ledgerKeys);
  return providerObjects
    .filter((o) => !known.has(o.idempotencyKey))
    .map((o) => ({
      kind: "missing_with_us" as const,
      idempotencyKey: o.idempotencyKey,
      paymentId: null,
      ledgerCents: null,
      providerCents: o.amountCents,
      providerRef: o.id,
    }));
}

/** The kind as staff's screen says it. */
export const DIFFERENCE_LABELS: Readonly<Record<DifferenceKind, string>> = Object.freeze({
  missing_at_provider: "Missing at the provider",
  amount_differs: "Amount differs",
  missing_with_us: "Missing in our ledger",
});

/** A stored kind as staff's screen says it (an unknown one as it is). */
export function differenceLabel(kind: string): string {
  return (DIFFERENCE_LABELS as Record<string, string | undefined>)[kind] ?? kind;
}

/** The UTC day a reconciliation run covers: the day before the schedule fired (YYYY-MM-DD). */
export function reconciledDay(firedAt: Date): string {
  return new Date(firedAt.getTime() - 86_400_000).toISOString().slice(0, 10);
}

/** Staff resolve a difference on "Payments needing attention": a note saying why is required. */
export const resolveDifferenceSchema = z.object({
  intent: z.literal("resolveDifference"),
  differenceId: z.coerce.number().int().positive(),
  note: z
    .string({ required_error: "Say why the difference is resolved." })
    .trim()
    .min(1, "Say why the difference is resolved.")
    .max(500),
});
export type ResolveDifference = z.infer<typeof resolveDifferenceSchema>;

/** The UTC days (YYYY-MM-DD) that the instants of [from, to) fall on: the runs a range of movements needs. */
export function utcDaysOf(range: { from: Date; to: Date }): string[] {
  const days: string[] = [];
  const first = Date.UTC(
    range.from.getUTCFullYear(),
    range.from.getUTCMonth(),
    range.from.getUTCDate(),
  );
  for (let t = first; t < range.to.getTime(); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** What decides whether a retailer's month is reconciled (db/queries/reconciliation.ts monthReconciliationFacts). */
export interface MonthReconciliationFacts {
  /** The first finished run of each day that has one. */
  runs: readonly { day: string; finishedAt: Date }[];
  /** Open differences on the retailer's movements of the month. */
  openDifferences: number;
  /** When the last of its resolved differences was resolved (null: none). */
  lastResolvedAt: Date | null;
}

/**
 * A month is reconciled when every UTC day its movements can fall on (`days`) has a finished run and no
 * difference on the retailer's movements of the month is open; it was reconciled when the last of those
 * happened (the last day's first run, or the last difference resolved). A month not over yet has days without
 * a run: not yet.
 */
export function monthReconciledAt(
  days: readonly string[],
  facts: MonthReconciliationFacts,
): Date | null {
  if (days.length === 0 || facts.openDifferences > 0) return null;
  const ran = new Map(facts.runs.map((r) => [r.day, r.finishedAt.getTime()]));
  let at = facts.lastResolvedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  for (const day of days) {
    const finished = ran.get(day);
    if (finished === undefined) return null;
    at = Math.max(at, finished);
  }
  return new Date(at);
}

/** The statement's line (its page, PDF and CSV). */
export function reconciledLine(reconciledAt: Date | null, zone: string): string {
  return reconciledAt
    ? `Reconciled with the payment provider on ${formatDate(reconciledAt, zone)}.`
    : "Not yet reconciled with the payment provider.";
}

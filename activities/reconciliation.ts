/**
 * The nightly reconciliation's activities (workflows/reconciliation/activities.ts;
 * docs/decisions/0045-nightly-reconciliation.md): each sent movement of the day is looked up at the provider by
 * the idempotency key it carries in its metadata, compared (domain/reconciliation.ts), and the differences recorded
 * for staff's "Payments needing attention"; the finished run is stored for the statements
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
import type { Db } from "../db/client";
import {
  dayMovements,
  knownKeys,
  recordDifferences,
  recordRun,
  type DayMovement,
} from "../db/queries/reconciliation";
import { compareMovement, missingWithUs, type Difference } from "../domain/reconciliation";
import type { ReconciliationActivities } from "../workflows/reconciliation/activities";
import type { FindMovementInput, FoundMovement, PaymentsPort } from "./payments/port";

/** Where the provider keeps each ledger kind (payments.txtype). */
const FIND_KIND: Record<string, FindMovementInput["kind"]> = {
  authorization: "payment_intent",
  penalty: "payment_intent",
  capture: "capture",
  release: "release",
  refund: "refund",
  transfer: "transfer",
};

export function createReconciliationActivities(deps: {
  db: Db;
  payments: PaymentsPort;
}): ReconciliationActivities {
  const { db, payments } = deps;

  /** The provider's object for a movement; null when it has none (or the movement names no intent or group to look in). */
  async function find(m: DayMovement): Promise<FoundMovement | null> {
    const kind = FIND_KIND[m.kind] ?? "payment_intent";
    const needsIntent = kind === "capture" || kind === "release" || kind === "refund";
    if (needsIntent && !m.paymentIntentId) return null;
    if (kind === "transfer" && !m.orderId) return null;
    return payments.findMovementByKey({
      kind,
      idempotencyKey: m.idempotencyKey,
      paymentIntentId: m.paymentIntentId ?? undefined,
      transferGroup: m.orderId ? `order-${m.orderId}` : undefined,
    });
  }

  return {
    async reconcilePage({ day, afterId, limit }) {
      const movements = await dayMovements(db, day, { afterId, limit });
      const differences: Difference[] = [];
      for (const m of movements) {
        const d = compareMovement(m, await find(m));
        if (d) differences.push(d);
      }
      const recorded = await recordDifferences(db, day, differences);
      return {
        lastId: movements.at(-1)?.paymentId ?? afterId,
        checked: movements.length,
        recorded,
        done: movements.length < limit,
      };
    },
    async reconcileProviderSide({ day }) {
      if (!payments.listMovementsCreated) return { listed: null, recorded: 0 };
      const from = new Date(`${day}T00:00:00Z`);
      const listed = await payments.listMovementsCreated({
        from,
        to: new Date(from.getTime() + 86_400_000),
      });
      const known = await knownKeys(
        db,
        listed.map((m) => m.idempotencyKey),
      );
      const recorded = await recordDifferences(db, day, missingWithUs(known, listed));
      return { listed: listed.length, recorded };
    },
    async recordReconciliationRun(run) {
      await recordRun(db, run);
    },
  };
}

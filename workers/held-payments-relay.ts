/**
 * The held payments' relay (docs/decisions/0044-payments-needing-attention.md), run by the worker process
 * beside the webhook relay: every `sweepMs` it starts a retry of each held movement marked due (its retailer
 * has since added a card or set up its payout account), then clears the mark. A worker that dies between the
 * two starts it again on the next pass: the retry asks the provider first, so nothing is sent twice.
 */
import type { Db } from "../db/client";
import { clearHeldPaymentDue, dueHeldPayments } from "../db/queries/held-payments";
import { sweepEvery } from "../activities/sweep";
import type { HeldRetryInput } from "../workflows/held-payments/contract";

export interface HeldPaymentsRelayOptions {
  db: Db;
  /** Starts the movement's retry (temporal/start-or-join.ts with the worker's client). */
  start: (input: HeldRetryInput & { attempts: number }) => Promise<unknown>;
  batchSize?: number;
  sweepMs?: number;
  log?: (msg: string) => void;
}

export function createHeldPaymentsRelay(opts: HeldPaymentsRelayOptions) {
  const batchSize = opts.batchSize ?? 20;
  const log = opts.log ?? ((msg: string) => console.warn(`[held payments] ${msg}`));

  /** One pass: starts the due retries; answers how many it started. */
  async function startDue(): Promise<number> {
    let started = 0;
    for (const due of await dueHeldPayments(opts.db, batchSize)) {
      await opts.start({ paymentId: due.paymentId, attempts: due.attempts, actorId: null });
      await clearHeldPaymentDue(opts.db, due.paymentId, due.dueAt);
      started += 1;
    }
    return started;
  }

  const sweep = sweepEvery(
    opts.sweepMs ?? 10_000,
    async () => (await startDue()) >= batchSize,
    (why) => log(`relay pass failed: ${why}`),
  );
  return { startDue, start: () => sweep.start(), stop: () => sweep.stop() };
}

/**
 * The webhook relay (docs/decisions/0042-webhook-inbox.md), run by the worker process beside the mail sender:
 * every `INBOX.sweepMs` it claims the stored webhook events still waiting for their workflow whose time has
 * come (the endpoint's hold passed: its web process died before the signal, or the signal failed; or a back-off
 * ended), signals each, and marks it delivered, or settled when its workflow has ended. A failed signal is
 * tried again after `inboxRetryDelayMs(attempts)` (5 s doubling to 5 min), for as long as it takes. A second
 * delivery of an event the workflow already has changes nothing: each order process takes an event once per
 * event id (workflows/common/parcel.ts takeCarrierEvent, workflows/buy/model.ts for payment events).
 */
import type { Db } from "../db/client";
import {
  claimDueWebhookEvents,
  retryWebhookEventAt,
  settleWebhookEvent,
  type WebhookDelivery,
} from "../db/queries/webhooks";
import { INBOX, inboxRetryDelayMs } from "../domain/webhook-inbox";
import { signalOutcome } from "../temporal/inbox";
import { sweepEvery } from "../activities/sweep";

export interface WebhookRelayOptions {
  db: Db;
  /** Signals the event's workflow (the worker's Temporal client). */
  signal: (delivery: WebhookDelivery) => Promise<void>;
  now?: () => Date;
  batchSize?: number;
  sweepMs?: number;
  log?: (msg: string) => void;
}

export interface RelayPass {
  delivered: number;
  closed: number;
  retrying: number;
}

export interface WebhookRelay {
  /** One pass: claims the due events and delivers them. */
  deliverDue(): Promise<RelayPass>;
  /** Delivers every `sweepMs` until stop(). */
  start(): void;
  stop(): Promise<void>;
}

export function createWebhookRelay(opts: WebhookRelayOptions): WebhookRelay {
  const { db, signal } = opts;
  const now = opts.now ?? (() => new Date());
  const batchSize = opts.batchSize ?? 20;
  const sweepMs = opts.sweepMs ?? INBOX.sweepMs;
  const log = opts.log ?? ((msg: string) => console.warn(`[webhooks] ${msg}`));

  async function deliverDue(): Promise<RelayPass> {
    const pass: RelayPass = { delivered: 0, closed: 0, retrying: 0 };
    const rows = await claimDueWebhookEvents(db, {
      now: now(),
      limit: batchSize,
      leaseMs: INBOX.leaseMs,
    });
    for (const row of rows) {
      try {
        const outcome = await signalOutcome(() => signal(row));
        await settleWebhookEvent(db, row.id, outcome);
        if (outcome === "delivered") pass.delivered += 1;
        else pass.closed += 1;
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        const delay = inboxRetryDelayMs(row.attempts);
        await retryWebhookEventAt(db, row.id, new Date(now().getTime() + delay), why);
        pass.retrying += 1;
        log(
          `event ${row.id} (attempt ${row.attempts}): ${why}; again in ${Math.round(delay / 1000)} s`,
        );
      }
    }
    return pass;
  }

  const sweep = sweepEvery(
    sweepMs,
    async () => {
      const pass = await deliverDue();
      return pass.delivered + pass.closed + pass.retrying >= batchSize;
    },
    (why) => log(`relay pass failed: ${why}`),
  );
  return { deliverDue, start: () => sweep.start(), stop: () => sweep.stop() };
}

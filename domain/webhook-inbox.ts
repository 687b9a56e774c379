/**
 * The webhook inbox's timing and outcomes (docs/decisions/0042-webhook-inbox.md): the endpoint stores an event,
 * answers the sender, and tries to deliver it at once; the worker's relay delivers what is still waiting once
 * the endpoint's hold has passed, again after each failure with a growing back-off, until the order's workflow
 * has it or has ended.
 */

export const INBOX = {
  /** The endpoint's own first attempt holds a new event this long before the relay may take it. */
  holdMs: 5_000,
  /** A relay that claimed an event and died: the event is taken again after this lease. */
  leaseMs: 60_000,
  /** How often the relay looks for due events. */
  sweepMs: 2_000,
  /** The delay after the first failed attempt, doubled for each further one. */
  retryBaseMs: 5_000,
  /** The longest delay between two attempts: an event waits at most this long once the engine is back. */
  retryMaxMs: 5 * 60_000,
} as const;

/** How an event was settled: its workflow has it; its workflow had ended; a status no workflow acts on; no order of ours. */
export type InboxOutcome = "delivered" | "order_closed" | "ignored" | "no_order";

/** The wait before the next attempt, after `attempts` failed ones: 5 s, 10 s, 20 s, ... at most 5 min. Never gives up. */
export function inboxRetryDelayMs(attempts: number): number {
  const n = Math.max(1, Math.floor(attempts));
  // 2 ** n overflows to Infinity long after the cap: the cap holds.
  return Math.min(INBOX.retryBaseMs * 2 ** (n - 1), INBOX.retryMaxMs);
}

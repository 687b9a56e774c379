/**
 * The webhook inbox against the test database (db/queries/webhooks.ts, workers/webhook-relay.ts;
 * docs/decisions/0042-webhook-inbox.md): an event is stored once (a duplicate inserts nothing); the relay takes
 * only events waiting for their workflow whose hold or back-off has passed, each by one relay at a time, and
 * marks them delivered, settled (workflow ended) or due again after the back-off. Ids carry a unique token and
 * every claim runs at a chosen `now`, so rows of other runs do not matter.
 */
import { WorkflowNotFoundError } from "@temporalio/common";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  claimDueWebhookEvents,
  retryWebhookEventAt,
  settleWebhookEvent,
  storeWebhookEvent,
  undeliveredWebhookEvents,
  type NewWebhookEvent,
  type WebhookDelivery,
} from "../../db/queries/webhooks";
import { webhookEvents } from "../../db/schema";
import { INBOX, inboxRetryDelayMs } from "../../domain/webhook-inbox";
import { createWebhookRelay } from "../../workers/webhook-relay";
import { uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb();

const T0 = new Date();
const at = (ms: number) => new Date(T0.getTime() + ms);

function event(id: string, deliver: boolean, nextAttemptAt = at(INBOX.holdMs)): NewWebhookEvent {
  return {
    id,
    provider: "carrier",
    type: "tracker.updated:delivered",
    payload: { id },
    deliver: deliver
      ? {
          workflowId: `buy-${id}`,
          signalName: "carrierEvent",
          signalArg: { eventId: id, status: "delivered" },
        }
      : null,
    outcome: deliver ? undefined : "ignored",
    nextAttemptAt,
  };
}

async function row(id: string) {
  const [r] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return r;
}

/** The claim at `now`, only this test's ids. */
async function claimOurs(ids: string[], now: Date) {
  const rows = await claimDueWebhookEvents(db, { now, limit: 1000, leaseMs: INBOX.leaseMs });
  return rows.filter((r) => ids.includes(r.id));
}

describe("storing", () => {
  it("the first delivery of an id inserts it, waiting for its workflow with the endpoint's attempt counted; a duplicate inserts nothing", async () => {
    const id = `carrier:evt_${uniqueToken()}`;
    expect(await storeWebhookEvent(db, event(id, true))).toBe(true);
    expect(await storeWebhookEvent(db, { ...event(id, true), payload: { other: true } })).toBe(
      false,
    );
    const r = await row(id);
    expect(r).toMatchObject({
      workflowId: `buy-${id}`,
      signalName: "carrierEvent",
      attempts: 1,
      processedAt: null,
      outcome: null,
    });
    expect(r.payload).toEqual({ id });
    expect(r.signalArg).toEqual({ eventId: id, status: "delivered" });
    expect(r.nextAttemptAt?.getTime()).toBe(at(INBOX.holdMs).getTime());
  });

  it("two stores of one id at the same moment: one inserts", async () => {
    const id = `carrier:evt_${uniqueToken()}`;
    const both = await Promise.all([
      storeWebhookEvent(db, event(id, true)),
      storeWebhookEvent(db, event(id, true)),
    ]);
    expect(both.sort()).toEqual([false, true]);
  });

  it("an event with nothing to deliver is settled at once and never waits", async () => {
    const id = `carrier:evt_${uniqueToken()}`;
    await storeWebhookEvent(db, event(id, false));
    const r = await row(id);
    expect(r.processedAt).not.toBeNull();
    expect(r).toMatchObject({ outcome: "ignored", workflowId: null, nextAttemptAt: null });
    expect(await claimOurs([id], at(24 * 3600_000))).toEqual([]);
  });
});

describe("the relay's selection and marking", () => {
  it("takes a waiting event only once its hold has passed, with one more attempt and a lease", async () => {
    const id = `carrier:evt_${uniqueToken()}`;
    await storeWebhookEvent(db, event(id, true));
    expect(await claimOurs([id], at(INBOX.holdMs - 1))).toEqual([]);
    const [taken] = await claimOurs([id], at(INBOX.holdMs));
    expect(taken).toEqual({
      id,
      attempts: 2,
      workflowId: `buy-${id}`,
      signalName: "carrierEvent",
      signalArg: { eventId: id, status: "delivered" },
    });
    // Leased: not taken again until the lease runs out (a relay that died mid-delivery).
    expect(await claimOurs([id], at(INBOX.holdMs + INBOX.leaseMs - 1))).toEqual([]);
    expect(
      (await claimOurs([id], at(INBOX.holdMs + INBOX.leaseMs))).map((r) => r.attempts),
    ).toEqual([3]);
  });

  it("two relays at once take each due event once", async () => {
    const ids = Array.from({ length: 12 }, () => `carrier:evt_${uniqueToken()}`);
    for (const id of ids) await storeWebhookEvent(db, event(id, true, at(-1000)));
    const [a, b] = await Promise.all([claimOurs(ids, T0), claimOurs(ids, T0)]);
    expect([...a, ...b].map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it("settled (delivered or workflow ended) is never taken again; a retry waits for its time; settling keeps the first", async () => {
    const [done, closed, later] = [1, 2, 3].map(() => `carrier:evt_${uniqueToken()}`);
    for (const id of [done, closed, later]) await storeWebhookEvent(db, event(id, true, at(-1000)));
    await settleWebhookEvent(db, done, "delivered");
    await settleWebhookEvent(db, closed, "order_closed");
    await settleWebhookEvent(db, done, "order_closed");
    await retryWebhookEventAt(db, later, at(10_000), "UNAVAILABLE: connection refused");
    expect(await row(done)).toMatchObject({ outcome: "delivered", nextAttemptAt: null });
    expect(await row(closed)).toMatchObject({ outcome: "order_closed" });
    expect(await row(later)).toMatchObject({
      outcome: null,
      processedAt: null,
      lastError: "UNAVAILABLE: connection refused",
    });
    expect(await claimOurs([done, closed, later], at(9_999))).toEqual([]);
    expect((await claimOurs([done, closed, later], at(10_000))).map((r) => r.id)).toEqual([later]);
    // A retry asked for after the event was settled changes nothing.
    await retryWebhookEventAt(db, done, at(0), "late");
    expect(await row(done)).toMatchObject({
      outcome: "delivered",
      nextAttemptAt: null,
      lastError: null,
    });
  });

  it("the undelivered count is the events still waiting", async () => {
    const before = await undeliveredWebhookEvents(db);
    const id = `carrier:evt_${uniqueToken()}`;
    await storeWebhookEvent(db, event(id, true));
    const waiting = await undeliveredWebhookEvents(db);
    expect(waiting.count).toBe(before.count + 1);
    expect(waiting.oldest).toBeInstanceOf(Date);
    await settleWebhookEvent(db, id, "delivered");
    expect((await undeliveredWebhookEvents(db)).count).toBe(before.count);
  });
});

describe("the relay (workers/webhook-relay.ts) with a stand-in for Temporal", () => {
  it("delivers a due event and marks it; an ended workflow settles it; a failure waits for the back-off, then delivers", async () => {
    const [ok, ended, flaky] = [1, 2, 3].map(() => `carrier:evt_${uniqueToken()}`);
    for (const id of [ok, ended, flaky]) await storeWebhookEvent(db, event(id, true, at(-1000)));
    const ours = new Set([ok, ended, flaky]);
    const signalled: WebhookDelivery[] = [];
    let failures = 1;
    let now = T0;
    const relay = createWebhookRelay({
      db,
      now: () => now,
      batchSize: 1000,
      log: () => {},
      signal: async (d) => {
        const id = (d.signalArg as { eventId: string }).eventId;
        if (!ours.has(id)) throw new Error("not this test's event");
        if (id === ended)
          throw new WorkflowNotFoundError(
            "workflow execution already completed",
            d.workflowId,
            undefined,
          );
        if (id === flaky && failures-- > 0) throw new Error("14 UNAVAILABLE: connection refused");
        signalled.push(d);
      },
    });
    await relay.deliverDue();
    expect(signalled.map((d) => d.workflowId)).toEqual([`buy-${ok}`]);
    expect(await row(ok)).toMatchObject({ outcome: "delivered", attempts: 2 });
    expect(await row(ended)).toMatchObject({ outcome: "order_closed" });
    const waiting = await row(flaky);
    expect(waiting).toMatchObject({
      outcome: null,
      attempts: 2,
      lastError: "14 UNAVAILABLE: connection refused",
    });
    expect(waiting.nextAttemptAt?.getTime()).toBe(T0.getTime() + inboxRetryDelayMs(2));

    now = new Date(T0.getTime() + inboxRetryDelayMs(2) - 1);
    await relay.deliverDue();
    expect(signalled).toHaveLength(1);
    now = new Date(T0.getTime() + inboxRetryDelayMs(2));
    await relay.deliverDue();
    expect(signalled.map((d) => d.workflowId)).toEqual([`buy-${ok}`, `buy-${flaky}`]);
    expect(await row(flaky)).toMatchObject({ outcome: "delivered", attempts: 3 });
  });
});

/**
 * The nightly reconciliation's workflow (docs/decisions/0045-nightly-reconciliation.md) on the time-skipping
 * server with the worker's real activities and the sandbox provider, down for its first lookup: a penalty the
 * provider never charged and one it charged with another amount are differences; one that agrees is not. The
 * finished run is stored with its counts (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createActivities } from "../../activities";
import { createOutboxMailer } from "../../activities/mail";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { listOpenDifferences } from "../../db/queries/reconciliation";
import { payments, reconciliationRuns, sandboxPaymentObjects } from "../../db/schema";
import { RECONCILIATION_WORKFLOW_TYPE } from "../../workflows/reconciliation/contract";
import { createRetailer } from "../factories";
import { useTestDb } from "../db/helpers";
import { useTimeSkipping } from "./fakes/shared-worker";

const db = useTestDb(4);
const server = useTimeSkipping("recon");

/** The sandbox, down for its first lookup (an outage: the activity is retried). */
function flakySandbox() {
  const sandbox = new SandboxPayments(db);
  const real = sandbox.findMovementByKey.bind(sandbox);
  let down = true;
  return Object.assign(sandbox, {
    findMovementByKey: async (input: Parameters<SandboxPayments["findMovementByKey"]>[0]) => {
      if (down) {
        down = false;
        throw new Error("connect ECONNREFUSED (the provider is down)");
      }
      return real(input);
    },
  });
}

describe("reconciliation workflow", () => {
  test("a day with a movement missing at the provider and one whose amount differs shows both, and only them", async () => {
    const day = "1949-06-15";
    const at = new Date(`${day}T10:00:00Z`);
    const r = await createRetailer(db, { payout: false });
    const key = (k: string) => `recon-wf:${r.retailer.id}:${k}`;
    const penalty = (k: string, amountCents: number) => ({
      retailerId: r.retailer.id,
      name: "Penalty",
      txtype: "penalty",
      amountCents,
      status: "succeeded",
      queued: false,
      idempotencyKey: key(k),
      createdAt: at,
    });
    await db
      .insert(payments)
      .values([penalty("missing", 500), penalty("differs", 800), penalty("agrees", 300)]);
    const intent = (k: string, amount: number) => ({
      id: `pi_${r.retailer.id}_${k}`,
      kind: "payment_intent",
      data: {
        id: `pi_${r.retailer.id}_${k}`,
        object: "payment_intent",
        amount,
        status: "succeeded",
        metadata: { idempotency_key: key(k) },
      },
      createdAt: at,
    });
    await db.insert(sandboxPaymentObjects).values([intent("differs", 900), intent("agrees", 300)]);

    const activities = createActivities({
      db,
      payments: flakySandbox(),
      mail: createOutboxMailer(db),
      env: { APP_ORIGIN: "http://localhost:3100" },
    });
    const workflowId = `reconciliation-test-${r.retailer.id}`;
    const result = await server.run(activities, (taskQueue) =>
      server.env.client.workflow.execute(RECONCILIATION_WORKFLOW_TYPE, {
        taskQueue,
        workflowId,
        args: [{ day }],
      }),
    );
    expect(result).toEqual({ day, checked: 3, recorded: 2 });
    const found = (await listOpenDifferences(db)).filter((d) => d.day === day);
    expect(found.map((d) => [d.kind, d.idempotencyKey, d.ledgerCents, d.providerCents])).toEqual([
      ["missing_at_provider", key("missing"), 500, null],
      ["amount_differs", key("differs"), 800, 900],
    ]);
    // The run, stored once by its last activity: the two intents of the day listed at the provider.
    const { runId } = await server.env.client.workflow.getHandle(workflowId).describe();
    expect(
      await db.select().from(reconciliationRuns).where(eq(reconciliationRuns.runId, runId)),
    ).toEqual([
      expect.objectContaining({
        day,
        checked: 3,
        listed: 2,
        recorded: 2,
        finishedAt: expect.any(Date),
      }),
    ]);
  });
});

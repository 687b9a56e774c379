/**
 * A held movement's way back (docs/decisions/0044-payments-needing-attention.md) on the time-skipping test server
 * with the real activities (Postgres, the sandbox provider): a penalty held for want of a card; the seller saves a
 * card (cardOnFileWorkflow), which marks it due; the worker's relay (workers/held-payments-relay.ts) starts its
 * retry (heldPaymentsRetryWorkflow); the provider is down for the first two tries (an outage: Temporal retries
 * the activity, with its back-off skipped by the test server), then the penalty is charged once, under a new key,
 * and the movement ends. The relay's second pass, and staff's "retry now" of the ended movement, send nothing.
 * The digest workflow (what the schedule runs) mails the open list.
 */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createActivities } from "../../activities";
import { createBuyActivities } from "../../activities/buy";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { createOutboxMailer } from "../../activities/mail";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { getHeldPayment } from "../../db/queries/held-payments";
import { getPaymentByKey } from "../../db/queries/payments";
import { sandboxPaymentObjects } from "../../db/schema";
import { PAYMENTS_ATTENTION_PERMISSION } from "../../domain/held-payments";
import { startOrJoin } from "../../temporal/start-or-join";
import { createHeldPaymentsRelay } from "../../workers/held-payments-relay";
import { CARD_ON_FILE_WORKFLOW_TYPE, cardOnFileWorkflowId } from "../../workflows/card/contract";
import type { cardOnFileWorkflow } from "../../workflows/card/workflow";
import {
  HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE,
  heldRetryStart,
  heldRetryWorkflowId,
} from "../../workflows/held-payments/contract";
import { createStaffUser } from "../factories";
import { draftPurchase } from "../db/buy-fixtures";
import { useTestDb } from "../db/helpers";
import { useTimeSkipping } from "./fakes/shared-worker";

const db = useTestDb(6);
const server = useTimeSkipping("held");

/** The sandbox provider, down for the first `outages` lookups of a held movement (an outage, not a refusal). */
function flakySandbox(outages: number) {
  const sandbox = new SandboxPayments(db);
  const real = sandbox.findMovementByKey.bind(sandbox);
  let failures = 0;
  const findMovementByKey: SandboxPayments["findMovementByKey"] = async (input) => {
    if (failures < outages) {
      failures += 1;
      throw new Error("connect ECONNREFUSED (the provider is down)");
    }
    return real(input);
  };
  return Object.assign(sandbox, { findMovementByKey, failures: () => failures });
}

describe("held payment: hold -> card -> retry", () => {
  test("a penalty held for want of a card is charged once when the seller adds one, through an outage", async () => {
    const payments = flakySandbox(2);
    const carrier = createSandboxCarrier(db, {
      appOrigin: "http://127.0.0.1:9",
      webhookSecret: "x",
    });
    const activities = createActivities({
      db,
      payments,
      mail: createOutboxMailer(db),
      env: { APP_ORIGIN: "http://localhost:3100" },
      carrier,
    });

    // The penalty, held: the seller has no card on file.
    const { f, o } = await draftPurchase(db);
    const key = `${o.workflowId}:penalty:1`;
    const buy = createBuyActivities({
      db,
      payments,
      carrier,
      appOrigin: "http://localhost:3100",
      timeZone: "America/New_York",
    });
    await buy.chargeSellerPenalty({
      idempotencyKey: key,
      orderId: o.orderId,
      retailerId: f.seller.retailer.id,
      amountCents: 700,
    });
    const paymentId = (await getPaymentByKey(db, key))!.id;
    expect(await getHeldPayment(db, paymentId)).toMatchObject({ need: "card", resolvedAt: null });

    const env = server.env;
    await server.run(activities, async (taskQueue) => {
      const relay = createHeldPaymentsRelay({
        db,
        start: (input) => startOrJoin(env.client, { taskQueue, ...heldRetryStart(input) }),
      });
      // Nothing is due before the card.
      expect(await relay.startDue()).toBe(0);
      const card = await env.client.workflow.execute<typeof cardOnFileWorkflow>(
        CARD_ON_FILE_WORKFLOW_TYPE,
        {
          taskQueue,
          workflowId: cardOnFileWorkflowId(f.seller.retailer.id, `held-${o.orderId}`),
          args: [
            {
              retailerId: f.seller.retailer.id,
              submissionId: `held-${o.orderId}`,
              card: { source: "test_card", testToken: "tok_visa" },
            },
          ],
        },
      );
      expect(card.status).toBe("saved");
      expect(await relay.startDue()).toBe(1);
      const result = await env.client.workflow
        .getHandle(heldRetryWorkflowId(paymentId, 1))
        .result();
      expect(result).toEqual({ paymentId, outcome: "paid" });
      // The relay's next pass has nothing left; staff's "retry now" of the ended movement sends nothing.
      expect(await relay.startDue()).toBe(0);
      await startOrJoin(env.client, {
        taskQueue,
        ...heldRetryStart({ paymentId, attempts: 2, actorId: null }),
      });
      expect(
        await env.client.workflow.getHandle(heldRetryWorkflowId(paymentId, 2)).result(),
      ).toEqual({ paymentId, outcome: "ended" });

      // The schedule's workflow: the day's list (nothing of this movement is open any more).
      await createStaffUser(db, { permissions: [PAYMENTS_ATTENTION_PERMISSION] });
      const digest = await env.client.workflow.execute(HELD_PAYMENTS_DIGEST_WORKFLOW_TYPE, {
        taskQueue,
        workflowId: `held-digest-test-${o.orderId}`,
      });
      expect(digest).toMatchObject({ queued: expect.any(Number) });
    });

    expect(payments.failures()).toBe(2);
    const intents = (
      await db
        .select()
        .from(sandboxPaymentObjects)
        .where(eq(sandboxPaymentObjects.kind, "payment_intent"))
    )
      .map((r) => r.data as { metadata?: Record<string, string>; amount: number })
      .filter((d) => d.metadata?.order_id === String(o.orderId));
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ amount: 700, metadata: { step: "penalty" } });
    expect(await getPaymentByKey(db, key)).toMatchObject({ status: "succeeded", queued: false });
    expect(await getHeldPayment(db, paymentId)).toMatchObject({ resolution: "paid" });
  });
});

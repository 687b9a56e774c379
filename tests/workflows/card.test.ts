/**
 * cardOnFileWorkflow on the time-skipping test server with mocked activities: the steps and idempotency
 * keys, Elements (a PaymentMethod id: no create step), the declined card as a non-retryable CardRejected
 * failure with the spec's message, retries of a flaky provider with the same key, and a saved card that stays
 * saved when the waiting RMAs cannot be listed.
 */
import { ApplicationFailure } from "@temporalio/activity";
import { WorkflowFailedError } from "@temporalio/client";
import { describe, expect, test } from "vitest";
import type { CardActivities } from "../../workflows/card/activities";
import { CARD_DECLINED } from "../../domain/cards";
import {
  CARD_ON_FILE_WORKFLOW_TYPE,
  CARD_REJECTED,
  cardOnFileWorkflowId,
  type CardOnFileInput,
  type CardRejection,
} from "../../workflows/card/contract";
import type { cardOnFileWorkflow } from "../../workflows/card/workflow";
import { recordingActivities, type ActivityCall } from "./fakes/recording";
import { useTimeSkipping } from "./fakes/shared-worker";

const server = useTimeSkipping("card");

type Fn = (input: never) => Promise<unknown>;
type Name = keyof CardActivities;

function mockActivities(overrides: Partial<Record<Name, Fn>> = {}) {
  const calls: ActivityCall<Name>[] = [];
  const base: Partial<Record<Name, Fn>> = {
    createTestCardPaymentMethod: async () => ({
      paymentMethodId: "pm_sandbox_1",
      brand: "visa",
      last4: "4242",
    }),
    cardCustomerId: async () => null,
    attachCard: async () => ({
      customerId: "cus_sandbox_1",
      paymentMethodId: "pm_sandbox_1",
      brand: "visa",
      last4: "4242",
    }),
    recordCard: async () => ({ recorded: true }),
    rmasAwaitingCharge: async () => [],
  };
  const impl = { ...base, ...overrides };
  const activities = recordingActivities(impl, calls);
  const of = (name: Name) => calls.filter((c) => c.name === name).map((c) => c.input);
  return { activities, calls, of };
}

function start(taskQueue: string, input: CardOnFileInput) {
  return server.env.client.workflow.start<typeof cardOnFileWorkflow>(CARD_ON_FILE_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: cardOnFileWorkflowId(input.retailerId, input.submissionId),
    args: [input],
  });
}

describe("cardOnFileWorkflow", () => {
  test("test card: create the PaymentMethod, attach it to the customer, record type and last four; keys <wf>:<step>:1", async () => {
    const m = mockActivities({ cardCustomerId: async () => "cus_existing" });
    const input: CardOnFileInput = {
      retailerId: 7,
      submissionId: "s-ok",
      card: { source: "test_card", testToken: "tok_visa" },
      email: "store@example.test",
    };
    const wf = cardOnFileWorkflowId(7, "s-ok");
    const result = await server.run(m.activities, async (tq) => (await start(tq, input)).result());
    expect(result).toEqual({ status: "saved", description: "Visa", lastFour: "4242" });
    expect(m.calls.map((c) => c.name)).toEqual([
      "createTestCardPaymentMethod",
      "cardCustomerId",
      "attachCard",
      "recordCard",
      "rmasAwaitingCharge",
    ]);
    expect(m.of("createTestCardPaymentMethod")[0]).toEqual({
      idempotencyKey: `${wf}:create-payment-method:1`,
      testToken: "tok_visa",
    });
    expect(m.of("attachCard")[0]).toEqual({
      idempotencyKey: `${wf}:attach:1`,
      retailerId: 7,
      paymentMethodId: "pm_sandbox_1",
      customerId: "cus_existing",
      email: "store@example.test",
    });
    expect(m.of("recordCard")[0]).toEqual({
      retailerId: 7,
      providerPaymentMethodId: "pm_sandbox_1",
      providerCustomerId: "cus_sandbox_1",
      description: "Visa",
      lastFour: "4242",
    });
  });

  test("Stripe Elements: the PaymentMethod id from the browser is attached (no create step)", async () => {
    const m = mockActivities({
      attachCard: async () => ({
        customerId: "cus_1",
        paymentMethodId: "pm_elements",
        brand: "mastercard",
        last4: "4444",
      }),
    });
    const result = await server.run(m.activities, async (tq) =>
      (
        await start(tq, {
          retailerId: 8,
          submissionId: "s-el",
          card: { source: "payment_method", paymentMethodId: "pm_elements" },
        })
      ).result(),
    );
    expect(result).toEqual({ status: "saved", description: "Mastercard", lastFour: "4444" });
    expect(m.of("createTestCardPaymentMethod")).toHaveLength(0);
    expect(m.of("attachCard")[0]).toMatchObject({
      paymentMethodId: "pm_elements",
      customerId: null,
    });
  });

  test("an RMA charge waiting for this retailer's card is told; one that has ended meanwhile does not fail the save", async () => {
    const m = mockActivities({ rmasAwaitingCharge: async () => ["rma-ended-long-ago"] });
    const result = await server.run(m.activities, async (tq) =>
      (
        await start(tq, {
          retailerId: 9,
          submissionId: "s-rma",
          card: { source: "test_card", testToken: "tok_visa" },
        })
      ).result(),
    );
    expect(result).toMatchObject({ status: "saved" });
    expect(m.of("rmasAwaitingCharge")).toEqual([{ retailerId: 9 }]);
  });

  test("the read model failing to list the waiting RMAs after the card is recorded: the card is still saved (not 'provider unavailable')", async () => {
    const m = mockActivities({
      rmasAwaitingCharge: async () => {
        throw ApplicationFailure.nonRetryable("database unreachable", "DatabaseDown");
      },
    });
    const result = await server.run(m.activities, async (tq) =>
      (
        await start(tq, {
          retailerId: 11,
          submissionId: "s-rma-down",
          card: { source: "test_card", testToken: "tok_visa" },
        })
      ).result(),
    );
    expect(result).toEqual({ status: "saved", description: "Visa", lastFour: "4242" });
    expect(m.of("recordCard")).toHaveLength(1);
  });

  test("a declined card fails the run (non-retryable CardRejected, the spec's message) and nothing is recorded", async () => {
    const rejection: CardRejection = { code: "card_declined", message: CARD_DECLINED };
    const m = mockActivities({
      attachCard: async () => {
        throw ApplicationFailure.nonRetryable(CARD_DECLINED, CARD_REJECTED, rejection);
      },
    });
    const err = await server.run(m.activities, async (tq) =>
      (
        await start(tq, {
          retailerId: 9,
          submissionId: "s-declined",
          card: { source: "test_card", testToken: "tok_chargeDeclined" },
        })
      )
        .result()
        .catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(CARD_REJECTED);
    expect(cause.message).toBe("Sorry but this card was declined. Please try another.");
    expect(cause.details?.[0]).toEqual(rejection);
    expect(m.of("attachCard")).toHaveLength(1);
    expect(m.of("recordCard")).toHaveLength(0);
  });

  test("an outage is retried with the same idempotency key", async () => {
    let n = 0;
    const m = mockActivities({
      attachCard: async () => {
        n += 1;
        if (n < 3) throw new Error("ECONNRESET");
        return {
          customerId: "cus_r",
          paymentMethodId: "pm_sandbox_1",
          brand: "visa",
          last4: "4242",
        };
      },
    });
    const wf = cardOnFileWorkflowId(10, "s-retry");
    const result = await server.run(m.activities, async (tq) =>
      (
        await start(tq, {
          retailerId: 10,
          submissionId: "s-retry",
          card: { source: "test_card", testToken: "tok_visa" },
        })
      ).result(),
    );
    expect(result.lastFour).toBe("4242");
    expect(m.of("attachCard").map((c) => c.idempotencyKey)).toEqual([
      `${wf}:attach:1`,
      `${wf}:attach:1`,
      `${wf}:attach:1`,
    ]);
  });
});

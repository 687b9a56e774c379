/**
 * payoutSetupWorkflow on the time-skipping test server with mocked activities: the idempotency keys it
 * passes, what it records, the non-retryable rejection path, duplicate submissions, and a replay of a
 * recorded history (tests/histories/payout-setup.json) against the current workflow code.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ApplicationFailure } from "@temporalio/activity";
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  type WorkflowHandle,
} from "@temporalio/client";
import { Worker } from "@temporalio/worker";
import { temporal } from "@temporalio/proto";
import { describe, expect, test } from "vitest";
import type { PayoutActivities } from "../../workflows/payout/activities";
import { payoutDetailsSchema, type PayoutDetails } from "../../domain/payout";
import { PAYOUT_TOKEN_MESSAGES } from "../../domain/payout-tokens";
import {
  PAYOUT_INVALID_INPUT,
  PAYOUT_REJECTED,
  PAYOUT_SETUP_WORKFLOW_TYPE,
  payoutSetupWorkflowId,
  type PayoutRejection,
  type PayoutSetupInput,
} from "../../workflows/payout/contract";
import type { payoutSetupWorkflow } from "../../workflows/payout/workflow";
import { recordingActivities, type ActivityCall } from "./fakes/recording";
import { useTimeSkipping } from "./fakes/shared-worker";
import { testDataConverter } from "../setup/temporal";
import { validPayoutForm } from "../factories/payout";

const HISTORY_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "histories",
  "payout-setup.json",
);

const server = useTimeSkipping("payout");

const details: PayoutDetails = payoutDetailsSchema.parse({
  ...validPayoutForm,
  last_name: "Doe",
  email: "jane@example.test",
  buspostal_code: "",
});

const SUBMISSION = "5b0f7a52-9c1e-4a8e-9d39-0a1b2c3d4e5f";

function setupInput(overrides: Partial<PayoutSetupInput> = {}): PayoutSetupInput {
  return {
    retailerId: 7,
    submissionId: SUBMISSION,
    details,
    tosAcceptance: { date: "2024-05-01T12:00:00.000Z", ip: "203.0.113.9" },
    notifyEmail: "store@example.test",
    ...overrides,
  };
}

/** Mocked activities that record every call; `overrides` replace single activities. */
function mockActivities(
  overrides: Partial<Record<keyof PayoutActivities, (input: never) => Promise<unknown>>> = {},
) {
  const calls: ActivityCall<keyof PayoutActivities>[] = [];
  const base: Partial<Record<keyof PayoutActivities, (input: never) => Promise<unknown>>> = {
    payoutSetupStarted: async () => undefined,
    payoutSetupFailed: async () => undefined,
    createConnectedAccount: async () => ({
      accountId: "acct_sandbox_test1",
      bankAccountLast4: "6789",
    }),
    recordPayoutAccount: async () => ({ recorded: true, listingsActivated: 2 }),
    sendPayoutConfirmation: async () => undefined,
  };
  const impl = { ...base, ...overrides };
  const activities = recordingActivities(impl, calls);
  const of = (name: keyof PayoutActivities) =>
    calls.filter((c) => c.name === name).map((c) => c.input);
  return { activities, calls, of };
}

function start(
  taskQueue: string,
  workflowId: string,
  input = setupInput(),
): Promise<WorkflowHandle<typeof payoutSetupWorkflow>> {
  return server.env.client.workflow.start<typeof payoutSetupWorkflow>(PAYOUT_SETUP_WORKFLOW_TYPE, {
    taskQueue,
    workflowId,
    args: [input],
    workflowIdReusePolicy: "REJECT_DUPLICATE",
  });
}

describe("payoutSetupWorkflow", () => {
  test("creates the account with key <workflow id>:create-account:1, records it (last four only) and mails once", async () => {
    const m = mockActivities();
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-ok`);
    const { result, history } = await server.run(m.activities, async (tq) => {
      const handle = await start(tq, workflowId);
      const result = await handle.result();
      return { result, history: await handle.fetchHistory() };
    });
    expect(result).toEqual({ status: "done", accountId: "acct_sandbox_test1" });
    expect(m.calls.map((c) => c.name)).toEqual([
      "payoutSetupStarted",
      "createConnectedAccount",
      "recordPayoutAccount",
      "sendPayoutConfirmation",
    ]);
    expect(m.of("payoutSetupStarted")[0]).toEqual({ retailerId: 7, workflowId });
    expect(m.of("createConnectedAccount")[0]).toMatchObject({
      idempotencyKey: `${workflowId}:create-account:1`,
      retailerId: 7,
      details,
      tosAcceptance: { date: Date.parse("2024-05-01T12:00:00.000Z") / 1000, ip: "203.0.113.9" },
    });
    const recorded = m.of("recordPayoutAccount")[0];
    expect(recorded).toMatchObject({ retailerId: 7, workflowId, accountId: "acct_sandbox_test1" });
    expect(recorded.profile).toMatchObject({
      accountLast4: "6789",
      bustaxIdLast4: "6789",
      routingNumber: "110000000",
      tosAcceptedAt: "2024-05-01T12:00:00.000Z",
    });
    expect(JSON.stringify(recorded)).not.toContain("000123456789");
    expect(m.of("sendPayoutConfirmation")[0]).toMatchObject({
      to: "store@example.test",
      dedupeKey: `${workflowId}:confirmation-email:1`,
      accountLast4: "6789",
    });
    expect(m.of("payoutSetupFailed")).toHaveLength(0);

    // Keep a history for the replay test (regenerate with RECORD_HISTORIES=1 after an intended change).
    if (process.env.RECORD_HISTORIES === "1" || !fs.existsSync(HISTORY_FILE)) {
      fs.mkdirSync(path.dirname(HISTORY_FILE), { recursive: true });
      // The message's own JSON form (int64 as strings, enums by name, bytes base64). Loaded back with
      // History.fromObject, not historyFromJSON: the latter breaks on the two protobufjs 8 copies npm
      // installed here (TypeError "type must be a Type").
      fs.writeFileSync(HISTORY_FILE, `${JSON.stringify(history, null, 2)}\n`);
    }
  });

  test("activity retries reuse the same idempotency key", async () => {
    let attempts = 0;
    const m = mockActivities({
      createConnectedAccount: async () => {
        attempts += 1;
        if (attempts < 3) throw new Error("provider timeout");
        return { accountId: "acct_sandbox_retry", bankAccountLast4: "6789" };
      },
    });
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-retry`);
    const result = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId)).result(),
    );
    expect(result.accountId).toBe("acct_sandbox_retry");
    const keys = m.of("createConnectedAccount").map((c) => c.idempotencyKey);
    expect(keys).toEqual([
      `${workflowId}:create-account:1`,
      `${workflowId}:create-account:1`,
      `${workflowId}:create-account:1`,
    ]);
  });

  test("the database down for longer than 20 tries after the account was made: the run waits for it, one account", async () => {
    let attempts = 0;
    const m = mockActivities({
      recordPayoutAccount: async () => {
        attempts += 1;
        if (attempts <= 21) throw new Error("database unreachable");
        return { recorded: true, listingsActivated: 2 };
      },
    });
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-database-down`);
    const result = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId)).result(),
    );
    expect(result).toEqual({ status: "done", accountId: "acct_sandbox_test1" });
    expect(m.of("createConnectedAccount")).toHaveLength(1);
    expect(m.of("recordPayoutAccount")).toHaveLength(22);
    expect(m.of("payoutSetupFailed")).toHaveLength(0);
  });

  test("a provider rejection is non-retryable: one call, recorded as failed, the workflow fails with the field to show", async () => {
    const rejection: PayoutRejection = {
      message: "The routing number is not valid. Check it with your bank.",
      code: "routing_number_invalid",
      field: "routing_number",
    };
    const m = mockActivities({
      createConnectedAccount: async () => {
        throw ApplicationFailure.nonRetryable(rejection.message, PAYOUT_REJECTED, rejection);
      },
    });
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-rejected`);
    const err = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId)).result().catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect((cause as ApplicationFailure).type).toBe(PAYOUT_REJECTED);
    expect((cause as ApplicationFailure).nonRetryable).toBe(true);
    expect((cause as ApplicationFailure).details?.[0]).toEqual(rejection);
    expect(m.of("createConnectedAccount")).toHaveLength(1);
    expect(m.of("payoutSetupFailed")).toEqual([
      { retailerId: 7, workflowId, error: rejection.message },
    ]);
    expect(m.of("recordPayoutAccount")).toHaveLength(0);
  });

  test("invalid input never reaches the provider", async () => {
    const m = mockActivities();
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-invalid`);
    const bad = { ...details, routing_number: "11x" };
    const err = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId, setupInput({ details: bad }))).result().catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(PAYOUT_INVALID_INPUT);
    expect(cause.details?.[0]).toMatchObject({
      field: "routing_number",
      message: "Routing number may contain digits only",
    });
    expect(m.of("createConnectedAccount")).toHaveLength(0);
    expect(m.of("payoutSetupFailed")).toHaveLength(1);
  });

  test("a failed confirmation e-mail does not undo a finished setup", async () => {
    const m = mockActivities({
      sendPayoutConfirmation: async () => {
        throw ApplicationFailure.nonRetryable("smtp down");
      },
    });
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-mailfail`);
    const result = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId)).result(),
    );
    expect(result.status).toBe("done");
    expect(m.of("recordPayoutAccount")).toHaveLength(1);
  });

  test("a duplicate submission (same id) is rejected by the server and attaches to the first run", async () => {
    const m = mockActivities();
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-dup`);
    const second = await server.run(m.activities, async (tq) => {
      await (await start(tq, workflowId)).result();
      const dup = await start(tq, workflowId).catch((e: unknown) => e);
      expect(dup).toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
      return server.env.client.workflow.getHandle<typeof payoutSetupWorkflow>(workflowId).result();
    });
    expect(second.accountId).toBe("acct_sandbox_test1");
    expect(m.of("createConnectedAccount")).toHaveLength(1);
  });
});

describe("payoutSetupWorkflow with the provider's tokens (ADR 0050; the tests above are runs started with the full form)", () => {
  const submission = {
    first_name: "Jane",
    last_name: "Doe",
    email: "jane@example.test",
    street_address: "12 Harbor St",
    locality: "Portland",
    region: "ME",
    postal_code: "04101",
    buslegal_name: "Harborline Shoes LLC",
    busstreet_address: "14 Harbor St",
    buslocality: "Portland",
    busregion: "ME",
    buspostal_code: "04101",
    tos_accepted: true,
    account_token: "ct_sandbox_wftest01",
    person_token: "cpt_sandbox_wftest01",
    bank_account_token: "btok_sandbox_wftest01",
    bustax_id_last4: "6789",
  };
  const tokenInput = (overrides: Record<string, unknown> = {}): PayoutSetupInput =>
    setupInput({
      details: undefined,
      submission: { ...submission, ...overrides } as PayoutSetupInput["submission"],
    });

  test("the account from the tokens; the profile keeps the provider's last four and no birth date or routing number", async () => {
    const m = mockActivities({
      createConnectedAccount: async () => ({
        accountId: "acct_sandbox_tok",
        bankAccountLast4: "4321",
      }),
    });
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-tokens`);
    const result = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId, tokenInput())).result(),
    );
    expect(result).toEqual({ status: "done", accountId: "acct_sandbox_tok" });
    expect(m.of("createConnectedAccount")[0]).toEqual({
      idempotencyKey: `${workflowId}:create-account:1`,
      retailerId: 7,
      tokens: {
        accountToken: "ct_sandbox_wftest01",
        personToken: "cpt_sandbox_wftest01",
        bankAccountToken: "btok_sandbox_wftest01",
      },
      email: "jane@example.test",
      businessName: "Harborline Shoes LLC",
    });
    expect(m.of("recordPayoutAccount")[0].profile).toMatchObject({
      accountLast4: "4321",
      bustaxIdLast4: "6789",
      dateOfBirth: "",
      routingNumber: "",
    });
    expect(m.of("sendPayoutConfirmation")[0]).toMatchObject({ accountLast4: "4321" });
  });

  test("a submission without its tokens never reaches the provider", async () => {
    const m = mockActivities();
    const workflowId = payoutSetupWorkflowId(7, `${SUBMISSION}-no-tokens`);
    const err = await server.run(m.activities, async (tq) =>
      (await start(tq, workflowId, tokenInput({ bank_account_token: undefined })))
        .result()
        .catch((e: unknown) => e),
    );
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe(PAYOUT_INVALID_INPUT);
    expect(cause.details?.[0]).toMatchObject({ message: PAYOUT_TOKEN_MESSAGES.tokensMissing });
    expect(m.of("createConnectedAccount")).toHaveLength(0);
    expect(m.of("payoutSetupFailed")).toHaveLength(1);
  });
});

describe("replay", () => {
  test("the recorded history replays deterministically with the current workflow code", async () => {
    const history = temporal.api.history.v1.History.fromObject(
      JSON.parse(fs.readFileSync(HISTORY_FILE, "utf8")),
    );
    expect(history.events.length).toBeGreaterThan(10);
    await Worker.runReplayHistory(
      { workflowBundle: server.bundle, dataConverter: testDataConverter },
      history,
      "payout-setup-replay",
    );
  });

  test("replay has teeth: a history whose steps differ from the code is a determinism violation", async () => {
    const json = JSON.parse(fs.readFileSync(HISTORY_FILE, "utf8"));
    const scheduled = json.events.find(
      (e: { activityTaskScheduledEventAttributes?: { activityType: { name: string } } }) =>
        e.activityTaskScheduledEventAttributes?.activityType.name === "createConnectedAccount",
    );
    scheduled.activityTaskScheduledEventAttributes.activityType.name = "chargeSomethingElse";
    const history = temporal.api.history.v1.History.fromObject(json);
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: server.bundle, dataConverter: testDataConverter },
        history,
        "payout-setup-replay-bad",
      ),
    ).rejects.toThrow(/nondetermin/i);
  });
});

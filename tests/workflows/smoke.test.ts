import { fileURLToPath } from "node:url";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { isEncrypted } from "../../temporal/codec";
import { createTimeSkippingEnv, uniqueTaskQueue, testDataConverter } from "../setup/temporal";
import type { sleepOneDay } from "./fixtures/sleepy";

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  const t0 = Date.now();
  env = await createTimeSkippingEnv();
  console.log(`time-skipping test server ready in ${Date.now() - t0} ms`);
});

afterAll(async () => {
  await env?.teardown();
});

test("a one-day sleep completes on the time-skipping server: its clock moves a day, the wall clock does not", async () => {
  const taskQueue = uniqueTaskQueue("smoke");
  const worker = await Worker.create({
    connection: env.nativeConnection,
    dataConverter: testDataConverter,
    taskQueue,
    workflowsPath: fileURLToPath(new URL("./fixtures/sleepy.ts", import.meta.url)),
  });
  const started = Date.now();
  const serverBefore = await env.currentTimeMs();
  const result = await worker.runUntil(
    env.client.workflow.execute<typeof sleepOneDay>("sleepOneDay", {
      args: ["wholesale"],
      taskQueue,
      workflowId: `smoke-${taskQueue}`,
    }),
  );
  expect(result).toBe("hello wholesale");
  const DAY_MS = 24 * 3600_000;
  expect((await env.currentTimeMs()) - serverBefore).toBeGreaterThanOrEqual(DAY_MS);
  expect(Date.now() - started).toBeLessThan(DAY_MS);

  // The tests run with the payload codec on (ADR 0040): the history holds the input and the result sealed.
  const history = await env.client.workflow.getHandle(`smoke-${taskQueue}`).fetchHistory();
  const input = history.events?.[0].workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  const completed = history.events?.find(
    (e) => e.workflowExecutionCompletedEventAttributes,
  )?.workflowExecutionCompletedEventAttributes;
  expect(input.length).toBe(1);
  expect([...input, ...(completed?.result?.payloads ?? [])].every((p) => isEncrypted(p))).toBe(
    true,
  );
  expect(Buffer.from(input[0].data!).toString("latin1")).not.toContain("wholesale");
});

import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker, type WorkflowBundleWithSourceMap } from "@temporalio/worker";
import { afterAll, beforeAll } from "vitest";
import { createTimeSkippingEnv, testDataConverter, uniqueTaskQueue } from "../../setup/temporal";
import { testWorkflowBundle } from "../../setup/workflow-bundle";

type ActivityFns = Record<string, (input: unknown) => Promise<unknown>>;

/**
 * One time-skipping server and one worker for a whole test file (its tests run one after another). The
 * worker's activities delegate to the fake the running test hands to `withFake`, so each test asserts only
 * its own calls. `env` and `bundle` exist once the file's first hook has run.
 */
export function useSharedFakeWorker<F extends { activities: object }>(
  kind: string,
  makeFake: () => F,
) {
  const taskQueue = uniqueTaskQueue(kind);
  let env: TestWorkflowEnvironment | undefined;
  let bundle: WorkflowBundleWithSourceMap | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let current: F | null = null;

  beforeAll(async () => {
    [env, bundle] = await Promise.all([createTimeSkippingEnv(), testWorkflowBundle()]);
    const delegating = Object.fromEntries(
      Object.keys(makeFake().activities).map((name) => [
        name,
        (input: unknown) => {
          if (!current) throw new Error(`activity ${name} called outside a test`);
          return (current.activities as ActivityFns)[name](input);
        },
      ]),
    );
    worker = await Worker.create({
      connection: env.nativeConnection,
      dataConverter: testDataConverter,
      taskQueue,
      workflowBundle: bundle,
      activities: delegating,
    });
    running = worker.run();
  }, 120_000);

  afterAll(async () => {
    if (worker) {
      worker.shutdown();
      await running;
    }
    await env?.teardown();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${kind} test ${what} is not ready`);
    return value;
  };
  return {
    taskQueue,
    get env(): TestWorkflowEnvironment {
      return ready(env, "server");
    },
    get bundle(): WorkflowBundleWithSourceMap {
      return ready(bundle, "workflow bundle");
    },
    /** Runs `fn` with `fake` behind the worker's activities. */
    async withFake<T>(fake: F, fn: () => Promise<T>): Promise<T> {
      current = fake;
      try {
        return await fn();
      } finally {
        current = null;
      }
    },
  };
}

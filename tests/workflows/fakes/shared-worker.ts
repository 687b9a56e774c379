import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { WorkflowHandle } from "@temporalio/client";
import { temporal } from "@temporalio/proto";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker, type WorkflowBundleWithSourceMap } from "@temporalio/worker";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTimeSkippingEnv, testDataConverter, uniqueTaskQueue } from "../../setup/temporal";
import { testWorkflowBundle } from "../../setup/workflow-bundle";

/** The recorded histories the replay tests read (tests/histories). */
export const HISTORIES = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "histories",
);

type ActivityFns = Record<string, (input: unknown) => Promise<unknown>>;

const ready = <T>(value: T | undefined, what: string): T => {
  if (value === undefined)
    throw new Error(`the test ${what} is not ready (used before the file's hooks ran)`);
  return value;
};

/**
 * The test file's time-skipping server and workflow bundle, there from its first hook on and torn down after
 * its last test. `run` gives a scenario a worker of its own.
 */
export function useTimeSkipping(kind: string) {
  let env: TestWorkflowEnvironment | undefined;
  let bundle: WorkflowBundleWithSourceMap | undefined;
  beforeAll(async () => {
    [env, bundle] = await Promise.all([createTimeSkippingEnv(), testWorkflowBundle()]);
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });
  return {
    get env(): TestWorkflowEnvironment {
      return ready(env, "server");
    },
    get bundle(): WorkflowBundleWithSourceMap {
      return ready(bundle, "workflow bundle");
    },
    /** Runs `fn` with a worker of its own (a fresh task queue) serving `activities`, until `fn` settles. */
    async run<T>(activities: object, fn: (taskQueue: string) => Promise<T>): Promise<T> {
      const taskQueue = uniqueTaskQueue(kind);
      const worker = await Worker.create({
        connection: ready(env, "server").nativeConnection,
        dataConverter: testDataConverter,
        taskQueue,
        workflowBundle: ready(bundle, "workflow bundle"),
        activities,
      });
      return worker.runUntil(fn(taskQueue));
    },
  };
}

/**
 * A worker for the whole test file: made by `create` in a beforeAll (after the hooks registered before it, so
 * it may use their server), running until the file's last test and shut down before those hooks tear down.
 */
export function useFileWorker(create: () => Promise<Worker>): void {
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    worker = await create();
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    if (worker) {
      worker.shutdown();
      await running;
    }
  });
}

/**
 * One time-skipping server and one worker for a whole test file (its tests run one after another). The
 * worker's activities delegate to the fake the running test hands to `withFake`, so each test asserts only
 * its own calls. `env` and `bundle` exist once the file's first hook has run. The kind's histories are
 * tests/histories/<kind>-<name>.json.
 */
export function useSharedFakeWorker<F extends { activities: object }>(
  kind: string,
  makeFake: () => F,
) {
  const server = useTimeSkipping(kind);
  const taskQueue = uniqueTaskQueue(kind);
  let current: F | null = null;

  useFileWorker(() => {
    const delegating = Object.fromEntries(
      Object.keys(makeFake().activities).map((name) => [
        name,
        (input: unknown) => {
          if (!current) throw new Error(`activity ${name} called outside a test`);
          return (current.activities as ActivityFns)[name](input);
        },
      ]),
    );
    return Worker.create({
      connection: server.env.nativeConnection,
      dataConverter: testDataConverter,
      taskQueue,
      workflowBundle: server.bundle,
      activities: delegating,
    });
  });

  const shared = {
    taskQueue,
    get env(): TestWorkflowEnvironment {
      return server.env;
    },
    get bundle(): WorkflowBundleWithSourceMap {
      return server.bundle;
    },
    /** This kind's recorded histories, listed when called (after the scenarios that write missing ones). */
    historyFiles(): string[] {
      return fs
        .readdirSync(HISTORIES)
        .filter((f) => f.startsWith(`${kind}-`) && f.endsWith(".json"))
        .sort();
    },
    /** Saves the run's history for the replay tests (only when missing, or with RECORD_HISTORIES=1). */
    async keepHistory(handle: WorkflowHandle, name: string): Promise<void> {
      const file = path.join(HISTORIES, `${kind}-${name}.json`);
      if (process.env.RECORD_HISTORIES !== "1" && fs.existsSync(file)) return;
      const history = await handle.fetchHistory();
      fs.mkdirSync(HISTORIES, { recursive: true });
      // The message's own JSON form, loaded back with History.fromObject (see payout.test.ts for why).
      fs.writeFileSync(file, `${JSON.stringify(history)}\n`);
    },
    /** Replays a recorded history with the current workflow code (throws on nondeterminism). */
    async replay(
      history: temporal.api.history.v1.IHistory | string,
      name = String(history),
    ): Promise<temporal.api.history.v1.History> {
      const h = temporal.api.history.v1.History.fromObject(
        typeof history === "string"
          ? JSON.parse(fs.readFileSync(path.join(HISTORIES, history), "utf8"))
          : history,
      );
      await Worker.runReplayHistory(
        { workflowBundle: server.bundle, dataConverter: testDataConverter },
        h,
        name,
      );
      return h;
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
    /**
     * The kind's replay tests (inside its describe): its recorded histories are exactly `files` (recorded for
     * `what`), and each replays with the current workflow code (and passes `check`).
     */
    replayTests(
      what: string,
      files: string[],
      check: (history: temporal.api.history.v1.History, file: string) => void = () => {},
    ): void {
      test(`histories were recorded for ${what}`, () => {
        expect(shared.historyFiles()).toEqual([...files].sort());
      });
      test("every recorded history replays with the current workflow code", async () => {
        for (const file of shared.historyFiles()) check(await shared.replay(file), file);
      });
    },
  };
  return shared;
}

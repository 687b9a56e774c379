import net from "node:net";
import type { QueryDefinition } from "@temporalio/common";
import os from "node:os";
import path from "node:path";
// The default import: the package is CommonJS, whose named exports Node's ESM loader cannot see (the demo year
// runs these helpers under plain tsx, not Vitest).
import proto from "@temporalio/proto";
import { TestWorkflowEnvironment } from "@temporalio/testing";
import { startTemporalDev } from "../../scripts/lib/temporal.mjs";
import { toolPaths } from "../../scripts/lib/tools.mjs";
import { dataConverterOf } from "../../temporal/connection";
import { ORDER_SEARCH_ATTRIBUTE_KEYS } from "../../workflows/common/search-attributes";

/**
 * The data converter of the tests' clients and workers: the payload codec with the development key, as the web
 * process and the worker use it outside production (temporal/connection.ts, ADR 0040), so every test runs with
 * payloads sealed. Pass it to every Worker.create, Worker.runReplayHistory and Client of a test.
 */
export const testDataConverter = dataConverterOf({});

/** Version of io.temporal:temporal-test-server installed by `npm run tools` (scripts/lib/paths.mjs). */
const TEST_SERVER_VERSION = "1.38.0";

/**
 * Path of the wrapper script that runs Temporal's Java time-skipping test server.
 * `npm test` sets TEMPORAL_TEST_SERVER_PATH; otherwise the per-user tool cache is used.
 */
export function testServerPath(): string {
  if (process.env.TEMPORAL_TEST_SERVER_PATH) return process.env.TEMPORAL_TEST_SERVER_PATH;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(
    cache,
    "wholesale",
    "tools",
    `test-server-${TEST_SERVER_VERSION}`,
    "temporal-test-server",
  );
}

/**
 * A time-skipping test environment backed by the locally installed test server (never a download).
 * Call `await env.teardown()` in afterAll.
 *
 *   let env: TestWorkflowEnvironment;
 *   beforeAll(async () => { env = await createTimeSkippingEnv(); });
 *   afterAll(async () => { await env?.teardown(); });
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await startWithRetries("the time-skipping test server", () =>
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: "existing-path", path: testServerPath() } },
      client: { dataConverter: testDataConverter },
    }),
  );
  try {
    await registerOrderSearchAttributes(env);
  } catch (err) {
    await env.teardown();
    throw err;
  }
  return env;
}

/**
 * Starts a test server on a free port, again (up to `attempts` times) if it fails to start. A free port is
 * found by binding and closing it, so on a busy machine (the e2e suite runs beside this one) another process
 * can take it before the server binds it; the server then exits and its file would fail without running a test.
 */
export async function startWithRetries<T>(
  what: string,
  start: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts) throw err;
      console.warn(
        `${what} did not start (attempt ${attempt} of ${attempts}), starting it again: ${String(err).split("\n")[0]}`,
      );
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A Temporal CLI dev server of the test's own (in memory, headless, a free port), started as every dev server
 * of the project is (scripts/lib/temporal.mjs: the search attributes registered), for the files that need what
 * the time-skipping server lacks (list queries, worker deployments). Call `stop()` in afterAll.
 */
export function startTestDevServer(
  name: string,
): Promise<{ address: string; stop: () => Promise<void> }> {
  const bin = process.env.TEMPORAL_CLI_PATH || toolPaths.temporalCache;
  return startWithRetries("the Temporal dev server", async () =>
    startTemporalDev({
      bin,
      port: await freePort(),
      uiPort: null,
      dbFile: null,
      name,
      quiet: true,
    }),
  );
}

/**
 * Registers the order workflows' search attributes (workflows/common/search-attributes.ts) on a test
 * environment's server, as the dev servers do with `--search-attribute` (an order workflow's upsert of an
 * unknown attribute fails its workflow task). The time-skipping server takes no such flag
 * (TestWorkflowEnvironment.createTimeSkipping has no `searchAttributes` option, unlike createLocal); it
 * implements the operator service's AddSearchAttributes instead.
 */
export async function registerOrderSearchAttributes(env: TestWorkflowEnvironment): Promise<void> {
  const types = proto.temporal.api.enums.v1.IndexedValueType;
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? "default",
    searchAttributes: Object.fromEntries(
      ORDER_SEARCH_ATTRIBUTE_KEYS.map((k) => [k.name, types[`INDEXED_VALUE_TYPE_${k.type}`]]),
    ),
  });
}

/**
 * Advances the test server's clock to `deltaMs` after an instant (an ISO string a workflow's view gave, e.g. a
 * deadline). Windows in business days move with weekends and holidays, so tests sleep to the deadline the
 * workflow computed rather than a fixed number of days.
 */
export async function sleepUntil(
  env: TestWorkflowEnvironment,
  isoInstant: string | null,
  deltaMs: number,
): Promise<void> {
  if (!isoInstant) throw new Error("no instant to sleep until");
  const ms = Date.parse(isoInstant) + deltaMs - (await env.currentTimeMs());
  if (ms > 0) await env.sleep(ms);
}

/**
 * Waits until a run has closed and returns its status. Not handle.result(): on the time-skipping server waiting
 * for a result unlocks time skipping, which would fire the timers of the other runs of the same test.
 */
export async function closedStatus(handle: {
  workflowId: string;
  describe(): Promise<{ status: { name: string } }>;
}): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const d = await handle.describe();
    if (d.status.name !== "RUNNING") return d.status.name;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${handle.workflowId} did not close`);
}

/** Task queue name unique per test, so tests never pick up each other's tasks. */
export function uniqueTaskQueue(prefix = "test"): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Reads a workflow's view (a query) until `pred` holds, every 25 ms up to `tries` times; fails naming what it
 * waited for and the last state seen (`describe`).
 */
export async function pollView<V>(
  read: () => Promise<V>,
  pred: (v: V) => boolean,
  what: string,
  describe: (v: V | undefined) => string,
  tries = 400,
): Promise<V> {
  let last: V | undefined;
  for (let i = 0; i < tries; i++) {
    last = await read();
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}; ${describe(last)}`);
}

/**
 * `waitFor(handle, pred, what)` over a workflow's view query: polls it until `pred` holds (the workflow may
 * still be processing a fired timer or a signal); `describe` names the last view in a timeout's message.
 */
export function viewWaiter<V>(
  query: QueryDefinition<V, []>,
  describe: (v: V | undefined) => string,
  tries?: number,
) {
  return (
    handle: { query(def: QueryDefinition<V, []>): Promise<V> },
    pred: (v: V) => boolean,
    what: string,
  ): Promise<V> => pollView(() => handle.query(query), pred, what, describe, tries);
}

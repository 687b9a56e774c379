/**
 * The deploy proof of docs/decisions/0046-worker-versioning.md, on a Temporal CLI dev server (its server is
 * 1.29.1, as `npm run prod`'s, with worker deployments), the real workflow bundle and in-memory activities:
 *
 *   1. an order started on a worker without versioning (before the first versioned deploy);
 *   2. build A's worker joins the deployment; the replay check refuses build B for that order (B cannot replay
 *      it and would serve it) and lets A become current (A replays it);
 *   3. orders start on A (pinned to it); build B's worker joins, with a change A's histories cannot replay
 *      (tests/workflows/fixtures/build-b-extra-step.ts); the check passes B (A's orders are pinned, none
 *      would move) and B becomes current;
 *   4. new orders run on B, A's orders finish on A, every history has 0 failed workflow tasks;
 *   5. A drains (no open order pinned to it) and is retired.
 *
 * `npm run deploy:proof` runs this file alone. Orders end by the seller's decline (no timers to wait for).
 */
import path from "node:path";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import { temporal } from "@temporalio/proto";
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from "@temporalio/worker";
import { afterAll, beforeAll, expect, test } from "vitest";
import { executeUpdateOnce } from "../../app/utils/temporal.server";
import type { OrderLine } from "../../domain/order-money";
import { ROOT } from "../../workers/bundle";
import {
  checkReplay,
  openPinnedCount,
  retireVersion,
  setCurrentVersion,
} from "../../workers/deploy";
import { buildIdOf, retireDecision, type DeployVersion } from "../../workers/deploy-decisions";
import {
  BUY_WORKFLOW_TYPE,
  buyWorkflowId,
  completeCheckoutUpdate,
  declineSaleUpdate,
} from "../../workflows/buy/contract";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import { startTestDevServer, testDataConverter } from "../setup/temporal";
import { testWorkflowBundle } from "../setup/workflow-bundle";
import { buyInput, createFakeBuyActivities, OK_CARD, SELLER_CARD } from "./fakes/buy-activities";

const SELLER = 31;
const BUYER = 32;
const LINES: OrderLine[] = [
  { listingId: 601, variationId: 9601, sizes: { M: 1 }, unitPriceCents: 4500 },
];
const TASK_QUEUE = "deploy-proof";
const DEPLOYMENT = "marketplace";
const EventType = temporal.api.enums.v1.EventType;

let server: { address: string; stop: () => Promise<void> };
let connection: Connection;
let nativeConnection: NativeConnection;
let client: Client;
let bundleA: WorkflowBundleWithSourceMap;
let bundleB: WorkflowBundleWithSourceMap;
const running: { worker: Worker; done: Promise<void> }[] = [];

beforeAll(async () => {
  [server, bundleA, bundleB] = await Promise.all([
    startTestDevServer("temporal-deploy"),
    testWorkflowBundle(),
    // Build B: the same workflows with one more step (cached as the suite's bundle is).
    testWorkflowBundle({
      extraInterceptors: [
        path.join(ROOT, "tests", "workflows", "fixtures", "build-b-extra-step.ts"),
      ],
    }),
  ]);
  connection = await Connection.connect({ address: server.address });
  nativeConnection = await NativeConnection.connect({ address: server.address });
  client = new Client({ connection, dataConverter: testDataConverter });
}, 120_000);

afterAll(async () => {
  for (const r of running) {
    if (r.worker.getState() === "RUNNING") r.worker.shutdown();
    await r.done.catch(() => {});
  }
  await nativeConnection?.close();
  await connection?.close();
  await server?.stop();
});

/** A worker on the task queue: of `version` (pinned by default, as workers/worker-process.ts), or unversioned. */
async function startWorker(
  bundle: WorkflowBundleWithSourceMap,
  version: DeployVersion | null,
): Promise<Worker> {
  const worker = await Worker.create({
    connection: nativeConnection,
    dataConverter: testDataConverter,
    taskQueue: TASK_QUEUE,
    workflowBundle: bundle,
    activities: createFakeBuyActivities({ cardsOnFile: { [SELLER]: SELLER_CARD } }).activities,
    ...(version
      ? {
          workerDeploymentOptions: {
            version,
            useWorkerVersioning: true,
            defaultVersioningBehavior: "PINNED" as const,
          },
        }
      : {}),
  });
  running.push({ worker, done: worker.run() });
  return worker;
}

async function stopWorker(worker: Worker): Promise<void> {
  worker.shutdown();
  await running.find((r) => r.worker === worker)?.done;
}

type Order = WorkflowHandle<typeof buyOrderWorkflow>;

/** A purchase past its checkout (activities ran), waiting for the seller. */
async function openOrder(orderId: number): Promise<Order> {
  const input = buyInput(orderId, SELLER, BUYER, LINES);
  const handle = await client.workflow.start<typeof buyOrderWorkflow>(BUY_WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: buyWorkflowId(orderId),
    args: [input],
  });
  await handle.executeUpdate(completeCheckoutUpdate, {
    args: [{ actorRetailerId: BUYER, paymentMethod: OK_CARD }],
  });
  return handle;
}

/** The seller declines: the order ends. */
async function finish(handle: Order): Promise<void> {
  // As the order pages send it (executeUpdateOnce): again, under the same update id, while the server cannot admit
  // it yet. On a busy box the first task after the unversioned worker's shutdown can time out on its sticky
  // queue, and the server then answers FAILED_PRECONDITION instead of running the update.
  const answer = await executeUpdateOnce(
    handle,
    declineSaleUpdate,
    [{ actorRetailerId: SELLER, reason: 14 }],
    60_000,
  );
  expect(answer).not.toBe("timeout");
  await handle.result();
}

/** The build of every completed workflow task of a history ("" = a worker without versioning), and failures. */
async function tasksOf(
  handle: Order,
): Promise<{ builds: string[]; failedTasks: number; whyFailed: string }> {
  const history = await handle.fetchHistory();
  const events = history.events ?? [];
  return {
    builds: events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
      .map((e) => e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? ""),
    failedTasks: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
      .length,
    // Why a task failed (its cause and message), for the assertion's message when one did.
    whyFailed: events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
      .map((e) => {
        const a = e.workflowTaskFailedEventAttributes;
        return `${handle.workflowId}: cause ${a?.cause} ${a?.failure?.message ?? ""}`;
      })
      .join("; "),
  };
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let v = await read();
  while (!ok(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    v = await read();
  }
  return v;
}

test("orders of build A finish on A, new orders run on B, the check refuses what would move and cannot replay", async () => {
  const A = { deploymentName: DEPLOYMENT, buildId: buildIdOf(bundleA.code) };
  const B = { deploymentName: DEPLOYMENT, buildId: buildIdOf(bundleB.code) };
  expect(A.buildId).not.toBe(B.buildId);

  // 1. Before versioning: an order on a worker without it.
  const unversioned = await startWorker(bundleA, null);
  const early = await openOrder(7001);

  // 2. A joins; B would take the early order over and cannot replay it: refused. A can: promoted.
  const workerA = await startWorker(bundleA, A);
  const refused = await checkReplay({
    client,
    taskQueue: TASK_QUEUE,
    target: B,
    workflowBundle: bundleB,
    dataConverter: testDataConverter,
  });
  expect(refused).toMatchObject({ promote: false, moving: 1 });
  expect(refused.failures.map((f) => f.workflowId)).toEqual([early.workflowId]);
  const passed = await checkReplay({
    client,
    taskQueue: TASK_QUEUE,
    target: A,
    workflowBundle: bundleA,
    dataConverter: testDataConverter,
  });
  expect(passed).toMatchObject({ promote: true, moving: 1, failures: [] });
  await setCurrentVersion(client, A);
  await stopWorker(unversioned); // as a deploy stops the workers without versioning once A is current
  await finish(early); // its next tasks run on A

  // 3. Orders on A; B joins and passes the check: A's orders are pinned, none would move.
  const onA = await Promise.all([7002, 7003, 7004].map(openOrder));
  expect(
    await eventually(
      () => openPinnedCount(client, A),
      (n) => n === 3,
    ),
  ).toBe(3);
  await startWorker(bundleB, B);
  const verdict = await checkReplay({
    client,
    taskQueue: TASK_QUEUE,
    target: B,
    workflowBundle: bundleB,
    dataConverter: testDataConverter,
  });
  expect(verdict).toMatchObject({
    promote: true,
    open: 3,
    moving: 0,
    pinnedElsewhere: 3,
    failures: [],
  });
  await setCurrentVersion(client, B);

  // 4. New orders run on B; A's finish on A.
  const onB = await Promise.all([7005, 7006].map(openOrder));
  await Promise.all([...onA, ...onB].map(finish));
  // The early order: its tasks before the promotion ran without versioning, every one after on A.
  const earlyTasks = await tasksOf(early);
  const firstOnA = earlyTasks.builds.indexOf(A.buildId);
  expect(earlyTasks.failedTasks, earlyTasks.whyFailed).toBe(0);
  expect(firstOnA).toBeGreaterThan(0);
  expect(new Set(earlyTasks.builds.slice(0, firstOnA))).toEqual(new Set([""]));
  expect(new Set(earlyTasks.builds.slice(firstOnA))).toEqual(new Set([A.buildId]));
  for (const h of onA) {
    const t = await tasksOf(h);
    expect(t.failedTasks, t.whyFailed).toBe(0);
    expect(new Set(t.builds)).toEqual(new Set([A.buildId]));
  }
  for (const h of onB) {
    const t = await tasksOf(h);
    expect(t.failedTasks, t.whyFailed).toBe(0);
    expect(new Set(t.builds)).toEqual(new Set([B.buildId]));
  }

  // 5. A is drained: no open order pinned to it (seen twice, a grace apart), so its worker stops.
  const firstEmptyAtMs = Date.now();
  expect(
    await eventually(
      () => openPinnedCount(client, A),
      (n) => n === 0,
    ),
  ).toBe(0);
  const decision = retireDecision({
    current: false,
    openPinned: await openPinnedCount(client, A),
    replacedAtMs: firstEmptyAtMs - 1,
    firstEmptyAtMs,
    nowMs: Date.now() + 1000,
    graceMs: 1000,
  });
  expect(decision).toBe("retire");
  await stopWorker(workerA);
  // The server may still see A's pollers for a while and refuse to forget it; a later deploy retries.
  const retired = await retireVersion(client, A);
  console.log(
    `build A ${retired ? "deleted" : "not deleted yet (its pollers were seen recently)"}`,
  );
}, 120_000);

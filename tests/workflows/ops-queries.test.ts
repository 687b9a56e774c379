/**
 * README "Ops": the operator's queries of the Temporal Web UI, run through the client's list API
 * (client.workflow.list({ query })) on a Temporal CLI dev server started as every dev server of the project
 * is (scripts/lib/temporal.mjs startTemporalDev, whose flags register the search attributes), with the real
 * workflow bundle and in-memory activities. The time-skipping test server the other files use cannot answer
 * list queries, so this file starts its own dev server (in memory, headless, a free port).
 *
 * Visibility is eventually consistent: each query is polled until it answers what is expected, up to a
 * deadline. Also here: a history recorded with the search attributes (patch marker + upserts) replays, and the
 * Web UI's Stack Trace tab (the SDK's two stack trace queries) answers in the TypeScript sources.
 */
import { Client, Connection, type Workflow, type WorkflowHandle } from "@temporalio/client";
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from "@temporalio/worker";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OrderLine } from "../../domain/order-money";
import { pollView, startTestDevServer, testDataConverter } from "../setup/temporal";
import { testWorkflowBundle } from "../setup/workflow-bundle";
import {
  BUY_WORKFLOW_TYPE,
  buyWorkflowId,
  completeCheckoutUpdate,
} from "../../workflows/buy/contract";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import { ORDER_SEARCH_ATTRIBUTES } from "../../workflows/common/search-attributes";
import { RMA_WORKFLOW_TYPE, rmaWorkflowId, type RmaInput } from "../../workflows/rma/contract";
import type { rmaWorkflow } from "../../workflows/rma/workflow";
import { SWAP_WORKFLOW_TYPE, swapWorkflowId, type SwapInput } from "../../workflows/swap/contract";
import type { swapOrderWorkflow } from "../../workflows/swap/workflow";
import { buyInput, OK_CARD, createFakeBuyActivities } from "./fakes/buy-activities";
import { useFileWorker } from "./fakes/shared-worker";

/** The retailer the operator asks about. */
const R = 12;
const LINES: OrderLine[] = [
  { listingId: 501, variationId: 9001, sizes: { M: 2 }, unitPriceCents: 4500 },
];
const TASK_QUEUE = "ops-queries";
/** How long visibility may lag behind a workflow task (it is milliseconds on an idle dev server). */
const VISIBILITY_DEADLINE_MS = 30_000;

let temporal: { address: string; stop: () => Promise<void> };
let connection: Connection;
let nativeConnection: NativeConnection;
let client: Client;
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  [temporal, bundle] = await Promise.all([
    startTestDevServer("temporal-ops"),
    testWorkflowBundle(),
  ]);
  connection = await Connection.connect({ address: temporal.address });
  nativeConnection = await NativeConnection.connect({ address: temporal.address });
  client = new Client({ connection, dataConverter: testDataConverter });
}, 120_000);

afterAll(async () => {
  await nativeConnection?.close();
  await connection?.close();
  await temporal?.stop();
});

useFileWorker(() => {
  const fake = createFakeBuyActivities();
  // An RMA's opening step writes its read model only.
  const activities = { ...fake.activities, recordRmaState: async () => ({ recorded: true }) };
  return Worker.create({
    connection: nativeConnection,
    dataConverter: testDataConverter,
    taskQueue: TASK_QUEUE,
    workflowBundle: bundle,
    activities,
  });
});

/** Starts a workflow of `type` (one input) on the file's worker. */
async function startOn<W extends Workflow>(
  type: string,
  workflowId: string,
  input: Parameters<W>[0],
): Promise<WorkflowHandle<W>> {
  const handle = await client.workflow.start(type, {
    taskQueue: TASK_QUEUE,
    workflowId,
    args: [input],
  });
  return handle as WorkflowHandle<W>;
}

const startBuy = (orderId: number, providerId: number, receiverId: number) =>
  startOn<typeof buyOrderWorkflow>(
    BUY_WORKFLOW_TYPE,
    buyWorkflowId(orderId),
    buyInput(orderId, providerId, receiverId, LINES),
  );

/** A swap waiting for its receiver's checkout (no activity runs until then). */
function startSwap(orderId: number, providerId: number, receiverId: number) {
  const input: SwapInput = {
    orderId,
    externalId: `WX-${String(orderId).padStart(6, "0")}`,
    providerId,
    receiverId,
    providerLines: LINES,
  };
  return startOn<typeof swapOrderWorkflow>(SWAP_WORKFLOW_TYPE, swapWorkflowId(orderId), input);
}

function startRma(rmaId: number, victimId: number, perpetratorId: number) {
  const input: RmaInput = {
    rmaId,
    externalId: `RMA-${String(rmaId).padStart(6, "0")}`,
    orderId: 900 + rmaId,
    kind: "sale",
    victimId,
    perpetratorId,
    order: {
      kind: "sale",
      unitsReceived: 2,
      goodsCents: 9000,
      feeCents: 900,
      shippingCents: 1975,
      totalCents: 11875,
    },
    lines: [{ lineId: 1, unitPriceCents: 4500, requestedQuantity: 1, reason: 0 }],
    victimPaymentIntentId: "pi_victim",
  };
  return startOn<typeof rmaWorkflow>(RMA_WORKFLOW_TYPE, rmaWorkflowId(rmaId), input);
}

async function listIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const w of client.workflow.list({ query })) ids.push(w.workflowId);
  return ids.sort();
}

/** Polls the list query until it answers exactly `expected` (visibility lags the workflow tasks). */
async function expectList(query: string, expected: string[]): Promise<void> {
  const want = [...expected].sort();
  const deadline = Date.now() + VISIBILITY_DEADLINE_MS;
  let got: string[] = [];
  while (Date.now() < deadline) {
    got = await listIds(query);
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(got, `list ${query}`).toEqual(want);
}

describe("README Ops: the operator's queries through the list API", () => {
  test("all swaps waiting on retailer 12; every order of retailer 12 in a state; an order by its number", async () => {
    // Swaps at checkout wait on their receiver: 12 in the first, the other side in the second.
    const waitingOn12 = await startSwap(9101, 50, R);
    const twelveProvides = await startSwap(9102, R, 51);
    // A purchase whose buyer is 12: waiting on 12 too, but not a swap.
    const buy = await startBuy(9103, 52, R);
    const rma = await startRma(9104, R, 53);

    const swapsWaitingOn12 = `OrderKind = "swap" AND WaitingOn = "${R}" AND ExecutionStatus = "Running"`;
    await expectList(swapsWaitingOn12, [waitingOn12.workflowId]);
    await expectList(`WaitingOn = "${R}"`, [waitingOn12.workflowId, buy.workflowId]);
    await expectList(
      `(ProviderRetailerId = ${R} OR ReceiverRetailerId = ${R}) AND OrderState = "complete_order_checkout"`,
      [waitingOn12.workflowId, twelveProvides.workflowId, buy.workflowId],
    );

    // The buyer checks out: the purchase moves to the seller's approval (waiting on 52), and the attributes follow.
    await buy.executeUpdate(completeCheckoutUpdate, {
      args: [{ actorRetailerId: R, paymentMethod: OK_CARD }],
    });
    const ofTwelveInApproval = `(ProviderRetailerId = ${R} OR ReceiverRetailerId = ${R}) AND OrderState = "provider_approve_sale"`;
    await expectList(ofTwelveInApproval, [buy.workflowId]);
    await expectList(`WaitingOn = "${R}"`, [waitingOn12.workflowId]);
    await expectList(`OrderKind = "buy" AND OrderStage = "pre_shipping" AND WaitingOn = "52"`, [
      buy.workflowId,
    ]);

    // By order number (an RMA's number too); RMAs waiting on staff.
    await expectList(`OrderNumber = "WX-009103"`, [buy.workflowId]);
    await expectList(`OrderNumber = "RMA-009104"`, [rma.workflowId]);
    await expectList(`OrderKind = "rma" AND WaitingOn = "staff"`, [rma.workflowId]);

    const d = await buy.describe();
    expect(d.typedSearchAttributes.get(ORDER_SEARCH_ATTRIBUTES.orderState)).toBe(
      "provider_approve_sale",
    );
    expect(d.typedSearchAttributes.get(ORDER_SEARCH_ATTRIBUTES.waitingOn)).toEqual(["52"]);
    expect(d.typedSearchAttributes.get(ORDER_SEARCH_ATTRIBUTES.receiverRetailerId)).toBe(R);

    // A history with the search attributes (upserted from the first workflow task on) replays with the current
    // code; it has no patch marker (no patched() branch is left in workflows/, ADR 0023).
    const history = await buy.fetchHistory();
    const markers =
      history.events?.filter((e) => e.markerRecordedEventAttributes?.markerName === "core_patch") ??
      [];
    expect(markers.length).toBe(0);
    expect(
      history.events?.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes).length,
    ).toBeGreaterThanOrEqual(2);
    await Worker.runReplayHistory(
      { workflowBundle: bundle, dataConverter: testDataConverter },
      history,
      buy.workflowId,
    );

    for (const h of [waitingOn12, twelveProvides, buy, rma]) await h.terminate("test done");
  });
});

describe("README Ops: the Temporal UI's stack trace of a running order", () => {
  // What an operator sees under "Stack Trace" in the Temporal UI: the SDK's two queries, answered from the promises
  // the workflow is waiting on, with source files and lines through the workflow bundle's source map.
  test("a waiting purchase answers both stack trace queries with the workflow's own source lines", async () => {
    const buy = await startBuy(9201, 54, R);
    // Waiting for the buyer's checkout: the main loop sleeps in condition() until a command or the deadline. It
    // gets there once the first workflow task (the opening write) completed: its deadline timer is then in the history.
    await pollView(
      () => buy.fetchHistory(),
      (h) => h.events?.some((e) => e.timerStartedEventAttributes) ?? false,
      "the purchase's main loop to wait (its deadline timer started)",
      (h) => `${h?.events?.length ?? 0} events, no TimerStarted`,
    );
    const formatted = await buy.query<string>("__stack_trace");
    expect(formatted).toMatch(/^ {4}at wake \(\S*\/workflows\/common\/driver\.ts:\d+:\d+\)$/m);
    expect(formatted).toMatch(/^ {4}at loop \(\S*\/workflows\/buy\/workflow\.ts:\d+:\d+\)$/m);
    expect(formatted).toMatch(
      /^ {4}at condition \(\S*\/@temporalio\/workflow\/src\/workflow\.ts:\d+:\d+\)$/m,
    );
    // No line of the bundle itself: every workflow frame is mapped back to its TypeScript source.
    expect(formatted).not.toMatch(/\.js:\d+:\d+/);
    // Asked again, the same answer.
    expect(await buy.query<string>("__stack_trace")).toBe(formatted);

    type Location = { file_path?: string; function_name?: string; line?: number; column?: number };
    const enhanced = await buy.query<{
      sdk: { name: string };
      stacks: { locations: Location[] }[];
    }>("__enhanced_stack_trace");
    expect(enhanced.sdk.name).toBe("typescript");
    // One stack per waiting promise, as in the formatted answer (stacks there are separated by a blank line).
    expect(enhanced.stacks.length).toBe(formatted.split("\n\n").length);
    const locations = enhanced.stacks.flatMap((s) => s.locations);
    const wake = locations.find((l) => l.function_name === "wake");
    expect(wake?.file_path).toMatch(/\/workflows\/common\/driver\.ts$/);
    expect(wake?.line).toBeGreaterThan(0);
    expect(
      locations.some(
        (l) =>
          l.function_name === "loop" && /\/workflows\/buy\/workflow\.ts$/.test(l.file_path ?? ""),
      ),
    ).toBe(true);
    await buy.terminate("test done");
  });
});

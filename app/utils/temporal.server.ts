/**
 * One Temporal client per process (kept on globalThis across dev rebuilds). Routes start workflows by
 * type name with type-only imports, so the web bundle never contains workflow or worker code.
 *
 * A retailer's or staff's command on an order (a purchase, a swap or an RMA) is one call, whatever the kind:
 *
 *   const out = await sendOrderCommand("buy", order, approveSaleUpdate, { actorRetailerId, confirmDeclineOthers });
 *   if (!out.ok) return data({ error: out.message }, { status: out.status });
 */
import { randomUUID } from "node:crypto";
import {
  Client,
  Connection,
  ServiceError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Workflow,
  type WorkflowHandle,
  type WorkflowStartOptions,
} from "@temporalio/client";
import type { UpdateDefinition } from "@temporalio/common";
import { orderStateMark } from "../../db/queries/orders";
import { ORDER_UNAVAILABLE_MESSAGE } from "../../domain/messages";
import { buyCommandError, buyWorkflowId, type BuyErrorCode } from "../../workflows/buy/contract";
import type { RefusalDetails } from "../../workflows/common/driver";
import { rmaCommandError, rmaWorkflowId, type RmaErrorCode } from "../../workflows/rma/contract";
import {
  swapCommandError,
  swapWorkflowId,
  type SwapErrorCode,
} from "../../workflows/swap/contract";
import { dataConverterOf, temporalTlsOf } from "../../temporal/connection";
import { db } from "./db.server";
import { getEnv } from "./env.server";
import { requestIdInterceptor } from "./request-id.server";

declare global {
  // eslint-disable-next-line no-var
  var __temporalClient: Promise<Client> | undefined;
}

/** Temporal cannot be reached: pages answer 503 with a plain message, never a stack trace. */
export class TemporalUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("Temporal is unavailable", { cause });
    this.name = "TemporalUnavailableError";
  }
}

export function getTemporalClient(): Promise<Client> {
  if (!globalThis.__temporalClient) {
    const env = getEnv();
    const pending = Connection.connect({
      address: env.TEMPORAL_ADDRESS,
      tls: temporalTlsOf(env),
      connectTimeout: "5s",
    }).then(
      (connection) =>
        new Client({
          connection,
          namespace: env.TEMPORAL_NAMESPACE,
          // Every payload sealed with the payload keys (temporal/codec.ts, ADR 0040), unless PAYLOAD_CODEC=off
          // (benchmarks only, refused in production).
          dataConverter: dataConverterOf(env),
          // The web request's id goes with every start, signal and update (app/utils/request-id.server.ts).
          interceptors: { workflow: [requestIdInterceptor()] },
        }),
    );
    globalThis.__temporalClient = pending;
    // A failed connect is not cached: the next request tries again.
    pending.catch(() => {
      if (globalThis.__temporalClient === pending) globalThis.__temporalClient = undefined;
    });
  }
  return globalThis.__temporalClient.catch((err) => {
    throw new TemporalUnavailableError(err);
  });
}

/** gRPC status codes that mean "the server is not there (now)". */
const UNAVAILABLE_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */]);

/** The gRPC status code behind a client ServiceError (undefined for any other error, or when none came with it). */
function grpcCodeOf(err: unknown): number | undefined {
  return err instanceof ServiceError
    ? (err.cause as { code?: number } | undefined)?.code
    : undefined;
}

export function isTemporalUnavailable(err: unknown): boolean {
  if (err instanceof TemporalUnavailableError) return true;
  if (err instanceof ServiceError) {
    const code = grpcCodeOf(err);
    return code === undefined || UNAVAILABLE_CODES.has(code);
  }
  return false;
}

/**
 * Starts a workflow by type name on the app's task queue under a derived id, rejecting a second start of the
 * same id; a repeated submission (same id) gets the running or finished workflow's handle instead.
 */
export async function startWorkflowOnce<T extends Workflow>(
  client: Client,
  workflowType: string,
  workflowId: string,
  args: Parameters<T>,
): Promise<WorkflowHandle<T>> {
  try {
    return await client.workflow.start<T>(workflowType, {
      taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
      workflowId,
      workflowIdReusePolicy: "REJECT_DUPLICATE",
      args,
    } as unknown as WorkflowStartOptions<T>);
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      return client.workflow.getHandle<T>(workflowId);
    throw err;
  }
}

/** How long a click waits before sending its update again while the order service cannot be reached. */
const UPDATE_RETRY_MS = 1_000;

/** How a click's update is sent (executeUpdateOnce). */
export interface UpdateOptions {
  /** The click's update id when an earlier call (an update-with-start) already sent it. */
  updateId?: string;
  /**
   * The order's read-model write sequence now (orders.record_seq; null when there is no row). A refusal made by
   * a workflow behind it is sent again: see below.
   */
  readModelSeq?: () => Promise<number | null>;
}

/**
 * One click's update: sent and awaited at most `timeoutMs` ("timeout" past it). It carries one update id for
 * the whole click, so the server runs it once however often it is sent; while the order service cannot be
 * reached (Temporal restarting, or no worker answering: one was just replaced) or cannot admit it yet (the
 * workflow task carrying it failed: isUpdateRetryable), it is sent again every second until the deadline
 * instead of failing the click at once.
 *
 * A refusal (the update's validator) is thrown as is, unless the workflow refused while behind the order's
 * read model (`readModelSeq`): a step's read-model write (a local activity) can land before its workflow task
 * completes, and when the worker dies in between, the page shows the new state for up to a workflow-task
 * timeout before the workflow redoes the step. Such a refusal is sent again every second, under a new id (a
 * refused update did nothing), until the workflow has caught up and answers for itself, or the deadline.
 */
export async function executeUpdateOnce<Ret, Args extends [unknown, ...unknown[]]>(
  handle: WorkflowHandle,
  def: UpdateDefinition<Ret, Args>,
  args: Args,
  timeoutMs: number,
  opts: UpdateOptions = {},
): Promise<Ret | "timeout"> {
  const deadline = Date.now() + timeoutMs;
  let updateId = opts.updateId ?? randomUUID();
  for (;;) {
    try {
      return await withTimeout(
        handle.executeUpdate(def, { args, updateId }),
        Math.max(0, deadline - Date.now()),
      );
    } catch (err) {
      if (Date.now() + UPDATE_RETRY_MS >= deadline) throw err;
      if (!isUpdateRetryable(err)) {
        if (!(await refusedBehindReadModel(err, opts.readModelSeq))) throw err;
        updateId = randomUUID();
      }
      await new Promise((r) => setTimeout(r, UPDATE_RETRY_MS));
    }
  }
}

/** The error is a refusal made at a write sequence below the read model's (see executeUpdateOnce). */
async function refusedBehindReadModel(
  err: unknown,
  readModelSeq: UpdateOptions["readModelSeq"],
): Promise<boolean> {
  const at = refusedAtSeq(err);
  if (at === null || !readModelSeq) return false;
  // The read model cannot be read: show the refusal (the page's next load tells where the order stands).
  const seen = await readModelSeq().catch(() => null);
  return seen !== null && at < seen;
}

/**
 * gRPC FAILED_PRECONDITION on an update call: the server could not admit the update yet, e.g. "Unable to perform
 * workflow execution update due to unexpected workflow task failure" (the workflow task carrying it failed or
 * timed out, the update was never accepted, and the server asks the caller to send it again; seen when a worker's
 * task timed out mid-step). A refusal by the workflow is a WorkflowUpdateFailedError instead, never this.
 */
const UPDATE_NOT_ADMITTED_CODE = 9;

/**
 * An update that failed for want of the order service, or that the server could not admit yet (not refused by
 * the workflow): sending it again, under the same update id, may work and runs it at most once.
 */
export function isUpdateRetryable(err: unknown): boolean {
  if (grpcCodeOf(err) === UPDATE_NOT_ADMITTED_CODE) return true;
  return isTemporalUnavailable(err) || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError;
}

/** The promise's value, or "timeout" when it takes longer than `ms` (the promise is left to settle alone). */
export async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The workflow's write sequence when it refused a command (the refusal's RefusalDetails,
 * workflows/common/driver.ts), from what the Temporal client threw; null when the error is no such refusal.
 */
export function refusedAtSeq(err: unknown): number | null {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const details = (e as { details?: unknown }).details;
    if (Array.isArray(details) && details.length > 0) {
      const seq = (details[0] as Partial<RefusalDetails> | null)?.recordSeq;
      return typeof seq === "number" && Number.isInteger(seq) ? seq : null;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Commands on an order's workflow.

/** How long a page waits for a command to finish (an approval runs payment and carrier activities). */
export const COMMAND_TIMEOUT_MS = 30_000;

export const ORDER_TIMEOUT_MESSAGE =
  "This is taking longer than usual. Refresh the page in a moment to see where your order stands.";

/** The kinds of order process a page sends commands to (docs/product/orders.md). */
export type OrderKind = "buy" | "swap" | "rma";

export type OrderCommandErrorCode = BuyErrorCode | SwapErrorCode | RmaErrorCode;

/** What one command came to: the workflow's answer, or a refusal / outage as a message with its HTTP status. */
export type CommandOutcome<R> =
  | { ok: true; result: R }
  | {
      ok: false;
      status: number;
      code: OrderCommandErrorCode | "unavailable" | "timeout";
      message: string;
    };

/** An order as the pages know it: its id and, from the read model, its workflow id. */
export type OrderRef = { id: number; workflowId?: string | null };

/** Per kind: the workflow id of an order without one in the read model, how a refusal reads, the timeout's text. */
const ORDER_KINDS: Record<
  OrderKind,
  {
    workflowId: (id: number) => string;
    refusal: (err: unknown) => { code: OrderCommandErrorCode; message: string } | null;
    timeoutMessage: string;
  }
> = {
  buy: {
    workflowId: buyWorkflowId,
    refusal: buyCommandError,
    timeoutMessage: ORDER_TIMEOUT_MESSAGE,
  },
  swap: {
    workflowId: swapWorkflowId,
    refusal: swapCommandError,
    timeoutMessage: ORDER_TIMEOUT_MESSAGE,
  },
  rma: {
    workflowId: rmaWorkflowId,
    refusal: rmaCommandError,
    timeoutMessage: "This is taking longer than usual. Refresh the page in a moment.",
  },
};

/**
 * HTTP status of a refused command, whatever the kind (their error codes share names): all 4xx (the caller or
 * the order's state is at fault, never a 500).
 */
export function commandErrorStatus(code: OrderCommandErrorCode): number {
  switch (code) {
    case "wrong_party":
      return 403;
    case "wrong_state":
    case "units_unavailable":
    case "payment_failed":
    case "rating_closed":
    case "already_rated":
    case "already_received":
      return 409;
    case "card_declined":
      return 402;
    default:
      return 400;
  }
}

/** A refused command's outcome from what the Temporal client threw, or null for a real failure. */
export function commandFailure(
  err: unknown,
  kind: OrderKind = "buy",
): Extract<CommandOutcome<never>, { ok: false }> | null {
  const e = ORDER_KINDS[kind].refusal(err);
  if (e) return { ok: false, status: commandErrorStatus(e.code), code: e.code, message: e.message };
  if (isTemporalUnavailable(err))
    return { ok: false, status: 503, code: "unavailable", message: ORDER_UNAVAILABLE_MESSAGE };
  return null;
}

/** The order's (or RMA's) read-model write sequence, as executeUpdateOnce compares a refusal's with it. */
function readModelSeqOf(orderId: number): () => Promise<number | null> {
  return async () => (await orderStateMark(db, orderId))?.seq ?? null;
}

/**
 * Sends one command (an update) to the order's workflow of `kind` and waits up to `timeoutMs` for its answer
 * (executeUpdateOnce: sent again while no worker answers, or while the workflow refuses it from behind the
 * order's read model). A refusal comes back as its message with a 4xx; an outage or a timeout as a 503.
 */
export async function sendOrderCommand<R, A>(
  kind: OrderKind,
  order: OrderRef,
  def: UpdateDefinition<R, [A]>,
  arg: A,
  timeoutMs = COMMAND_TIMEOUT_MS,
): Promise<CommandOutcome<R>> {
  const k = ORDER_KINDS[kind];
  try {
    const client = await getTemporalClient();
    const handle = client.workflow.getHandle(order.workflowId || k.workflowId(order.id));
    const result = await executeUpdateOnce(handle, def, [arg], timeoutMs, {
      readModelSeq: readModelSeqOf(order.id),
    });
    if (result === "timeout")
      return { ok: false, status: 503, code: "timeout", message: k.timeoutMessage };
    return { ok: true, result };
  } catch (err) {
    const failure = commandFailure(err, kind);
    if (failure) return failure;
    console.error(`[${kind}] command ${def.name} on order ${order.id} failed`, err);
    return { ok: false, status: 503, code: "unavailable", message: ORDER_UNAVAILABLE_MESSAGE };
  }
}

/**
 * Helpers of the reliability tests (tests/e2e/reliability.test.ts) on the real Temporal dev server:
 * a worker PROCESS of our own (`node --import tsx workers/main.ts` on a unique task queue) that can be
 * SIGKILLed and started again; buy orders started on that queue from draft orders (as checkout starts
 * them); Postgres row locks that hold a payment activity at a chosen point, and the backends waiting on
 * them; what the workflow's history says about activity attempts.
 *
 * The env is the e2e suite's (scripts/test.mjs): DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE;
 * the worker inherits it with TEMPORAL_TASK_QUEUE replaced. A web process of our own (workers/web.mjs), to kill
 * between two of its steps, with its Temporal connection through a proxy that can hold it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client, WorkflowHandle } from "@temporalio/client";
import type postgres from "postgres";
import { createActivities } from "../../activities";
import { createOutboxMailer } from "../../activities/mail";
import { SandboxPayments } from "../../activities/payments/sandbox";
import type { Db } from "../../db/client";
import { orderQuote, type OrderLine } from "../../domain/order-money";
import {
  BUY_WORKFLOW_TYPE,
  buyOrderInputFromDraft,
  orderViewQuery,
  type BuyOrderView,
} from "../../workflows/buy/contract";
import type { buyOrderWorkflow } from "../../workflows/buy/workflow";
import { createDraftOrder } from "../db/buy-fixtures";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type BuyHandle = WorkflowHandle<typeof buyOrderWorkflow>;

/**
 * The workflow-task timeout of the processes the kill tests start (Temporal's default is 10 s, which the app
 * keeps). A SIGKILLed worker's task in flight is given to the new worker only when it times out, so each kill
 * waited 10 s; at 5 s the wait is about the new worker's start-up. What is tested does not depend on the
 * value: the task times out with its worker and is replayed; a call slower than the timeout on a LIVE worker
 * is not (KILL_TEST_SLOW_CALL_MS).
 */
export const KILL_TEST_TASK_TIMEOUT_MS = 5_000;
/** How long the kill test holds a provider call on the live worker: longer than the task's timeout. */
export const KILL_TEST_SLOW_CALL_MS = KILL_TEST_TASK_TIMEOUT_MS + 2_500;

export function uniqueQueue(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The worker process.

/** workers/main.ts as its own process on `queue`; kill() is SIGKILL (no drain, no goodbye). */
export class WorkerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private lines: string[] = [];
  /** How many times it was started, and the start-up times (ms). */
  readonly startMs: number[] = [];
  kills = 0;

  constructor(readonly queue: string) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the worker and resolves once it is polling its task queue. */
  async start(timeoutMs = 90_000): Promise<void> {
    if (this.child) throw new Error("worker already running");
    const t0 = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", path.join("workers", "main.ts")], {
      cwd: ROOT,
      // NODE_ENV=production as the suite's own worker (scripts/test.mjs): it loads the workflow bundle the suite
      // built instead of compiling the workflows at every restart (~4 s of webpack each).
      env: {
        ...process.env,
        NODE_ENV: "production",
        TEMPORAL_TASK_QUEUE: this.queue,
        FORCE_COLOR: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    // Never outlive the test process (a crashed run must not leave a worker polling).
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    child.once("exit", () => process.removeListener("exit", killOnExit));
    let ready!: () => void;
    let failed!: (e: Error) => void;
    const readyP = new Promise<void>((res, rej) => {
      ready = res;
      failed = rej;
    });
    const onData = (buf: Buffer) => {
      for (const line of buf.toString("utf8").split("\n")) {
        if (!line.trim()) continue;
        this.lines.push(`[${child.pid}] ${line}`);
        if (this.lines.length > 400) this.lines.shift();
        if (line.includes("[worker] task queue")) ready();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    this.exited = new Promise<void>((res) => {
      child.once("exit", (code, signal) => {
        this.lines.push(`[${child.pid}] exited (${code ?? signal})`);
        if (this.child === child) this.child = null;
        failed(new Error(`worker exited before it was ready (${code ?? signal}):\n${this.logs()}`));
        res();
      });
    });
    const timer = setTimeout(
      () => failed(new Error(`worker not ready after ${timeoutMs} ms:\n${this.logs()}`)),
      timeoutMs,
    );
    try {
      await readyP;
    } finally {
      clearTimeout(timer);
    }
    this.startMs.push(Date.now() - t0);
  }

  /** SIGKILL: the process dies wherever it is (activities in flight, open DB transactions, sticky cache). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.kills += 1;
    this.lines.push(`[${child.pid}] SIGKILL`);
    child.kill("SIGKILL");
    await this.exited;
  }

  /** SIGTERM: the worker drains and exits (SIGKILL after 15 s). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  logs(): string {
    return this.lines.slice(-80).join("\n");
  }
}

// ---------------------------------------------------------------------------------------------------------
// Orders on our queue.

const realActivities = (db: Db) =>
  createActivities({
    db,
    payments: new SandboxPayments(db),
    mail: createOutboxMailer(db),
    env: { APP_ORIGIN: "http://localhost:3100" },
  });

/** A seller's card on file, saved through the real activity (sandbox provider, payment_methods row). */
export async function saveSellerCard(db: Db, retailerId: number): Promise<void> {
  const acts = realActivities(db);
  const r = await acts.saveCardOnFile({
    idempotencyKey: `reliability:seller-card:${retailerId}`,
    retailerId,
    paymentMethod: {
      paymentMethodId: "tok_mastercard",
      lastFour: "4444",
      description: "Mastercard",
    },
  });
  if (r.status !== "saved")
    throw new Error(`could not save the seller's card: ${JSON.stringify(r)}`);
}

/**
 * A draft order as checkout writes it, and its buy workflow started on `queue` with the input checkout gives
 * it (buyOrderInputFromDraft, REJECT_DUPLICATE): the app starts it the same way on TEMPORAL_TASK_QUEUE.
 */
export async function startBuyOrder(
  client: Client,
  db: Db,
  queue: string,
  o: {
    providerId: number;
    receiverId: number;
    brandId: number;
    lines: (OrderLine & { variationId: number })[];
  },
  opts: { workflowTaskTimeoutMs?: number } = {},
): Promise<{
  orderId: number;
  workflowId: string;
  handle: BuyHandle;
  quote: ReturnType<typeof orderQuote>;
}> {
  const quote = orderQuote(o.lines);
  const draft = await createDraftOrder(db, {
    providerId: o.providerId,
    receiverId: o.receiverId,
    brandId: o.brandId,
    lines: o.lines,
  });
  const input = buyOrderInputFromDraft({
    orderId: draft.orderId,
    workflowId: draft.workflowId,
    externalId: draft.externalId,
    receiverId: o.receiverId,
    providerId: o.providerId,
    requestId: null,
    goodsCents: quote.goodsCents,
    feeCents: quote.feeCents,
    shippingCents: quote.shippingCents,
    totalCents: quote.totalCents,
    units: o.lines.map((l) => ({
      listingId: l.listingId,
      variationId: l.variationId,
      sizes: l.sizes,
      unitPriceCents: l.unitPriceCents,
    })),
  });
  const handle = await client.workflow.start<typeof buyOrderWorkflow>(BUY_WORKFLOW_TYPE, {
    taskQueue: queue,
    workflowId: draft.workflowId,
    workflowIdReusePolicy: "REJECT_DUPLICATE",
    ...(opts.workflowTaskTimeoutMs ? { workflowTaskTimeout: opts.workflowTaskTimeoutMs } : {}),
    args: [input],
  });
  return { orderId: draft.orderId, workflowId: draft.workflowId, handle, quote };
}

/**
 * A purchase as checkout and Approve Sale leave it at the provider: a draft order whose total the buyer's test
 * card paid, authorised and captured by the real activities (an RMA refunds the victim on this payment).
 */
export async function paidPurchase(
  db: Db,
  o: {
    providerId: number;
    receiverId: number;
    brandId: number;
    lines: (OrderLine & { variationId: number })[];
  },
): Promise<{ orderId: number; workflowId: string; paymentIntentId: string; totalCents: number }> {
  const acts = realActivities(db);
  const { totalCents } = orderQuote(o.lines);
  const draft = await createDraftOrder(db, {
    providerId: o.providerId,
    receiverId: o.receiverId,
    brandId: o.brandId,
    lines: o.lines,
  });
  const auth = await acts.authorizePayment({
    idempotencyKey: `${draft.workflowId}:authorize:1`,
    orderId: draft.orderId,
    retailerId: o.receiverId,
    paymentMethod: { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" },
    amountCents: totalCents,
    description: "purchase",
  });
  if (auth.status !== "authorized")
    throw new Error(`the test card was declined: ${JSON.stringify(auth)}`);
  await acts.capturePayment({
    idempotencyKey: `${draft.workflowId}:capture:1`,
    orderId: draft.orderId,
    paymentIntentId: auth.paymentIntentId,
    amountCents: totalCents,
    authorizedCents: totalCents,
  });
  return {
    orderId: draft.orderId,
    workflowId: draft.workflowId,
    paymentIntentId: auth.paymentIntentId,
    totalCents,
  };
}

/** Polls the order's view until `pred` holds (and no step is running). */
export async function waitForView(
  handle: BuyHandle,
  pred: (v: BuyOrderView) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<BuyOrderView> {
  const deadline = Date.now() + timeoutMs;
  let last: BuyOrderView | undefined;
  let lastErr: unknown;
  for (;;) {
    try {
      last = await handle.query(orderViewQuery);
      if (!last.busy && pred(last)) return last;
    } catch (err) {
      lastErr = err; // no worker for a moment (it was just killed): the query waits for the next one
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}; state ${last?.statename ?? "?"} busy ${String(last?.busy)}${lastErr ? `; last error ${String(lastErr)}` : ""}`,
      );
    }
    await sleep(200);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------------------------------------------------
// Holding an activity at a chosen point with a row lock.

export interface HeldLock {
  /** The database backend holding the lock (what the waiters are blocked by). */
  pid: number;
  release(): Promise<void>;
}

/**
 * Runs `query` (e.g. SELECT ... FOR UPDATE) in a transaction left open until release(): statements of
 * other sessions that need those rows wait (pg_stat_activity wait_event_type = 'Lock').
 */
export async function holdLock(
  sql: postgres.Sql,
  query: string,
  params: (string | number)[],
): Promise<HeldLock> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: (held: { n: number; pid: number }) => void;
  const lockedP = new Promise<{ n: number; pid: number }>((r) => (locked = r));
  const done = sql.begin(async (tx) => {
    const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const rows = await tx.unsafe(query, params);
    locked({ n: rows.length, pid: Number(pid) });
    await released;
  });
  const { n, pid } = await Promise.race([lockedP, done.then(() => ({ n: -1, pid: 0 }))]);
  if (n <= 0) throw new Error(`holdLock: ${query} locked no row`);
  return {
    pid,
    async release() {
      release();
      await done;
    },
  };
}

/**
 * Backends of this database waiting for `lock` while running a statement that matches `like` (ILIKE). Only
 * that lock's waiters: the kill tests run at the same time, each with its own locks.
 */
export async function lockWaiters(
  sql: postgres.Sql,
  like: string,
  lock: HeldLock,
): Promise<number[]> {
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and query ilike ${like}
      and ${lock.pid}::int = any(pg_blocking_pids(pid))`;
  return rows.map((r) => Number(r.pid));
}

/** Ends backends (a killed worker's connections that Postgres has not noticed yet). */
export async function terminateBackends(sql: postgres.Sql, pids: number[]): Promise<void> {
  for (const pid of pids) await sql`select pg_terminate_backend(${pid}::int)`;
}

// ---------------------------------------------------------------------------------------------------------
// Temporal: the workflow task in flight and the history.

export interface ActivityRecord {
  type: string;
  /** ActivityTaskStarted.attempt: the attempt that completed (1 = first try). */
  attempt: number;
  /** The failure of the attempt before (a heartbeat / start-to-close timeout when its worker died). */
  lastFailure: string | null;
  completed: boolean;
}

/** Every activity the workflow scheduled, in order, with the attempt that completed it. */
export async function activityRecords(handle: WorkflowHandle): Promise<ActivityRecord[]> {
  const history = await handle.fetchHistory();
  const byScheduled = new Map<string, ActivityRecord>();
  for (const e of history.events ?? []) {
    const id = String(e.eventId);
    if (e.activityTaskScheduledEventAttributes) {
      byScheduled.set(id, {
        type: e.activityTaskScheduledEventAttributes.activityType?.name ?? "?",
        attempt: 0,
        lastFailure: null,
        completed: false,
      });
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const rec = byScheduled.get(String(started.scheduledEventId));
      if (rec) {
        rec.attempt = Number(started.attempt ?? 1);
        const f = started.lastFailure;
        if (f) {
          const timeout = f.timeoutFailureInfo?.timeoutType;
          rec.lastFailure =
            timeout !== undefined && timeout !== null
              ? `timeout:${String(timeout)}`
              : (f.message ?? "failure");
        }
      }
    }
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) {
      const rec = byScheduled.get(String(completed.scheduledEventId));
      if (rec) rec.completed = true;
    }
  }
  return [...byScheduled.values()];
}

/** The workflow task in flight (describe's pendingWorkflowTask; state 2 = STARTED), or null. */
export async function pendingWorkflowTask(
  handle: WorkflowHandle,
): Promise<{ state: number; attempt: number } | null> {
  const p = (await handle.describe()).raw.pendingWorkflowTask;
  return p ? { state: Number(p.state ?? 0), attempt: Number(p.attempt ?? 0) } : null;
}

/** The type of every local activity the workflow recorded (its core_local_activity markers), in order. */
export async function localActivityTypes(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  const out: string[] = [];
  for (const e of history.events ?? []) {
    const m = e.markerRecordedEventAttributes;
    const data =
      m?.markerName === "core_local_activity" ? m.details?.data?.payloads?.[0]?.data : undefined;
    if (!data) continue;
    out.push(
      (JSON.parse(Buffer.from(data).toString("utf8")) as { activity_type: string }).activity_type,
    );
  }
  return out;
}

/** How many of the workflow's tasks timed out (a worker died while holding one). */
export async function workflowTaskTimeouts(handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowTaskTimedOutEventAttributes).length;
}

// ---------------------------------------------------------------------------------------------------------
// The web process, and a Temporal connection that can be held.

/**
 * workers/web.mjs as its own process on `port` (the suite's environment: its database, build and secrets, with
 * `env` over it); kill() is SIGKILL, wherever the process is.
 */
export class WebProcess {
  private child: ChildProcess | null = null;
  private lines: string[] = [];
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, [path.join("workers", "web.mjs")], {
      cwd: ROOT,
      env: { ...process.env, METRICS_PORT: "", ...this.env, PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    child.once("exit", () => process.removeListener("exit", killOnExit));
    const keep = (buf: Buffer) => this.lines.push(...buf.toString("utf8").split("\n").slice(0, 40));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`web exited:\n${this.output()}`);
      const up = await fetch(`http://127.0.0.1:${this.port}/signin`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) return;
      if (Date.now() > deadline) throw new Error(`web not up:\n${this.output()}`);
      await sleep(250);
    }
  }

  output(): string {
    return this.lines.join("\n");
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }
}

/** A TCP proxy to `target` (host:port) that, once held, forwards nothing more from its clients. */
export async function holdingProxy(target: string): Promise<{
  address: string;
  hold(): void;
  /** Bytes a client sent while held (what did not reach the target). */
  heldBytes(): number;
  close(): Promise<void>;
}> {
  const [host, port] = target.split(":");
  let held = false;
  let heldBytes = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), host);
    sockets.add(client).add(upstream);
    client.on("data", (d: Buffer) => {
      if (held) heldBytes += d.length;
      else upstream.write(d);
    });
    upstream.on("data", (d: Buffer) => client.write(d));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    hold: () => (held = true),
    heldBytes: () => heldBytes,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.race([new Promise((r) => server.close(r)), sleep(2_000)]);
    },
  };
}

/** A TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * The worker process (`npm run worker`, entered through workers/main.ts, which checks the environment first): runs every workflow and activity on TEMPORAL_TASK_QUEUE.
 * Development compiles workflows/index.ts at start; production (NODE_ENV=production) loads the prebuilt
 * build/workflow-bundle.js when it exists and is newer than the workflow sources. Ctrl-C / SIGTERM: the SDK's Runtime catches the signal, the
 * worker drains and run() returns; then the database pool is closed.
 *
 * Signals (docs/operations.md): METRICS_PORT serves the Temporal SDK runtime's Prometheus metrics
 * (127.0.0.1:<port>/metrics), HEALTH_PORT the worker's /healthz and /readyz (workers/worker-health.ts);
 * LOG_FORMAT=json writes the SDK's log (activities' lines with the web request id that caused them) as JSON lines.
 *
 * Worker Versioning (docs/decisions/0046-worker-versioning.md): with WORKER_BUILD_ID or WORKER_DEPLOYMENT_NAME
 * set the worker joins the deployment WORKER_DEPLOYMENT_NAME (default "marketplace") as build WORKER_BUILD_ID
 * (default: its bundle's hash), and every workflow it runs is pinned to it (each order finishes on the build it
 * started on); WORKFLOW_BUNDLE_PATH names the build's bundle (an older build's kept bundle, used as it is).
 * Without either (npm run dev, the tests) the worker is unversioned, as before.
 */
import fs from "node:fs";
import path from "node:path";
import { Client } from "@temporalio/client";
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type LogEntry,
} from "@temporalio/worker";
import { createActivities } from "../activities";
import { createOutboxMailer } from "../activities/mail";
import { createSmtpSender, smtpHostOf } from "../activities/mail/smtp";
import { createPayments } from "../activities/payments";
import type { Env } from "../domain/env";
import { say } from "./worker-log";
import { createDb } from "../db/client";
import { queueDueMatchDigests } from "../db/queries/matches";
import { dataConverterOf, temporalTlsOf } from "../temporal/connection";
import { activityLogging } from "./activity-logging";
import { DEFAULT_BUNDLE_PATH, ROOT, WORKFLOWS_PATH, WORKFLOW_INTERCEPTOR_MODULES } from "./bundle";
import { buildIdOf, deploymentVersionOf } from "./deploy-decisions";
import { startOrJoin } from "../temporal/start-or-join";
import { heldRetryStart } from "../workflows/held-payments/contract";
import { createHeldPaymentsRelay } from "./held-payments-relay";
import { ensureSchedules } from "./schedules";
import { createWebhookRelay } from "./webhook-relay";
import { serveWorkerHealth } from "./worker-health";

/** How often the worker queues the daily match e-mails that are due (the match itself only records them). */
const MATCH_DIGEST_SWEEP_MS = 60_000;

/** The worker's own lines: JSON with LOG_FORMAT=json (as the SDK's), else "[worker] ..." text. */
/** JSON lines for the SDK's logger (bigint values as strings). */
function jsonLogLine(entry: LogEntry): void {
  const line = {
    time: new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString(),
    level: entry.level.toLowerCase(),
    msg: entry.message,
    ...entry.meta,
  };
  process.stdout.write(
    JSON.stringify(line, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) + "\n",
  );
}

/** The SDK runtime (once, before any connection): Prometheus metrics on METRICS_PORT, JSON logs with LOG_FORMAT=json. */
function installRuntime(): void {
  const metricsPort = process.env.METRICS_PORT;
  if (!metricsPort && process.env.LOG_FORMAT !== "json") return;
  Runtime.install({
    ...(process.env.LOG_FORMAT === "json"
      ? { logger: new DefaultLogger("INFO", jsonLogLine) }
      : {}),
    ...(metricsPort
      ? {
          telemetryOptions: {
            metrics: {
              prometheus: {
                bindAddress: `${process.env.METRICS_HOST || "127.0.0.1"}:${metricsPort}`,
              },
            },
          },
        }
      : {}),
  });
}

export async function main(env: Env): Promise<void> {
  installRuntime();
  const health = process.env.HEALTH_PORT
    ? serveWorkerHealth(Number(process.env.HEALTH_PORT))
    : null;
  const dbHandle = createDb(env.DATABASE_URL, { max: 5 });
  const payments = createPayments(env, dbHandle.db);
  const activities = createActivities({
    db: dbHandle.db,
    payments,
    mail: createOutboxMailer(dbHandle.db),
    env,
  });
  // With SMTP_URL the worker also delivers the outbox (every process writes e-mails there first), unless the
  // operator holds it (OUTBOX_PAUSED, docs/operations.md "Backups and restore").
  const outboxPaused = env.OUTBOX_PAUSED === "true" || env.OUTBOX_PAUSED === "1";
  const mailSender =
    env.SMTP_URL && !outboxPaused
      ? createSmtpSender({ db: dbHandle.db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM })
      : null;

  const connection = await connectWithRetry(env);
  const bundlePath = process.env.WORKFLOW_BUNDLE_PATH || null;
  if (bundlePath && !fs.existsSync(bundlePath))
    throw new Error(`WORKFLOW_BUNDLE_PATH ${bundlePath} does not exist`);
  const useBundle =
    Boolean(bundlePath) || (env.NODE_ENV === "production" && bundleIsFresh(DEFAULT_BUNDLE_PATH));
  const version = deploymentVersionOf(process.env, () =>
    useBundle ? buildIdOf(fs.readFileSync(bundlePath ?? DEFAULT_BUNDLE_PATH)) : null,
  );
  const worker = await Worker.create({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    ...(useBundle
      ? { workflowBundle: { codePath: bundlePath ?? DEFAULT_BUNDLE_PATH } }
      : { workflowsPath: WORKFLOWS_PATH }),
    ...(version
      ? {
          workerDeploymentOptions: {
            version,
            useWorkerVersioning: true,
            defaultVersioningBehavior: "PINNED",
          },
        }
      : {}),
    activities,
    // Every payload sealed with the payload keys (temporal/codec.ts, ADR 0040); the codec runs outside the sandbox.
    // PAYLOAD_CODEC=off (benchmarks only, refused in production) leaves it out.
    dataConverter: dataConverterOf(env),
    interceptors: {
      // A prebuilt bundle holds its workflow interceptors (workers/bundle.ts); compiled from source, they are named here.
      ...(useBundle ? {} : { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }),
      activity: [
        activityLogging({
          onTask: () => health?.activityRan(),
          logRuns: process.env.LOG_FORMAT === "json",
        }),
      ],
    },
  });
  health?.setWorker(worker);
  // Stored webhook events the web process did not deliver reach their workflow (docs/decisions/0042-webhook-inbox.md).
  const client = new Client({
    connection,
    namespace: env.TEMPORAL_NAMESPACE,
    dataConverter: dataConverterOf(env),
  });
  const webhookRelay = createWebhookRelay({
    db: dbHandle.db,
    signal: (d) => client.workflow.getHandle(d.workflowId).signal(d.signalName, d.signalArg),
    log: (msg) => say("warn", `webhooks: ${msg}`),
  });
  // Held payments whose retailer has added a card or a payout account go again (ADR 0044).
  const heldRelay = createHeldPaymentsRelay({
    db: dbHandle.db,
    start: (input) =>
      startOrJoin(client, { taskQueue: env.TEMPORAL_TASK_QUEUE, ...heldRetryStart(input) }),
    log: (msg) => say("warn", `held payments: ${msg}`),
  });
  say(
    "info",
    `task queue "${env.TEMPORAL_TASK_QUEUE}" on ${env.TEMPORAL_ADDRESS} (namespace ${env.TEMPORAL_NAMESPACE}), ` +
      `payments: ${payments.provider}, workflows: ${useBundle ? "prebuilt bundle" : "compiled from source"}, ` +
      `mail: ${env.SMTP_URL ? `SMTP ${smtpHostOf(env.SMTP_URL)}${outboxPaused ? " (paused: OUTBOX_PAUSED)" : ""}` : "outbox only"}, ` +
      `versioning: ${version ? `${version.deploymentName} build ${version.buildId} (workflows pinned)` : "off"}, ` +
      `payload codec: ${env.PAYLOAD_CODEC === "off" ? "off (PAYLOAD_CODEC, benchmarks only)" : "on"}`,
  );
  mailSender?.start();
  webhookRelay.start();
  heldRelay.start();
  // Staff's daily list of held payments and the nightly reconciliation (workers/schedules.ts); a failure here
  // never stops the worker.
  ensureSchedules(client, {
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    timeZone: env.MARKETPLACE_TZ,
  }).catch((e) => say("warn", `schedules: ${e instanceof Error ? e.message : String(e)}`));
  // Matches no e-mail has listed yet get their retailer's daily e-mail (docs/decisions/0038-match-digests-from-the-workers-sweep.md).
  const matchDigests = setInterval(() => {
    queueDueMatchDigests(dbHandle.db, env.MARKETPLACE_TZ).catch((e) =>
      say("warn", `match digests: ${e instanceof Error ? e.message : String(e)}`),
    );
  }, MATCH_DIGEST_SWEEP_MS);
  matchDigests.unref();
  try {
    await worker.run();
  } finally {
    clearInterval(matchDigests);
    await webhookRelay.stop().catch(() => {});
    await heldRelay.stop().catch(() => {});
    await mailSender?.stop().catch(() => {});
    await connection.close().catch(() => {});
    await dbHandle.close().catch(() => {});
    health?.close();
    say("info", "stopped");
  }
}

/**
 * The prebuilt bundle exists and is newer than every workflow and domain source file it was built from
 * (a stale bundle would run old workflow code; then the worker compiles from source and says so).
 */
function bundleIsFresh(bundlePath: string): boolean {
  if (!fs.existsSync(bundlePath)) return false;
  const built = fs.statSync(bundlePath).mtimeMs;
  const newest = (dir: string): number => {
    let max = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) max = Math.max(max, newest(p));
      else if (entry.name.endsWith(".ts")) max = Math.max(max, fs.statSync(p).mtimeMs);
    }
    return max;
  };
  const sources = Math.max(newest(path.join(ROOT, "workflows")), newest(path.join(ROOT, "domain")));
  if (sources > built) {
    say(
      "warn",
      `${path.relative(ROOT, bundlePath)} is older than the workflow sources: compiling from source instead`,
    );
    return false;
  }
  return true;
}

/** The dev command may start the worker before Temporal answers: wait for it (up to ~60 s). */
async function connectWithRetry(env: Env): Promise<NativeConnection> {
  const address = env.TEMPORAL_ADDRESS;
  const deadline = Date.now() + 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await NativeConnection.connect({ address, tls: temporalTlsOf(env) });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      if (attempt === 1) say("info", `waiting for Temporal at ${address}...`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

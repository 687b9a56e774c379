/**
 * A worker with the REAL activities (createActivities: Postgres read model, sandbox payments, sandbox carrier,
 * outbox) on the time-skipping test server: the workflow tests' (tests/setup/real-worker.ts) and the dev
 * stack's demo year (workers/demo-year, ADR 0063). No Vitest here, so a script may start one.
 *
 * Carrier events take the real route: the sandbox carrier signs a tracker.updated event and POSTs it to its
 * APP_ORIGIN, here a small stand-in endpoint that verifies the signature, records the shipment event and
 * signals the order's workflow, as the app's /webhooks/carrier does (webhookLog lists what it accepted).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TestWorkflowEnvironment } from "@temporalio/testing";
import { Worker } from "@temporalio/worker";
import { createActivities } from "../../activities";
import { createSandboxCarrier, type SandboxCarrier } from "../../activities/carrier/sandbox";
import { verifyCarrierSignature } from "../../activities/carrier/signature";
import { createOutboxMailer } from "../../activities/mail";
import { SandboxPayments } from "../../activities/payments/sandbox";
import type { Db } from "../../db/client";
import { findShipmentByTracking, recordShipmentEvent } from "../../db/queries/shipments";
import {
  CARRIER_SIGNATURE_HEADER,
  carrierSignalOf,
  parseCarrierEvent,
} from "../../domain/carrier-events";
import { carrierEventSignal } from "../../workflows/buy/contract";
import { testWorkflowBundle } from "./workflow-bundle";
import { createTimeSkippingEnv, uniqueTaskQueue, testDataConverter } from "./temporal";

export interface RealWorker {
  env: TestWorkflowEnvironment;
  carrier: SandboxCarrier;
  taskQueue: string;
  webhookLog: { status: number; eventId: string }[];
  stop(): Promise<void>;
}

export async function startRealWorker(
  db: Db,
  opts: { secret: string; prefix: string; appOrigin?: string },
): Promise<RealWorker> {
  const webhookLog: RealWorker["webhookLog"] = [];
  let env: TestWorkflowEnvironment | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (
        !verifyCarrierSignature(
          raw,
          req.headers[CARRIER_SIGNATURE_HEADER.toLowerCase()] as string | undefined,
          opts.secret,
        )
      ) {
        res.writeHead(400).end();
        return;
      }
      const ev = parseCarrierEvent(raw);
      const target = ev ? await findShipmentByTracking(db, ev.result.tracking_code) : null;
      if (!ev || !target || !env) {
        res.writeHead(ev ? 404 : 400).end();
        return;
      }
      const signal = carrierSignalOf(ev);
      await recordShipmentEvent(db, {
        trackingNumber: signal.trackingNumber,
        providerEventId: `carrier:${ev.id}`,
        status: signal.status,
        description: signal.description,
        eventTimestamp: new Date(signal.occurredAt),
      });
      // Buy and swap workflows take the same carrierEvent signal.
      await env.client.workflow.getHandle(target.workflowId).signal(carrierEventSignal, signal);
      webhookLog.push({ status: 200, eventId: ev.id });
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const [started, bundle] = await Promise.all([createTimeSkippingEnv(), testWorkflowBundle()]);
  env = started;
  const carrier = createSandboxCarrier(db, { appOrigin: origin, webhookSecret: opts.secret });
  const activities = createActivities({
    db,
    payments: new SandboxPayments(db),
    mail: createOutboxMailer(db),
    env: {
      APP_ORIGIN: opts.appOrigin ?? "http://localhost:3100",
      CARRIER_WEBHOOK_SECRET: opts.secret,
    },
    carrier,
  });
  const taskQueue = uniqueTaskQueue(opts.prefix);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    dataConverter: testDataConverter,
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  const running = worker.run();
  return {
    env,
    carrier,
    taskQueue,
    webhookLog,
    async stop() {
      worker.shutdown();
      await running;
      await started.teardown();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

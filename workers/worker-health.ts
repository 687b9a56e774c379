/**
 * The worker's health on HEALTH_PORT (on METRICS_HOST, default loopback; docs/operations.md "Health"):
 *   GET /healthz  liveness: 200 unless the worker failed or stopped (an orchestrator restarts it on 503)
 *   GET /readyz   200 once the worker runs and neither poller failed: it takes tasks
 * Both answer JSON: the SDK's run state and pollers' states, tasks in flight, and when the last workflow task
 * and the last activity ran (ISO times, null before the first), so "polling but idle" and "stuck" differ.
 */
import http from "node:http";
import type { Worker } from "@temporalio/worker";

export interface WorkerHealth {
  setWorker(worker: Worker): void;
  activityRan(): void;
  close(): void;
}

export function serveWorkerHealth(
  port: number,
  host = process.env.METRICS_HOST || "127.0.0.1",
): WorkerHealth {
  let worker: Worker | null = null;
  let lastActivityAt: number | null = null;
  let lastWorkflowTaskAt: number | null = null;
  // The SDK does not report workflow tasks one by one: sample the activations in flight.
  const sampler = setInterval(() => {
    if (worker && worker.getStatus().numInFlightWorkflowActivations > 0)
      lastWorkflowTaskAt = Date.now();
  }, 200);
  sampler.unref();
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const report = () => {
    if (!worker) return { live: true, ready: false, runState: "STARTING" };
    const s = worker.getStatus();
    const failed = s.runState === "FAILED" || s.runState === "STOPPED";
    return {
      live: !failed,
      ready:
        s.runState === "RUNNING" &&
        s.workflowPollerState !== "FAILED" &&
        s.activityPollerState !== "FAILED",
      runState: s.runState,
      workflowPollerState: s.workflowPollerState,
      activityPollerState: s.activityPollerState,
      workflowActivationsInFlight: s.numInFlightWorkflowActivations,
      activitiesInFlight: s.numInFlightActivities,
      lastWorkflowTaskAt: iso(lastWorkflowTaskAt),
      lastActivityAt: iso(lastActivityAt),
    };
  };
  const server = http.createServer((req, res) => {
    const r = report();
    const ok = req.url === "/healthz" ? r.live : req.url === "/readyz" ? r.ready : null;
    if (ok === null) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(ok ? 200 : 503, {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
      })
      .end(JSON.stringify(r));
  });
  server.listen(port, host);
  return {
    setWorker: (w) => {
      worker = w;
    },
    activityRan: () => {
      lastActivityAt = Date.now();
    },
    close: () => {
      clearInterval(sampler);
      server.close();
    },
  };
}

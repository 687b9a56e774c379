// The signals an operator reads (docs/operations.md "Health" and "Signals"): the web process's metrics registry,
// request ids and route labels (workers/metrics.mjs, workers/observability.mjs), the readiness answer
// (app/utils/health.server.ts), and the worker's health endpoints (workers/worker-health.ts) on a real port.
import net from "node:net";
import type { Worker } from "@temporalio/worker";
import { describe, expect, test } from "vitest";
import { readinessResponse, timedCheck } from "../../app/routes/readyz.server";
import { webMetrics } from "../../workers/metrics.mjs";
import { requestIdOf, routeLabeler, serveMetrics } from "../../workers/observability.mjs";
import { serveWorkerHealth } from "../../workers/worker-health";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

describe("web metrics in the Prometheus text format", () => {
  test("counters and histograms with labels, escaped", async () => {
    const { registry, requests, duration } = webMetrics({
      buckets: [0.1, 1],
      processMetrics: false,
    });
    requests.inc({ method: "GET", route: 'routes/a"b', status: "200" });
    requests.inc({ method: "GET", route: 'routes/a"b', status: "200" });
    duration.observe({ route: "r" }, 0.05);
    duration.observe({ route: "r" }, 0.5);
    duration.observe({ route: "r" }, 3);
    expect((await registry.metrics()).split("\n").filter(Boolean)).toEqual([
      "# HELP http_requests_total HTTP requests answered, by method, route and status",
      "# TYPE http_requests_total counter",
      'http_requests_total{method="GET",route="routes/a\\"b",status="200"} 2',
      "# HELP http_request_duration_seconds Time to answer an HTTP request, by route",
      "# TYPE http_request_duration_seconds histogram",
      'http_request_duration_seconds_bucket{le="0.1",route="r"} 1',
      'http_request_duration_seconds_bucket{le="1",route="r"} 2',
      'http_request_duration_seconds_bucket{le="+Inf",route="r"} 3',
      'http_request_duration_seconds_sum{route="r"} 3.55',
      'http_request_duration_seconds_count{route="r"} 3',
      "# HELP http_server_errors_total HTTP requests answered with a 5xx, by route",
      "# TYPE http_server_errors_total counter",
    ]);
  });

  test("GET /metrics: the requests' metrics and the process's (event-loop lag, heap, GC, CPU); any other path 404", async () => {
    const port = await freePort();
    const server = serveMetrics(port, "127.0.0.1");
    try {
      await new Promise((r) => server.once("listening", r));
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const types = (await res.text()).split("\n").filter((l) => l.startsWith("# TYPE "));
      for (const t of [
        "http_requests_total counter",
        "http_request_duration_seconds histogram",
        "http_server_errors_total counter",
        "nodejs_eventloop_lag_seconds gauge",
        "nodejs_heap_size_used_bytes gauge",
        "nodejs_gc_duration_seconds histogram",
        "process_cpu_seconds_total counter",
        "process_resident_memory_bytes gauge",
      ])
        expect(types).toContain(`# TYPE ${t}`);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  test("a path is labelled by the route module that serves it (bounded), assets and liveness by name", () => {
    const label = routeLabeler({
      routes: {
        root: { id: "root", path: "" },
        "routes/_index": { id: "routes/_index", parentId: "root", index: true },
        "routes/orders.($stage)": {
          id: "routes/orders.($stage)",
          parentId: "root",
          path: "orders/:stage?",
        },
        "routes/transaction.$ttype.$id": {
          id: "routes/transaction.$ttype.$id",
          parentId: "root",
          path: "transaction/:ttype/:id",
        },
      },
    });
    expect(label("/")).toBe("routes/_index");
    expect(label("/orders/shipping")).toBe("routes/orders.($stage)");
    expect(label("/transaction/buy/41")).toBe("routes/transaction.$ttype.$id");
    expect(label("/transaction/buy/42")).toBe("routes/transaction.$ttype.$id");
    expect(label("/nowhere/at/all")).toBe("unmatched");
    expect(label("/build/_shared/chunk-X.js")).toBe("static");
    expect(label("/healthz")).toBe("healthz");
  });

  test("a load balancer's request id is kept when it is a plain token; anything else gets a new one", () => {
    expect(requestIdOf("lb-7f3a.91_x")).toBe("lb-7f3a.91_x");
    for (const bad of [undefined, "", "a b", "x".repeat(65), "<script>"])
      expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("readiness of a web process", () => {
  test("200 when every dependency answers, 503 naming the one that did not", async () => {
    const ok = await timedCheck(async () => "pong");
    const down = await timedCheck(() =>
      Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:7333\nstack")),
    );
    const slow = await timedCheck(() => new Promise((r) => setTimeout(r, 1000)), 20);
    expect(ok).toMatchObject({ ok: true });
    expect(down).toMatchObject({ ok: false, error: "connect ECONNREFUSED 127.0.0.1:7333" });
    expect(slow).toMatchObject({ ok: false, error: "no answer within 20 ms" });
    const ready = readinessResponse({ database: ok, temporal: ok });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready" });
    const notReady = readinessResponse({ database: ok, temporal: down });
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("Cache-Control")).toBe("no-store");
    expect(await notReady.json()).toMatchObject({
      status: "not ready",
      checks: { temporal: { ok: false } },
    });
  });
});

describe("the worker's health endpoints", () => {
  test("starting: live, not ready; polling: ready with the last task's time; failed: neither", async () => {
    const port = await freePort();
    const health = serveWorkerHealth(port);
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      await new Promise((r) => setTimeout(r, 50));
      expect(await get("/healthz")).toMatchObject({ status: 200, body: { runState: "STARTING" } });
      expect((await get("/readyz")).status).toBe(503);
      let status = {
        runState: "RUNNING",
        workflowPollerState: "POLLING",
        activityPollerState: "POLLING",
        numInFlightWorkflowActivations: 0,
        numInFlightActivities: 0,
      };
      health.setWorker({ getStatus: () => status } as unknown as Worker);
      health.activityRan();
      const ready = await get("/readyz");
      expect(ready.status).toBe(200);
      expect(ready.body.lastActivityAt).toEqual(expect.any(String));
      expect(ready.body.lastWorkflowTaskAt).toBeNull();
      status = { ...status, runState: "FAILED", activityPollerState: "FAILED" };
      expect((await get("/healthz")).status).toBe(503);
      expect((await get("/readyz")).status).toBe(503);
    } finally {
      health.close();
    }
  });
});

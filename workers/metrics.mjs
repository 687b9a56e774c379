/**
 * The web process's Prometheus metrics (docs/operations.md "Signals"), on prom-client: the process metrics every
 * Node exporter has (collectDefaultMetrics: CPU, memory and heap, event-loop lag, GC, handles, file descriptors)
 * and the requests', by route. The worker's metrics come from the Temporal SDK's own exporter. Used by
 * workers/observability.mjs; tested by tests/unit/observability.test.ts.
 */
import client from "prom-client";

/** prom-client's default buckets: 5 ms to 10 s. */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A registry with the process metrics and the web's three: http_requests_total{method,route,status},
 * http_request_duration_seconds{route} (a histogram) and http_server_errors_total{route} (5xx).
 */
export function webMetrics({ buckets = SECONDS, processMetrics = true } = {}) {
  const registry = new client.Registry();
  if (processMetrics) client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new client.Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route and status",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    duration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route",
      labelNames: ["route"],
      buckets,
      registers,
    }),
    errors: new client.Counter({
      name: "http_server_errors_total",
      help: "HTTP requests answered with a 5xx, by route",
      labelNames: ["route"],
      registers,
    }),
  };
}

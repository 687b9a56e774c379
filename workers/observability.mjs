/**
 * What an operator sees of a web process (workers/web.mjs): a request id per request, structured logs and
 * Prometheus metrics (docs/operations.md "Signals").
 *
 * - Request id: the caller's X-Request-Id when it is a plain token (a load balancer's), else a new UUID; sent
 *   back as X-Request-Id and kept for the request's duration in an AsyncLocalStorage on
 *   globalThis[Symbol.for("wholesale.requestContext")], where app/utils/temporal.server.ts reads it to put it
 *   into the workflow's memo and headers (and from there into the activities' logs).
 * - Logs: with LOG_FORMAT=json, one JSON line per request (time, level, msg, requestId, method, route, path,
 *   status, ms); otherwise nothing per request (development stays quiet).
 * - Metrics (METRICS_PORT on METRICS_HOST, default loopback, GET /metrics; workers/metrics.mjs, prom-client):
 *   http_requests_total{method,route,status}, http_request_duration_seconds{route} (histogram),
 *   http_server_errors_total{route} (5xx), where `route` is the Remix route id the path matched (bounded: one per
 *   route module), "static" for assets, "healthz"; and the process metrics (event-loop lag, heap, GC, CPU).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { matchRoutes } from "@remix-run/router";
import { webMetrics } from "./metrics.mjs";

export const requestContext = (globalThis[Symbol.for("wholesale.requestContext")] ??=
  new AsyncLocalStorage());

const JSON_LOGS = process.env.LOG_FORMAT === "json";

/** One structured log line (JSON with LOG_FORMAT=json, else plain text). */
export function log(level, msg, fields = {}) {
  if (JSON_LOGS) {
    process.stdout.write(
      JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + "\n",
    );
    return;
  }
  const rest = Object.entries(fields)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  (level === "error" ? console.error : console.log)(`[web] ${msg}${rest ? ` ${rest}` : ""}`);
}

/** A caller's request id is kept when it is a plain token (letters, digits, . _ -; at most 64). */
export function requestIdOf(header) {
  return typeof header === "string" && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
}

/** The Remix build's routes as the router's tree, to name a path by the route module that serves it. */
function routeTree(routes, parentId) {
  return Object.values(routes)
    .filter((r) => r.parentId === parentId)
    .map((r) => ({
      id: r.id,
      path: r.path,
      index: r.index,
      caseSensitive: r.caseSensitive,
      children: r.index ? undefined : routeTree(routes, r.id),
    }));
}

/** path → route id ("routes/orders.($stage)"), "unmatched" when none. */
export function routeLabeler(build) {
  const tree = routeTree(build.routes, undefined);
  return (pathname) => {
    if (pathname.startsWith("/build/")) return "static";
    if (pathname === "/healthz") return "healthz";
    const matches = matchRoutes(tree, pathname);
    return matches?.length ? matches[matches.length - 1].route.id : "unmatched";
  };
}

const { registry, requests, duration, errors } = webMetrics();

/** Express middleware: request id, then metrics and the log line once the answer is sent. */
export function observe(getLabeler) {
  return (req, res, next) => {
    const requestId = requestIdOf(req.get("x-request-id"));
    res.setHeader("X-Request-Id", requestId);
    const t0 = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const route = getLabeler()(req.path);
      const status = res.statusCode;
      requests.inc({ method: req.method, route, status: String(status) });
      duration.observe({ route }, seconds);
      if (status >= 500) errors.inc({ route });
      if (JSON_LOGS && route !== "static" && route !== "healthz")
        log(status >= 500 ? "error" : "info", "request", {
          requestId,
          method: req.method,
          route,
          path: req.path,
          status,
          ms: Math.round(seconds * 1000),
        });
    });
    requestContext.run({ requestId }, next);
  };
}

/** GET /metrics on METRICS_HOST (default 127.0.0.1):port, not behind the public port: Prometheus scrapes each process. */
export function serveMetrics(port, host = process.env.METRICS_HOST || "127.0.0.1") {
  const server = http.createServer((req, res) => {
    if (req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": registry.contentType }).end(text),
      (err) => {
        log("error", "metrics", { error: String(err) });
        res.writeHead(500).end();
      },
    );
  });
  server.listen(port, host);
  return server;
}

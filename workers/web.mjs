/**
 * The HTTP server: Express + Remix (`npm start` runs `node workers/web.mjs`; in development
 * `remix dev --manual -c "node workers/web.mjs"`).
 *
 * - /build/* (fingerprinted assets): cached for a year; other public files: one hour.
 * - Origin check on every non-GET/HEAD request except /webhooks/carrier and /webhooks/payments
 *   (workers/origin-check.mjs): 403.
 * - Security headers (workers/security-headers.mjs): X-Frame-Options DENY, X-Content-Type-Options nosniff,
 *   Referrer-Policy same-origin, Permissions-Policy, HSTS over https; Cache-Control: no-store on answers to
 *   signed-in requests. The pages' Content-Security-Policy comes from app/entry.server.tsx.
 * - The client address goes to loaders/actions as `context.clientIp` (sign-in throttling).
 * - A per-request scope for GET/HEAD (an AsyncLocalStorage on globalThis[Symbol.for("wholesale.requestScope")],
 *   a fresh Map per request): app/utils/auth.server.ts memoises the session lookup in it, because Remix gives
 *   the root loader and each route loader their own Request object.
 *
 * - A request id, structured logs (LOG_FORMAT=json) and Prometheus metrics on METRICS_PORT
 *   (workers/observability.mjs); /healthz is liveness, /readyz (app/routes/readyz.tsx) readiness.
 *
 * - CORS for the Temporal Web UI's codec requests (/codec/decode, /codec/encode; workers/codec-cors.mjs).
 *
 * This plain-Node composition root reads only PORT, NODE_ENV, APP_ORIGIN, TEMPORAL_UI_URL, REMIX_BUILD_DIR,
 * METRICS_PORT and LOG_FORMAT from the environment (it cannot import app/utils/env.server.ts, which is TypeScript); their defaults match it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import express from "express";
import { log, observe, routeLabeler, serveMetrics } from "./observability.mjs";
import { codecCors, isCodecPath } from "./codec-cors.mjs";
import { checkOrigin, normalisedPath } from "./origin-check.mjs";
import { hasSessionCookie, securityHeaders } from "./security-headers.mjs";

const MODE = process.env.NODE_ENV === "production" ? "production" : "development";
const PORT = Number(process.env.PORT || 3000);
const APP_ORIGIN = process.env.APP_ORIGIN || `http://localhost:${PORT}`;
// The Temporal Web UI, whose codec requests (/codec/*, ADR 0040) come from its own origin.
const TEMPORAL_UI_URL = process.env.TEMPORAL_UI_URL || "http://localhost:8233";
const BUILD_DIR = path.resolve(process.env.REMIX_BUILD_DIR || "build");
const BUILD_PATH = path.join(BUILD_DIR, "index.js");
const ASSETS_DIR = process.env.REMIX_BUILD_DIR
  ? path.join(BUILD_DIR, "public", "build")
  : path.resolve("public", "build");
const PUBLIC_DIR = path.resolve("public");

installGlobals({ nativeFetch: true });

async function importBuild() {
  const stat = fs.statSync(BUILD_PATH);
  return import(`${pathToFileURL(BUILD_PATH).href}?t=${stat.mtimeMs}`);
}

let build;
try {
  build = await importBuild();
} catch (err) {
  // One line per refused setting (domain/env.ts EnvError; docs/operations.md, "Production refusals"), e.g.
  // "[web] cannot start: Invalid environment: CARRIER_WEBHOOK_SECRET: required in production ...".
  const problems = Array.isArray(err?.problems)
    ? err.problems.map((p) => `Invalid environment: ${p}`)
    : null;
  for (const line of problems ?? [err instanceof Error ? err.message : String(err)])
    console.error(`[web] cannot start: ${line}`);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", process.env.TRUST_PROXY === "1" ? 1 : false);

let labeler = null;
let labeledBuild = null;
app.use(
  observe(() => {
    if (labeledBuild !== build) [labeler, labeledBuild] = [routeLabeler(build), build];
    return labeler;
  }),
);

const HTTPS_ORIGIN = APP_ORIGIN.startsWith("https:");
const FIXED = new Set(Object.keys(securityHeaders({ https: true })).map((h) => h.toLowerCase()));
app.use((req, res, next) => {
  for (const [k, v] of Object.entries(securityHeaders({ https: req.secure || HTTPS_ORIGIN })))
    res.setHeader(k, v);
  // @remix-run/express copies the Remix response's headers with res.append; a second, different
  // X-Frame-Options would make browsers ignore both, so ours stay the only ones.
  const append = res.append.bind(res);
  res.append = (field, value) =>
    FIXED.has(String(field).toLowerCase()) ? res : append(field, value);
  next();
});

/**
 * A request whose body the app did not read (an action that answers without reading the form: a sign-in
 * redirect, a 403, a 405) would leave its unread bytes in the socket: on a keep-alive connection the client's
 * next request would wait for the keep-alive timeout and then be reset, and closing the socket at once (as
 * Node does for `Connection: close`) cuts off a client still uploading, which then sees a reset instead of
 * the answer. So when the answer starts, what is left of the body is read and dropped (the Remix adapter's
 * reader is detached: the answer is decided), up to UNREAD_BODY_DRAIN_BYTES, past which the connection is
 * closed; a connection that is to close is closed once the body has been read.
 */
const UNREAD_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
function drainUnreadBody(req, res) {
  if (req.readableEnded || req.destroyed) return;
  const closeAfter = !res.shouldKeepAlive;
  // Keep the socket open until the body is read; then close it if the connection was to close.
  res.shouldKeepAlive = true;
  let dropped = 0;
  req.removeAllListeners("data");
  req.unpipe();
  req.on("data", (chunk) => {
    dropped += chunk.length;
    if (dropped > UNREAD_BODY_DRAIN_BYTES) req.socket.destroy();
  });
  req.on("error", () => {});
  req.once("end", () => {
    if (!closeAfter) return;
    if (res.writableFinished) req.socket.end();
    else res.once("finish", () => req.socket.end());
  });
  req.resume();
}
app.use((req, res, next) => {
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined)
    return next();
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    drainUnreadBody(req, res);
    return writeHead.apply(this, args);
  };
  next();
});

// An API token (docs/guides/stock-import.md "API") is accepted by POST /api/stock-import only: sent anywhere else it gets a 401 and
// the request goes no further (the route checks the token itself).
app.use((req, res, next) => {
  const auth = req.get("authorization");
  if (!auth || !/^bearer\s/i.test(auth) || normalisedPath(req.path) === "/api/stock-import")
    return next();
  res
    .status(401)
    .set("WWW-Authenticate", "Bearer")
    .set("Cache-Control", "no-store")
    .json({ error: "API tokens are accepted only by POST /api/stock-import." });
});

// The data requests of Remix before single fetch (`?_data=<route id>`): the app's own client asks for `.data`
// URLs, and the old form reaches a path that cannot answer an action's refusal (it answered 500 with a stack).
// Refused here with a 400, whatever the route, before Remix sees it.
app.use((req, res, next) => {
  const query = req.originalUrl.indexOf("?");
  if (query === -1 || !new URLSearchParams(req.originalUrl.slice(query + 1)).has("_data"))
    return next();
  res
    .status(400)
    .set("Cache-Control", "no-store")
    .type("text/plain")
    .send("Bad request: this form of data request is not supported.");
});

// A NUL (%00) in the query (a search's words, a filter): no text column can store one, and no page or link
// of the app writes one. Refused here, whatever the route (a form's body is read in app/utils/form.server.ts,
// which takes the NUL out and refuses the form with its message; a path's parameters are checked by their route).
app.use((req, res, next) => {
  const query = req.originalUrl.indexOf("?");
  if (query === -1 || !/%00/.test(req.originalUrl.slice(query))) return next();
  res
    .status(400)
    .set("Cache-Control", "no-store")
    .type("text/plain")
    .send("Bad request: the address holds an invisible control character (NUL).");
});

app.get("/healthz", (_req, res) => {
  res.type("text/plain").send("ok");
});

app.use(codecCors(TEMPORAL_UI_URL));

app.use((req, res, next) => {
  const verdict = checkOrigin({
    method: req.method,
    path: req.path,
    origin: req.get("origin"),
    referer: req.get("referer"),
    appOrigin: APP_ORIGIN,
    alsoFrom: isCodecPath(req.path) ? TEMPORAL_UI_URL : null,
  });
  if (verdict.ok) return next();
  if (MODE !== "production")
    console.warn(`[origin-check] 403 ${req.method} ${req.path}: ${verdict.reason}`);
  res.status(403).type("text/plain").send("Forbidden: this request did not come from this site.");
});

app.use("/build", express.static(ASSETS_DIR, { immutable: true, maxAge: "1y", index: false }));
app.use(express.static(PUBLIC_DIR, { maxAge: "1h", index: false }));

// Signed-in answers (pages, data requests) may hold personal data (/settings/payout pre-fills the routing
// number): no cache keeps them, unless the route sets its own Cache-Control (e.g. /uploads/<file>).
app.use((req, res, next) => {
  if (!hasSessionCookie(req.get("cookie"))) return next();
  res.setHeader("Cache-Control", "no-store");
  const append = res.append;
  res.append = (field, value) =>
    String(field).toLowerCase() === "cache-control"
      ? (res.setHeader(field, value), res)
      : append.call(res, field, value);
  next();
});

const getLoadContext = (req) => ({ clientIp: req.ip || req.socket.remoteAddress || "" });

const requestScope = (globalThis[Symbol.for("wholesale.requestScope")] ??= new AsyncLocalStorage());
/** Runs a Remix handler inside a fresh per-request scope, for reads only (see the header comment). */
const scoped = (handler) => (req, res, next) =>
  req.method === "GET" || req.method === "HEAD"
    ? requestScope.run(new Map(), handler, req, res, next)
    : handler(req, res, next);

if (MODE === "production") {
  app.all("*", scoped(createRequestHandler({ build, mode: build.mode, getLoadContext })));
} else {
  // Manual mode (remix dev --manual): re-import the build when it changes, then tell remix dev.
  const watchTarget = fs.existsSync(path.join(BUILD_DIR, "version.txt"))
    ? path.join(BUILD_DIR, "version.txt")
    : BUILD_PATH;
  let timer;
  fs.watch(path.dirname(watchTarget), (_event, file) => {
    if (file !== path.basename(watchTarget) && file !== "index.js") return;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        build = await importBuild();
        await broadcastDevReady(build);
      } catch (err) {
        console.error("[web] reloading the build failed", err);
      }
    }, 50);
  });
  app.all(
    "*",
    scoped((req, res, next) => {
      try {
        return createRequestHandler({ build, mode: "development", getLoadContext })(req, res, next);
      } catch (err) {
        next(err);
      }
    }),
  );
}

// Errors Express raises itself, before Remix sees the request (e.g. a path that is not valid
// percent-encoding, "/password-reset/1/%ff"): a plain 4xx/5xx answer. Express's default handler would
// print the stack trace into the page in development.
// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
  const status = Number(err?.status ?? err?.statusCode);
  const code = status >= 400 && status < 600 ? status : 500;
  if (code >= 500)
    log("error", "unhandled error", {
      method: req.method,
      path: req.path,
      error: String(err?.stack ?? err),
    });
  if (res.headersSent) return res.end();
  res
    .status(code)
    .type("text/plain")
    .send(code >= 500 ? "A server error has occured" : "Bad request.");
});

const metricsServer = process.env.METRICS_PORT
  ? serveMetrics(Number(process.env.METRICS_PORT))
  : null;

const server = app.listen(PORT, async () => {
  log("info", `${MODE} server on http://localhost:${PORT} (origin ${APP_ORIGIN})`, {
    port: PORT,
    ...(metricsServer ? { metrics: `http://127.0.0.1:${process.env.METRICS_PORT}/metrics` } : {}),
  });
  if (MODE !== "production") {
    try {
      await broadcastDevReady(build);
    } catch {
      // not started by remix dev: nothing to tell
    }
  }
});

// Behind a load balancer or proxy that reuses its connections to this server, the server must not be the one to
// close an idle connection first: with Node's default 5 s, the proxy could send a request on a connection the
// server was closing at that moment and answer the user 502 (seen once in 400 transactions of npm run
// bench:kills, whose scripts/lib/rr-proxy.mjs drops idle connections after 30 s). Longer than the proxy's idle
// timeout, as load balancers advise (60 s is a common one).
server.keepAliveTimeout = 70_000;
server.headersTimeout = 71_000;

function shutdown() {
  metricsServer?.close();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

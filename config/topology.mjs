// The production topology, one source for `npm run prod` (scripts/prod.mjs) and docker-compose.yml:
// the Temporal server's processes and their arguments, the environment its config file
// (config/temporal/production.yaml) is rendered from, the schema steps, the namespace and the search
// attributes, and the names of the app's environment. docker-compose.yml cannot import this file, so
// tests/unit/compose.test.ts parses it and checks that it says the same (services, commands, env names).
// Node built-ins and config/ only (scripts import it before node_modules exists; scripts import config/, never
// the other way).
import { SEARCH_ATTRIBUTES } from "./temporal-engine.mjs";
import { VERSIONS } from "./versions.mjs";

/** go.temporal.io/server (cmd/server and cmd/tools/sql), github.com/temporalio/ui-server/v2, the CLI. */
export const TEMPORAL_SERVER_VERSION = VERSIONS.temporalServer;
export const TEMPORAL_UI_VERSION = VERSIONS.temporalUi;
export const TEMPORAL_CLI_VERSION = VERSIONS.temporal;

/**
 * The server's services, in start order: each one process (`start --service <name>`). The frontend starts
 * alone first: services started at the same instant on a fresh database race to save the cluster metadata
 * and the losers exit on a duplicate key. The internal worker service is required (it runs the system
 * workflows that keep deployment versions, schedules and batch jobs).
 */
export const TEMPORAL_SERVICES = Object.freeze(["frontend", "history", "matching", "worker"]);

/** Where the config lives, relative to the server's --root (the repository, or /etc/temporal in the image). */
export const TEMPORAL_CONFIG_DIR = "config/temporal";
export const TEMPORAL_CONFIG_ENV = "production";
export const TEMPORAL_DYNAMIC_CONFIG = "config/temporal/dynamicconfig.yaml";

/**
 * `temporal-server` arguments of one service process. `--allow-no-auth` says on purpose that the frontend has no
 * authorizer (it listens on loopback, or on the containers' private network: docs/operations.md); v1.29 only
 * warns without it, later versions refuse to start.
 */
export function temporalServerArgs(root, service) {
  return [
    "--root",
    root,
    "--config",
    TEMPORAL_CONFIG_DIR,
    "--env",
    TEMPORAL_CONFIG_ENV,
    "--allow-no-auth",
    "start",
    "--service",
    service,
  ];
}

/**
 * numHistoryShards: written on the cluster's first boot and fixed for its life. A shard is the unit of
 * history ownership (one history process owns a shard at a time, and a shard's writes are serialised), so
 * the count caps how far history can be spread: 64 shards let up to 16 history processes hold 4 each,
 * far past 1,000 orders/minute (docs/operations.md "Scale"), while one process on a small box still
 * carries their idle cost (each shard's queue readers) without notice. The CLI dev server uses 1, the
 * server's Docker default is 4 (cannot grow), its large-cluster advice 512+ (idle cost on a 2-core box).
 */
export const DEFAULT_HISTORY_SHARDS = 64;

/**
 * Connections per service process: persistence TEMPORAL_DB_MAX_CONNS, visibility
 * TEMPORAL_VISIBILITY_MAX_CONNS (the config file sets maxIdleConns to the same). Four processes at the
 * sample config's 20 + 2 (88), plus the app's pools, pass PostgreSQL's default max_connections (100);
 * 4 × (10 + 5) = 60 leave room for N web processes × 10 and M workers × 5 (scripts/prod.mjs checks the sum
 * against the server's max_connections before starting).
 */
export const DEFAULT_MAX_CONNS = Object.freeze({ persistence: 10, visibility: 5 });

/** Ports of each service process: gRPC, membership (ringpop), Prometheus metrics. */
export function temporalPorts(base = { grpc: 7233, membership: 6933, metrics: 9233, http: 7243 }) {
  const offset = { frontend: 0, history: 1, matching: 2, worker: 6 };
  return Object.fromEntries(
    TEMPORAL_SERVICES.map((s) => [
      s,
      {
        grpc: base.grpc + offset[s],
        membership: base.membership + offset[s],
        metrics: base.metrics + offset[s],
      },
    ]),
  );
}

/**
 * The environment config/temporal/production.yaml is rendered from, shared by the four processes
 * (each adds TEMPORAL_METRICS_PORT: temporalServiceEnv). Every name here is set by both runners.
 */
export function temporalServerEnv({
  db,
  bindIp,
  broadcastAddress,
  frontendAddress,
  ports,
  httpPort,
  shards,
  maxConns,
  logLevel,
  tlsDir = "",
}) {
  return {
    TEMPORAL_LOG_LEVEL: logLevel,
    TEMPORAL_NUM_HISTORY_SHARDS: String(shards),
    TEMPORAL_DB: db.temporal,
    TEMPORAL_VISIBILITY_DB: db.visibility,
    TEMPORAL_DB_HOST: db.host,
    TEMPORAL_DB_PORT: String(db.port),
    TEMPORAL_DB_USER: db.user,
    TEMPORAL_DB_PASSWORD: db.password,
    TEMPORAL_DB_MAX_CONNS: String(maxConns.persistence),
    TEMPORAL_VISIBILITY_MAX_CONNS: String(maxConns.visibility),
    TEMPORAL_BIND_IP: bindIp,
    TEMPORAL_BROADCAST_ADDRESS: broadcastAddress,
    TEMPORAL_FRONTEND_ADDRESS: frontendAddress,
    TEMPORAL_FRONTEND_PORT: String(ports.frontend.grpc),
    TEMPORAL_FRONTEND_HTTP_PORT: String(httpPort),
    TEMPORAL_FRONTEND_MEMBERSHIP_PORT: String(ports.frontend.membership),
    TEMPORAL_HISTORY_PORT: String(ports.history.grpc),
    TEMPORAL_HISTORY_MEMBERSHIP_PORT: String(ports.history.membership),
    TEMPORAL_MATCHING_PORT: String(ports.matching.grpc),
    TEMPORAL_MATCHING_MEMBERSHIP_PORT: String(ports.matching.membership),
    TEMPORAL_WORKER_PORT: String(ports.worker.grpc),
    TEMPORAL_WORKER_MEMBERSHIP_PORT: String(ports.worker.membership),
    TEMPORAL_DYNAMIC_CONFIG_FILE: TEMPORAL_DYNAMIC_CONFIG,
    // The certificates' directory: mutual TLS on every gRPC connection; empty: plain text (loopback only)
    TEMPORAL_TLS_DIR: tlsDir,
  };
}

/** What one service process adds to temporalServerEnv: its own metrics port (they would all bind one). */
export function temporalServiceEnv(service, ports) {
  return { TEMPORAL_METRICS_PORT: String(ports[service].metrics) };
}

/**
 * The schema tool's steps (temporal-sql-tool, postgres12 plugin; the connection from SQL_PLUGIN, SQL_HOST,
 * SQL_PORT, SQL_USER, SQL_PASSWORD, sqlToolEnv): per database, create it (fails harmlessly when it exists:
 * `mayExist`), set up the versioning tables from 0.0 (skipped when newer), and update to the newest
 * version embedded in the tool. Safe to run at every start: the upgrade path of a new server version.
 */
export function schemaSteps(db) {
  return [
    { database: db.temporal, schema: "postgresql/v12/temporal" },
    { database: db.visibility, schema: "postgresql/v12/visibility" },
  ].flatMap(({ database, schema }) => [
    { args: ["--database", database, "create-database"], mayExist: true },
    { args: ["--database", database, "setup-schema", "-v", "0.0"] },
    { args: ["--database", database, "update-schema", "--schema-name", schema] },
  ]);
}

/** The schema tool's connection, from the environment (no password on a command line). */
export function sqlToolEnv(db) {
  return {
    SQL_PLUGIN: "postgres12",
    SQL_HOST: db.host,
    SQL_PORT: String(db.port),
    SQL_USER: db.user,
    SQL_PASSWORD: db.password,
  };
}

/** The steps as one POSIX shell script (docker-compose.yml's one-shot schema service runs this text). */
export function schemaScript(db) {
  return schemaSteps(db)
    .map((s) =>
      s.mayExist
        ? `(temporal-sql-tool ${s.args.join(" ")} || true)`
        : `temporal-sql-tool ${s.args.join(" ")}`,
    )
    .join(" && ");
}

/** `temporal-ui-server` arguments (config/temporal-ui/production.yaml under --root). */
export function temporalUiArgs(root) {
  return ["--root", root, "--config", "config/temporal-ui", "--env", TEMPORAL_CONFIG_ENV, "start"];
}

/**
 * The environment config/temporal-ui/production.yaml is rendered from. The UI decodes payloads through the app's
 * codec server (app/routes/codec.$op.tsx, ADR 0031), sending the staff user's session cookie.
 */
export function temporalUiEnv({ address, ip, port, namespace, appOrigin, tlsDir = "" }) {
  return {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_UI_IP: ip,
    TEMPORAL_UI_PORT: String(port),
    TEMPORAL_NAMESPACE: namespace,
    APP_ORIGIN: appOrigin,
    TEMPORAL_CODEC_ENDPOINT: `${appOrigin}/codec`,
    // ca.pem, ui.pem, ui.key: mutual TLS to the frontend; empty: plain text (loopback only)
    TEMPORAL_TLS_DIR: tlsDir,
  };
}

/** Namespace retention: closed orders stay visible in the Temporal UI this long (the read model keeps them). */
export const NAMESPACE_RETENTION = "720h";

/**
 * `temporal` CLI argument lists registering the namespace, then each search attribute, one per command (given
 * several --name, the CLI registers only the first). Creating either when it exists fails harmlessly.
 */
export function namespaceSetupArgs(address, namespace) {
  return [
    [
      "operator",
      "namespace",
      "create",
      "--address",
      address,
      "--namespace",
      namespace,
      "--retention",
      NAMESPACE_RETENTION,
    ],
    ...Object.entries(SEARCH_ATTRIBUTES).map(([name, type]) => [
      "operator",
      "search-attribute",
      "create",
      "--address",
      address,
      "--namespace",
      namespace,
      "--name",
      name,
      "--type",
      type,
    ]),
  ];
}

/**
 * namespaceSetupArgs as one POSIX shell script (docker-compose.yml's one-shot service): the namespace created
 * unless it exists, then each search attribute (the CLI keeps one that exists with the same type).
 */
export function namespaceSetupScript(address, namespace) {
  const [create, ...attributes] = namespaceSetupArgs(address, namespace);
  const describe = [
    "operator",
    "namespace",
    "describe",
    "--address",
    address,
    "--namespace",
    namespace,
  ];
  return [
    `(temporal ${describe.join(" ")} >/dev/null 2>&1 || temporal ${create.join(" ")})`,
    ...attributes.map((a) => `temporal ${a.join(" ")}`),
  ].join(" && ");
}

/**
 * The app's environment (domain/env.ts) that the runners pass from their own environment to every web and
 * worker process, unchanged; the rest they set themselves (APP_PROCESS_ENV). docker-compose.yml's x-app-env
 * holds exactly these names, those and APP_CONTAINER_ENV.
 */
export const APP_PASSED_ENV = Object.freeze([
  "APP_ENV",
  "APP_ORIGIN",
  "TEMPORAL_NAMESPACE",
  "TEMPORAL_TASK_QUEUE",
  "TEMPORAL_UI_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "CARRIER_WEBHOOK_SECRET",
  "SANDBOX_WEBHOOK_SECRET",
  "PAYLOAD_KEYS",
  "PAYLOAD_KEY_CURRENT",
  "TEMPORAL_TLS",
  "SMTP_URL",
  "MAIL_FROM",
  "OUTBOX_PAUSED",
  "SUPPORT_PHONE",
  "SUPPORT_EMAIL",
  "RETAILER_SUPPORT_EMAIL",
  "CHAT_WIDGET_SNIPPET",
  "MARKETPLACE_TZ",
  "UPLOAD_DIR",
  "LOGIN_THROTTLE_MAX",
  "LOGIN_THROTTLE_WINDOW_SECONDS",
]);

/**
 * Set by the runner for every app process: where things are, the log format, and the address the signals
 * listen on (METRICS_HOST: loopback here, every interface in a container, where the scraper is elsewhere).
 */
export const APP_PROCESS_ENV = Object.freeze([
  "NODE_ENV",
  "PORT",
  "DATABASE_URL",
  "TEMPORAL_ADDRESS",
  "LOG_FORMAT",
  "METRICS_HOST",
]);

/**
 * Set by docker-compose.yml alone, for every app process: the files of its client certificate for mutual TLS to
 * the frontend (mounted secrets; domain/env.ts reads TEMPORAL_TLS_CA, _CERT and _KEY from them). `npm run prod`
 * keeps its frontend on loopback, without TLS.
 */
export const APP_CONTAINER_ENV = Object.freeze([
  "TEMPORAL_TLS_CA_FILE",
  "TEMPORAL_TLS_CERT_FILE",
  "TEMPORAL_TLS_KEY_FILE",
]);

/**
 * Each process's own: web METRICS_PORT; worker METRICS_PORT (the SDK's exporter), HEALTH_PORT and
 * WORKER_DEPLOYMENT_NAME (Worker Versioning, docs/decisions/0046-worker-versioning.md: the build id is the
 * bundle's hash unless WORKER_BUILD_ID names it; npm run prod names it, with WORKFLOW_BUNDLE_PATH).
 */
export const APP_OWN_ENV = Object.freeze({
  web: ["METRICS_PORT"],
  worker: ["METRICS_PORT", "HEALTH_PORT", "WORKER_DEPLOYMENT_NAME"],
});

/** The app processes: the one image, two commands (the web behind a load balancer, the worker). */
export const APP_COMMANDS = Object.freeze({
  migrate: ["npm", "run", "db:migrate"],
  web: ["npm", "start"],
  worker: ["npm", "run", "worker"],
});

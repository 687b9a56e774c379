// The settings of `npm run prod` (scripts/prod.mjs), read from the environment and validated before anything
// starts: every problem is named at once. Node built-ins only. The ports of the topology's processes
// follow from a few base ports (each overridable), away from the dev stack's (3000, 7233, 8233, 54320...)
// and the test stack's, so `npm run prod` can run beside them.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_HISTORY_SHARDS,
  DEFAULT_MAX_CONNS,
  temporalPorts,
} from "../../config/topology.mjs";
import { DATA_DIR } from "./paths.mjs";

/** name → [default, description]; integers unless noted. */
export const PROD_SETTINGS = Object.freeze({
  PORT: [4000, "the app's public port (a round-robin proxy in front of the web processes)"],
  WEB_PROCESSES: [2, "web processes (each on PORT+1, PORT+2, ...)"],
  WORKER_PROCESSES: [2, "worker processes on the one task queue"],
  TEMPORAL_PORT: [7333, "the Temporal frontend's gRPC port (history +1, matching +2, worker +6)"],
  TEMPORAL_UI_PORT: [8333, "the Temporal Web UI"],
  POSTGRES_PORT: [54350, "the embedded PostgreSQL (unused with DATABASE_URL)"],
  MAILPIT_SMTP_PORT: [1125, "Mailpit's SMTP (unused with SMTP_URL)"],
  MAILPIT_UI_PORT: [8125, "Mailpit's web UI"],
  METRICS_PORT_BASE: [
    9400,
    "web i serves /metrics on BASE+i, worker i its SDK metrics on BASE+50+i and its health on BASE+70+i",
  ],
  TEMPORAL_NUM_HISTORY_SHARDS: [
    DEFAULT_HISTORY_SHARDS,
    "history shards (read on a new cluster only: fixed for its life)",
  ],
  TEMPORAL_DB_MAX_CONNS: [
    DEFAULT_MAX_CONNS.persistence,
    "persistence connections per Temporal service process",
  ],
  TEMPORAL_VISIBILITY_MAX_CONNS: [
    DEFAULT_MAX_CONNS.visibility,
    "visibility connections per Temporal service process",
  ],
  BACKUP_INTERVAL_HOURS: [
    24,
    "a backup of the embedded PostgreSQL and the uploads at start and then every N hours (BACKUP_DIR)",
  ],
  BACKUP_KEEP_DAYS: [7, "backups older than N days are removed"],
});

/** Where the backups go (BACKUP_DIR, default <data>/backups); `npm run restore` reads them there. */
export function backupsDirOf(env) {
  return env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : path.join(PROD_DATA_DIR, "backups");
}

/** Database connections each app process may hold (db/client.ts: the web's pool 10, the worker's 5). */
export const APP_POOL = Object.freeze({ web: 10, worker: 5 });

/**
 * The settings from `env`: { settings, problems }. Integers in range, ports free of overlap; DATABASE_URL a
 * postgres:// URL; SMTP_URL an smtp(s):// URL; TEMPORAL_LOG_LEVEL one of the server's levels.
 */
export function readProdSettings(env) {
  const problems = [];
  /** @type {Record<string, any>} */
  const s = {};
  for (const [name, [def]] of Object.entries(PROD_SETTINGS)) {
    const raw = env[name]?.trim();
    if (!raw) {
      s[name] = def;
      continue;
    }
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1)
      problems.push(`${name}=${raw}: a positive integer is required`);
    s[name] = n;
  }
  for (const name of ["WEB_PROCESSES", "WORKER_PROCESSES"])
    if (s[name] > 16) problems.push(`${name}=${s[name]}: at most 16 on one box`);
  for (const name of ["TEMPORAL_DB_MAX_CONNS", "TEMPORAL_VISIBILITY_MAX_CONNS"])
    if (s[name] > 200) problems.push(`${name}=${s[name]}: at most 200`);
  if (s.TEMPORAL_NUM_HISTORY_SHARDS > 16384)
    problems.push(`TEMPORAL_NUM_HISTORY_SHARDS=${s.TEMPORAL_NUM_HISTORY_SHARDS}: at most 16384`);
  if (env.DATABASE_URL && !/^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(env.DATABASE_URL))
    problems.push("DATABASE_URL: a postgres://user:password@host:port/database URL is required");
  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL))
    problems.push("SMTP_URL: an smtp:// or smtps:// URL is required");
  const level = env.TEMPORAL_LOG_LEVEL ?? "warn";
  if (!["debug", "info", "warn", "error"].includes(level))
    problems.push(`TEMPORAL_LOG_LEVEL=${level}: one of debug, info, warn, error`);
  s.TEMPORAL_LOG_LEVEL = level;
  s.ports = problems.length ? null : portsOf(s, env);
  if (s.ports) {
    const seen = new Map();
    for (const [what, port] of s.ports.all) {
      if (port > 65535) problems.push(`${what}: port ${port} is out of range`);
      if (seen.has(port))
        problems.push(`${what} and ${seen.get(port)} would both use port ${port}`);
      seen.set(port, what);
    }
  }
  return { settings: s, problems };
}

/** Every port of the topology: { app, webs[], temporal (per service), temporalHttp, ui, ..., all: [[what, port]] }. */
function portsOf(s, env) {
  const temporal = temporalPorts({
    grpc: s.TEMPORAL_PORT,
    membership: s.TEMPORAL_PORT - 400,
    metrics: s.TEMPORAL_PORT + 1900,
    http: s.TEMPORAL_PORT + 10,
  });
  const webs = Array.from({ length: s.WEB_PROCESSES }, (_, i) => s.PORT + 1 + i);
  const webMetrics = webs.map((_, i) => s.METRICS_PORT_BASE + 1 + i);
  const workerMetrics = Array.from(
    { length: s.WORKER_PROCESSES },
    (_, i) => s.METRICS_PORT_BASE + 51 + i,
  );
  const workerHealth = workerMetrics.map((_, i) => s.METRICS_PORT_BASE + 71 + i);
  const ports = {
    app: s.PORT,
    webs,
    webMetrics,
    workerMetrics,
    workerHealth,
    temporal,
    temporalHttp: s.TEMPORAL_PORT + 10,
    ui: s.TEMPORAL_UI_PORT,
    postgres: env.DATABASE_URL ? null : s.POSTGRES_PORT,
    smtp: env.SMTP_URL ? null : s.MAILPIT_SMTP_PORT,
    mailUi: env.SMTP_URL ? null : s.MAILPIT_UI_PORT,
  };
  const all = [
    ["PORT", ports.app],
    ...webs.map((p, i) => [`web ${i + 1}`, p]),
    ...webMetrics.map((p, i) => [`web ${i + 1} metrics`, p]),
    ...workerMetrics.map((p, i) => [`worker ${i + 1} metrics`, p]),
    ...workerHealth.map((p, i) => [`worker ${i + 1} health`, p]),
    ...Object.entries(temporal).flatMap(([svc, p]) => [
      [`temporal ${svc}`, p.grpc],
      [`temporal ${svc} membership`, p.membership],
      [`temporal ${svc} metrics`, p.metrics],
    ]),
    ["temporal frontend http", ports.temporalHttp],
    ["TEMPORAL_UI_PORT", ports.ui],
    ...(ports.postgres ? [["POSTGRES_PORT", ports.postgres]] : []),
    ...(ports.smtp
      ? [
          ["MAILPIT_SMTP_PORT", ports.smtp],
          ["MAILPIT_UI_PORT", ports.mailUi],
        ]
      : []),
  ];
  return { ...ports, all };
}

/** The secrets a staging stack must have, and how a throwaway one is made (PAYLOAD_KEYS: one key, domain/env.ts). */
const STAGING_SECRETS = {
  CARRIER_WEBHOOK_SECRET: () => crypto.randomBytes(24).toString("hex"),
  SANDBOX_WEBHOOK_SECRET: () => crypto.randomBytes(24).toString("hex"),
  PAYLOAD_KEYS: () => `local-1:${crypto.randomBytes(32).toString("base64")}`,
};

/**
 * The secrets the production checks of domain/env.ts require (the webhook secrets, the payload keys): the
 * environment's (or its `*_FILE`), or (a local `npm run prod` with none set) random ones made once and kept in
 * <dataDir>/secrets.json (mode 600), so that signed webhooks stay valid and sealed payloads stay readable across
 * restarts. Returns { values, generated: names }.
 */
export function stagingSecrets(env, dataDir) {
  const names = Object.keys(STAGING_SECRETS);
  const file = path.join(dataDir, "secrets.json");
  let kept = {};
  try {
    kept = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    /* first run */
  }
  const values = {};
  const generated = [];
  for (const name of names) {
    // A `*_FILE` is read here: the app processes are given the value (APP_PASSED_ENV lists no *_FILE names).
    if (env[name]) values[name] = env[name];
    else if (env[`${name}_FILE`])
      values[name] = fs.readFileSync(env[`${name}_FILE`], "utf8").trimEnd();
    else {
      values[name] = kept[name] ?? STAGING_SECRETS[name]();
      kept[name] = values[name];
      generated.push(name);
    }
  }
  if (generated.length) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(kept, null, 2) + "\n", { mode: 0o600 });
  }
  return { values, generated };
}

export const PROD_DATA_DIR = path.join(DATA_DIR, "prod");

/** Connections the topology may open at once, against the server's max_connections. */
export function connectionBudget(s) {
  const temporal = 4 * (s.TEMPORAL_DB_MAX_CONNS + s.TEMPORAL_VISIBILITY_MAX_CONNS);
  const app = s.WEB_PROCESSES * APP_POOL.web + s.WORKER_PROCESSES * APP_POOL.worker;
  return { temporal, app, other: 5, total: temporal + app + 5 };
}

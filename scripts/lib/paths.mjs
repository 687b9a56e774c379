// Shared constants: repo root, per-user tool cache, fixed ports (tool versions: config/versions.mjs).
// Node built-ins only (scripts import this before node_modules exists).
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DATA_DIR = path.join(ROOT, ".data");
export const RESULTS_DIR = path.join(ROOT, "test-results");

/** Per-user cache outside the clone, shared by every clone of the project. */
export const CACHE_DIR = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
  "wholesale",
);
export const TOOLS_DIR = path.join(CACHE_DIR, "tools");

export const PORTS = Object.freeze({
  dev: { postgres: 54320, temporal: 7233, temporalUi: 8233, app: 3000, smtp: 1025, mailUi: 8025 },
  test: {
    postgres: 54330,
    temporal: 7243,
    temporalUi: 8243,
    app: 3100,
    stripeHttp: 12111,
    stripeHttps: 12112,
  },
});

export const DB_NAMES = Object.freeze({
  dev: "marketplace",
  test: "marketplace_test",
  e2e: "marketplace_e2e",
});
export const PG_USER = "postgres";
export const PG_PASSWORD = "postgres";

export function pgUrl(port, database, host = "127.0.0.1") {
  return `postgres://${PG_USER}:${PG_PASSWORD}@${host}:${port}/${database}`;
}

export const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);

#!/usr/bin/env node
// npm run db:start — only the development PostgreSQL (embedded, .data/pg-dev, :54320, database
// `marketplace`), in the foreground until Ctrl-C. Handy for db:migrate / db:seed / db tests by hand.
// Options: --port <n>, --data <dir> (relative to the repo), --db <name>.
import path from "node:path";
import { fail, info, step } from "./lib/log.mjs";
import { DATA_DIR, DB_NAMES, PORTS, ROOT } from "./lib/paths.mjs";
import { onShutdown } from "./lib/proc.mjs";
import { ensureNodeModules } from "./lib/tools.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const port = Number(arg("port", PORTS.dev.postgres));
const dataDir = path.resolve(ROOT, arg("data", path.join(DATA_DIR, "pg-dev")));
const db = arg("db", DB_NAMES.dev);

let pg = null;
onShutdown(async () => {
  if (pg && !pg.reused) {
    step("stopping postgres");
    await pg.stop();
  }
});

try {
  await ensureNodeModules();
  const { startEmbeddedPostgres } = await import("./lib/pg.mjs");
  pg = await startEmbeddedPostgres({ name: "postgres", dataDir, port, databases: [db] });
  info(`DATABASE_URL=${pg.url(db)}`);
  if (pg.reused) process.exit(0);
  info("Ctrl-C to stop");
} catch (e) {
  fail(e.message);
  process.exit(1);
}

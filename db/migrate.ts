import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb } from "./client";

/** The advisory lock migration runners take: several started at once (replicas, a deploy) migrate one at a time. */
export const MIGRATION_LOCK_KEY = 4_238_001;

/**
 * Applies db/migrations to DATABASE_URL (creating the database first if it does not exist), holding
 * MIGRATION_LOCK_KEY on its one connection: a second runner waits, then finds nothing left to apply.
 */
export async function runMigrations(url: string): Promise<void> {
  await ensureDatabase(url);
  const handle = createDb(url, { max: 1 });
  try {
    const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
    await handle.sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(handle.db, { migrationsFolder });
    await handle.sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await handle.close();
  }
}

async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ""));
  if (!name || name === "postgres") return;
  u.pathname = "/postgres";
  const admin = createDb(u.toString(), { max: 1 });
  try {
    const rows = await admin.sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await admin.sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } catch {
    // No rights on the maintenance database: assume the target exists (managed servers).
  } finally {
    await admin.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { parseEnv } = await import("../domain/env");
  const url = parseEnv(process.env, (file) => readFileSync(file, "utf8")).DATABASE_URL;
  await runMigrations(url);
  console.log(`migrations applied to ${url.replace(/:[^:@/]+@/, ":***@")}`);
}

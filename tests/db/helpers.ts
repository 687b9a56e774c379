import { afterAll } from "vitest";
import { getEnv } from "../../app/utils/env.server";
import { createDb, type DbHandle } from "../../db/client";

/**
 * The database under test: DATABASE_URL (the test script points it at a fresh, migrated test database).
 * Refuses the dev database so a stray `npx vitest` never writes test rows into the demo.
 */
export function testDatabaseUrl(): string {
  const url = getEnv().DATABASE_URL;
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (name === "marketplace") {
    throw new Error(
      "Database tests refuse the dev database 'marketplace': set DATABASE_URL to a test database.",
    );
  }
  return url;
}

export function openTestDb(max = 5): DbHandle {
  return createDb(testDatabaseUrl(), { max });
}

/** The test file's database (a pool of `max` connections), closed after the file's last test. */
export function useTestDb(max = 5): DbHandle["db"] {
  const handle = openTestDb(max);
  afterAll(() => handle.close());
  return handle.db;
}

/** The Postgres error behind a failed query (Drizzle wraps it in DrizzleQueryError.cause). */
export function pgError(e: unknown): { code?: string; constraint?: string; message: string } {
  let err: unknown = e;
  while (
    err &&
    typeof err === "object" &&
    !("code" in err) &&
    "cause" in err &&
    (err as { cause?: unknown }).cause
  ) {
    err = (err as { cause: unknown }).cause;
  }
  const o = (err ?? {}) as { code?: string; constraint_name?: string; message?: string };
  return { code: o.code, constraint: o.constraint_name, message: o.message ?? String(e) };
}

/** Runs `fn`, expecting it to fail with a Postgres error; returns that error. */
export async function expectPgError(
  fn: () => Promise<unknown>,
): Promise<{ code?: string; constraint?: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return pgError(e);
  }
  throw new Error("expected the statement to fail, but it succeeded");
}

/**
 * A database of the test file's own beside the shared test database (`<test db>_<tag>_<pid>_<time>`): its URL and
 * its name. Migrate it in beforeAll; `dropOwnDatabase(name)` in afterAll.
 */
export function ownDatabase(tag: string): { url: URL; name: string } {
  const base = new URL(testDatabaseUrl());
  const name = `${decodeURIComponent(base.pathname.slice(1))}_${tag}_${process.pid}_${Date.now().toString(36)}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url, name };
}

/** Drops a database made with ownDatabase (its connections closed first). */
export async function dropOwnDatabase(name: string): Promise<void> {
  const adminUrl = new URL(testDatabaseUrl());
  adminUrl.pathname = "/postgres";
  const admin = createDb(adminUrl.toString(), { max: 1 });
  try {
    await admin.sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.close();
  }
}

import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema/index.js";

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** The transaction Drizzle hands to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a query runs on: the pool, or the transaction it is part of. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

/**
 * The pool as Drizzle sees it: every statement with parameters is prepared once per connection and then only
 * bound and run (postgres.js keeps prepared statements by their text), instead of parsed and planned by
 * Postgres on every call. Drizzle's postgres-js driver prepares only the queries given a name, and the same few
 * statements (the session, the retailer, an order's read-model row) run on every request and workflow step.
 * Transactions and savepoints hand Drizzle a connection of their own: wrapped the same way.
 */
function preparing<T extends object>(sql: T): T {
  const own = sql as unknown as Record<string, (...args: unknown[]) => unknown>;
  const inTransaction =
    (method: "begin" | "savepoint") =>
    (...args: unknown[]) => {
      const fn = args.pop() as (tx: object) => unknown;
      return own[method](...args, (tx: object) => fn(preparing(tx)));
    };
  // Made once per pool or transaction, not on every query.
  const overrides: Record<string | symbol, unknown> = {
    unsafe: (query: string, args?: unknown[], options?: postgres.UnsafeQueryOptions) =>
      own.unsafe(query, args, { ...options, prepare: true }),
    begin: inTransaction("begin"),
    savepoint: inTransaction("savepoint"),
  };
  return new Proxy(sql, {
    get: (target, prop, receiver) =>
      Object.hasOwn(overrides, prop) ? overrides[prop] : Reflect.get(target, prop, receiver),
  });
}

/** One postgres.js pool wrapped by Drizzle. Create once per process. `onnotice`: the server's notices (dropped by default). */
export function createDb(
  url: string,
  opts: { max?: number; onnotice?: (notice: postgres.Notice) => void } = {},
): DbHandle {
  const sql = postgres(url, { max: opts.max ?? 10, onnotice: opts.onnotice ?? (() => {}) });
  const db = drizzle(preparing(sql), { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

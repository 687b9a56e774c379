/**
 * No import here: route modules import query modules whose constants reach the browser bundle, and this file
 * must not pull the database driver in with them (db/client.ts imports postgres.js).
 */
const statementsOf = new WeakMap<object, Map<string, unknown>>();

/**
 * Statements whose SQL text Drizzle builds once per pool instead of on every call. Drizzle turns a query
 * builder into text each time it runs (0.1–0.3 ms for a wide select with a join, ~1 ms for an order page's seven
 * reads, measured on the bench box), and the reads every signed-in request and every order page make are the
 * same text every time: those are built here, with `sql.placeholder` for their values, by `make` (ending in
 * Drizzle's `.prepare(name)`), and afterwards only run.
 * A statement runs on what it was built from: given a transaction, it is built for that transaction (and kept
 * only as long as it).
 */
export function builtOnce<D extends object, T>(db: D, name: string, make: (db: D) => T): T {
  let byName = statementsOf.get(db);
  if (!byName) statementsOf.set(db, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, make(db));
  return byName.get(name) as T;
}

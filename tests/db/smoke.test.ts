// Proves the db suite reaches a real PostgreSQL server (DATABASE_URL, set by npm test).
import { createDb, type DbHandle } from "../../db/client";

let handle: DbHandle;
beforeAll(() => {
  handle = createDb(process.env.DATABASE_URL!, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
});

test("select 1 on the test database", async () => {
  const rows = await handle.sql<{ one: number; db: string }[]>`select 1 as one, current_database() as db`;
  expect(rows[0].one).toBe(1);
  expect(rows[0].db).toMatch(/test/);
});

test("migrations were applied", async () => {
  const rows = await handle.sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
  expect(rows[0].n).toBeGreaterThan(0);
});

// Proves the db suite reaches a real PostgreSQL server (DATABASE_URL, set by npm test).
import { eq, sql } from "drizzle-orm";
import { createDb, type DbHandle } from "../../db/client";
import { retailers } from "../../db/schema";

let handle: DbHandle;
beforeAll(() => {
  handle = createDb(process.env.DATABASE_URL!, { max: 1 });
});
afterAll(async () => {
  await handle?.close();
});

test("select 1 on the test database", async () => {
  const rows = await handle.sql<
    { one: number; db: string }[]
  >`select 1 as one, current_database() as db`;
  expect(rows[0].one).toBe(1);
  expect(rows[0].db).toMatch(/test/);
});

test("migrations were applied", async () => {
  const rows = await handle.sql<
    { n: number }[]
  >`select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
  expect(rows[0].n).toBeGreaterThan(0);
});

test("a statement Drizzle runs again is prepared once on its connection, in and out of transactions, and gives the same rows", async () => {
  const byId = (id: number) =>
    handle.db.select({ id: retailers.id }).from(retailers).where(eq(retailers.id, id));
  const prepared = async () =>
    (
      await handle.db.execute<{ statement: string }>(
        sql`select statement from pg_prepared_statements where statement like ${'%from "retailers"%'}`,
      )
    ).map((r) => r.statement);
  expect(await byId(-1)).toEqual([]);
  expect(await byId(-2)).toEqual([]);
  await handle.db.transaction(async (tx) => {
    await tx.select({ id: retailers.id }).from(retailers).where(eq(retailers.id, -3));
    await tx.transaction(async (inner) =>
      inner.select({ id: retailers.id }).from(retailers).where(eq(retailers.id, -4)),
    );
  });
  // One connection (max 1): the select is one prepared statement, used four times.
  expect((await prepared()).filter((s) => s.includes('where "retailers"."id" = $1'))).toHaveLength(
    1,
  );
});

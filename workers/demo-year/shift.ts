/**
 * The demo year's one place where dates are moved (ADR 0063). The year was played forward from the machine's
 * "now": workflow time on the time-skipping server (the instants a workflow hands its activities: approvals,
 * deliveries, deadlines) ran a year ahead, while what the activities and the database stamped with the real
 * clock (Date.now(), now(): created_at, payments, messages, outbox) was written within a minute or two of
 * real time. Here every instant the year wrote is put on one line and moved back by one offset, so the year
 * ends about now:
 *
 * - a real-clock instant (written during the run: between `realStart` and the clock's last checkpoint) is first
 *   read as the server instant at which it was written (DemoClock.serverTimeOf), then moved back;
 * - a server-clock instant (the server was advanced `lead` days before the first trade, so these lie beyond any
 *   real-clock one) is moved back as it is;
 * - an instant before `realStart` (the base seed's, the migrations') is left alone.
 *
 * Every timestamp column of every table of the public schema is rewritten so (seed_runs excepted), and so are
 * the ISO instants inside JSON columns (an order's deadlines, a swap's view, the sandboxes' records) and the
 * Unix seconds the sandbox payment objects keep under `created`. A date column (a markdown schedule's next step
 * and the day of each step, docs/product/markdowns.md: local days of the server's clock) is moved back by the
 * offset in whole days, from the year's first day on. The year's notices count as sent when they
 * were written (the dev worker would otherwise mail a year of them to Mailpit at start).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Checkpoint } from "./clock";

export interface Shift {
  /** Real ms before the year wrote anything. */
  realStart: number;
  /** Where the clocks stood around every advance (DemoClock.checkpoints; the last one after the year). */
  checkpoints: Checkpoint[];
  /** Server ms that becomes "now" (real ms at the shift). */
  serverEnd: number;
  nowMs: number;
}

/** The instant `ms` (either clock) on the year's line, moved back; null when it is not the year's. */
export function shiftedMs(s: Shift, ms: number): number | null {
  if (ms < s.realStart) return null;
  const offset = s.serverEnd - s.nowMs;
  const last = s.checkpoints[s.checkpoints.length - 1];
  if (ms > last.realMs + 60_000) return ms - offset;
  const next = s.checkpoints.find((c) => c.realMs >= ms) ?? last;
  return next.serverMs - (next.realMs - ms) - offset;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function shiftJson(s: Shift, v: unknown, key = ""): unknown {
  if (typeof v === "string" && ISO.test(v)) {
    const ms = shiftedMs(s, Date.parse(v));
    return ms === null ? v : new Date(ms).toISOString();
  }
  if (typeof v === "number" && key === "created" && Number.isInteger(v)) {
    const ms = shiftedMs(s, v * 1000);
    return ms === null ? v : Math.floor(ms / 1000);
  }
  if (Array.isArray(v)) return v.map((x) => shiftJson(s, x));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shiftJson(s, x, k)]));
  return v;
}

/** Moves the year's instants back (see the file comment); the columns rewritten. */
export async function shiftYear(db: Db, s: Shift): Promise<number> {
  const cols = await db.execute<{ table_name: string; column_name: string; data_type: string }>(sql`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.table_name <> 'seed_runs'
      and c.data_type in ('timestamp with time zone', 'timestamp without time zone', 'jsonb', 'date')
    order by 1, 2`);
  const last = s.checkpoints[s.checkpoints.length - 1];
  const from = new Date(s.realStart).toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      update outbox_emails set status = 'sent', sent_at = created_at
      where status = 'queued' and created_at >= ${from}::timestamptz`);
    // The checkpoints as a table: a real-clock instant takes its next checkpoint's server time.
    await tx.execute(
      sql`create temporary table demo_checkpoints (real_ms float8, server_ms float8) on commit drop`,
    );
    await tx.execute(
      sql`insert into demo_checkpoints values ${sql.join(
        s.checkpoints.map((c) => sql`(${c.realMs}, ${c.serverMs})`),
        sql`, `,
      )}`,
    );
    const offset = s.serverEnd - s.nowMs;
    const days = Math.round(offset / 86_400_000);
    const firstDay = new Date(s.checkpoints[0].serverMs - 86_400_000).toISOString().slice(0, 10);
    for (const c of cols.filter((x) => x.data_type === "date")) {
      const col = sql.identifier(c.column_name);
      const table = sql.identifier(c.table_name);
      // In two updates: a unique (listing, day) would refuse a row moved onto one not yet moved.
      await tx.execute(
        sql`update ${table} set ${col} = ${col} + 100000 where ${col} >= ${firstDay}::date`,
      );
      await tx.execute(sql`
        update ${table} set ${col} = ${col} - 100000 - ${days}::int
        where ${col} >= ${firstDay}::date + 100000`);
    }
    for (const c of cols.filter((x) => x.data_type.startsWith("timestamp"))) {
      const col = sql.identifier(c.column_name);
      const ms = sql`(extract(epoch from ${col}) * 1000)`;
      await tx.execute(sql`
        update ${sql.identifier(c.table_name)} set ${col} = to_timestamp((case
          when ${ms} > ${last.realMs + 60_000} then ${ms}
          else coalesce((select k.server_ms - (k.real_ms - ${ms}) from demo_checkpoints k where k.real_ms >= ${ms} order by k.real_ms limit 1),
                        ${last.serverMs} - (${last.realMs} - ${ms}))
          end - ${offset}) / 1000.0)
        where ${col} >= ${from}::timestamptz`);
    }
    for (const c of cols.filter((x) => x.data_type === "jsonb")) {
      const col = sql.identifier(c.column_name);
      const table = sql.identifier(c.table_name);
      const rows = await tx.execute<{ k: string; v: unknown }>(
        sql`select ctid::text as k, ${col} as v from ${table} where ${col}::text ~ '"created"|\\d{4}-\\d\\d-\\d\\dT'`,
      );
      const changed = rows.flatMap((r) => {
        const next = JSON.stringify(shiftJson(s, r.v));
        return next === JSON.stringify(r.v) ? [] : [sql`(${r.k}::tid, ${next}::jsonb)`];
      });
      for (let i = 0; i < changed.length; i += 500)
        await tx.execute(sql`
          update ${table} t set ${col} = v.j from (values ${sql.join(changed.slice(i, i + 500), sql`, `)}) v(k, j)
          where t.ctid = v.k`);
    }
    return cols.length;
  });
}

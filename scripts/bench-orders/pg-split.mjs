// PostgreSQL's CPU split by database (--json, npm run bench:topology): one server holds the app's database and,
// on the production topology, Temporal's two (persistence and visibility). Every second the sampler reads which
// database each client backend serves (pg_stat_activity: pid, datname) and the backend's CPU from /proc; a
// backend's CPU during the run is its last reading minus its first (0 for a backend that started during the
// run). What is left of the server's whole tree (postmaster, checkpointer, WAL writer, autovacuum, and the last
// second of backends that ended between two readings) is "other".
import { processCpuMs } from "../lib/cpu.mjs";

const SAMPLE_MS = 1000;

/** Starts sampling; `stop()` resolves to { [datname]: CPU ms during the run }. The sampler's own backend is left out. */
export async function startPgSplit(databaseUrl) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  const [{ pid: own }] = await sql`select pg_backend_pid() as pid`;
  /** pid → { db, first, last }; ended: backends whose pid was taken by a later one */
  const backends = new Map();
  const ended = [];
  const read = async (atStart) => {
    const rows = await sql`
      select pid, datname from pg_stat_activity
      where backend_type = 'client backend' and datname is not null and pid <> ${own}`;
    for (const { pid, datname } of rows) {
      const ms = processCpuMs(pid);
      const b = backends.get(pid);
      // The same pid again for another backend (it ended and the number came round): the old one is done.
      if (b && (b.db !== datname || ms < b.last)) ended.push(b);
      if (b && b.db === datname && ms >= b.last) b.last = ms;
      else backends.set(pid, { db: datname, first: atStart ? ms : 0, last: ms });
    }
  };
  await read(true);
  let running = true;
  let wake = null; // ends the current wait at once (stop)
  const loop = (async () => {
    while (running) {
      await new Promise((r) => {
        const t = setTimeout(r, SAMPLE_MS);
        wake = () => (clearTimeout(t), r());
      });
      if (running) await read(false).catch(() => {});
    }
  })();
  return {
    stop: async () => {
      running = false;
      wake?.();
      await loop;
      await read(false).catch(() => {});
      await sql.end({ timeout: 5 });
      const byDb = {};
      for (const b of [...ended, ...backends.values()])
        byDb[b.db] = (byDb[b.db] ?? 0) + Math.max(0, b.last - b.first);
      return byDb;
    },
  };
}

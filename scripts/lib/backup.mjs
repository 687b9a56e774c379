// Backups and restore of the embedded PostgreSQL cluster and the uploads (docs/operations.md "Backups and
// restore", docs/decisions/0049-physical-backup-of-the-embedded-cluster.md).
//
// A backup is PostgreSQL's own online base backup, taken through SQL (the embedded package ships the server,
// not pg_dump): a temporary replication slot keeps the WAL, pg_backup_start, a copy of the data directory,
// pg_backup_stop, then the WAL segments from the start to the stop. One cluster holds the app's database and
// Temporal's two, so the three are consistent at one instant. The uploads are copied after it (a file newer
// than the databases is an orphan, never a missing file). <backups>/<UTC time>/{pg, uploads, backup.json}.
//
// A restore (the stack stopped) keeps the current cluster aside, puts the backup's in its place, starts it
// (PostgreSQL replays the WAL to the backup's end), and then, in the app's database:
//   - the sandbox providers' tables (payments and carrier) are taken from the cluster being replaced: they
//     stand for the provider's records, which a restore of ours does not take back in time;
//   - every sequence jumps ahead, so no new order takes the id (and so the workflow id and idempotency keys)
//     of one that existed after the backup and is known to the provider;
//   - the restore is recorded (db/queries/restores.ts): orders created before it ask the provider before
//     each movement (docs/decisions/0048-restore-asks-the-provider.md).
// Node built-ins and scripts/lib only; the `postgres` client is imported lazily.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DB_NAMES } from "./paths.mjs";
import { postgresIds, resolveDataDir, startEmbeddedPostgres } from "./pg.mjs";

/** What a base backup leaves out of the data directory (PostgreSQL's "Making a Base Backup" list). */
const SKIP = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);

/** The sandbox providers' tables: the provider's side, kept as they are across a restore. */
export const PROVIDER_TABLES = Object.freeze([
  "sandbox_payment_objects",
  "sandbox_idempotency_keys",
  "sandbox_carrier_shipments",
]);

/** How far every sequence of the app's database jumps at a restore (more ids than a day of trading uses). */
export const SEQUENCE_GAP = 1_000_000;

const stamp = (d) => d.toISOString().replace(/[:.]/g, "-");

async function connect(url) {
  const { default: postgres } = await import("postgres");
  return postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
}

/**
 * Takes a backup of the running cluster in `dataDir` (reached at `serverUrl`) and of `uploadDir` into
 * <backupsDir>/<time>; returns { dir, name, takenAt }.
 */
export async function takeBackup({ serverUrl, dataDir, uploadDir, backupsDir, now = new Date() }) {
  const name = stamp(now);
  const dir = path.join(backupsDir, name);
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(path.join(partial, "pg", "pg_wal"), { recursive: true });
  const sql = await connect(serverUrl);
  let takenAt;
  try {
    const slot = `backup_${process.pid}_${Date.now()}`;
    // Temporary (dropped with this session) and reserving WAL from now: no segment the copy needs is recycled.
    await sql`select pg_create_physical_replication_slot(${slot}, true, true)`;
    const [{ lsn: startLsn }] = await sql`select pg_backup_start(${name}, true) as lsn`;
    copyTree(dataDir, path.join(partial, "pg"), (rel) => !SKIP.has(rel.split(path.sep)[0]));
    const [stop] = await sql`select lsn, labelfile, spcmapfile from pg_backup_stop(false)`;
    const [{ at }] = await sql`select now() as at`;
    takenAt = new Date(at);
    // The segment holding the stop goes out complete.
    await sql`select pg_switch_wal()`;
    fs.writeFileSync(path.join(partial, "pg", "backup_label"), stop.labelfile);
    if (stop.spcmapfile)
      fs.writeFileSync(path.join(partial, "pg", "tablespace_map"), stop.spcmapfile);
    const [{ first, last }] = await sql`
      select pg_walfile_name(${startLsn}::pg_lsn) as first, pg_walfile_name(${stop.lsn}::pg_lsn) as last`;
    const timeline = first.slice(0, 8);
    for (const f of fs.readdirSync(path.join(dataDir, "pg_wal"))) {
      if (!/^[0-9A-F]{24}$/.test(f) || f.slice(0, 8) !== timeline) continue;
      if (f < first || f > last) continue;
      fs.copyFileSync(path.join(dataDir, "pg_wal", f), path.join(partial, "pg", "pg_wal", f));
    }
    for (const d of SKIP)
      if (d !== "pg_wal" && !d.startsWith("postmaster"))
        fs.mkdirSync(path.join(partial, "pg", d), { recursive: true });
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (uploadDir && fs.existsSync(uploadDir)) copyTree(uploadDir, path.join(partial, "uploads"));
  fs.writeFileSync(
    path.join(partial, "backup.json"),
    JSON.stringify({ name, takenAt: takenAt.toISOString(), uploads: !!uploadDir }, null, 2) + "\n",
  );
  fs.renameSync(partial, dir);
  return { dir, name, takenAt };
}

/** Backups older than `keepDays` (by their backup.json) are removed; returns the names removed. */
export function pruneBackups(backupsDir, keepDays, now = new Date()) {
  const removed = [];
  for (const b of listBackups(backupsDir))
    if (now.getTime() - b.takenAt.getTime() > keepDays * 86_400_000) {
      fs.rmSync(b.dir, { recursive: true, force: true });
      removed.push(b.name);
    }
  return removed;
}

/** The finished backups in `backupsDir`, oldest first: { name, dir, takenAt }. */
export function listBackups(backupsDir) {
  if (!fs.existsSync(backupsDir)) return [];
  return fs
    .readdirSync(backupsDir)
    .filter((n) => fs.existsSync(path.join(backupsDir, n, "backup.json")))
    .map((n) => {
      const meta = JSON.parse(fs.readFileSync(path.join(backupsDir, n, "backup.json"), "utf8"));
      return { name: n, dir: path.join(backupsDir, n), takenAt: new Date(meta.takenAt) };
    })
    .sort((a, b) => a.takenAt - b.takenAt);
}

/**
 * Restores `backupDir` over the (stopped) cluster in `dataDir` and over `uploadDir`; the current ones are kept
 * beside them as *.before-restore-<time>. `port`: where the cluster is started for the restore's own steps.
 * Returns { takenAt, keptAside: [paths], providerBytes }.
 */
export async function restoreBackup({
  backupDir,
  dataDir,
  uploadDir,
  port,
  database = DB_NAMES.dev,
  now = new Date(),
  log = () => {},
}) {
  const meta = JSON.parse(fs.readFileSync(path.join(backupDir, "backup.json"), "utf8"));
  const ids = postgresIds();
  dataDir = resolveDataDir(dataDir, ids);
  if (fs.existsSync(path.join(dataDir, "postmaster.pid")))
    throw new Error(`${dataDir} has a postmaster.pid: stop the stack (and its PostgreSQL) first`);
  const keptAside = [];
  // The provider's side, from the cluster being replaced.
  let provider = null;
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    log("reading the sandbox providers' records from the current cluster");
    const pg = await startEmbeddedPostgres({
      name: "postgres-before-restore",
      dataDir,
      port,
      quiet: true,
    });
    try {
      provider = await readTables(pg.url(database), PROVIDER_TABLES);
    } finally {
      await pg.stop();
    }
    const aside = `${dataDir}.before-restore-${stamp(now)}`;
    fs.renameSync(dataDir, aside);
    keptAside.push(aside);
  }
  log(`putting the backup's cluster in place (${meta.name})`);
  copyTree(path.join(backupDir, "pg"), dataDir);
  fs.chmodSync(dataDir, 0o700);
  if (ids.uid) spawnSync("chown", ["-R", `${ids.uid}:${ids.gid}`, dataDir]);
  log("starting it: PostgreSQL replays the backup's WAL");
  const pg = await startEmbeddedPostgres({ name: "postgres-restore", dataDir, port, quiet: true });
  let providerBytes = 0;
  try {
    const sql = await connect(pg.url(database));
    try {
      await sql.begin(async (tx) => {
        if (provider) providerBytes = await writeTables(tx, provider);
        const seqs =
          await tx`select sequencename as name, coalesce(last_value, 0) as v from pg_sequences where schemaname = 'public'`;
        for (const s of seqs)
          await tx`select setval(${`public.${s.name}`}::regclass, ${Number(s.v) + SEQUENCE_GAP})`;
        await tx`insert into restores (backup, backup_taken_at) values (${meta.name}, ${meta.takenAt})`;
      });
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await pg.stop();
  }
  if (uploadDir && fs.existsSync(path.join(backupDir, "uploads"))) {
    if (fs.existsSync(uploadDir)) {
      const aside = `${uploadDir}.before-restore-${stamp(now)}`;
      fs.renameSync(uploadDir, aside);
      keptAside.push(aside);
    }
    copyTree(path.join(backupDir, "uploads"), uploadDir);
  }
  return { takenAt: new Date(meta.takenAt), keptAside, providerBytes };
}

/** Every row of `tables` (those that exist), as PostgreSQL's COPY text (exact for every type). */
async function readTables(url, tables) {
  const sql = await connect(url);
  try {
    const out = {};
    for (const t of tables) {
      const [{ exists }] = await sql`select to_regclass(${`public.${t}`}) is not null as exists`;
      if (!exists) continue;
      const chunks = [];
      for await (const c of await sql`copy ${sql(t)} to stdout`.readable()) chunks.push(c);
      out[t] = Buffer.concat(chunks);
    }
    return out;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Replaces the rows of each table with the COPY text read by readTables (in the restore's transaction). */
async function writeTables(tx, copied) {
  let bytes = 0;
  for (const [t, data] of Object.entries(copied)) {
    await tx`delete from ${tx(t)}`;
    const w = await tx`copy ${tx(t)} from stdin`.writable();
    await pipeline(Readable.from([data]), w);
    bytes += data.length;
  }
  return bytes;
}

/** Copies a directory tree (files, directories, symlinks), keeping modes; `keep(relativePath)` filters. */
function copyTree(from, to, keep = () => true) {
  fs.cpSync(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      if (!rel) return true;
      try {
        return keep(rel) && !fs.lstatSync(src).isSocket();
      } catch {
        return false; // gone while copying (a temporary file of the server)
      }
    },
  });
}

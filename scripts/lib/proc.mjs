// Child-process orchestration: each long-running service gets its own process group so that
// stopping it stops its children too (remix dev -> remix-serve, npm -> node, ...).
// Node built-ins only.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { linePrefixer } from "./log.mjs";
import { ROOT } from "./paths.mjs";

const services = [];

/** Runs a command to completion. Output is inherited, or prefixed with `prefix` when given. */
export function run(cmd, args, { env, cwd = ROOT, prefix, quiet = false, input } = {}) {
  return new Promise((resolve, reject) => {
    const piped = Boolean(prefix) || quiet;
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: [
        input === undefined ? "ignore" : "pipe",
        piped ? "pipe" : "inherit",
        piped ? "pipe" : "inherit",
      ],
    });
    let output = "";
    if (piped) {
      const out = prefix ? linePrefixer(prefix, process.stdout) : null;
      const err = prefix ? linePrefixer(prefix, process.stderr) : null;
      child.stdout.on("data", (d) => {
        output += d;
        out?.push(d);
      });
      child.stderr.on("data", (d) => {
        output += d;
        err?.push(d);
      });
      child.on("close", () => {
        out?.flush();
        err?.flush();
      });
    }
    if (input !== undefined) child.stdin.end(input);
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), signal, output }),
    );
  });
}

/** Like run() but throws when the command fails (showing its output if it was captured). */
export async function runOrThrow(cmd, args, opts = {}) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) {
    if (opts.quiet && r.output) process.stderr.write(r.output);
    throw new Error(`${[cmd, ...args].join(" ")} exited with ${r.signal ?? r.code}`);
  }
  return r;
}

/**
 * Starts a long-running service in its own process group, prefixing its output with [name].
 * Returns { name, pid, child, exited (promise), stop() }.
 */
export function startService(
  name,
  cmd,
  args,
  { env, cwd = ROOT, filter, onExit, logFile, spawnOpts = {} } = {},
) {
  const child = spawn(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // new process group (pgid = pid)
    ...spawnOpts,
  });
  const logStream = logFile ? fs.createWriteStream(logFile, { flags: "a" }) : null;
  const out = logStream ? null : linePrefixer(name, process.stdout, filter);
  const err = logStream ? null : linePrefixer(name, process.stderr, filter);
  let tail = "";
  const keepTail = (d) => {
    tail = (tail + d).slice(-4000);
  };
  child.stdout.on("data", (d) => {
    keepTail(d);
    logStream ? logStream.write(d) : out.push(d);
  });
  child.stderr.on("data", (d) => {
    keepTail(d);
    logStream ? logStream.write(d) : err.push(d);
  });
  const svc = {
    name,
    pid: child.pid,
    child,
    stopping: false,
    exitCode: undefined,
    tail: () => tail,
    exited: null,
    stop: (opts) => stopService(svc, opts),
  };
  svc.exited = new Promise((resolve) => {
    child.on("error", (e) => {
      tail += `\n${e.message}`;
      svc.exitCode = -1;
      resolve(-1);
    });
    child.on("close", (code, signal) => {
      out?.flush();
      err?.flush();
      logStream?.end();
      svc.exitCode = code ?? signal;
      resolve(svc.exitCode);
      if (!svc.stopping && onExit) onExit(svc.exitCode, svc);
    });
  });
  services.push(svc);
  return svc;
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

/** SIGTERM (or `signal`) to the whole group, then SIGKILL after `timeoutMs`. */
export async function stopService(svc, { signal = "SIGTERM", timeoutMs = 10_000 } = {}) {
  if (!svc || svc.stopped) return;
  svc.stopping = true;
  if (svc.exitCode === undefined || groupAlive(svc.pid)) {
    killGroup(svc.pid, signal);
    const deadline = Date.now() + timeoutMs;
    await Promise.race([svc.exited, idle(timeoutMs)]);
    // The leader may be gone while grandchildren linger in the group.
    while (groupAlive(svc.pid) && Date.now() < deadline) await sleep(100);
    if (groupAlive(svc.pid)) killGroup(svc.pid, "SIGKILL");
  }
  svc.stopped = true;
  const i = services.indexOf(svc);
  if (i >= 0) services.splice(i, 1);
}

/** Stops every service still registered, newest first. */
export async function stopAll(opts) {
  for (const svc of [...services].reverse()) await stopService(svc, svc.stopOpts ?? opts);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A sleep that does not keep the process alive (for Promise.race timeouts). */
export const idle = (ms) => new Promise((r) => setTimeout(r, ms).unref());

export function isPortOpen(port, host = "127.0.0.1", timeoutMs = 500) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (v) => {
      sock.destroy();
      resolve(v);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once("connect", () => done(true));
    sock.once("error", () => done(false));
  });
}

/** Waits until host:port accepts TCP connections; rejects early if `svc` exits. */
export async function waitForPort(
  port,
  { host = "127.0.0.1", timeoutMs = 60_000, svc, what } = {},
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(port, host)) return;
    if (svc && svc.exitCode !== undefined) {
      throw new Error(
        `${svc.name} exited (${svc.exitCode}) before ${what ?? `port ${port}`} was ready:\n${svc.tail()}`,
      );
    }
    await sleep(150);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? `${host}:${port}`}`);
}

/** Waits until `url` answers with a status below 500. Returns the status. */
export async function waitForHttp(url, { timeoutMs = 120_000, svc, svcs = [] } = {}) {
  const deadline = Date.now() + timeoutMs;
  const watched = svc ? [svc, ...svcs] : svcs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer().catch(() => {});
      if (res.status < 500) return res.status;
    } catch {
      /* not up yet */
    }
    for (const s of watched) {
      if (s.exitCode !== undefined)
        throw new Error(`${s.name} exited (${s.exitCode}) before ${url} answered:\n${s.tail()}`);
    }
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${url}`);
}

/** Which process listens on a TCP port (best effort, for error messages). */
export function whoListens(port) {
  const r = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  return (r.stdout || "").trim() || "unknown process";
}

/** Finds an executable on PATH without spawning a shell. */
export function which(name) {
  for (const dir of (process.env.PATH || "").split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/**
 * Installs SIGINT/SIGTERM/SIGHUP handlers that run `cleanup` once, then exit.
 * A second Ctrl-C while cleaning up kills every service group immediately.
 */
export function onShutdown(cleanup) {
  let firstAt = 0;
  const handler = async (sig) => {
    if (firstAt) {
      // Under `npm run`, one Ctrl-C arrives twice (from the terminal and forwarded by npm): only a
      // second press, later, means "kill it now".
      if (Date.now() - firstAt < 2000) return;
      for (const s of services) killGroup(s.pid, "SIGKILL");
      process.exit(130);
    }
    firstAt = Date.now();
    try {
      await cleanup(sig);
    } finally {
      process.exit(sig === "SIGINT" ? 130 : 143);
    }
  };
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, () => handler(sig));
}

/** A lock directory with the owner's pid; waits while another live process holds it. */
export async function acquireLock(
  dir,
  { what = "lock", waitMs = 30 * 60_000, log = console.log } = {},
) {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "pid"), String(process.pid));
      const release = () => fs.rmSync(dir, { recursive: true, force: true });
      process.on("exit", release);
      return release;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(dir, "pid"), "utf8"));
      } catch {
        /* being created */
      }
      let alive = false;
      if (owner) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      let stale = owner && !alive;
      if (!owner) {
        try {
          stale = Date.now() - fs.statSync(dir).mtimeMs > 10_000; // creator died before writing its pid
        } catch {
          continue;
        }
      }
      if (stale) {
        fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${what} still held by pid ${owner}`);
      if (!told && owner) {
        log(`waiting for ${what} held by pid ${owner}...`);
        told = true;
      }
      await sleep(1000);
    }
  }
}

// A production-like stack of its own for `npm run bench:orders -- --prod` (scripts/bench-orders.mjs):
//   build    remix build into <dataDir>/build (REMIX_BUILD_DIR, so a running `npm run dev` keeps its build/)
//            + the workflow bundle (workers/bundle.ts → build/workflow-bundle.js, the one path the worker
//            loads with NODE_ENV=production); skipped with build: false
//   Postgres embedded, <dataDir>/pg, wiped each run (fsync on, as dev), database `marketplace`, migrated and
//            seeded as `npm run dev` does (scripts/lib/stack.mjs migrateAndSeed)
//   Temporal dev server, headless, file-backed <dataDir>/temporal.db (wiped each run), with the same engine
//            settings as every dev server of the project (scripts/lib/temporal.mjs)
//   worker   NODE_ENV=production node --import tsx workers/main.ts (loads the prebuilt bundle when fresh)
//   web      NODE_ENV=production node workers/web.mjs
// NODE_ENV=production with APP_ENV=staging: the production secret checks of app/utils/env.server.ts apply
// unchanged, and pass because the stack is given throwaway random webhook secrets (CARRIER_WEBHOOK_SECRET,
// SANDBOX_WEBHOOK_SECRET) made for this run. Payments: the sandbox (Stripe keys are not passed on); mail:
// the outbox only (no SMTP_URL). Children's output goes to <dataDir>/logs/*.log.
// codec: "off" starts the web servers and workers with PAYLOAD_CODEC=off (no payload codec: the codec's cost,
// npm run bench:orders -- --prod --codec off|both; staging takes it, production refuses it); default "on".
// BENCH_CPU_PROFILE_DIR=<dir> (optional): the web servers and workers run with `node --cpu-prof` and write their
// profiles there when stopped (Node refuses --cpu-prof in NODE_OPTIONS); open them in Chrome DevTools.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fmtMs, info, step } from "./log.mjs";
import { DB_NAMES, ROOT } from "./paths.mjs";
import { isPortOpen, runOrThrow, sleep, startService, waitForHttp, whoListens } from "./proc.mjs";

/** Variables of the caller's shell that must not leak into the bench's stack. */
export const INHERITED_STACK_VARS = [
  "DATABASE_URL",
  "TEMPORAL_ADDRESS",
  "TEMPORAL_NAMESPACE",
  "TEMPORAL_TASK_QUEUE",
  "TEMPORAL_UI_URL",
  "APP_ORIGIN",
  "APP_ENV",
  "PORT",
  "REMIX_BUILD_DIR",
  "SMTP_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_HOST",
  "STRIPE_API_PORT",
  "STRIPE_API_PROTOCOL",
  "SANDBOX_WEBHOOK_SECRET",
  "CARRIER_WEBHOOK_SECRET",
  "UPLOAD_DIR",
];

/** Refuses to start when one of the stack's ports (or, scaled out, the web processes' ports) is taken. */
async function checkPorts(ports, webPorts, scale) {
  for (const [name, port] of [
    ...Object.entries(ports),
    ...(scale > 1 ? webPorts.map((p, i) => [`web ${i + 1}`, p]) : []),
  ]) {
    if (await isPortOpen(port))
      throw new Error(
        `${name} port ${port} is taken (${whoListens(port)}): stop it (a bench left running?)`,
      );
  }
}

/** The production build (remix build into buildDir, the workflow bundle), unless `build` is false; its time in ms. */
async function buildOnce(build, buildDir, tsxArgs) {
  const REMIX_BUILD_DIR = path.relative(ROOT, buildDir);
  if (!build) {
    if (!fs.existsSync(path.join(buildDir, "index.js")))
      throw new Error(
        `--no-build: there is no build in ${REMIX_BUILD_DIR} (run once without --no-build)`,
      );
    return 0;
  }
  step(
    `production build: remix build → ${REMIX_BUILD_DIR}, workflow bundle → build/workflow-bundle.js`,
  );
  const t = Date.now();
  await runOrThrow(
    process.execPath,
    [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"],
    {
      env: { NODE_ENV: "production", REMIX_BUILD_DIR },
      quiet: true,
    },
  );
  await runOrThrow(process.execPath, tsxArgs(path.join(ROOT, "workers", "bundle.ts")), {
    env: { NODE_ENV: "production" },
    quiet: true,
  });
  const buildMs = Date.now() - t;
  info(`built in ${fmtMs(buildMs)}`);
  return buildMs;
}

/** The environment of the stack's processes (production checks on, throwaway webhook secrets). */
function stackEnv(ports, dataDir, buildDir, taskQueue, codec) {
  const secret = () => crypto.randomBytes(24).toString("hex");
  return {
    NODE_ENV: "production",
    APP_ENV: "staging",
    PORT: String(ports.app),
    APP_ORIGIN: `http://localhost:${ports.app}`,
    REMIX_BUILD_DIR: path.relative(ROOT, buildDir),
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
    TEMPORAL_NAMESPACE: "default",
    TEMPORAL_TASK_QUEUE: taskQueue,
    TEMPORAL_UI_URL: `http://localhost:${ports.temporal}`,
    CARRIER_WEBHOOK_SECRET: secret(),
    SANDBOX_WEBHOOK_SECRET: secret(),
    PAYLOAD_KEYS: `bench-1:${crypto.randomBytes(32).toString("base64")}`,
    PAYLOAD_CODEC: codec,
    UPLOAD_DIR: path.join(dataDir, "uploads"),
  };
}

/** Postgres (wiped, migrated and seeded) and Temporal (wiped), side by side; sets env.DATABASE_URL. */
async function startData({ ports, dataDir, env, started }) {
  const { ensureTemporal } = await import("./tools.mjs");
  const { startEmbeddedPostgres } = await import("./pg.mjs");
  const { migrateAndSeed } = await import("./stack.mjs");
  const { startTemporalDev } = await import("./temporal.mjs");
  step(
    `starting Postgres :${ports.postgres} and Temporal :${ports.temporal} (${path.relative(ROOT, dataDir)}, wiped), migrating and seeding`,
  );
  const temporalBin = await ensureTemporal();
  const dbFile = path.join(dataDir, "temporal.db");
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  const [databaseUrl] = await Promise.all([
    (async () => {
      const pg = await startEmbeddedPostgres({
        name: "pg-bench-orders",
        dataDir: path.join(dataDir, "pg"),
        port: ports.postgres,
        databases: [DB_NAMES.dev],
        wipe: true,
        quiet: true,
      });
      started.push({ name: "postgres", stop: pg.stop });
      const url = pg.url(DB_NAMES.dev);
      await migrateAndSeed({ ...env, DATABASE_URL: url }, { quiet: true });
      return url;
    })(),
    (async () => {
      const t = await startTemporalDev({
        bin: temporalBin,
        port: ports.temporal,
        uiPort: null,
        dbFile,
        name: "temporal-bench-orders",
        quiet: true,
      });
      started.push({ name: "temporal", stop: t.stop });
    })(),
  ]);
  env.DATABASE_URL = databaseUrl;
}

/** Has the worker connected (it logs how it got its workflows once it polls)? */
const WORKFLOWS_LOGGED = /workflows: (prebuilt bundle|compiled from source)/;

/** `scale` workers; and killWorker(i) for the kill loop. */
function startWorkers({ scale, env, logDir, name, profFlags, started, tsxArgs }) {
  const workers = [];
  const startWorker = (i) =>
    startService(
      name("worker", i),
      process.execPath,
      [...profFlags, ...tsxArgs("workers/main.ts")],
      {
        env,
        logFile: path.join(logDir, `${name("worker", i)}.log`),
      },
    );
  for (let i = 0; i < scale; i++) {
    workers.push(startWorker(i));
    started.push({ name: name("worker", i), stop: () => workers[i].stop({ timeoutMs: 15_000 }) });
  }
  /**
   * SIGKILLs worker i wherever it is (no shutdown: its activities and workflow tasks in flight are lost and
   * time out), then starts a new one in its place; resolves once the new one polls. For the kill loop.
   */
  const killWorker = async (i) => {
    const old = workers[i];
    old.stopping = true;
    try {
      process.kill(-old.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    await Promise.race([old.exited, sleep(10_000)]);
    const fresh = startWorker(i);
    workers[i] = fresh;
    for (let k = 0; k < 600 && !WORKFLOWS_LOGGED.test(fresh.tail()); k++) {
      if (fresh.exitCode !== undefined)
        throw new Error(`the restarted worker exited (${fresh.exitCode}):\n${fresh.tail()}`);
      await sleep(100);
    }
    return fresh.pid;
  };
  return { workers, killWorker };
}

/** The web servers (and, scaled out, the round-robin proxy in front of them), once they answer. */
async function startWebs({
  ports,
  webPorts,
  scale,
  env,
  logDir,
  name,
  profFlags,
  started,
  workers,
}) {
  const webs = [];
  for (const [i, port] of webPorts.entries()) {
    const web = startService(
      name("web", i),
      process.execPath,
      [...profFlags, path.join(ROOT, "workers", "web.mjs")],
      {
        env: { ...env, PORT: String(port) },
        logFile: path.join(logDir, `${name("web", i)}.log`),
      },
    );
    started.push({ name: name("web", i), stop: () => web.stop({ timeoutMs: 10_000 }) });
    webs.push(web);
  }
  let proxy = null;
  if (scale > 1) {
    proxy = startService(
      "proxy",
      process.execPath,
      [
        path.join(ROOT, "scripts", "lib", "rr-proxy.mjs"),
        String(ports.app),
        ...webPorts.map(String),
      ],
      { logFile: path.join(logDir, "proxy.log") },
    );
    started.push({ name: "proxy", stop: () => proxy.stop({ timeoutMs: 5_000 }) });
  }
  for (const [i, web] of webs.entries())
    await waitForHttp(`http://localhost:${webPorts[i]}/signin`, {
      svc: web,
      svcs: workers,
      timeoutMs: 120_000,
    });
  if (proxy)
    await waitForHttp(`http://localhost:${ports.app}/signin`, {
      svc: proxy,
      svcs: [...webs, ...workers],
      timeoutMs: 30_000,
    });
  return { webs, proxy };
}

/** Each worker's start line names its payload codec (workers/worker-process.ts): "on" or "off (…)". */
const CODEC_LOGGED = /payload codec: (on|off)/;

/**
 * How the workers got their workflows ("prebuilt bundle" / "compiled from source"), once each has connected;
 * throws when a worker's payload codec is not the one asked for.
 */
async function workflowsOf(workers, codec) {
  const each = [];
  for (const worker of workers) {
    let workflows = "?";
    for (let i = 0; i < 600 && workflows === "?"; i++) {
      if (worker.exitCode !== undefined)
        throw new Error(`the worker exited (${worker.exitCode}):\n${worker.tail()}`);
      const m = WORKFLOWS_LOGGED.exec(worker.tail());
      if (m) workflows = m[1];
      else await sleep(200);
    }
    const logged = CODEC_LOGGED.exec(worker.tail())?.[1];
    if (workflows !== "?" && logged !== codec)
      throw new Error(`a worker runs with the payload codec ${logged ?? "?"}, not ${codec}`);
    each.push(workflows);
  }
  return [...new Set(each)].join(" / ");
}

/**
 * Starts the stack; returns { env, baseUrl, databaseUrl, temporalAddress, workflows ("prebuilt bundle" |
 * "compiled from source" | "?"), buildMs, startMs, logDir, webPorts, pids, workerCount, killWorker(i), stop() }.
 * On failure everything started is stopped.
 */
export async function startProdStack({
  ports,
  dataDir,
  build = true,
  taskQueue = "marketplace",
  scale = 1,
  codec = "on",
}) {
  const { tsxArgs } = await import("./stack.mjs");
  const started = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop().catch(() => {});
    started.length = 0;
  };
  const logDir = path.join(dataDir, "logs");
  const buildDir = path.join(dataDir, "build");
  fs.mkdirSync(logDir, { recursive: true });
  for (const f of fs.readdirSync(logDir)) fs.rmSync(path.join(logDir, f), { force: true });
  // Scale-out: `scale` web processes on the ports after the app's, behind a round-robin proxy on the app's port
  // (scripts/lib/rr-proxy.mjs), and `scale` workers on the one task queue.
  const webPorts =
    scale > 1 ? Array.from({ length: scale }, (_, i) => ports.app + 1 + i) : [ports.app];
  await checkPorts(ports, webPorts, scale);
  try {
    const buildMs = await buildOnce(build, buildDir, tsxArgs);
    const t0 = Date.now();
    const env = stackEnv(ports, dataDir, buildDir, taskQueue, codec);
    await startData({ ports, dataDir, env, started });
    step(
      (scale > 1
        ? `starting ${scale} workers and ${scale} web servers (NODE_ENV=production) on ${webPorts.map((p) => `:${p}`).join(", ")}, behind a round-robin proxy on :${ports.app}`
        : `starting the worker and the web server (NODE_ENV=production) on :${ports.app}`) +
        (codec === "off" ? ", payload codec off (PAYLOAD_CODEC=off)" : ""),
    );
    const profDir = process.env.BENCH_CPU_PROFILE_DIR;
    const run = {
      ports,
      webPorts,
      scale,
      env,
      logDir,
      started,
      tsxArgs,
      name: (kind, i) => (scale > 1 ? `${kind}-${i + 1}` : kind),
      profFlags: profDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profDir)}`] : [],
    };
    const { workers, killWorker } = startWorkers(run);
    const { webs, proxy } = await startWebs({ ...run, workers });
    const workflows = await workflowsOf(workers, codec);
    const startMs = Date.now() - t0;
    info(
      `production stack up in ${fmtMs(startMs)} (workers: workflows ${workflows}); logs in ${path.relative(ROOT, logDir)}/`,
    );
    return {
      env,
      baseUrl: `http://localhost:${ports.app}`,
      databaseUrl: env.DATABASE_URL,
      temporalAddress: env.TEMPORAL_ADDRESS,
      workflows,
      buildMs,
      startMs,
      logDir,
      webPorts,
      pids: {
        web: webs.map((w) => w.pid),
        worker: workers.map((w) => w.pid),
        proxy: proxy?.pid ?? null,
      },
      workerCount: workers.length,
      killWorker,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

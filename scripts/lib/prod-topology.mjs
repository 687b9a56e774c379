// The production topology on this machine, as `npm run prod` (scripts/prod.mjs) runs it:
//   build      the Remix build into <dataDir>/build (REMIX_BUILD_DIR) and the workflow bundle
//   Postgres   embedded (<dataDir>/pg, kept between runs) or DATABASE_URL's server; the app's database and
//              Temporal's two (persistence, visibility) on it
//   Temporal   the schema tool's steps, then the server as four processes (frontend first, then history,
//              matching, worker) from config/temporal/production.yaml, the namespace and search attributes,
//              and the Web UI
//   Mailpit    unless SMTP_URL
//   app        migrations (once, under a lock), M workers, N web processes behind a round-robin proxy
//   roll-out   Worker Versioning (scripts/lib/prod-deploy.mjs): the new build's workers beside the workers of
//              older builds that still have open orders, the replay check, the new build set current, the
//              older ones stopped and retired once drained
// Every long-running process is supervised: one that exits on its own is started again after a second
// (what a service manager does), unless it keeps failing. What each runs: config/topology.mjs, the one
// source docker-compose.yml is checked against. Output of each process: <dataDir>/logs/<name>.log.
import fs from "node:fs";
import path from "node:path";
import {
  APP_PASSED_ENV,
  TEMPORAL_SERVICES,
  namespaceSetupArgs,
  schemaSteps,
  sqlToolEnv,
  temporalServerArgs,
  temporalServerEnv,
  temporalServiceEnv,
  temporalUiArgs,
  temporalUiEnv,
} from "../../config/topology.mjs";
import { fmtMs, info, step, warn } from "./log.mjs";
import { DB_NAMES, ROOT } from "./paths.mjs";
import {
  isPortOpen,
  run,
  runOrThrow,
  sleep,
  startService,
  waitForHttp,
  waitForPort,
  whoListens,
} from "./proc.mjs";
import { connectionBudget, stagingSecrets } from "./prod-settings.mjs";

const REMIX_CLI = path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js");
const tsx = (file) => ["--import", "tsx", file];

/**
 * A supervised process: started again after `restartDelayMs` when it exits on its own; gives up (and calls
 * onGiveUp) after 5 exits within a minute. { name, current(), kill(signal), stop(), restarts }.
 */
export function supervise(
  name,
  cmd,
  args,
  { env, logFile, onGiveUp, restartDelayMs = 1000, stopOpts = { timeoutMs: 15_000 } },
) {
  const exits = [];
  const sup = { name, restarts: 0, stopped: false, svc: null };
  const start = () => {
    sup.svc = startService(name, cmd, args, {
      env,
      logFile,
      onExit: async (code) => {
        if (sup.stopped) return;
        exits.push(Date.now());
        while (exits.length && exits[0] < Date.now() - 60_000) exits.shift();
        fs.appendFileSync(
          logFile,
          `\n[prod] ${name} exited (${code}); ${exits.length >= 5 ? "giving up" : "restarting"}\n`,
        );
        if (exits.length >= 5) return onGiveUp?.(name, code);
        warn(`${name} exited (${code}); restarting it`);
        await sleep(restartDelayMs);
        if (sup.stopped) return;
        sup.restarts++;
        start();
      },
    });
  };
  start();
  sup.current = () => sup.svc;
  sup.kill = (signal = "SIGKILL") => {
    try {
      process.kill(-sup.svc.pid, signal);
    } catch {
      /* gone */
    }
  };
  sup.stop = async () => {
    sup.stopped = true;
    await sup.svc.stop(stopOpts);
  };
  return sup;
}

/** The two steps of `npm run build`, the Remix build into `buildDir` (a running `npm run dev` keeps build/). */
async function build(buildDir) {
  const REMIX_BUILD_DIR = path.relative(ROOT, buildDir);
  step(
    `production build: remix build → ${REMIX_BUILD_DIR}, workflow bundle → build/workflow-bundle.js`,
  );
  const t = Date.now();
  await runOrThrow(process.execPath, [REMIX_CLI, "build"], {
    env: { NODE_ENV: "production", REMIX_BUILD_DIR },
    quiet: true,
  });
  await runOrThrow(process.execPath, tsx(path.join(ROOT, "workers", "bundle.ts")), {
    env: { NODE_ENV: "production" },
    quiet: true,
  });
  info(`built in ${fmtMs(Date.now() - t)}`);
}

/**
 * PostgreSQL: the embedded server (kept in <dataDir>/pg) or DATABASE_URL's; { appUrl, db (Temporal's),
 * restart (embedded only: a fast shutdown and, after `downMs` (0), a start on the same data, for the fault script),
 * cluster (embedded only: its data directory and server URL, for the backups) }.
 */
async function startPostgres({ settings, dataDir, started }) {
  const userUrl = process.env.DATABASE_URL;
  let appUrl = userUrl;
  let restart = null;
  let cluster = null;
  if (!userUrl) {
    const { startEmbeddedPostgres } = await import("./pg.mjs");
    step(`starting PostgreSQL :${settings.ports.postgres} (${path.relative(ROOT, dataDir)}/pg)`);
    const open = () =>
      startEmbeddedPostgres({
        name: "postgres",
        dataDir: path.join(dataDir, "pg"),
        port: settings.ports.postgres,
        databases: [DB_NAMES.dev],
        quiet: true,
      });
    let pg = await open();
    if (!pg.reused) {
      started.push({ name: "postgres", stop: () => pg.stop(), pid: pg.pid() });
      restart = async (downMs = 0) => {
        await pg.stop();
        if (downMs > 0) await sleep(downMs);
        pg = await open();
      };
    }
    appUrl = pg.url(DB_NAMES.dev);
    cluster = { dataDir: pg.dataDir, serverUrl: pg.serverUrl };
  } else
    info(
      "DATABASE_URL is set: the app's and Temporal's databases go on that server (no embedded PostgreSQL)",
    );
  const u = new URL(appUrl);
  const db = {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    temporal: process.env.TEMPORAL_DB || "temporal",
    visibility: process.env.TEMPORAL_VISIBILITY_DB || "temporal_visibility",
  };
  await checkConnections(appUrl, settings);
  return { appUrl, db, restart, cluster };
}

/** Refuses to start when the topology's pools could exceed the server's max_connections. */
async function checkConnections(url, settings) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [{ max_connections: max }] = await sql`show max_connections`;
    const [{ superuser_reserved_connections: reserved }] =
      await sql`show superuser_reserved_connections`;
    const budget = connectionBudget(settings);
    const usable = Number(max) - Number(reserved);
    info(
      `connections: Temporal 4 × (${settings.TEMPORAL_DB_MAX_CONNS} + ${settings.TEMPORAL_VISIBILITY_MAX_CONNS}) = ${budget.temporal}, app ${budget.app}, other ${budget.other}: ${budget.total} of ${usable} (max_connections ${max})`,
    );
    if (budget.total > usable)
      throw new Error(
        `the topology could open ${budget.total} connections but PostgreSQL allows ${usable}: lower TEMPORAL_DB_MAX_CONNS / TEMPORAL_VISIBILITY_MAX_CONNS / WEB_PROCESSES / WORKER_PROCESSES or raise max_connections`,
      );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The schema tool's steps (config/topology.mjs schemaSteps): databases created, schemas set up and updated. */
async function temporalSchema(sqlTool, db) {
  step("Temporal schemas: create, set up, update (temporal-sql-tool, postgres12)");
  const t = Date.now();
  for (const s of schemaSteps(db)) {
    const r = await run(sqlTool, s.args, { env: sqlToolEnv(db), quiet: true });
    if (r.code !== 0 && !(s.mayExist && /already exists/.test(r.output)))
      throw new Error(
        `temporal-sql-tool ${s.args.join(" ")} failed (${r.code}):\n${r.output.slice(-3000)}`,
      );
  }
  info(`schemas ready in ${fmtMs(Date.now() - t)}`);
}

/** The four services, frontend first (cluster metadata), then the rest together; waits for each to listen. */
async function temporalServices({ bins, settings, db, logDir, started, onGiveUp }) {
  const ports = settings.ports.temporal;
  const frontendAddress = `127.0.0.1:${ports.frontend.grpc}`;
  const common = temporalServerEnv({
    db,
    bindIp: "127.0.0.1",
    broadcastAddress: "127.0.0.1",
    frontendAddress,
    ports,
    httpPort: settings.ports.temporalHttp,
    shards: settings.TEMPORAL_NUM_HISTORY_SHARDS,
    maxConns: {
      persistence: settings.TEMPORAL_DB_MAX_CONNS,
      visibility: settings.TEMPORAL_VISIBILITY_MAX_CONNS,
    },
    logLevel: settings.TEMPORAL_LOG_LEVEL,
  });
  const services = {};
  const startOne = (svc) => {
    const sup = supervise(`temporal-${svc}`, bins.server, temporalServerArgs(ROOT, svc), {
      env: { ...common, ...temporalServiceEnv(svc, ports) },
      logFile: path.join(logDir, `temporal-${svc}.log`),
      onGiveUp,
    });
    started.push({ name: sup.name, stop: sup.stop, sup });
    services[svc] = sup;
    // The worker service serves no gRPC: every service joins the membership ring on its membership port.
    const port = svc === "frontend" ? ports[svc].grpc : ports[svc].membership;
    return waitForPort(port, { timeoutMs: 120_000, what: `Temporal ${svc} :${port}` });
  };
  const [first, ...rest] = TEMPORAL_SERVICES;
  step(`starting the Temporal ${first} (:${ports[first].grpc}), then ${rest.join(", ")}`);
  const t = Date.now();
  await startOne(first);
  await Promise.all(rest.map(startOne));
  info(`Temporal services listening in ${fmtMs(Date.now() - t)}`);
  return { services, frontendAddress };
}

/** The namespace and the search attributes (config/topology.mjs namespaceSetupArgs); both may exist already. */
async function temporalNamespace(cli, address, namespace) {
  step(`namespace "${namespace}" and the search attributes`);
  const deadline = Date.now() + 120_000;
  for (const args of namespaceSetupArgs(address, namespace)) {
    for (;;) {
      const r = await run(cli, args, { quiet: true });
      if (r.code === 0 || /already (exists|registered)/i.test(r.output)) break;
      // The services come up one by one (namespace cache, the worker service's system workflows): retry.
      if (Date.now() > deadline)
        throw new Error(`temporal ${args.slice(0, 3).join(" ")} failed:\n${r.output.slice(-2000)}`);
      await sleep(1000);
    }
  }
  // Every service reads new namespaces from its cache, refreshed every few seconds: wait until one answers.
  for (;;) {
    const r = await run(
      cli,
      ["workflow", "list", "--address", address, "--namespace", namespace, "--limit", "1"],
      { quiet: true },
    );
    if (r.code === 0) break;
    if (Date.now() > deadline)
      throw new Error(`namespace ${namespace} is not usable:\n${r.output.slice(-2000)}`);
    await sleep(1000);
  }
}

/** The Web UI (config/temporal-ui/production.yaml); null when it could not be built. */
async function temporalUi({ uiBin, settings, address, env, logDir, started, onGiveUp }) {
  if (!uiBin) return null;
  const sup = supervise("temporal-ui", uiBin, temporalUiArgs(ROOT), {
    env: temporalUiEnv({
      address,
      ip: "127.0.0.1",
      port: settings.ports.ui,
      namespace: env.TEMPORAL_NAMESPACE,
      appOrigin: env.APP_ORIGIN,
    }),
    logFile: path.join(logDir, "temporal-ui.log"),
    onGiveUp,
  });
  started.push({ name: sup.name, stop: sup.stop, sup });
  await waitForHttp(`http://127.0.0.1:${settings.ports.ui}/`, {
    timeoutMs: 60_000,
    svc: sup.current(),
  });
  return `http://localhost:${settings.ports.ui}`;
}

/** The environment of every app process (config/topology.mjs APP_PASSED_ENV from ours, the rest set here). */
export function appEnv({ settings, dataDir, appUrl, address, smtpUrl }) {
  const passed = Object.fromEntries(
    APP_PASSED_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
  );
  const { values, generated } = stagingSecrets(process.env, dataDir);
  if (generated.length)
    info(
      `${generated.join(", ")}: not set; using random ones kept in ${path.relative(ROOT, dataDir)}/secrets.json (set them in production)`,
    );
  return {
    APP_ENV: "staging",
    APP_ORIGIN: `http://localhost:${settings.ports.app}`,
    TEMPORAL_NAMESPACE: "default",
    TEMPORAL_TASK_QUEUE: "marketplace",
    TEMPORAL_UI_URL: `http://localhost:${settings.ports.ui}`,
    UPLOAD_DIR: path.join(dataDir, "uploads"),
    ...passed,
    ...values,
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    NODE_ENV: "production",
    PORT: String(settings.ports.app), // each web process is given its own
    DATABASE_URL: appUrl,
    TEMPORAL_ADDRESS: address,
    LOG_FORMAT: "json",
    METRICS_HOST: "127.0.0.1",
    // Here only: the Remix build beside the dev stack's build/ (the image builds into build/).
    REMIX_BUILD_DIR: path.relative(ROOT, path.join(dataDir, "build")),
  };
}

/** The app's environment as domain/env.ts reads it: a bad value stops the start here, named. */
async function checkAppEnv(env) {
  const code =
    `Promise.all([import("./domain/env.ts"), import("node:fs")]).then(([m, fs]) => m.parseEnv(process.env, (f) => fs.readFileSync(f, "utf8")))` +
    `.catch((e) => { console.error(e.message); process.exit(1); })`;
  const r = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    env,
    quiet: true,
  });
  if (r.code !== 0) throw new Error(r.output.trim());
}

/** M workers, N web processes, the proxy; resolves once every web answers and every worker polls. */
async function startApp({ settings, env, logDir, started, onGiveUp }) {
  const { ports } = settings;
  step(
    `starting ${settings.WORKER_PROCESSES} workers and ${settings.WEB_PROCESSES} web processes (${ports.webs.map((p) => `:${p}`).join(", ")}) behind :${ports.app}`,
  );
  const workers = ports.workerMetrics.map((metricsPort, i) => {
    const sup = supervise(`worker-${i + 1}`, process.execPath, tsx("workers/main.ts"), {
      env: {
        ...env,
        METRICS_PORT: String(metricsPort),
        HEALTH_PORT: String(ports.workerHealth[i]),
      },
      logFile: path.join(logDir, `worker-${i + 1}.log`),
      onGiveUp,
    });
    started.push({ name: sup.name, stop: sup.stop, sup });
    return sup;
  });
  const webs = ports.webs.map((port, i) => {
    const sup = supervise(
      `web-${i + 1}`,
      process.execPath,
      [path.join(ROOT, "workers", "web.mjs")],
      {
        env: { ...env, PORT: String(port), METRICS_PORT: String(ports.webMetrics[i]) },
        logFile: path.join(logDir, `web-${i + 1}.log`),
        onGiveUp,
        stopOpts: { timeoutMs: 10_000 },
      },
    );
    started.push({ name: sup.name, stop: sup.stop, sup });
    return sup;
  });
  const proxy = supervise(
    "proxy",
    process.execPath,
    [
      path.join(ROOT, "scripts", "lib", "rr-proxy.mjs"),
      String(ports.app),
      ...ports.webs.map(String),
    ],
    { logFile: path.join(logDir, "proxy.log"), onGiveUp, stopOpts: { timeoutMs: 5_000 } },
  );
  started.push({ name: "proxy", stop: proxy.stop, sup: proxy });
  for (const [i, web] of webs.entries())
    await waitForHttp(`http://127.0.0.1:${ports.webs[i]}/readyz`, {
      timeoutMs: 180_000,
      svcs: [web.current()],
    });
  for (const [i, w] of workers.entries())
    await waitForHttp(`http://127.0.0.1:${ports.workerHealth[i]}/readyz`, {
      timeoutMs: 180_000,
      svcs: [w.current()],
    });
  await waitForHttp(`http://127.0.0.1:${ports.app}/signin`, {
    timeoutMs: 30_000,
    svcs: [proxy.current()],
  });
  return { workers, webs, proxy };
}

/** Refuses to start when a port of the topology is taken (naming who has it). */
async function checkPorts(settings) {
  for (const [what, port] of settings.ports.all)
    if (await isPortOpen(port))
      throw new Error(`${what}: port ${port} is taken (${whoListens(port)})`);
}

/**
 * Starts everything; returns { urls, env, processes (name → supervised process), stop() }. `tools` are the
 * binaries (scripts/lib/tools.mjs): { cli, server, sqlTool, ui (or null), mailpit (or null) }; `build: false`
 * keeps the build already in <dataDir>/build.
 */
export async function startProdTopology({
  settings,
  dataDir,
  tools,
  seed = false,
  onGiveUp,
  build: doBuild = true,
}) {
  const started = [];
  const stop = async () => {
    for (const s of started.reverse())
      await s.stop().catch((e) => warn(`stopping ${s.name}: ${e.message}`));
    started.length = 0;
  };
  const logDir = path.join(dataDir, "logs");
  fs.mkdirSync(logDir, { recursive: true });
  try {
    await checkPorts(settings);
    // build: false (npm run bench:topology --no-build) keeps an earlier build in <dataDir>/build.
    if (doBuild || !fs.existsSync(path.join(dataDir, "build")))
      await build(path.join(dataDir, "build"));
    const {
      appUrl,
      db,
      restart: restartPostgres,
      cluster,
    } = await startPostgres({ settings, dataDir, started });
    await temporalSchema(tools.sqlTool, db);
    const { frontendAddress } = await temporalServices({
      bins: tools,
      settings,
      db,
      logDir,
      started,
      onGiveUp,
    });
    const namespace = process.env.TEMPORAL_NAMESPACE || "default";
    await temporalNamespace(tools.cli, frontendAddress, namespace);
    let smtpUrl = process.env.SMTP_URL ?? null;
    let mailUi = null;
    if (!smtpUrl && tools.mailpit) {
      const { startMailpit } = await import("./mailpit.mjs");
      const m = await startMailpit({
        bin: tools.mailpit,
        smtpPort: settings.ports.smtp,
        uiPort: settings.ports.mailUi,
        dbFile: path.join(dataDir, "mailpit.db"),
        name: "mailpit",
        quiet: true,
      });
      started.push({ name: "mailpit", stop: m.stop });
      smtpUrl = m.smtpUrl;
      mailUi = m.uiUrl;
    }
    const env = appEnv({ settings, dataDir, appUrl, address: frontendAddress, smtpUrl });
    const uiUrl = await temporalUi({
      uiBin: tools.ui,
      settings,
      address: frontendAddress,
      env,
      logDir,
      started,
      onGiveUp,
    });
    await checkAppEnv(env);
    step(
      `migrations (one runner under a PostgreSQL advisory lock)${seed ? " and the demo seed" : ""}`,
    );
    const { migrateAndSeed } = await import("./stack.mjs");
    await migrateAndSeed(env, { seed, quiet: true });
    const { releaseBuild, rollOut } = await import("./prod-deploy.mjs");
    const release = await releaseBuild(
      env,
      dataDir,
      path.join(ROOT, "build", "workflow-bundle.js"),
    );
    const app = await startApp({
      settings,
      env: { ...env, ...release.workerEnv },
      logDir,
      started,
      onGiveUp,
    });
    const builds = await rollOut({ env, release, dataDir, logDir, started, onGiveUp, supervise });
    return {
      env,
      logDir,
      db,
      urls: {
        app: `http://localhost:${settings.ports.app}`,
        webs: settings.ports.webs.map((p) => `http://localhost:${p}`),
        temporal: frontendAddress,
        temporalUi: uiUrl,
        database: appUrl,
        mailUi,
        smtp: smtpUrl,
      },
      processes: Object.fromEntries(started.filter((s) => s.sup).map((s) => [s.name, s.sup])),
      app,
      builds,
      restartPostgres,
      cluster,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

// The development stack as `npm run dev` runs it: Postgres (embedded unless DATABASE_URL),
// Temporal dev server + UI (file-backed), Mailpit (unless SMTP_URL), migrations + seed, the worker, and `remix dev`.
// Shared by scripts/dev.mjs and scripts/bench-stack.mjs. Needs node_modules (caller ensures it).
import fs from "node:fs";
import path from "node:path";
import { c, fmtMs, info, step, warn } from "./log.mjs";
import { startEmbeddedPostgres, ensureDatabase } from "./pg.mjs";
import { ROOT, DATA_DIR, PORTS, DB_NAMES } from "./paths.mjs";
import {
  isPortOpen,
  onShutdown,
  runOrThrow,
  startService,
  waitForHttp,
  whoListens,
} from "./proc.mjs";
import { startMailpit } from "./mailpit.mjs";
import { startTemporalDev } from "./temporal.mjs";
import { ensureMailpit, ensureTemporal, ensureTestServer } from "./tools.mjs";

const exists = (p) => fs.existsSync(path.join(ROOT, p));

/** `node --import tsx <file>`: one process (the tsx CLI would add a second one). */
export function tsxArgs(file, ...args) {
  return ["--import", "tsx", file, ...args];
}

const REMIX_CLI = path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js");
const REMIX_SERVE_CLI = path.join(ROOT, "node_modules", "@remix-run", "serve", "dist", "cli.js");

/**
 * The web server command. workers/web.mjs (Express + Remix with the Origin check and security
 * headers) when it exists, else remix-serve.
 *   dev:  remix dev --manual -c "node workers/web.mjs"   (or plain `remix dev`, which runs remix-serve)
 *   prod: node workers/web.mjs                            (or remix-serve <build>/index.js)
 */
export function webCommand(mode, buildDir = path.join(ROOT, "build")) {
  const custom = exists("workers/web.mjs");
  if (mode === "dev")
    return custom
      ? [REMIX_CLI, "dev", "--manual", "-c", "node workers/web.mjs"]
      : [REMIX_CLI, "dev"];
  return custom
    ? [path.join(ROOT, "workers", "web.mjs")]
    : [REMIX_SERVE_CLI, path.join(buildDir, "index.js")];
}

/**
 * A benchmark's throw-away database: a Postgres cluster of its own on `port` (`dataDir` wiped, stopped when the
 * process ends) with the database `dbName`, migrated; the cluster, its URL and a db/client.ts handle of two
 * connections.
 */
export async function benchDatabase({ name, dataDir, port, dbName }) {
  const pg = await startEmbeddedPostgres({
    name,
    dataDir,
    port,
    wipe: true,
    quiet: true,
    databases: [dbName],
  });
  onShutdown(() => pg.stop().catch(() => {}));
  const url = pg.url(dbName);
  await migrateAndSeed({ ...process.env, DATABASE_URL: url }, { seed: false, quiet: true });
  const { createDb } = await import("../../db/client.ts");
  return { pg, url, h: createDb(url, { max: 2 }) };
}

/** Runs db/migrate.ts then (optionally) db/seed.ts against `databaseUrl`. Missing scripts are skipped with a warning. */
export async function migrateAndSeed(env, { seed = true, quiet = false } = {}) {
  const opts = { env, prefix: quiet ? undefined : "db", quiet };
  if (exists("db/migrate.ts")) {
    const t0 = Date.now();
    await runOrThrow(process.execPath, tsxArgs("db/migrate.ts"), opts);
    if (!quiet) info(`migrations applied (${fmtMs(Date.now() - t0)})`);
  } else warn("db/migrate.ts not found: skipping migrations");
  if (!seed) return;
  if (exists("db/seed.ts")) {
    const t0 = Date.now();
    await runOrThrow(process.execPath, tsxArgs("db/seed.ts"), opts);
    if (!quiet) info(`seed done (${fmtMs(Date.now() - t0)})`);
  } else warn("db/seed.ts not found: skipping the demo seed");
}

/**
 * The demo year (workers/demo-year, ADR 0063): on the first start, a year of trades played through the order
 * workflows and the real activities on a time-skipping test server of its own, against `env`'s database. Runs
 * once (seed_runs 'demo-year'); later starts only check the claim (about a second of tsx start).
 */
export async function playDemoYear(env, testServerPath, { quiet = false } = {}) {
  const t0 = Date.now();
  await runOrThrow(process.execPath, tsxArgs("workers/demo-year/index.ts"), {
    env: { ...env, TEMPORAL_TEST_SERVER_PATH: testServerPath },
    prefix: quiet ? undefined : "demo-year",
    quiet,
  });
  if (!quiet) info(`demo year checked (${fmtMs(Date.now() - t0)})`);
}

/** Demo logins written by the seed (db/seed-logins.json), formatted as lines; [] when absent. */
export function demoLoginLines() {
  const file = path.join(ROOT, "db", "seed-logins.json");
  let data;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return [];
  }
  const rows = Array.isArray(data)
    ? data
    : Array.isArray(data?.logins)
      ? data.logins
      : Object.entries(data ?? {}).map(([k, v]) =>
          typeof v === "object" ? { role: k, ...v } : { role: k, email: v },
        );
  const w = Math.max(0, ...rows.map((r) => String(r?.email ?? "").length));
  return rows.map((r) => {
    if (typeof r !== "object" || r === null) return String(r);
    const label = r.label ?? r.role ?? r.name ?? r.kind ?? "";
    const note = r.note ?? r.notes ?? r.description ?? "";
    return `${String(r.email ?? "").padEnd(w)}  ${r.password ?? ""}  ${label}${note ? ` — ${note}` : ""}`;
  });
}

/** The dev Postgres (embedded, or DATABASE_URL's server); its URL. */
async function devPostgres({ ports, dataDir, quiet, started }, userDb) {
  if (userDb) {
    if (!quiet) info(`DATABASE_URL is set: using that server (no embedded Postgres)`);
    return userDb;
  }
  const pg = await startEmbeddedPostgres({
    name: "postgres",
    dataDir: path.join(dataDir, "pg-dev"),
    port: ports.postgres,
    databases: [DB_NAMES.dev],
    quiet,
  });
  // A server we did not start (left running earlier, or someone else's) keeps running.
  started.push({
    name: "postgres",
    stop: pg.reused ? async () => {} : pg.stop,
    pid: pg.pid(),
    reused: pg.reused,
  });
  return pg.url(DB_NAMES.dev);
}

/** The Temporal dev server (or TEMPORAL_ADDRESS's); its address. */
async function devTemporal({ ports, dataDir, reuse, quiet, started }, userTemporal) {
  if (userTemporal) {
    if (!quiet) info(`TEMPORAL_ADDRESS is set: using ${userTemporal} (no dev server)`);
    return userTemporal;
  }
  const temporalBin = await ensureTemporal();
  const t = await startTemporalDev({
    bin: temporalBin,
    port: ports.temporal,
    uiPort: ports.temporalUi,
    // The UI opens sealed payloads through the app's codec server (app/routes/codec.$op.tsx, ADR 0040).
    codecEndpoint: `${process.env.APP_ORIGIN || `http://localhost:${ports.app}`}/codec`,
    dbFile: path.join(dataDir, "temporal-dev.db"),
    reuse,
    quiet,
  });
  if (!t.reused) started.push({ name: "temporal", stop: t.stop, pid: t.svc.pid });
  return t.address;
}

/** The mail catcher (Mailpit, when the ports name an SMTP port), or SMTP_URL's server: { smtpUrl, uiUrl }. */
async function devMail({ ports, dataDir, reuse, quiet, started }, userSmtp) {
  if (userSmtp) {
    if (!quiet) info(`SMTP_URL is set: mail goes there (no Mailpit)`);
    return { smtpUrl: userSmtp, uiUrl: null };
  }
  if (!ports.smtp) return { smtpUrl: null, uiUrl: null };
  const m = await startMailpit({
    bin: await ensureMailpit(),
    smtpPort: ports.smtp,
    uiPort: ports.mailUi,
    dbFile: path.join(dataDir, "mailpit.db"),
    reuse,
    quiet,
  });
  if (!m.reused) started.push({ name: "mailpit", stop: m.stop, pid: m.svc.pid });
  return m;
}

/** The worker (when workers/main.ts exists) and the Remix dev server, once /signin answers; the sign-in URL. */
async function devApp(env, ports, { quiet, started, logFile, crashed }) {
  if (await isPortOpen(ports.app))
    throw new Error(`port ${ports.app} is taken (${whoListens(ports.app)})`);
  if (!quiet) step("starting the worker and the Remix dev server");
  if (exists("workers/main.ts")) {
    const worker = startService("worker", process.execPath, tsxArgs("workers/main.ts"), {
      env,
      logFile: logFile("worker"),
      onExit: crashed,
    });
    worker.stopOpts = { signal: "SIGTERM", timeoutMs: 15_000 };
    started.push({
      name: "worker",
      stop: () => worker.stop(worker.stopOpts),
      pid: worker.pid,
      svc: worker,
    });
  } else warn("workers/main.ts not found: no Temporal worker started");

  const remix = startService("remix", process.execPath, webCommand("dev"), {
    env,
    logFile: logFile("remix"),
    onExit: crashed,
    filter: (line) => !/The CJS build of Vite's Node API is deprecated/.test(line),
  });
  started.push({
    name: "remix",
    stop: () => remix.stop({ timeoutMs: 10_000 }),
    pid: remix.pid,
    svc: remix,
  });

  const signin = `http://localhost:${ports.app}/signin`;
  const status = await waitForHttp(signin, { svc: remix, timeoutMs: 300_000 });
  if (status !== 200 && !quiet) warn(`${signin} answered ${status}`);
  return signin;
}

/**
 * Starts the whole development stack. Options:
 *   ports      { postgres, temporal, temporalUi, app, smtp?, mailUi? } (default: the dev ports; without
 *              smtp no mail catcher is started)
 *   dataDir    folder for pg data and the Temporal db (default <repo>/.data)
 *   reuse      reuse a Postgres/Temporal already listening on the ports (dev: yes, bench: no)
 *   logDir     write children's output to files there instead of the console (bench)
 *   onCrash(svc, code)  called when a service exits on its own after start
 *   demoYear   after the seed, play the demo year once (npm run dev; ADR 0063)
 * Returns { env, urls, services: [{name, pid}], stop() }.
 */
export async function startDevStack({
  ports = PORTS.dev,
  dataDir = DATA_DIR,
  reuse = true,
  logDir = null,
  onCrash = () => {},
  demoYear = false,
} = {}) {
  const started = []; // { name, stop, pid }
  const quiet = Boolean(logDir);
  if (logDir) fs.mkdirSync(logDir, { recursive: true });
  const logFile = (name) => (logDir ? path.join(logDir, `${name}.log`) : undefined);
  const stopAllStarted = async () => {
    for (const s of [...started].reverse()) {
      try {
        await s.stop();
      } catch (e) {
        warn(`stopping ${s.name}: ${e.message}`);
      }
    }
    started.length = 0;
  };

  try {
    // --- Postgres and Temporal in parallel
    const userDb = process.env.DATABASE_URL;
    const userTemporal = process.env.TEMPORAL_ADDRESS;
    const userSmtp = process.env.SMTP_URL;
    if (!quiet) step(`starting Postgres, Temporal${ports.smtp && !userSmtp ? " and Mailpit" : ""}`);
    const run = { ports, dataDir, reuse, quiet, started };
    const [databaseUrl, temporalAddress, mail] = await Promise.all([
      devPostgres(run, userDb),
      devTemporal(run, userTemporal),
      devMail(run, userSmtp),
    ]);

    const env = {
      NODE_ENV: "development",
      APP_ENV: process.env.APP_ENV || "local",
      PORT: String(ports.app),
      APP_ORIGIN: process.env.APP_ORIGIN || `http://localhost:${ports.app}`,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE || "default",
      TEMPORAL_TASK_QUEUE: process.env.TEMPORAL_TASK_QUEUE || "marketplace",
      TEMPORAL_UI_URL: process.env.TEMPORAL_UI_URL || `http://localhost:${ports.temporalUi}`,
      ...(mail.smtpUrl ? { SMTP_URL: mail.smtpUrl } : {}),
    };

    // --- schema + demo data
    if (!quiet) step("migrating and seeding the database");
    if (userDb)
      await ensureDatabase(userDb, new URL(userDb).pathname.slice(1) || DB_NAMES.dev).catch(
        () => {},
      );
    await migrateAndSeed(env, { quiet });
    if (demoYear) await playDemoYear(env, await ensureTestServer(), { quiet });

    // --- worker + web
    const signin = await devApp(env, ports, {
      quiet,
      started,
      logFile,
      crashed: (svc, code) => onCrash(svc, code),
    });

    return {
      env,
      urls: {
        app: `http://localhost:${ports.app}`,
        signin,
        temporalUi: env.TEMPORAL_UI_URL,
        temporal: temporalAddress,
        database: databaseUrl,
        mailUi: mail.uiUrl,
        smtp: mail.smtpUrl,
      },
      services: started.map(({ name, pid, reused }) => ({ name, pid, reused })),
      stop: stopAllStarted,
    };
  } catch (e) {
    await stopAllStarted();
    throw e;
  }
}

export function printStackReady(stack, ms) {
  const { urls } = stack;
  const line = "─".repeat(72);
  console.log(`\n${c.green(line)}`);
  console.log(`${c.bold("Wholesale marketplace is running")} (ready in ${fmtMs(ms)})`);
  console.log(`  App          ${c.cyan(urls.app)}   (sign in: ${urls.signin})`);
  console.log(`  Temporal UI  ${c.cyan(urls.temporalUi)}`);
  console.log(`  Temporal     ${urls.temporal}`);
  console.log(`  Postgres     ${urls.database.replace(/:[^:@/]+@/, ":***@")}`);
  if (urls.mailUi)
    console.log(
      `  Mail         ${c.cyan(urls.mailUi)}   (Mailpit catches every e-mail; SMTP ${urls.smtp.replace("smtp://", "")})`,
    );
  else if (urls.smtp)
    console.log(
      `  Mail         SMTP ${urls.smtp.replace(/\/\/[^@/]*@/, "//***@")} (SMTP_URL); staff also read /admin/outbox`,
    );
  console.log(
    `  Payments     ${process.env.STRIPE_SECRET_KEY ? "Stripe (STRIPE_SECRET_KEY is set)" : "sandbox (set STRIPE_SECRET_KEY for Stripe test mode)"}`,
  );
  const logins = demoLoginLines();
  if (logins.length) {
    console.log(`  Demo logins:`);
    for (const l of logins) console.log(`    ${l}`);
  }
  console.log(`  Press Ctrl-C to stop everything.`);
  console.log(`${c.green(line)}\n`);
}

#!/usr/bin/env node
// npm run prod — the production topology on this machine (docs/operations.md; the same as docker-compose.yml,
// both from config/topology.mjs): the production build; PostgreSQL (embedded in .data/prod/pg, or
// DATABASE_URL's server); the Temporal server on PostgreSQL as four processes (frontend, history, matching,
// worker) from config/temporal/production.yaml, its schemas set up or upgraded by its schema tool, the
// namespace and the search attributes registered, and its Web UI; Mailpit unless SMTP_URL; the migrations
// (once, under a lock); WORKER_PROCESSES workers and WEB_PROCESSES web processes behind one port.
//   npm run prod                 start (data kept in .data/prod between runs)
//   npm run prod -- --seed       also load the demo data (idempotent), to click through it
//   npm run prod -- --check      start with the demo data, prove it (scripts/lib/prod-check.mjs: separate processes,
//                                PostgreSQL's tables, health and metrics, one purchase through the pages and the
//                                Temporal UI's view of it), stop; exit 1 when a check failed; with --browser also
//                                the browser test of a whole purchase (tests/e2e/buy-flow.test.ts) against it
//   npm run prod -- --help       the settings (all from the environment, validated before anything starts)
// While it runs, the embedded PostgreSQL (the app's and Temporal's databases) and the uploads are backed up at
// start and every BACKUP_INTERVAL_HOURS into BACKUP_DIR, kept BACKUP_KEEP_DAYS (scripts/lib/backup.mjs);
// `npm run restore` brings one back (docs/operations.md "Backups and restore").
// Installs what is missing first (node_modules, the Temporal server, its UI, the CLI, Mailpit). Ctrl-C stops
// everything, newest first. Only Node built-ins are imported statically: node_modules may not exist yet.
import path from "node:path";
import { c, fail, fmtMs, info, step, warn } from "./lib/log.mjs";
import { ROOT } from "./lib/paths.mjs";
import { onShutdown, stopAll } from "./lib/proc.mjs";
import {
  backupsDirOf,
  PROD_DATA_DIR,
  PROD_SETTINGS,
  readProdSettings,
} from "./lib/prod-settings.mjs";
import {
  ensureMailpit,
  ensureNodeModules,
  ensureTemporal,
  ensureTemporalServer,
  ensureTemporalUi,
} from "./lib/tools.mjs";

const args = process.argv.slice(2);
if (args.includes("--help")) {
  console.log("npm run prod [-- --seed]   settings (environment):");
  for (const [name, [def, what]] of Object.entries(PROD_SETTINGS))
    console.log(`  ${name.padEnd(30)} ${String(def).padEnd(6)} ${what}`);
  console.log(
    `  ${"DATABASE_URL".padEnd(30)} ${"".padEnd(6)} an existing PostgreSQL instead of the embedded one`,
  );
  console.log(`  ${"SMTP_URL".padEnd(30)} ${"".padEnd(6)} an SMTP server instead of Mailpit`);
  console.log(
    `  ${"BACKUP_DIR".padEnd(30)} ${"".padEnd(6)} where backups go (default ${path.relative(process.cwd(), backupsDirOf({}))})`,
  );
  console.log(
    `  ${"TEMPORAL_LOG_LEVEL".padEnd(30)} ${"warn".padEnd(6)} the Temporal services' log level`,
  );
  console.log("  and the app's own (domain/env.ts), passed to every web and worker process.");
  process.exit(0);
}

const t0 = Date.now();
let topology = null;
let stopping = false;
let backups = null;

async function shutdown(reason) {
  if (stopping) return;
  stopping = true;
  backups?.stop();
  step(`stopping (${reason})...`);
  await (topology ? topology.stop() : stopAll());
  console.log("stopped.");
}

onShutdown((sig) => shutdown(sig));

function printReady(t, ms, settings) {
  const { urls } = t;
  const line = "─".repeat(72);
  console.log(`\n${c.green(line)}`);
  console.log(
    `${c.bold("Wholesale marketplace (production topology) is running")} (ready in ${fmtMs(ms)})`,
  );
  console.log(
    `  App          ${c.cyan(urls.app)}   (${settings.WEB_PROCESSES} web processes: ${urls.webs.join(", ")})`,
  );
  console.log(
    `  Health       ${urls.app}/readyz, ${urls.app}/healthz; metrics on :${settings.ports.webMetrics.join(", :")} (web), :${settings.ports.workerMetrics.join(", :")} (workers)`,
  );
  console.log(
    `  Temporal UI  ${urls.temporalUi ? c.cyan(urls.temporalUi) : "(not built: see above)"}`,
  );
  console.log(
    `  Temporal     ${urls.temporal} (frontend, history, matching, worker: ${Object.values(
      settings.ports.temporal,
    )
      .map((p) => `:${p.grpc}`)
      .join(", ")}; metrics :${Object.values(settings.ports.temporal)
      .map((p) => p.metrics)
      .join(", :")})`,
  );
  console.log(
    `  Postgres     ${urls.database.replace(/:[^:@/]+@/, ":***@")} (+ ${t.db.temporal}, ${t.db.visibility})`,
  );
  if (urls.mailUi)
    console.log(
      `  Mail         ${c.cyan(urls.mailUi)}   (Mailpit catches every e-mail; SMTP ${urls.smtp.replace("smtp://", "")})`,
    );
  else
    console.log(
      `  Mail         SMTP ${String(urls.smtp).replace(/\/\/[^@/]*@/, "//***@")} (SMTP_URL)`,
    );
  console.log(
    `  Workers      ${settings.WORKER_PROCESSES} on task queue ${t.env.TEMPORAL_TASK_QUEUE}; health :${settings.ports.workerHealth.join(", :")}`,
  );
  console.log(
    `  Build        ${t.builds.current} (current; workflows pinned to their build)${t.builds.draining.length ? `, draining: ${t.builds.draining.join(", ")}` : ""}`,
  );
  console.log(
    `  Logs         ${path.relative(ROOT, t.logDir)}/<process>.log (JSON lines from web and workers)`,
  );
  console.log(`  Press Ctrl-C to stop everything.`);
  console.log(`${c.green(line)}\n`);
}

/**
 * A backup at start and every BACKUP_INTERVAL_HOURS; old ones pruned after each. A backup that fails is logged
 * and tried again at the next turn.
 */
function scheduleBackups(t, settings) {
  const dir = backupsDirOf(process.env);
  let running = null;
  const once = async () => {
    if (running || stopping) return;
    const started = Date.now();
    running = (async () => {
      const { takeBackup, pruneBackups } = await import("./lib/backup.mjs");
      const b = await takeBackup({
        serverUrl: t.cluster.serverUrl,
        dataDir: t.cluster.dataDir,
        uploadDir: t.env.UPLOAD_DIR,
        backupsDir: dir,
      });
      const removed = pruneBackups(dir, settings.BACKUP_KEEP_DAYS);
      info(
        `backup ${path.relative(ROOT, b.dir)} in ${fmtMs(Date.now() - started)}${removed.length ? `; removed ${removed.length} older than ${settings.BACKUP_KEEP_DAYS} days` : ""}`,
      );
    })()
      .catch((e) => warn(`backup failed: ${e.message}`))
      .finally(() => (running = null));
  };
  void once();
  const timer = setInterval(once, settings.BACKUP_INTERVAL_HOURS * 3_600_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

try {
  const { settings, problems } = readProdSettings(process.env);
  if (problems.length) {
    fail(
      `npm run prod: invalid settings:\n${problems.map((p) => `  ${p}`).join("\n")}\n(npm run prod -- --help lists them)`,
    );
    process.exit(2);
  }
  await ensureNodeModules();
  const cli = await ensureTemporal();
  const { server, sqlTool } = await ensureTemporalServer();
  let ui = null;
  try {
    ui = await ensureTemporalUi();
  } catch (e) {
    warn(`the Temporal Web UI did not build (${e.message.split("\n")[0]}); starting without it`);
  }
  const mailpit = process.env.SMTP_URL ? null : await ensureMailpit();
  const { startProdTopology } = await import("./lib/prod-topology.mjs");
  topology = await startProdTopology({
    settings,
    dataDir: PROD_DATA_DIR,
    tools: { cli, server, sqlTool, ui, mailpit },
    seed: args.includes("--seed") || args.includes("--check"),
    onGiveUp: async (name, code) => {
      if (stopping) return;
      fail(
        `${name} keeps exiting (last: ${code}); stopping everything. See ${path.relative(ROOT, PROD_DATA_DIR)}/logs/${name}.log`,
      );
      await shutdown(`${name} failed`);
      process.exit(1);
    },
  });
  if (stopping) process.exit(130);
  printReady(topology, Date.now() - t0, settings);
  if (topology.cluster && !args.includes("--check")) backups = scheduleBackups(topology, settings);
  else if (!topology.cluster)
    warn("DATABASE_URL is set: no backups here; use that server's own (docs/operations.md)");
  if (args.includes("--seed")) info("demo logins: README 'Demo logins' (db/seed-logins.json)");
  if (args.includes("--check")) {
    step("checking the topology (scripts/lib/prod-check.mjs)");
    const { checkProdTopology } = await import("./lib/prod-check.mjs");
    const { ok } = await checkProdTopology(topology, settings, {
      browser: args.includes("--browser"),
    });
    const t = Date.now();
    await shutdown(ok ? "checked" : "a check failed");
    info(`stopped every process in ${fmtMs(Date.now() - t)}`);
    process.exit(ok ? 0 : 1);
  }
} catch (e) {
  fail(e.stack || e.message);
  await shutdown("start failed");
  process.exit(1);
}

#!/usr/bin/env node
// npm run dev — the whole product on this machine:
//   Postgres (embedded, .data/pg-dev, :54320; or DATABASE_URL), Temporal dev server (:7233, UI :8233,
//   file-backed .data/temporal-dev.db), Mailpit (SMTP :1025, UI :8025; or SMTP_URL), migrations + demo
//   seed + the demo year (first start only; ADR 0063), the Temporal worker (which delivers the mail outbox by SMTP), Remix on :3000.
// Installs what is missing first (node_modules, Temporal CLI, Mailpit, the time-skipping test server). Ctrl-C stops everything.
// Only Node built-ins are imported statically: node_modules may not exist yet.
//
// Orders left open by older workflow code (ADR 0023): .data/workflow-generation stamps the generation of the
// order workflows (workflows/generation.json) the dev stack's data was made with. When .data/ holds a
// Temporal database from another generation, the stack does not start: it says why and how to go on,
//   npm run dev -- --reset-orders   deletes the dev orders (Temporal's .data/temporal-dev.db and the dev
//                                   Postgres .data/pg-dev; the demo data is seeded again), or
//   npm run dev -- --keep-orders    starts anyway (orders started on the old code then fail their next
//                                   workflow task with a non-determinism error, shown in the Temporal UI).
// The dev worker compiles the workflows from source and runs unversioned, so this check is development's own;
// npm run prod pins each order to its build with Worker Versioning instead (ADR 0046).
import fs from "node:fs";
import path from "node:path";
import { c, fail, fmtMs, info, step } from "./lib/log.mjs";
import { DATA_DIR, ROOT } from "./lib/paths.mjs";
import { onShutdown, stopAll } from "./lib/proc.mjs";
import {
  ensureMailpit,
  ensureNodeModules,
  ensureTemporal,
  ensureTestServer,
} from "./lib/tools.mjs";

const GENERATION_FILE = path.join(ROOT, "workflows", "generation.json");
const STAMP_FILE = path.join(DATA_DIR, "workflow-generation");
const TEMPORAL_DB = path.join(DATA_DIR, "temporal-dev.db");

/**
 * Whether the dev stack may start on this .data/: yes when it has no Temporal database yet (a new stack) or
 * one of the current workflow generation; otherwise the developer chooses (--reset-orders, --keep-orders),
 * and without a choice the script says why and exits before starting anything.
 */
function checkWorkflowGeneration(args) {
  if (process.env.TEMPORAL_ADDRESS) return; // not our dev server: its orders are someone else's to manage
  const current = String(JSON.parse(fs.readFileSync(GENERATION_FILE, "utf8")).generation);
  const stamped = fs.existsSync(STAMP_FILE) ? fs.readFileSync(STAMP_FILE, "utf8").trim() : null;
  const stamp = () => {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    fs.writeFileSync(STAMP_FILE, `${current}\n`);
  };
  if (!fs.existsSync(TEMPORAL_DB) || stamped === current) return stamp();
  if (args.includes("--reset-orders")) {
    step(
      `--reset-orders: deleting the dev orders made by workflow generation ${stamped ?? "1"} (Temporal's database and the dev Postgres)`,
    );
    for (const f of fs.readdirSync(DATA_DIR).filter((n) => n.startsWith("temporal-dev.db")))
      fs.rmSync(path.join(DATA_DIR, f), { force: true });
    fs.rmSync(path.join(DATA_DIR, "pg-dev"), { recursive: true, force: true });
    return stamp();
  }
  if (args.includes("--keep-orders")) {
    info(
      `--keep-orders: orders started on workflow generation ${stamped ?? "1"} will fail their next workflow task (non-determinism)`,
    );
    return stamp();
  }
  fail(
    [
      `The order workflows changed since this dev stack's orders were made (workflow generation ${stamped ?? "1"} in .data/, ${current} in workflows/generation.json).`,
      `An order still open from before would fail its next workflow task with a non-determinism error (docs/decisions/0023-order-process-kit.md).`,
      `  npm run dev -- --reset-orders   delete the dev orders (.data/temporal-dev.db and .data/pg-dev; the demo data is seeded again)`,
      `  npm run dev -- --keep-orders    start anyway; orders open from before stay broken`,
    ].join("\n"),
  );
  process.exit(1);
}

const t0 = Date.now();
let stack = null;
let stopping = false;

async function shutdown(reason) {
  if (stopping) return;
  stopping = true;
  step(`stopping (${reason})...`);
  // Stopped while still starting (no stack yet): stop every service started so far, newest first.
  await (stack ? stack.stop() : stopAll());
  console.log("stopped.");
}

onShutdown((sig) => shutdown(sig));

try {
  checkWorkflowGeneration(process.argv.slice(2));
  await ensureNodeModules();
  if (!process.env.TEMPORAL_ADDRESS) await ensureTemporal();
  if (!process.env.SMTP_URL) await ensureMailpit();
  await ensureTestServer(); // the demo year's time-skipping server (ADR 0063)
  const { startDevStack, printStackReady } = await import("./lib/stack.mjs");
  stack = await startDevStack({
    demoYear: true,
    onCrash: async (svc, code) => {
      if (stopping) return;
      if (svc.name === "worker") {
        fail(
          `worker exited (${code}); the web app keeps running. Fix the error and restart npm run dev.`,
        );
        return;
      }
      fail(`${svc.name} exited (${code}); stopping the stack.`);
      await shutdown(`${svc.name} exited`);
      process.exit(1);
    },
  });
  if (stopping) process.exit(130);
  printStackReady(stack, Date.now() - t0);
} catch (e) {
  fail(e.stack || e.message);
  await shutdown("start failed");
  process.exit(1);
}

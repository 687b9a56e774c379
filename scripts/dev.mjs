#!/usr/bin/env node
// npm run dev — the whole product on this machine:
//   Postgres (embedded, .data/pg-dev, :54320; or DATABASE_URL), Temporal dev server (:7233, UI :8233,
//   file-backed .data/temporal-dev.db), Mailpit (SMTP :1025, UI :8025; or SMTP_URL), migrations + demo
//   seed, the Temporal worker (which delivers the mail outbox by SMTP), Remix on :3000.
// Installs what is missing first (node_modules, Temporal CLI, Mailpit). Ctrl-C stops everything.
// Only Node built-ins are imported statically: node_modules may not exist yet.
import { c, fail, fmtMs, step } from "./lib/log.mjs";
import { onShutdown, stopAll } from "./lib/proc.mjs";
import { ensureMailpit, ensureNodeModules, ensureTemporal } from "./lib/tools.mjs";

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
  await ensureNodeModules();
  if (!process.env.TEMPORAL_ADDRESS) await ensureTemporal();
  if (!process.env.SMTP_URL) await ensureMailpit();
  const { startDevStack, printStackReady } = await import("./lib/stack.mjs");
  stack = await startDevStack({
    onCrash: async (svc, code) => {
      if (stopping) return;
      if (svc.name === "worker") {
        fail(`worker exited (${code}); the web app keeps running. Fix the error and restart npm run dev.`);
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

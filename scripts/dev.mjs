#!/usr/bin/env node
// npm run dev — the whole product on this machine:
//   Postgres (embedded, .data/pg-dev, :54320; or DATABASE_URL), Temporal dev server (:7233, UI :8233,
//   file-backed .data/temporal-dev.db), migrations + demo seed, the Temporal worker, Remix on :3000.
// Installs what is missing first (node_modules, Temporal CLI). Ctrl-C stops everything.
// Only Node built-ins are imported statically: node_modules may not exist yet.
import { c, fail, fmtMs, step } from "./lib/log.mjs";
import { onShutdown } from "./lib/proc.mjs";
import { ensureNodeModules, ensureTemporal } from "./lib/tools.mjs";

const t0 = Date.now();
let stack = null;
let stopping = false;

async function shutdown(reason) {
  if (stopping) return;
  stopping = true;
  step(`stopping (${reason})...`);
  await stack?.stop();
  console.log("stopped.");
}

onShutdown((sig) => shutdown(sig));

try {
  await ensureNodeModules();
  if (!process.env.TEMPORAL_ADDRESS) await ensureTemporal();
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

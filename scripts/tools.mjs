#!/usr/bin/env node
// npm run tools — installs (or checks) everything outside node_modules the project needs:
// node_modules itself (npm ci), Temporal CLI, the Java time-skipping test server, stripe-mock, Mailpit, Chromium,
// the Temporal Web UI server (the e2e suite drives it through the codec server).
// Idempotent; only stat calls when everything is cached. `--measure` also times the test server start.
// `--prod` also builds what `npm run prod` runs: the Temporal server and its SQL schema tool.
import { c, fmtMs, step } from "./lib/log.mjs";
import { TOOLS_DIR } from "./lib/paths.mjs";
import {
  ALL_TOOLS,
  PROD_TOOLS,
  actions,
  ensureNodeModules,
  ensureTools,
  measureTestServerStart,
} from "./lib/tools.mjs";

const t0 = performance.now();
try {
  await ensureNodeModules();
  const paths = await ensureTools(
    process.argv.includes("--prod") ? [...new Set([...ALL_TOOLS, ...PROD_TOOLS])] : ALL_TOOLS,
  );
  const ms = performance.now() - t0;
  step(actions.length ? `installed: ${actions.join("; ")}` : "all tools already present");
  for (const [k, v] of Object.entries(paths)) console.log(`  ${k.padEnd(11)} ${v}`);
  console.log(`  cache       ${TOOLS_DIR}`);
  console.log(`tools ready in ${fmtMs(ms)}`);
  if (process.argv.includes("--measure")) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await measureTestServerStart(paths.testServer));
    console.log(
      `time-skipping test server start (TCP ready): ${runs.map(fmtMs).join(", ")} (SDK limit 5 s)`,
    );
  }
} catch (e) {
  console.error(c.red(`tools: ${e.message}`));
  process.exit(1);
}

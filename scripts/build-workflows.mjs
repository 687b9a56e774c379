#!/usr/bin/env node
// Bundles every workflow (workflows/index.ts) into build/workflow-bundle.js for the production
// worker (`NODE_ENV=production npm run worker` loads it instead of compiling at start).
// Part of `npm run build`. WORKFLOW_BUNDLE_PATH overrides the output file.
import fs from "node:fs";
import path from "node:path";
import { bundleWorkflowCode } from "@temporalio/worker";
import { ROOT } from "./lib/paths.mjs";

const workflowsPath = path.join(ROOT, "workflows", "index.ts");
const out = path.resolve(ROOT, process.env.WORKFLOW_BUNDLE_PATH || path.join("build", "workflow-bundle.js"));

if (!fs.existsSync(workflowsPath)) {
  console.error(`build-workflows: ${path.relative(ROOT, workflowsPath)} does not exist`);
  process.exit(1);
}
const t0 = Date.now();
const { code } = await bundleWorkflowCode({
  workflowsPath,
  logger: { trace() {}, debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m), log() {} },
});
fs.mkdirSync(path.dirname(out), { recursive: true });
const tmp = `${out}.tmp-${process.pid}`;
fs.writeFileSync(tmp, code);
fs.renameSync(tmp, out);
console.log(`workflow bundle: ${path.relative(ROOT, out)} (${(code.length / 1024).toFixed(0)} KiB, ${Date.now() - t0} ms)`);

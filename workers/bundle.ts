/**
 * The workflow bundle: every workflow (workflows/index.ts) compiled once with bundleWorkflowCode.
 * Production workers load build/workflow-bundle.js (written by `npm run build`, which runs
 * `tsx workers/bundle.ts [out]`); tests bundle once per file in memory,
 * which also proves the workflow code imports nothing a workflow may not (Node built-ins fail here).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from "@temporalio/worker";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WORKFLOWS_PATH = path.join(ROOT, "workflows", "index.ts");
export const DEFAULT_BUNDLE_PATH = path.join(ROOT, "build", "workflow-bundle.js");
/** Workflow interceptors of the worker (the web request id carried to activities), bundled with the workflows. */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  path.join(ROOT, "workflows", "common", "request-id.ts"),
];

const quietLogger = {
  trace() {},
  debug() {},
  info() {},
  log() {},
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
};

/** The workflows' bundle; `extraInterceptorModules` after the app's own (a test's "build B" adds a step). */
export async function buildWorkflowBundle(
  extraInterceptorModules: string[] = [],
): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...extraInterceptorModules],
    logger: quietLogger,
  });
}

/** Writes a bundle's code to `out` whole (a temporary file renamed): a worker never reads half of one. */
export function writeBundleCode(code: string, out = DEFAULT_BUNDLE_PATH): string {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, out);
  return out;
}

export async function writeWorkflowBundle(out = DEFAULT_BUNDLE_PATH): Promise<string> {
  return writeBundleCode((await buildWorkflowBundle()).code, out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? DEFAULT_BUNDLE_PATH);
  const t0 = Date.now();
  await writeWorkflowBundle(out);
  console.log(`workflow bundle: ${path.relative(ROOT, out)} (${Date.now() - t0} ms)`);
}

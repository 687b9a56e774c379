/**
 * The workflow bundle for the workflow tests, built once per version of its sources instead of once per test
 * file (each build is ~4-5 s of webpack on this box, and the suite has a dozen files that run workers).
 *
 *   const bundle = await testWorkflowBundle();
 *   await Worker.create({ ..., workflowBundle: bundle });
 *
 * The key is a hash of every file under workflows/ and domain/ (all the bundle can import), workers/bundle.ts
 * and package-lock.json (the SDK's version): an edit to any of them builds a new bundle. The bundles live in
 * .data/test-workflow-bundles/ (the newest few are kept); a build that fails (a workflow importing what a
 * workflow may not) fails the test file as before.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { WorkflowBundleWithSourceMap } from "@temporalio/worker";
import { fileURLToPath } from "node:url";
import {
  buildWorkflowBundle,
  DEFAULT_BUNDLE_PATH,
  ROOT,
  writeBundleCode,
} from "../../workers/bundle";

const CACHE_DIR = path.join(ROOT, ".data", "test-workflow-bundles");
const SOURCES = ["workflows", "domain", "workers/bundle.ts", "package-lock.json"];
const KEEP = 4;

function filesUnder(p: string): string[] {
  const abs = path.join(ROOT, p);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [p];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? filesUnder(path.join(p, d.name)) : d.isFile() ? [path.join(p, d.name)] : [],
    );
}

/** A hash of the bundle's sources: their paths and contents. */
export function workflowSourcesKey(): string {
  const h = createHash("sha256");
  for (const f of SOURCES.flatMap(filesUnder).sort()) {
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(ROOT, f)))
      .update("\0");
  }
  return h.digest("hex").slice(0, 24);
}

export async function testWorkflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  const file = path.join(CACHE_DIR, `${workflowSourcesKey()}.json`);
  if (fs.existsSync(file)) {
    try {
      return JSON.parse(fs.readFileSync(file, "utf8")) as WorkflowBundleWithSourceMap;
    } catch {
      // A bundle cut short (a run killed while writing it): build it again.
    }
  }
  const bundle = await buildWorkflowBundle();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(bundle));
  fs.renameSync(tmp, file);
  const old = fs
    .readdirSync(CACHE_DIR)
    .filter((n) => n.endsWith(".json"))
    .map((n) => ({ n, t: fs.statSync(path.join(CACHE_DIR, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t)
    .slice(KEEP);
  for (const o of old) fs.rmSync(path.join(CACHE_DIR, o.n), { force: true });
  return bundle;
}

/**
 * `tsx tests/setup/workflow-bundle.ts`: what `tsx workers/bundle.ts` writes (build/workflow-bundle.js, the e2e
 * worker's prebuilt bundle), taken from this cache, so that `npm test` compiles the workflows once for the e2e
 * worker and the workflow tests both (webpack: about 4 CPU-s each time).
 */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  writeBundleCode((await testWorkflowBundle()).code);
  console.log(
    `workflow bundle: ${path.relative(ROOT, DEFAULT_BUNDLE_PATH)} (${Date.now() - t0} ms)`,
  );
}

/**
 * The workflow bundle for the workflow tests, built once per version of its sources instead of once per test
 * file (each build is ~4-5 s of webpack on this box, and the suite has a dozen files that run workers).
 *
 *   const bundle = await testWorkflowBundle();
 *   await Worker.create({ ..., workflowBundle: bundle });
 *
 * The key is a hash of every file under workflows/ and domain/ (all the bundle can import), workers/bundle.ts,
 * tsconfig.json and package-lock.json (the SDK's version): an edit to any of them builds a new bundle. The
 * bundles live in the per-user cache (~/.cache/wholesale/test-workflow-bundles/, the newest few kept), so a
 * clean clone of sources already bundled on the machine builds nothing (a bundle holds no path of the clone it
 * was built in); a build that fails (a workflow importing what a workflow may not) fails the test file as before.
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
import { CACHE_DIR } from "../../scripts/lib/paths.mjs";

const BUNDLES_DIR = path.join(CACHE_DIR, "test-workflow-bundles");
const SOURCES = ["workflows", "domain", "workers/bundle.ts", "tsconfig.json", "package-lock.json"];
const KEEP = 6;

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

/** A hash of the bundle's sources (and of `extra` files): their paths and contents. */
export function workflowSourcesKey(extra: string[] = []): string {
  const h = createHash("sha256");
  const files = [
    ...SOURCES.flatMap(filesUnder).sort(),
    ...extra.map((f) => path.relative(ROOT, f)),
  ];
  for (const f of files) {
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(ROOT, f)))
      .update("\0");
  }
  return h.digest("hex").slice(0, 24);
}

/**
 * The bundles this process has read, by the interceptor modules added: the suite's files share their modules
 * (vitest.config.ts `isolate: false`), so the sources are hashed and the bundle parsed once per process, not once
 * per file (about 0.3 CPU-s each).
 */
const loaded = new Map<string, Promise<WorkflowBundleWithSourceMap>>();

/**
 * The workflow bundle (cached as above). `extraInterceptors`: interceptor modules added after the app's own, as
 * deploy-versions' "build B" (the key covers their text too).
 */
export function testWorkflowBundle(
  opts: { extraInterceptors?: string[] } = {},
): Promise<WorkflowBundleWithSourceMap> {
  const extra = opts.extraInterceptors ?? [];
  const id = extra.join("\0");
  let bundle = loaded.get(id);
  if (!bundle) {
    bundle = cachedBundle(extra);
    bundle.catch(() => loaded.delete(id));
    loaded.set(id, bundle);
  }
  return bundle;
}

async function cachedBundle(extra: string[]): Promise<WorkflowBundleWithSourceMap> {
  const file = path.join(BUNDLES_DIR, `${workflowSourcesKey(extra)}.json`);
  if (fs.existsSync(file)) {
    try {
      const bundle = JSON.parse(fs.readFileSync(file, "utf8")) as WorkflowBundleWithSourceMap;
      const now = new Date();
      fs.utimesSync(file, now, now); // in use: the last to be pruned
      return bundle;
    } catch {
      // A bundle cut short (a run killed while writing it): build it again.
    }
  }
  const bundle = await buildWorkflowBundle(extra);
  fs.mkdirSync(BUNDLES_DIR, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(bundle));
  fs.renameSync(tmp, file);
  // Another clone's run may prune at the same time: a file gone meanwhile is skipped.
  const old = fs
    .readdirSync(BUNDLES_DIR)
    .filter((n) => n.endsWith(".json"))
    .map((n) => ({ n, t: fs.statSync(path.join(BUNDLES_DIR, n), { throwIfNoEntry: false }) }))
    .flatMap(({ n, t }) => (t ? [{ n, t: t.mtimeMs }] : []))
    .sort((a, b) => b.t - a.t)
    .slice(KEEP);
  for (const o of old) fs.rmSync(path.join(BUNDLES_DIR, o.n), { force: true });
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

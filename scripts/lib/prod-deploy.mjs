// The workers' roll-out of `npm run prod` with Worker Versioning (docs/decisions/0046-worker-versioning.md,
// docs/operations.md "Roll out a workflow change"); every Temporal call is workers/deploy.ts's, run as a command
// in the app's environment:
//   release   the new workflow bundle is kept as <dataDir>/releases/<buildId>.js (its content's hash); the new
//             workers run it as that build (WORKER_BUILD_ID), their workflows pinned to it
//   older     each older kept build with open workflows pinned to it gets one worker of its own again (its orders
//             finish on their code); one without is retired and its bundle deleted
//   promote   the replay check (the open workflows the new build would take over replay on its bundle), then it
//             becomes current; refused: the start stops, naming the workflows, and the current build stays
//   drain     an older build's worker runs until no open workflow is pinned to it, then is stopped and retired
// Node built-ins only (the caller passes its supervisor).
import fs from "node:fs";
import path from "node:path";
import { info, step, warn } from "./log.mjs";
import { ROOT } from "./paths.mjs";
import { run, startService } from "./proc.mjs";

const DEPLOY = ["--import", "tsx", path.join(ROOT, "workers", "deploy.ts")];
/** The deployment every build of the app joins (workers/deploy-decisions.ts DEFAULT_DEPLOYMENT_NAME). */
export const deploymentNameOf = (env) => env.WORKER_DEPLOYMENT_NAME || "marketplace";

/** One workers/deploy.ts command; its JSON line and exit code. */
async function deploy(env, args) {
  const r = await run(process.execPath, [...DEPLOY, ...args], { env, quiet: true });
  const line = r.output
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .pop();
  let out = null;
  try {
    out = line ? JSON.parse(line) : null;
  } catch {
    /* not JSON: reported below */
  }
  if (!out) throw new Error(`deploy.ts ${args[0]} failed: ${r.output.trim().slice(-500)}`);
  if (out.error) throw new Error(`deploy.ts ${args[0]}: ${out.error}`);
  return { ...out, code: r.code };
}

/** The new build: its bundle kept under its build id; the workers' environment that runs it as that build. */
export async function releaseBuild(env, dataDir, bundlePath) {
  const { buildId, bundlePath: kept } = await deploy(env, [
    "release",
    bundlePath,
    path.join(dataDir, "releases"),
  ]);
  return {
    buildId,
    bundlePath: kept,
    workerEnv: {
      WORKER_DEPLOYMENT_NAME: deploymentNameOf(env),
      WORKER_BUILD_ID: buildId,
      WORKFLOW_BUNDLE_PATH: kept,
    },
  };
}

/** Forgets a drained build: the server's record (when it agrees) and then its kept bundle. */
async function retire(env, buildId, bundlePath) {
  const { retired } = await deploy(env, ["retire", deploymentNameOf(env), buildId]);
  if (retired) fs.rmSync(bundlePath, { force: true });
  return retired;
}

/**
 * Older builds, the replay check and the promotion of `release` (the new build's workers already poll).
 * `supervise(name, cmd, args, opts)` is prod-topology's; what is started is pushed to `started`.
 * Returns { current, draining: [buildId] }.
 */
export async function rollOut({ env, release, dataDir, logDir, started, onGiveUp, supervise }) {
  const dir = path.join(dataDir, "releases");
  const deployment = deploymentNameOf(env);
  const draining = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .sort()) {
    const buildId = file.slice(0, -".js".length);
    if (buildId === release.buildId) continue;
    const bundlePath = path.join(dir, file);
    const { openPinned } = await deploy(env, ["open-pinned", deployment, buildId]);
    if (openPinned === 0) {
      const gone = await retire(env, buildId, bundlePath);
      info(
        `build ${buildId}: no open workflow pinned to it; ${gone ? "retired" : "retired when the server agrees (next start)"}`,
      );
      continue;
    }
    step(
      `build ${buildId}: ${openPinned} open workflows pinned to it; one worker runs it until they finish`,
    );
    const name = `worker-${buildId}`;
    const sup = supervise(name, process.execPath, ["--import", "tsx", "workers/main.ts"], {
      env: { ...env, WORKER_BUILD_ID: buildId, WORKFLOW_BUNDLE_PATH: bundlePath },
      logFile: path.join(logDir, `${name}.log`),
      onGiveUp,
    });
    started.push({ name, stop: sup.stop, sup });
    draining.push({ buildId, bundlePath, sup });
  }
  step(`replay check: the open workflows build ${release.buildId} would take over, on its bundle`);
  const verdict = await deploy(env, ["promote", deployment, release.buildId, release.bundlePath]);
  if (!verdict.promote)
    throw new Error(
      `build ${release.buildId} refused: ${verdict.failures.length} of the ${verdict.moving} open workflows it would take over ` +
        `do not replay on it:\n${verdict.failures.map((f) => `  ${f.workflowId}: ${f.error.split("\n")[0]}`).join("\n")}\n` +
        `The current build stays current. Put the change behind patched() (docs/operations.md "Roll out a workflow change").`,
    );
  info(
    `build ${release.buildId} is current (${verdict.moving} open workflows replayed and moved to it, ${verdict.pinnedElsewhere} stay pinned to older builds)`,
  );
  for (const d of draining) watchDrain({ env, deployment, d, logDir, started });
  return { current: release.buildId, draining: draining.map((d) => d.buildId) };
}

/** Waits (workers/deploy.ts wait-drained) until an older build has no open workflow; then stops and retires it. */
function watchDrain({ env, deployment, d, logDir, started }) {
  const name = `drain-${d.buildId}`;
  let stopping = false;
  const svc = startService(
    name,
    process.execPath,
    [...DEPLOY, "wait-drained", deployment, d.buildId],
    {
      env,
      logFile: path.join(logDir, `${name}.log`),
      onExit: async (code) => {
        if (stopping) return;
        if (code !== 0) {
          warn(
            `${name} exited (${code}): build ${d.buildId}'s worker keeps running (see ${name}.log)`,
          );
          return;
        }
        await d.sup.stop();
        const gone = await retire(env, d.buildId, d.bundlePath).catch(() => false);
        info(
          `build ${d.buildId} drained: its worker stopped${gone ? ", retired" : "; retired at a later start"}`,
        );
      },
    },
  );
  started.push({
    name,
    stop: async () => {
      stopping = true;
      await svc.stop({ timeoutMs: 2_000 });
    },
  });
  return svc;
}

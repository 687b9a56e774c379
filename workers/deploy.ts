/**
 * A deploy with Worker Versioning (docs/decisions/0046-worker-versioning.md, docs/operations.md "Roll out a
 * workflow change"): the calls behind the decisions of workers/deploy-decisions.ts.
 *
 *   checkReplay        the open workflows a new current build would take over, replayed on its bundle
 *   setCurrentVersion  the build that new workflows (and every workflow that is not pinned) run on
 *   openPinnedCount    how many open workflows are still pinned to a build (0: drained)
 *   retireVersion      the server forgets a drained build (refused while its workers still poll)
 *
 * Also a command for the scripts (`npm run prod`, the compose `deploy` service), in the app's environment
 * (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, PAYLOAD_KEYS: the histories are sealed):
 *   deploy.ts release <bundle.js> <dir>          keeps the bundle as <dir>/<buildId>.js: { buildId, bundlePath }
 *   deploy.ts promote <deployment> <buildId> <bundle.js>   the replay check, then set current (exit 1: refused);
 *                                                          buildId `bundle`: the bundle's own
 *   deploy.ts open-pinned <deployment> <buildId>           { openPinned }
 *   deploy.ts wait-drained <deployment> <buildId> [graceMs] returns once no open workflow is pinned to it
 *   deploy.ts retire <deployment> <buildId>                { retired } (exit 1: the server refused, for now)
 * (`npm run deploy -- <command> ...`.) Each prints one JSON line; exit 1 when refused or failed.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Connection } from "@temporalio/client";
import type { DataConverter } from "@temporalio/common";
// The default import: the package is CommonJS, and tsx runs this file as an ES module (temporal/codec.ts does the same).
import proto from "@temporalio/proto";
import { Worker, type WorkflowBundleOption } from "@temporalio/worker";
import {
  buildIdOf,
  retireDecision,
  replayVerdict,
  sameVersion,
  versionKey,
  wouldMoveTo,
  type DeployVersion,
  type OpenWorkflowVersioning,
  type ReplayVerdict,
} from "./deploy-decisions";

const Behavior = proto.temporal.api.enums.v1.VersioningBehavior;

/** The versioning of one described workflow, flattened for wouldMoveTo. */
function versioningOf(
  workflowId: string,
  runId: string,
  info: proto.temporal.api.workflow.v1.IWorkflowExecutionVersioningInfo | null | undefined,
): OpenWorkflowVersioning {
  const v = info?.deploymentVersion;
  const o = info?.versioningOverride;
  const pinnedTo = o?.pinned?.version;
  return {
    workflowId,
    runId,
    behavior:
      info?.behavior === Behavior.VERSIONING_BEHAVIOR_PINNED
        ? "PINNED"
        : info?.behavior === Behavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE
          ? "AUTO_UPGRADE"
          : null,
    version:
      v?.deploymentName && v.buildId
        ? { deploymentName: v.deploymentName, buildId: v.buildId }
        : null,
    override: o?.autoUpgrade
      ? "AUTO_UPGRADE"
      : pinnedTo?.deploymentName && pinnedTo.buildId
        ? { pinnedTo: { deploymentName: pinnedTo.deploymentName, buildId: pinnedTo.buildId } }
        : null,
  };
}

/** Every open workflow of the task queue with its versioning (describe is exact; the list only finds them). */
export async function openWorkflows(
  client: Client,
  taskQueue: string,
): Promise<OpenWorkflowVersioning[]> {
  const out: OpenWorkflowVersioning[] = [];
  const query = `ExecutionStatus = "Running" AND TaskQueue = "${taskQueue}"`;
  for await (const w of client.workflow.list({ query })) {
    const d = await client.workflow.getHandle(w.workflowId, w.runId).describe();
    if (d.status.name !== "RUNNING") continue;
    out.push(versioningOf(w.workflowId, w.runId, d.raw.workflowExecutionInfo?.versioningInfo));
  }
  return out;
}

/**
 * The replay check before `target` becomes current: the open workflows it would take over (wouldMoveTo) are
 * fetched and replayed on its bundle; pinned ones stay on their build and are not. promote: none failed.
 */
export async function checkReplay(opts: {
  client: Client;
  taskQueue: string;
  target: DeployVersion;
  workflowBundle: WorkflowBundleOption;
  dataConverter: DataConverter;
}): Promise<ReplayVerdict> {
  const open = await openWorkflows(opts.client, opts.taskQueue);
  const moving = open.filter((w) => wouldMoveTo(w, opts.target));
  const failures: ReplayVerdict["failures"] = [];
  if (moving.length > 0) {
    const histories = (async function* () {
      for (const w of moving) {
        const history = await opts.client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
        yield { workflowId: w.workflowId, history };
      }
    })();
    const results = Worker.runReplayHistories(
      {
        workflowBundle: opts.workflowBundle,
        dataConverter: opts.dataConverter,
      },
      histories,
    );
    for await (const r of results)
      if (r.error)
        failures.push({ workflowId: r.workflowId, runId: r.runId, error: r.error.message });
  }
  return replayVerdict(open, opts.target, failures);
}

/**
 * Makes `version` the deployment's current version: new workflows, and every one not pinned, run on it. The
 * server knows a version once one of its workers has polled: until then it refuses, so this tries again for
 * up to `waitMs`. Setting the current version again is a no-op.
 */
export async function setCurrentVersion(
  client: Client,
  version: DeployVersion,
  { waitMs = 30_000 } = {},
): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: client.options.namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        identity: client.options.identity,
      });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** The deployment's current version, or null (none set: new workflows go to workers without versioning). */
export async function currentVersion(
  client: Client,
  deploymentName: string,
): Promise<DeployVersion | null> {
  try {
    const d = await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName,
    });
    const v = d.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion;
    return v?.buildId && v.deploymentName
      ? { deploymentName: v.deploymentName, buildId: v.buildId }
      : null;
  } catch (e) {
    if ((e as { code?: number }).code === 5) return null; // NOT_FOUND: no worker of it has polled yet
    throw e;
  }
}

/** Open workflows pinned to `version` (visibility: it lags a little; retireDecision allows for it). */
export async function openPinnedCount(client: Client, version: DeployVersion): Promise<number> {
  const { count } = await client.workflow.count(
    `ExecutionStatus = "Running" AND TemporalWorkerDeploymentVersion = "${versionKey(version)}"`,
  );
  return count;
}

/**
 * Asks the server to forget a drained version. Its own drainage status refreshes every few minutes, so the
 * drain is the caller's (openPinnedCount and retireDecision) and skipped here. The server refuses while
 * workers of the version still poll (or did very recently): then false, and the next deploy tries again; the
 * stopped workers cost nothing meanwhile.
 */
export async function retireVersion(client: Client, version: DeployVersion): Promise<boolean> {
  try {
    await client.workflowService.deleteWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: version,
      skipDrainage: true,
      identity: client.options.identity,
    });
    return true;
  } catch {
    return false;
  }
}

/** Keeps a build's bundle under its build id (an older build's workers load it while its orders are open). */
export function releaseBundle(
  bundlePath: string,
  dir: string,
): { buildId: string; bundlePath: string } {
  const code = fs.readFileSync(bundlePath);
  const buildId = buildIdOf(code);
  const kept = path.join(dir, `${buildId}.js`);
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(kept)) {
    fs.writeFileSync(`${kept}.tmp`, code);
    fs.renameSync(`${kept}.tmp`, kept);
  }
  return { buildId, bundlePath: kept };
}

/** Polls openPinnedCount until retireDecision says the version (no longer current) may be retired. */
export async function waitDrained(
  client: Client,
  version: DeployVersion,
  { graceMs = 60_000, everyMs = 15_000 } = {},
): Promise<void> {
  const since = Date.now();
  let firstEmptyAtMs: number | null = null;
  for (;;) {
    const current = await currentVersion(client, version.deploymentName);
    const openPinned = await openPinnedCount(client, version);
    const nowMs = Date.now();
    firstEmptyAtMs = openPinned > 0 ? null : (firstEmptyAtMs ?? nowMs);
    const decision = retireDecision({
      current: sameVersion(current, version),
      openPinned,
      replacedAtMs: since,
      firstEmptyAtMs,
      nowMs,
      graceMs,
    });
    if (decision === "retire") return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function command(argv: string[]): Promise<number> {
  const print = (o: object) => process.stdout.write(JSON.stringify(o) + "\n");
  if (argv[0] === "release") {
    if (!argv[1] || !argv[2]) throw new Error("usage: deploy.ts release <bundle.js> <dir>");
    print(releaseBundle(argv[1], argv[2]));
    return 0;
  }
  const [what, deploymentName, buildIdArg, bundlePath] = argv;
  // `promote <deployment> bundle <bundle.js>`: the build id of the bundle (the compose deploy service's form).
  const buildId =
    buildIdArg === "bundle" && bundlePath ? buildIdOf(fs.readFileSync(bundlePath)) : buildIdArg;
  const { parseEnv } = await import("../domain/env");
  const { dataConverterOf, temporalTlsOf } = await import("../temporal/connection");
  const env = parseEnv(process.env, (f) => fs.readFileSync(f, "utf8"));
  if (!deploymentName || !buildId)
    throw new Error("usage: deploy.ts <command> <deployment> <buildId>");
  const version = { deploymentName, buildId };
  const connection = await Connection.connect({
    address: env.TEMPORAL_ADDRESS,
    tls: temporalTlsOf(env),
  });
  const dataConverter = dataConverterOf(env);
  const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE, dataConverter });
  try {
    if (what === "promote") {
      if (!bundlePath) throw new Error("promote: the new build's workflow bundle is required");
      const verdict = await checkReplay({
        client,
        taskQueue: env.TEMPORAL_TASK_QUEUE,
        target: version,
        workflowBundle: { codePath: path.resolve(bundlePath) },
        dataConverter,
      });
      if (verdict.promote) await setCurrentVersion(client, version);
      print(verdict);
      return verdict.promote ? 0 : 1;
    }
    if (what === "open-pinned") {
      print({ openPinned: await openPinnedCount(client, version) });
      return 0;
    }
    if (what === "wait-drained") {
      await waitDrained(client, version, { graceMs: Number(argv[3] ?? 60_000) });
      print({ drained: true });
      return 0;
    }
    if (what === "retire") {
      const retired = await retireVersion(client, version);
      print({ retired });
      return retired ? 0 : 1;
    }
    throw new Error(
      `unknown command ${what} (release, promote, open-pinned, wait-drained, retire)`,
    );
  } finally {
    await connection.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await command(process.argv.slice(2)).catch((e: unknown) => {
    process.stdout.write(
      JSON.stringify({ error: e instanceof Error ? e.message : String(e) }) + "\n",
    );
    return 1;
  });
}

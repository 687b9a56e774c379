/**
 * The decisions of a deploy with Worker Versioning (docs/decisions/0046-worker-versioning.md), without I/O so
 * they are table-tested (tests/unit/deploy-decisions.test.ts): which build id a bundle gets, which open
 * workflows a new current build would take over (and so must replay on its bundle), and when an old build
 * is drained and may be retired. workers/deploy.ts does the calls; scripts/lib/prod-topology.mjs and the
 * deploy proof (tests/workflows/deploy-versions.test.ts) follow what these say.
 */
import { createHash } from "node:crypto";

/** A worker deployment version: the deployment (the app's workers) and the build running in it. */
export interface DeployVersion {
  deploymentName: string;
  buildId: string;
}

/** What Temporal says about one open workflow's versioning (its describe: versioningInfo), flattened. */
export interface OpenWorkflowVersioning {
  workflowId: string;
  runId: string;
  /** The behavior its last workflow task reported; null before its first task completed, or unversioned. */
  behavior: "PINNED" | "AUTO_UPGRADE" | null;
  /** The version it runs on; null when unversioned (started before versioning, or not yet run). */
  version: DeployVersion | null;
  /** An operator's override (`temporal workflow update-options`): it wins over the behavior. */
  override: { pinnedTo: DeployVersion } | "AUTO_UPGRADE" | null;
}

/** The deployment every worker of the app joins unless WORKER_DEPLOYMENT_NAME names another. */
export const DEFAULT_DEPLOYMENT_NAME = "marketplace";

/**
 * The deployment version a worker registers, or null: unversioned (npm run dev, the tests). WORKER_BUILD_ID
 * names the build; without it, WORKER_DEPLOYMENT_NAME alone asks for the build id of the bundle the worker
 * loads (`bundleBuildId`, null when it compiles from source: refused, a version must name fixed code).
 */
export function deploymentVersionOf(
  vars: Record<string, string | undefined>,
  bundleBuildId: () => string | null = () => null,
): DeployVersion | null {
  const name = vars.WORKER_DEPLOYMENT_NAME?.trim();
  const buildId = vars.WORKER_BUILD_ID?.trim() || (name ? bundleBuildId() : null);
  if (!buildId) {
    if (name)
      throw new Error(
        "WORKER_DEPLOYMENT_NAME: a versioned worker runs a prebuilt workflow bundle (npm run build) or names WORKER_BUILD_ID",
      );
    return null;
  }
  return { deploymentName: name || DEFAULT_DEPLOYMENT_NAME, buildId };
}

/** The build id of a workflow bundle: its content's hash, so the same workflow code keeps its version. */
export function buildIdOf(bundleCode: string | Buffer): string {
  return `wf-${createHash("sha256").update(bundleCode).digest("hex").slice(0, 12)}`;
}

/** `deployment:build`, the form the server's search attribute TemporalWorkerDeploymentVersion holds. */
export function versionKey(v: DeployVersion): string {
  return `${v.deploymentName}:${v.buildId}`;
}

export function sameVersion(a: DeployVersion | null, b: DeployVersion | null): boolean {
  return Boolean(a && b && a.deploymentName === b.deploymentName && a.buildId === b.buildId);
}

/**
 * Whether a new current version would run this open workflow's next task, so its history must replay on the
 * new bundle. A pinned workflow stays on the version it started on (the server routes its tasks there until
 * it closes), whatever becomes current: it need not replay. Everything else moves to the current version at
 * its next task: auto-upgrade workflows, unversioned ones (started on workers without versioning, i.e. before
 * the first versioned deploy) and ones whose first task has not completed yet (no behavior recorded). A
 * workflow already on the target version made its history on that code and is not checked either.
 */
export function wouldMoveTo(w: OpenWorkflowVersioning, target: DeployVersion): boolean {
  if (w.override === "AUTO_UPGRADE") return !sameVersion(w.version, target);
  if (w.override) return false; // pinned by an operator to a version of their choice
  if (w.behavior === "PINNED") return false;
  return !sameVersion(w.version, target);
}

/** The replay check's answer: promote when every history that would move replays on the new bundle. */
export interface ReplayVerdict {
  promote: boolean;
  /** How many open workflows were looked at, how many would move, how many stay pinned elsewhere. */
  open: number;
  moving: number;
  pinnedElsewhere: number;
  failures: { workflowId: string; runId: string; error: string }[];
}

export function replayVerdict(
  open: OpenWorkflowVersioning[],
  target: DeployVersion,
  failures: ReplayVerdict["failures"],
): ReplayVerdict {
  const moving = open.filter((w) => wouldMoveTo(w, target)).length;
  return {
    promote: failures.length === 0,
    open: open.length,
    moving,
    pinnedElsewhere: open.filter((w) => !wouldMoveTo(w, target) && !sameVersion(w.version, target))
      .length,
    failures,
  };
}

/**
 * What to do with an older version's workers. Kept while it is current or ramping, or while any workflow
 * pinned to it is open; retired (workers stopped, version deleted) once no open workflow is pinned to it
 * and that was seen twice, `graceMs` apart, after it stopped being current: visibility lags the workflow
 * tasks, so one empty answer just after the switch is not proof (the server's own drainage status waits a
 * grace period for the same reason).
 */
export type RetireDecision = "keep" | "wait" | "retire";

export function retireDecision(s: {
  current: boolean;
  openPinned: number;
  /** When it stopped being current (ms), or null when it never was. */
  replacedAtMs: number | null;
  /** When a count of 0 was first seen since the last non-zero count (ms), or null. */
  firstEmptyAtMs: number | null;
  nowMs: number;
  graceMs: number;
}): RetireDecision {
  if (s.current) return "keep";
  if (s.openPinned > 0) return "keep";
  if (s.firstEmptyAtMs === null) return "wait";
  const since = Math.max(s.firstEmptyAtMs, s.replacedAtMs ?? 0);
  return s.nowMs - since >= s.graceMs ? "retire" : "wait";
}

/**
 * The deploy's decisions (workers/deploy-decisions.ts, docs/decisions/0046-worker-versioning.md): which open
 * workflows a new current build takes over and must replay, the check's verdict, when an old build is retired,
 * a worker's version from its environment and a bundle's build id. The deploy itself:
 * tests/workflows/deploy-versions.test.ts.
 */
import { describe, expect, test } from "vitest";
import {
  buildIdOf,
  deploymentVersionOf,
  replayVerdict,
  retireDecision,
  versionKey,
  wouldMoveTo,
  type OpenWorkflowVersioning,
} from "../../workers/deploy-decisions";

const A = { deploymentName: "marketplace", buildId: "wf-a" };
const B = { deploymentName: "marketplace", buildId: "wf-b" };
const open = (o: Partial<OpenWorkflowVersioning>): OpenWorkflowVersioning => ({
  workflowId: "BuyOrder:1",
  runId: "r",
  behavior: null,
  version: null,
  override: null,
  ...o,
});

describe("wouldMoveTo: the open workflows B would serve once current", () => {
  test.each([
    ["pinned to A: stays on A", open({ behavior: "PINNED", version: A }), false],
    ["pinned to B already: made on B's code", open({ behavior: "PINNED", version: B }), false],
    ["unversioned (before the first versioned deploy)", open({}), true],
    ["first task not completed yet", open({ behavior: null, version: null }), true],
    ["auto-upgrade on A", open({ behavior: "AUTO_UPGRADE", version: A }), true],
    ["auto-upgrade already on B", open({ behavior: "AUTO_UPGRADE", version: B }), false],
    [
      "operator pinned an auto-upgrade one to A",
      open({ behavior: "AUTO_UPGRADE", version: A, override: { pinnedTo: A } }),
      false,
    ],
    [
      "operator made a pinned one auto-upgrade",
      open({ behavior: "PINNED", version: A, override: "AUTO_UPGRADE" }),
      true,
    ],
  ])("%s", (_what, w, moves) => {
    expect(wouldMoveTo(w, B)).toBe(moves);
  });
});

describe("replayVerdict", () => {
  const workflows = [
    open({ workflowId: "a1", behavior: "PINNED", version: A }),
    open({ workflowId: "a2", behavior: "PINNED", version: A }),
    open({ workflowId: "u1" }),
    open({ workflowId: "b1", behavior: "PINNED", version: B }),
  ];
  test("promotes when every moving history replays; counts what stays pinned elsewhere", () => {
    expect(replayVerdict(workflows, B, [])).toEqual({
      promote: true,
      open: 4,
      moving: 1,
      pinnedElsewhere: 2,
      failures: [],
    });
  });
  test("refuses when one does not", () => {
    const failures = [{ workflowId: "u1", runId: "r", error: "Nondeterminism" }];
    expect(replayVerdict(workflows, B, failures)).toMatchObject({ promote: false, failures });
  });
});

describe("retireDecision", () => {
  const base = {
    current: false,
    openPinned: 0,
    replacedAtMs: 1_000,
    firstEmptyAtMs: 2_000,
    nowMs: 20_000,
    graceMs: 10_000,
  };
  test.each([
    ["the current build is kept", { current: true }, "keep"],
    ["open orders pinned to it: kept", { openPinned: 3 }, "keep"],
    ["no empty count seen yet: wait", { firstEmptyAtMs: null }, "wait"],
    ["empty, but not for the grace yet: wait", { nowMs: 11_000 }, "wait"],
    [
      "empty only since it stopped being current: the grace counts from then",
      { replacedAtMs: 15_000 },
      "wait",
    ],
    ["empty for the grace: retire", {}, "retire"],
  ] as const)("%s", (_what, over, want) => {
    expect(retireDecision({ ...base, ...over })).toBe(want);
  });
});

describe("a worker's version", () => {
  test("WORKER_BUILD_ID makes it versioned, in the app's deployment unless another is named", () => {
    expect(deploymentVersionOf({})).toBeNull();
    expect(deploymentVersionOf({ WORKER_BUILD_ID: " " })).toBeNull();
    expect(deploymentVersionOf({ WORKER_BUILD_ID: "wf-1" })).toEqual({
      deploymentName: "marketplace",
      buildId: "wf-1",
    });
    expect(
      deploymentVersionOf({ WORKER_BUILD_ID: "wf-1", WORKER_DEPLOYMENT_NAME: "staging" }),
    ).toEqual({ deploymentName: "staging", buildId: "wf-1" });
  });
  test("a deployment name alone takes the build id of the bundle the worker loads; none: refused", () => {
    const named = { WORKER_DEPLOYMENT_NAME: "marketplace" };
    expect(deploymentVersionOf(named, () => "wf-abc")).toEqual({
      deploymentName: "marketplace",
      buildId: "wf-abc",
    });
    expect(() => deploymentVersionOf(named, () => null)).toThrow(/prebuilt workflow bundle/);
    expect(deploymentVersionOf({}, () => "wf-abc")).toBeNull();
  });
  test("the build id follows the bundle's content; the search attribute's form", () => {
    expect(buildIdOf("code")).toBe(buildIdOf(Buffer.from("code")));
    expect(buildIdOf("code")).not.toBe(buildIdOf("code2"));
    expect(buildIdOf("code")).toMatch(/^wf-[0-9a-f]{12}$/);
    expect(versionKey(A)).toBe("marketplace:wf-a");
  });
});

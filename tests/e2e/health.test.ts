// The web process's health endpoints on the e2e stack's production build (docs/operations.md "Health"): liveness
// answers without touching a dependency, readiness names its checks (the database and the Temporal frontend),
// and every answer carries a request id: a load balancer's when it is a plain token, a new one otherwise.
// The 503 of a missing dependency is tests/unit/observability.test.ts's; npm run prod -- --check reads the id
// back from a workflow's memo and a worker's log.
import { url } from "./harness";

test("GET /healthz: the process answers", async () => {
  const res = await fetch(url("/healthz"));
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("ok");
});

test("GET /readyz: 200 with the database and Temporal checked, never cached", async () => {
  const res = await fetch(url("/readyz"));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as {
    status: string;
    checks: Record<string, { ok: boolean; ms: number }>;
  };
  expect(body.status).toBe("ready");
  expect(Object.keys(body.checks).sort()).toEqual(["database", "temporal"]);
  for (const check of Object.values(body.checks))
    expect(check).toMatchObject({ ok: true, ms: expect.any(Number) });
});

test("every answer carries X-Request-Id: the caller's plain token kept, anything else replaced", async () => {
  const kept = await fetch(url("/signin"), { headers: { "X-Request-Id": "lb-e2e.42_a" } });
  expect(kept.headers.get("x-request-id")).toBe("lb-e2e.42_a");
  const replaced = await fetch(url("/signin"), { headers: { "X-Request-Id": "<not a token>" } });
  expect(replaced.headers.get("x-request-id")).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  );
  const fresh = await fetch(url("/healthz"));
  expect(fresh.headers.get("x-request-id")).not.toBe(replaced.headers.get("x-request-id"));
});

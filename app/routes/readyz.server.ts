/**
 * Readiness of a web process (GET /readyz, app/routes/readyz.tsx): it can serve pages when its database
 * answers a query and the Temporal frontend answers an RPC, each within READY_TIMEOUT_MS. Liveness is
 * GET /healthz (workers/web.mjs: the process answers at all). A load balancer sends traffic to a ready
 * process only; an orchestrator restarts a process that is not live (docs/operations.md "Health").
 */
import { sql } from "drizzle-orm";
import { db } from "~/utils/db.server";
import { getTemporalClient } from "~/utils/temporal.server";

export const READY_TIMEOUT_MS = 2000;

export interface CheckResult {
  ok: boolean;
  ms: number;
  error?: string;
}

/** Runs one check with a deadline; never throws. */
export async function timedCheck(
  check: () => Promise<unknown>,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<CheckResult> {
  const t0 = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      ms: Math.round(performance.now() - t0),
      error: message.split("\n")[0].slice(0, 200),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The answer of /readyz: 200 when every check passed, 503 otherwise; JSON naming each check. */
export function readinessResponse(checks: Record<string, CheckResult>): Response {
  const ready = Object.values(checks).every((c) => c.ok);
  return new Response(JSON.stringify({ status: ready ? "ready" : "not ready", checks }), {
    status: ready ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

export async function readiness(): Promise<Response> {
  const [database, temporal] = await Promise.all([
    timedCheck(() => db.execute(sql`select 1`)),
    timedCheck(async () => (await getTemporalClient()).workflowService.getSystemInfo({})),
  ]);
  return readinessResponse({ database, temporal });
}

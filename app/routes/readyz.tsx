/**
 * GET /readyz: is this web process ready to serve (its database and Temporal answer)? 200 or 503 with JSON
 * naming each check (app/routes/readyz.server.ts). Liveness is /healthz (workers/web.mjs). No session needed:
 * the answer says only which dependency is down.
 */
import { readiness } from "./readyz.server";

export function loader() {
  return readiness();
}

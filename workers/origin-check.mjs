/**
 * Cross-site request check for the web server (CSRF defence in depth beside SameSite=Lax cookies).
 * Pure: no I/O, unit-tested in tests/unit/origin-check.test.ts.
 *
 * Rule: every request whose method is not GET or HEAD, except the two webhook endpoints
 * (/webhooks/carrier, /webhooks/payments, signed by their senders instead), must carry an Origin header
 * equal to APP_ORIGIN; when Origin is absent, the Referer's origin must equal APP_ORIGIN.
 * Neither header, "null", or a malformed value is rejected.
 *
 * The exemption compares the path as the router will see it (dot segments resolved, "%2e%2e" included),
 * so "/webhooks/../banners/dismiss" is checked like "/banners/dismiss".
 */

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** The webhook endpoints: exact paths (a trailing slash allowed), after normalising. */
export const WEBHOOK_PATHS = new Set([
  "/webhooks/carrier",
  "/webhooks/payments",
  "/api/stock-import",
]);
// /api/stock-import (docs/guides/stock-import.md "API") is authorised by a Bearer token sent by the store's own system, never by a
// cookie, so a cross-site form cannot use it: exempt like the webhooks.

/** The path the router sees: dot segments resolved; null when it is not a valid path. */
export function normalisedPath(path) {
  if (typeof path !== "string" || !path.startsWith("/") || /[\\\u0000-\u001f]/.test(path))
    return null;
  try {
    const u = new URL(path, "http://path.invalid");
    return u.origin === "http://path.invalid" ? u.pathname : null;
  } catch {
    return null;
  }
}

/** Whether this path is one of the webhook endpoints (exempt from the Origin check). */
export function isWebhookPath(path) {
  const p = normalisedPath(path);
  if (p === null) return false;
  return WEBHOOK_PATHS.has(p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p);
}

/** Normalises "https://Example.com:443/x" to "https://example.com"; null when not a URL. */
export function originOf(value) {
  if (typeof value !== "string" || value === "" || value === "null") return null;
  try {
    const u = new URL(value);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * `alsoFrom`: another origin this request may come from (the Temporal Web UI's, for the codec server's paths).
 * @param {{ method: string, path: string, origin?: string | null, referer?: string | null, appOrigin: string, alsoFrom?: string | null }} req
 * @returns {{ ok: true } | { ok: false, reason: string }}
 */
export function checkOrigin({ method, path, origin, referer, appOrigin, alsoFrom = null }) {
  const m = String(method || "GET").toUpperCase();
  if (SAFE_METHODS.has(m)) return { ok: true };
  if (isWebhookPath(path)) return { ok: true };
  const expected = originOf(appOrigin);
  if (!expected) return { ok: false, reason: "APP_ORIGIN is not a valid origin" };
  if (origin !== undefined && origin !== null && origin !== "") {
    const from = originOf(origin);
    if (from !== null && alsoFrom && from === originOf(alsoFrom)) return { ok: true };
    return from === expected
      ? { ok: true }
      : { ok: false, reason: `Origin ${origin} is not ${expected}` };
  }
  if (referer) {
    return originOf(referer) === expected
      ? { ok: true }
      : { ok: false, reason: `Referer is not from ${expected}` };
  }
  return { ok: false, reason: "neither Origin nor Referer present" };
}

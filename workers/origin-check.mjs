/**
 * Cross-site request check for the web server (CSRF defence in depth beside SameSite=Lax cookies).
 * Pure: no I/O, unit-tested in tests/unit/origin-check.test.ts.
 *
 * Rule: every request whose method is not GET or HEAD, except under /webhooks/, must carry an Origin
 * header equal to APP_ORIGIN; when Origin is absent, the Referer's origin must equal APP_ORIGIN.
 * Neither header, "null", or a malformed value is rejected.
 */

const SAFE_METHODS = new Set(["GET", "HEAD"]);

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
 * @param {{ method: string, path: string, origin?: string | null, referer?: string | null, appOrigin: string }} req
 * @returns {{ ok: true } | { ok: false, reason: string }}
 */
export function checkOrigin({ method, path, origin, referer, appOrigin }) {
  const m = String(method || "GET").toUpperCase();
  if (SAFE_METHODS.has(m)) return { ok: true };
  if (path === "/webhooks" || String(path).startsWith("/webhooks/")) return { ok: true };
  const expected = originOf(appOrigin);
  if (!expected) return { ok: false, reason: "APP_ORIGIN is not a valid origin" };
  if (origin !== undefined && origin !== null && origin !== "") {
    return originOf(origin) === expected ? { ok: true } : { ok: false, reason: `Origin ${origin} is not ${expected}` };
  }
  if (referer) {
    return originOf(referer) === expected ? { ok: true } : { ok: false, reason: `Referer is not from ${expected}` };
  }
  return { ok: false, reason: "neither Origin nor Referer present" };
}

/**
 * CORS for the codec server (app/routes/codec.$op.tsx, ADR 0040): the Temporal Web UI, on its own origin, POSTs
 * JSON with the browser's cookies (its codec setting includeCredentials), so the browser first asks with an
 * OPTIONS preflight, which Remix does not route. Only the UI's origin (TEMPORAL_UI_URL) is answered; the
 * route itself still requires a signed-in staff user with "ops.decode". Pure but for the Express middleware.
 */
import { normalisedPath, originOf } from "./origin-check.mjs";

export const CODEC_PATHS = new Set(["/codec/decode", "/codec/encode"]);

/** Whether this path is one of the codec server's (after normalising, as the router sees it). */
export function isCodecPath(path) {
  const p = normalisedPath(path);
  return p !== null && CODEC_PATHS.has(p);
}

/** The CORS headers for a request from `origin`: only when it is the UI's origin, else none. */
export function codecCorsHeaders(origin, uiOrigin) {
  const ui = originOf(uiOrigin);
  if (!ui || originOf(origin) !== ui) return {};
  return {
    "Access-Control-Allow-Origin": ui,
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Methods": "POST, OPTIONS",
    "Access-Control-Allow-Headers": "Content-Type, X-Namespace",
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}

/** Express middleware: CORS headers on the codec paths, and the preflight's answer (204, or 403 for another origin). */
export function codecCors(uiOrigin) {
  return (req, res, next) => {
    if (!isCodecPath(req.path)) return next();
    const headers = codecCorsHeaders(req.get("origin"), uiOrigin);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (req.method !== "OPTIONS") return next();
    res.status(headers["Access-Control-Allow-Origin"] ? 204 : 403).end();
  };
}

/**
 * Response headers the web server adds to every answer (pure, unit-tested in tests/unit/security-headers.test.ts).
 * The Content-Security-Policy of HTML pages needs the page's nonce and the app's configuration, so
 * app/entry.server.tsx sets it (app/utils/csp.server.ts).
 */

export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "usb=()",
  // Stripe Elements' payment request button runs in a js.stripe.com frame.
  'payment=(self "https://js.stripe.com")',
].join(", ");

/** Two years, subdomains included (hstspreload.org's minimum is one year). */
export const HSTS = "max-age=63072000; includeSubDomains";

/**
 * @param {{ https: boolean }} opts https: the request came over TLS (req.secure) or APP_ORIGIN is https
 * @returns {Record<string, string>}
 */
export function securityHeaders({ https }) {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    ...(https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/** Whether the request carries the session cookie (app/utils/session.server.ts SESSION_COOKIE_NAME). */
export function hasSessionCookie(cookieHeader, name = "wx_session") {
  if (typeof cookieHeader !== "string") return false;
  return cookieHeader.split(";").some((part) => {
    const eq = part.indexOf("=");
    return eq > 0 && part.slice(0, eq).trim() === name && part.slice(eq + 1).trim() !== "";
  });
}

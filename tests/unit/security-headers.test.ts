import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, snippetSources } from "~/utils/csp.server";
import { hasSessionCookie, securityHeaders } from "../../workers/security-headers.mjs";

const directive = (csp: string, name: string) =>
  csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("Content-Security-Policy", () => {
  it("allows this origin's scripts and the page's nonce, never inline scripts or eval", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123", stripe: false });
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toMatch(/unsafe-eval|js\.stripe\.com/);
    expect(directive(csp, "script-src")).not.toMatch(/unsafe-inline/);
    expect(directive(csp, "object-src")).toBe("object-src 'none'");
    expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(csp, "base-uri")).toBe("base-uri 'self'");
    expect(directive(csp, "form-action")).toBe("form-action 'self'");
    expect(directive(csp, "connect-src")).toBe("connect-src 'self'");
  });

  it("adds Stripe Elements when a publishable key is configured", () => {
    const csp = contentSecurityPolicy({ nonce: "n", stripe: true });
    expect(directive(csp, "script-src")).toContain("https://js.stripe.com");
    expect(directive(csp, "frame-src")).toContain("https://js.stripe.com");
    expect(directive(csp, "connect-src")).toContain("https://api.stripe.com");
  });

  it("allows the chat widget snippet's script origins and its inline scripts by hash", () => {
    const snippet = `<script src="https://chat.example.com/w.js?id=1" async></script><script>window.chat={id:1}</script>`;
    const { origins, hashes } = snippetSources(snippet);
    expect(origins).toEqual(["https://chat.example.com"]);
    expect(hashes).toHaveLength(1);
    const csp = contentSecurityPolicy({ nonce: "n", stripe: false, chatWidgetSnippet: snippet });
    expect(directive(csp, "script-src")).toContain("https://chat.example.com");
    expect(directive(csp, "script-src")).toContain(hashes[0]);
    expect(snippetSources(`<script src="http://insecure.example/x.js"></script>`).origins).toEqual(
      [],
    );
  });

  it("lets the live-reload socket connect in development only", () => {
    expect(
      directive(
        contentSecurityPolicy({ nonce: "n", stripe: false, development: true }),
        "connect-src",
      ),
    ).toContain("ws:");
  });
});

describe("web server headers", () => {
  it("sends Permissions-Policy always and HSTS only over https", () => {
    const plain = securityHeaders({ https: false });
    expect(plain["Permissions-Policy"]).toMatch(/camera=\(\)/);
    expect(plain["X-Frame-Options"]).toBe("DENY");
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ https: true })["Strict-Transport-Security"]).toMatch(
      /^max-age=\d{8,}; includeSubDomains$/,
    );
  });

  it("recognises the session cookie", () => {
    expect(hasSessionCookie("a=1; wx_session=abc")).toBe(true);
    expect(hasSessionCookie("wx_session=")).toBe(false);
    expect(hasSessionCookie("xwx_session=abc")).toBe(false);
    expect(hasSessionCookie(undefined)).toBe(false);
  });
});

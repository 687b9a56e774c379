import { describe, expect, it } from "vitest";
import { codecCorsHeaders, isCodecPath } from "../../workers/codec-cors.mjs";
import { checkOrigin, isWebhookPath, originOf } from "../../workers/origin-check.mjs";

const app = "http://localhost:3000";
const check = (
  r: Partial<{ method: string; path: string; origin: string | null; referer: string | null }>,
) =>
  checkOrigin({ method: "POST", path: "/signin", appOrigin: app, ...r }) as {
    ok: boolean;
    reason?: string;
  };

describe("origin check", () => {
  it("lets GET and HEAD through whatever the headers", () => {
    expect(check({ method: "GET", origin: "https://evil.test" }).ok).toBe(true);
    expect(check({ method: "HEAD" }).ok).toBe(true);
    expect(check({ method: "get" }).ok).toBe(true);
  });

  it("accepts a POST whose Origin is the app's", () => {
    expect(check({ origin: "http://localhost:3000" }).ok).toBe(true);
  });

  it("rejects a POST from another origin, scheme or port", () => {
    expect(check({ origin: "https://evil.test" }).ok).toBe(false);
    expect(check({ origin: "https://localhost:3000" }).ok).toBe(false);
    expect(check({ origin: "http://localhost:3001" }).ok).toBe(false);
    expect(check({ origin: "http://localhost:3000.evil.test" }).ok).toBe(false);
  });

  it("rejects Origin: null and garbage", () => {
    expect(check({ origin: "null" }).ok).toBe(false);
    expect(check({ origin: "not a url" }).ok).toBe(false);
  });

  it("falls back to the Referer when Origin is absent", () => {
    expect(check({ referer: "http://localhost:3000/signin?next=/x" }).ok).toBe(true);
    expect(check({ referer: "https://evil.test/page" }).ok).toBe(false);
  });

  it("a present Origin wins over a same-site Referer", () => {
    expect(check({ origin: "https://evil.test", referer: "http://localhost:3000/" }).ok).toBe(
      false,
    );
  });

  it("rejects a POST with neither header", () => {
    const v = check({});
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/neither/);
  });

  it("applies to PUT, PATCH, DELETE and OPTIONS too", () => {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(check({ method, origin: "https://evil.test" }).ok).toBe(false);
      expect(check({ method, origin: app }).ok).toBe(true);
    }
  });

  it("exempts exactly the two webhook endpoints (signed by the provider instead)", () => {
    expect(check({ path: "/webhooks/carrier", origin: "https://carrier.test" }).ok).toBe(true);
    expect(check({ path: "/webhooks/payments" }).ok).toBe(true);
    expect(check({ path: "/webhooks/payments/" }).ok).toBe(true);
    expect(check({ path: "/webhooks/stripe" }).ok).toBe(false);
    expect(check({ path: "/webhooks" }).ok).toBe(false);
    expect(check({ path: "/webhooks/carrier/x" }).ok).toBe(false);
    expect(check({ path: "/webhooksx" }).ok).toBe(false);
    expect(check({ path: "/api/webhooks/x" }).ok).toBe(false);
  });

  it("checks the path the router sees: no way out of /webhooks/ by dot segments or encodings", () => {
    for (const path of [
      "/webhooks/../banners/dismiss",
      "/webhooks/%2e%2e/banners/dismiss",
      "/webhooks/%2E%2E/banners/dismiss",
      "/webhooks/carrier/../../banners/dismiss",
      "/webhooks/carrier/..",
      "/webhooks%2fcarrier",
      "/webhooks/carrier%2f..%2f..%2fbanners%2fdismiss",
      "/webhooks\\carrier",
      "/webhooks/./../settings/payout",
    ]) {
      expect(check({ path }).ok, path).toBe(false);
      expect(isWebhookPath(path), path).toBe(false);
    }
    expect(isWebhookPath("/webhooks/./carrier")).toBe(true);
  });

  it("normalises origins (default ports, case)", () => {
    expect(originOf("HTTPS://Example.COM:443/a")).toBe("https://example.com");
    expect(
      checkOrigin({
        method: "POST",
        path: "/",
        origin: "https://example.com",
        appOrigin: "https://Example.com:443",
      }).ok,
    ).toBe(true);
    expect(originOf("javascript:alert(1)")).toBeNull();
  });
});

describe("the codec server's paths (the Temporal Web UI's origin, ADR 0040)", () => {
  const ui = "http://localhost:8233";
  const base = { method: "POST", appOrigin: "http://localhost:3000" };

  it("accept the UI's origin only where the caller names it, on the codec paths only", () => {
    expect(checkOrigin({ ...base, path: "/codec/decode", origin: ui, alsoFrom: ui }).ok).toBe(true);
    expect(
      checkOrigin({ ...base, path: "/codec/decode", origin: "https://evil.example", alsoFrom: ui })
        .ok,
    ).toBe(false);
    expect(checkOrigin({ ...base, path: "/banners/dismiss", origin: ui }).ok).toBe(false);
    expect(isCodecPath("/codec/decode")).toBe(true);
    expect(isCodecPath("/codec/../codec/encode")).toBe(true);
    expect(isCodecPath("/codec/other")).toBe(false);
  });

  it("send CORS headers to the UI's origin only", () => {
    expect(codecCorsHeaders(ui, ui)).toMatchObject({
      "Access-Control-Allow-Origin": ui,
      "Access-Control-Allow-Credentials": "true",
    });
    expect(codecCorsHeaders("https://evil.example", ui)).toEqual({});
    expect(codecCorsHeaders(undefined, ui)).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/components/banners";
import { safeNextPath } from "../../domain/accounts";

// One safe-path check for ?next= and the banner's redirectTo, robust against what browsers
// and proxies read as "//host".
describe("safeNextPath / safeRedirect", () => {
  const unsafe = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/%09/evil.example".replace("%09", "\t"),
    "/\\evil.example",
    "/\\/evil.example",
    "/a\\b",
    "/%2F/evil.example",
    "/%2f%2fevil.example",
    "/%5C/evil.example",
    "/%09/evil.example",
    "/%0A/x",
    "/.//evil.example",
    "/a/..//evil.example",
    "/ /evil.example",
    "/\u3000/evil.example",
    "/\u00a0/evil.example",
    "//evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/" + "a".repeat(3000),
  ];

  it("refuses tabs, newlines, backslashes, encoded slashes and paths that normalise to //host", () => {
    for (const p of unsafe) {
      expect(safeNextPath(p), JSON.stringify(p)).toBeNull();
      expect(safeRedirect(p), JSON.stringify(p)).toBe("/");
    }
  });

  it("keeps ordinary local paths, with their query and hash", () => {
    for (const p of [
      "/",
      "/buy?brand=2",
      "/settings/payout",
      "/buy/?q=a%20b&next=%2Fx",
      "/orders#top",
      "/a/../buy",
    ]) {
      expect(safeNextPath(p), p).toBe(p === "/a/../buy" ? "/buy" : p);
    }
    expect(safeRedirect("/buy?x=1")).toBe("/buy?x=1");
    expect(safeRedirect(42)).toBe("/");
    expect(safeRedirect(undefined, "/home")).toBe("/home");
  });
});

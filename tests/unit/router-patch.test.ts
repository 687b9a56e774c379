/**
 * The patched route matching of @remix-run/router (scripts/patches/, ADR 0022): the build the server loads carries the
 * patch, and matching gives the same answers as before: ranking, a table changed in place, and case and end
 * options that share a pattern.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { AgnosticRouteObject } from "@remix-run/router";

// The CommonJS build: the one Remix's server runtime requires (the patched file).
const require = createRequire(import.meta.url);
const routerPath = require.resolve("@remix-run/router");
const { matchRoutes, matchPath } =
  require("@remix-run/router") as typeof import("@remix-run/router");

type Route = AgnosticRouteObject;
const ids = (m: ReturnType<typeof matchRoutes>) => m?.map((x) => x.route.id) ?? null;

describe("@remix-run/router, patched route matching (ADR 0022)", () => {
  it("the server's build carries the patch (npm ci's postinstall applied scripts/patches/)", () => {
    expect(routerPath).toMatch(/router\.cjs\.js$/);
    const source = fs.readFileSync(routerPath, "utf8");
    expect(source).toContain("function rankedBranchesOf(routes)");
    expect(source).toContain("const compiledPathCache = new Map()");
  });

  it("ranks static segments over dynamic ones, the same on every call", () => {
    const routes: Route[] = [
      {
        id: "root",
        path: "/",
        children: [
          { id: "home", index: true },
          { id: "order", path: "orders/:id" },
          { id: "new-order", path: "orders/new" },
          { id: "splat", path: "*" },
        ],
      },
    ];
    for (let i = 0; i < 3; i++) {
      expect(ids(matchRoutes(routes, "/orders/new"))).toEqual(["root", "new-order"]);
      expect(ids(matchRoutes(routes, "/orders/17"))).toEqual(["root", "order"]);
      expect(matchRoutes(routes, "/orders/17")?.[1].params).toEqual({ id: "17" });
      expect(ids(matchRoutes(routes, "/"))).toEqual(["root", "home"]);
      expect(ids(matchRoutes(routes, "/nowhere/at/all"))).toEqual(["root", "splat"]);
    }
  });

  it("sees a route added to a table it has already matched", () => {
    const children: Route[] = [{ id: "order", path: "orders/:id" }];
    const routes: Route[] = [{ id: "root", path: "/", children }];
    expect(ids(matchRoutes(routes, "/orders/17/rate"))).toBeNull();
    children.push({ id: "rate", path: "orders/:id/rate" });
    expect(ids(matchRoutes(routes, "/orders/17/rate"))).toEqual(["root", "rate"]);
  });

  it("keeps patterns that differ only in case sensitivity or end apart", () => {
    expect(matchPath({ path: "/Orders/:id", caseSensitive: true }, "/orders/1")).toBeNull();
    expect(matchPath({ path: "/Orders/:id", caseSensitive: false }, "/orders/1")?.params).toEqual({
      id: "1",
    });
    expect(matchPath({ path: "/Orders/:id", caseSensitive: true }, "/Orders/1")?.params).toEqual({
      id: "1",
    });
    expect(matchPath({ path: "/orders", end: true }, "/orders/1")).toBeNull();
    expect(matchPath({ path: "/orders", end: false }, "/orders/1")?.pathnameBase).toBe("/orders");
    expect(matchPath("/orders", "/orders/1")).toBeNull();
  });
});

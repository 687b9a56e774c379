/**
 * package-lock.json must let `npm ci` install on every contributor's machine (scripts/lib/tools.mjs runs
 * `npm ci` and nothing else): in sync with package.json, and listing the optional platform packages of
 * every native dependency (rollup, esbuild, @swc/core, ...) for macOS and Windows too, not only for the
 * Linux machine that wrote it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

type LockEntry = {
  version?: string;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
};
const pkg = readJson("package.json");
const lock: { lockfileVersion: number; packages: Record<string, LockEntry> } =
  readJson("package-lock.json");

/** The lock entry `name` resolves to from the package at `from` (Node's lookup: nearest node_modules up the tree). */
function resolveInLock(from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return null;
    const i = base.lastIndexOf("/node_modules/");
    base = i < 0 ? "" : base.slice(0, i);
  }
}

describe("package-lock.json", () => {
  it("records package.json's dependencies in its root entry (what npm ci compares first)", () => {
    expect(lock.lockfileVersion).toBe(3);
    const root = lock.packages[""];
    expect(root.dependencies ?? {}).toEqual(pkg.dependencies ?? {});
    expect((root as { devDependencies?: unknown }).devDependencies ?? {}).toEqual(
      pkg.devDependencies ?? {},
    );
  });

  it("lists every optional dependency of every locked package, whatever the platform", () => {
    const missing: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
        if (!resolveInLock(at, name)) missing.push(`${at || "(root)"} -> ${name}@${range}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has the macOS and Windows builds of the native packages", () => {
    const versionOf = (name: string) => lock.packages[`node_modules/${name}`]?.version;
    const natives: Record<string, string[]> = {
      rollup: [
        "@rollup/rollup-darwin-arm64",
        "@rollup/rollup-darwin-x64",
        "@rollup/rollup-win32-x64-msvc",
        "@rollup/rollup-linux-x64-gnu",
      ],
      esbuild: [
        "@esbuild/darwin-arm64",
        "@esbuild/darwin-x64",
        "@esbuild/win32-x64",
        "@esbuild/linux-x64",
      ],
      "@swc/core": [
        "@swc/core-darwin-arm64",
        "@swc/core-darwin-x64",
        "@swc/core-win32-x64-msvc",
        "@swc/core-linux-x64-gnu",
      ],
    };
    for (const [parent, platforms] of Object.entries(natives)) {
      expect(versionOf(parent), parent).toBeTruthy();
      for (const p of platforms)
        expect(versionOf(p), `${p} (optional dependency of ${parent})`).toBeTruthy();
    }
    // The platform builds are the parent's own version (a mismatch means a stale entry).
    expect(versionOf("@rollup/rollup-darwin-arm64")).toBe(versionOf("rollup"));
    expect(versionOf("@swc/core-darwin-arm64")).toBe(versionOf("@swc/core"));
  });

  it("npm ci accepts it (dry run in a scratch folder: node_modules untouched)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lockfile-check-"));
    try {
      for (const f of ["package.json", "package-lock.json"])
        fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
      let output = "";
      let ok = true;
      try {
        execFileSync("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], {
          cwd: dir,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, npm_config_update_notifier: "false" },
        });
      } catch (e) {
        ok = false;
        const err = e as { stdout?: string; stderr?: string };
        output = `${err.stdout ?? ""}${err.stderr ?? ""}`;
      }
      expect(
        ok,
        output
          .split("\n")
          .filter((l) => /npm error/.test(l))
          .slice(0, 12)
          .join("\n"),
      ).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * The shape the code keeps (docs/architecture.md, "Code shape"; ADR 0023 and 0024): small workflow functions,
 * small route modules, routes that import no other route, no hidden workflow paths, and comments that point
 * inside the repository. Each rule reads the tracked sources as text or with the TypeScript parser.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_EXT = /\.(ts|tsx|mjs)$/;

function filesUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  return readdirSync(abs).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return filesUnder(rel);
    return SOURCE_EXT.test(name) && !name.endsWith(".d.ts") ? [rel] : [];
  });
}

const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** Every function (declaration, method, arrow, expression) of a file longer than `max` lines. */
export function longFunctions(fileName: string, text: string, max: number): string[] {
  const src = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) found.push(`${fileName}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

/** A route module is a file of app/routes that Remix serves (remix.config.js ignores `.server` siblings and dot files). */
const isRouteModule = (name: string) => !name.startsWith(".") && /\.tsx?$/.test(name) && !/\.(test|server)\.tsx?$/.test(name);
const ROUTES = readdirSync(path.join(ROOT, "app/routes")).filter(isRouteModule);

describe("code shape", () => {
  it("no function in workflows/ runs over 80 lines", () => {
    const files = filesUnder("workflows");
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => longFunctions(f, read(f), 80))).toEqual([]);
  });

  it("no route module runs over 300 lines", () => {
    expect(ROUTES.length).toBeGreaterThan(50);
    const long = ROUTES.map((r) => [r, lineCount(read(`app/routes/${r}`))] as const).filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });

  it("a route module imports no other route module, only its own .server sibling (shared code lives in a component or a util)", () => {
    const files = readdirSync(path.join(ROOT, "app/routes")).filter((n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n));
    const offenders = files.flatMap((f) => {
      const ownSibling = isRouteModule(f) ? f.replace(/\.tsx?$/, ".server") : null;
      return [...read(`app/routes/${f}`).matchAll(/(?:from|import)\s*\(?\s*["'](\.\/|~\/routes\/)([^"']+)["']/g)]
        .map((m) => m[2].replace(/\.tsx?$/, ""))
        .filter((target) => target !== ownSibling)
        .map((target) => `${f} → ${target}`);
    });
    expect(offenders).toEqual([]);
  });

  it("workflows/ takes no hidden path: no patched() branch, no Proxy", () => {
    const hits = filesUnder("workflows").filter((f) => /\bpatched\(|new Proxy\b/.test(read(f)));
    expect(hits).toEqual([]);
  });

  it("comments cite pages of this repository, not the specifications, decisions.md or issue numbers", () => {
    const pattern = /spec 00[0-2]|decisions\.md|[Ii]ssue [0-9]+/;
    const hits = ["app", "domain", "db", "workflows", "activities", "workers"].flatMap(filesUnder).flatMap((f) =>
      read(f)
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});

describe("the checks catch what they look for (self-test)", () => {
  it("longFunctions finds a function over the limit and passes one under it", () => {
    const body = (n: number) => `function f() {\n${"  x++;\n".repeat(n)}}\n`;
    expect(longFunctions("a.ts", body(78), 80)).toEqual([]);
    expect(longFunctions("a.ts", body(79), 80)).toEqual(["a.ts:1 (81 lines)"]);
    expect(longFunctions("b.tsx", `const C = () => (\n${"  <p/>\n".repeat(90)});\n`, 80)).toHaveLength(1);
  });
});

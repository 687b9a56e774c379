/**
 * The import rules of docs/architecture.md, enforced by reading every import of the source folders with the
 * TypeScript parser (static imports, re-exports, dynamic import(), require(), `import("x")` types).
 * `import type` (and imports whose every name is `type`) are erased at compile time; the rules say where
 * they are allowed. Over the file-level import graph of every source folder (types included): no cycle, and
 * every arrow between folders points down the direction of docs/architecture.md ("Folder direction").
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const CHECKED_FOLDERS = [
  "app",
  "domain",
  "workflows",
  "activities",
  "db",
  "workers",
  "temporal",
] as const;
/** The folders of the import graph: the checked ones and the scripts and config they run under. */
const GRAPH_FOLDERS = [...CHECKED_FOLDERS, "config", "scripts"] as const;

/**
 * Folder direction (docs/architecture.md, "Folder direction"): what each folder's files may import from other
 * folders; app/ is split into its layers (app = root.tsx and the entry files). Nothing imports upward, so no
 * two folders import each other. Imports of files outside these folders (tests/factories for the seed) and of
 * packages are left to the per-file rules above.
 */
export const FOLDER_DIRECTION: Record<string, readonly string[]> = {
  domain: [],
  config: [],
  temporal: ["domain"],
  db: ["domain"],
  workflows: ["domain"],
  activities: ["workflows", "db", "domain"],
  "app/utils": ["temporal", "workflows", "db", "domain"],
  "app/components": ["app/utils", "workflows", "db", "domain"],
  app: ["app/components", "app/utils", "workflows", "db", "domain"],
  "app/routes": ["app", "app/components", "app/utils", "temporal", "workflows", "db", "domain"],
  workers: ["activities", "workflows", "temporal", "db", "domain"],
  scripts: [
    "workers",
    "app/routes",
    "app",
    "app/components",
    "app/utils",
    "activities",
    "workflows",
    "temporal",
    "db",
    "domain",
    "config",
  ],
};

/**
 * Known exceptions to the content rules, each with the reason it is tolerated for now. An entry that no
 * longer matches anything fails the test, so the list only shrinks.
 */
const CLOCK_EXCEPTIONS: Record<string, string> = {
  // The payout schema checks "date of birth in the past" against Date.now() (deterministic in workflows).
  // Reported to the lead: the rule is that domain code takes the time as a parameter.
  "domain/payout.ts": "date_of_birth must be in the past",
};

// ------------------------------------------------------------------------------------------------------
// Reading imports

export interface ImportRef {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

export interface Usage {
  what: string;
  line: number;
}

function lineOf(sf: ts.SourceFile, node: ts.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (fileName.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.(js|mjs|cjs)$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

type Parsed = { readonly imports: readonly ImportRef[]; readonly clockUses: readonly Usage[] };

/**
 * Each source file is parsed once per process: the folder rules and the import graph below read the same files
 * (a parse is keyed by the file's name and its whole text, so a planted or changed source is parsed afresh).
 */
const parsed = new Map<string, Parsed>();
export function parse(fileName: string, source: string): Parsed {
  const key = `${fileName}\0${source}`;
  const known = parsed.get(key);
  if (known) return known;
  const result = parseOnce(fileName, source);
  parsed.set(key, result);
  return result;
}

function parseOnce(fileName: string, source: string): Parsed {
  const sf = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    scriptKind(fileName),
  );
  const imports: ImportRef[] = [];
  const clockUses: Usage[] = [];

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      let typeOnly = false;
      if (clause) {
        if (clause.isTypeOnly) typeOnly = true;
        else if (!clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
          const els = clause.namedBindings.elements;
          typeOnly = els.length > 0 && els.every((e) => e.isTypeOnly);
        }
      }
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly, line: lineOf(sf, node) });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      let typeOnly = node.isTypeOnly;
      if (!typeOnly && node.exportClause && ts.isNamedExports(node.exportClause)) {
        const els = node.exportClause.elements;
        typeOnly = els.length > 0 && els.every((e) => e.isTypeOnly);
      }
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly, line: lineOf(sf, node) });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      imports.push({
        specifier: node.moduleReference.expression.text,
        typeOnly: node.isTypeOnly,
        line: lineOf(sf, node),
      });
    } else if (ts.isCallExpression(node)) {
      const arg = node.arguments[0];
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if ((isDynamicImport || isRequire) && arg && ts.isStringLiteralLike(arg)) {
        imports.push({ specifier: arg.text, typeOnly: false, line: lineOf(sf, node) });
      } else if ((isDynamicImport || isRequire) && arg) {
        imports.push({ specifier: "<computed>", typeOnly: false, line: lineOf(sf, node) });
      }
      // Date() called as a function reads the clock.
      if (ts.isIdentifier(node.expression) && node.expression.text === "Date")
        clockUses.push({ what: "Date()", line: lineOf(sf, node) });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) {
        imports.push({ specifier: arg.literal.text, typeOnly: true, line: lineOf(sf, node) });
      }
    }

    // Clock, randomness and host access (checked in domain/ only).
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const full = `${node.expression.text}.${node.name.text}`;
      if (
        [
          "Date.now",
          "Math.random",
          "performance.now",
          "crypto.randomUUID",
          "crypto.getRandomValues",
        ].includes(full)
      ) {
        clockUses.push({ what: full, line: lineOf(sf, node) });
      }
    }
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "Date"
    ) {
      if (!node.arguments || node.arguments.length === 0)
        clockUses.push({ what: "new Date()", line: lineOf(sf, node) });
    }
    if (
      ts.isIdentifier(node) &&
      [
        "process",
        "fetch",
        "setTimeout",
        "setInterval",
        "setImmediate",
        "XMLHttpRequest",
        "WebSocket",
      ].includes(node.text)
    ) {
      const parent = node.parent;
      const isPropertyName =
        parent && ts.isPropertyAccessExpression(parent) && parent.name === node;
      const isDeclarationName =
        parent &&
        (ts.isPropertyAssignment(parent) ||
          ts.isPropertySignature(parent) ||
          ts.isMethodDeclaration(parent)) &&
        parent.name === node;
      if (!isPropertyName && !isDeclarationName)
        clockUses.push({ what: node.text, line: lineOf(sf, node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, clockUses };
}

// ------------------------------------------------------------------------------------------------------
// Resolving a specifier

type Target =
  | { kind: "local"; rel: string } // repo-relative, posix, without extension
  | { kind: "package"; name: string; builtin: boolean }
  | { kind: "unknown" };

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split("/")[0]]));

export function resolveTarget(fromRel: string, specifier: string): Target {
  if (specifier === "<computed>") return { kind: "unknown" };
  let rel: string | null = null;
  if (specifier.startsWith("."))
    rel = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), specifier));
  else if (specifier.startsWith("~/"))
    rel = path.posix.normalize(path.posix.join("app", specifier.slice(2)));
  else if (specifier.startsWith("/"))
    rel = path.posix.relative(ROOT.split(path.sep).join("/"), specifier);
  if (rel !== null) return { kind: "local", rel: rel.replace(SOURCE_EXT, "") };
  if (specifier.startsWith("node:")) return { kind: "package", name: specifier, builtin: true };
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return { kind: "package", name, builtin: BUILTINS.has(name) };
}

const under = (rel: string, folder: string) => rel === folder || rel.startsWith(`${folder}/`);
const isDrizzle = (name: string) => name === "drizzle-orm" || name.startsWith("drizzle-");

// ------------------------------------------------------------------------------------------------------
// The rules

export function violationsOf(fileRel: string, source: string): string[] {
  const { imports, clockUses } = parse(fileRel, source);
  const out: string[] = [];
  const bad = (ref: ImportRef, why: string) =>
    out.push(
      `${fileRel}:${ref.line} imports "${ref.specifier}"${ref.typeOnly ? " (type)" : ""}: ${why}`,
    );

  for (const ref of imports) {
    const t = resolveTarget(fileRel, ref.specifier);
    if (t.kind === "unknown") {
      if (!under(fileRel, "workers")) bad(ref, "computed import paths cannot be checked");
      continue;
    }

    if (under(fileRel, "domain")) {
      // domain -> zod and other domain files only, types included.
      if (t.kind === "local" && !under(t.rel, "domain"))
        bad(ref, "domain/ imports only other domain/ files");
      if (t.kind === "package" && t.name !== "zod") bad(ref, "domain/ imports no package but zod");
    }

    if (under(fileRel, "workflows")) {
      if (t.kind === "local") {
        if (under(t.rel, "db"))
          bad(
            ref,
            "workflows/ must not import db/ (not even types): talk to the database through activities",
          );
        else if (under(t.rel, "activities")) {
          bad(
            ref,
            "workflows/ import nothing from activities/ (not even types): a workflow owns its activities' interface (workflows/<kind>/activities.ts)",
          );
        } else if (!under(t.rel, "domain") && !under(t.rel, "workflows")) {
          bad(ref, "workflows/ import only domain/ and other workflows/ files");
        }
      } else {
        if (t.builtin)
          bad(
            ref,
            "workflows/ must not import Node built-ins (non-deterministic, rejected by the bundler)",
          );
        else if (t.name === "stripe" || t.name === "postgres" || isDrizzle(t.name))
          bad(ref, "workflows/ must not import vendor SDKs or database drivers");
        else if (
          !ref.typeOnly &&
          !["@temporalio/workflow", "@temporalio/common", "zod"].includes(t.name)
        ) {
          bad(
            ref,
            "workflows/ may import only @temporalio/workflow (and @temporalio/common, zod) at runtime",
          );
        }
        // The state machines (model, machine, steps) are plain code, table-tested without Temporal.
        if (
          /^workflows\/[^/]+\/(model|machine|steps)(\.ts)?$/.test(fileRel) &&
          t.name.startsWith("@temporalio/") &&
          !ref.typeOnly
        ) {
          bad(
            ref,
            "a state machine (workflows/<kind>/model, machine, steps) imports no Temporal runtime: the driver runs its effects",
          );
        }
      }
      if (
        t.kind === "local" &&
        /^workflows\/[^/]+\/(model|machine|steps)(\.ts)?$/.test(fileRel) &&
        /^workflows\/[^/]+\/(workflow|driver)$/.test(t.rel)
      ) {
        bad(ref, "a state machine must not import a Temporal driver or workflow");
      }
    }

    if (under(fileRel, "app")) {
      if (t.kind === "local") {
        if (
          under(t.rel, "workflows") &&
          !ref.typeOnly &&
          !/^workflows\/[^/]+\/contract$/.test(t.rel)
        ) {
          bad(ref, "app/ imports from workflows/ only workflows/<kind>/contract (or types)");
        }
        if (under(t.rel, "activities") && !ref.typeOnly)
          bad(ref, "app/ must not import activity implementations");
        if (under(t.rel, "workers") && !ref.typeOnly)
          bad(ref, "app/ must not import the worker process");
      } else if (
        !ref.typeOnly &&
        [
          "@temporalio/worker",
          "@temporalio/testing",
          "@temporalio/core-bridge",
          "@temporalio/workflow",
        ].includes(t.name)
      ) {
        bad(
          ref,
          "app/ must not import Temporal worker/workflow runtime packages (use @temporalio/client)",
        );
      }
    }

    if (under(fileRel, "activities")) {
      if (t.kind === "local") {
        if (under(t.rel, "workflows")) {
          if (/^workflows\/[^/]+\/activities$/.test(t.rel)) {
            if (!ref.typeOnly)
              bad(ref, "activities/ import a workflow's activities interface as types only");
          } else if (!/^workflows\/[^/]+\/contract$/.test(t.rel)) {
            bad(
              ref,
              "activities/ import from workflows/ only contracts (ids, error names, types) and the activities interfaces",
            );
          }
        }
        if ((under(t.rel, "app/routes") || under(t.rel, "app/components")) && !ref.typeOnly)
          bad(ref, "activities/ must not import pages");
      } else if (
        !ref.typeOnly &&
        ["@temporalio/workflow", "@temporalio/worker", "@temporalio/testing"].includes(t.name)
      ) {
        bad(ref, "activities/ must not import the workflow or worker runtime");
      }
    }

    // What every Temporal client and worker connects with (the payload codec, TLS): shared by app/ and workers/.
    if (under(fileRel, "temporal")) {
      if (t.kind === "local" && !under(t.rel, "domain") && !under(t.rel, "temporal"))
        bad(ref, "temporal/ imports only domain/ and itself");
      if (
        t.kind === "package" &&
        !t.builtin &&
        !["@temporalio/common", "@temporalio/proto"].includes(t.name)
      ) {
        bad(ref, "temporal/ imports only Node built-ins, @temporalio/common and @temporalio/proto");
      }
    }

    if (under(fileRel, "workers") && t.kind === "local" && under(t.rel, "app")) {
      bad(ref, "workers/ read their configuration from domain/env, not from app/");
    }

    if (under(fileRel, "db")) {
      if (t.kind === "local") {
        if (
          (under(t.rel, "workflows") || under(t.rel, "activities") || under(t.rel, "workers")) &&
          !ref.typeOnly
        ) {
          bad(ref, "db/ must not import workflows/, activities/ or workers/");
        }
        // Not even types: db/ owns the schema and the queries; what they share with workflows lives in domain/.
        if (under(t.rel, "app") || under(t.rel, "workflows"))
          bad(ref, "db/ imports nothing from app/ or workflows/ (types included)");
      } else if (!ref.typeOnly && (t.name.startsWith("@temporalio/") || t.name === "stripe")) {
        bad(ref, "db/ must not import Temporal or vendor SDKs");
      }
    }
  }

  if (under(fileRel, "domain") && !(fileRel in CLOCK_EXCEPTIONS)) {
    for (const use of clockUses) {
      out.push(
        `${fileRel}:${use.line} uses ${use.what}: domain/ is pure (time and randomness are passed in, no host access)`,
      );
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------------
// Walking the tree

function listSources(folder: string): string[] {
  const abs = path.join(ROOT, folder);
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      if (name === "node_modules" || name.startsWith(".") || name === "build") continue;
      const full = path.join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (SOURCE_EXT.test(name) && !name.endsWith(".d.ts"))
        out.push(path.relative(ROOT, full).split(path.sep).join("/"));
    }
  };
  walk(abs);
  return out.sort();
}

// ------------------------------------------------------------------------------------------------------
// The import graph

/** File-level import graph: each source file (repo-relative) → the source files it imports, types included. */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const byStem = new Map<string, string>();
  for (const file of sources.keys()) byStem.set(file.replace(SOURCE_EXT, ""), file);
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const deps = new Set<string>();
    for (const ref of parse(file, source).imports) {
      const t = resolveTarget(file, ref.specifier);
      if (t.kind !== "local") continue;
      const target = byStem.get(t.rel) ?? byStem.get(`${t.rel}/index`);
      if (target && target !== file) deps.add(target);
    }
    graph.set(file, [...deps].sort());
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one node (Tarjan), each sorted. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

/** The folder of FOLDER_DIRECTION a file belongs to (app/ split into its layers), or null outside them. */
export function folderOf(fileRel: string): string | null {
  const layer = /^app\/(routes|components|utils)\//.exec(fileRel);
  if (layer) return `app/${layer[1]}`;
  const top = fileRel.split("/")[0];
  return top in FOLDER_DIRECTION ? top : null;
}

export interface FolderArrow {
  /** "from-file -> to-file". */
  edge: string;
  from: string;
  to: string;
}

/** Every file import that crosses from one folder to another. */
export function folderArrows(graph: ReadonlyMap<string, readonly string[]>): FolderArrow[] {
  const out: FolderArrow[] = [];
  for (const [fromFile, deps] of graph) {
    const from = folderOf(fromFile);
    if (!from) continue;
    for (const toFile of deps) {
      const to = folderOf(toFile);
      if (to && to !== from) out.push({ edge: `${fromFile} -> ${toFile}`, from, to });
    }
  }
  return out;
}

/** The arrows against the direction (a folder importing one it may not). */
export function upwardImports(
  graph: ReadonlyMap<string, readonly string[]>,
  direction = FOLDER_DIRECTION,
): FolderArrow[] {
  return folderArrows(graph).filter((a) => !(direction[a.from] ?? []).includes(a.to));
}

/** The folder graph of these arrows: folder → the folders it imports. */
export function folderGraph(arrows: readonly FolderArrow[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const a of arrows) {
    const deps = graph.get(a.from) ?? [];
    if (!deps.includes(a.to)) deps.push(a.to);
    graph.set(a.from, deps);
  }
  return graph;
}

/** How docs/architecture.md ("Folder direction") writes one folder's line. */
export function directionLine(folder: string, allowed: readonly string[]): string {
  return `- \`${folder}/\` → ${allowed.length ? allowed.map((f) => `\`${f}/\``).join(", ") : "nothing"}`;
}

describe("import rules of docs/architecture.md hold on the tree", () => {
  const files = CHECKED_FOLDERS.flatMap(listSources);

  it("finds the source files (the check is not vacuous)", () => {
    expect(files.filter((f) => under(f, "domain")).length).toBeGreaterThanOrEqual(9);
    expect(files.some((f) => f === "domain/index.ts")).toBe(true);
  });

  it.each(CHECKED_FOLDERS)("%s/ follows its rules", (folder) => {
    const violations = files
      .filter((f) => under(f, folder))
      .flatMap((f) => violationsOf(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(violations).toEqual([]);
  });

  it("no clock exception is stale", () => {
    for (const file of Object.keys(CLOCK_EXCEPTIONS)) {
      let source: string;
      try {
        source = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        throw new Error(
          `${file} is listed in CLOCK_EXCEPTIONS but does not exist: remove the entry`,
        );
      }
      expect(
        parse(file, source).clockUses.length,
        `${file} no longer reads the clock: remove it from CLOCK_EXCEPTIONS`,
      ).toBeGreaterThan(0);
    }
  });

  it("docs/architecture.md states the rules", () => {
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    for (const phrase of [
      "domain/",
      "workflows/",
      "activities/",
      "app/",
      "db/",
      "import type",
      "tests/unit/architecture.test.ts",
    ]) {
      expect(doc).toContain(phrase);
    }
  });
});

describe('the import graph: no cycle, no arrow up (docs/architecture.md, "Folder direction")', () => {
  const files = GRAPH_FOLDERS.flatMap(listSources);
  const graph = importGraph(
    new Map(files.map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")])),
  );
  const arrows = folderArrows(graph);

  it("reads every source folder (the check is not vacuous)", () => {
    for (const folder of GRAPH_FOLDERS)
      expect(
        files.some((f) => under(f, folder)),
        folder,
      ).toBe(true);
    expect(arrows.length).toBeGreaterThan(500);
  });

  it("no import cycle among the files of app/, domain/, db/, workflows/, activities/, workers/, config/, scripts/ (types included)", () => {
    expect(
      importCycles(graph).map((cycle) => `cycle of ${cycle.length} files: ${cycle.join(", ")}`),
    ).toEqual([]);
  });

  it("every import between folders follows the direction", () => {
    const up = upwardImports(graph);
    expect(up.map((a) => `${a.edge}: ${a.from}/ may not import ${a.to}/`)).toEqual([]);
  });

  it("no two folders import each other (nor any longer ring of folders)", () => {
    const rings = importCycles(folderGraph(arrows));
    expect(rings.map((ring) => ring.join(" <-> "))).toEqual([]);
  });

  it("the direction itself has no cycle, and docs/architecture.md lists it", () => {
    expect(importCycles(new Map(Object.entries(FOLDER_DIRECTION)))).toEqual([]);
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    for (const [folder, allowed] of Object.entries(FOLDER_DIRECTION))
      expect(doc).toContain(directionLine(folder, allowed));
  });
});

describe("the graph checks catch a planted cycle and a planted upward import (self-test on an in-memory tree)", () => {
  const clean: [string, string][] = [
    ["domain/money.ts", `export const cents = 1;`],
    ["db/client.ts", `export type Db = { q: number };`],
    [
      "db/queries/a.ts",
      `import type { Db } from "../client"; import { b } from "./b"; import { cents } from "../../domain/money";`,
    ],
    ["db/queries/b.ts", `export const b = 1;`],
    ["workflows/buy/activities.ts", `export interface BuyActivities { pay(): Promise<void> }`],
    [
      "workflows/buy/machine.ts",
      `import type { BuyActivities } from "./activities"; import { cents } from "../../domain/money";`,
    ],
    [
      "activities/buy/index.ts",
      `import type { BuyActivities } from "../../workflows/buy/activities"; import { b } from "../../db/queries/b";`,
    ],
    ["app/utils/db.server.ts", `import type { Db } from "../../db/client";`],
    ["app/components/Card.tsx", `import { db } from "~/utils/db.server";`],
    [
      "app/routes/orders.tsx",
      `import { Card } from "~/components/Card"; import type { BuyActivities } from "../../workflows/buy/activities";`,
    ],
    ["config/versions.mjs", `export const VERSIONS = {};`],
    [
      "scripts/tools.mjs",
      `import { VERSIONS } from "../config/versions.mjs"; import { b } from "../db/queries/b";`,
    ],
  ];
  const graphOf = (...planted: [string, string][]) => {
    const tree = new Map(clean);
    for (const [file, source] of planted) tree.set(file, `${tree.get(file) ?? ""}\n${source}`);
    return importGraph(tree);
  };

  it("the clean tree: no cycle, no arrow up", () => {
    const graph = graphOf();
    expect(graph.get("db/queries/a.ts")).toEqual([
      "db/client.ts",
      "db/queries/b.ts",
      "domain/money.ts",
    ]);
    expect(importCycles(graph)).toEqual([]);
    expect(upwardImports(graph)).toEqual([]);
    expect(importCycles(folderGraph(folderArrows(graph)))).toEqual([]);
  });

  it("a cycle of files is reported with its files, a type-only import closing it included", () => {
    const graph = graphOf(
      ["db/queries/b.ts", `import type { X } from "./c";`],
      ["db/queries/c.ts", `import { a } from "./a";`],
    );
    expect(importCycles(graph)).toEqual([
      ["db/queries/a.ts", "db/queries/b.ts", "db/queries/c.ts"],
    ]);
  });

  it("an upward import is reported (a workflow importing an activity's type; config importing scripts)", () => {
    const graph = graphOf(
      ["workflows/buy/machine.ts", `import type { X } from "../../activities/buy/index";`],
      ["config/versions.mjs", `import { x } from "../scripts/tools.mjs";`],
    );
    expect(upwardImports(graph).map((a) => a.edge)).toEqual([
      "workflows/buy/machine.ts -> activities/buy/index.ts",
      "config/versions.mjs -> scripts/tools.mjs",
    ]);
    expect(importCycles(folderGraph(folderArrows(graph)))).toEqual([
      ["activities", "workflows"],
      ["config", "scripts"],
    ]);
  });

  it("inside app/: a component importing a route, or a util importing a component, is upward", () => {
    const graph = graphOf(
      ["app/components/Card.tsx", `import type { loader } from "~/routes/orders";`],
      ["app/utils/db.server.ts", `import type { CardProps } from "../components/Card";`],
    );
    expect(upwardImports(graph).map((a) => `${a.from} -> ${a.to}`)).toEqual([
      "app/utils -> app/components",
      "app/components -> app/routes",
    ]);
  });
});

describe("the checker catches violations (self-test on synthetic files)", () => {
  const check = (file: string, src: string) => violationsOf(file, src);

  it("domain/: zod and domain files only, no clock", () => {
    expect(
      check(
        "domain/x.ts",
        `import { z } from "zod"; import { a } from "./money"; export * from "./fees";`,
      ),
    ).toEqual([]);
    expect(check("domain/x.ts", `import _ from "lodash";`)).toHaveLength(1);
    expect(check("domain/x.ts", `import type { Db } from "../db/client";`)).toHaveLength(1);
    expect(check("domain/x.ts", `import { readFileSync } from "node:fs";`)).toHaveLength(1);
    expect(check("domain/x.ts", `export const now = () => Date.now();`)).toHaveLength(1);
    expect(check("domain/x.ts", `export const d = new Date();`)).toHaveLength(1);
    expect(check("domain/x.ts", `export const d = (ms: number) => new Date(ms);`)).toEqual([]);
    expect(check("domain/x.ts", `export const r = Math.random();`)).toHaveLength(1);
    expect(check("domain/x.ts", `export const e = process.env.X;`)).toHaveLength(1);
    expect(check("domain/x.ts", `export const o = { process: 1 }; o.process;`)).toEqual([]);
  });

  it("workflows/: a state machine (model, machine, steps) imports no Temporal runtime and no driver", () => {
    expect(
      check(
        "workflows/buy/machine.ts",
        `import type { UpdateDefinition } from "@temporalio/common"; import { caller } from "../common/steps";`,
      ),
    ).toEqual([]);
    expect(
      check("workflows/buy/machine.ts", `import { condition } from "@temporalio/workflow";`),
    ).toHaveLength(1);
    expect(
      check("workflows/buy/model.ts", `import { ApplicationFailure } from "@temporalio/common";`),
    ).toHaveLength(1);
    expect(
      check("workflows/common/steps.ts", `import { log } from "@temporalio/workflow";`),
    ).toHaveLength(1);
    expect(
      check("workflows/swap/machine.ts", `import { OrderDriver } from "../common/driver";`),
    ).toHaveLength(1);
    expect(
      check(
        "workflows/buy/workflow.ts",
        `import { condition } from "@temporalio/workflow"; import { OrderDriver } from "../common/driver";`,
      ),
    ).toEqual([]);
  });

  it("workflows/: no db, nothing from activities/ (not even types), no built-ins, no vendor SDKs", () => {
    const f = "workflows/buy/workflow.ts";
    expect(
      check(
        f,
        `import { proxyActivities } from "@temporalio/workflow";
         import type { BuyActivities } from "./activities";
         import { type SaveRatingInput } from "../buy/activities";
         import { WINDOWS } from "../../domain/business-days";
         import { BUY } from "./contract";`,
      ),
    ).toEqual([]);
    expect(check(f, `import { createActivities } from "../../activities";`)).toHaveLength(1);
    expect(check(f, `import type { Activities } from "../../activities";`)).toHaveLength(1);
    expect(check(f, `import { type Other } from "../../activities/payments/port";`)).toHaveLength(
      1,
    );
    expect(check(f, `import { db } from "../../db/client";`)).toHaveLength(1);
    expect(check(f, `import type { Db } from "../../db/client";`)).toHaveLength(1);
    expect(check(f, `import fs from "fs";`)).toHaveLength(1);
    expect(check(f, `import { randomUUID } from "node:crypto";`)).toHaveLength(1);
    expect(check(f, `import Stripe from "stripe";`)).toHaveLength(1);
    expect(check(f, `import postgres from "postgres";`)).toHaveLength(1);
    expect(check(f, `import { sql } from "drizzle-orm";`)).toHaveLength(1);
    expect(check(f, `import { Worker } from "@temporalio/worker";`)).toHaveLength(1);
    expect(check(f, `const m = await import("postgres");`)).toHaveLength(1);
    expect(check(f, `const m = require("node:path");`)).toHaveLength(1);
    expect(check(f, `import { x } from "../../app/utils/env.server";`)).toHaveLength(1);
  });

  it("app/: contracts and types from workflows, never activities or worker packages", () => {
    const f = "app/routes/getpaid.tsx";
    expect(
      check(
        f,
        `import { PAYOUT_TASK } from "../../workflows/payout/contract";
         import type { payoutSetupWorkflow } from "../../workflows/payout/workflow";
         import { Client } from "@temporalio/client";
         import { formatCents } from "../../domain/money";
         import { db } from "~/utils/db.server";`,
      ),
    ).toEqual([]);
    expect(
      check(f, `import { payoutSetupWorkflow } from "../../workflows/payout/workflow";`),
    ).toHaveLength(1);
    expect(check(f, `export { payoutSetupWorkflow } from "../../workflows";`)).toHaveLength(1);
    expect(check(f, `import { createActivities } from "../../activities";`)).toHaveLength(1);
    expect(check(f, `import { createActivities } from "~/../activities";`)).toHaveLength(1);
    expect(check(f, `import { Worker } from "@temporalio/worker";`)).toHaveLength(1);
    expect(check(f, `import { sleep } from "@temporalio/workflow";`)).toHaveLength(1);
  });

  it("activities/ and db/", () => {
    expect(
      check(
        "activities/x.ts",
        `import { PAYOUT_REJECTED } from "../workflows/payout/contract"; import Stripe from "stripe";`,
      ),
    ).toEqual([]);
    expect(
      check(
        "activities/x.ts",
        `import { payoutSetupWorkflow } from "../workflows/payout/workflow";`,
      ),
    ).toHaveLength(1);
    // A workflow's activities interface: implemented with a type import, never a runtime one.
    expect(
      check(
        "activities/x.ts",
        `import type { PayoutActivities } from "../workflows/payout/activities";`,
      ),
    ).toEqual([]);
    expect(
      check(
        "activities/x.ts",
        `import { PayoutActivities } from "../workflows/payout/activities";`,
      ),
    ).toHaveLength(1);
    expect(
      check("activities/x.ts", `import type { OrderDriver } from "../workflows/common/driver";`),
    ).toHaveLength(1);
    expect(check("activities/x.ts", `import { sleep } from "@temporalio/workflow";`)).toHaveLength(
      1,
    );
    expect(
      check(
        "db/queries/x.ts",
        `import { sql } from "drizzle-orm"; import type { Db } from "../client"; import { WINDOWS } from "../../domain";`,
      ),
    ).toEqual([]);
    expect(
      check("db/queries/x.ts", `import { createActivities } from "../../activities";`),
    ).toHaveLength(1);
    expect(check("db/queries/x.ts", `import { Client } from "@temporalio/client";`)).toHaveLength(
      1,
    );
    // Not even types from app/ or workflows/; nor configuration from app/.
    expect(
      check(
        "db/queries/x.ts",
        `import type { BuyDraftHandOver } from "../../workflows/buy/contract";`,
      ),
    ).toHaveLength(1);
    expect(
      check("db/migrate.ts", `const { getEnv } = await import("../app/utils/env.server");`),
    ).toHaveLength(1);
    expect(check("db/migrate.ts", `const { parseEnv } = await import("../domain/env");`)).toEqual(
      [],
    );
    expect(
      check("workers/main.ts", `import { getEnv } from "../app/utils/env.server";`),
    ).toHaveLength(1);
    expect(
      check(
        "workers/main.ts",
        `import { parseEnv } from "../domain/env"; import { createActivities } from "../activities";`,
      ),
    ).toEqual([]);
  });
});

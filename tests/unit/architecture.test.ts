/**
 * The import rules of docs/architecture.md, enforced by reading every import of the source folders with the
 * TypeScript parser (static imports, re-exports, dynamic import(), require(), `import("x")` types).
 * `import type` (and imports whose every name is `type`) are erased at compile time; the rules say where
 * they are allowed.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_EXT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const CHECKED_FOLDERS = ["app", "domain", "workflows", "activities", "db", "workers", "temporal"] as const;

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

export function parse(fileName: string, source: string): { imports: ImportRef[]; clockUses: Usage[] } {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, scriptKind(fileName));
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
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
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
      imports.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly, line: lineOf(sf, node) });
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
      if (ts.isIdentifier(node.expression) && node.expression.text === "Date") clockUses.push({ what: "Date()", line: lineOf(sf, node) });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) {
        imports.push({ specifier: arg.literal.text, typeOnly: true, line: lineOf(sf, node) });
      }
    }

    // Clock, randomness and host access (checked in domain/ only).
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const full = `${node.expression.text}.${node.name.text}`;
      if (["Date.now", "Math.random", "performance.now", "crypto.randomUUID", "crypto.getRandomValues"].includes(full)) {
        clockUses.push({ what: full, line: lineOf(sf, node) });
      }
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Date") {
      if (!node.arguments || node.arguments.length === 0) clockUses.push({ what: "new Date()", line: lineOf(sf, node) });
    }
    if (
      ts.isIdentifier(node) &&
      ["process", "fetch", "setTimeout", "setInterval", "setImmediate", "XMLHttpRequest", "WebSocket"].includes(node.text)
    ) {
      const parent = node.parent;
      const isPropertyName = parent && ts.isPropertyAccessExpression(parent) && parent.name === node;
      const isDeclarationName =
        parent &&
        (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent)) &&
        parent.name === node;
      if (!isPropertyName && !isDeclarationName) clockUses.push({ what: node.text, line: lineOf(sf, node) });
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
  if (specifier.startsWith(".")) rel = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), specifier));
  else if (specifier.startsWith("~/")) rel = path.posix.normalize(path.posix.join("app", specifier.slice(2)));
  else if (specifier.startsWith("/")) rel = path.posix.relative(ROOT.split(path.sep).join("/"), specifier);
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
    out.push(`${fileRel}:${ref.line} imports "${ref.specifier}"${ref.typeOnly ? " (type)" : ""}: ${why}`);

  for (const ref of imports) {
    const t = resolveTarget(fileRel, ref.specifier);
    if (t.kind === "unknown") {
      if (!under(fileRel, "workers")) bad(ref, "computed import paths cannot be checked");
      continue;
    }

    if (under(fileRel, "domain")) {
      // domain -> zod and other domain files only, types included.
      if (t.kind === "local" && !under(t.rel, "domain")) bad(ref, "domain/ imports only other domain/ files");
      if (t.kind === "package" && t.name !== "zod") bad(ref, "domain/ imports no package but zod");
    }

    if (under(fileRel, "workflows")) {
      if (t.kind === "local") {
        if (under(t.rel, "db")) bad(ref, "workflows/ must not import db/ (not even types): talk to the database through activities");
        else if (under(t.rel, "activities")) {
          if (!ref.typeOnly) bad(ref, "workflows/ import activities as types only (import type + proxyActivities)");
        } else if (!under(t.rel, "domain") && !under(t.rel, "workflows")) {
          bad(ref, "workflows/ import only domain/, other workflows/ files and activity types");
        }
      } else {
        if (t.builtin) bad(ref, "workflows/ must not import Node built-ins (non-deterministic, rejected by the bundler)");
        else if (t.name === "stripe" || t.name === "postgres" || isDrizzle(t.name))
          bad(ref, "workflows/ must not import vendor SDKs or database drivers");
        else if (!ref.typeOnly && !["@temporalio/workflow", "@temporalio/common", "zod"].includes(t.name)) {
          bad(ref, "workflows/ may import only @temporalio/workflow (and @temporalio/common, zod) at runtime");
        }
        // The state machines (model, machine, steps) are plain code, table-tested without Temporal.
        if (/^workflows\/[^/]+\/(model|machine|steps)(\.ts)?$/.test(fileRel) && t.name.startsWith("@temporalio/") && !ref.typeOnly) {
          bad(ref, "a state machine (workflows/<kind>/model, machine, steps) imports no Temporal runtime: the driver runs its effects");
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
        if (under(t.rel, "workflows") && !ref.typeOnly && !/^workflows\/[^/]+\/contract$/.test(t.rel)) {
          bad(ref, "app/ imports from workflows/ only workflows/<kind>/contract (or types)");
        }
        if (under(t.rel, "activities") && !ref.typeOnly) bad(ref, "app/ must not import activity implementations");
        if (under(t.rel, "workers") && !ref.typeOnly) bad(ref, "app/ must not import the worker process");
      } else if (
        !ref.typeOnly &&
        ["@temporalio/worker", "@temporalio/testing", "@temporalio/core-bridge", "@temporalio/workflow"].includes(t.name)
      ) {
        bad(ref, "app/ must not import Temporal worker/workflow runtime packages (use @temporalio/client)");
      }
    }

    if (under(fileRel, "activities")) {
      if (t.kind === "local") {
        if (under(t.rel, "workflows") && !ref.typeOnly && !/^workflows\/[^/]+\/contract$/.test(t.rel)) {
          bad(ref, "activities/ import from workflows/ only contracts (ids, error names, types)");
        }
        if ((under(t.rel, "app/routes") || under(t.rel, "app/components")) && !ref.typeOnly) bad(ref, "activities/ must not import pages");
      } else if (!ref.typeOnly && ["@temporalio/workflow", "@temporalio/worker", "@temporalio/testing"].includes(t.name)) {
        bad(ref, "activities/ must not import the workflow or worker runtime");
      }
    }

    // What every Temporal client and worker connects with (the payload codec, TLS): shared by app/ and workers/.
    if (under(fileRel, "temporal")) {
      if (t.kind === "local" && !under(t.rel, "domain") && !under(t.rel, "temporal")) bad(ref, "temporal/ imports only domain/ and itself");
      if (t.kind === "package" && !t.builtin && !["@temporalio/common", "@temporalio/proto"].includes(t.name)) {
        bad(ref, "temporal/ imports only Node built-ins, @temporalio/common and @temporalio/proto");
      }
    }

    if (under(fileRel, "workers") && t.kind === "local" && under(t.rel, "app")) {
      bad(ref, "workers/ read their configuration from domain/env, not from app/");
    }

    if (under(fileRel, "db")) {
      if (t.kind === "local") {
        if ((under(t.rel, "workflows") || under(t.rel, "activities") || under(t.rel, "workers")) && !ref.typeOnly) {
          bad(ref, "db/ must not import workflows/, activities/ or workers/");
        }
        // Not even types: db/ owns the schema and the queries; what they share with workflows lives in domain/.
        if (under(t.rel, "app") || under(t.rel, "workflows")) bad(ref, "db/ imports nothing from app/ or workflows/ (types included)");
      } else if (!ref.typeOnly && (t.name.startsWith("@temporalio/") || t.name === "stripe")) {
        bad(ref, "db/ must not import Temporal or vendor SDKs");
      }
    }
  }

  if (under(fileRel, "domain") && !(fileRel in CLOCK_EXCEPTIONS)) {
    for (const use of clockUses) {
      out.push(`${fileRel}:${use.line} uses ${use.what}: domain/ is pure (time and randomness are passed in, no host access)`);
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
      else if (SOURCE_EXT.test(name) && !name.endsWith(".d.ts")) out.push(path.relative(ROOT, full).split(path.sep).join("/"));
    }
  };
  walk(abs);
  return out.sort();
}

describe("import rules of docs/architecture.md hold on the tree", () => {
  const files = CHECKED_FOLDERS.flatMap(listSources);

  it("finds the source files (the check is not vacuous)", () => {
    expect(files.filter((f) => under(f, "domain")).length).toBeGreaterThanOrEqual(9);
    expect(files.some((f) => f === "domain/index.ts")).toBe(true);
  });

  it.each(CHECKED_FOLDERS)("%s/ follows its rules", (folder) => {
    const violations = files.filter((f) => under(f, folder)).flatMap((f) => violationsOf(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(violations).toEqual([]);
  });

  it("no clock exception is stale", () => {
    for (const file of Object.keys(CLOCK_EXCEPTIONS)) {
      let source: string;
      try {
        source = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        throw new Error(`${file} is listed in CLOCK_EXCEPTIONS but does not exist: remove the entry`);
      }
      expect(parse(file, source).clockUses.length, `${file} no longer reads the clock: remove it from CLOCK_EXCEPTIONS`).toBeGreaterThan(0);
    }
  });

  it("no import cycle among modules of app/ and workflows/ (runtime imports; e.g. cart and checkout)", () => {
    const graph = new Map<string, string[]>();
    const known = new Set(files.map((f) => f.replace(SOURCE_EXT, "")));
    for (const f of files.filter((x) => under(x, "app") || under(x, "workflows"))) {
      const deps: string[] = [];
      for (const ref of parse(f, readFileSync(path.join(ROOT, f), "utf8")).imports) {
        if (ref.typeOnly) continue;
        const t = resolveTarget(f, ref.specifier);
        if (t.kind !== "local") continue;
        const target = known.has(t.rel) ? t.rel : known.has(`${t.rel}/index`) ? `${t.rel}/index` : null;
        if (target) deps.push(target);
      }
      graph.set(f.replace(SOURCE_EXT, ""), deps);
    }
    const cycles: string[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "visiting") {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(" -> "));
        return;
      }
      state.set(node, "visiting");
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, "done");
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it("docs/architecture.md states the rules", () => {
    const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
    for (const phrase of ["domain/", "workflows/", "activities/", "app/", "db/", "import type", "tests/unit/architecture.test.ts"]) {
      expect(doc).toContain(phrase);
    }
  });
});

describe("the checker catches violations (self-test on synthetic files)", () => {
  const check = (file: string, src: string) => violationsOf(file, src);

  it("domain/: zod and domain files only, no clock", () => {
    expect(check("domain/x.ts", `import { z } from "zod"; import { a } from "./money"; export * from "./fees";`)).toEqual([]);
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
    expect(check("workflows/buy/machine.ts", `import { condition } from "@temporalio/workflow";`)).toHaveLength(1);
    expect(check("workflows/buy/model.ts", `import { ApplicationFailure } from "@temporalio/common";`)).toHaveLength(1);
    expect(check("workflows/common/steps.ts", `import { log } from "@temporalio/workflow";`)).toHaveLength(1);
    expect(check("workflows/swap/machine.ts", `import { OrderDriver } from "../common/driver";`)).toHaveLength(1);
    expect(
      check(
        "workflows/buy/workflow.ts",
        `import { condition } from "@temporalio/workflow"; import { OrderDriver } from "../common/driver";`,
      ),
    ).toEqual([]);
  });

  it("workflows/: no db, no activity implementations, no built-ins, no vendor SDKs", () => {
    const f = "workflows/buy/workflow.ts";
    expect(
      check(
        f,
        `import { proxyActivities } from "@temporalio/workflow";
         import type { Activities } from "../../activities";
         import { type Other } from "../../activities/payments/port";
         import { WINDOWS } from "../../domain/business-days";
         import { BUY } from "./contract";`,
      ),
    ).toEqual([]);
    expect(check(f, `import { createActivities } from "../../activities";`)).toHaveLength(1);
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
    expect(check(f, `import { payoutSetupWorkflow } from "../../workflows/payout/workflow";`)).toHaveLength(1);
    expect(check(f, `export { payoutSetupWorkflow } from "../../workflows";`)).toHaveLength(1);
    expect(check(f, `import { createActivities } from "../../activities";`)).toHaveLength(1);
    expect(check(f, `import { createActivities } from "~/../activities";`)).toHaveLength(1);
    expect(check(f, `import { Worker } from "@temporalio/worker";`)).toHaveLength(1);
    expect(check(f, `import { sleep } from "@temporalio/workflow";`)).toHaveLength(1);
  });

  it("activities/ and db/", () => {
    expect(
      check("activities/x.ts", `import { PAYOUT_REJECTED } from "../workflows/payout/contract"; import Stripe from "stripe";`),
    ).toEqual([]);
    expect(check("activities/x.ts", `import { payoutSetupWorkflow } from "../workflows/payout/workflow";`)).toHaveLength(1);
    expect(check("activities/x.ts", `import { sleep } from "@temporalio/workflow";`)).toHaveLength(1);
    expect(
      check(
        "db/queries/x.ts",
        `import { sql } from "drizzle-orm"; import type { Db } from "../client"; import { WINDOWS } from "../../domain";`,
      ),
    ).toEqual([]);
    expect(check("db/queries/x.ts", `import { createActivities } from "../../activities";`)).toHaveLength(1);
    expect(check("db/queries/x.ts", `import { Client } from "@temporalio/client";`)).toHaveLength(1);
    // Not even types from app/ or workflows/; nor configuration from app/.
    expect(check("db/queries/x.ts", `import type { BuyDraftHandOver } from "../../workflows/buy/contract";`)).toHaveLength(1);
    expect(check("db/migrate.ts", `const { getEnv } = await import("../app/utils/env.server");`)).toHaveLength(1);
    expect(check("db/migrate.ts", `const { parseEnv } = await import("../domain/env");`)).toEqual([]);
    expect(check("workers/main.ts", `import { getEnv } from "../app/utils/env.server";`)).toHaveLength(1);
    expect(check("workers/main.ts", `import { parseEnv } from "../domain/env"; import { createActivities } from "../activities";`)).toEqual(
      [],
    );
  });
});

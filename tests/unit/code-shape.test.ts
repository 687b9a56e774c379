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
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node)
    ) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max)
        found.push(`${fileName}:${first + 1} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

/** A route module is a file of app/routes that Remix serves (remix.config.js ignores `.server` siblings and dot files). */
const isRouteModule = (name: string) =>
  !name.startsWith(".") && /\.tsx?$/.test(name) && !/\.(test|server)\.tsx?$/.test(name);
const ROUTES = readdirSync(path.join(ROOT, "app/routes")).filter(isRouteModule);

describe("code shape", () => {
  it("no function in workflows/ runs over 80 lines", () => {
    const files = filesUnder("workflows");
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => longFunctions(f, read(f), 80))).toEqual([]);
  });

  it("no route module runs over 300 lines", () => {
    expect(ROUTES.length).toBeGreaterThan(50);
    const long = ROUTES.map((r) => [r, lineCount(read(`app/routes/${r}`))] as const).filter(
      ([, n]) => n > 300,
    );
    expect(long).toEqual([]);
  });

  it("a route module imports no other route module, only its own .server sibling (shared code lives in a component or a util)", () => {
    const files = readdirSync(path.join(ROOT, "app/routes")).filter(
      (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n),
    );
    const offenders = files.flatMap((f) => {
      const ownSibling = isRouteModule(f) ? f.replace(/\.tsx?$/, ".server") : null;
      return [
        ...read(`app/routes/${f}`).matchAll(
          /(?:from|import)\s*\(?\s*["'](\.\/|~\/routes\/)([^"']+)["']/g,
        ),
      ]
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

  it("comments cite pages of this repository, not the specifications, the decisions file or issue numbers", () => {
    const hits = ["app", "domain", "db", "workflows", "activities", "workers", "tests", "scripts"]
      .flatMap(filesUnder)
      .flatMap((f) => outsideCitations(f, read(f)));
    expect(hits).toEqual([]);
  });

  it("a money movement's begin / send / complete is written once: recordedPayment (activities/buy/payments.ts)", () => {
    const calls = ["activities", "workflows", "workers"]
      .flatMap(filesUnder)
      .flatMap((f) =>
        [...read(f).matchAll(/\b(beginPayment|completePayment)\(/g)].map((m) => `${f}: ${m[1]}`),
      );
    expect(calls).toEqual([
      "activities/buy/payments.ts: beginPayment",
      "activities/buy/payments.ts: completePayment",
      "activities/buy/payments.ts: completePayment",
    ]);
  });

  it("the retry policies are the kit's (workflows/common/policies.ts): none written inline in a workflow", () => {
    const files = filesUnder("workflows").filter(
      (f) => f !== path.join("workflows", "common", "policies.ts"),
    );
    expect(
      files.filter(
        (f) =>
          f.startsWith(path.join("workflows", "card")) ||
          f.startsWith(path.join("workflows", "payout")),
      ),
    ).toHaveLength(6); // contract, workflow and activities of each: the check is not vacuous
    const inline = files.filter((f) =>
      /\bretry\s*:|maximumAttempts|initialInterval|backoffCoefficient|maximumInterval/.test(
        read(f),
      ),
    );
    expect(inline).toEqual([]);
  });

  it("the row-id bound is written once (domain/ids.ts MAX_ROW_ID, RowId, rowIdOf)", () => {
    const hits = ["app", "domain", "db", "workflows", "activities", "workers"]
      .flatMap(filesUnder)
      .filter(
        (f) =>
          f !== path.join("domain", "ids.ts") &&
          /2_?147_?483_?647|0x7fffffff|2 \*\* 31 - 1/i.test(read(f)),
      );
    expect(hits).toEqual([]);
  });

  it("a module that parses its form with a schema reads no field beside it (but the intent it dispatches on, and files)", () => {
    const parsers = filesUnder("app").filter(
      (f) =>
        f !== path.join("app", "utils", "form.server.ts") &&
        /\bparse(Submission|WithZod)\(/.test(read(f)),
    );
    expect(parsers.length).toBeGreaterThan(30);
    expect(parsers.flatMap((f) => handReadFields(f, read(f)))).toEqual([]);
  });
});

/** Lines that cite what a newcomer does not have: the specifications, the decisions file, an issue number. */
export function outsideCitations(fileName: string, text: string): string[] {
  const pattern = /spec 00[0-2]|decisions\.md|issue [0-9]+/i;
  return text
    .split("\n")
    .flatMap((line, i) => (pattern.test(line) ? [`${fileName}:${i + 1}: ${line.trim()}`] : []));
}

/** Form fields read by hand (`form.get("x")`, `formData.getAll("x")`), but the intent and the file uploads. */
export function handReadFields(fileName: string, text: string): string[] {
  const allowed = new Set(["intent", ...FILE_FIELDS]);
  return [...text.matchAll(/\b(?:form|formData|fd)\.(?:get|getAll)\(\s*["'`]([^"'`$]+)["'`]/g)]
    .filter((m) => !allowed.has(m[1]))
    .map((m) => `${fileName}: ${m[1]}`);
}
/** Uploads read as files (a picture, the photos of a listing). */
const FILE_FIELDS = ["image", "photos"];

describe("the checks catch what they look for (self-test)", () => {
  it("outsideCitations finds a cited issue or specification in any case, and passes a repository page", () => {
    // Written in pieces, so that this file does not cite them itself.
    const cites = [
      ["Issue", "12"],
      ["ISSUE", "3 item 2"],
      ["Spec", "001 §2"],
    ].map(([w, n]) => `// see ${w} ${n}`);
    expect(outsideCitations("a.ts", cites.join("\n"))).toHaveLength(3);
    expect(outsideCitations("a.ts", '// docs/product/windows.md, "Payout"\n')).toEqual([]);
  });

  it("handReadFields finds a field read beside its schema, and passes the intent and a file", () => {
    const text = `const a = form.get("contact_id"); const b = c.form.get("intent"); const f = form.get("image"); formData.getAll("ids");`;
    expect(handReadFields("m.ts", text)).toEqual(["m.ts: contact_id", "m.ts: ids"]);
  });

  it("longFunctions finds a function over the limit and passes one under it", () => {
    const body = (n: number) => `function f() {\n${"  x++;\n".repeat(n)}}\n`;
    expect(longFunctions("a.ts", body(78), 80)).toEqual([]);
    expect(longFunctions("a.ts", body(79), 80)).toEqual(["a.ts:1 (81 lines)"]);
    expect(
      longFunctions("b.tsx", `const C = () => (\n${"  <p/>\n".repeat(90)});\n`, 80),
    ).toHaveLength(1);
  });
});

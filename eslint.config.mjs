// ESLint: the layer rules of docs/architecture.md ("Dependency direction"), run by `npm test` (suite "lint").
// tests/unit/architecture.test.ts checks the same rules and a few more (clock use in domain/, the state
// machines' imports); this config makes an editor show a broken boundary where it is typed.
import boundaries from "eslint-plugin-boundaries";
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

const SOURCES = [
  "app/**/*.{ts,tsx}",
  "domain/**/*.ts",
  "db/**/*.ts",
  "workflows/**/*.ts",
  "activities/**/*.{ts,tsx}",
  "workers/**/*.{ts,mjs}",
  "temporal/**/*.ts",
];

export default [
  { ignores: ["node_modules/**", "build/**", "public/build/**", ".data/**", "test-results/**", "db/migrations/**", "**/*.d.ts"] },
  {
    files: SOURCES,
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    // Other tools' directives (no-var in global declarations) are left alone.
    linterOptions: { reportUnusedDisableDirectives: "off" },
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } },
      // First match wins: a kind's contract is its own element (what app/ and activities/ may import).
      "boundaries/elements": [
        { type: "contract", pattern: "workflows/*/contract.ts", mode: "file" },
        { type: "workflows", pattern: "workflows" },
        { type: "app", pattern: "app" },
        { type: "domain", pattern: "domain" },
        { type: "db", pattern: "db" },
        { type: "activities", pattern: "activities" },
        { type: "workers", pattern: "workers" },
        { type: "temporal", pattern: "temporal" },
      ],
    },
    rules: {
      "boundaries/element-types": [
        "error",
        {
          default: "disallow",
          message: "${file.type}/ may not import ${dependency.type}/ here (docs/architecture.md, dependency direction)",
          rules: [
            // Pages: pure rules, queries, and a workflow kind's contract; workflow and activity types only.
            { from: "app", allow: ["app", "domain", "db", "contract", "temporal"] },
            { from: "app", allow: ["workflows", "activities"], importKind: "type" },
            // Pure rules: nothing but themselves (and zod).
            { from: "domain", allow: ["domain"] },
            // Schema and queries: pure rules only; nothing from app/ or workflows/, not even types.
            { from: "db", allow: ["db", "domain"] },
            // Deterministic code: pure rules and other workflow code; activities as types (proxyActivities).
            { from: ["workflows", "contract"], allow: ["workflows", "contract", "domain"] },
            { from: ["workflows", "contract"], allow: ["activities"], importKind: "type" },
            // Side effects: rules, queries, contracts (ids, error names); workflow types.
            { from: "activities", allow: ["activities", "domain", "db", "contract"] },
            { from: "activities", allow: ["workflows"], importKind: "type" },
            // Composition roots: everything they compose, but their configuration comes from domain/env.
            { from: "workers", allow: ["workers", "activities", "db", "domain", "workflows", "contract", "temporal"] },
            // What every Temporal client and worker connects with (payload codec, TLS): pure rules only.
            { from: "temporal", allow: ["temporal", "domain"] },
          ],
        },
      ],
    },
  },
  {
    // Workflow code is replayed: no Node built-ins, database drivers or vendor SDKs (Temporal's bundler
    // rejects most of them anyway; this says so where the import is typed).
    files: ["workflows/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
            name,
            message: "workflows/ are deterministic: no Node built-ins",
          })),
          patterns: [
            {
              group: [
                "drizzle-orm",
                "drizzle-orm/*",
                "postgres",
                "stripe",
                "@temporalio/worker",
                "@temporalio/client",
                "@temporalio/activity",
              ],
              message: "workflows/ import only @temporalio/workflow, domain/ and activity types",
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 9's shape: the order machines, their driver and the queries behind each step stay small enough to
    // read whole (counted without blank lines and comments; the longest today is getOrderDetail, 124 lines).
    files: ["workflows/**/*.ts", "domain/**/*.ts", "db/queries/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }] },
  },
];

// ESLint: the layer rules of docs/architecture.md ("Import rules", "Folder direction"), run by `npm test` (suite
// "lint"). tests/unit/architecture.test.ts checks the same rules and a few more (no cycle of files, clock use in
// domain/, the state machines' imports); this config makes an editor show a broken boundary where it is typed.
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
  "config/**/*.mjs",
  "scripts/**/*.mjs",
];

/** What each element may import: every arrow points down (docs/architecture.md, "Folder direction"). */
const DIRECTION = [
  // Pages, in layers: routes → components → utils (app = root.tsx and the entry files); a kind's contract;
  // anything in workflows/ as types only (a workflow is started by its type name).
  {
    from: "routes",
    allow: ["routes", "app", "components", "utils", "domain", "db", "contract", "temporal"],
  },
  { from: "app", allow: ["app", "components", "utils", "domain", "db", "contract", "temporal"] },
  { from: "components", allow: ["components", "utils", "domain", "db", "contract"] },
  { from: "utils", allow: ["utils", "domain", "db", "contract", "temporal"] },
  {
    from: ["routes", "app", "components", "utils"],
    allow: ["workflows", "activity-interface"],
    importKind: "type",
  },
  // Pure rules: nothing but themselves (and zod).
  { from: "domain", allow: ["domain"] },
  // Schema and queries: pure rules only; nothing from app/ or workflows/, not even types.
  { from: "db", allow: ["db", "domain"] },
  // Deterministic code: pure rules and other workflow code (a workflow owns its activities' interface).
  {
    from: ["workflows", "contract", "activity-interface"],
    allow: ["workflows", "contract", "activity-interface", "domain"],
  },
  // Side effects: rules, queries, contracts (ids, error names); the interface they implement, as types.
  { from: "activities", allow: ["activities", "domain", "db", "contract"] },
  { from: "activities", allow: ["activity-interface"], importKind: "type" },
  // Composition roots: everything they compose, but their configuration comes from domain/env.
  {
    from: "workers",
    allow: [
      "workers",
      "activities",
      "db",
      "domain",
      "workflows",
      "contract",
      "activity-interface",
      "temporal",
    ],
  },
  // What every Temporal client and worker connects with (payload codec, TLS): pure rules only.
  { from: "temporal", allow: ["temporal", "domain"] },
  // Configuration read by scripts (which import config/, never the other way).
  { from: "config", allow: ["config"] },
  {
    from: "scripts",
    allow: [
      "scripts",
      "config",
      "temporal",
      "workers",
      "routes",
      "app",
      "components",
      "utils",
      "activities",
      "db",
      "domain",
      "workflows",
      "contract",
      "activity-interface",
    ],
  },
];

const elementTypes = (rules) => [
  "error",
  {
    default: "disallow",
    message:
      "${file.type}/ may not import ${dependency.type}/ here (docs/architecture.md, folder direction)",
    rules,
  },
];

export default [
  {
    ignores: [
      "node_modules/**",
      "build/**",
      "public/build/**",
      ".data/**",
      "test-results/**",
      "db/migrations/**",
      "**/*.d.ts",
      // Vite's bundled config, written and deleted while the test suites start (a lint beside them would read
      // a file that is gone by then).
      "**/*.timestamp-*.mjs",
    ],
  },
  {
    files: SOURCES,
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    // Other tools' directives (no-var in global declarations) are left alone.
    linterOptions: { reportUnusedDisableDirectives: "off" },
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } },
      // First match wins: a kind's contract and its activities' interface are elements of their own (what app/
      // and activities/ may import); app/ is split into its layers.
      "boundaries/elements": [
        { type: "contract", pattern: "workflows/*/contract.ts", mode: "file" },
        { type: "activity-interface", pattern: "workflows/*/activities.ts", mode: "file" },
        { type: "workflows", pattern: "workflows" },
        { type: "routes", pattern: "app/routes" },
        { type: "components", pattern: "app/components" },
        { type: "utils", pattern: "app/utils" },
        { type: "app", pattern: "app" },
        { type: "domain", pattern: "domain" },
        { type: "db", pattern: "db" },
        { type: "activities", pattern: "activities" },
        { type: "workers", pattern: "workers" },
        { type: "temporal", pattern: "temporal" },
        { type: "config", pattern: "config" },
        { type: "scripts", pattern: "scripts" },
      ],
    },
    rules: { "boundaries/element-types": elementTypes(DIRECTION) },
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
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
];

import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// One Vitest project per suite. `npm test` (scripts/test.mjs) runs each with `--project <name>`
// after starting what the suite needs (Postgres, stripe-mock, the built app...).
// Running a single suite by hand: `npx vitest run --project unit`.
const root = path.dirname(fileURLToPath(import.meta.url));

const serial = {
  pool: "forks" as const,
  poolOptions: { forks: { singleFork: true } },
  fileParallelism: false,
};

/**
 * Test files share their imported modules within a worker (Vitest's `isolate: false`): the app's, Drizzle's and
 * Temporal's modules are loaded once per process, not once per file (the unit suite: 41-48 CPU-s in a process per
 * file, 20 sharing two; see the root's poolOptions below). A file's own top level still runs afresh; what a helper module must do for every file
 * (hooks) it does from the suite's setup file, not at its top level. Files that replace modules with `vi.mock`
 * need their own module registry: they run in the suite's `-isolated` project.
 */
const shared = { isolate: false };
const MOCKING = ["tests/unit/swap-command-deadline.test.ts", "tests/unit/swap-forms.test.ts"];

/**
 * Files that read what the rest of their suite left behind run after it: the leak canary crawls the pages,
 * PDFs and e-mails of every purchase, swap and RMA the e2e suite made; the history canary searches every
 * workflow history the suite left on its Temporal server. Vitest's own order (slowest first)
 * is kept for the others.
 */
const RUN_LAST = ["tests/e2e/leak-canary.test.ts", "tests/e2e/history-canary.test.ts"];
class RunLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (f: TestSpecification) => RUN_LAST.some((name) => f.moduleId.endsWith(name));
    return [...sorted.filter((f) => !last(f)), ...sorted.filter(last)];
  }
}

export default defineConfig({
  resolve: { alias: { "~": path.join(root, "app") } },
  test: {
    sequence: { sequencer: RunLastSequencer },
    // The forks pool is one for every project, and reads this from the root config only: without it each unit
    // file ran in a new process however `isolate` was set on its project (48 CPU-s for the unit suite, 20 with it).
    // Each project's own `isolate` still decides whether a process's files share their modules (unit-isolated's do
    // not); the serial projects run all their files in their single fork either way.
    poolOptions: { forks: { isolate: false } },
    globals: true,
    environment: "node",
    passWithNoTests: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "domain/**/*.test.ts"],
          exclude: MOCKING,
          ...shared,
          // Some unit tests are CPU-bound (the import-rule check parses every source file with TypeScript: ~2 s
          // alone, over 5 s while the e2e suite keeps both cores busy beside it); a stuck test fails after 30 s instead of 5.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        // Threads, not forks: the forks pool shares its processes between files (the root's poolOptions).
        test: { name: "unit-isolated", include: MOCKING, pool: "threads", testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          // One shared database: files run one after another.
          ...serial,
          ...shared,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "workflows",
          include: ["tests/workflows/**/*.test.ts"],
          // Time skipping is global to a test server: run serially in one forked process.
          ...serial,
          ...shared,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["tests/contract/**/*.test.ts"],
          ...serial,
          ...shared,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // One browser-driven app: one file at a time, its browser and modules shared (tests/e2e/harness.ts).
          ...serial,
          ...shared,
          setupFiles: ["tests/e2e/setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // expect.poll waits for what a page or the read model shows after a round trip. Its 1 s default was
          // too short for a 6 MB upload answered while the other suites keep both cores busy; the assertion is
          // the same, only how long a slow answer may take.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});

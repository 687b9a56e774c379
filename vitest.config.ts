import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// One Vitest project per suite. `npm test` (scripts/test.mjs) runs each with `--project <name>`
// after starting what the suite needs (Postgres, stripe-mock, the built app...).
// Running a single suite by hand: `npx vitest run --project unit`.
const root = path.dirname(fileURLToPath(import.meta.url));

const serial = {
  pool: "forks" as const,
  poolOptions: { forks: { singleFork: true } },
  fileParallelism: false,
};

export default defineConfig({
  resolve: { alias: { "~": path.join(root, "app") } },
  test: {
    globals: true,
    environment: "node",
    passWithNoTests: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "domain/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          // One shared database: files run one after another.
          ...serial,
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
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // One browser-driven app: one file at a time.
          ...serial,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

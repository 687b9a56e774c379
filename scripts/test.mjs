#!/usr/bin/env node
// npm test — every test suite, on a fresh machine, as CI runs it (`bash .ci/run`).
//
//   npm test                 all suites: unit, db, workflows, contract, e2e
//   npm test -- unit db      a subset
//   npm test -- e2e --files tests/e2e/bad-input.test.ts   only these files of the selected suites
//                            (Vitest file filters: a path or part of a file name; repeatable)
//   npm test -- --record     also write the figures (time per suite, the ten slowest files, CPU) into
//                            docs/performance.md, section "Test command"
//
// Installs what is missing (node_modules, tools), starts a throw-away Postgres on :54330
// (.data/pg-test, wiped each run), migrates, then runs each suite as its own Vitest project with the
// services it needs: e2e (in two Vitest processes) at the same time as the others, which run one after
// another. Prints a per-suite summary, the duration, and as the very last line
// `N passed, M failed` (a suite that crashes counts as at least one failure). Exit code 1 if M > 0.
//
// Only Node built-ins (and ./lib, which uses only built-ins) are imported statically: node_modules
// may not exist yet.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters as stripAnsi } from "node:util";
import { c, fail, fmtMs, info, step, warn } from "./lib/log.mjs";
import { CACHE_DIR, DATA_DIR, DB_NAMES, PORTS, RESULTS_DIR, ROOT } from "./lib/paths.mjs";
import { formattableFiles, rememberedCheck, unformattedFiles } from "./lib/format-cache.mjs";
import { writeDoc } from "./lib/perf-doc.mjs";
import {
  acquireLock,
  isPortOpen,
  onShutdown,
  run,
  sleep,
  startService,
  stopAll,
  waitForHttp,
  waitForPort,
} from "./lib/proc.mjs";
import { ensureNodeModules, ensureTools } from "./lib/tools.mjs";

const SUITES = ["lint", "unit", "db", "workflows", "contract", "e2e"];
const NEEDS_TOOLS = {
  unit: ["poppler"],
  workflows: ["testServer", "temporal"],
  contract: ["stripeMock"],
  e2e: ["temporal", "chromium", "poppler", "temporalUi"],
};
const NEEDS_DB = new Set(["db", "workflows", "contract", "e2e"]);
const T = PORTS.test;

const t0 = Date.now();
const argv = process.argv.slice(2);
/** `--files X` (repeatable): Vitest file filters passed to every selected suite. */
const fileFilters = [];
for (let i = 0; i < argv.length; i++)
  if (argv[i] === "--files" && argv[i + 1])
    fileFilters.push(...argv.splice(i + 1, 1)[0].split(","));
/** `--record`: write the run's figures into docs/performance.md (section "Test command"). */
const record = argv.includes("--record");
const requested = argv.filter((a) => !a.startsWith("-"));
const unknown = requested.filter((s) => !SUITES.includes(s));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(", ")} (choose from ${SUITES.join(", ")})`);
  console.log("0 passed, 1 failed");
  process.exit(2);
}
const selected = requested.length ? SUITES.filter((s) => requested.includes(s)) : SUITES;

/** @type {{suite: string, passed: number, failed: number, skipped: number, ms: number, note?: string}[]} */
const results = [];
let finished = false;

function summarize() {
  const line = "─".repeat(64);
  console.log(`\n${line}`);
  console.log(
    c.bold(
      `${"suite".padEnd(11)}${"passed".padStart(8)}${"failed".padStart(8)}${"skipped".padStart(9)}${"time".padStart(10)}`,
    ),
  );
  let passed = 0;
  let failed = 0;
  const rank = (r) => (SUITES.includes(r.suite) ? SUITES.indexOf(r.suite) : SUITES.length);
  for (const r of [...results].sort((a, b) => rank(a) - rank(b))) {
    passed += r.passed;
    failed += r.failed;
    const f = r.failed ? c.red(String(r.failed).padStart(8)) : String(r.failed).padStart(8);
    console.log(
      `${r.suite.padEnd(11)}${String(r.passed).padStart(8)}${f}${String(r.skipped).padStart(9)}${fmtMs(r.ms).padStart(10)}${r.note ? `  ${c.yellow(r.note)}` : ""}`,
    );
  }
  console.log(line);
  const slowest = slowestFiles(10);
  if (slowest.length) {
    console.log(c.bold("ten slowest files"));
    for (const f of slowest)
      console.log(`${fmtMs(f.ms).padStart(9)}  ${f.suite.padEnd(9)} ${f.file}`);
    console.log(line);
  }
  // Which tests failed, and the start of why, stay at the end of the output (where a CI log is cut to its last lines).
  const failures = results.flatMap((r) =>
    (r.failures ?? []).map((f) => ({ suite: r.suite, ...f })),
  );
  for (const f of failures.slice(0, 10)) {
    const lines = stripAnsi(f.message)
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const where = lines.find((l) => l.startsWith("at ") && !l.includes("node_modules"));
    const why = [...lines.filter((l) => !l.startsWith("at ")).slice(0, 3), where]
      .filter(Boolean)
      .join(" | ");
    console.log(c.red(`failed: ${f.suite} ${f.file} > ${f.test}`));
    if (why) console.log(`  ${why.slice(0, 400)}`);
  }
  if (failures.length > 10)
    console.log(c.red(`failed: ${failures.length - 10} more (see the reports)`));
  const cpu = childCpuSeconds();
  console.log(
    `total duration: ${fmtMs(Date.now() - t0)}  (suites: ${selected.join(", ")}; reports in ${path.relative(ROOT, RESULTS_DIR)}/)`,
  );
  if (cpu !== null)
    console.log(
      `CPU used by the run's processes: ${cpu.toFixed(0)} s (user + system, every process it started and waited for; not Chromium)`,
    );
  if (record) recordInDoc({ passed, failed, ms: Date.now() - t0, cpu, slowest });
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

/** The `n` files that took longest, over every suite's report (a file's own wall time, start to end). */
function slowestFiles(n) {
  return results
    .flatMap((r) => (r.fileTimes ?? []).map((f) => ({ suite: r.suite, ...f })))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n);
}

/**
 * CPU seconds of every child process this one has waited for (and theirs, as each waited for its own): the
 * cutime and cstime fields of /proc/self/stat. Unlike the wall time, it hardly moves with what else the box is
 * doing, so two runs compare on a busy machine. null where /proc is not there.
 */
function childCpuSeconds() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state): cutime and cstime are fields 16 and 17, in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Where the recorded block goes in docs/performance.md: before this line of the "Test command" section. */
const OLDER_RUNS = "The older measurements follow.";

/** `--record`: the run's figures as the <!-- test-command --> block of docs/performance.md. */
function recordInDoc({ passed, failed, ms, cpu, slowest }) {
  const rows = [...results]
    .filter((r) => SUITES.includes(r.suite))
    .sort((a, b) => SUITES.indexOf(a.suite) - SUITES.indexOf(b.suite))
    .map((r) => `| ${r.suite} | ${r.passed} | ${r.failed} | ${fmtMs(r.ms)} |`);
  const report = [
    `Last recorded run: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, \`npm test -- --record\`, load average at the end ${fs
      .readFileSync("/proc/loadavg", "utf8")
      .split(" ")
      .slice(0, 3)
      .join(" ")}.`,
    "",
    "| suite | passed | failed | time |",
    "|---|---|---|---|",
    ...rows,
    `| **total** | **${passed}** | **${failed}** | **${fmtMs(ms)}** |`,
    "",
    cpu === null
      ? ""
      : `CPU used by the run's processes: ${cpu.toFixed(0)} s (Chromium not counted: it is ended, not waited for, when its Vitest process exits).`,
    "",
    "The ten slowest files (each file's own time, start to end, while the other suites run beside it):",
    "",
    "| file | suite | time |",
    "|---|---|---|",
    ...slowest.map((f) => `| ${f.file} | ${f.suite} | ${fmtMs(f.ms)} |`),
  ].join("\n");
  try {
    writeDoc({
      key: "test-command",
      by: "npm test -- --record",
      report,
      // In the "Test command" section, before its older measurements (else at the end).
      place: (doc, block) =>
        doc.includes(OLDER_RUNS)
          ? doc.replace(OLDER_RUNS, () => `${block}\n\n${OLDER_RUNS}`)
          : `${doc.trimEnd()}\n\n${block}\n`,
    });
  } catch (e) {
    warn(`could not record in docs/performance.md: ${e.message}`);
  }
}

onShutdown(async (sig) => {
  if (finished) return;
  warn(`interrupted (${sig}); stopping test services...`);
  await stopAll();
  results.push({ suite: "interrupted", passed: 0, failed: 1, skipped: 0, ms: 0, note: sig });
  summarize();
});

// Whatever happens, the run ends with the summary line.
async function crashed(e) {
  if (finished) return;
  finished = true;
  fail(`unexpected error: ${e?.stack || e}`);
  results.push({
    suite: "crash",
    passed: 0,
    failed: 1,
    skipped: 0,
    ms: 0,
    note: String(e?.message ?? e)
      .split("\n")[0]
      .slice(0, 80),
  });
  await stopAll().catch(() => {});
  summarize();
  process.exit(1);
}
process.on("uncaughtException", crashed);
process.on("unhandledRejection", crashed);

// ------------------------------------------------------------------ helpers

/** Frees a fixed test port held by a leftover process from an earlier, interrupted run. */
async function freeTestPort(port) {
  if (!(await isPortOpen(port))) return;
  const { spawnSync } = await import("node:child_process");
  const out = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }).stdout || "";
  const pids = [...new Set([...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])))].filter(
    (p) => p !== process.pid,
  );
  for (const pid of pids) {
    warn(`test port ${port} is held by pid ${pid} (leftover from an earlier run?); stopping it`);
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      /* gone */
    }
  }
  for (let i = 0; i < 100 && (await isPortOpen(port)); i++) await sleep(100);
  if (await isPortOpen(port)) {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }
    await sleep(300);
  }
}

/** Reads Vitest's JSON report; crashed files (import errors...) count as failures. */
function readReport(file) {
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  let failed = r.numFailedTests ?? 0;
  const failures = [];
  const fileTimes = [];
  for (const f of r.testResults ?? []) {
    const file = path.relative(ROOT, f.name ?? "");
    if (f.startTime && f.endTime) fileTimes.push({ file, ms: f.endTime - f.startTime });
    const failedAssertions = (f.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failedAssertions)
      failures.push({
        file,
        test: a.fullName ?? a.title,
        message: (a.failureMessages ?? []).join("\n"),
      });
    if (f.status === "failed" && failedAssertions.length === 0) {
      failed += 1; // the file itself failed
      failures.push({ file, test: "(the file)", message: f.message ?? "" });
    }
  }
  return {
    passed: r.numPassedTests ?? 0,
    failed,
    failures,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    files: r.numTotalTestSuites ?? 0,
    fileTimes,
  };
}

/**
 * The lint suite's commands (ESLint, Prettier, the type check) run at a lower CPU priority (nice 5) when the e2e
 * suite runs beside them: the e2e suite is the run's longest lane, and on 2 cores every CPU-second lint takes
 * while it runs lengthens it (in the recorded run lint took 163 s, the e2e suite 405 s). Lint still gets every
 * moment the e2e suite waits (for the app, the browser, Temporal) and a share of the rest. The database suites'
 * lane keeps its priority: it is the second longest.
 */
const LINT_NICE = 5;
function lintCommand(args) {
  return selected.includes("e2e") && fs.existsSync("/usr/bin/nice")
    ? ["/usr/bin/nice", ["-n", String(LINT_NICE), process.execPath, ...args]]
    : [process.execPath, args];
}

/**
 * ESLint over the source folders (eslint.config.mjs: the layer rules of docs/architecture.md): each file
 * linted counts as passed, each file with an error as failed; the errors are printed. ESLint is given only the
 * files whose path and text it has not passed before on this machine, under the same ESLint config, lock file and
 * list of files (scripts/lib/format-cache.mjs rememberedCheck; docs/decisions/0058-lint-remembers-passed-files.md).
 */
async function eslint(env, { prefix } = {}) {
  const report = path.join(RESULTS_DIR, "lint.json");
  const bin = path.join(ROOT, "node_modules", "eslint", "bin", "eslint.js");
  /** ESLint over `files`: those it linted, those with a finding (printed), and whether it failed. */
  const lint = async (files) => {
    fs.rmSync(report, { force: true });
    const { code } = await run(
      ...lintCommand([
        bin,
        ...files,
        "--no-warn-ignored",
        "--max-warnings",
        "0",
        "--format",
        "json",
        "--output-file",
        report,
      ]),
      { env, prefix },
    );
    const linted = JSON.parse(fs.readFileSync(report, "utf8"));
    const bad = linted.filter((f) => f.errorCount + f.warningCount > 0);
    for (const f of bad) {
      for (const m of f.messages)
        console.log(
          `${path.relative(ROOT, f.filePath)}:${m.line}:${m.column} ${m.message}${m.ruleId ? ` (${m.ruleId})` : ""}`,
        );
    }
    return {
      seen: linted.map((f) => path.relative(ROOT, f.filePath)),
      bad: bad.map((f) => path.relative(ROOT, f.filePath)),
      // 1 is "findings"; 2 and up, ESLint itself failed.
      failed: code > 1 || (code !== 0 && bad.length === 0) ? code : 0,
    };
  };
  try {
    const files = formattableFiles(ROOT, LINTED_EXTENSIONS);
    const settings = [
      readIfThere("node_modules/eslint/package.json"),
      readIfThere("eslint.config.mjs"),
      readIfThere("package-lock.json"),
      // A file's findings depend on other files only through the paths its imports resolve to.
      files.join("\n"),
    ].join("\0");
    const result = await rememberedCheck({
      root: ROOT,
      files,
      settings,
      cacheDir: path.join(CACHE_DIR, "eslint-passed"),
      key: (file, text) => createHash("sha256").update(`${file}\0`).update(text).digest("hex"),
      check: lint,
    });
    const linted = result.passed + result.bad.length;
    info(
      `${linted} files linted, ${result.bad.length} with problems (ESLint read ${result.checked} of ${result.total}; the others passed before)`,
    );
    if (result.failed)
      return {
        passed: result.passed,
        failed: result.bad.length || 1,
        skipped: 0,
        note: `eslint exited with ${result.failed}`,
      };
    return { passed: result.passed, failed: result.bad.length, skipped: 0 };
  } catch (e) {
    return {
      passed: 0,
      failed: 1,
      skipped: 0,
      note: `no report (eslint crashed: ${String(e).split("\n")[0]})`,
    };
  }
}

/** A file of the repository's text, "" when it is not there. */
function readIfThere(file) {
  return fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : "";
}

/**
 * Prettier over every source file (.prettierrc.json; .prettierignore leaves out generated files): the files
 * whose text is not what the formatter writes, each printed with the command that fixes it.
 */
async function formatCheck(env) {
  const bin = path.join(ROOT, "node_modules", "prettier", "bin", "prettier.cjs");
  /** Prettier's answer for `files` (the glob when null): the files it would change, and whether it failed. */
  const prettier = async (files) => {
    const { code, output } = await run(
      // An ignored file named alone (a generated one that changed) is skipped, not "no files matching".
      ...lintCommand([
        bin,
        "--list-different",
        "--no-error-on-unmatched-pattern",
        ...(files ?? FORMATTED),
      ]),
      { env, quiet: true },
    );
    const lines = output
      .split("\n")
      .map((l) => stripAnsi(l).trim())
      .filter(Boolean);
    for (const l of lines.filter((l) => l.startsWith("["))) console.log(l); // its own errors ("[error] ...")
    return { unformatted: lines.filter((l) => !l.startsWith("[")), failed: code > 1 ? code : 0 };
  };
  let result;
  try {
    // Only the files whose text Prettier has not passed before on this machine (scripts/lib/format-cache.mjs).
    const settings = [
      JSON.parse(
        fs.readFileSync(path.join(ROOT, "node_modules", "prettier", "package.json"), "utf8"),
      ).version,
      ...[".prettierrc.json", ".prettierignore"].map(readIfThere),
    ].join("\0");
    result = await unformattedFiles({
      root: ROOT,
      files: formattableFiles(ROOT, FORMATTED_EXTENSIONS),
      settings,
      cacheDir: path.join(CACHE_DIR, "prettier-formatted"),
      check: prettier,
    });
    info(
      `prettier: ${result.checked} of ${result.total} file(s) checked (the others' text passed before)`,
    );
  } catch (err) {
    warn(`prettier over every file (no memory of earlier checks: ${String(err).split("\n")[0]})`);
    result = await prettier(null);
  }
  const { unformatted } = result;
  for (const f of unformatted) console.log(`${f}: not formatted (npx prettier --write ${f})`);
  info(`prettier: ${unformatted.length} file(s) not formatted`);
  if (result.failed) return { unformatted, note: `prettier exited with ${result.failed}` };
  return { unformatted };
}

/**
 * The TypeScript compiler over the whole project (tsconfig.json, no output): one pass when it finds nothing, else
 * one failure per file with an error, each error printed. The check runs on TypeScript 7, the compiler written in
 * Go (package alias `typescript-7`): 15 CPU-s where TypeScript 5 took 46
 * (docs/decisions/0054-type-check-on-typescript-7.md), about 3 when it is incremental from a record (ADR 0059).
 * TypeScript 5 stays the `typescript` package: typescript-eslint and the editors load its JavaScript API, which
 * TypeScript 7 does not have.
 */
async function typeCheck(env) {
  const bin = path.join(ROOT, "node_modules", "typescript-7", "bin", "tsc");
  // TypeScript's own incremental check: its record (the text hash and findings of every file it read) lies in the
  // clone, where its relative paths hold, and is kept between clones in the per-user cache, one per lock file
  // (docs/decisions/0059-type-check-incremental-across-clones.md).
  const record = path.join(DATA_DIR, "tsc-noemit.tsbuildinfo");
  const kept = path.join(
    CACHE_DIR,
    "tsc-incremental",
    `${createHash("sha256").update(readIfThere("package-lock.json")).digest("hex").slice(0, 24)}.tsbuildinfo`,
  );
  if (!fs.existsSync(record) && fs.existsSync(kept)) {
    fs.mkdirSync(path.dirname(record), { recursive: true });
    fs.copyFileSync(kept, record);
  }
  const args = [bin, "--noEmit", "-p", ".", "--incremental", "--tsBuildInfoFile", record];
  const { code, output } = await run(...lintCommand(args), {
    env,
    quiet: true,
  });
  if (fs.existsSync(record)) {
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.copyFileSync(record, `${kept}.${process.pid}`);
    fs.renameSync(`${kept}.${process.pid}`, kept);
  }
  const errors = stripAnsi(output)
    .split("\n")
    .filter((l) => /^\S.*\(\d+,\d+\): error TS\d+/.test(l));
  for (const e of errors) console.log(e);
  const files = new Set(errors.map((e) => e.slice(0, e.indexOf("("))));
  info(`tsc: ${errors.length} error(s) in ${files.size} file(s)`);
  if (code !== 0 && errors.length === 0)
    return { passed: 0, failed: 1, note: `tsc exited with ${code}` };
  return {
    passed: files.size === 0 ? 1 : 0,
    failed: files.size,
    note: files.size ? `${files.size} file(s) with type errors` : undefined,
  };
}

/** The lint suite's counts with the type check's added. */
function addTypeCheck(lint, types) {
  const note = [lint.note, types.note].filter(Boolean).join("; ");
  return {
    ...lint,
    passed: lint.passed + types.passed,
    failed: lint.failed + types.failed,
    note: note || undefined,
  };
}

/** The source files the formatter owns (what .prettierignore does not leave out). */
const FORMATTED_EXTENSIONS = ["ts", "tsx", "mjs", "js", "css"];
/** What ESLint is given (eslint.config.mjs decides which it lints): the JavaScript and TypeScript files. */
const LINTED_EXTENSIONS = ["ts", "tsx", "mts", "cts", "mjs", "js", "cjs", "jsx"];
const FORMATTED = [`**/*.{${FORMATTED_EXTENSIONS.join(",")}}`];

/** The lint suite's counts: ESLint's files, plus one failure per file the formatter would change. */
function addFormatCheck(lint, format) {
  const failed = lint.failed + format.unformatted.length + (format.note ? 1 : 0);
  const note = [
    lint.note,
    format.note,
    format.unformatted.length ? `${format.unformatted.length} file(s) not formatted` : null,
  ]
    .filter(Boolean)
    .join("; ");
  return { ...lint, failed, note: note || undefined };
}

/**
 * e2e files that run in a second Vitest process beside the rest of the e2e suite (one after the other in it):
 * the two longest (the worker-kill tests, on their own worker and task queue, and the accessibility scans) and
 * eleven more, so that both processes take about as long. Orders, stock-import and the fuzz run joined when the
 * kill tests fell from ~150 s to ~50 s and the accessibility scans from ~60 s to ~40 s (the fuzz run, 29 s, was
 * traded for the IDOR matrix, 6 s); accounts and bad-input joined when the Temporal UI's codec walk and the
 * reconciliation's steps made the other process the longer (a quiet clean clone had ended them 21 s apart, then
 * 3 s); swap-modify joined when the markdown walks did the same (23 s apart); checkout went back when the
 * production refusals (19 s → 3 s) and the webhook inbox's waits (37 s → 16 s) shortened the other process;
 * my-listings joined when swap-checkout's tests ran at the same time (45 s → 25 s); production-safety and then
 * two-factor when the cheaper hydration waits left the other process ending 6-15 s later.
 * Each file makes its own retailers and orders and asserts nothing about the others'. The rest of the
 * suite keeps its order (the canaries last: they read what the files before them left). A run with --files runs
 * one process. A third process was tried twice, from the start and once lint ends: both runs took longer
 * (412 s against 401 s; 413.8 s against 403.2 s), the box being busy throughout (docs/performance.md "Test
 * command").
 */
const E2E_LANES = [
  [
    "tests/e2e/reliability.test.ts",
    "tests/e2e/accessibility.test.ts",
    "tests/e2e/cart.test.ts",
    "tests/e2e/settings.test.ts",
    "tests/e2e/wizard.test.ts",
    "tests/e2e/swap-checkout.test.ts",
    "tests/e2e/orders-roundtrip.test.ts",
    "tests/e2e/orders.test.ts",
    "tests/e2e/stock-import.test.ts",
    "tests/e2e/fuzz.test.ts",
    "tests/e2e/accounts.test.ts",
    "tests/e2e/bad-input.test.ts",
    "tests/e2e/swap-modify.test.ts",
    "tests/e2e/my-listings.test.ts",
    "tests/e2e/production-safety.test.ts",
    "tests/e2e/two-factor.test.ts",
  ],
];

async function vitest(suite, env, { prefix } = {}) {
  if (suite !== "e2e" || fileFilters.length > 0)
    return vitestProcess(suite, env, { report: `${suite}.json`, filters: fileFilters, prefix });
  const lanes = await Promise.all([
    vitestProcess(suite, env, {
      report: "e2e.json",
      filters: E2E_LANES.flat().flatMap((f) => ["--exclude", f]),
    }),
    ...E2E_LANES.map((files, i) =>
      vitestProcess(suite, env, {
        report: `e2e-lane-${i + 2}.json`,
        filters: files,
        prefix: `e2e ${i + 2}`,
      }),
    ),
  ]);
  const sum = (k) => lanes.reduce((n, l) => n + l[k], 0);
  return {
    passed: sum("passed"),
    failed: sum("failed"),
    skipped: sum("skipped"),
    fileTimes: lanes.flatMap((l) => l.fileTimes ?? []),
    note:
      lanes
        .map((l, i) => l.note && (i === 0 ? l.note : `lane ${i + 1}: ${l.note}`))
        .filter(Boolean)
        .join("; ") || undefined,
  };
}

/** One Vitest process over one project (`filters`: file filters or --exclude), counted from its JSON report. */
async function vitestProcess(suite, env, { report: name, filters, prefix }) {
  const report = path.join(RESULTS_DIR, name);
  fs.rmSync(report, { force: true });
  const args = [
    path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--project",
    `${suite}*`, // a suite and its "-isolated" part (vitest.config.ts)
    "--passWithNoTests",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...filters,
  ];
  const { code } = await run(process.execPath, args, { env, prefix });
  let counts = { passed: 0, failed: 0, skipped: 0 };
  let note;
  try {
    counts = readReport(report);
  } catch {
    note = "no report (vitest crashed)";
  }
  if (code !== 0 && counts.failed === 0) {
    counts.failed = 1;
    note ??= `vitest exited with ${code}`;
  }
  return { ...counts, note };
}

// ------------------------------------------------------------------ suite set-ups

/** Each returns { env, teardown }. */
const setups = {
  async lint() {
    return { env: {} };
  },
  async unit() {
    return { env: {} };
  },
  async db() {
    return { env: {} };
  },
  async workflows({ tools }) {
    // The time-skipping test server for most files; the CLI dev server for the list queries of README "Ops"
    // (tests/workflows/ops-queries.test.ts starts its own, on a free port).
    return {
      env: { TEMPORAL_TEST_SERVER_PATH: tools.testServer, TEMPORAL_CLI_PATH: tools.temporal },
    };
  },
  async contract({ tools }) {
    await freeTestPort(T.stripeHttp);
    await freeTestPort(T.stripeHttps);
    const svc = startService(
      "stripe-mock",
      tools.stripeMock,
      ["-http-port", String(T.stripeHttp), "-https-port", String(T.stripeHttps)],
      {
        logFile: path.join(RESULTS_DIR, "stripe-mock.log"),
      },
    );
    await waitForPort(T.stripeHttp, { svc, what: "stripe-mock", timeoutMs: 30_000 });
    return {
      env: {
        STRIPE_MOCK_URL: `http://127.0.0.1:${T.stripeHttp}`,
        STRIPE_API_HOST: "127.0.0.1",
        STRIPE_API_PORT: String(T.stripeHttp),
        STRIPE_API_PROTOCOL: "http",
        STRIPE_SECRET_KEY: "sk_test_123",
        // A Stripe key requires its webhook secret (domain/env.ts): tests that read the environment (the test database) need it.
        STRIPE_WEBHOOK_SECRET: "whsec_contract_test",
      },
      teardown: () => svc.stop(),
    };
  },
  async e2e({ tools, pg, baseEnv }) {
    const { migrateAndSeed, tsxArgs, webCommand } = await import("./lib/stack.mjs");
    const { startTemporalDev } = await import("./lib/temporal.mjs");
    const { ensureDatabase } = await import("./lib/pg.mjs");
    const services = [];
    const teardown = async () => {
      for (const s of services.reverse()) await s.stop();
    };
    try {
      const buildDir = path.join(DATA_DIR, "e2e-build");
      fs.rmSync(path.join(RESULTS_DIR, "e2e"), { recursive: true, force: true }); // old failure screenshots
      const origin = `http://localhost:${T.app}`;

      // 1. production build (into .data/e2e-build so a running `npm run dev` keeps its build/), while 2. the
      // database is seeded and Temporal starts (neither needs the build).
      step(
        "e2e: building the app (remix build + workflow bundle) beside the database and Temporal",
      );
      let tb = Date.now();
      const REMIX_BUILD_DIR = path.relative(ROOT, buildDir);
      const buildEnv = { ...baseEnv, NODE_ENV: "production", REMIX_BUILD_DIR };
      const build = async () => {
        let r = await run(
          process.execPath,
          [path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"],
          {
            env: buildEnv,
            prefix: "build",
          },
        );
        if (r.code !== 0) throw new Error("remix build failed");
        if (fs.existsSync(path.join(ROOT, "workflows", "index.ts"))) {
          // What `tsx workers/bundle.ts` writes, kept in the workflow tests' bundle cache too: the
          // workflows suite, later in the run, loads it instead of compiling the workflows again.
          r = await run(
            process.execPath,
            ["--import", "tsx", path.join(ROOT, "tests", "setup", "workflow-bundle.ts")],
            { env: buildEnv, prefix: "build" },
          );
          if (r.code !== 0) throw new Error("workflow bundle failed");
        }
      };

      // 2. a separate, seeded database
      const dbUrl = await ensureDatabase(pg.serverUrl, DB_NAMES.e2e, { recreate: true });
      const env = {
        ...baseEnv,
        NODE_ENV: "production",
        APP_ENV: "test",
        PORT: String(T.app),
        APP_ORIGIN: origin,
        REMIX_BUILD_DIR,
        DATABASE_URL: dbUrl,
        TEMPORAL_ADDRESS: `127.0.0.1:${T.temporal}`,
        TEMPORAL_NAMESPACE: "default",
        TEMPORAL_TASK_QUEUE: "marketplace",
        TEMPORAL_UI_URL: `http://localhost:${T.temporalUi}`,
        // Not the default zone (America/New_York): tests/e2e/time-zone.test.ts proves pages, e-mails and PDFs
        // follow MARKETPLACE_TZ (docs/product/windows.md, "Time zone").
        MARKETPLACE_TZ: "America/Los_Angeles",
      };
      await freeTestPort(T.temporal);
      await freeTestPort(T.app);
      // File-backed, fresh each run, so the history canary (tests/e2e/history-canary.test.ts) can search
      // Temporal's own tables (the file and its -wal) besides the exported histories.
      const temporalDb = path.join(DATA_DIR, "e2e-temporal", "temporal.db");
      fs.rmSync(path.dirname(temporalDb), { recursive: true, force: true });
      const temporal = startTemporalDev({
        bin: tools.temporal,
        port: T.temporal,
        uiPort: null,
        dbFile: temporalDb,
        name: "temporal-e2e",
        quiet: true,
      }).then((t) => {
        services.push({ stop: t.stop }); // stopped at the end even when the build fails
        return t;
      });
      await Promise.all([build(), migrateAndSeed(env, { quiet: true }), temporal]);
      info(`built, seeded and Temporal up in ${fmtMs(Date.now() - tb)}`);

      // 3. worker + app
      step(`e2e: starting the worker and remix-serve on :${T.app}`);
      if (fs.existsSync(path.join(ROOT, "workers", "main.ts"))) {
        const worker = startService("worker", process.execPath, tsxArgs("workers/main.ts"), {
          env,
          logFile: path.join(RESULTS_DIR, "e2e-worker.log"),
        });
        services.push({ stop: () => worker.stop({ timeoutMs: 15_000 }) });
      } else warn("workers/main.ts not found: e2e runs without a Temporal worker");
      const app = startService("app", process.execPath, webCommand("prod", buildDir), {
        env,
        logFile: path.join(RESULTS_DIR, "e2e-app.log"),
      });
      services.push({ stop: () => app.stop() });
      tb = Date.now();
      await waitForHttp(`${origin}/signin`, { svc: app, timeoutMs: 120_000 });
      info(
        `app answers on ${origin}/signin (${fmtMs(Date.now() - tb)}); logs in test-results/e2e-app.log, e2e-worker.log`,
      );
      return {
        env: {
          ...env,
          E2E_BASE_URL: origin,
          CHROMIUM_PATH: tools.chromium,
          // tests/e2e/codec-order-input.test.ts starts this Web UI on TEMPORAL_UI_URL in front of this Temporal
          TEMPORAL_UI_SERVER_PATH: tools.temporalUi,
          E2E_RESULTS_DIR: path.join(RESULTS_DIR, "e2e"),
          E2E_TEMPORAL_DB: temporalDb,
        },
        teardown,
      };
    } catch (e) {
      await teardown();
      throw e;
    }
  },
};

// ------------------------------------------------------------------ main

/** One suite: its services set up, its tests run, its services stopped; its counts go to `results`. */
/** Settles once the e2e suite's set-up has ended, well or not (the other lanes start then). */
let e2eSetUpEnded;
const e2eSetUp = new Promise((resolve) => (e2eSetUpEnded = resolve));

async function runSuite(suite, { tools, pg, dbError, baseEnv, prefix }) {
  const ts = Date.now();
  console.log(`\n${c.bold(c.cyan(`━━ ${suite} ━━`))}`);
  let setup;
  try {
    if (tools instanceof Error) throw tools;
    if (NEEDS_DB.has(suite) && !pg) throw new Error(`no test database (${dbError})`);
    setup = await setups[suite]({ tools, pg, baseEnv });
  } catch (e) {
    if (suite === "e2e") e2eSetUpEnded();
    fail(`${suite}: set-up failed: ${e.message}`);
    results.push({
      suite,
      passed: 0,
      failed: 1,
      skipped: 0,
      ms: Date.now() - ts,
      note: "set-up failed",
    });
    return;
  }
  if (suite === "e2e") e2eSetUpEnded();
  try {
    const env = { ...baseEnv, ...setup.env };
    const r =
      suite === "lint"
        ? addTypeCheck(
            addFormatCheck(await eslint(env, { prefix }), await formatCheck(env)),
            await typeCheck(env),
          )
        : await vitest(suite, env, { prefix });
    results.push({ suite, ...r, ms: Date.now() - ts });
  } finally {
    await setup.teardown?.();
  }
}

async function main() {
  step(`npm test: ${selected.join(", ")}`);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  // The test ports are machine-wide, so is the lock: runs from any clone wait for each other. It is taken
  // before `npm ci`, which replaces node_modules: never under a run that is still using it.
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  await acquireLock(path.join(CACHE_DIR, "test-ports.lock"), {
    what: "the test ports (another npm test)",
    log: info,
  });
  await ensureNodeModules();
  // Tools are ensured per suite below: a missing tool fails its suite, not the whole run.
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  const baseEnv = {
    NODE_ENV: "test",
    APP_ENV: "test",
    ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}),
  };
  let pg = null;
  let dbError = null;
  if (selected.some((s) => NEEDS_DB.has(s))) {
    try {
      const { startEmbeddedPostgres, ensureDatabase } = await import("./lib/pg.mjs");
      const { migrateAndSeed } = await import("./lib/stack.mjs");
      const tp = Date.now();
      const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
      if (external) {
        // Never the database itself: a `marketplace_test` database on that server, recreated.
        step(
          `test database on the server of ${process.env.TEST_DATABASE_URL ? "TEST_DATABASE_URL" : "DATABASE_URL"}`,
        );
        pg = { serverUrl: external, stop: async () => {} };
      } else {
        step(`starting test Postgres on :${T.postgres} (.data/pg-test, wiped)`);
        await freeTestPort(T.postgres);
        pg = await startEmbeddedPostgres({
          name: "pg-test",
          dataDir: path.join(DATA_DIR, "pg-test"),
          port: T.postgres,
          wipe: true,
          fast: true,
          quiet: true,
        });
      }
      baseEnv.DATABASE_URL = await ensureDatabase(pg.serverUrl, DB_NAMES.test, { recreate: true });
      await migrateAndSeed({ ...baseEnv }, { seed: false, quiet: true });
      info(`${DB_NAMES.test} ready and migrated (${fmtMs(Date.now() - tp)})`);
    } catch (e) {
      // Suites that need the database fail; the others still run.
      fail(`test database: ${e.message}`);
      dbError = e.message.split("\n")[0];
      pg = null;
    }
  }

  // Tools first, one after another (two suites may need the same one, installed once).
  const tools = {};
  for (const suite of selected) {
    try {
      tools[suite] = await ensureTools(NEEDS_TOOLS[suite] ?? []);
    } catch (e) {
      tools[suite] = e;
    }
  }
  // Three lanes at the same time, their output prefixed with the suite's name: the e2e suite (the longest, itself
  // in two Vitest processes), lint (no database), and the suites that share the test database, one after another.
  const lanes = [["e2e"], ["lint"], ["unit", "db", "workflows", "contract"]]
    .map((lane) => lane.filter((s) => selected.includes(s)))
    .filter((lane) => lane.length > 0);
  const prefixed = lanes.length > 1;
  // The e2e suite is the run's longest lane and its set-up (the build, the seeded database, Temporal, the worker
  // and the app) holds its two processes back: the other lanes wait for that set-up instead of taking the cores
  // from it (they end minutes before the e2e suite all the same).
  const waitForE2e = selected.includes("e2e") ? e2eSetUp : Promise.resolve();
  const runSuites = async (suites) => {
    if (!suites.includes("e2e")) await waitForE2e;
    for (const suite of suites)
      await runSuite(suite, {
        tools: tools[suite],
        pg,
        dbError,
        baseEnv,
        prefix: prefixed && suite !== "e2e" ? suite : undefined,
      });
  };
  await Promise.all(lanes.map(runSuites));
  await stopAll();
}

let code = 1;
try {
  await main();
} catch (e) {
  fail(e.stack || e.message);
  results.push({
    suite: "setup",
    passed: 0,
    failed: 1,
    skipped: 0,
    ms: 0,
    note: e.message.split("\n")[0].slice(0, 80),
  });
  await stopAll().catch(() => {});
}
finished = true;
const failed = summarize();
code = failed > 0 ? 1 : 0;
process.exit(code);

#!/usr/bin/env node
// npm run bench:uploads — the staff's bulk retailer upload with 2,000 rows, on the production build: how long a
// staff member waits (issue "staff: retailers", goal: preview and submit of 2,000 rows in under 30 s). The tests
// check what the upload does (tests/db/retailer-upload.test.ts, tests/e2e/retailer-admin.test.ts); its speed is
// measured here, not by a timed test.
//
//  1. Its own production-like stack (scripts/lib/prod-stack.mjs: remix build into .data/bench-uploads/build
//     unless --no-build, fresh embedded Postgres :54370, Temporal :7263, worker, web :3210).
//  2. A staff login with every permission (the shared factories), signed in over HTTP (tests/e2e/http.ts).
//  3. --runs R times (3): a workbook of 2,000 good rows with a run tag (tests/e2e/xlsx-fixtures.ts, the tests'
//     own), then as a browser posts it: upload (multipart) → the preview page ("2000 rows, 2000 good") →
//     submit (confirmed) → the summary page (2000 created). Each phase timed, the web process's and
//     Postgres's CPU read from /proc, and the welcome e-mails counted in the outbox.
//  4. Prints a table and writes it into docs/performance.md between <!-- uploads:begin --> and
//     <!-- uploads:end --> (--no-write skips). Exit 1 when a run failed or missed the goal.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cpuSnapshot } from "./lib/cpu.mjs";
import { fmtMs, info, step, warn } from "./lib/log.mjs";
import { beforeTestCommand, writeDoc } from "./lib/perf-doc.mjs";
import { onShutdown } from "./lib/proc.mjs";

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.join(path.dirname(SELF), "..");
const PORTS = { app: 3210, temporal: 7263, postgres: 54370 };
const DATA = path.join(ROOT, ".data", "bench-uploads");
const ROWS = 2000;
const GOAL_MS = 30_000;
const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf("--runs") + 1]) || 3;
const BUILD = !argv.includes("--no-build");
const WRITE = !argv.includes("--no-write");

function postgresPid() {
  const pidFile = path.join(DATA, "pg", "postmaster.pid");
  return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]) : 0;
}

/** The figures into docs/performance.md (their own section, before "## Test command", when missing). */
function writeUploadsDoc(report) {
  const section = (block) =>
    `## Retailer upload\n\n\`npm run bench:uploads\` (scripts/bench-uploads.mjs) rewrites the block below.\n\n${block}\n`;
  writeDoc({
    key: "uploads",
    by: "npm run bench:uploads",
    report,
    place: beforeTestCommand(section),
  });
}

/**
 * One run: a workbook of `count` good rows uploaded, previewed, submitted and summarised as a browser posts it;
 * its phases' times, the web process's and Postgres's CPU, and what it created.
 */
async function uploadRun({ staff, dbh, baseUrl, parts, fixtures }, run, runTag, count) {
  const rows = Array.from({ length: count }, (_, i) => fixtures.goodRow(runTag, i));
  const file = await fixtures.uploadWorkbook(rows);
  const cpu0 = cpuSnapshot(parts);
  const t0 = performance.now();
  const form = new FormData();
  form.set("intent", "upload");
  form.set("excel_file", new Blob([new Uint8Array(file)]), `bench-${runTag}.xlsx`);
  const up = await staff.request("/admin/retailer-upload", { method: "POST", body: form });
  if (up.status !== 303 || !up.location) throw new Error(`upload: HTTP ${up.status}`);
  const id = new URL(up.location, baseUrl).searchParams.get("upload");
  const preview = await staff.get(`/admin/retailer-upload?upload=${id}`);
  const t1 = performance.now();
  if (!preview.body.replaceAll("<!-- -->", "").includes(`${rows.length} rows, ${rows.length} good`))
    throw new Error("the preview does not show every row good");
  const sub = await staff.postForm("/admin/retailer-upload", {
    intent: "submit",
    upload: id,
    confirmed: "yes",
  });
  if (sub.status !== 303) throw new Error(`submit: HTTP ${sub.status}`);
  const summary = await staff.get(`/admin/retailer-upload?upload=${id}`);
  const t2 = performance.now();
  const cpu1 = cpuSnapshot(parts);
  const created = Number(/data-testid="created">(\d+)</.exec(summary.body)?.[1] ?? -1);
  const [{ n: mails }] =
    await dbh.sql`select count(*)::int n from outbox_emails where kind = 'retailer_welcome' and to_email like ${`contact-${runTag}-%`}`;
  if (created !== rows.length || mails !== rows.length)
    throw new Error(
      `run ${run}: ${created} created, ${mails} welcome e-mails (expected ${rows.length} each)`,
    );
  return {
    run,
    bytes: file.length,
    previewMs: t1 - t0,
    submitMs: t2 - t1,
    totalMs: t2 - t0,
    webCpu: cpu1.web - cpu0.web,
    pgCpu: cpu1.postgres - cpu0.postgres,
    created,
    mails,
  };
}

/** The report (markdown) and whether the goal was met. */
async function uploadsReport(results, baseUrl) {
  const worst = Math.max(...results.map((r) => r.totalMs));
  const met = worst < GOAL_MS;
  const kb = (results[0].bytes / 1024).toFixed(0);
  const report = [
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${(await import("node:os")).cpus().length} cores, Node ${process.version}, against the bench's own production build ` +
      `(${baseUrl}; fresh Postgres :${PORTS.postgres}, migrated + demo seed). Each run: a workbook of ${ROWS.toLocaleString("en-US")} good rows (${kb} KiB), posted by a staff login as a browser posts it.`,
    "",
    "| run | upload + preview page | submit + summary page | in all | web CPU | Postgres CPU | created | welcome e-mails |",
    "|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.run} | ${fmtMs(r.previewMs)} | ${fmtMs(r.submitMs)} | **${fmtMs(r.totalMs)}** | ${fmtMs(r.webCpu)} | ${fmtMs(r.pgCpu)} | ${r.created} | ${r.mails} |`,
    ),
    "",
    `Goal: preview and submit of ${ROWS.toLocaleString("en-US")} rows in under ${GOAL_MS / 1000} s: slowest run ${fmtMs(worst)}, **${met ? "met" : "not met"}**.`,
  ].join("\n");
  return { report, met };
}

/** A staff login with every permission, signed in over HTTP; the runs' shared pieces. */
async function signedInStaff(stack) {
  process.env.E2E_BASE_URL = stack.baseUrl;
  const { HttpClient } = await import("../tests/e2e/http.ts");
  const { createDb } = await import("../db/client.ts");
  const F = await import("../tests/factories/index.ts");
  const fixtures = await import("../tests/e2e/xlsx-fixtures.ts");
  const dbh = createDb(stack.databaseUrl, { max: 2 });
  const tag = Date.now().toString(36);
  const email = `bench-uploads-${tag}@bench.test`;
  await F.createStaffUser(dbh.db, { email });
  const staff = new HttpClient(stack.baseUrl);
  await staff.signIn(email, F.DEFAULT_TEST_PASSWORD);
  const pgPid = postgresPid();
  // CPU of the web process and of Postgres, each with its descendants (Postgres forks a backend per connection).
  const parts = { web: { tree: stack.pids.web[0] }, postgres: pgPid ? { tree: pgPid } : [] };
  return { staff, dbh, baseUrl: stack.baseUrl, parts, fixtures, tag };
}

async function main() {
  const { startProdStack, INHERITED_STACK_VARS } = await import("./lib/prod-stack.mjs");
  for (const k of INHERITED_STACK_VARS) delete process.env[k];
  const stack = await startProdStack({ ports: PORTS, dataDir: DATA, build: BUILD });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await stack.stop();
    stopped = true;
  };
  onShutdown(stop);
  try {
    const bench = await signedInStaff(stack);
    // Warm the process (JIT, pools): the upload page and a small upload (run 0, not counted).
    await bench.staff.get("/admin/retailer-upload");
    const results = [];
    for (let run = 0; run <= RUNS; run++) {
      const warm = run === 0;
      const r = await uploadRun(bench, run, `b${bench.tag}r${run}`, warm ? 20 : ROWS);
      if (warm) continue;
      results.push(r);
      info(
        `run ${run}: upload + preview ${fmtMs(r.previewMs)}, submit + summary ${fmtMs(r.submitMs)}, in all ${fmtMs(r.totalMs)}; CPU web ${fmtMs(r.webCpu)}, Postgres ${fmtMs(r.pgCpu)}`,
      );
    }
    await bench.dbh.close();
    const { report, met } = await uploadsReport(results, stack.baseUrl);
    console.log(`\n${report}\n`);
    if (WRITE) {
      writeUploadsDoc(report);
      info(
        "figures written to docs/performance.md (<!-- uploads:begin --> … <!-- uploads:end -->)",
      );
    }
    if (!met) {
      warn("the goal was missed");
      process.exitCode = 1;
    }
  } finally {
    await stop();
  }
}

if (!process.env.BENCH_UPLOADS_UNDER_TSX) {
  // The tests' factories and fixtures are TypeScript: run under tsx.
  const child = spawn(process.execPath, ["--import", "tsx", SELF, ...argv], {
    stdio: "inherit",
    env: { ...process.env, BENCH_UPLOADS_UNDER_TSX: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  step(
    `bench-uploads: ${RUNS} runs of ${ROWS.toLocaleString("en-US")} rows on the production build`,
  );
  await main().catch((e) => {
    console.error(e?.stack ?? e);
    process.exitCode = 1;
  });
}

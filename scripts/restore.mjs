#!/usr/bin/env node
// npm run restore [-- <backup>] — brings the `npm run prod` stack back from one of its backups
// (docs/operations.md "Backups and restore"; scripts/lib/backup.mjs). Without an argument: lists the backups.
// With the stack stopped: the current cluster (.data/prod/pg) and uploads are kept aside as
// *.before-restore-<time>, the backup's are put in their place, PostgreSQL replays the backup's WAL, the sandbox
// providers' records are kept from the replaced cluster, the sequences jump ahead and the restore is recorded
// (orders created before it ask the provider before each movement: docs/decisions/0048-restore-asks-the-provider.md).
// Then start with `OUTBOX_PAUSED=true npm run prod` to hold the e-mails a restore repeats until they are checked.
import fs from "node:fs";
import path from "node:path";
import { c, fail, info, step } from "./lib/log.mjs";
import { ROOT } from "./lib/paths.mjs";
import { backupsDirOf, PROD_DATA_DIR, readProdSettings } from "./lib/prod-settings.mjs";
import { ensureNodeModules } from "./lib/tools.mjs";

const arg = process.argv[2];
const backupsDir = backupsDirOf(process.env);

try {
  await ensureNodeModules();
  const { listBackups, restoreBackup } = await import("./lib/backup.mjs");
  const all = listBackups(backupsDir);
  if (!arg) {
    console.log(`backups in ${path.relative(ROOT, backupsDir) || backupsDir} (oldest first):`);
    for (const b of all) console.log(`  ${b.name}   taken ${b.takenAt.toISOString()}`);
    if (!all.length) console.log("  (none)");
    console.log("npm run restore -- <name>   restores one (stop npm run prod first)");
    process.exit(0);
  }
  if (process.env.DATABASE_URL) {
    fail("DATABASE_URL is set: restore that server from its own backups (docs/operations.md)");
    process.exit(2);
  }
  const backupDir = fs.existsSync(arg) ? path.resolve(arg) : path.join(backupsDir, arg);
  if (!fs.existsSync(path.join(backupDir, "backup.json"))) {
    fail(`${arg}: no backup there (npm run restore lists them)`);
    process.exit(2);
  }
  const { settings, problems } = readProdSettings(process.env);
  if (problems.length) {
    fail(problems.join("\n"));
    process.exit(2);
  }
  step(`restoring ${path.relative(ROOT, backupDir)}`);
  const r = await restoreBackup({
    backupDir,
    dataDir: path.join(PROD_DATA_DIR, "pg"),
    uploadDir: process.env.UPLOAD_DIR
      ? path.resolve(process.env.UPLOAD_DIR)
      : path.join(PROD_DATA_DIR, "uploads"),
    port: settings.ports.postgres,
    log: info,
  });
  info(
    `restored to ${r.takenAt.toISOString()}; kept aside: ${r.keptAside.join(", ") || "nothing"}`,
  );
  console.log(
    `\n${c.bold("Next")}: ${c.cyan("OUTBOX_PAUSED=true npm run prod")}, check /admin/outbox (docs/operations.md "Backups and restore"), then start again without it.`,
  );
} catch (e) {
  fail(e.stack || e.message);
  process.exit(1);
}

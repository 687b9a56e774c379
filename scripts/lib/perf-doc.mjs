// docs/performance.md, where the bench scripts keep their figures: each script owns blocks between
// <!-- <key>:begin (written by <command>) --> and <!-- <key>:end --> and rewrites them on every run.
// Node built-ins only.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./paths.mjs";

export const PERFORMANCE_DOC = path.join(ROOT, "docs", "performance.md");

/**
 * Writes `report` as the block `key` of docs/performance.md, marked as written by `by` (the command): in place
 * of the block when it is there, else where `place(doc, block)` puts it (a new section).
 */
export function writeDoc({ key, by, report, place }) {
  let doc = fs.existsSync(PERFORMANCE_DOC)
    ? fs.readFileSync(PERFORMANCE_DOC, "utf8")
    : "# Performance\n";
  const block = `<!-- ${key}:begin (written by ${by}) -->\n${report}\n<!-- ${key}:end -->`;
  const re = new RegExp(`<!-- ${key}:begin[^>]*-->[\\s\\S]*?<!-- ${key}:end -->`);
  doc = re.test(doc) ? doc.replace(re, () => block) : place(doc, block);
  fs.writeFileSync(PERFORMANCE_DOC, doc);
}

/** A `place` for writeDoc: `section(block)` before the "## Test command" section, else at the end. */
export const beforeTestCommand = (section) => (doc, block) =>
  /\n## Test command/.test(doc)
    ? doc.replace(/\n## Test command/, () => `\n${section(block)}\n## Test command`)
    : `${doc.trimEnd()}\n\n${section(block)}`;

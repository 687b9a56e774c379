// The formatter check's memory: the contents Prettier has already found formatted, on this machine.
//
// `npm test` asks Prettier only about the files whose exact text it has not passed before (under the same Prettier
// version, .prettierrc.json and .prettierignore), so a run after a commit that touched ten files checks those ten
// (Prettier over every file is about 19 CPU-s). The memory is keyed by content, not by path, so it serves every
// clone on the machine; a file Prettier would change is never remembered, and is reported on every run until it
// is formatted. It lives in the per-user cache beside node_modules' copy (scripts/lib/paths.mjs CACHE_DIR).
// Why: docs/decisions/0057-formatter-check-remembers-formatted-text.md.
//
// Only Node built-ins: it runs before node_modules may exist.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const sha = (text) => createHash("sha256").update(text).digest("hex");

/** The files `prettier "**\/*.{ext}"` reads: git's tracked and untracked-but-not-ignored files with the extensions. */
export function formattableFiles(root, extensions) {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  )
    .split("\0")
    .filter(Boolean);
  const ext = new RegExp(`\\.(${extensions.join("|")})$`);
  return [...new Set(listed)]
    .filter((f) => ext.test(f) && fs.existsSync(path.join(root, f)))
    .sort();
}

/**
 * The files Prettier would change, asking `check(files)` (which answers that list for the files given) only about
 * the files whose text is not remembered as formatted. `settings` is what else decides the answer (the version,
 * the config and ignore files' text): another value starts another memory.
 */
export async function unformattedFiles({ root, files, settings, cacheDir, check }) {
  const memory = path.join(cacheDir, `${sha(settings).slice(0, 24)}.txt`);
  const known = new Set(fs.existsSync(memory) ? fs.readFileSync(memory, "utf8").split("\n") : []);
  const hashOf = new Map(files.map((f) => [f, sha(fs.readFileSync(path.join(root, f)))]));
  const unknown = files.filter((f) => !known.has(hashOf.get(f)));
  if (unknown.length === 0) return { unformatted: [], checked: 0, total: files.length };
  const result = await check(unknown);
  const bad = new Set(result.unformatted);
  if (!result.failed) {
    const learnt = unknown.filter((f) => !bad.has(f)).map((f) => hashOf.get(f));
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.appendFileSync(memory, learnt.map((h) => `${h}\n`).join(""));
  }
  return { ...result, checked: unknown.length, total: files.length };
}

// The lint suite's memory: the files its checks have already passed, on this machine.
//
// `npm test` asks Prettier only about the files whose exact text it has not passed before (under the same Prettier
// version, .prettierrc.json and .prettierignore), so a run after a commit that touched ten files checks those ten
// (Prettier over every file is about 19 CPU-s). That memory is keyed by content, not by path, so it serves every
// clone on the machine; a file Prettier would change is never remembered, and is reported on every run until it
// is formatted. ESLint has the same memory (rememberedCheck), keyed by path and content, under its config, the lock
// file and the list of files. Both live in the per-user cache beside node_modules' copy (scripts/lib/paths.mjs
// CACHE_DIR). Why: docs/decisions/0057-formatter-check-remembers-formatted-text.md and
// docs/decisions/0058-lint-remembers-passed-files.md.
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
  const result = await rememberedCheck({
    root,
    files,
    settings,
    cacheDir,
    key: (_file, text) => sha(text),
    check: async (unknown) => {
      const answer = await check(unknown);
      return { ...answer, bad: answer.unformatted };
    },
  });
  return { ...result, unformatted: result.bad };
}

/**
 * The general form: `check(unknown)` answers `{ bad, failed, seen? }` for the files given (`bad`: those it found
 * fault with; `seen`: those it looked at, when it passes over some, as ESLint over a file no config entry
 * matches); only files whose `key(file, text)` is not remembered are given to it. The files it looked at and passed
 * are remembered as passed, those it passed over as passed over; a file with a fault never is, and is given to
 * it on every run. A failed check (`failed` not 0) teaches nothing. Answers `{ ...check's answer, checked, total,
 * passed }`, `passed` counting the files passed now or remembered as passed (not those passed over).
 */
export async function rememberedCheck({ root, files, settings, cacheDir, key, check }) {
  const memory = path.join(cacheDir, `${sha(settings).slice(0, 24)}.txt`);
  const known = new Map(
    (fs.existsSync(memory) ? fs.readFileSync(memory, "utf8").split("\n") : [])
      .filter(Boolean)
      .map((line) => line.split(" "))
      .map(([k, how]) => [k, how ?? "passed"]),
  );
  const keyOf = new Map(files.map((f) => [f, key(f, fs.readFileSync(path.join(root, f)))]));
  const unknown = files.filter((f) => !known.has(keyOf.get(f)));
  const passedBefore = files.filter((f) => known.get(keyOf.get(f)) === "passed").length;
  if (unknown.length === 0)
    return { bad: [], failed: 0, checked: 0, total: files.length, passed: passedBefore };
  const result = await check(unknown);
  const bad = new Set(result.bad);
  const seen = new Set(result.seen ?? unknown);
  const good = unknown.filter((f) => !bad.has(f) && seen.has(f));
  if (!result.failed) {
    const learnt = [
      ...good.map((f) => keyOf.get(f)),
      ...unknown
        .filter((f) => !seen.has(f) && !bad.has(f))
        .map((f) => `${keyOf.get(f)} passed-over`),
    ];
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.appendFileSync(memory, learnt.map((line) => `${line}\n`).join(""));
  }
  return {
    ...result,
    checked: unknown.length,
    total: files.length,
    passed: passedBefore + good.length,
  };
}

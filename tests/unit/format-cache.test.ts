/**
 * The formatter check's memory (scripts/lib/format-cache.mjs): Prettier is asked only about text it has not
 * passed before; a file it would change is asked about again on every run; another Prettier version or config
 * starts afresh; a failed check teaches nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rememberedCheck, unformattedFiles } from "../../scripts/lib/format-cache.mjs";

let root: string;
let cacheDir: string;
let asked: string[][];

/** A check that calls every file containing "  " unformatted, and records what it was asked. */
const check = async (files: string[]) => {
  asked.push([...files]);
  return {
    unformatted: files.filter((f) => fs.readFileSync(path.join(root, f), "utf8").includes("  ")),
    failed: 0,
  };
};
const write = (f: string, text: string) => fs.writeFileSync(path.join(root, f), text);
const ask = (settings = "3.6.2") =>
  unformattedFiles({ root, files: ["a.ts", "b.ts", "c.ts"], settings, cacheDir, check });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "format-cache-"));
  cacheDir = path.join(root, ".cache");
  asked = [];
  write("a.ts", "const a = 1;\n");
  write("b.ts", "const  b = 2;\n");
  write("c.ts", "const c = 3;\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the formatter check's memory", () => {
  it("asks about every file once, then only about the unformatted one, which it reports every time", async () => {
    expect(await ask()).toMatchObject({ unformatted: ["b.ts"], checked: 3 });
    expect(await ask()).toMatchObject({ unformatted: ["b.ts"], checked: 1 });
    expect(asked).toEqual([["a.ts", "b.ts", "c.ts"], ["b.ts"]]);
    write("b.ts", "const b = 2;\n"); // formatted now
    expect(await ask()).toMatchObject({ unformatted: [], checked: 1 });
    expect(await ask()).toMatchObject({ unformatted: [], checked: 0 });
    expect(asked).toHaveLength(3);
  });

  it("asks again about a file whose text changed, and about every file under another version or config", async () => {
    await ask();
    write("a.ts", "const  a = 10;\n");
    expect(await ask()).toMatchObject({ unformatted: ["a.ts", "b.ts"], checked: 2 });
    expect(await ask("3.7.0")).toMatchObject({ unformatted: ["a.ts", "b.ts"], checked: 3 });
  });

  it("learns nothing from a check that failed", async () => {
    const failing = async (files: string[]) => {
      asked.push(files);
      return { unformatted: [], failed: 2 };
    };
    const opts = { root, files: ["a.ts", "c.ts"], settings: "x", cacheDir };
    expect(await unformattedFiles({ ...opts, check: failing })).toMatchObject({ failed: 2 });
    expect(await unformattedFiles({ ...opts, check })).toMatchObject({ checked: 2 });
  });

  it("the lint's form: keyed by path and text; a file the tool passes over is remembered as such, not counted as passed", async () => {
    /** Like ESLint: looks only at .ts files, finds fault with those containing "  ". */
    const lint = async (files: string[]) => {
      asked.push([...files]);
      const seen = files.filter((f) => f.endsWith(".ts"));
      return { seen, bad: seen.filter((f) => read(f).includes("  ")), failed: 0 };
    };
    const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");
    write("d.md", "const a = 1;\n"); // a.ts's text, elsewhere and passed over
    const opts = {
      root,
      files: ["a.ts", "b.ts", "d.md"],
      settings: "eslint",
      cacheDir,
      key: (file: string, text: Buffer) => `${file}:${text.toString("hex")}`,
      check: lint,
    };
    expect(await rememberedCheck(opts)).toMatchObject({ bad: ["b.ts"], checked: 3, passed: 1 });
    expect(await rememberedCheck(opts)).toMatchObject({ bad: ["b.ts"], checked: 1, passed: 1 });
    write("c.ts", read("a.ts")); // the same text under another path is asked about
    expect(await rememberedCheck({ ...opts, files: ["a.ts", "c.ts"] })).toMatchObject({
      bad: [],
      checked: 1,
      passed: 2,
    });
    expect(asked).toEqual([["a.ts", "b.ts", "d.md"], ["b.ts"], ["c.ts"]]);
  });
});

/**
 * The text of a PDF (poppler's `pdftotext -layout`, UTF-8), for tests that assert what a printed document
 * says: the packing slip, the shipper checklist, the carrier label. The PDF goes through a temporary file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";

/**
 * The text of `pdf` (with `flat`, white space folded: pdftotext breaks long lines where the PDF wraps them),
 * once checked that it is a PDF and that it says each of `texts`.
 */
export function printedText(
  pdf: Buffer,
  texts: readonly string[],
  opts: { flat?: boolean } = {},
): string {
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  const raw = pdfText(pdf);
  const text = opts.flat ? raw.replace(/\s+/g, " ").trim() : raw;
  for (const t of texts) expect(text).toContain(t);
  return text;
}

export function pdfText(pdf: Buffer | Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), "pdf-text-"));
  try {
    const file = path.join(dir, "doc.pdf");
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

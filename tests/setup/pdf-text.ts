/**
 * The text of a PDF (poppler's `pdftotext -layout`, UTF-8), for tests that assert what a printed document
 * says: the packing slip, the shipper checklist, the carrier label. The PDF goes through a temporary file.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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

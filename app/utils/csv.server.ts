/**
 * A CSV download streamed from a report's batches (db/queries/reports ReportSource): csv-stringify writes each
 * batch as it arrives from the database cursor, so memory holds one batch whatever the report's size. Every
 * cell is quoted and text a spreadsheet would run as a formula (= + - @) starts with an apostrophe
 * (neutraliseCsvCell, ADR 0016).
 */
import { stringify } from "csv-stringify/sync";
import { neutraliseCsvCell } from "../../domain/resources";
import type { ReportSource } from "../../db/queries/reports";

export function csvResponse(fileName: string, source: ReportSource): Response {
  const encoder = new TextEncoder();
  const batches = source.batches[Symbol.asyncIterator]();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await batches.next();
        const records = next.done
          ? []
          : next.value.map((row) => source.columns.map((c) => neutraliseCsvCell(row[c])));
        if (first || records.length > 0) {
          controller.enqueue(
            encoder.encode(
              stringify(first ? [source.columns, ...records] : records, { quoted: true }),
            ),
          );
        }
        first = false;
        if (next.done) controller.close();
      } catch (e) {
        console.error(`[csv] ${fileName} failed`, e);
        controller.error(e);
      }
    },
    async cancel() {
      await batches.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}

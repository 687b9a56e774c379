/**
 * /statements/{YYYY-MM}/csv (docs/product/screens.md, "Statements"): the month's statement as a CSV download
 * (csv-stringify, every cell quoted, formulas neutralised like every CSV of the product): the opening balance,
 * every line, the totals by kind and in all, the closing balance, whether the month is reconciled with the
 * payment provider. Who may read it: app/utils/statements.server.ts.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { neutraliseCsvCell } from "../../domain/resources";
import { CSV_COLUMNS, loadStatement, statementCsvRows } from "~/utils/statements.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { statement, zone, reconciled } = await loadStatement(request, params.month);
  const rows = statementCsvRows(statement, zone, reconciled).map((r) =>
    CSV_COLUMNS.map((c) => neutraliseCsvCell(r[c])),
  );
  return new Response(stringify([CSV_COLUMNS, ...rows], { quoted: true }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statement-${statement.month}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

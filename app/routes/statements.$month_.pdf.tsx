/**
 * /statements/{YYYY-MM}/pdf (docs/product/screens.md, "Statements"): the month's statement as a printable PDF
 * (app/routes/statements.$month_.pdf.server.tsx), opened in a new tab. Who may read it: app/utils/statements.server.ts.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { formatDate } from "../../domain/date-format";
import { pdfResponse } from "~/utils/pdf.server";
import { renderStatementPdf } from "./statements.$month_.pdf.server";
import { lineView, loadStatement, totalsView } from "~/utils/statements.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { owner, zone, statement, reconciled, label } = await loadStatement(request, params.month);
  const pdf = await renderStatementPdf({
    storeName: owner.storeName,
    label,
    month: statement.month,
    lines: statement.lines.map((l) => lineView(l, zone)),
    printedOn: formatDate(new Date(), zone),
    reconciled,
    ...totalsView(statement),
  });
  return pdfResponse(pdf, `statement-${statement.month}.pdf`);
}

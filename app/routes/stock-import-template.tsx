/** The stock import's template (docs/product/screens.md, "Stock file import"): ?format=csv (default) or xlsx. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { TEMPLATE_EXAMPLE, TEMPLATE_HEADERS } from "../../domain/stock-import";
import { requireRetailer } from "~/utils/auth.server";
import { writeSheet } from "~/utils/xlsx.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailer(request);
  if (new URL(request.url).searchParams.get("format") === "xlsx") {
    const sheet = await writeSheet(
      "stock",
      TEMPLATE_HEADERS.map((name, i) => ({ name, required: i < 3 })),
      [TEMPLATE_EXAMPLE],
    );
    return new Response(new Uint8Array(sheet), {
      headers: {
        "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "Content-Disposition": 'attachment; filename="stock-import-template.xlsx"',
      },
    });
  }
  return new Response(`${TEMPLATE_HEADERS.join(",")}\r\n${TEMPLATE_EXAMPLE.join(",")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="stock-import-template.csv"',
    },
  });
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { formatSortableDateTime } from "../../domain/date-format";
import { centsToDecimalString } from "../../domain/money";
import { neutraliseCsvCell, type ResourceDef } from "../../domain/resources";
import { exportResource, type ListResult } from "../../db/queries/admin-resources";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { requireResource } from "~/utils/permissions.server";

/**
 * Export CSV of the generic list (docs/product/screens.md, "Staff: generic lists and forms"): every row the search matches, fetched by pages of 100 and
 * written as they come (never the whole table in memory), through csv-stringify. Every cell is quoted, so
 * commas, quotes and "#" stay data; text a spreadsheet would run as a formula (= + - @) gets a leading
 * apostrophe (ADR 0016).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  const search = (new URL(request.url).searchParams.get("search") ?? "").slice(0, 100);
  const fields = resource.fields.filter((f) => f.type !== "image");
  const pages = exportResource(db, name, { search });
  const zone = getEnv().MARKETPLACE_TZ;
  let first = true;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await pages.next();
        if (next.done) {
          if (first)
            controller.enqueue(
              encoder.encode(stringify([fields.map((f) => f.label)], { quoted: true })),
            );
          return controller.close();
        }
        const records = next.value.rows.map((row) =>
          fields.map((f) =>
            neutraliseCsvCell(cell(resource, f.name, row, next.value.labels, zone)),
          ),
        );
        controller.enqueue(
          encoder.encode(
            stringify(first ? [fields.map((f) => f.label), ...records] : records, { quoted: true }),
          ),
        );
        first = false;
      } catch (e) {
        console.error("[export] failed", e);
        controller.error(e);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

function cell(
  def: ResourceDef,
  field: string,
  row: Record<string, unknown>,
  labels: ListResult["labels"],
  zone: string,
): unknown {
  const f = def.fields.find((x) => x.name === field)!;
  const v = row[field];
  if (v === null || v === undefined) return "";
  if (f.type === "field" && typeof v === "number")
    return labels[field]?.[v] ? `${labels[field][v]} (#${v})` : `#${v}`;
  if (f.type === "decimal" && typeof v === "number") return centsToDecimalString(v);
  // In the marketplace zone, by the one formatter (docs/product/windows.md, "Time zone"), as the reports' cells.
  if (v instanceof Date) return formatSortableDateTime(v, zone);
  return v;
}

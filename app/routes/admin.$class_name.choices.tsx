import type { LoaderFunctionArgs } from "@remix-run/node";
import { CHOOSER_LIMIT, type ResourceName } from "../../domain/resources";
import { chooserOptions } from "../../db/queries/admin-resources";
import { db } from "~/utils/db.server";
import { notFound, requireStaffPermissions } from "~/utils/permissions.server";
import { isResourceName } from "../../domain/resources";

/**
 * Chooser and filter-select options (docs/product/screens.md, "Staff: generic lists and forms"): id and display_name of a resource's rows, searched and
 * filtered (brands: is_valid=true), at most 100. Any staff user may read them (a form needs the brands to
 * choose from); managing the resource itself needs its permission.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaffPermissions(request);
  const name = params.class_name ?? "";
  if (!isResourceName(name)) throw notFound();
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const filters: Record<string, string> = {};
  for (const [k, v] of url.searchParams)
    if (k !== "search" && k.length < 40) filters[k] = v.slice(0, 40);
  return {
    options: await chooserOptions(db, name as ResourceName, {
      search,
      filters,
      limit: CHOOSER_LIMIT,
    }),
  };
}

/**
 * POST /api/stock-import: the stock file import from a store's own system with an API token
 * (docs/product/screens.md, "Stock file import", "API"; docs/guides/stock-import.md "API"; public/api/openapi.json).
 * Every answer is JSON `{ error }` or the result, a server error's too (its message only).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { API_MSG } from "../../domain/api-tokens";
import { apiError, stockImportApi } from "./api.stock-import.server";

export async function loader() {
  return apiError(405, API_MSG.postOnly, { Allow: "POST" });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiError(405, API_MSG.postOnly, { Allow: "POST" });
  try {
    return await stockImportApi(request);
  } catch (e) {
    if (e instanceof Response) throw e;
    // An API answers JSON even then, and only its message: the error (its SQL, its parameters) is logged here.
    console.error("[server error] POST /api/stock-import", e);
    return apiError(500, API_MSG.serverError);
  }
}

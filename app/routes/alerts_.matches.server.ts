/**
 * Server side of /alerts/matches (docs/product/screens.md, "Matches"; ADR 0030): the retailer's matches and
 * saved searches, one function per intent (save, delete).
 */
import { data, redirect } from "@remix-run/node";
import { marketBrowseContext } from "../../db/queries/marketplace";
import {
  deleteSavedSearch,
  listMatches,
  listSavedSearches,
  markMatchesSeen,
  saveSearch,
} from "../../db/queries/matches";
import {
  DeleteSavedSearchSchema,
  MATCH_MESSAGES,
  SavedSearchFormSchema,
} from "../../domain/matches";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { formError, parseSubmission } from "~/utils/form.server";

export const MATCHES_PAGE_SIZE = 20;

export async function matchesLoader(request: Request) {
  const auth = await requireRetailer(request);
  const url = new URL(request.url);
  const offset = Math.max(
    0,
    Math.min(1_000_000, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0),
  );
  const [page, searches, ctx] = await Promise.all([
    listMatches(db, auth.retailer.id, { limit: MATCHES_PAGE_SIZE, offset }),
    listSavedSearches(db, auth.retailer.id),
    marketBrowseContext(db, auth.retailer.id),
  ]);
  // Opening the tab is seeing them: the bell clears (the cards keep their "New" mark this once).
  if (page.items.some((m) => m.isNew)) await markMatchesSeen(db, auth.retailer.id);
  // A marketplace search can be carried here to be saved (?brand=&category=&sizes=&q=).
  const prefill = {
    brand: url.searchParams.get("brand") ?? "",
    category: url.searchParams.get("category") ?? "",
    sizes: url.searchParams.get("sizes") ?? "",
    q: url.searchParams.get("q") ?? "",
  };
  return {
    page,
    offset,
    searches,
    brands: ctx.brands,
    categories: ctx.categories,
    prefill,
    ref: url.searchParams.get("ref"),
  };
}

async function saveIntent(retailerId: number, form: FormData) {
  const submission = parseSubmission(form, { schema: SavedSearchFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  const res = await db.transaction((tx) =>
    saveSearch(tx, retailerId, {
      brandId: v.brand,
      categoryId: v.category ?? null,
      sizes: v.sizes,
      search: v.q,
    }),
  );
  if (!res.ok) {
    const [field, message, status] =
      res.reason === "too_many"
        ? (["", MATCH_MESSAGES.tooMany, 409] as const)
        : res.reason === "unknown_brand"
          ? (["brand", MATCH_MESSAGES.unknownBrand, 400] as const)
          : (["category", MATCH_MESSAGES.unknownCategory, 400] as const);
    return data(
      submission.reply({
        fieldErrors: field ? { [field]: [message] } : {},
        formErrors: field ? [] : [message],
      }),
      { status },
    );
  }
  return redirect("/alerts/matches?ref=searchSaved", 303);
}

async function deleteIntent(retailerId: number, form: FormData) {
  const submission = parseSubmission(form, { schema: DeleteSavedSearchSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const ok = await deleteSavedSearch(db, retailerId, submission.value.id);
  if (!ok)
    return data(submission.reply({ formErrors: [MATCH_MESSAGES.notFound] }), { status: 404 });
  return redirect("/alerts/matches?ref=searchDeleted", 303);
}

export async function matchesAction(request: Request) {
  const auth = await requireRetailer(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (intent === "save") return saveIntent(auth.retailer.id, form);
  if (intent === "delete") return deleteIntent(auth.retailer.id, form);
  return data(formError("Unknown action."), { status: 400 });
}

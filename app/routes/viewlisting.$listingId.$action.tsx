import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { LISTING_UNAVAILABLE } from "../../domain/messages";
import { ItemViewError } from "~/components/marketplace/ItemView";
import { requireUser } from "~/utils/auth.server";

/** The listing view's older name, "viewlisting" with {listingId} and {action}: the same page as /listing/{action}/{id}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const action = params.action;
  const id = params.listingId ?? "";
  if (
    (action !== "buy" && action !== "swap" && action !== "sell") ||
    !/^[1-9][0-9]{0,9}$/.test(id)
  ) {
    throw new Response(LISTING_UNAVAILABLE, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  throw redirect(`/listing/${action}/${id}`);
}

export const ErrorBoundary = ItemViewError;

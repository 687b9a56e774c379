import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";

/**
 * The named route "active" with its tab parameter: /active/{tab}. The two tabs have their
 * own routes (active.listings.tsx, active.requests.tsx), which take precedence; this one sends any other
 * spelling of a known tab there and answers 404 for unknown tabs.
 */
export const ACTIVE_TABS = ["listings", "requests"] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const tab = (params.tab ?? "").toLowerCase();
  if ((ACTIVE_TABS as readonly string[]).includes(tab)) {
    const url = new URL(request.url);
    throw redirect(`/active/${tab}${url.search}`);
  }
  throw new Response("Not Found", { status: 404, statusText: "Not Found" });
}

export default function ActiveTab() {
  return null;
}

export { ErrorPage as ErrorBoundary } from "~/components/ErrorPage";

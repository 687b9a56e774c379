import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

/** /active/ alone opens the first tab, My Listings. */
export function loader({ request }: LoaderFunctionArgs) {
  throw redirect(`/active/listings${new URL(request.url).search}`);
}

export default function ActiveIndex() {
  return null;
}

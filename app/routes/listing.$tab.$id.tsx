import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ItemViewError, ItemViewPage } from "~/components/marketplace/ItemView";
import { itemViewLoader } from "~/utils/marketplace.server";
import marketCss from "~/components/marketplace/marketplace.css";
import { pageTitle } from "~/components/title";

/**
 * /listing/buy/{id}, /listing/swap/{id}: a listing of the marketplace; /listing/sell/{id}: a request one
 * sells to. A listing the viewer may not see (gone, sold out, hidden, own, brand not authorized) is a 404
 * with the spec's "unavailable" message.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `${data.productName} ${data.sku}` : "Listing unavailable") },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: marketCss }];

export function loader({ request, params }: LoaderFunctionArgs) {
  return itemViewLoader(request, params.tab, params.id);
}

export default function ListingView() {
  return <ItemViewPage />;
}

export const ErrorBoundary = ItemViewError;

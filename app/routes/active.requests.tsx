import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import activeCss from "~/components/active/active.css";
import { MyItemsPage } from "~/components/active/MyItemsPage";
import { myItemsLoader } from "~/utils/my-items.server";
import { pageTitle } from "~/components/title";

/** My Requests (docs/product/screens.md, "My Listings and Requests"): the retailer's requests by authorized brand. */
export const meta: MetaFunction = () => [{ title: pageTitle("My Requests") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: activeCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return myItemsLoader(request, "requests");
}

export default function MyRequests() {
  return <MyItemsPage />;
}

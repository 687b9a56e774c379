import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import activeCss from "~/components/active/active.css";
import { MyItemsPage } from "~/components/active/MyItemsPage";
import { myItemsLoader } from "~/utils/my-items.server";
import { pageTitle } from "~/components/title";

/** My Listings (docs/product/screens.md, "My Listings and Requests"): the retailer's listings by authorized brand. */
export const meta: MetaFunction = () => [{ title: pageTitle("My Listings") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: activeCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  return myItemsLoader(request, "listings");
}

export default function MyListings() {
  return <MyItemsPage />;
}

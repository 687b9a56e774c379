import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import activeCss from "~/components/active/active.css";
import { EditItemPage } from "~/components/active/EditItemPage";
import { editAction, editLoader } from "~/utils/my-items.server";
import { pageTitle } from "~/components/title";

/** Edit or delete one of my requests (docs/product/screens.md, "My Listings and Requests"). Another retailer's id: 404. */
export const meta: MetaFunction = () => [{ title: pageTitle("Update Request") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: activeCss }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return editLoader(request, "requests", params.id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return editAction(request, "requests", params.id);
}

export default function UpdateRequest() {
  return <EditItemPage />;
}

export { ErrorPage as ErrorBoundary } from "~/components/ErrorPage";

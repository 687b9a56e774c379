/** /manage-retailer/choose: Choose Retailer is the layout's index, /manage-retailer (the same query kept). */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  throw redirect(`/manage-retailer${new URL(request.url).search}`);
}

/** /manage-retailer: Choose Retailer (app/components/manage-retailer/ChooseRetailer.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ChooseRetailer } from "~/components/manage-retailer/ChooseRetailer";
import type { TabHandle } from "~/components/manage-retailer/parts";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { retailerListPage } from "~/utils/manage-retailer.server";

export const handle: TabHandle = { tab: "choose" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  return retailerListPage(new URL(request.url));
}

export default function ChooseRetailerTab() {
  return <ChooseRetailer d={useLoaderData<typeof loader>()} />;
}

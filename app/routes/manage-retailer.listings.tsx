/** /manage-retailer/listings?id=: the retailer's listings (app/components/manage-retailer/ItemsTab.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ItemsTab } from "~/components/manage-retailer/ItemsTab";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import { itemsTab, requireChosenRetailer } from "~/utils/manage-retailer.server";

export const handle: TabHandle = { tab: "listings" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer, url } = await requireChosenRetailer(request);
  return {
    retailerId: retailer.id,
    ...(await itemsTab("listings", retailer.id, url.searchParams.get("edit"))),
  };
}

export default function ListingsTab() {
  const d = useLoaderData<typeof loader>();
  return (
    <>
      <TabNotices />
      <ItemsTab d={d} retailerId={d.retailerId} />
    </>
  );
}

/** /manage-retailer/rmas?id=: the retailer's RMAs (app/components/manage-retailer/OrdersTab.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OrdersTab } from "~/components/manage-retailer/OrdersTab";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import { ordersTab, requireChosenRetailer } from "~/utils/manage-retailer.server";

export const handle: TabHandle = { tab: "rmas" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer } = await requireChosenRetailer(request);
  return ordersTab("rmas", retailer.id);
}

export default function RmasTab() {
  return (
    <>
      <TabNotices />
      <OrdersTab d={useLoaderData<typeof loader>()} />
    </>
  );
}

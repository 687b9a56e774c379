/** /manage-retailer/statements?id=: the retailer's monthly statements (docs/product/screens.md, "Statements"), each opening /statements/{month}?retailer={id}. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import { MonthList } from "~/components/statements/StatementParts";
import { requireChosenRetailer } from "~/utils/manage-retailer.server";
import { statementListData } from "~/utils/statements.server";

export const handle: TabHandle = { tab: "statements" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer, url } = await requireChosenRetailer(request);
  url.searchParams.set("retailer", String(retailer.id));
  return statementListData(new Request(url, { headers: request.headers }));
}

export default function StatementsTab() {
  const { owner, months } = useLoaderData<typeof loader>();
  return (
    <>
      <TabNotices />
      <MonthList months={months} query={owner.query} />
    </>
  );
}

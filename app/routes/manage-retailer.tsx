/**
 * /manage-retailer (docs/product/screens.md "Manage retailer"): staff's retailer admin. This layout is the
 * gate (staff with the "retailer" permission), the chosen retailer (?id=) in the title, and the tab links;
 * each tab is a child route: Choose Retailer (the index), info, contacts, brands, listings, requests,
 * transactions and rmas. Modals (a contact's or an item's edit) open by URL (?edit=), so they work without
 * JavaScript. The server half of every tab is app/utils/manage-retailer.server.ts.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { TAB_LABELS, TABS, type TabHandle } from "~/components/manage-retailer/parts";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import adminCss from "~/styles/retailer-admin.css";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { retailerSummary } from "~/utils/manage-retailer.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Manage retailer") }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountsCss },
  { rel: "stylesheet", href: adminCss },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  return { retailer: await retailerSummary(new URL(request.url)) };
}

export default function ManageRetailer() {
  const { retailer } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const tab = (matches.at(-1)?.handle as TabHandle | undefined)?.tab ?? "choose";
  // Choose Retailer lists retailers whatever ?id= says; the other tabs are the chosen retailer's.
  const chosen = tab === "choose" ? null : retailer;
  return (
    <section className="page retailer-admin">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>
        Manage retailer
        {chosen ? `: ${chosen.storeName} #${chosen.id}` : ""}
      </h1>
      <nav className="tabs" aria-label="Retailer admin">
        {TABS.map((t) =>
          t === "choose" || chosen ? (
            <Link
              key={t}
              to={t === "choose" ? "/manage-retailer" : `/manage-retailer/${t}?id=${chosen!.id}`}
              aria-current={tab === t ? "page" : undefined}
              className={tab === t ? "active" : ""}
            >
              {TAB_LABELS[t]}
            </Link>
          ) : null,
        )}
      </nav>
      <Outlet />
    </section>
  );
}

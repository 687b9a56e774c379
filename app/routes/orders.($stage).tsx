/**
 * /orders and /orders/:stage (docs/product/screens.md, "Orders"): approved orders in three tabs, Sales Orders,
 * Purchase Orders and Swap Orders; a status filter, Delivered (a delivered shipment) or Offers (the tab's
 * offers on /alerts/offers: received on sales, made on purchases);
 * shipments labelled Outgoing or Incoming; each card with a View Details expansion.
 * :stage is the tab (sales, purchases, swaps; sentswaps and receivedswaps open the swaps tab). Swaps show as
 * pairs (both parcels) on /orders/swaps, as the half each side sends on /orders/sentswaps/ (where a side
 * lands after paying: its parcel to get ready) and as the half it receives on /orders/receivedswaps/.
 */
import {
  redirect,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  listApprovedOrders,
  ORDER_KIND_TABS,
  type OrderKindTab,
} from "../../db/queries/order-views/retailer-lists";
import { ordersEmptyText, TRANSACTION_LABELS } from "../../domain/messages";
import { OrderCardView, Pager, type SwapCardKind } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Orders") }];

const TAB_LABELS: Record<OrderKindTab, string> = {
  sales: "Sales Orders",
  purchases: "Purchase Orders",
  swaps: "Swap Orders",
};
const SWAP_KIND: Record<string, SwapCardKind> = {
  swaps: "pair",
  sentswaps: "sent",
  receivedswaps: "received",
};
const SWAP_KIND_LABELS: [string, string][] = [
  ["swaps", "Swap pairs"],
  ["sentswaps", "Swaps sent"],
  ["receivedswaps", "Swaps received"],
];
const STAGE_TO_TAB: Record<string, OrderKindTab> = {
  sales: "sales",
  purchases: "purchases",
  swaps: "swaps",
  sentswaps: "swaps",
  receivedswaps: "swaps",
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const auth = await requireRetailer(request);
  const url = new URL(request.url);
  const stage = params.stage ?? null;
  if (stage !== null && !Object.hasOwn(STAGE_TO_TAB, stage))
    throw new Response("Not found", { status: 404 });
  const tab: OrderKindTab = stage ? STAGE_TO_TAB[stage] : "sales";
  const statusParam = url.searchParams.get("status");
  // The Offers filter (docs/product/offers.md): the tab's offers, received on sales, made on purchases.
  if (statusParam === "offers")
    throw redirect(
      tab === "sales"
        ? "/alerts/offers?side=seller"
        : tab === "purchases"
          ? "/alerts/offers?side=buyer"
          : "/alerts/offers",
    );
  if (statusParam !== null && statusParam !== "" && statusParam !== "delivered")
    throw new Response("Unknown status filter", { status: 400 });
  const delivered = statusParam === "delivered";
  const offset = Math.max(
    0,
    Math.min(1_000_000, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0),
  );
  const limit = Math.max(
    1,
    Math.min(100, Number.parseInt(url.searchParams.get("limit") ?? "", 10) || 4),
  );
  const page = await listApprovedOrders(db, auth.retailer.id, {
    kind: tab,
    delivered,
    limit,
    offset,
  });
  return {
    tab,
    stage: stage ?? tab,
    swapKind: SWAP_KIND[stage ?? ""] ?? "pair",
    delivered,
    page,
    now: Date.now(),
  };
}

export default function Orders() {
  const d = useLoaderData<typeof loader>();
  const href = (tab: OrderKindTab, offset = 0, delivered = d.delivered) => {
    const p = new URLSearchParams();
    if (delivered) p.set("status", "delivered");
    if (offset) p.set("offset", String(offset));
    const q = p.toString();
    return `/orders/${tab === d.tab ? d.stage : tab}${q ? `?${q}` : ""}`;
  };
  return (
    <section className="page" data-testid="orders-page">
      <nav className="order-links" aria-label="Orders">
        <Link to="/alerts">{TRANSACTION_LABELS.pendingOrders}</Link>
        <Link to="/orders" className="active">
          {TRANSACTION_LABELS.approvedOrders}
        </Link>
        <Link to="/alerts?status=declined">{TRANSACTION_LABELS.declinedOrders}</Link>
      </nav>
      <h1>{TRANSACTION_LABELS.approvedOrders}</h1>
      <nav className="order-tabs" role="tablist">
        {ORDER_KIND_TABS.map((t) => (
          <Link
            key={t}
            to={href(t, 0)}
            role="tab"
            aria-selected={t === d.tab}
            className={t === d.tab ? "active" : ""}
            data-testid={`tab-${t}`}
          >
            {TAB_LABELS[t]}
          </Link>
        ))}
      </nav>
      {d.tab === "swaps" ? (
        <nav className="order-tabs" aria-label="Swap cards" data-testid="swap-kinds">
          {SWAP_KIND_LABELS.map(([stage, label]) => (
            <Link
              key={stage}
              to={`/orders/${stage}${d.delivered ? "?status=delivered" : ""}`}
              className={stage === d.stage ? "active" : ""}
              aria-current={stage === d.stage ? "page" : undefined}
            >
              {label}
            </Link>
          ))}
        </nav>
      ) : null}
      <Form method="get" action={`/orders/${d.stage}`} className="filters">
        <label>
          Status{" "}
          <select
            name="status"
            defaultValue={d.delivered ? "delivered" : ""}
            data-testid="status-filter"
          >
            <option value="">All</option>
            <option value="delivered">Delivered</option>
            <option value="offers">Offers</option>
          </select>
        </label>
        <button type="submit" className="button button-small">
          Filter
        </button>
      </Form>
      {d.page.items.length === 0 ? (
        <p data-testid="orders-empty">{ordersEmptyText(d.tab)}</p>
      ) : (
        <div className="order-cards">
          {d.page.items.map((o) => (
            <OrderCardView key={o.id} o={o} now={d.now} showShipments swapKind={d.swapKind} />
          ))}
        </div>
      )}
      <Pager
        total={d.page.total}
        limit={d.page.limit}
        offset={d.page.offset}
        hrefFor={(off) => href(d.tab, off)}
      />
    </section>
  );
}

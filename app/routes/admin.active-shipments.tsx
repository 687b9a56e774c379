/**
 * /admin/active-shipments (docs/product/screens.md, "Staff: transactions"): shipments on their way (pickup scheduled or in route; ?all=1 for
 * every shipment), with store names (staff), tracking, call tag and pickup deadline, and the carrier tools
 * (app/utils/carrier-tools.server.ts): schedule pickup (a new call tag booked by the order's workflow),
 * simulate pickup and simulate delivery (each a signed event POSTed to /webhooks/carrier).
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { listActiveShipments } from "../../db/queries/order-views/staff-lists";
import { CarrierTools } from "~/components/orders/AdminOrderCard";
import {
  formatDate,
  shipmentStatusText,
  timeSince,
  useMarketplaceZone,
} from "~/components/orders/format";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { ActionError } from "~/components/admin/ActionError";
import { requireStaff } from "~/utils/auth.server";
import { carrierToolsScreenAction } from "~/utils/carrier-tools.server";
import { db } from "~/utils/db.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Active shipments") }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const all = url.searchParams.get("all") === "1";
  const offRaw = url.searchParams.get("offset") ?? "0";
  if (!/^\d{1,9}$/.test(offRaw)) throw new Response("Bad offset", { status: 400 });
  const page = await listActiveShipments(db, { all, offset: Number(offRaw), limit: 50 });
  return { all, page, notice: url.searchParams.get("notice"), now: Date.now() };
}

/** The same carrier tools as the admin order card (the event sent, back here with a notice; else the refusal). */
export async function action({ request }: ActionFunctionArgs) {
  return carrierToolsScreenAction(request);
}

export default function ActiveShipments() {
  const tz = useMarketplaceZone();
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>();
  return (
    <section className="page" data-testid="admin-shipments">
      <p>
        <Link to="/admin">Admin</Link> · <Link to="/admin/active-transactions">Transactions</Link>
      </p>
      <h1>{d.all ? "All shipments" : "Active shipments"}</h1>
      <p>
        {d.all ? (
          <Link to="/admin/active-shipments">Only active</Link>
        ) : (
          <Link to="/admin/active-shipments?all=1">Show all shipments</Link>
        )}
      </p>
      {d.notice ? (
        <div className="alert alert-success" role="status" data-testid="admin-notice">
          The carrier's event was sent.
        </div>
      ) : null}
      <ActionError id="carrier-tools" lastResult={a} testId="admin-error" />
      {d.page.items.length === 0 ? (
        <p data-testid="shipments-empty">No shipments on their way.</p>
      ) : (
        <table className="table" data-testid="shipments-table">
          <thead>
            <tr>
              <th>Shipment</th>
              <th>Order</th>
              <th>From → To</th>
              <th>Tracking</th>
              <th>Status</th>
              <th>Pickup by</th>
              <th>Changed</th>
              <th>Carrier</th>
            </tr>
          </thead>
          <tbody>
            {d.page.items.map((s) => (
              <tr key={s.id} data-testid="shipment-row" data-order-id={s.orderId}>
                <td>{s.id}</td>
                <td>
                  <Link to={`/admin/active-transactions?order=${s.orderId}&tab=shipping`}>
                    {s.externalId}
                  </Link>
                </td>
                <td>
                  {s.senderName} → {s.receiverName}
                </td>
                <td>
                  {s.trackingNumber ?? "—"}
                  {s.callTag ? <div className="muted">call tag {s.callTag}</div> : null}
                </td>
                <td>{shipmentStatusText(s.status)}</td>
                <td>{formatDate(s.pickupBy, tz)}</td>
                <td>{timeSince(s.modifiedAt, d.now)}</td>
                <td>
                  {s.status === "pickup_scheduled" || s.status === "in_route" ? (
                    <CarrierTools orderId={s.orderId} shipmentId={s.id} />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        total={d.page.total}
        limit={d.page.limit}
        offset={d.page.offset}
        hrefFor={(off) => `/admin/active-shipments?${d.all ? "all=1&" : ""}offset=${off}`}
      />
    </section>
  );
}

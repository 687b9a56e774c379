/**
 * /tracking/{tracking number} (docs/product/screens.md, "Parcel tracking"): the product's own tracking page for
 * a parcel of the sandbox carrier, where its tracking links lead (activities/carrier/sandbox.ts sandboxTrackingUrl):
 * the parcel's status and every carrier event, oldest first. Only the parcel's sender, its receiver and staff.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDateTime, shipmentStatusText, useMarketplaceZone } from "~/components/orders/format";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { parcelTrackingPage } from "./tracking.$tracking.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: pageTitle(d ? `Tracking ${d.trackingNumber}` : "Tracking") },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return parcelTrackingPage(request, params.tracking);
}

export default function ParcelTracking() {
  const d = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  return (
    <section data-testid="parcel-tracking">
      <h1>Tracking {d.trackingNumber}</h1>
      <p>
        Status: <strong data-testid="parcel-status">{shipmentStatusText(d.status)}</strong>
      </p>
      {d.events.length === 0 ? (
        <p className="muted" data-testid="parcel-no-events">
          No carrier events yet.
        </p>
      ) : (
        <table className="table" data-testid="parcel-events">
          <thead>
            <tr>
              <th>When</th>
              <th>Event</th>
            </tr>
          </thead>
          <tbody>
            {d.events.map((e, i) => (
              <tr key={i} data-testid="parcel-event" data-status={e.status}>
                <td>{formatDateTime(e.at, tz)}</td>
                <td>{e.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

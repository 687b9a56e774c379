/**
 * /alerts/offers, the "Offers" tab of the alerts (docs/product/offers.md, "What people see"): the retailer's
 * offers, made (?side=buyer) or received (?side=seller) or both, newest change first, the ones waiting for its
 * answer marked; the other side only as retailer-00{id}.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listOffersForRetailer } from "../../db/queries/offers";
import { formatDateTime } from "../../domain/date-format";
import { formatCents } from "../../domain/money";
import { requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { useMarketplaceZone } from "~/components/orders/format";
import { pageTitle } from "~/components/title";

export const meta: MetaFunction = () => [{ title: pageTitle("Offers") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireRetailer(request);
  const side = new URL(request.url).searchParams.get("side");
  if (side !== null && side !== "buyer" && side !== "seller")
    throw new Response("Unknown side", { status: 400 });
  const offers = await listOffersForRetailer(db, auth.retailer.id, { side: side ?? undefined });
  return { offers, side };
}

export default function OfferAlerts() {
  const { offers, side } = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  return (
    <section className="page" data-testid="offers-page">
      <nav className="order-tabs" role="tablist" aria-label="Alerts">
        <Link to="/alerts" role="tab" aria-selected={false}>
          Orders
        </Link>
        <Link to="/alerts/matches" role="tab" aria-selected={false}>
          Matches
        </Link>
        <Link
          to="/alerts/offers"
          role="tab"
          aria-selected
          className="active"
          data-testid="tab-offers"
        >
          Offers
        </Link>
      </nav>
      <h1>Offers</h1>
      <p>
        <Link to="/alerts/offers" aria-current={side === null ? "page" : undefined}>
          All
        </Link>{" "}
        ·{" "}
        <Link to="/alerts/offers?side=buyer" aria-current={side === "buyer" ? "page" : undefined}>
          Made
        </Link>{" "}
        ·{" "}
        <Link to="/alerts/offers?side=seller" aria-current={side === "seller" ? "page" : undefined}>
          Received
        </Link>
      </p>
      {offers.length === 0 ? (
        <p data-testid="offers-empty">No offers.</p>
      ) : (
        <ul data-testid="offer-list">
          {offers.map((o) => (
            <li key={o.id} data-testid="offer" data-offer-id={o.id}>
              {o.status === "open" && o.turn === o.side ? (
                <strong className="badge">Your answer</strong>
              ) : null}{" "}
              <Link to={`/offers/${o.id}`}>
                {o.side === "buyer" ? "Made to" : "Received from"} {o.counterpart}
              </Link>
              : {o.units} unit{o.units === 1 ? "" : "s"} at{" "}
              {formatCents(o.agreedUnitCents ?? o.tableUnitCents)} ({o.status}
              {o.status === "open" ? `, until ${formatDateTime(o.deadline, tz)}` : ""})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

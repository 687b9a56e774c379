import { Link } from "@remix-run/react";
import type { OrderCard as OrderCardData } from "../../../db/queries/order-views/retailer-lists";
import { formatCents } from "../../../domain/money";
import { TRANSACTION_LABELS } from "../../../domain/messages";
import { orderCardStatus } from "../../../domain/swap-texts";
import { formatDateTime, shipmentStatusText, timeSince, useMarketplaceZone } from "./format";

/**
 * How a swap shows on /orders (docs/product/screens.md, "Orders": cards for swaps sent, swaps received and swap pairs): the pair
 * (both parcels), or only the half this side sends or only the half it receives.
 */
export type SwapCardKind = "pair" | "sent" | "received";

/** A transaction card of /alerts and /orders: order id, brand, status link, amount (not swaps), time since modified. */
export function OrderCardView({
  o,
  now,
  showShipments = false,
  swapKind = "pair",
}: {
  o: OrderCardData;
  now: number;
  showShipments?: boolean;
  swapKind?: SwapCardKind;
}) {
  const tz = useMarketplaceZone();
  const swap = o.swapUnits !== null;
  const shown =
    !swap || swapKind === "pair"
      ? o.shipments
      : o.shipments.filter((s) => (s.direction === "Outgoing") === (swapKind === "sent"));
  return (
    <article
      className="order-card"
      data-testid="order-card"
      data-order-id={o.id}
      data-external-id={o.externalId}
      data-swap-kind={swap ? swapKind : undefined}
    >
      <header>
        <div>
          <strong>Order {o.externalId}</strong>
          {o.unseen && o.myMove ? <span className="new">New</span> : null}
          <div className="meta">
            {o.typeLabel} · {o.brandName ?? "—"} · {o.counterpartyLabel}
          </div>
        </div>
        <div>
          <Link to={`/transaction/${o.ttype}/${o.id}`} data-testid="status-link">
            {orderCardStatus({
              swap,
              statename: o.statename,
              displayStatus: o.displayStatus,
              myMove: o.myMove,
            })}
          </Link>
          {o.amountCents !== null ? (
            <div data-testid="card-amount">
              <strong>{formatCents(o.amountCents)}</strong>
            </div>
          ) : null}
          <div className="meta" title={formatDateTime(o.modifiedAt, tz)}>
            {timeSince(o.modifiedAt, now)}
          </div>
        </div>
      </header>
      {swap && showShipments ? <SwapHalves o={o} kind={swapKind} /> : null}
      {showShipments && shown.length > 0 ? (
        <ul className="meta" data-testid="card-shipments">
          {shown.map((s) => (
            <li key={s.id}>
              {s.direction === "Outgoing"
                ? TRANSACTION_LABELS.outgoing
                : TRANSACTION_LABELS.incoming}
              : {shipmentStatusText(s.status)}
              {s.trackingNumber ? ` · ${s.trackingNumber}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {showShipments ? (
        <details>
          <summary>{TRANSACTION_LABELS.viewDetails}</summary>
          <p className="meta">
            {o.units} unit{o.units === 1 ? "" : "s"} ·{" "}
            <Link to={`/transaction/${o.ttype}/${o.id}`}>Open the order</Link>
          </p>
        </details>
      ) : null}
    </article>
  );
}

function SwapHalves({ o, kind }: { o: OrderCardData; kind: SwapCardKind }) {
  const u = o.swapUnits!;
  const n = (k: number) => `${k} unit${k === 1 ? "" : "s"}`;
  return (
    <p className="meta" data-testid="card-swap-halves">
      {kind !== "received" ? (
        <span data-testid="card-swap-sent">
          Swap sent: {n(u.sent)} to {o.counterpartyLabel}
        </span>
      ) : null}
      {kind === "pair" ? " · " : null}
      {kind !== "sent" ? (
        <span data-testid="card-swap-received">
          Swap received: {n(u.received)} from {o.counterpartyLabel}
        </span>
      ) : null}
    </p>
  );
}

export function Pager({
  total,
  limit,
  offset,
  hrefFor,
}: {
  total: number;
  limit: number;
  offset: number;
  hrefFor: (offset: number) => string;
}) {
  if (total <= limit) return null;
  return (
    <nav className="form-actions" aria-label="Pages" data-testid="pager">
      {offset > 0 ? <Link to={hrefFor(Math.max(0, offset - limit))}>Newer</Link> : null}
      <span className="meta">
        {offset + 1}–{Math.min(total, offset + limit)} of {total}
      </span>
      {offset + limit < total ? <Link to={hrefFor(offset + limit)}>Older</Link> : null}
    </nav>
  );
}

import { Link } from "@remix-run/react";
import type { OrderDetail } from "../../../db/queries/order-views/order-detail";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { LinesTable } from "~/components/orders/OrderParts";

/**
 * The top of the rating page (docs/product/screens.md, "Rating"): the order's facts and the goods the viewer
 * received (in a swap, the other side's lines).
 */
export function ReceivedOrder({ o }: { o: OrderDetail }) {
  const tz = useMarketplaceZone();
  return (
    <>
      <p>
        <Link to={`/transaction/${o.ttype}/${o.id}`}>← Back to the order</Link>
      </p>
      <h1>Your order {o.externalId}</h1>
      <dl className="facts">
        <dt>Order</dt>
        <dd>{o.externalId}</dd>
        <dt>Brand</dt>
        <dd>{o.brandName ?? "—"}</dd>
        <dt>Transaction type</dt>
        <dd>{o.typeLabel}</dd>
        <dt>Other retailer</dt>
        <dd data-testid="counterparty">{o.counterpartyLabel}</dd>
        {o.deliveredAt ? (
          <>
            <dt>Delivered</dt>
            <dd>{formatDate(o.deliveredAt, tz)}</dd>
          </>
        ) : null}
      </dl>
      <h2>What you received</h2>
      <LinesTable
        lines={o.lines.filter(
          (l) => l.type === "goods" && (o.ttype !== "swap" || l.side !== o.role),
        )}
      />
    </>
  );
}

/**
 * The perpetrator's returns on /alerts (docs/product/screens.md, "Alerts"): each RMA filed against the retailer
 * with news it has not seen, with a bell, the other party only as retailer-00{id}, the original order, the
 * status and, once staff decided, what the retailer will be charged; each links to the RMA page, which clears it.
 */
import { Link } from "@remix-run/react";
import { formatCents } from "../../../domain/money";
import type { RmaListItem } from "~/utils/rma-list.server";

/** What an alert says about the money: nothing decided yet, the charge, or nothing charged. */
function chargeText(r: Pick<RmaListItem, "amountCents" | "stage">): string {
  if (r.amountCents === null) return "Staff will review it and tell you the outcome.";
  if (r.amountCents === 0) return "Nothing is charged to you.";
  return `${r.stage === "rmacompleted" ? "Charged to you" : "You will be charged"}: ${formatCents(r.amountCents)}.`;
}

export function RmaAlerts({ items, total }: { items: RmaListItem[]; total: number }) {
  if (total === 0) return null;
  return (
    <section className="order-panel" data-testid="rma-alerts" aria-labelledby="rma-alerts-title">
      <h2 id="rma-alerts-title">
        Returns filed against you{" "}
        <span className="bell" data-testid="bell-returns" aria-label={`${total} waiting`}>
          🔔 {total}
        </span>
      </h2>
      <ul>
        {items.map((r) => (
          <li key={r.id} data-testid="rma-alert" data-rma={r.externalId}>
            <Link to={`/rma/${r.id}`} data-testid="rma-alert-link">
              RMA {r.externalId}
            </Link>{" "}
            filed against you by <span data-testid="rma-alert-other">{r.other}</span>
            {r.orderExternalId ? ` for order ${r.orderExternalId}` : ""}:{" "}
            <strong data-testid="rma-alert-status">{r.displayStatus}</strong>.{" "}
            <span data-testid="rma-alert-money">{chargeText(r)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * New messages on /alerts (ADR 0027; docs/product/screens.md, "Messages on an order"): each conversation with
 * messages the retailer has not read, with a bell, the order, who wrote (retailer-00{id}, or staff) and how many;
 * each links to the order's page, whose conversation clears it.
 */
import { Link } from "@remix-run/react";

export type MessageAlertItem = {
  orderId: number;
  externalId: string;
  path: string;
  other: string;
  unseen: number;
};

export function MessageAlerts({ items, total }: { items: MessageAlertItem[]; total: number }) {
  if (total === 0) return null;
  return (
    <section
      className="order-panel"
      data-testid="message-alerts"
      aria-labelledby="message-alerts-title"
    >
      <h2 id="message-alerts-title">
        New messages{" "}
        <span
          className="bell"
          data-testid="bell-messages"
          aria-label={`${total} conversations with new messages`}
        >
          🔔 {total}
        </span>
      </h2>
      <ul>
        {items.map((m) => (
          <li key={m.orderId} data-testid="message-alert" data-order={m.externalId}>
            <Link to={m.path} data-testid="message-alert-link">
              Order {m.externalId}
            </Link>
            : {m.unseen} new message{m.unseen === 1 ? "" : "s"} in your conversation with{" "}
            <span data-testid="message-alert-other">{m.other}</span>.
          </li>
        ))}
      </ul>
    </section>
  );
}

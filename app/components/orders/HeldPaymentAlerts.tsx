/**
 * The retailer's held payments on /alerts (docs/decisions/0044-payments-needing-attention.md): each movement of
 * its own that is on hold, what it is and what to do (add a card, set up the payout account), with a bell.
 * The same words as the e-mail it was sent (domain/held-payments heldNotice).
 */
import { Link } from "@remix-run/react";

export interface HeldPaymentAlert {
  paymentId: number;
  text: string;
  todo: { text: string; to: string } | null;
}

export function HeldPaymentAlerts({ items }: { items: HeldPaymentAlert[] }) {
  if (items.length === 0) return null;
  return (
    <section className="order-panel" data-testid="held-alerts" aria-labelledby="held-alerts-title">
      <h2 id="held-alerts-title">
        Payments on hold{" "}
        <span className="bell" aria-label={`${items.length} waiting`}>
          🔔 {items.length}
        </span>
      </h2>
      <ul>
        {items.map((h) => (
          <li key={h.paymentId} data-testid="held-alert">
            {h.text}{" "}
            {h.todo ? (
              <Link to={h.todo.to} data-testid="held-alert-todo">
                {h.todo.text}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * /checkout/pay?order=<id>...: the card step of a buy checkout (docs/product/screens.md, "Cart and checkout":
 * the card modal and the card-declined message). Reached from the review (/checkout/review → "Continue to payment": the cart's drafts)
 * or from Pending Orders (an order made for one's request, or one whose card was declined).
 * The card: the saved card on file, or a new one (the sandbox's test-card form by default; Stripe Elements
 * when Stripe keys are configured). Submitting starts each order's buy workflow and pre-authorises the card
 * (app/utils/checkout.server.ts); a declined card keeps the page with "Sorry but this card was declined.
 * Please try another." and the next card is a new attempt. The card step cannot be dismissed: it is the page.
 */
import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BuyerAmounts } from "~/components/orders/OrderParts";
import { CardStep } from "~/components/orders/PayCard";
import { formatCents } from "../../domain/money";
import { pageTitle } from "~/components/title";
import { payAction, payLoader, type PayActionData } from "~/utils/checkout.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Payment") }];

export async function loader({ request }: LoaderFunctionArgs) {
  return payLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return payAction(request);
}

export default function CheckoutPay() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<PayActionData>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [form] = useForm({ id: "checkout-pay", lastResult: busy ? null : actionData?.result });
  const errors = busy ? {} : { ...form.allErrors, "": form.errors };
  if (d.admin) {
    return (
      <section className="page">
        <h1>Payment</h1>
        <div className="alert alert-warning" role="alert">
          Staff browsing as admin have no orders to pay: act as a retailer first.
        </div>
      </section>
    );
  }
  const toPay = d.orders.filter((o) => o.awaitingCheckout);
  const done = d.orders.filter((o) => !o.awaitingCheckout);
  if (toPay.length === 0) {
    return (
      <section className="page">
        <h1>Payment</h1>
        <p data-testid="pay-empty">
          There is no order waiting for checkout. <Link to="/cart">Open your cart</Link> or see your{" "}
          <Link to="/alerts">Pending Orders</Link>.
        </p>
        {done.length > 0 ? <DoneOrders orders={done} /> : null}
      </section>
    );
  }
  const grand = toPay.reduce((a, o) => a + o.totalCents, 0);
  return (
    <section className="page">
      <h1>Payment</h1>
      <p>
        Your card is pre-authorised now for the total of each order and charged only when the seller
        approves, for the units the seller approves.
      </p>
      {toPay.map((o) => (
        <article
          key={o.id}
          className="card"
          data-testid="pay-order"
          data-order-id={o.id}
          style={{ marginBottom: "1rem" }}
        >
          <h2>
            Order {o.externalId} <span className="pill">{o.displayStatus}</span>
          </h2>
          <p>Seller: {o.counterpartyLabel}</p>
          <ul>
            {o.lines.map((l, i) => (
              <li key={i}>
                {l.brandName} {l.displayName} ({l.color}), {l.productCode}:{" "}
                {Object.entries(l.sizes)
                  .map(([k, n]) => `${k} × ${n}`)
                  .join(", ")}{" "}
                at {formatCents(l.unitPriceCents)}
              </li>
            ))}
          </ul>
          <BuyerAmounts a={o} />
          {o.storeApprovalNote ? (
            <p className="alert alert-info" data-testid="pay-store-approval">
              {o.storeApprovalNote}
            </p>
          ) : null}
          {actionData?.orderErrors?.[o.id] && !busy ? (
            <div className="field-error" data-testid="pay-order-error">
              {actionData.orderErrors[o.id]}
            </div>
          ) : null}
        </article>
      ))}
      {toPay.length > 1 ? (
        <p data-testid="pay-grand-total">
          <strong>All orders: {formatCents(grand)}</strong>
        </p>
      ) : null}
      {done.length > 0 ? <DoneOrders orders={done} /> : null}

      <CardStep
        data={d}
        errors={errors}
        busy={busy}
        submitLabel={`Pay ${formatCents(grand)}`}
        back={{ to: "/checkout/review", label: "Back" }}
      />
    </section>
  );
}

function DoneOrders({
  orders,
}: {
  orders: { id: number; externalId: string; displayStatus: string }[];
}) {
  return (
    <div className="alert alert-success" role="status" data-testid="pay-done">
      Already checked out:{" "}
      {orders.map((o, i) => (
        <span key={o.id}>
          {i > 0 ? ", " : ""}Order {o.externalId} ({o.displayStatus})
        </span>
      ))}
      .
    </div>
  );
}

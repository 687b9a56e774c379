/**
 * /checkout/review: the draft orders the cart was handed over as (buy checkout review; docs/product/screens.md,
 * "Cart and checkout"): per
 * order its number, the other retailer (anonymous), the goods, the 10% fee, shipping and the total the
 * card will be pre-authorised for; "Continue to payment" goes to the card step (/checkout/pay), which starts
 * each order's buy workflow.
 */
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CART_MESSAGES, START_OVER_LABEL } from "../../domain/cart";
import { formatCents } from "../../domain/money";
import { labelFor, FLOOR_TIMES } from "../../domain/reasons";
import { getDraftOrders } from "../../db/queries/checkout";
import { DraftLinesTable } from "~/components/orders/DraftLines";
import { BuyerAmounts } from "~/components/orders/OrderParts";
import { pageTitle } from "~/components/title";
import { loadCartSummary } from "~/utils/cart.server";
import { cartRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Review your order") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, retailer } = await cartRetailer(request);
  if (!retailer) return { admin: true as const, orders: [], type: null };
  const summary = await loadCartSummary(auth);
  const views = await getDraftOrders(db, retailer.id, summary?.draftOrderIds ?? [], {
    viewerIsStaff: auth.user.isStaff,
  });
  // A swap draft has its own review and card step.
  if (views.some((v) => v.ttype === "swap")) throw redirect("/checkout/swap");
  // The page shows the orders; their workflows' hand-over stays on the server.
  const orders = views.map(({ draft: _draft, ...v }) => v);
  return { admin: false as const, orders, type: summary?.type ?? null };
}

export default function CheckoutReview() {
  const d = useLoaderData<typeof loader>();
  if (d.admin) {
    return (
      <section className="page">
        <h1>Review your order</h1>
        <div className="alert alert-warning" role="alert">
          {CART_MESSAGES.adminHasNoCart}
        </div>
      </section>
    );
  }
  if (d.orders.length === 0) {
    return (
      <section className="page">
        <h1>Review your order</h1>
        <p data-testid="review-empty">
          There is no draft order to review. <Link to="/cart">Open your cart</Link>.
        </p>
      </section>
    );
  }
  const selling = d.orders.every((o) => o.kind === "sell");
  const grand = d.orders.reduce((a, o) => a + o.totalCents, 0);
  return (
    <section className="page">
      <h1>{selling ? "Your offer" : "Review your order"}</h1>
      <div className="alert alert-success" role="status" data-testid="review-status">
        {selling ? (
          CART_MESSAGES.sellDraftRecorded
        ) : (
          <>
            {CART_MESSAGES.buyDraftReady} Your card will be pre-authorised for the total of each
            order and charged only when the seller approves.
          </>
        )}
      </div>
      {d.orders.map((o) => (
        <article
          key={o.id}
          className="card"
          data-testid="draft-order"
          data-order-id={o.id}
          style={{ marginBottom: "1rem" }}
        >
          <h2>
            Order {o.externalId} <span className="pill">{o.displayStatus}</span>
          </h2>
          <p>
            {o.kind === "buy"
              ? `Seller: ${o.counterpartyLabel}`
              : `Requested by ${o.counterpartyLabel}`}
          </p>
          {o.floorTime ? (
            <p>Time on the sales floor: {labelFor(FLOOR_TIMES, o.floorTime) ?? o.floorTime}</p>
          ) : null}
          <DraftLinesTable lines={o.lines} />
          {o.kind === "sell" ? (
            <dl className="order-amounts" data-testid="order-amounts">
              <dt>Your payout (wholesale cost, no fee)</dt>
              <dd data-testid="amount-goods">{formatCents(o.goodsCents)}</dd>
            </dl>
          ) : (
            <BuyerAmounts a={o} testId="order-amounts" />
          )}
        </article>
      ))}
      {d.orders.length > 1 ? (
        <p data-testid="grand-total">
          <strong>All orders: {formatCents(grand)}</strong>
        </p>
      ) : null}
      <div className="form-actions">
        <Link to="/cart" className="button button-outline">
          Back to cart
        </Link>
        {selling ? (
          <Link to="/checkout" className="button" data-testid="review-send-offer">
            Send the offer
          </Link>
        ) : (
          <Link to="/checkout/pay" className="button" data-testid="review-continue">
            Continue to payment
          </Link>
        )}
        <Form method="post" action="/cart">
          <input type="hidden" name="intent" value="clear" />
          <input type="hidden" name="returnTo" value="/cart" />
          <button type="submit" className="button button-outline">
            {START_OVER_LABEL}
          </button>
        </Form>
      </div>
    </section>
  );
}

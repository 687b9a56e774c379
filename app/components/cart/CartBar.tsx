/**
 * The cart bar of the marketplace pages (/buy, /swap, /sell): when the cart has items it shows them in
 * short, with "Start Over" and "Proceed with purchase/swap/sell" (docs/product/screens.md,
 * "Marketplace"). Plain forms and links:
 * works without JavaScript.
 *
 * Contract for the marketplace pages:
 *   loader:  const cart = await loadCartSummary(auth);          // app/utils/cart.server.ts; null for staff as admin
 *   page:    <CartBar summary={cart} returnTo={location.pathname + location.search} />
 *   tabs:    const tabs = cartTabState(cart?.type);              // tabs.disabled.buy / .swap / .sell
 *   add:     <Form method="post" action="/cart"> intent=add, listingId | requestId, size.<label>=qty,
 *            returnTo=<this page> (optional type=buy|swap|sell must agree with the item)
 */
import { Form, Link } from "@remix-run/react";
import type { CartSummary } from "../../../db/queries/cart";
import {
  CART_MESSAGES,
  START_OVER_LABEL,
  cartTabState,
  type CartTabState,
  type CartType,
} from "../../../domain/cart";
import { formatCents } from "../../../domain/money";

export { cartTabState };
export type { CartSummary, CartTabState, CartType };

const TYPE_LABEL: Record<CartType, string> = {
  buy: "purchase",
  swap: "swap",
  sell: "sell to requests",
};

export function CartBar({
  summary,
  returnTo = "/cart",
}: {
  summary: CartSummary | null | undefined;
  returnTo?: string;
}) {
  if (!summary) return null;
  const dropped =
    summary.dropped > 0 ? (
      <div className="alert alert-warning" role="status" data-testid="cart-dropped">
        {summary.dropped === 1
          ? CART_MESSAGES.itemDropped
          : CART_MESSAGES.itemsDropped(summary.dropped)}
      </div>
    ) : null;
  if (!summary.type || summary.lines.length === 0) return dropped;
  return (
    <>
      {dropped}
      <section
        className="alert alert-success cart-bar"
        aria-label="Cart"
        data-testid="cart-bar"
        data-cart-type={summary.type}
        style={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          gap: "0.75rem",
          justifyContent: "space-between",
        }}
      >
        <p style={{ margin: 0 }}>
          <strong>Cart ({TYPE_LABEL[summary.type]}):</strong> {summary.itemCount}{" "}
          {summary.itemCount === 1 ? "item" : "items"}, {summary.unitCount}{" "}
          {summary.unitCount === 1 ? "unit" : "units"}
          {summary.type !== "sell" ? <>, {formatCents(summary.goodsCents)}</> : null}.{" "}
          <Link to="/cart" data-testid="cart-view">
            View cart
          </Link>
        </p>
        <div style={{ display: "flex", gap: "0.5rem" }}>
          <CartButtons returnTo={returnTo} proceedLabel={summary.proceedLabel} />
        </div>
      </section>
    </>
  );
}

/** The cart's two ways on (cart bar and cart page): start over (clear it, back to `returnTo`) and proceed to checkout. */
export function CartButtons({
  returnTo,
  proceedLabel,
}: {
  returnTo: string;
  proceedLabel: string | null;
}) {
  return (
    <>
      <Form method="post" action="/cart">
        <input type="hidden" name="intent" value="clear" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <button type="submit" className="button button-outline" data-testid="cart-start-over">
          {START_OVER_LABEL}
        </button>
      </Form>
      <Link to="/checkout" className="button" data-testid="cart-proceed">
        {proceedLabel}
      </Link>
    </>
  );
}

/**
 * /cart: the retailer's server-side cart. GET shows it; POST changes it (plain forms, no JavaScript needed):
 *   intent=add      listingId | requestId, size.<label>=qty, [type=buy|swap|sell], [returnTo=/path]
 *   intent=remove   listingId | requestId, [returnTo]
 *   intent=clear    "Start Over", [returnTo]
 *   intent=proceed  terms=on (sell: reason, floor_time) -> /checkout/review (buy, sell) or /checkout/swap (swap)
 * Each intent parses with Zod through parseSubmission (app/utils/cart.server.ts). Success redirects (303) to
 * returnTo (default /cart) with a notice; a refusal answers 4xx with Conform's reply and this page shows its
 * message. Ids the retailer cannot see: 404.
 * Staff browsing as admin have no cart: 403 with a clear message.
 */
import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { CART_MESSAGES, CART_TAB_PATHS } from "../../domain/cart";
import { formatCents } from "../../domain/money";
import { CartButtons } from "~/components/cart/CartBar";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import { cartRetailer, readFormData } from "~/utils/auth.server";
import {
  handleAdd,
  handleClear,
  handleProceed,
  handleRemove,
  loadCartSummary,
  refuse,
} from "~/utils/cart.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Cart") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, retailer } = await cartRetailer(request);
  if (!retailer) return { admin: true as const, summary: null };
  return { admin: false as const, summary: await loadCartSummary(auth) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { auth, retailer } = await cartRetailer(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (!retailer) return refuse(403, CART_MESSAGES.adminHasNoCart);
  switch (intent) {
    case "add":
      return handleAdd(retailer.id, form);
    case "remove":
      return handleRemove(retailer.id, form);
    case "clear":
      return handleClear(retailer.id, form);
    case "proceed":
      return handleProceed(auth, retailer, form);
    default:
      return refuse(400, "Unknown cart action.");
  }
}

function sizesText(selection: Record<string, number>): string {
  return Object.entries(selection)
    .map(([label, n]) => `${label} × ${n}`)
    .join(", ");
}

export default function CartPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form] = useForm({ id: "cart", lastResult: actionData?.result });
  const location = useLocation();
  if (d.admin) {
    return (
      <section className="page">
        <h1>Cart</h1>
        <div className="alert alert-warning" role="alert" data-testid="cart-admin">
          {CART_MESSAGES.adminHasNoCart}
        </div>
      </section>
    );
  }
  const s = d.summary!;
  return (
    <section className="page">
      <h1>Cart</h1>
      <ErrorList kind="form" testId="cart-error" errors={form.errors} />
      {s.dropped > 0 ? (
        <div className="alert alert-warning" role="status" data-testid="cart-dropped">
          {s.dropped === 1 ? CART_MESSAGES.itemDropped : CART_MESSAGES.itemsDropped(s.dropped)}
        </div>
      ) : null}
      {!s.type ? (
        <p data-testid="cart-empty">
          {CART_MESSAGES.emptyCart} Browse listings to <Link to="/buy">buy</Link> or{" "}
          <Link to="/swap">swap</Link>, or requests to <Link to="/sell">sell to</Link>.
        </p>
      ) : (
        <>
          <p>
            This cart is for a{" "}
            <strong>
              {s.type === "buy" ? "purchase" : s.type === "swap" ? "swap" : "sale to requests"}
            </strong>
            . Add more from <Link to={CART_TAB_PATHS[s.type]}>{CART_TAB_PATHS[s.type]}</Link>.
          </p>
          <table className="table" data-testid="cart-lines">
            <thead>
              <tr>
                <th>Product code</th>
                <th>Style</th>
                <th>Brand</th>
                <th>{s.type === "sell" ? "Requested by" : "Listed by"}</th>
                <th>Sizes</th>
                <th>Units</th>
                <th>Value</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {s.lines.map((l) => (
                <tr key={l.key} data-testid="cart-line" data-key={l.key}>
                  <td>{l.productCode}</td>
                  <td>
                    {l.displayName} ({l.color})
                  </td>
                  <td>{l.brandName}</td>
                  <td>{l.counterpartyLabel}</td>
                  <td>{sizesText(l.selection)}</td>
                  <td>{l.units}</td>
                  <td>{formatCents(l.valueCents)}</td>
                  <td>
                    <Form method="post" action="/cart">
                      <input type="hidden" name="intent" value="remove" />
                      {l.listingId !== null ? (
                        <input type="hidden" name="listingId" value={l.listingId} />
                      ) : null}
                      {l.requestId !== null ? (
                        <input type="hidden" name="requestId" value={l.requestId} />
                      ) : null}
                      <input type="hidden" name="returnTo" value="/cart" />
                      <button type="submit" className="link-button">
                        Remove
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={5}>Total</th>
                <th>{s.unitCount}</th>
                <th>{formatCents(s.goodsCents)}</th>
                <th />
              </tr>
            </tfoot>
          </table>
          <div className="form-actions">
            <CartButtons returnTo={location.pathname} proceedLabel={s.proceedLabel} />
          </div>
        </>
      )}
    </section>
  );
}

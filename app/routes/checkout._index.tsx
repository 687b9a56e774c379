/**
 * /checkout: the step between the cart and the draft orders
 * (docs/product/screens.md, "Cart and checkout"):
 * - buy: the purchase terms (checkbox required), then proceedFromCart -> /checkout/review;
 * - swap: without payout or an active listing of the brand the no-active-listings dialog; else the swap
 *   terms, then the swap draft's review and card step (/checkout/swap);
 * - sell (to requests): without payout the "Configure Payout Settings" prompt ('Setup My Payouts' ->
 *   /getpaid); else the sell info dialog (reason, floor_time: "* Please fill out everything to continue.")
 *   with the sell terms, then the offer is saved as a draft -> /checkout/review.
 * Plain forms: the dialogs are sections of the page, so all of it works without JavaScript.
 */
import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CART_MESSAGES, CHECKOUT_TERMS, proceedLabel } from "../../domain/cart";
import { FEE_PERCENT, purchaseQuote } from "../../domain/fees";
import {
  CONFIGURE_PAYOUT_TEXT,
  CONFIGURE_PAYOUT_TITLE,
  SELLER_CARD_NEEDED,
  SETUP_MY_PAYOUTS,
  SWAP_NO_ACTIVE_LISTINGS,
  SWAP_NO_PAYOUT,
} from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { FLOOR_TIMES, LISTING_REASONS } from "../../domain/reasons";
import { CardFields } from "~/components/CardFields";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import { cartRetailer, readFormData } from "~/utils/auth.server";
import { checkoutState, handleProceed, refuse } from "~/utils/cart.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Checkout") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, retailer } = await cartRetailer(request);
  if (!retailer) return { admin: true as const };
  const state = await checkoutState(auth, retailer);
  const s = state.summary;
  // Buy: a preview per seller (the draft orders are made on proceeding).
  const sellers = new Map<string, typeof s.lines>();
  if (s.type === "buy")
    for (const l of s.lines)
      sellers.set(l.counterpartyLabel, [...(sellers.get(l.counterpartyLabel) ?? []), l]);
  const preview = [...sellers].map(([label, lines]) => ({
    label,
    quote: purchaseQuote(
      lines.map((l) => ({ unitPriceCents: l.unitPriceCents, units: l.selection })),
    ),
  }));
  return {
    admin: false as const,
    summary: s,
    swapBlock: state.swapBlock,
    needsPayoutForSell: state.needsPayoutForSell,
    needsCardForSell: state.needsCardForSell,
    cardSubmissionId: state.cardSubmissionId,
    preview,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { auth, retailer } = await cartRetailer(request);
  const form = await readFormData(request);
  if (!retailer) return refuse(403, CART_MESSAGES.adminHasNoCart);
  if (form.get("intent") !== "proceed") return refuse(400, "Unknown checkout action.");
  return handleProceed(auth, retailer, form);
}

function Dialog({
  title,
  children,
  testId,
  delayed = false,
}: {
  title: string;
  children: React.ReactNode;
  testId: string;
  /** The terms appear 500 ms after the checkout begins (docs/product/screens.md, "Cart and checkout"): in CSS, so without scripts too. */
  delayed?: boolean;
}) {
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${testId}-title`}
      className={`card checkout-dialog${delayed ? " checkout-dialog-delayed" : ""}`}
      data-testid={testId}
      style={{ maxWidth: "44rem" }}
    >
      <h2 id={`${testId}-title`}>{title}</h2>
      {children}
    </div>
  );
}

export default function Checkout() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm<{ reason: string; floor_time: string; terms: string }>({
    id: "checkout",
    lastResult: actionData?.result,
  });
  const navigation = useNavigation();
  if (d.admin) {
    return (
      <section className="page">
        <h1>Checkout</h1>
        <div className="alert alert-warning" role="alert">
          {CART_MESSAGES.adminHasNoCart}
        </div>
      </section>
    );
  }
  const s = d.summary;
  const dialog =
    actionData?.dialog ??
    (d.swapBlock ? d.swapBlock : d.needsPayoutForSell ? "configure_payout" : null);
  if (!s.type) {
    return (
      <section className="page">
        <h1>Checkout</h1>
        {s.dropped > 0 ? (
          <div className="alert alert-warning" role="status" data-testid="cart-dropped">
            {s.dropped === 1 ? CART_MESSAGES.itemDropped : CART_MESSAGES.itemsDropped(s.dropped)}
          </div>
        ) : null}
        <p data-testid="checkout-empty">
          {CART_MESSAGES.emptyCart} <Link to="/buy">Browse listings</Link>.
        </p>
      </section>
    );
  }
  const terms = CHECKOUT_TERMS[s.type];
  return (
    <section className="page">
      <h1>{proceedLabel(s.type)}</h1>

      <p>
        {s.itemCount} {s.itemCount === 1 ? "item" : "items"}, {s.unitCount} units.{" "}
        <Link to="/cart">Review or change your cart</Link>.
      </p>

      {dialog === "configure_payout" ? (
        <Dialog title={CONFIGURE_PAYOUT_TITLE} testId="configure-payout">
          <p>{CONFIGURE_PAYOUT_TEXT}</p>
          <Link to="/getpaid" className="button">
            {SETUP_MY_PAYOUTS}
          </Link>
        </Dialog>
      ) : dialog === "no_payout" || dialog === "no_active_listings" ? (
        <Dialog title="You cannot swap yet" testId="no-active-listings">
          <p>{dialog === "no_payout" ? SWAP_NO_PAYOUT : SWAP_NO_ACTIVE_LISTINGS}</p>
          {dialog === "no_payout" ? (
            <Link to="/settings/payout" className="button">
              Open Payout Info
            </Link>
          ) : (
            <Link to="/addlisting" className="button">
              List a Product
            </Link>
          )}
        </Dialog>
      ) : (
        <>
          {s.type === "buy" && d.preview.length > 0 ? (
            <table className="table" data-testid="checkout-preview">
              <thead>
                <tr>
                  <th>Seller</th>
                  <th>Goods</th>
                  <th>{`Fee (${FEE_PERCENT.purchase}%)`}</th>
                  <th>Shipping</th>
                  <th>Total</th>
                </tr>
              </thead>
              <tbody>
                {d.preview.map((p) => (
                  <tr key={p.label}>
                    <td>{p.label}</td>
                    <td>{formatCents(p.quote.goodsCents)}</td>
                    <td>{formatCents(p.quote.feeCents)}</td>
                    <td>{formatCents(p.quote.shippingCents)}</td>
                    <td>{formatCents(p.quote.totalCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <Dialog
            title={s.type === "sell" ? "Sell to this request" : terms.title}
            testId="checkout-terms"
            delayed
          >
            <Form method="post" className="form-stack" data-testid="checkout-form">
              <input type="hidden" name="intent" value="proceed" />
              {s.type === "sell" ? (
                <>
                  <p>Tell the requesting retailer about your goods.</p>
                  <div className="form-row">
                    <div className="field">
                      <label htmlFor="sell-reason">Reason for selling</label>
                      <select
                        id="sell-reason"
                        name="reason"
                        defaultValue={fields.reason.initialValue ?? ""}
                      >
                        <option value="">Choose…</option>
                        {LISTING_REASONS.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="field">
                      <label htmlFor="sell-floor-time">Time on the sales floor</label>
                      <select
                        id="sell-floor-time"
                        name="floor_time"
                        defaultValue={fields.floor_time.initialValue ?? ""}
                      >
                        <option value="">Choose…</option>
                        {FLOOR_TIMES.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                  {d.needsCardForSell ? (
                    <div data-testid="sell-card">
                      <h3>Card on file</h3>
                      <p>{SELLER_CARD_NEEDED}</p>
                      <input type="hidden" name="submission_id" value={d.cardSubmissionId ?? ""} />
                      <CardFields errors={form.allErrors} />
                    </div>
                  ) : null}
                  <h3>{terms.title}</h3>
                </>
              ) : null}
              <ul>
                {terms.points.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
              <div className="field field-checkbox">
                <label htmlFor="checkout-terms-box">
                  <input
                    id="checkout-terms-box"
                    type="checkbox"
                    name="terms"
                    defaultChecked={fields.terms.initialValue === "on"}
                  />{" "}
                  {terms.accept}
                </label>
              </div>
              <ErrorList testId="checkout-form-error" errors={form.errors} />
              <div className="form-actions">
                <Link to="/cart" className="button button-outline">
                  Back to cart
                </Link>
                <button
                  type="submit"
                  className="button"
                  disabled={navigation.state === "submitting"}
                  data-testid="checkout-continue"
                >
                  Continue
                </button>
              </div>
            </Form>
          </Dialog>
        </>
      )}
    </section>
  );
}

/**
 * /checkout/swap (?order=<id> after a declined card): the swap review and card step (spec 001 §2 "swap
 * review", "card modal"). Server side: app/utils/swap-checkout.server.ts. The card step cannot be
 * dismissed: it is the page.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { CardChoice, ElementsPayForm } from "~/components/orders/PayCard";
import { CardFields } from "~/components/CardFields";
import { DraftLinesTable } from "~/components/orders/DraftLines";
import { pageTitle } from "~/components/title";
import type { PayActionData } from "~/utils/checkout.server";
import { swapCheckoutAction, swapCheckoutLoader } from "~/utils/swap-checkout.server";
import { formatCents } from "../../domain/money";

export const meta: MetaFunction = () => [{ title: pageTitle("Review your swap") }];

export async function loader({ request }: LoaderFunctionArgs) {
  return swapCheckoutLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return swapCheckoutAction(request);
}

export default function SwapCheckout() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<PayActionData>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = busy ? {} : actionData ? actionData.errors : "declinedMessage" in d && d.declinedMessage ? { "": d.declinedMessage } : {};
  const [choice, setChoice] = useState<"saved" | "new">("card" in d && d.card ? "saved" : "new");
  if (d.admin) {
    return (
      <section className="page">
        <h1>Review your swap</h1>
        <div className="alert alert-warning" role="alert">
          Staff browsing as admin have no swap to check out: act as a retailer first.
        </div>
      </section>
    );
  }
  const s = d.swap;
  if (!s || !s.awaitingCheckout) {
    return (
      <section className="page">
        <h1>Review your swap</h1>
        <p data-testid="swap-checkout-empty">
          There is no swap waiting for checkout. <Link to="/cart">Open your cart</Link> or see your <Link to="/alerts">Pending Orders</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>Review your swap</h1>
      <article className="card" data-testid="swap-review" data-order-id={s.id} style={{ marginBottom: "1rem" }}>
        <h2>
          Swap {s.externalId} <span className="pill">{s.displayStatus}</span>
        </h2>
        <p>You receive from {s.counterpartyLabel}:</p>
        <DraftLinesTable lines={s.lines} />
        <p>
          {s.counterpartyLabel} then chooses what it would like from your swap listings of this brand. Both of you approve the same terms
          before anything is charged; the side whose goods are worth less adds the difference unless one of you calls it even.
        </p>
        <dl className="order-amounts" data-testid="swap-amounts">
          <dt>Goods you receive</dt>
          <dd data-testid="amount-goods">{formatCents(s.estimate.goodsCents)}</dd>
          <dt>Fee (5% of the larger value, so far)</dt>
          <dd data-testid="amount-fee">{formatCents(s.estimate.feeCents)}</dd>
          <dt>Shipping of the units you receive</dt>
          <dd data-testid="amount-shipping">{formatCents(s.estimate.shippingCents)}</dd>
          <dt>Pre-authorised now</dt>
          <dd data-testid="amount-authorize">
            <strong>{formatCents(s.estimate.authorizeCents)}</strong>
          </dd>
        </dl>
      </article>

      <div role="dialog" aria-modal="false" aria-labelledby="card-step-title" className="card checkout-dialog" data-testid="card-step" style={{ maxWidth: "44rem" }}>
        <h2 id="card-step-title">Your card</h2>
        {errors[""] ? (
          <div className="alert alert-danger" role="alert" data-testid="pay-error">
            {errors[""]}
          </div>
        ) : null}
        {d.mode === "elements" && d.publishableKey && choice === "new" ? (
          <>
            {d.card ? <CardChoice card={d.card} choice={choice} onChange={setChoice} standalone /> : null}
            <ElementsPayForm publishableKey={d.publishableKey} busy={busy} total={s.estimate.authorizeCents} />
          </>
        ) : (
          <Form method="post" action={`/checkout/swap?order=${s.id}`} className="form-stack" data-testid="pay-form" autoComplete="off">
            <input type="hidden" name="form_id" value={d.formId} readOnly />
            {d.card ? <CardChoice card={d.card} choice={choice} onChange={setChoice} /> : <input type="hidden" name="card_choice" value="new" />}
            {choice === "new" ? <CardFields provider={d.provider} errors={errors} /> : null}
            <div className="form-actions">
              <Link to="/cart" className="button button-outline">
                Back to cart
              </Link>
              <button type="submit" className="button" disabled={busy} data-testid="pay-submit">
                {busy ? "Processing…" : "Request Swap"}
              </button>
            </div>
          </Form>
        )}
      </div>
    </section>
  );
}

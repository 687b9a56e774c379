/**
 * /checkout/swap (?order=<id> after a declined card): the swap review and card step (docs/product/screens.md,
 * "Cart and checkout"). Server side: app/routes/checkout.swap.server.ts. The card step cannot be
 * dismissed: it is the page.
 */
import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { FEE_PERCENT } from "../../domain/fees";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { CardStep } from "~/components/orders/PayCard";
import { DraftLinesTable } from "~/components/orders/DraftLines";
import { pageTitle } from "~/components/title";
import type { PayActionData } from "~/utils/checkout.server";
import { swapCheckoutAction, swapCheckoutLoader } from "./checkout.swap.server";
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
  const [form] = useForm({ id: "checkout-swap", lastResult: busy ? null : actionData?.result });
  const declined = !busy && !actionData && "declinedMessage" in d ? d.declinedMessage : null;
  const errors = busy ? {} : { ...form.allErrors, "": declined ?? form.errors };
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
          There is no swap waiting for checkout. <Link to="/cart">Open your cart</Link> or see your{" "}
          <Link to="/alerts">Pending Orders</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>Review your swap</h1>
      <article
        className="card"
        data-testid="swap-review"
        data-order-id={s.id}
        style={{ marginBottom: "1rem" }}
      >
        <h2>
          Swap {s.externalId} <span className="pill">{s.displayStatus}</span>
        </h2>
        <p>You receive from {s.counterpartyLabel}:</p>
        <DraftLinesTable lines={s.lines} />
        <p>
          {s.counterpartyLabel} then chooses what it would like from your swap listings of this
          brand. Both of you approve the same terms before anything is charged; the side whose goods
          are worth less adds the difference unless one of you calls it even.
        </p>
        <dl className="order-amounts" data-testid="swap-amounts">
          <dt>Goods you receive</dt>
          <dd data-testid="amount-goods">{formatCents(s.estimate.goodsCents)}</dd>
          <dt>{`Fee (${FEE_PERCENT.swap}% of the larger value, so far)`}</dt>
          <dd data-testid="amount-fee">{formatCents(s.estimate.feeCents)}</dd>
          <dt>Shipping of the units you receive</dt>
          <dd data-testid="amount-shipping">{formatCents(s.estimate.shippingCents)}</dd>
          <dt>Pre-authorised now</dt>
          <dd data-testid="amount-authorize">
            <strong>{formatCents(s.estimate.authorizeCents)}</strong>
          </dd>
        </dl>
        {s.storeApprovalNote ? (
          <p className="alert alert-info" data-testid="swap-store-approval">
            {s.storeApprovalNote}
          </p>
        ) : null}
      </article>

      <CardStep
        data={d}
        errors={errors}
        busy={busy}
        submitLabel="Request Swap"
        action={`/checkout/swap?order=${s.id}`}
        back={{ to: "/cart", label: "Back to cart" }}
      />
    </section>
  );
}

/**
 * /transaction/:ttype/:id (docs/product/screens.md "Order detail"): the status, any decline or cancel reason
 * ("Other Retailer:" / "You:"), order number, brand, transaction type and the counterparty (anonymous), the
 * goods and amounts, and the action panel chosen by the state name (a purchase's:
 * app/components/orders/BuyPanels.tsx; a swap's: SwapPanel). Opening the detail marks the other party's
 * updates seen (clears the alert count). The server half, one function per intent, is transaction.$ttype.$id.server.ts.
 */
import { useForm } from "@conform-to/react";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { GO_BACK } from "../../domain/messages";
import { swapPaymentDueText } from "../../domain/swap-texts";
import { FLOOR_TIMES, labelFor } from "../../domain/reasons";
import {
  CompleteCheckoutPanel,
  ProviderApprovePanel,
  ShipmentPendingPanel,
  StoreApprovalPanel,
  SummaryPanel,
  type DetailActionData,
  type DetailErrors,
} from "~/components/orders/BuyPanels";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import {
  ActionMessage,
  Amounts,
  firstError,
  payoutPendingText,
  swapSideLabel,
} from "~/components/orders/OrderDetailParts";
import {
  LinesTable,
  PaymentsList,
  ShipmentsList,
  UpdatesList,
} from "~/components/orders/OrderParts";
import ordersCss from "~/components/orders/orders.css";
import { SwapPanel } from "~/components/orders/SwapPanel";
import { Conversation } from "~/components/orders/Conversation";
import { pageTitle } from "~/components/title";
import { readFormData, requireTradingRetailer } from "~/utils/auth.server";
import { mayApproveForStore, orderViewer } from "~/utils/orders.server";
import {
  addCard,
  approveModified,
  cancelShipment,
  completeCheckout,
  declineCheckout,
  declineModified,
  declineSale,
  fail,
  loadOrder,
  notFound,
  orderDetailPage,
  respond,
  storeApprove,
  storeDecline,
  swapIntent,
} from "./transaction.$ttype.$id.server";
import { conversationFor } from "~/utils/messages.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: pageTitle(d ? `Order ${d.order.externalId}` : "Order") },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await orderViewer(request);
  const page = await orderDetailPage(params, viewer);
  return {
    ...page,
    conversation: await conversationFor(page.order, { ...viewer, role: page.order.role ?? null }),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  // Order commands are trading: an inactive or pending retailer is refused before anything is sent.
  const auth = await requireTradingRetailer(request);
  const order = await loadOrder(params, {
    retailerId: auth.retailer.id,
    isStaff: auth.user.isStaff,
  });
  if (!order.role) notFound();
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const c = {
    order,
    form,
    intent,
    actor: auth.retailer.id,
    user: {
      id: auth.user.id,
      mayApprove: mayApproveForStore(auth.user),
    },
  };
  // The store's approval over a buyer's limit, of a purchase or a swap (docs/product/teams.md).
  if (intent === "store_approve") return storeApprove(c);
  if (intent === "store_decline") return storeDecline(c);
  if (order.ttype === "swap") return swapIntent(c);
  switch (intent) {
    case "complete_checkout":
      return completeCheckout(c);
    case "decline_checkout":
      return declineCheckout(c);
    case "respond":
      return respond(c);
    case "add_card":
      return addCard(c);
    case "decline":
      return declineSale(c);
    case "approve_modified":
      return approveModified(c);
    case "decline_modified":
      return declineModified(c);
    case "cancel_shipment":
      return cancelShipment(c);
    default:
      return fail(intent, 400, "Unknown action.");
  }
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export default function TransactionDetail() {
  const tz = useMarketplaceZone();
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as DetailActionData | undefined;
  const [form] = useForm({ id: "order-action", lastResult: a });
  // The last answer's refusal (none after a success, or once the page moved on).
  const errors: DetailErrors = a?.status === "error" ? form.allErrors : undefined;
  const navigate = useNavigate();
  const o = d.order;
  const backTo =
    o.stage === "pre_shipping"
      ? "/alerts"
      : o.stage === "declined"
        ? "/alerts?status=declined"
        : "/orders";

  useEffect(() => {
    if (a?.redirectTo && a.delayMs) {
      const t = window.setTimeout(() => navigate(a.redirectTo!), a.delayMs);
      return () => window.clearTimeout(t);
    }
  }, [a, navigate]);

  return (
    <section
      className="page order-detail"
      data-testid="order-detail"
      data-statename={o.statename}
      data-panel={d.panel}
    >
      <p>
        <Link to={backTo} data-testid="go-back">
          ← {GO_BACK}
        </Link>
      </p>
      <h1>
        Order {o.externalId}{" "}
        <span className="pill" data-testid="display-status">
          {(o.ttype === "swap" && o.role
            ? swapPaymentDueText(o.statename, d.swap?.view?.[o.role])
            : null) ?? o.displayStatus}
        </span>
      </h1>
      {o.reasons.map((r) => (
        <p key={r.key} className="reason" data-testid="reason">
          {r.text}
        </p>
      ))}
      {a ? <ActionMessage a={a} errors={errors} /> : null}
      <dl className="facts">
        <dt>Order number</dt>
        <dd data-testid="order-number">{o.externalId}</dd>
        <dt>Brand</dt>
        <dd>{o.brandName ?? "—"}</dd>
        <dt>Transaction type</dt>
        <dd data-testid="type-label">{o.typeLabel}</dd>
        <dt>{o.role ? "Other retailer" : "Retailers"}</dt>
        <dd data-testid="counterparty">{o.counterpartyLabel}</dd>
        <dt>Created</dt>
        <dd>{formatDate(o.createdAt, tz)}</dd>
        {o.placedBy ? (
          <>
            <dt>Placed by</dt>
            <dd data-testid="placed-by">{o.placedBy}</dd>
          </>
        ) : null}
        {o.approvedBy ? (
          <>
            <dt>Approved by</dt>
            <dd data-testid="approved-by">{o.approvedBy}</dd>
          </>
        ) : null}
        {o.floorTime && (d.viewerIsStaff || o.role === "provider") ? (
          <>
            <dt>Time on the sales floor</dt>
            <dd>{labelFor(FLOOR_TIMES, o.floorTime) ?? o.floorTime}</dd>
          </>
        ) : null}
      </dl>
      <Panel d={d} a={a} errors={errors} />
      <h2>Goods</h2>
      {o.ttype === "swap" ? (
        // A swap's goods as they stand (a removed line keeps its row with no units), each with whose it is.
        <LinesTable
          lines={o.lines.filter((l) => l.type === "goods" && l.quantity > 0)}
          sideLabel={(side) => swapSideLabel(o, side)}
        />
      ) : (
        <LinesTable
          lines={o.lines}
          showPending={o.statename === "receiver_approve_modified_purchase"}
        />
      )}
      <Amounts o={o} />
      {o.shipments.length > 0 ? (
        <>
          <h2>Shipping</h2>
          <ShipmentsList shipments={o.shipments} />
        </>
      ) : null}
      {o.role ? (
        <>
          <h2>Payments</h2>
          <PaymentsList payments={o.payments} payoutPending={payoutPendingText(o)} />
        </>
      ) : null}
      <Conversation c={d.conversation} staffViewer={!o.role} />
      {d.viewerIsStaff ? (
        <details>
          <summary>Updates</summary>
          <UpdatesList actions={o.actions} now={d.now} />
          <p>
            <Link to={`/admin/active-transactions?order=${o.id}`}>Open the admin order card</Link>
          </p>
        </details>
      ) : null}
    </section>
  );
}

function Panel({
  d,
  a,
  errors,
}: {
  d: LoaderData;
  a: DetailActionData | undefined;
  errors: DetailErrors;
}) {
  const o = d.order;
  if (!o.role) return <div className="order-panel muted">Staff view: read-only.</div>;
  if (d.panel === "store-approval") return <StoreApprovalPanel o={o} decision={d.storeDecision} />;
  if (o.ttype === "swap") {
    return (
      <SwapPanel
        order={o}
        view={d.swap?.view ?? null}
        choices={d.swap?.choices ?? []}
        listings={d.swap?.listings ?? null}
        error={firstError(errors) ?? null}
        cardErrors={errors}
        canRma={d.canRma}
        myRma={d.myRma}
        now={d.now}
      />
    );
  }
  switch (d.panel) {
    case "complete-checkout":
      return <CompleteCheckoutPanel o={o} a={a} errors={errors} />;
    case "provider-approve":
      return <ProviderApprovePanel o={o} a={a} errors={errors} />;
    case "shipment-pending":
      return <ShipmentPendingPanel o={o} />;
    default:
      return <SummaryPanel d={d} />;
  }
}

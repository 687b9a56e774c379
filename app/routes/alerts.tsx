/**
 * /alerts (docs/product/screens.md, "Alerts"): pending orders (and /alerts?status=declined the declined ones) in
 * three tabs, Sales, Purchases and Swaps, each with a bell badge when that kind has orders waiting for this
 * retailer. Cards: order id, brand, a status link to the detail, amount (not for swaps), time since modified.
 * Counters refresh every 15 s (revalidation). POST intent=seen with ids marks those orders' actions seen
 * (transactionactiondetail/seen), which clears the action count; opening a detail does the same. Above the
 * tabs, the returns filed against the retailer with news it has not seen (RmaAlerts; opening the RMA clears one).
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { unseenMatchCount } from "../../db/queries/matches";
import { markOrdersSeen } from "../../db/queries/order-seen";
import {
  alertCounters,
  isOrderKindTab,
  listAlerts,
  ORDER_KIND_TABS,
  type OrderKindTab,
} from "../../db/queries/order-views/retailer-lists";
import { alertsEmptyText, TRANSACTION_LABELS } from "../../domain/messages";
import { OrderCardView, Pager } from "~/components/orders/OrderCard";
import { RmaAlerts } from "~/components/rma/RmaAlerts";
import ordersCss from "~/components/orders/orders.css";
import { ALERTS_POLL_MS, useRevalidateEvery } from "~/components/orders/useRevalidateEvery";
import { pageTitle } from "~/components/title";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { parseSubmission } from "~/utils/form.server";
import { rmaAlerts } from "~/utils/rma-list.server";
import { messageAlerts } from "~/utils/messages.server";
import { MessageAlerts } from "~/components/orders/MessageAlerts";
import { HeldPaymentAlerts } from "~/components/orders/HeldPaymentAlerts";
import { listRetailerHeldPayments } from "../../db/queries/held-payments";
import { heldWhat, retailerTodo, type HeldNeed } from "../../domain/held-payments";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Alerts") }];

export const TAB_LABELS: Record<OrderKindTab, string> = {
  sales: "Sales",
  purchases: "Purchases",
  swaps: "Swaps",
};
const EMPTY_LINKS: Record<OrderKindTab, { to: string; text: string }> = {
  sales: { to: "/addlisting", text: "List something to sell" },
  purchases: { to: "/requestlisting", text: "Request a style" },
  swaps: { to: "/swap", text: "Start a swap" },
};

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireRetailer(request);
  const url = new URL(request.url);
  const view =
    url.searchParams.get("status") === "declined" ? ("declined" as const) : ("pending" as const);
  const counters = await alertCounters(db, auth.retailer.id);
  const tabParam = url.searchParams.get("tab");
  let tab: OrderKindTab;
  if (tabParam !== null) {
    if (!isOrderKindTab(tabParam)) throw new Response("Unknown tab", { status: 404 });
    tab = tabParam;
  } else {
    // Open the first tab that has alerts.
    tab =
      counters.sale_alerts > 0
        ? "sales"
        : counters.purchase_alerts > 0
          ? "purchases"
          : counters.swap_alerts > 0
            ? "swaps"
            : "sales";
  }
  const offset = Math.max(
    0,
    Math.min(1_000_000, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0),
  );
  const limit = Math.max(
    1,
    Math.min(100, Number.parseInt(url.searchParams.get("limit") ?? "", 10) || 4),
  );
  const page = await listAlerts(db, auth.retailer.id, { kind: tab, view, limit, offset });
  const returns =
    view === "pending" ? await rmaAlerts(db, auth.retailer.id) : { total: 0, items: [] };
  const messages =
    view === "pending" ? await messageAlerts(auth.retailer.id) : { total: 0, items: [] };
  const newMatches = await unseenMatchCount(db, auth.retailer.id);
  // Its payments on hold (docs/decisions/0044-payments-needing-attention.md): what, and what to do.
  const held = (await listRetailerHeldPayments(db, auth.retailer.id)).map((h) => ({
    paymentId: h.paymentId,
    text: heldWhat({
      kind: h.kind,
      amountCents: h.amountCents,
      orderExternalId: h.orderExternalId,
    }),
    todo: retailerTodo(h.need as HeldNeed),
  }));
  return { view, tab, counters, page, returns, messages, newMatches, held, now: Date.now() };
}

/** intent=seen with the orders' ids (up to 500; what is not an id is left out). */
const SeenSchema = z.object({
  intent: z.literal("seen"),
  ids: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) =>
      (v === undefined ? [] : Array.isArray(v) ? v : [v])
        .filter((x) => /^\d{1,9}$/.test(x))
        .map(Number)
        .slice(0, 500),
    ),
});

export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireRetailer(request);
  const submission = parseSubmission(await readFormData(request), { schema: SeenSchema });
  if (submission.status !== "success")
    return data(
      { result: submission.reply({ formErrors: ["Unknown action."] }), marked: 0 },
      { status: 400 },
    );
  const marked = await markOrdersSeen(db, auth.retailer.id, submission.value.ids);
  return { result: submission.reply(), marked };
}

function alertCount(
  counters: { sale_alerts: number; purchase_alerts: number; swap_alerts: number },
  tab: OrderKindTab,
): number {
  return tab === "sales"
    ? counters.sale_alerts
    : tab === "purchases"
      ? counters.purchase_alerts
      : counters.swap_alerts;
}

export default function Alerts() {
  const d = useLoaderData<typeof loader>();
  useRevalidateEvery(ALERTS_POLL_MS);
  const qs = (tab: OrderKindTab, offset = 0) => {
    const p = new URLSearchParams();
    if (d.view === "declined") p.set("status", "declined");
    p.set("tab", tab);
    if (offset) p.set("offset", String(offset));
    return `/alerts?${p.toString()}`;
  };
  return (
    <section className="page" data-testid="alerts-page" data-view={d.view}>
      <nav className="order-links" aria-label="Orders">
        <Link to="/alerts" className={d.view === "pending" ? "active" : ""}>
          {TRANSACTION_LABELS.pendingOrders}
        </Link>
        <Link to="/orders">{TRANSACTION_LABELS.approvedOrders}</Link>
        <Link to="/alerts?status=declined" className={d.view === "declined" ? "active" : ""}>
          {TRANSACTION_LABELS.declinedOrders}
        </Link>
      </nav>
      <h1>
        {d.view === "declined"
          ? TRANSACTION_LABELS.declinedOrders
          : TRANSACTION_LABELS.pendingOrders}
      </h1>
      {d.counters.unseen.total > 0 ? (
        <p className="muted" data-testid="action-count">
          {d.counters.unseen.total} new update{d.counters.unseen.total === 1 ? "" : "s"} waiting for
          you.
        </p>
      ) : null}
      <HeldPaymentAlerts items={d.held} />
      <RmaAlerts {...d.returns} />
      <MessageAlerts {...d.messages} />
      <nav className="order-tabs" role="tablist">
        {ORDER_KIND_TABS.map((t) => {
          const n = alertCount(d.counters, t);
          return (
            <Link
              key={t}
              to={qs(t)}
              role="tab"
              aria-selected={t === d.tab}
              className={t === d.tab ? "active" : ""}
              data-testid={`tab-${t}`}
            >
              {TAB_LABELS[t]}
              {n > 0 ? (
                <span className="bell" data-testid={`bell-${t}`} aria-label={`${n} waiting`}>
                  🔔 {n}
                </span>
              ) : null}
            </Link>
          );
        })}
        <Link to="/alerts/matches" role="tab" aria-selected={false} data-testid="tab-matches">
          Matches
          {d.newMatches > 0 ? (
            <span className="bell" data-testid="bell-matches" aria-label={`${d.newMatches} new`}>
              🔔 {d.newMatches}
            </span>
          ) : null}
        </Link>
        <Link to="/alerts/offers" role="tab" aria-selected={false} data-testid="tab-offers">
          Offers
        </Link>
      </nav>
      {d.page.items.length === 0 ? (
        <p data-testid="alerts-empty">
          {alertsEmptyText(d.view, d.tab)}
          {d.view === "pending" ? (
            <>
              {" "}
              <Link to={EMPTY_LINKS[d.tab].to} data-testid="empty-link">
                {EMPTY_LINKS[d.tab].text}
              </Link>
            </>
          ) : null}
        </p>
      ) : (
        <div className="order-cards">
          {d.page.items.map((o) => (
            <OrderCardView key={o.id} o={o} now={d.now} />
          ))}
        </div>
      )}
      <Pager
        total={d.page.total}
        limit={d.page.limit}
        offset={d.page.offset}
        hrefFor={(off) => qs(d.tab, off)}
      />
    </section>
  );
}

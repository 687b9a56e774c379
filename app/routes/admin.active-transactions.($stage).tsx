/**
 * /admin/active-transactions/:stage? (docs/product/screens.md, "Staff: transactions"): every order, filtered by stage (all,
 * pre_shipping (pending), approved, shipping, delivered, complete, declined, cancelled), by type (1 Sale,
 * 2 Swap, 3 RMA) and by action code (domain/action-codes, with their labels). Each order is an admin order
 * card (summary, updates, Shipping, Payments + ledger); ?order=<id>&tab=<tab> opens one. Staff tools on the
 * Shipping tab (app/utils/carrier-tools.server.ts): schedule pickup books a new call tag through the order's
 * workflow; simulate pickup and simulate delivery post a signed event to /webhooks/carrier, the same path the
 * carrier uses (app/utils/webhooks.server.ts simulateCarrierEvent).
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { expireStaleDrafts } from "../../db/queries/checkout";
import { getOrderDetail } from "../../db/queries/order-views/order-detail";
import { listAdminOrders } from "../../db/queries/order-views/staff-lists";
import { ADMIN_ACTION_FILTER_OPTIONS, isActionCode } from "../../domain/action-codes";
import {
  ADMIN_STAGE_LABELS,
  ADMIN_STAGES,
  isAdminStage,
  TRANSACTION_TYPE_OPTIONS,
  type AdminStage,
} from "../../domain/states";
import {
  AdminOrderCard,
  isAdminCardTab,
  type AdminCardTab,
} from "~/components/orders/AdminOrderCard";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { ActionError } from "~/components/admin/ActionError";
import { requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { paymentsDashboardBase } from "~/utils/env.server";
import { carrierToolsScreenAction } from "~/utils/carrier-tools.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Active transactions") }];

function intParam(v: string | null, max = 1_000_000_000): number | null {
  if (v === null || v === "") return null;
  if (!/^\d{1,10}$/.test(v)) throw new Response("Bad filter", { status: 400 });
  const n = Number(v);
  if (n > max) throw new Response("Bad filter", { status: 400 });
  return n;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  const url = new URL(request.url);
  const stageRaw = params.stage ?? url.searchParams.get("stage") ?? "all";
  if (!isAdminStage(stageRaw)) throw new Response("Unknown stage", { status: 404 });
  const stage: AdminStage = stageRaw;
  const type = intParam(url.searchParams.get("type"), 3);
  if (type !== null && ![1, 2, 3].includes(type))
    throw new Response("Unknown type", { status: 400 });
  const actionCode = intParam(url.searchParams.get("action"), 9999);
  if (actionCode !== null && !isActionCode(actionCode))
    throw new Response("Unknown action code", { status: 400 });
  const offset = intParam(url.searchParams.get("offset")) ?? 0;
  const expanded = intParam(url.searchParams.get("order"));
  const tabRaw = url.searchParams.get("tab") ?? "summary";
  const tab: AdminCardTab = isAdminCardTab(tabRaw) ? tabRaw : "summary";

  // Cart drafts never checked out expire after 24 hours: written down before staff read the list.
  await expireStaleDrafts(db);
  const page = await listAdminOrders(db, { stage, type, action: actionCode, offset, limit: 25 });
  const detail = expanded
    ? await getOrderDetail(db, expanded, { retailerId: null, isStaff: true })
    : null;
  // An order asked for by id but outside the filtered page is shown on top.
  const rows = [...page.items];
  if (detail && !rows.some((r) => r.id === detail!.id)) {
    rows.unshift({
      id: detail.id,
      externalId: detail.externalId,
      ttype: detail.ttype,
      transactionType: detail.transactionType,
      typeLabel: detail.typeLabel,
      brandName: detail.brandName,
      providerId: detail.providerId,
      receiverId: detail.receiverId,
      providerName: detail.providerLabel,
      receiverName: detail.receiverLabel,
      statename: detail.statename,
      displayStatus: detail.displayStatus,
      stage: detail.stage,
      actionNeeded: detail.actionNeeded,
      valueCents: detail.amounts.valueCents,
      receiverGrandTotalCents: detail.amounts.receiverGrandTotalCents,
      lastActionCode: detail.actions.at(-1)?.code ?? null,
      lastActionLabel: detail.actions.at(-1)?.label ?? null,
      floorTime: detail.floorTime,
      modifiedAt: detail.modifiedAt,
    });
  }
  const dashboardBase = paymentsDashboardBase();
  return {
    stage,
    type,
    actionCode,
    rows,
    page: { total: page.total, limit: page.limit, offset: page.offset },
    detail,
    tab,
    notice: url.searchParams.get("notice"),
    now: Date.now(),
    dashboardBase,
  };
}

const CARRIER_NOTICES: Record<string, string> = {
  pre_transit: "Pickup scheduled with the carrier.",
  picked_up: "Pickup simulated: the carrier's event was sent.",
  delivered: "Delivery simulated: the carrier's event was sent.",
};

export async function action({ request }: ActionFunctionArgs) {
  return carrierToolsScreenAction(request);
}

/** The type and action filters as a query, so that a stage tab keeps them. */
function filterQuery(d: { type: number | null; actionCode: number | null }): string {
  const q = new URLSearchParams();
  if (d.type !== null) q.set("type", String(d.type));
  if (d.actionCode !== null) q.set("action", String(d.actionCode));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export default function ActiveTransactions() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>();
  const base = (extra: Record<string, string | number | null> = {}) => {
    const p = new URLSearchParams();
    if (d.type) p.set("type", String(d.type));
    if (d.actionCode) p.set("action", String(d.actionCode));
    if (d.page.offset) p.set("offset", String(d.page.offset));
    for (const [k, v] of Object.entries(extra)) {
      if (v === null) p.delete(k);
      else p.set(k, String(v));
    }
    const q = p.toString();
    return `/admin/active-transactions/${d.stage}${q ? `?${q}` : ""}`;
  };
  return (
    <section className="page" data-testid="admin-transactions">
      <p>
        <Link to="/admin">Admin</Link> · <Link to="/admin/active-shipments">Active shipments</Link>
      </p>
      <h1>Transactions</h1>
      <nav className="order-tabs" role="tablist">
        {ADMIN_STAGES.map((s) => (
          <Link
            key={s}
            to={`/admin/active-transactions/${s}${filterQuery(d)}`}
            className={s === d.stage ? "active" : ""}
            role="tab"
            aria-selected={s === d.stage}
            data-testid={`stage-${s}`}
          >
            {ADMIN_STAGE_LABELS[s]}
          </Link>
        ))}
      </nav>
      <Form
        method="get"
        action={`/admin/active-transactions/${d.stage}`}
        className="filters"
        data-testid="admin-filters"
      >
        <label>
          Type{" "}
          <select name="type" defaultValue={d.type ?? ""}>
            <option value="">All</option>
            {TRANSACTION_TYPE_OPTIONS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.value} {t.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action{" "}
          <select name="action" defaultValue={d.actionCode ?? ""} data-testid="action-filter">
            <option value="">All</option>
            {ADMIN_ACTION_FILTER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-small">
          Filter
        </button>
      </Form>
      {d.notice && CARRIER_NOTICES[d.notice] ? (
        <div className="alert alert-success" role="status" data-testid="admin-notice">
          {CARRIER_NOTICES[d.notice]}
        </div>
      ) : null}
      <ActionError id="carrier-tools" lastResult={a} testId="admin-error" />
      {d.rows.length === 0 ? (
        <p data-testid="admin-empty">No transactions match these filters.</p>
      ) : null}
      {d.rows.map((row) => (
        <AdminOrderCard
          key={row.id}
          row={row}
          detail={d.detail && d.detail.id === row.id ? d.detail : null}
          tab={d.tab}
          hrefFor={(id, tab) => base({ order: id, tab, notice: null })}
          closeHref={base({ order: null, tab: null, notice: null })}
          now={d.now}
          dashboardBase={d.dashboardBase}
        />
      ))}
      <Pager
        total={d.page.total}
        limit={d.page.limit}
        offset={d.page.offset}
        hrefFor={(off) => base({ offset: off, order: null, tab: null, notice: null })}
      />
    </section>
  );
}

/**
 * /admin/active-rmas/:stage? (docs/product/screens.md, "Staff: RMAs"): every RMA by tab (all, pending,
 * shipping, completed, declined), newest change first, with both parties' store names (staff see names).
 * ?rma=<id> opens an RMA's card (app/components/rma/AdminRmaCard.tsx), where staff decide a pending RMA.
 * The server half is admin.active-rmas.($stage).server.ts.
 */
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data } from "@remix-run/node";
import { useForm } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  ADMIN_RMA_STATUSES,
  ADMIN_RMA_TABS,
  type AdminRmaStatus,
  type AdminRmaTab,
} from "../../db/queries/rmas";
import { RMA_DISPLAY_STATUS } from "../../domain/states";
import { ErrorList } from "~/components/forms";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { RmaCard, type AdminRmaActionData } from "~/components/rma/AdminRmaCard";
import { pageTitle } from "~/components/title";
import { readFormData, requireStaff } from "~/utils/auth.server";
import { formError } from "~/utils/form.server";
import { carrierToolsAction } from "~/utils/carrier-tools.server";
import { adminRmasPage, decide, reviewDecision } from "./admin.active-rmas.($stage).server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("RMAs") }];

const STATUS_LABELS: Record<AdminRmaStatus, string> = {
  ...(RMA_DISPLAY_STATUS as Record<
    "rmarequested" | "shipping" | "rmacompleted" | "rmadeclined" | "rmacancelled",
    string
  >),
  overdue: "Staff answer overdue",
  charge_queued: "Charge queued for a card",
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request);
  return adminRmasPage(new URL(request.url), params.stage);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const auth = await requireStaff(request);
  const form = await readFormData(request);
  switch (form.get("intent")) {
    case "carrier":
      return carrierToolsAction(request, form);
    case "review":
      return reviewDecision(form, auth.user.id);
    case "decide":
      return decide(request, params.stage, form, auth.user.id);
    default:
      return data<AdminRmaActionData>(formError("Unknown action."), { status: 400 });
  }
}

export default function AdminRmas() {
  const tz = useMarketplaceZone();
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>() as AdminRmaActionData | undefined;
  const [form] = useForm({ id: "rma-decision", lastResult: a });
  // What the last answer refused (nothing once it is gone: a new page).
  const errors = a ? form.allErrors : {};
  const error = Object.values(errors).flat()[0];
  const q = d.status ? `?status=${d.status}` : "";
  return (
    <section className="page" data-testid="admin-rmas">
      <p>
        <Link to="/admin">← Admin</Link>
      </p>
      <h1>RMAs</h1>
      <nav className="order-tabs" role="tablist">
        {(Object.keys(ADMIN_RMA_TABS) as AdminRmaTab[]).map((t) => (
          <Link
            key={t}
            to={`/admin/active-rmas/${t}${q}`}
            role="tab"
            aria-selected={t === d.tab}
            className={t === d.tab ? "active" : ""}
            data-testid={`rma-tab-${t}`}
          >
            {t}
          </Link>
        ))}
      </nav>
      <Form method="get" className="inline-form" data-testid="rma-status-filter">
        <label>
          Status{" "}
          <select name="status" defaultValue={d.status} data-testid="rma-status">
            <option value="">Any status</option>
            {ADMIN_RMA_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className="button button-outline" data-testid="rma-status-apply">
          Filter
        </button>
      </Form>
      <ErrorList kind="form" errors={error} testId="admin-error" />
      {d.notice === "decided" ? (
        <div className="alert alert-success" role="status" data-testid="admin-notice">
          The RMA was processed.{" "}
          {d.decided ? (
            <Link
              to={`/admin/active-rmas/${d.tab}?rma=${d.decided}`}
              data-testid="admin-notice-open"
            >
              Open it
            </Link>
          ) : null}
        </div>
      ) : null}
      {d.open && d.detail ? (
        <RmaCard
          rma={d.open}
          detail={d.detail}
          tab={d.cardTab}
          now={d.now}
          review={a?.review}
          errors={errors}
          dashboardBase={d.dashboardBase}
        />
      ) : null}
      {d.page.items.length === 0 ? <p data-testid="rmas-empty">No RMAs here.</p> : null}
      <ul className="admin-list">
        {d.page.items.map((r) => (
          <li key={r.id} className="admin-card" data-testid="admin-rma-row" data-rma-id={r.id}>
            <Link to={`/admin/active-rmas/${d.tab}?rma=${r.id}`}>RMA {r.externalId}</Link>{" "}
            <span className="pill">{r.displayStatus}</span> · for order {r.rmaForExternalId ?? "—"}{" "}
            · victim {r.victimName} → perpetrator {r.perpetratorName} ·{" "}
            {formatDate(r.modifiedAt, tz)}
          </li>
        ))}
      </ul>
      <Pager
        total={d.page.total}
        limit={d.page.limit}
        offset={d.page.offset}
        hrefFor={(off) =>
          `/admin/active-rmas/${d.tab}?offset=${off}${d.status ? `&status=${d.status}` : ""}`
        }
      />
    </section>
  );
}

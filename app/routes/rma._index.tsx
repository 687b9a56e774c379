/**
 * /rma (docs/product/screens.md, "My returns"): the signed-in retailer's RMAs, those it filed (victim) and
 * those filed against it (perpetrator), each with its side, the original order, the status, its dates and
 * what the retailer gets back or is charged once staff decided; a status filter and pages of 25. The other
 * party shows only as retailer-00{id}. /rma/:id is the RMA itself.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { RMA_DISPLAY_STATUS } from "../../domain/states";
import { formatCents } from "../../domain/money";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { Pager } from "~/components/orders/OrderCard";
import ordersCss from "~/components/orders/orders.css";
import { pageTitle } from "~/components/title";
import { requireRetailer } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { myRmasPage } from "~/utils/rma-list.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("My returns") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireRetailer(request);
  return myRmasPage(db, auth.retailer.id, new URL(request.url));
}

const FILTER_LABELS: [string, string][] = [
  ["all", "All"],
  ["open", "Open"],
  ...["rmarequested", "shipping", "rmacompleted", "rmadeclined", "rmacancelled"].map(
    (s): [string, string] => [s, RMA_DISPLAY_STATUS[s]],
  ),
];

const SIDE_LABELS = { victim: "Filed by you", perpetrator: "Filed against you" } as const;

export default function MyRmas() {
  const d = useLoaderData<typeof loader>();
  const zone = useMarketplaceZone();
  const href = (offset: number) =>
    `/rma?${new URLSearchParams({ status: d.status, ...(offset ? { offset: String(offset) } : {}) })}`;
  return (
    <section className="page" data-testid="rma-list-page">
      <h1>My returns</h1>
      <Form method="get" action="/rma" className="filters">
        <label>
          Status{" "}
          <select name="status" defaultValue={d.status} data-testid="rma-status-filter">
            {FILTER_LABELS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-small">
          Filter
        </button>
      </Form>
      {d.items.length === 0 ? (
        <p data-testid="rma-list-empty">
          No returns{d.status === "all" ? "" : " with this status"}.
        </p>
      ) : (
        <table className="table" data-testid="rma-list">
          <thead>
            <tr>
              <th>RMA</th>
              <th>Side</th>
              <th>Other party</th>
              <th>Original order</th>
              <th>Status</th>
              <th>Requested</th>
              <th>Last change</th>
              <th>Refunded to you / charged to you</th>
            </tr>
          </thead>
          <tbody>
            {d.items.map((r) => (
              <tr key={r.id} data-testid="rma-row" data-rma={r.externalId} data-side={r.role}>
                <td>
                  <Link to={`/rma/${r.id}`}>{r.externalId}</Link>
                </td>
                <td data-testid="rma-side">{SIDE_LABELS[r.role]}</td>
                <td data-testid="rma-other">{r.other}</td>
                <td>{r.orderLink ? <Link to={r.orderLink}>{r.orderExternalId}</Link> : "—"}</td>
                <td data-testid="rma-row-status">{r.displayStatus}</td>
                <td>{formatDate(r.createdAt, zone)}</td>
                <td>{formatDate(r.modifiedAt, zone)}</td>
                <td data-testid="rma-amount">
                  {r.amountCents === null
                    ? "Awaiting staff's decision"
                    : `${r.role === "victim" ? "Refunded to you" : "Charged to you"}: ${formatCents(r.amountCents)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager total={d.total} limit={d.limit} offset={d.offset} hrefFor={href} />
    </section>
  );
}

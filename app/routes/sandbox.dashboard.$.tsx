import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { sandboxDashboardPage } from "./sandbox.dashboard.$.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Sandbox payments") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** The sandbox provider's records behind staff's payment links (docs/product/screens.md, "Payments"). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return sandboxDashboardPage(request, params["*"] ?? "");
}

export default function SandboxDashboard() {
  const { query, records } = useLoaderData<typeof loader>();
  return (
    <section className="page" data-testid="sandbox-dashboard">
      <h1>Sandbox payments</h1>
      <p className="muted">
        The sandbox payment provider&apos;s records (development and tests; production links go to
        the provider&apos;s own dashboard).
      </p>
      {query !== null ? <p>{`${records.length} record(s) for “${query}”`}</p> : null}
      {records.map((r) => (
        <article key={r.id} className="card" data-testid="sandbox-record">
          <h2>{r.id}</h2>
          <dl>
            <dt>Kind</dt>
            <dd>{r.object}</dd>
            <dt>Amount</dt>
            <dd data-testid="sandbox-record-amount">{r.amount ?? "—"}</dd>
            <dt>Status</dt>
            <dd>{r.status ?? "—"}</dd>
            <dt>Description</dt>
            <dd data-testid="sandbox-record-description">{r.description ?? "—"}</dd>
            {r.metadata.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </article>
      ))}
    </section>
  );
}

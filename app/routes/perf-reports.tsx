/**
 * Sales-rep performance (/perf-reports/; docs/product/screens.md, "Staff: reports and map"; ADR 0018): every rep with the retailers of its states
 * (all, active, seen in the last 90 days) and their traded orders, value, open listings and requests.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ActivityCells, ActivityHeads } from "~/components/admin/ActivityColumns";
import { pageTitle } from "~/components/title";
import adminCss from "~/styles/retailer-admin.css";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { ACTIVITY_DAYS, repPerformance } from "~/utils/sales-reps.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Sales-rep performance") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRetailerAdmin(request);
  // The window's length travels with the data: sales-reps.server.ts is not in the browser's bundle, so its
  // constant would render empty there (and the page would not hydrate).
  return { rows: await repPerformance(new Date()), activityDays: ACTIVITY_DAYS };
}

export default function PerfReports() {
  const { rows, activityDays } = useLoaderData<typeof loader>();
  return (
    <section className="page retailer-admin">
      <p>
        <Link to="/admin">← Admin</Link> · <Link to="/rep-reports/">Sales reps</Link>
      </p>
      <h1>Sales-rep performance</h1>
      <p className="muted">
        Retailers in each rep's states; orders and value are traded orders of the last{" "}
        {activityDays} days.
      </p>
      {rows.length === 0 ? <p className="muted">No sales reps yet.</p> : null}
      <table className="table" data-testid="perf">
        <thead>
          <tr>
            <th>territory</th>
            <th>rep</th>
            <th>states</th>
            <th>retailers</th>
            <th>active</th>
            <th>seen ({activityDays} d)</th>
            <ActivityHeads />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <Link to={`/rep-reports/?rep=${r.id}`}>{r.territory}</Link>
              </td>
              <td>{r.name}</td>
              <td>{r.states}</td>
              <td>{r.retailers}</td>
              <td>{r.active}</td>
              <td>{r.seen}</td>
              <ActivityCells row={r} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

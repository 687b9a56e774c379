/**
 * Sales reps (/rep-reports/; docs/product/screens.md, "Staff: reports and map"; ADR 0018): the list of reps (a resource of the generic
 * screens: /admin/salesrep) and, with ?rep=<id>, the report of one rep: the retailers in its states with
 * their activity over the last 90 days. Performance of every rep side by side: /perf-reports/.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listSalesReps } from "../../db/queries/reports";
import { ActivityCells, ActivityHeads } from "~/components/admin/ActivityColumns";
import { pageTitle } from "~/components/title";
import adminCss from "~/styles/retailer-admin.css";
import { db } from "~/utils/db.server";
import { mayManage } from "~/utils/permissions.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { ACTIVITY_DAYS, repReport, repView } from "~/utils/sales-reps.server";
import { RowId } from "../../domain/ids";

export const meta: MetaFunction = () => [{ title: pageTitle("Sales reps") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRetailerAdmin(request);
  const raw = new URL(request.url).searchParams.get("rep");
  const canEdit = mayManage(ctx, "salesrep");
  if (raw === null) return { canEdit, reps: (await listSalesReps(db)).map(repView), report: null };
  const id = RowId.safeParse(raw);
  const report = id.success ? await repReport(id.data, new Date()) : null;
  if (!report)
    throw new Response("No such sales rep.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  // The window's length travels with the data: sales-reps.server.ts is not in the browser's bundle.
  return { canEdit, reps: null, report, activityDays: ACTIVITY_DAYS };
}

export default function RepReports() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page retailer-admin">
      <p>
        <Link to="/admin">← Admin</Link> · <Link to="/rep-reports/">Sales reps</Link> ·{" "}
        <Link to="/perf-reports/">Performance</Link>
      </p>
      {d.reps ? (
        <>
          <h1>Sales reps</h1>
          {d.canEdit ? (
            <p>
              <Link to="/admin/salesrep/new/">Add a sales rep</Link>
            </p>
          ) : null}
          {d.reps.length === 0 ? <p className="muted">No sales reps yet.</p> : null}
          <table className="table" data-testid="sales-reps">
            <thead>
              <tr>
                <th>id</th>
                <th>territory_name</th>
                <th>name</th>
                <th>states</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.reps.map((r) => (
                <tr key={r.id}>
                  <td>{r.id}</td>
                  <td>{r.territory}</td>
                  <td>{r.name}</td>
                  <td>{r.states}</td>
                  <td>
                    <Link to={`/rep-reports/?rep=${r.id}`}>Report</Link>
                    {d.canEdit ? (
                      <>
                        {" · "}
                        <Link to={`/admin/salesrep/${r.id}/`}>Edit</Link>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {d.report ? (
        <>
          <h1>
            {d.report.rep.territory}: {d.report.rep.name}
          </h1>
          <p className="muted">
            States {d.report.rep.states} · {d.report.retailers.length} retailers · orders and value:
            traded orders of the last {d.activityDays} days
          </p>
          <table className="table" data-testid="rep-retailers">
            <thead>
              <tr>
                <th>id</th>
                <th>store</th>
                <th>city</th>
                <th>state</th>
                <th>status</th>
                <th>last active</th>
                <ActivityHeads />
              </tr>
            </thead>
            <tbody>
              {d.report.retailers.map((r) => (
                <tr key={r.id}>
                  <td>{r.id}</td>
                  <td>
                    <Link to={`/manage-retailer/info?id=${r.id}`}>{r.storeName}</Link>
                  </td>
                  <td>{r.city}</td>
                  <td>{r.state}</td>
                  <td>{r.status}</td>
                  <td>{r.lastActive}</td>
                  <ActivityCells row={r} />
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

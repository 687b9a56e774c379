/**
 * /manage-retailer/imports?id=: the retailer's stock imports for staff (docs/product/screens.md, "Stock file
 * import"; docs/guides/stock-import.md "Staff"): who sent each file (a user on /stock-import, or an API token), when, its lines,
 * and the refused rows with their messages.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import { importsTab, requireChosenRetailer } from "~/utils/manage-retailer.server";

export const handle: TabHandle = { tab: "imports" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer } = await requireChosenRetailer(request);
  return { imports: await importsTab(retailer.id) };
}

const STATUS: Record<string, string> = {
  mapping: "Columns to map",
  preview: "Previewed",
  confirming: "Importing",
  confirmed: "Imported",
};

export default function ImportsTab() {
  const { imports } = useLoaderData<typeof loader>();
  return (
    <>
      <TabNotices />
      {imports.length === 0 ? (
        <p className="muted">No stock imports yet.</p>
      ) : (
        <table className="table" data-testid="staff-imports">
          <thead>
            <tr>
              <th>#</th>
              <th>File</th>
              <th>By</th>
              <th>Sent</th>
              <th>Status</th>
              <th>Lines</th>
              <th>Refused rows</th>
            </tr>
          </thead>
          <tbody>
            {imports.map((i) => (
              <tr key={i.id} data-testid={`staff-import-${i.id}`}>
                <td>{i.id}</td>
                <td>
                  {i.fileName}
                  {i.wholeSurplus ? " (whole surplus)" : ""}
                </td>
                <td>{i.by}</td>
                <td>{i.created}</td>
                <td>
                  {STATUS[i.status] ?? i.status}
                  {i.confirmed ? ` ${i.confirmed}` : ""}
                </td>
                <td>{i.lines}</td>
                <td>
                  {i.refused.length === 0 ? (
                    "None"
                  ) : (
                    <details>
                      <summary>{i.refused.length} refused</summary>
                      <ul>
                        {i.refused.map((r) => (
                          <li key={r.lines.join(",")}>
                            Line {r.lines.join(", ")}
                            {r.code ? ` (${r.code})` : ""}: {r.messages.join(" ")}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

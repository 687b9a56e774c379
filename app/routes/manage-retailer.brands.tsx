/** /manage-retailer/brands?id=: the retailer's brand links (add, delete) and its brand requests. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { DataTable, type Column } from "~/components/manage-retailer/DataTable";
import { TabNotices, type TabHandle } from "~/components/manage-retailer/parts";
import {
  brandsTab,
  changeBrandLink,
  readTabAction,
  refuse,
  requireChosenRetailer,
} from "~/utils/manage-retailer.server";

export const handle: TabHandle = { tab: "brands" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer } = await requireChosenRetailer(request);
  return brandsTab(retailer.id);
}

export async function action({ request }: ActionFunctionArgs) {
  const c = await readTabAction(request, "brands");
  if (!("form" in c)) return c;
  const intent = c.form.get("intent");
  return intent === "brand-add" || intent === "brand-delete"
    ? changeBrandLink(c, intent)
    : refuse(400, "Unknown action.");
}

type BrandsData = Awaited<ReturnType<typeof brandsTab>>;

const REQUEST_COLUMNS: Column<BrandsData["requests"][number]>[] = [
  { head: "brand_name", cell: (q) => q.brandName },
  { head: "brand_purchase_amount", cell: (q) => q.amount },
  { head: "your_interest_in_this_brand", cell: (q) => q.interest || "—" },
  { head: "brand contact", cell: (q) => q.contact || "—" },
  { head: "status", cell: (q) => q.status },
];

export default function BrandsTab() {
  const d = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  const linkColumns: Column<BrandsData["links"][number]>[] = [
    { head: "brand", cell: (l) => l.brandName },
    { head: "status", cell: (l) => l.status },
    { head: "created", cell: (l) => l.created },
    {
      head: "",
      cell: (l) => (
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="brand-delete" />
          <input type="hidden" name="brand_id" value={l.brandId} />
          <button
            type="submit"
            className="button button-small button-outline"
            disabled={busy}
            aria-label={`Delete ${l.brandName}`}
          >
            Delete
          </button>
        </Form>
      ),
    },
  ];
  return (
    <>
      <TabNotices />
      <h2>Brand links</h2>
      <DataTable
        testId="brand-links"
        columns={linkColumns}
        rows={d.links}
        rowKey={(l) => l.brandId}
      />
      {d.links.length === 0 ? <p className="muted">No brand links.</p> : null}
      <Form method="post" className="inline-form">
        <input type="hidden" name="intent" value="brand-add" />
        <select name="brand_id" aria-label="Brand to add" defaultValue="">
          <option value="">Add a brand…</option>
          {d.choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button button-small" disabled={busy}>
          Add brand
        </button>
      </Form>
      <h2>Brand requests</h2>
      {d.requests.length === 0 ? (
        <p className="muted">No brand requests.</p>
      ) : (
        <DataTable
          testId="brand-requests"
          columns={REQUEST_COLUMNS}
          rows={d.requests}
          rowKey={(q) => q.id}
        />
      )}
    </>
  );
}

/** Choose Retailer (/manage-retailer): retailers by status (Active / Pending / Inactive / All), a search, pages. */
import { Form, Link } from "@remix-run/react";
import type { retailerListPage } from "~/utils/manage-retailer.server";
import { DataTable, type Column } from "./DataTable";

type ListPage = Awaited<ReturnType<typeof retailerListPage>>;
type Row = ListPage["rows"][number];

const infoLink = (r: Row, text: string) => (
  <Link to={`/manage-retailer/info?id=${r.id}`}>{text}</Link>
);

const COLUMNS: Column<Row>[] = [
  { head: "id", cell: (r) => infoLink(r, String(r.id)) },
  { head: "contact_email", cell: (r) => r.contactEmail },
  { head: "store_name", cell: (r) => infoLink(r, r.storeName || "(no store name yet)") },
  { head: "city", cell: (r) => r.city },
  { head: "state", cell: (r) => r.state },
  { head: "segments", cell: (r) => r.segments },
  { head: "price_tier", cell: (r) => r.priceTier },
  { head: "is_active", cell: (r) => r.isActive },
  { head: "created", cell: (r) => r.created },
  { head: "last_active", cell: (r) => r.lastActive },
];

export function ChooseRetailer({ d }: { d: ListPage }) {
  const qs = (over: Record<string, string | number>) => {
    const p = new URLSearchParams({ status: d.status, ...(d.q ? { q: d.q } : {}) });
    for (const [k, v] of Object.entries(over)) p.set(k, String(v));
    return `/manage-retailer?${p}`;
  };
  return (
    <>
      <nav className="tabs subtabs" aria-label="Retailer status">
        {d.listTabs.map((s) => (
          <Link
            key={s}
            to={qs({ status: s, page: 1 })}
            className={d.status === s ? "active" : ""}
            aria-current={d.status === s ? "page" : undefined}
          >
            {s[0].toUpperCase() + s.slice(1)}
          </Link>
        ))}
      </nav>
      <Form method="get" className="inline-form search-form">
        <input type="hidden" name="status" value={d.status} />
        <input
          type="search"
          name="q"
          defaultValue={d.q}
          aria-label="Search retailers"
          placeholder="id, store, city or e-mail"
        />
        <button type="submit" className="button button-small">
          Search
        </button>
      </Form>
      <p className="muted">
        {d.total} retailer{d.total === 1 ? "" : "s"}
      </p>
      <div className="table-scroll">
        <DataTable
          testId="retailer-list"
          columns={COLUMNS}
          rows={d.rows}
          rowKey={(r) => r.id}
          rowTestId={(r) => `retailer-row-${r.id}`}
        />
      </div>
      {d.pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          {d.page > 1 ? <Link to={qs({ page: d.page - 1 })}>← Previous</Link> : null} Page {d.page}{" "}
          of {d.pages} {d.page < d.pages ? <Link to={qs({ page: d.page + 1 })}>Next →</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

import { useForm } from "@conform-to/react";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { LIST_PAGE_SIZE, RESOURCES } from "../../domain/resources";
import { CollectionPicker } from "~/components/admin/resources/CollectionPicker";
import { ErrorList } from "~/components/forms";
import { ListPager, pagesOf } from "~/components/admin/resources/ListPager";
import { ResourceForm } from "~/components/admin/resources/ResourceForm";
import { ROW_ACTION_DONE, ResourceTable } from "~/components/admin/resources/ResourceTable";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { brandAdminAction, brandAdminData } from "./manage-brand.($tab).server";

export const meta: MetaFunction = () => [{ title: pageTitle("Brand admin") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return brandAdminData(request, params.tab);
}

export async function action({ request, params }: ActionFunctionArgs) {
  return brandAdminAction(request, params.tab);
}

const DONE: Record<string, string> = {
  ...ROW_ACTION_DONE,
  saved: "Saved.",
  created: "Collection created.",
  added: "Brand added to the retailer.",
};

export default function ManageBrand() {
  const d = useLoaderData<typeof loader>();
  const r = useActionData<typeof action>();
  const [form, fields] = useForm<{ year: string; name: string; subbrand: string }>({
    id: "manage-brand",
    lastResult: r,
  });
  // What the current answer refused (after a redirect there is none, and the forms are as the loader says).
  const refused = r ? { form, fields } : null;
  const [params] = useSearchParams();
  const q = (extra: Record<string, string | number | null>) => {
    const p = new URLSearchParams();
    if (d.brandId) p.set("brand", String(d.brandId));
    for (const [k, v] of Object.entries(extra)) if (v !== null && v !== "") p.set(k, String(v));
    return `?${p}`;
  };
  const brandName = "brandName" in d ? d.brandName : null;
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>Brand admin{brandName ? `: ${brandName}` : ""}</h1>
      <nav className="tabs" aria-label="Brand admin">
        {d.tabs.map((t) => (
          <Link
            key={t.tab}
            to={`/manage-brand/${t.tab}${t.tab === "choose" ? "" : q({})}`}
            aria-current={t.tab === d.tab ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {d.done && DONE[d.done] ? (
        <p className="alert alert-success" role="status">
          {DONE[d.done]}
        </p>
      ) : null}
      {"info" in d && d.info ? null : <ErrorList kind="form" errors={refused?.form.errors} />}
      {"brands" in d ? (
        <>
          <Form method="get" className="inline-form search-box" role="search">
            <input
              type="search"
              name="search"
              aria-label="Search brands"
              defaultValue={d.search}
              placeholder="Search by id or name"
            />{" "}
            <button type="submit" className="button button-small">
              Search
            </button>{" "}
            <Link to="/manage-brand/choose" className="button button-small button-outline">
              CLEAR
            </Link>
          </Form>
          <ul className="brand-choices" data-testid="brand-choices">
            {d.brands.map((b) => (
              <li key={b.id}>
                <Link to={`/manage-brand/info?brand=${b.id}`}>{b.display_name}</Link>{" "}
                <span className="muted">#{b.id}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {"info" in d && d.info ? (
        <ResourceForm
          def={RESOURCES.brand}
          values={d.info.values}
          lastResult={r}
          choosers={d.info.choosers}
          today={d.today}
          mode="edit"
        />
      ) : null}
      {"create" in d && d.create ? (
        <>
          <h2>Choose Collection</h2>
          <ResourceTable
            def={RESOURCES.collection}
            rows={d.list.rows}
            labels={d.list.labels as Record<string, Record<string, string>>}
          />
          <h2>Create New Collection</h2>
          <Form
            method="post"
            action={`/manage-brand/collections${q({ create: 1 })}`}
            noValidate
            className="resource-form"
            data-testid="create-collection"
          >
            <input type="hidden" name="brand" value={d.brandId ?? ""} />
            <input type="hidden" name="is_active" value="true" />
            {(["year", "name", "subbrand"] as const).map((n) => (
              <div className="form-field" key={n} data-field={n}>
                <label htmlFor={`cc-${n}`}>
                  {RESOURCES.collection.fields.find((f) => f.name === n)!.label}
                </label>
                <input
                  id={`cc-${n}`}
                  name={n}
                  type={n === "year" ? "number" : "text"}
                  defaultValue={
                    refused?.fields[n].initialValue ?? (n === "year" ? d.create.values.year : "")
                  }
                />
                <ErrorList kind="list" errors={refused?.fields[n].errors} />
              </div>
            ))}
            <button type="submit" className="button">
              Create collection
            </button>
          </Form>
        </>
      ) : null}
      {"collections" in d && d.collections ? (
        <CollectionPicker
          id="pick-collection"
          brandId={d.brandId}
          collectionId={d.collectionId}
          collections={d.collections}
        />
      ) : null}
      {d.tab === "uploads" ? (
        <p>
          <Link to={`/manage-brand/uploads${q({ collection: d.collectionId })}`}>
            Open Collection Uploads
          </Link>
        </p>
      ) : null}
      {d.tab === "products" && "list" in d && d.list ? (
        <>
          <Form method="post" className="inline-form">
            <button
              type="submit"
              name="intent"
              value="activate-all"
              className="button button-small"
            >
              activate all
            </button>{" "}
            <button
              type="submit"
              name="intent"
              value="deactivate-all"
              className="button button-small button-outline"
            >
              deactivate all
            </button>
          </Form>
          <ResourceTable
            def={RESOURCES.product}
            rows={d.list.rows}
            labels={d.list.labels as Record<string, Record<string, string>>}
            variations={"variations" in d ? d.variations : undefined}
            lastResult={r}
          />
        </>
      ) : null}
      {d.tab === "retailers" && "list" in d && d.list ? (
        <>
          <Form method="get" className="inline-form" role="search">
            <input type="hidden" name="brand" value={d.brandId ?? ""} />
            <input
              type="search"
              name="retailer"
              aria-label="Retailer id"
              placeholder="Retailer id"
              defaultValue={params.get("retailer") ?? ""}
            />{" "}
            <button type="submit" className="button button-small">
              Search
            </button>
          </Form>
          <ResourceTable
            def={RESOURCES.retailerbrand}
            rows={d.list.rows}
            labels={d.list.labels as Record<string, Record<string, string>>}
          />
          <Form method="post" className="inline-form" data-testid="add-retailer">
            <input type="hidden" name="intent" value="add-retailer" />
            <label htmlFor="add-retailer-id">Add this brand to retailer (id)</label>{" "}
            <input id="add-retailer-id" name="retailer" inputMode="numeric" />{" "}
            <button type="submit" className="button button-small">
              Add
            </button>
          </Form>
        </>
      ) : null}
      {(d.tab === "listings" || d.tab === "requests") && "list" in d && d.list ? (
        <ResourceTable
          def={RESOURCES[d.tab === "listings" ? "listing" : "request"]}
          rows={d.list.rows}
          labels={d.list.labels as Record<string, Record<string, string>>}
        />
      ) : null}
      {"orders" in d && d.orders ? (
        <table className="table" data-testid="brand-orders">
          <thead>
            <tr>
              <th>Order</th>
              <th>Type</th>
              <th>Provider</th>
              <th>Receiver</th>
              <th>Status</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {d.orders.length === 0 ? (
              <tr>
                <td colSpan={6} className="muted">
                  No transactions.
                </td>
              </tr>
            ) : null}
            {d.orders.map((o) => (
              <tr key={o.id}>
                <td>{o.externalId}</td>
                <td>{o.type}</td>
                <td>{o.provider}</td>
                <td>{o.receiver}</td>
                <td>{o.status}</td>
                <td>{o.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <TabPager d={d} />
    </section>
  );
}

/** The tab's list paged (lists run past one page: a collection's products, a brand's retailers and orders). */
function TabPager({
  d,
}: {
  d: { page: number } & (
    | { list?: { count: number; capped?: boolean; rows: unknown[] } }
    | { ordersTotal?: number }
  );
}) {
  const list =
    "list" in d && d.list
      ? d.list
      : "ordersTotal" in d && typeof d.ordersTotal === "number"
        ? { count: d.ordersTotal, rows: [] }
        : null;
  if (!list) return null;
  const { pages, countLabel } = pagesOf(list, d.page, LIST_PAGE_SIZE);
  if (pages <= 1) return null;
  return (
    <div data-testid="tab-pager">
      <p className="muted">{`${countLabel} in all · page ${d.page} of ${pages}`}</p>
      <ListPager page={d.page} pages={pages} />
    </div>
  );
}

import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { formatCents } from "../../domain/money";
import { CHOOSER_LIMIT, LIST_PAGE_SIZE, RESOURCES, type ResourceName } from "../../domain/resources";
import { chooserOptions, listResource, saveResource, setCollectionProductsActive, variationsOfProducts } from "../../db/queries/admin-resources";
import { listAdminOrders } from "../../db/queries/order-views/staff-lists";
import { CollectionPicker } from "~/components/admin/resources/CollectionPicker";
import { ErrorList } from "~/components/forms";
import { ListPager, pagesOf } from "~/components/admin/resources/ListPager";
import { ResourceForm } from "~/components/admin/resources/ResourceForm";
import { ROW_ACTION_DONE, ResourceTable } from "~/components/admin/resources/ResourceTable";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { localDateISO } from "../../domain/business-days";
import { getEnv } from "~/utils/env.server";
import { formError, readFormData } from "~/utils/form.server";
import { forbidden, mayManage, notFound, requirePermission } from "~/utils/permissions.server";
import { chooserData, loadEditRow, saveResourceForm } from "~/utils/resource-form.server";
import { rowAction } from "~/utils/resource-list.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Brand admin") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** The tabs of spec 002 §2.4, each with the resource a staff user must be allowed to manage. */
const TABS = [
  { tab: "choose", label: "Choose Brand", needs: "brand" },
  { tab: "info", label: "Info", needs: "brand" },
  { tab: "collections", label: "Collections", needs: "collection" },
  { tab: "uploads", label: "Collection Uploads", needs: "product" },
  { tab: "products", label: "Products", needs: "product" },
  { tab: "retailers", label: "Retailers", needs: "retailerbrand" },
  { tab: "listings", label: "Listings", needs: "listing" },
  { tab: "requests", label: "Requests", needs: "request" },
  { tab: "transactions", label: "Transactions", needs: "brand" },
] as const satisfies readonly { tab: string; label: string; needs: ResourceName }[];
type Tab = (typeof TABS)[number]["tab"];

const Id = z.coerce.number().int().positive().max(2_147_483_647);
const optionalId = (v: string | null) => (v === null || v === "" ? null : Id.safeParse(v).data ?? -1);

/** Staff with the brand permission and the tab's; the brand (and collection) from the query string. */
async function context(request: Request, rawTab: string | undefined) {
  const ctx = await requirePermission(request, "brand");
  const tab = TABS.find((t) => t.tab === (rawTab ?? "choose"));
  if (!tab) throw notFound();
  if (!mayManage(ctx, tab.needs)) throw forbidden(RESOURCES[tab.needs].plural);
  const url = new URL(request.url);
  const brandId = optionalId(url.searchParams.get("brand"));
  const collectionId = optionalId(url.searchParams.get("collection"));
  if (brandId === -1 || collectionId === -1) throw notFound();
  return { ctx, tab: tab.tab as Tab, url, brandId, collectionId };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, tab, url, brandId, collectionId } = await context(request, params.tab);
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get("page")) || 1));
  const tabs = TABS.filter((t) => mayManage(ctx, t.needs)).map((t) => ({ tab: t.tab, label: t.label }));
  const base = {
    tab,
    tabs,
    brandId,
    collectionId,
    search,
    page,
    done: url.searchParams.get("done"),
    today: localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  };
  if (tab === "choose") return { ...base, brands: await chooserOptions(db, "brand", { search, limit: CHOOSER_LIMIT }) };
  if (brandId === null) throw redirect("/manage-brand/choose");
  const brand = await loadEditRow("brand", RESOURCES.brand, brandId);
  if (!brand) throw notFound();
  const out = { ...base, brandName: String(brand.values.display_name || brand.values.name), brandId };
  const list = (name: ResourceName, filters: Record<string, string>) => listResource(db, name, { page, filters });
  switch (tab) {
    case "info":
      return { ...out, info: brand };
    case "collections": {
      const newValues = { brand: String(brandId), year: String(new Date().getFullYear()), is_active: "true" };
      return {
        ...out,
        list: await list("collection", { brand: String(brandId) }),
        create: { values: newValues, choosers: await chooserData(RESOURCES.collection, newValues) },
      };
    }
    case "uploads":
    case "products": {
      const collections = await chooserOptions(db, "collection", { filters: { brand: String(brandId) }, limit: 1000 });
      if (tab === "uploads" || collectionId === null) return { ...out, collections };
      const products = await list("product", { collection: String(collectionId) });
      return {
        ...out,
        collections,
        list: products,
        variations: await variationsOfProducts(
          db,
          products.rows.map((r) => Number(r.id))
        ),
      };
    }
    case "retailers": {
      const retailer = optionalId(url.searchParams.get("retailer"));
      return {
        ...out,
        list: await list("retailerbrand", { brand: String(brandId), ...(retailer && retailer > 0 ? { retailer: String(retailer) } : {}) }),
      };
    }
    case "listings":
      return { ...out, list: await list("listing", { brand: String(brandId) }) };
    case "requests":
      return { ...out, list: await list("request", { brand: String(brandId) }) };
    case "transactions": {
      const orders = await listAdminOrders(db, { brandId, limit: LIST_PAGE_SIZE, offset: (page - 1) * LIST_PAGE_SIZE });
      return {
        ...out,
        ordersTotal: orders.total,
        orders: orders.items.map((o) => ({
          id: o.id,
          externalId: o.externalId,
          type: o.typeLabel,
          provider: o.providerName,
          receiver: o.receiverName,
          status: o.displayStatus,
          value: formatCents(o.valueCents),
          modifiedAt: o.modifiedAt,
        })),
      };
    }
  }
  throw notFound();
}

const AddRetailer = z.object({ retailer: Id });

export async function action({ request, params }: ActionFunctionArgs) {
  const { tab, url, brandId, collectionId } = await context(request, params.tab);
  if (brandId === null) return data(formError("Choose a brand first."), { status: 400 });
  const back = `/manage-brand/${tab}?brand=${brandId}${collectionId ? `&collection=${collectionId}` : ""}`;
  if (tab === "info") {
    const r = await saveResourceForm(request, "brand", RESOURCES.brand, brandId);
    return "reply" in r ? r.reply : redirect(`${back}&done=saved`);
  }
  if (tab === "collections" && url.searchParams.get("create") === "1") {
    const r = await saveResourceForm(request, "collection", RESOURCES.collection, null);
    return "reply" in r ? r.reply : redirect(`${back}&done=created`);
  }
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (tab === "products" && (intent === "activate-all" || intent === "deactivate-all")) {
    if (collectionId === null) return data(formError("Choose a collection first."), { status: 400 });
    await setCollectionProductsActive(db, collectionId, intent === "activate-all");
    return redirect(`${back}&done=${intent === "activate-all" ? "activated" : "deactivated"}`);
  }
  if (tab === "retailers" && intent === "add-retailer") {
    const p = AddRetailer.safeParse({ retailer: form.get("retailer") });
    if (!p.success) return data(formError("Enter a retailer id."), { status: 400 });
    const r = await saveResource(db, "retailerbrand", null, { retailer: p.data.retailer, brand: brandId, status: "authorized" });
    if (!r.ok)
      return data(formError(r.errors.retailer ? "That retailer does not exist." : (r.formError ?? "Could not add the brand.")), { status: 400 });
    return redirect(`${back}&done=added`);
  }
  const target: Partial<Record<Tab, ResourceName>> = { collections: "collection", products: "product", retailers: "retailerbrand" };
  const name = target[tab];
  if (!name) return data(formError("Unknown action."), { status: 400 });
  return rowAction(form, name, RESOURCES[name], back);
}

const DONE: Record<string, string> = { ...ROW_ACTION_DONE, saved: "Saved.", created: "Collection created.", added: "Brand added to the retailer." };

export default function ManageBrand() {
  const d = useLoaderData<typeof loader>();
  const r = useActionData<typeof action>();
  const [form, fields] = useForm<{ year: string; name: string; subbrand: string }>({ id: "manage-brand", lastResult: r });
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
          <Link key={t.tab} to={`/manage-brand/${t.tab}${t.tab === "choose" ? "" : q({})}`} aria-current={t.tab === d.tab ? "page" : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {d.done && DONE[d.done] ? (
        <p className="alert alert-success" role="status">
          {DONE[d.done]}
        </p>
      ) : null}
      {"info" in d && d.info ? null : <ErrorList kind="form" errors={form.errors} />}
      {"brands" in d ? (
        <>
          <Form method="get" className="inline-form search-box" role="search">
            <input type="search" name="search" aria-label="Search brands" defaultValue={d.search} placeholder="Search by id or name" />{" "}
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
                <Link to={`/manage-brand/info?brand=${b.id}`}>{b.display_name}</Link> <span className="muted">#{b.id}</span>
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
          <ResourceTable def={RESOURCES.collection} rows={d.list.rows} labels={d.list.labels as Record<string, Record<string, string>>} />
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
                <label htmlFor={`cc-${n}`}>{RESOURCES.collection.fields.find((f) => f.name === n)!.label}</label>
                <input
                  id={`cc-${n}`}
                  name={n}
                  type={n === "year" ? "number" : "text"}
                  defaultValue={fields[n].initialValue ?? (n === "year" ? d.create.values.year : "")}
                />
                <ErrorList kind="list" errors={fields[n].errors} />
              </div>
            ))}
            <button type="submit" className="button">
              Create collection
            </button>
          </Form>
        </>
      ) : null}
      {"collections" in d ? (
        <CollectionPicker id="pick-collection" brandId={d.brandId} collectionId={d.collectionId} collections={d.collections} />
      ) : null}
      {d.tab === "uploads" ? (
        <p>
          <Link to={`/manage-brand/uploads${q({ collection: d.collectionId })}`}>Open Collection Uploads</Link>
        </p>
      ) : null}
      {d.tab === "products" && "list" in d && d.list ? (
        <>
          <Form method="post" className="inline-form">
            <button type="submit" name="intent" value="activate-all" className="button button-small">
              activate all
            </button>{" "}
            <button type="submit" name="intent" value="deactivate-all" className="button button-small button-outline">
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
          <ResourceTable def={RESOURCES.retailerbrand} rows={d.list.rows} labels={d.list.labels as Record<string, Record<string, string>>} />
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

/** The tab's list paged (spec 002 lists run past one page: "product list 200", a brand's retailers and orders). */
function TabPager({ d }: { d: { page: number } & ({ list?: { count: number; capped?: boolean; rows: unknown[] } } | { ordersTotal?: number }) }) {
  const list = "list" in d && d.list ? d.list : "ordersTotal" in d && typeof d.ordersTotal === "number" ? { count: d.ordersTotal, rows: [] } : null;
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

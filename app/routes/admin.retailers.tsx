import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import { z } from "zod";
import {
  ADMIN_RETAILER_STATUSES,
  listBrandChoices,
  listRetailersForAdmin,
} from "../../db/queries/retailers";
import { ActionError } from "~/components/admin/ActionError";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import adminCss from "~/styles/retailer-admin.css";
import { readFormData } from "~/utils/auth.server";
import { requireRetailerAdmin } from "~/utils/retailer-admin.server";
import { db } from "~/utils/db.server";
import { retailerAction, retailerCard } from "./admin.retailers.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Retailers") }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: accountsCss },
  { rel: "stylesheet", href: adminCss },
];

/** ?q= searches store name, city or id (the first 100 characters); ?page_<status>= is each section's page. */
const SearchParam = z.string().transform((v) => v.trim().slice(0, 100));
const PageParam = z.coerce.number().int().min(1).max(100_000).catch(1);
const pageParam = (status: string) => `page_${status}`;

export async function loader({ request }: LoaderFunctionArgs) {
  // Staff manage what their permissions map lists (docs/product/glossary.md, "Roles and permissions"); these
  // screens need "retailer" (ADR 0018).
  await requireRetailerAdmin(request);
  const url = new URL(request.url);
  const q = SearchParam.parse(url.searchParams.get("q") ?? "");
  const pages = Object.fromEntries(
    ADMIN_RETAILER_STATUSES.map((s) => [
      s,
      PageParam.parse(url.searchParams.get(pageParam(s)) ?? 1),
    ]),
  );
  const [sections, brands] = await Promise.all([
    listRetailersForAdmin(db, { pages, q }),
    listBrandChoices(db),
  ]);
  return {
    pick: url.searchParams.get("pick") === "1",
    done: url.searchParams.get("done"),
    q,
    sections: sections.map((sec) => ({
      status: sec.status,
      page: sec.page,
      pages: sec.pages,
      total: sec.total,
      entries: sec.entries.map(retailerCard),
    })),
    brands: brands.map((b) => ({ id: b.id, name: b.displayName || b.name })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRetailerAdmin(request);
  return retailerAction(ctx, request, await readFormData(request));
}

type Entry = ReturnType<typeof retailerCard>;
const TITLES: Record<Entry["status"], string> = {
  pending: "Pending",
  active: "Active",
  inactive: "Inactive",
  denied: "Denied",
};

const DONE: Record<string, string> = {
  activate: "The retailer is active and has been e-mailed.",
  deny: "The retailer has been denied and e-mailed.",
  inactivate: "The retailer is now inactive.",
  authorize: "Brand authorized.",
  unauthorize: "Brand removed.",
};

export default function AdminRetailers() {
  const { sections, brands, pick, done, q } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  // A section's page link keeps the other sections' pages and the search; the outcome message is not repeated.
  const pageHref = (status: string, page: number) => {
    const p = new URLSearchParams(searchParams);
    p.delete("done");
    p.set(pageParam(status), String(page));
    return `/admin/retailers?${p}#${status}`;
  };
  return (
    <section className="page">
      <h1>Retailers</h1>
      <ActionError id="admin-retailers" lastResult={actionData} />
      {pick ? (
        <p className="alert alert-warning" role="status">
          Choose a retailer to act as first: use <Link to="/act-as">Act as a retailer</Link> or the
          Act as button of a retailer below.
        </p>
      ) : null}
      {done && DONE[done] ? (
        <p className="alert alert-success" role="status">
          {DONE[done]}
        </p>
      ) : null}
      <Form method="get" className="inline-form search-form">
        {pick ? <input type="hidden" name="pick" value="1" /> : null}
        <input
          type="search"
          name="q"
          defaultValue={q}
          aria-label="Search retailers"
          placeholder="store, city or id"
        />
        <button type="submit" className="button button-small">
          Search
        </button>
        {q ? (
          <Link to={pick ? "/admin/retailers?pick=1" : "/admin/retailers"}>Show all</Link>
        ) : null}
      </Form>
      <nav className="tabs" aria-label="Retailer status">
        {sections.map((s) => (
          <a key={s.status} href={`#${s.status}`}>
            {TITLES[s.status]} ({s.total})
          </a>
        ))}
      </nav>
      {sections.map((s) => (
        <section key={s.status} id={s.status} data-testid={`retailers-${s.status}`}>
          <h2>
            {TITLES[s.status]} ({s.total})
          </h2>
          {s.entries.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            s.entries.map((e) => <RetailerCard key={e.id} e={e} brands={brands} />)
          )}
          {s.pages > 1 ? (
            <nav className="pager" aria-label={`${TITLES[s.status]} pages`}>
              {s.page > 1 ? <Link to={pageHref(s.status, s.page - 1)}>← Newer</Link> : null} Page{" "}
              {s.page} of {s.pages}{" "}
              {s.page < s.pages ? <Link to={pageHref(s.status, s.page + 1)}>Older →</Link> : null}
            </nav>
          ) : null}
        </section>
      ))}
    </section>
  );
}

function RetailerCard({ e, brands }: { e: Entry; brands: { id: number; name: string }[] }) {
  const busy = useNavigation().state !== "idle";
  const requested = new Set(
    e.brandRequests.map((r) => r.brandId).filter((x): x is number => x !== null),
  );
  const authorized = new Set(e.authorizedBrands.map((b) => b.id));
  return (
    <article
      className="admin-retailer"
      id={`retailer-${e.id}`}
      data-testid={`retailer-${e.id}`}
      data-store={e.storeName}
    >
      <h3>
        {e.storeName || "(no store name yet)"} <span className="muted">#{e.id}</span>
      </h3>
      <p className="muted">
        {[e.city, e.state].filter(Boolean).join(", ")} · created {e.createdAt} · login{" "}
        {e.userEmails.join(", ") || "none"}
        {e.contact
          ? ` · contact ${e.contact.name}${e.contact.celphone ? `, cell ${e.contact.celphone}` : ", no cell phone"}`
          : " · no contact yet"}
        {e.status === "pending" && !e.setupComplete ? " · setup not finished" : ""}
      </p>
      {e.brandRequests.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th>Brand request</th>
              <th>Yearly purchases</th>
              <th>Interest</th>
              <th>Brand contact</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {e.brandRequests.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.brandName}
                  {r.brandId && brands.some((b) => b.id === r.brandId) ? (
                    <span className="muted"> (on the marketplace)</span>
                  ) : r.brandId ? (
                    <span className="muted"> (waiting for brand validation)</span>
                  ) : null}
                </td>
                <td>{r.amount ?? "—"}</td>
                <td>{r.interests.join(", ") || "—"}</td>
                <td>{r.contact || "—"}</td>
                <td>{r.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No brand requests.</p>
      )}
      <div>
        <strong>Authorized brands:</strong>{" "}
        {e.authorizedBrands.length === 0 ? <span className="muted">none</span> : null}
        {e.authorizedBrands.map((b) => (
          <Form method="post" key={b.id} className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <input type="hidden" name="brandId" value={b.id} />
            <span>{b.name}</span>{" "}
            <button
              type="submit"
              name="intent"
              value="unauthorize"
              className="link-button"
              aria-label={`Remove ${b.name}`}
              disabled={busy}
            >
              ✕
            </button>{" "}
          </Form>
        ))}
      </div>
      {e.status !== "active" ? (
        <Form method="post" data-testid="activate-form">
          <input type="hidden" name="retailerId" value={e.id} />
          <fieldset className="request">
            <legend>Activate and authorize brands</legend>
            <div className="checkbox-list">
              {brands.map((b) => (
                <label key={b.id}>
                  <input
                    type="checkbox"
                    name="brandId"
                    value={b.id}
                    defaultChecked={requested.has(b.id) || authorized.has(b.id)}
                  />{" "}
                  {b.name}
                </label>
              ))}
            </div>
            <div className="form-actions">
              <button
                type="submit"
                name="intent"
                value="activate"
                className="button"
                disabled={busy}
              >
                Activate
              </button>
              {e.status === "pending" ? (
                <button
                  type="submit"
                  name="intent"
                  value="deny"
                  className="button button-outline"
                  disabled={busy}
                >
                  Deny
                </button>
              ) : null}
            </div>
          </fieldset>
        </Form>
      ) : (
        <div className="form-actions">
          <Form method="post" className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <select
              name="brandId"
              aria-label={`Brand to authorize for ${e.storeName}`}
              defaultValue=""
            >
              <option value="">Authorize a brand…</option>
              {brands
                .filter((b) => !authorized.has(b.id))
                .map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
            </select>{" "}
            <button
              type="submit"
              name="intent"
              value="authorize"
              className="button button-small"
              disabled={busy}
            >
              Authorize
            </button>
          </Form>
          <Form method="post" className="inline-form">
            <input type="hidden" name="retailerId" value={e.id} />
            <button
              type="submit"
              name="intent"
              value="inactivate"
              className="button button-small button-outline"
              disabled={busy}
            >
              Inactivate
            </button>
          </Form>
        </div>
      )}
      <Form method="post" action="/act-as" className="inline-form">
        <input type="hidden" name="intent" value="act" />
        <input type="hidden" name="retailerId" value={e.id} />
        <button type="submit" className="link-button">
          Act as this retailer
        </button>
      </Form>
    </article>
  );
}

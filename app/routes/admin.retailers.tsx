import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import {
  ADMIN_RETAILER_STATUSES,
  listBrandChoices,
  listRetailersForAdmin,
  type RetailerStatus,
} from "../../db/queries/retailers";
import { ActionError } from "~/components/admin/ActionError";
import { RetailerCard } from "~/components/admin/RetailerCard";
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

const TITLES: Record<RetailerStatus, string> = {
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

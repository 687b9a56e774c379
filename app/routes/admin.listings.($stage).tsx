import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { LIST_PAGE_SIZE, RESOURCES } from "../../domain/resources";
import { listResource } from "../../db/queries/admin-resources";
import { ResourceTable } from "~/components/admin/resources/ResourceTable";
import { ListPager, pagesOf } from "~/components/admin/resources/ListPager";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { notFound, requirePermission } from "~/utils/permissions.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Listings") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/**
 * Admin listings (docs/product/screens.md, "Staff: listings"): tabs 'payout info needed', 'active listings', 'all listings'. The first two
 * hold listings with units left: a deleted or sold-out listing (0 units) keeps its status, and is under 'all'.
 */
const STAGES = [
  {
    stage: "payoutneeded",
    label: "payout info needed",
    filters: { status: "payoutneeded", in_stock: "true" },
  },
  { stage: "active", label: "active listings", filters: { status: "active", in_stock: "true" } },
  { stage: "all", label: "all listings", filters: {} },
] as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePermission(request, "listing");
  const stage = STAGES.find((s) => s.stage === (params.stage ?? "payoutneeded"));
  if (!stage) throw notFound();
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get("page")) || 1));
  const search = (url.searchParams.get("search") ?? "").slice(0, 100);
  const sort = (url.searchParams.get("sort") ?? "id").slice(0, 40);
  const dir = url.searchParams.get("dir") === "asc" ? "asc" : "desc";
  const list = await listResource(db, "listing", {
    page,
    search,
    sort,
    dir,
    filters: stage.filters,
  });
  return {
    stage: stage.stage,
    stages: STAGES.map((s) => ({ stage: s.stage, label: s.label })),
    page,
    search,
    ...list,
    ...pagesOf(list, page, LIST_PAGE_SIZE),
  };
}

export default function AdminListings() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>Listings</h1>
      <nav className="tabs" aria-label="Listing stages">
        {d.stages.map((s) => (
          <Link
            key={s.stage}
            to={`/admin/listings/${s.stage}`}
            aria-current={s.stage === d.stage ? "page" : undefined}
          >
            {s.label}
          </Link>
        ))}
      </nav>
      <Form method="get" className="inline-form search-box" role="search">
        <input
          type="search"
          name="search"
          aria-label="Search listings"
          defaultValue={d.search}
          placeholder={RESOURCES.listing.search_help}
        />{" "}
        <button type="submit" className="button button-small">
          Search
        </button>{" "}
        <Link to={`/admin/listings/${d.stage}`} className="button button-small button-outline">
          CLEAR
        </Link>
      </Form>
      <p className="muted" data-testid="list-count">
        {d.countLabel} listings · page {d.page} of {d.pages}
        {d.more ? "+" : ""}
      </p>
      <div className="table-scroll">
        <ResourceTable
          def={RESOURCES.listing}
          rows={d.rows}
          labels={d.labels as Record<string, Record<string, string>>}
        />
      </div>
      <ListPager page={d.page} pages={d.pages} />
    </section>
  );
}

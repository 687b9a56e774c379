import { useForm } from "@conform-to/react";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { LIST_PAGE_SIZE } from "../../domain/resources";
import { listResource, variationsOfProducts } from "../../db/queries/admin-resources";
import { ROW_ACTION_DONE, ResourceTable } from "~/components/admin/resources/ResourceTable";
import { ListPager, pagesOf } from "~/components/admin/resources/ListPager";
import { ErrorList } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { db } from "~/utils/db.server";
import { readFormData } from "~/utils/form.server";
import { requireResource } from "~/utils/permissions.server";
import { rowAction } from "~/utils/resource-list.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data?.def.plural ?? "Admin") },
];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

const ListParams = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  search: z.string().max(100).catch(""),
  sort: z.string().max(40).catch("id"),
  dir: z.enum(["asc", "desc"]).catch("desc"),
});

/** Generic list of a resource (route name things): /admin/:class_name?search=&sort=&dir=&page=. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  const url = new URL(request.url);
  const q = ListParams.parse({
    page: url.searchParams.get("page") ?? undefined,
    search: url.searchParams.get("search") ?? undefined,
    sort: url.searchParams.get("sort") ?? undefined,
    dir: url.searchParams.get("dir") ?? undefined,
  });
  const list = await listResource(db, name, q);
  const variations =
    name === "product"
      ? await variationsOfProducts(
          db,
          list.rows.map((r) => Number(r.id)),
        )
      : undefined;
  return {
    def: resource,
    ...q,
    rows: list.rows,
    count: list.count,
    ...pagesOf(list, q.page, LIST_PAGE_SIZE),
    labels: list.labels,
    variations,
    done: url.searchParams.get("done"),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  // Back to the same search, sort and page.
  const keep = new URLSearchParams(new URL(request.url).search);
  keep.delete("done");
  keep.delete("index");
  return rowAction(
    await readFormData(request),
    name,
    resource,
    `/admin/${name}${keep.size ? `?${keep}` : ""}`,
  );
}

export default function Things() {
  const { def, rows, count, countLabel, more, page, pages, search, labels, variations, done } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [form] = useForm({ id: `row-action-${def.name}`, lastResult: result });
  const [q, setQ] = useState(search);
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1>{def.plural}</h1>
      <ErrorList kind="form" errors={form.errors} />
      {done && ROW_ACTION_DONE[done] ? (
        <p className="alert alert-success" role="status">
          {ROW_ACTION_DONE[done]}
        </p>
      ) : null}
      <div className="list-toolbar">
        <Form method="get" className="inline-form search-box" role="search">
          <input
            type="search"
            name="search"
            aria-label={`Search ${def.plural.toLowerCase()}`}
            placeholder={def.search_help}
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />{" "}
          <button type="submit" className="button button-small">
            Search
          </button>{" "}
          <Link
            to={`/admin/${def.name}`}
            className="button button-small button-outline"
            onClick={() => setQ("")}
          >
            CLEAR
          </Link>
        </Form>
        {def.can_create ? (
          <Link to={`/admin/${def.name}/new/`} className="button button-small">
            New {def.label.toLowerCase()}
          </Link>
        ) : null}{" "}
        <a
          href={`/admin/${def.name}/export${search ? `?search=${encodeURIComponent(search)}` : ""}`}
          className="button button-small button-outline"
          download
        >
          Export CSV
        </a>
      </div>
      <p className="muted" data-testid="list-count">
        {countLabel} {count === 1 ? def.label.toLowerCase() : def.plural.toLowerCase()}
        {search ? ` matching “${search}”` : ""} · page {page} of {pages}
        {more ? "+" : ""}
      </p>
      <div className="table-scroll">
        <ResourceTable
          def={def}
          rows={rows}
          labels={labels as Record<string, Record<string, string>>}
          variations={variations}
          lastResult={result}
        />
      </div>
      <ListPager page={page} pages={pages} />
    </section>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDateISO } from "../../domain/business-days";
import { ResourceForm } from "~/components/admin/resources/ResourceForm";
import { pageTitle } from "~/components/title";
import { getEnv } from "~/utils/env.server";
import { notFound, requireResource } from "~/utils/permissions.server";
import { loadEditRow, saveResourceForm } from "~/utils/resource-form.server";
import { RowId } from "../../domain/ids";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `${data.def.label} #${data.id}` : "Admin") },
];

function rowId(raw: string | undefined): number {
  const p = RowId.safeParse(raw);
  if (!p.success) throw notFound();
  return p.data;
}

/** Edit form of a resource (route name edit-thing): /admin/:class_name/:id/. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  const id = rowId(params.id);
  const found = await loadEditRow(name, resource, id);
  if (!found) throw notFound();
  const saved = new URL(request.url).searchParams.get("saved") === "1";
  return {
    def: resource,
    id,
    ...found,
    saved,
    today: localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  const id = rowId(params.id);
  const r = await saveResourceForm(request, name, resource, id);
  if ("reply" in r) return r.reply;
  return redirect(`/admin/${name}/${id}/?saved=1`);
}

export default function EditThing() {
  const { def, id, values, choosers, images, today, saved } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link> / <Link to={`/admin/${def.name}`}>{def.plural}</Link>
      </p>
      <h1>
        {def.label} #{id}
      </h1>
      {def.name === "productvariation" ? (
        <p>
          <Link to={`/admin/productvariationmanagement/${id}`}>
            Sizes and images (variation editor)
          </Link>
        </p>
      ) : null}
      <ResourceForm
        def={def}
        values={values}
        lastResult={reply}
        choosers={choosers}
        images={images}
        today={today}
        mode="edit"
        saved={saved && !reply}
      />
    </section>
  );
}

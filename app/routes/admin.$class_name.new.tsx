import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDateISO } from "../../domain/business-days";
import { ResourceForm } from "~/components/admin/resources/ResourceForm";
import { pageTitle } from "~/components/title";
import { getEnv } from "~/utils/env.server";
import { forbidden, requireResource } from "~/utils/permissions.server";
import { chooserData, saveResourceForm, type FormValues } from "~/utils/resource-form.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: pageTitle(data ? `New ${data.def.label.toLowerCase()}` : "Admin") },
];

/** Create form of a resource (route name new-thing): /admin/:class_name/new/. Query values prefill it (?brand=3). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { resource } = await requireResource(request, params.class_name);
  if (!resource.can_create) throw forbidden(resource.plural);
  const url = new URL(request.url);
  const values: FormValues = {};
  for (const f of resource.fields) {
    const v = url.searchParams.get(f.name);
    if (v !== null && !f.read_only) values[f.name] = v.slice(0, 200);
  }
  if (resource.has_active && values.is_active === undefined) values.is_active = "true";
  return {
    def: resource,
    values,
    choosers: await chooserData(resource, values),
    today: localDateISO(Date.now(), getEnv().MARKETPLACE_TZ),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { resource, name } = await requireResource(request, params.class_name);
  if (!resource.can_create) throw forbidden(resource.plural);
  const r = await saveResourceForm(request, name, resource, null);
  if ("reply" in r) return r.reply;
  return redirect(`/admin/${name}/${r.savedId}/?saved=1`);
}

export default function NewThing() {
  const { def, values, choosers, today } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <section className="page">
      <p>
        <Link to="/admin">Admin</Link> / <Link to={`/admin/${def.name}`}>{def.plural}</Link>
      </p>
      <h1>New {def.label.toLowerCase()}</h1>
      <ResourceForm
        def={def}
        values={values}
        lastResult={reply}
        choosers={choosers}
        today={today}
        mode="new"
      />
    </section>
  );
}

import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { listAuthorizedBrands, searchRetailers } from "../../db/queries/retailers";
import { ActionError } from "~/components/admin/ActionError";
import { Field } from "~/components/forms";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireStaff } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { formError } from "~/utils/form.server";
import { actAs, clearActing } from "./act-as.server";

export const meta: MetaFunction = () => [{ title: pageTitle("Act as a retailer") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

/** Staff choose a retailer (and optionally one of its authorized brands) to act as; kept in the session. */
export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await requireStaff(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const [retailers, brands] = await Promise.all([
    searchRetailers(db, q),
    auth.retailer ? listAuthorizedBrands(db, auth.retailer.id) : Promise.resolve([]),
  ]);
  return {
    q,
    acting: auth.retailer ? { id: auth.retailer.id, storeName: auth.retailer.storeName } : null,
    actingBrandId: auth.actingBrand?.id ?? null,
    retailers,
    brands: brands.map((b) => ({ id: b.id, name: b.displayName || b.name })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  // Non-staff (signed in or not) are sent to /error/ before anything is read.
  const auth = await requireStaff(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent") ?? "act";
  switch (intent) {
    case "clear":
      return clearActing(auth, formData);
    case "act":
    case "brand":
      return actAs(auth, formData, intent);
    default:
      return data(formError("Unknown action."), { status: 400 });
  }
}

export default function ActAs() {
  const { q, acting, actingBrandId, retailers, brands } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="page auth-page">
      <h1>Act as a retailer</h1>
      <ActionError id="act-as" lastResult={actionData} />
      {acting ? (
        <div className="alert alert-success" role="status" data-testid="act-as-current">
          <p>
            Acting as <strong>{acting.storeName}</strong> (#{acting.id})
          </p>
          <Form method="post" className="inline-form">
            <input type="hidden" name="intent" value="clear" />
            <button type="submit" className="button button-small button-outline" disabled={busy}>
              Clear
            </button>
          </Form>
        </div>
      ) : (
        <p className="muted">You are acting as admin: the marketplace shows every retailer.</p>
      )}
      {acting ? (
        <Form method="post" className="form-stack">
          <input type="hidden" name="intent" value="brand" />
          <input type="hidden" name="retailerId" value={acting.id} />
          <Field label={`Brand of ${acting.storeName} (optional)`} htmlFor="act-brand">
            <select id="act-brand" name="brandId" defaultValue={actingBrandId ?? ""}>
              <option value="">All its brands</option>
              {brands.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </Field>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              Act as this brand
            </button>
          </div>
        </Form>
      ) : null}
      <h2>Choose a retailer</h2>
      <Form method="get" className="form-stack" role="search">
        <Field label="Search by store name, city or id" htmlFor="act-q">
          <input id="act-q" type="search" name="q" defaultValue={q} />
        </Field>
        <div className="form-actions">
          <button type="submit" className="button button-small button-outline">
            Search
          </button>
        </div>
      </Form>
      <Form method="post" className="form-stack">
        <input type="hidden" name="intent" value="act" />
        <Field label="Retailer" htmlFor="act-retailer">
          <select id="act-retailer" name="retailerId" required defaultValue="">
            <option value="" disabled>
              {retailers.length === 0
                ? "No retailer matches"
                : `Choose one of ${retailers.length}…`}
            </option>
            {retailers.map((r) => (
              <option key={r.id} value={r.id}>
                {r.storeName} — {[r.city, r.state].filter(Boolean).join(", ")} (#{r.id}, {r.status})
              </option>
            ))}
          </select>
        </Field>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            Act as this retailer
          </button>
        </div>
      </Form>
    </section>
  );
}

/**
 * /brands/ (docs/product/screens.md, "Brands"): tabs "YOUR AUTHORIZED BRANDS" (the retailer's authorized brands) and "ADD BRANDS"
 * (?tab=add: the brand request form: brand_name, brand_purchase_amount, your_interest_in_this_brand,
 * brand_contact_email, brand_contact_name; the setup wizard's row schema with the brand name required),
 * saved to brand_requests with a success notice.
 */
import { getCollectionProps, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BRAND_INTERESTS, BrandRequestFormSchema } from "../../domain/accounts";
import { formatCents } from "../../domain/money";
import { authorizedBrandsForRetailer } from "../../db/queries/catalogue";
import { createBrandRequestForRetailer, listOwnBrandRequests } from "../../db/queries/settings";
import { formatDate, useMarketplaceZone } from "~/components/orders/format";
import { pageTitle } from "~/components/title";
import accountsCss from "~/styles/accounts.css";
import { readFormData, requireRetailer } from "~/utils/auth.server";
import { parseSubmission } from "~/utils/form.server";
import { db } from "~/utils/db.server";
import { ErrorList, Field } from "~/components/forms";

export const meta: MetaFunction = () => [{ title: pageTitle("Brands") }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountsCss }];

const BRAND_TABS = [
  { key: "authorized", label: "YOUR AUTHORIZED BRANDS", to: "/brands/" },
  { key: "add", label: "ADD BRANDS", to: "/brands/?tab=add" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const { retailer } = await requireRetailer(request);
  const tab = new URL(request.url).searchParams.get("tab") === "add" ? "add" : "authorized";
  const [brands, requests] = await Promise.all([
    authorizedBrandsForRetailer(db, retailer.id),
    tab === "add" ? listOwnBrandRequests(db, retailer.id) : [],
  ]);
  return {
    tab,
    brands: brands.map((b) => ({
      id: b.id,
      name: b.displayName || b.name,
      since: b.authorizedAt.toISOString(),
    })),
    requests: requests.map((r) => ({
      id: r.id,
      brandName: r.brandName,
      status: r.status,
      amountCents: r.brandPurchaseAmountCents,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { retailer } = await requireRetailer(request);
  const form = await readFormData(request);
  const submission = parseSubmission(form, { schema: BrandRequestFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const v = submission.value;
  await createBrandRequestForRetailer(db, retailer.id, {
    brandName: v.brand_name,
    brandPurchaseAmountCents: v.brand_purchase_amount,
    yourInterestInThisBrand: v.your_interest_in_this_brand ?? [],
    brandContactEmail: v.brand_contact_email ?? "",
    brandContactName: v.brand_contact_name ?? "",
  });
  return redirect("/brands/?tab=add&ref=brandRequested", 303);
}

export default function Brands() {
  const d = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Brands</h1>
      <nav className="tabs" aria-label="Brands">
        {BRAND_TABS.map((t) => (
          <Link
            key={t.key}
            to={t.to}
            className={d.tab === t.key ? "active" : undefined}
            aria-current={d.tab === t.key ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {d.tab === "authorized" ? <AuthorizedBrands /> : <AddBrands />}
    </section>
  );
}

function AuthorizedBrands() {
  const tz = useMarketplaceZone();
  const d = useLoaderData<typeof loader>();
  if (d.brands.length === 0) {
    return (
      <p data-testid="no-authorized-brands">
        You are not authorized for any brand yet. <Link to="/brands/?tab=add">Request a brand</Link>
        .
      </p>
    );
  }
  return (
    <ul className="brand-list" data-testid="authorized-brands">
      {d.brands.map((b) => (
        <li key={b.id}>
          <strong>{b.name}</strong>{" "}
          <span className="muted">authorized since {formatDate(b.since, tz)}</span> ·{" "}
          <Link to={`/buy/?brand=${b.id}`}>Browse listings</Link>
        </li>
      ))}
    </ul>
  );
}

function AddBrands() {
  const tz = useMarketplaceZone();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "brand-request",
    lastResult: navigation.state === "idle" ? actionData : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BrandRequestFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <p>
        Tell us about a brand you are an authorized retailer of. Our staff check it with the brand
        and authorize it for your store.
      </p>
      <Form
        method="post"
        action="/brands/?tab=add"
        {...getFormProps(form)}
        className="form-stack"
        data-testid="brand-request-form"
      >
        <ErrorList kind="form" errors={form.errors} />
        <div className="form-row">
          <Field
            label="Brand name"
            htmlFor={fields.brand_name.id}
            errors={fields.brand_name.errors}
            errorId={fields.brand_name.errorId}
          >
            <input {...getInputProps(fields.brand_name, { type: "text" })} />
          </Field>
          <Field
            label="Yearly purchases with this brand ($)"
            htmlFor={fields.brand_purchase_amount.id}
            errors={fields.brand_purchase_amount.errors}
          >
            <input
              {...getInputProps(fields.brand_purchase_amount, { type: "text" })}
              inputMode="decimal"
            />
          </Field>
        </div>
        <fieldset className="field">
          <legend>Your interest in this brand</legend>
          <div className="checkbox-list">
            {getCollectionProps(fields.your_interest_in_this_brand, {
              type: "checkbox",
              options: BRAND_INTERESTS.map((x) => x.value),
            }).map(({ key, ...props }) => (
              <label key={key} htmlFor={props.id}>
                <input {...props} /> {BRAND_INTERESTS.find((x) => x.value === props.value)?.label}
              </label>
            ))}
          </div>
          <ErrorList errors={fields.your_interest_in_this_brand.errors} />
        </fieldset>
        <div className="form-row">
          <Field
            label="Brand contact name"
            htmlFor={fields.brand_contact_name.id}
            errors={fields.brand_contact_name.errors}
          >
            <input {...getInputProps(fields.brand_contact_name, { type: "text" })} />
          </Field>
          <Field
            label="Brand contact email"
            htmlFor={fields.brand_contact_email.id}
            errors={fields.brand_contact_email.errors}
          >
            <input {...getInputProps(fields.brand_contact_email, { type: "email" })} />
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Request this brand
          </button>
        </div>
      </Form>
      {d.requests.length > 0 ? (
        <>
          <h2>Your brand requests</h2>
          <table className="table" data-testid="brand-requests">
            <thead>
              <tr>
                <th>Brand</th>
                <th>Yearly purchases</th>
                <th>Requested</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {d.requests.map((r) => (
                <tr key={r.id}>
                  <td>{r.brandName}</td>
                  <td>{r.amountCents === null ? "" : formatCents(r.amountCents)}</td>
                  <td>{formatDate(r.createdAt, tz)}</td>
                  <td>{r.status === "authorized" ? "Authorized" : "Requested"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </>
  );
}

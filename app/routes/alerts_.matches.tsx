/**
 * /alerts/matches, the "Matches" tab of the alerts (docs/product/screens.md, "Matches"; ADR 0030): listings that
 * became visible and fill one of the retailer's requests or fit one of its saved searches, newest first, each
 * linking to the listing's buy or swap page (the other retailer only as retailer-00{id}); below, the saved
 * searches with a form to save one (brand, category, sizes, product-code text) and a delete button each.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { formatDate } from "../../domain/date-format";
import { MATCH_MESSAGES, matchHref, SavedSearchFormSchema } from "../../domain/matches";
import { ErrorList, InputField, SelectField } from "~/components/forms";
import ordersCss from "~/components/orders/orders.css";
import { useMarketplaceZone } from "~/components/orders/format";
import { pageTitle } from "~/components/title";
import { matchesAction, matchesLoader, MATCHES_PAGE_SIZE } from "./alerts_.matches.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: ordersCss }];
export const meta: MetaFunction = () => [{ title: pageTitle("Matches") }];

export async function loader({ request }: LoaderFunctionArgs) {
  return matchesLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return matchesAction(request);
}

const NOTICES: Record<string, string> = {
  searchSaved: MATCH_MESSAGES.saved,
  searchDeleted: MATCH_MESSAGES.deleted,
};

export default function Matches() {
  const d = useLoaderData<typeof loader>();
  const tz = useMarketplaceZone();
  const notice = d.ref ? NOTICES[d.ref] : undefined;
  return (
    <section className="page" data-testid="matches-page">
      <nav className="order-tabs" role="tablist" aria-label="Alerts">
        <Link to="/alerts?tab=sales" role="tab" aria-selected={false}>
          Sales
        </Link>
        <Link to="/alerts?tab=purchases" role="tab" aria-selected={false}>
          Purchases
        </Link>
        <Link to="/alerts?tab=swaps" role="tab" aria-selected={false}>
          Swaps
        </Link>
        <Link
          to="/alerts/matches"
          role="tab"
          aria-selected
          className="active"
          data-testid="tab-matches"
        >
          Matches
        </Link>
      </nav>
      <h1>Matches</h1>
      {notice ? (
        <div className="alert alert-success" role="status" data-testid="matches-notice">
          <div className="alert-body">{notice}</div>
        </div>
      ) : null}
      <p className="muted">
        Listings that fill your requests or fit your saved searches. You also get one e-mail a day
        at most listing the new ones.
      </p>
      {d.page.items.length === 0 ? (
        <p data-testid="matches-empty">
          No matches yet. <Link to="/requestlisting">Request a style</Link> or save a search below.
        </p>
      ) : (
        <ul className="match-list" data-testid="match-list">
          {d.page.items.map((m) => (
            <li key={m.id} data-testid="match" data-listing-id={m.listingId}>
              {m.isNew ? <strong className="badge">New</strong> : null} {m.brandName}{" "}
              {m.productName} <strong>{m.sku}</strong> {m.color}: {m.totalUnits} unit
              {m.totalUnits === 1 ? "" : "s"} listed by {anonymousRetailerLabel(m.providerId)} (
              {m.source === "request" ? "fills your request" : "fits your saved search"},{" "}
              {formatDate(m.createdAt, tz)}).{" "}
              {m.available ? (
                <Link to={matchHref(m.listingType, m.listingId)}>
                  {m.listingType === "swap" ? "Swap for it" : "Buy it"}
                </Link>
              ) : (
                <span className="muted">No longer available.</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {d.page.total > MATCHES_PAGE_SIZE ? (
        <p>
          {d.offset > 0 ? (
            <Link to={`/alerts/matches?offset=${Math.max(0, d.offset - MATCHES_PAGE_SIZE)}`}>
              Newer
            </Link>
          ) : null}{" "}
          {d.offset + MATCHES_PAGE_SIZE < d.page.total ? (
            <Link to={`/alerts/matches?offset=${d.offset + MATCHES_PAGE_SIZE}`}>Older</Link>
          ) : null}
        </p>
      ) : null}
      <SavedSearches />
    </section>
  );
}

function SavedSearches() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "saved-search",
    lastResult: navigation.state === "idle" ? actionData : null,
    defaultValue: d.prefill,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SavedSearchFormSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <section data-testid="saved-searches">
      <h2>Saved searches</h2>
      {d.searches.length === 0 ? (
        <p className="muted">No saved searches.</p>
      ) : (
        <ul>
          {d.searches.map((s) => (
            <li key={s.id} data-testid="saved-search">
              {s.brandName}
              {s.categoryName ? `, ${s.categoryName}` : ""}
              {s.sizes.length ? `, sizes ${s.sizes.join(", ")}` : ""}
              {s.search ? `, code contains “${s.search}”` : ""}{" "}
              <Form method="post" style={{ display: "inline" }}>
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={s.id} />
                <button type="submit" className="button button-small">
                  Delete
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <h3>Save a search</h3>
      <Form
        method="post"
        {...getFormProps(form)}
        className="form-stack"
        data-testid="saved-search-form"
      >
        <ErrorList kind="form" errors={form.errors} />
        <input type="hidden" name="intent" value="save" />
        <SelectField
          meta={fields.brand}
          label="Brand"
          placeholder="Choose a brand"
          options={d.brands.map((b) => ({ value: String(b.id), label: b.name }))}
        />
        <SelectField
          meta={fields.category}
          label="Category"
          placeholder="Any category"
          options={d.categories.map((c) => ({ value: String(c.id), label: c.name }))}
        />
        <InputField
          meta={fields.sizes}
          label="Sizes"
          hint="Separated by commas, e.g. S, M, L. Empty: any size."
        />
        <InputField
          meta={fields.q}
          label="Product code contains"
          hint="At least 3 characters. Empty: any product."
        />
        <div className="form-actions">
          <button type="submit" className="button" disabled={navigation.state === "submitting"}>
            Save search
          </button>
        </div>
      </Form>
    </section>
  );
}

/**
 * My Listings / My Requests (docs/product/screens.md, "My Listings and Requests"): the two tabs, the product-code search (starts after more than
 * 2 characters or on submit), "List a Product" / "Request a Product", one section per authorized brand
 * (sorted by name) with its cards and its own paging, the empty states, and on My Listings the
 * "Action Required!" payout notice.
 */
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { MyBrandSection, MyItemCard } from "../../../db/queries/my-listings";
import {
  ACTION_REQUIRED,
  NO_LISTINGS_FOR_BRAND,
  NO_REQUESTS_FOR_BRAND,
  PAYOUT_ACTION_REQUIRED_TEXT,
} from "../../../domain/messages";
import type { MyItemsLoaderData } from "~/utils/my-items.server";

/** Item search starts only after more than 2 characters; clearing the box shows everything. */
export const SEARCH_MIN_CHARS = 3;
/** Delay before an automatic search (200 ms in the lookups: docs/product/screens.md, "Limits"). */
export const SEARCH_DELAY_MS = 200;

export const HIDDEN_UNTIL_PAYOUT = "Hidden until payout is set up";
export const RELIST_BADGE = "Action Required! Re-list";

type Data = Omit<MyItemsLoaderData, "sections"> & {
  sections: (Omit<MyBrandSection, "items"> & {
    items: (Omit<MyItemCard, "createdAt"> & { createdAt: string | Date })[];
  })[];
};

function pageHref(d: Data, brandId: number, offset: number): string {
  const p = new URLSearchParams();
  if (d.search) p.set("search", d.search);
  if (d.limitParam !== null) p.set("limit", String(d.limitParam));
  p.set("brand", String(brandId));
  p.set("offset", String(Math.max(0, offset)));
  return `?${p.toString()}#brand-${brandId}`;
}

function Card({
  item,
  kind,
}: {
  item: Data["sections"][number]["items"][number];
  kind: Data["kind"];
}) {
  const href = kind === "listings" ? `/updatelisting/${item.id}` : `/updaterequest/${item.id}`;
  return (
    <li className="my-card" data-testid="my-card" data-id={item.id}>
      <Link
        to={href}
        className="my-card-link"
        aria-label={`${item.productName}, ${item.sku}, ${item.color}`}
      >
        {item.imageUrl ? (
          <img src={item.imageUrl} alt="" width={96} height={96} loading="lazy" />
        ) : (
          <span className="my-card-noimg" />
        )}
        <span className="my-card-body">
          <strong className="my-card-name">{item.productName}</strong>
          <span className="my-card-code" data-testid="my-card-sku">
            {item.sku}
          </span>
          <span className="muted">{item.color}</span>
          <span className="my-card-sizes" data-testid="my-card-sizes">
            {item.sizes.length === 0
              ? "No units"
              : item.sizes.map((s) => `${s.label}: ${s.count}`).join(" · ")}
          </span>
          <span data-testid="my-card-total">Total Units: {item.totalUnits}</span>
          <span className="my-card-badges">
            {item.listingType ? (
              <span className="badge">{item.listingType === "swap" ? "Swap" : "Sell"}</span>
            ) : null}
            {item.status === "payoutneeded" ? (
              <span className="badge badge-warning" data-testid="badge-payoutneeded">
                {HIDDEN_UNTIL_PAYOUT}
              </span>
            ) : item.status === "active" ? (
              <span className="badge badge-ok">Active</span>
            ) : null}
            {item.corrected ? (
              <span className="badge badge-danger" data-testid="badge-corrected">
                {RELIST_BADGE}
              </span>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  );
}

function Section({ section, d }: { section: Data["sections"][number]; d: Data }) {
  const from = section.count === 0 ? 0 : Math.min(section.offset + 1, section.count);
  const to = Math.min(section.offset + section.items.length, section.count);
  const hasPrev = section.offset > 0;
  const hasNext = section.offset + section.limit < section.count;
  return (
    <section
      className="my-brand"
      id={`brand-${section.id}`}
      data-testid="my-brand"
      data-brand-id={section.id}
    >
      <h2>
        {section.displayName} <span className="muted my-count">({section.count})</span>
      </h2>
      {section.items.length === 0 ? (
        <p className="muted my-empty" data-testid="my-empty">
          {section.count > 0
            ? "Nothing on this page."
            : d.kind === "listings"
              ? NO_LISTINGS_FOR_BRAND
              : NO_REQUESTS_FOR_BRAND}
        </p>
      ) : (
        <ul className="my-cards">
          {section.items.map((item) => (
            <Card key={item.id} item={item} kind={d.kind} />
          ))}
        </ul>
      )}
      {hasPrev || hasNext ? (
        <nav className="my-paging" aria-label={`${section.displayName} pages`}>
          {hasPrev ? (
            <Link
              to={pageHref(d, section.id, section.offset - section.limit)}
              rel="prev"
              preventScrollReset
            >
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="muted" data-testid="my-range">
            {from}–{to} of {section.count}
          </span>
          {hasNext ? (
            <Link
              to={pageHref(d, section.id, section.offset + section.limit)}
              rel="next"
              preventScrollReset
            >
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

export function MyItemsPage() {
  const d = useLoaderData() as unknown as Data;
  const location = useLocation();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [text, setText] = useState(d.search);
  useEffect(() => setText(d.search), [d.search]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const onInput = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    const v = value.trim();
    if (v.length >= SEARCH_MIN_CHARS || (v.length === 0 && d.search !== "")) {
      timer.current = setTimeout(() => {
        if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
      }, SEARCH_DELAY_MS);
    }
  };

  const title = d.kind === "listings" ? "My Listings" : "My Requests";
  return (
    <section className="page my-items" data-kind={d.kind}>
      <nav className="tabs" aria-label="My listings and requests">
        <Link
          to="/active/listings"
          className={d.kind === "listings" ? "active" : undefined}
          aria-current={d.kind === "listings" ? "page" : undefined}
        >
          My Listings
        </Link>
        <Link
          to="/active/requests"
          className={d.kind === "requests" ? "active" : undefined}
          aria-current={d.kind === "requests" ? "page" : undefined}
        >
          My Requests
        </Link>
      </nav>
      <h1>{title}</h1>
      {d.actingAs ? <p className="muted">Acting as {d.actingAs}.</p> : null}
      {d.notice ? (
        <div className="alert alert-success" role="status" data-testid="my-notice">
          <p>{d.notice}</p>
        </div>
      ) : null}
      {d.kind === "listings" && d.payoutMissing ? (
        <div className="alert alert-warning" role="alert" data-testid="my-payout-notice">
          <p>
            <strong>{ACTION_REQUIRED}</strong> {PAYOUT_ACTION_REQUIRED_TEXT}{" "}
            <Link to="/settings/payout">Fill in your bank details</Link>
          </p>
          {/* Dismissible (docs/product/screens.md, "Menus and banners"): the same session-long "do this later" as the shell's payout banner. */}
          <Form method="post" action="/banners/dismiss" className="inline-form alert-actions">
            <input type="hidden" name="banner" value="payout" />
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <button
              type="submit"
              className="button button-small button-outline"
              data-testid="my-payout-later"
            >
              do this later
            </button>
          </Form>
        </div>
      ) : null}

      <div className="my-toolbar">
        <Form
          method="get"
          ref={formRef}
          className="my-search"
          role="search"
          onSubmit={() => clearTimeout(timer.current)}
        >
          <label htmlFor="my-search-input">Search by product code</label>
          <input
            id="my-search-input"
            type="search"
            name="search"
            value={text}
            onChange={(e) => onInput(e.currentTarget.value)}
            placeholder="Product code"
            maxLength={100}
            autoComplete="off"
          />
          {d.limitParam !== null ? <input type="hidden" name="limit" value={d.limitParam} /> : null}
          <button type="submit" className="button button-small">
            Search
          </button>
        </Form>
        <div className="my-actions">
          <Link to="/addlisting" className="button">
            List a Product
          </Link>
          <Link to="/requestlisting" className="button button-outline">
            Request a Product
          </Link>
        </div>
      </div>

      <div aria-busy={navigation.state === "loading"}>
        {d.sections.length === 0 ? (
          <p className="muted" data-testid="my-no-brands">
            You are not authorized for any brand yet. <Link to="/brands">Request brands</Link>
          </p>
        ) : (
          d.sections.map((s) => <Section key={s.id} section={s} d={d} />)
        )}
      </div>
    </section>
  );
}

/**
 * The marketplace page shared by /buy/, /swap/ and /sell/ (docs/product/screens.md, "Marketplace"): tabs, the search/filter/ordering
 * form, and one section per authorized brand with up to 20 cards, "View All" and, in view-all mode,
 * "Load more". All state is in the URL (leaving the page forgets search and view-all, as the spec asks).
 */
import { Form, Link, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { anonymousRetailerLabel } from "../../../domain/anonymity";
import { NO_ACTIVE_REQUESTS_FOR_BRAND, noActiveListingsText } from "../../../domain/messages";
import { CartBar, cartTabState } from "~/components/cart/CartBar";
import { cardsHtml } from "~/utils/marketplace-cards";
import type { BrandSection, MarketplaceData } from "~/utils/marketplace.server";
import {
  LOAD_MORE_SIZE,
  MARKET_TABS,
  ORDERINGS,
  SEARCH_MIN_CHARS,
  TAB_LABELS,
  filtersOf,
  marketHref,
} from "~/utils/marketplace-query";

/** The marketplace search reloads after a 100 ms delay. */
const SEARCH_DELAY_MS = 100;

export function MarketplacePage() {
  const data = useLoaderData<MarketplaceData>();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === `/${data.tab}/`;
  return (
    <section className="page market" data-tab={data.tab}>
      <h1 className="visually-hidden">{TAB_LABELS[data.tab]}</h1>
      <MarketTabs data={data} />
      <CartBar summary={data.cart} returnTo={data.returnTo} />
      <MarketFilters data={data} />
      {data.brandName ? (
        <p className="market-scope">
          Showing <strong>{data.brandName}</strong>
          {data.query.viewAll ? " (all listings)" : ""}.{" "}
          <Link
            to={marketHref(data.tab, {
              ...data.query,
              brand: undefined,
              viewAll: false,
              offset: 0,
              limit: undefined,
            })}
          >
            All brands
          </Link>
        </p>
      ) : null}
      <RetailerScope data={data} />
      {data.mode === "admin" ? (
        <p className="market-admin-note muted">Browsing as admin: every brand, with store names.</p>
      ) : null}
      <div className={busy ? "market-results is-busy" : "market-results"} aria-busy={busy}>
        {data.pageMessage ? (
          <p className="market-empty market-page-message">{data.pageMessage}</p>
        ) : null}
        {data.sections.map((s) => (
          <BrandBlock key={s.id} section={s} tab={data.tab} query={data.query} mode={data.mode} />
        ))}
      </div>
    </section>
  );
}

/**
 * retailer__id (the named route buyswap's parameter): one retailer's listings (or requests), named only by its
 * anonymous label. With a swap cart (fixed to its first item's brand and provider) the swap tab offers
 * that view.
 */
function RetailerScope({ data }: { data: MarketplaceData }) {
  const q = data.query;
  if (q.retailerId !== undefined) {
    return (
      <p className="market-scope" data-testid="retailer-scope">
        Only {data.tab === "sell" ? "requests" : "listings"} of{" "}
        <strong>{anonymousRetailerLabel(q.retailerId)}</strong>.{" "}
        <Link
          to={marketHref(data.tab, { ...q, retailerId: undefined, offset: 0, limit: undefined })}
        >
          All retailers
        </Link>
      </p>
    );
  }
  const first = data.cart?.type === "swap" && data.tab === "swap" ? data.cart.lines[0] : undefined;
  if (!first) return null;
  return (
    <p className="market-scope" data-testid="swap-provider-scope">
      Your swap is with {first.counterpartyLabel} in {first.brandName}.{" "}
      <Link to={marketHref("swap", { brand: first.brandId, retailerId: first.counterpartyId })}>
        Show only their listings
      </Link>
    </p>
  );
}

function MarketTabs({ data }: { data: MarketplaceData }) {
  // The cart's type locks the other tabs (docs/product/orders.md, "Cart").
  const lock = cartTabState(data.cart?.type ?? null);
  return (
    <nav className="market-tabs" aria-label="Marketplace">
      {MARKET_TABS.map((t) =>
        lock.disabled[t] ? (
          <span
            key={t}
            className="market-tab is-disabled"
            aria-disabled="true"
            title="Your cart holds items of another kind."
          >
            {TAB_LABELS[t]}
          </span>
        ) : (
          <Link
            key={t}
            to={`/${t}/`}
            className={t === data.tab ? "market-tab is-current" : "market-tab"}
            aria-current={t === data.tab ? "page" : undefined}
          >
            {TAB_LABELS[t]}
          </Link>
        ),
      )}
    </nav>
  );
}

function MarketFilters({ data }: { data: MarketplaceData }) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const q = data.query;
  const searchRef = useRef<HTMLInputElement>(null);
  // The URL is the state: when it changes under the form (Clear, a tab, back), show its search text
  // unless the user is typing in the box right now.
  useEffect(() => {
    const el = searchRef.current;
    if (el && document.activeElement !== el) el.value = q.search ?? "";
  }, [q.search]);

  // Submits the form as a clean URL: empty fields and the default ordering are left out.
  function submitClean(form: HTMLFormElement | null) {
    if (!form) return;
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (typeof v !== "string" || v.trim() === "") continue;
      if (k === "ordering" && v === "recent") continue;
      params.set(k, v.trim());
    }
    submit(params, {
      method: "get",
      action: `/${data.tab}/`,
      replace: true,
      preventScrollReset: true,
    });
  }

  // Live search: after more than 2 characters (or when cleared), 100 ms after the last keystroke.
  function onSearchInput(value: string) {
    if (timer.current) clearTimeout(timer.current);
    const v = value.trim();
    if (v.length > 0 && v.length < SEARCH_MIN_CHARS) return;
    timer.current = setTimeout(() => submitClean(formRef.current), SEARCH_DELAY_MS);
  }

  return (
    <Form
      // Other filters re-mount from the URL; the search box keeps focus while a live search runs.
      key={marketHref(data.tab, { ...q, search: undefined })}
      method="get"
      action={`/${data.tab}/`}
      className="market-filters"
      ref={formRef}
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (timer.current) clearTimeout(timer.current);
        submitClean(e.currentTarget);
      }}
    >
      {q.brand !== undefined ? <input type="hidden" name="brand" value={q.brand} /> : null}
      {q.viewAll ? <input type="hidden" name="viewAll" value="on" /> : null}
      <label className="market-field market-search">
        <span>Product code</span>
        <input
          ref={searchRef}
          type="search"
          name="search"
          defaultValue={q.search ?? ""}
          maxLength={60}
          placeholder="Search by product code"
          autoComplete="off"
          onChange={(e) => onSearchInput(e.currentTarget.value)}
        />
      </label>
      <label className="market-field">
        <span>Order by</span>
        <select
          name="ordering"
          defaultValue={q.ordering}
          onChange={(e) => submitClean(e.currentTarget.form)}
        >
          {ORDERINGS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <label className="market-field market-small">
        <span>Sizes</span>
        <input
          type="text"
          name="sizes"
          defaultValue={q.sizes?.join(",") ?? ""}
          placeholder="e.g. S,M"
          maxLength={400}
        />
      </label>
      <label className="market-field market-small">
        <span>Min. units</span>
        <input
          type="number"
          name="units"
          min={0}
          step={1}
          defaultValue={q.units ?? ""}
          inputMode="numeric"
        />
      </label>
      {data.categories.length > 0 ? (
        <label className="market-field">
          <span>Category</span>
          <select name="category" defaultValue={q.category ?? ""}>
            <option value="">All categories</option>
            {data.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {q.retailerId !== undefined ? (
        <input type="hidden" name="retailer__id" value={q.retailerId} />
      ) : null}
      {q.variantId !== undefined ? (
        <input type="hidden" name="variantId" value={q.variantId} />
      ) : null}
      {q.id !== undefined ? <input type="hidden" name="id" value={q.id} /> : null}
      <div className="market-filter-actions">
        <button type="submit" className="button button-small">
          Search
        </button>
        <Link to={`/${data.tab}/`} className="button button-small button-outline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

/** The saved-search form (/alerts/matches) filled with a brand's search: category, sizes and product code. */
function saveSearchHref(brandId: number, q: MarketplaceData["query"]): string {
  const p = new URLSearchParams({ brand: String(brandId) });
  if (q.category !== undefined) p.set("category", String(q.category));
  if (q.sizes?.length) p.set("sizes", q.sizes.join(", "));
  if (q.search) p.set("q", q.search);
  return `/alerts/matches?${p.toString()}`;
}

function BrandBlock({
  section,
  tab,
  query,
  mode,
}: {
  section: BrandSection;
  tab: MarketplaceData["tab"];
  query: MarketplaceData["query"];
  mode: MarketplaceData["mode"];
}) {
  const { cards, hasMore } = section;
  // The cards are static markup built as one string (marketplace-cards.ts: far cheaper to render than elements).
  const html = useMemo(
    () => (cards.length > 0 ? { __html: cardsHtml(tab, cards) } : null),
    [tab, cards],
  );
  const filters = filtersOf(query);
  const viewAllHref =
    !query.viewAll && hasMore
      ? marketHref(tab, { ...filters, brand: section.id, viewAll: true })
      : null;
  const loadMoreHref =
    query.viewAll && hasMore
      ? marketHref(tab, {
          ...filters,
          brand: section.id,
          viewAll: true,
          offset: query.offset,
          limit: query.limit + LOAD_MORE_SIZE,
        })
      : null;
  return (
    <section
      className="market-brand"
      aria-labelledby={`brand-${section.id}`}
      data-brand-id={section.id}
    >
      <header className="market-brand-head">
        <h2 id={`brand-${section.id}`}>
          <Link
            to={marketHref(tab, {
              ...query,
              brand: section.id,
              viewAll: false,
              offset: 0,
              limit: undefined,
            })}
          >
            {section.name}
          </Link>
        </h2>
        {viewAllHref ? (
          <Link to={viewAllHref} className="button button-small button-outline market-view-all">
            View All
          </Link>
        ) : null}
        {tab !== "sell" && mode === "retailer" ? (
          // Matches (ADR 0030): this brand's search, carried to the saved-search form.
          <Link
            to={saveSearchHref(section.id, query)}
            className="button button-small button-outline"
            data-testid="save-search"
          >
            Save this search
          </Link>
        ) : null}
      </header>
      {html === null ? (
        <p className="market-empty">
          {tab === "sell" ? NO_ACTIVE_REQUESTS_FOR_BRAND : noActiveListingsText(tab)}
        </p>
      ) : (
        // Each card opens the listing view in a new window.
        <ul className="market-cards" dangerouslySetInnerHTML={html} />
      )}
      {loadMoreHref ? (
        <p className="market-load-more">
          <Link to={loadMoreHref} preventScrollReset replace className="button button-outline">
            Load more
          </Link>
        </p>
      ) : null}
    </section>
  );
}

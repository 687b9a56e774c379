/**
 * The marketplace page shared by /buy/, /swap/ and /sell/ (spec 000 §2): tabs, the search/filter/ordering
 * form, and one section per authorized brand with up to 20 cards, "View All" and, in view-all mode,
 * "Load more". All state is in the URL (leaving the page forgets search and view-all, as the spec asks).
 */
import { Form, Link, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CartBar } from "~/components/cart/CartBar";
import type { BrandSection, CardView, MarketplaceData } from "./marketplace.server";
import { ORDERINGS, PLACEHOLDER_IMAGE, SEARCH_MIN_CHARS, itemHref, marketHref } from "./query";

/** Spec 000 §5: the marketplace search reloads after a 100 ms delay. */
const SEARCH_DELAY_MS = 100;

export function MarketplacePage() {
  const data = useLoaderData<MarketplaceData>();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === `/${data.tab}/`;
  return (
    <section className="page market" data-tab={data.tab}>
      <h1 className="visually-hidden">{data.title}</h1>
      <MarketTabs data={data} />
      <CartBar summary={data.cart} returnTo={data.returnTo} />
      <MarketFilters data={data} />
      {data.brandName ? (
        <p className="market-scope">
          Showing <strong>{data.brandName}</strong>
          {data.query.viewAll ? " (all listings)" : ""}.{" "}
          <Link to={marketHref(data.tab, { ...data.query, brand: undefined, viewAll: false, offset: 0, limit: undefined })}>All brands</Link>
        </p>
      ) : null}
      {data.mode === "admin" ? <p className="market-admin-note muted">Browsing as admin: every brand, with store names.</p> : null}
      <div className={busy ? "market-results is-busy" : "market-results"} aria-busy={busy}>
        {data.pageMessage ? <p className="market-empty market-page-message">{data.pageMessage}</p> : null}
        {data.sections.map((s) => (
          <BrandBlock key={s.id} section={s} tab={data.tab} query={data.query} />
        ))}
      </div>
    </section>
  );
}

function MarketTabs({ data }: { data: MarketplaceData }) {
  return (
    <nav className="market-tabs" aria-label="Marketplace">
      {data.tabs.map((t) =>
        t.disabled ? (
          <span key={t.tab} className="market-tab is-disabled" aria-disabled="true" title="Your cart holds items of another kind.">
            {t.label}
          </span>
        ) : (
          <Link key={t.tab} to={t.href} className={t.current ? "market-tab is-current" : "market-tab"} aria-current={t.current ? "page" : undefined}>
            {t.label}
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
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
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
    submit(params, { method: "get", action: `/${data.tab}/`, replace: true, preventScrollReset: true });
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
        <input type="text" name="sizes" defaultValue={q.sizes?.join(",") ?? ""} placeholder="e.g. S,M" maxLength={400} />
      </label>
      <label className="market-field market-small">
        <span>Min. units</span>
        <input type="number" name="units" min={0} step={1} defaultValue={q.units ?? ""} inputMode="numeric" />
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
      {q.variantId !== undefined ? <input type="hidden" name="variantId" value={q.variantId} /> : null}
      {q.id !== undefined ? <input type="hidden" name="id" value={q.id} /> : null}
      <div className="market-filter-actions">
        <button type="submit" className="button button-small">
          Search
        </button>
        <Link to={data.clearHref} className="button button-small button-outline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

function BrandBlock({ section, tab, query }: { section: BrandSection; tab: MarketplaceData["tab"]; query: MarketplaceData["query"] }) {
  return (
    <section className="market-brand" aria-labelledby={`brand-${section.id}`} data-brand-id={section.id}>
      <header className="market-brand-head">
        <h2 id={`brand-${section.id}`}>
          <Link to={marketHref(tab, { ...query, brand: section.id, viewAll: false, offset: 0, limit: undefined })}>{section.name}</Link>
        </h2>
        {section.viewAllHref ? (
          <Link to={section.viewAllHref} className="button button-small button-outline market-view-all">
            View All
          </Link>
        ) : null}
      </header>
      {section.cards.length === 0 ? (
        <p className="market-empty">{section.emptyText}</p>
      ) : (
        <ul className="market-cards">
          {section.cards.map((c) => (
            <MarketCardItem key={c.id} card={c} tab={tab} />
          ))}
        </ul>
      )}
      {section.loadMoreHref ? (
        <p className="market-load-more">
          <Link to={section.loadMoreHref} preventScrollReset replace className="button button-outline">
            Load more
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function MarketCardItem({ card, tab }: { card: CardView; tab: MarketplaceData["tab"] }) {
  // Spec 000 §2: the listing view opens in a new window. Compact markup: a page can hold hundreds of cards.
  return (
    <li className="market-card" data-id={card.id}>
      <a href={itemHref(tab, card.id)} target="_blank" rel="noopener">
        <img src={card.image ?? PLACEHOLDER_IMAGE} alt="" width={160} height={160} loading="lazy" />
        <b>{card.productName}</b>
        <code>{card.sku}</code>
        <span>{card.color}</span>
        <strong>{card.price}</strong>
        <span>{`${card.totalUnits} ${card.totalUnits === 1 ? "unit" : "units"}`}</span>
        <small>{card.by}</small>
      </a>
    </li>
  );
}

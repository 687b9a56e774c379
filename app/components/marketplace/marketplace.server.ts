/**
 * Loaders of the marketplace pages (/buy/, /swap/, /sell/, with an optional brand) and of the listing
 * view (/listing/{buy|swap|sell}/{id}). Server-only. The SQL is db/queries/marketplace.ts.
 *
 * Loader data carries only what the page shows (cards pre-formatted: price text, "Listed by ..."), never
 * a store name for a non-staff viewer (the query does not even select it).
 */
import { data, redirect } from "@remix-run/node";
import { listedByText, requestedByText } from "../../../domain/anonymity";
import { CART_MESSAGES, cartTabState, SELL_TO_REQUEST_MAX_PER_SIZE, type CartType } from "../../../domain/cart";
import { LISTING_UNAVAILABLE, NO_ACTIVE_REQUESTS_FOR_BRAND, NO_REQUESTS_RIGHT_NOW, noActiveListingsText } from "../../../domain/messages";
import { formatCents, multiplyCents } from "../../../domain/money";
import type { CartSummary } from "../../../db/queries/cart";
import { loadCartSummary } from "~/utils/cart.server";
import { getMarketItem, listMarketCategories, marketplacePage, type MarketCard } from "../../../db/queries/marketplace";
import { db } from "~/utils/db.server";
import { getViewer, type Viewer } from "~/utils/viewer.server";
import {
  filtersOf,
  itemHref,
  LOAD_MORE_SIZE,
  PLACEHOLDER_IMAGE,
  MARKET_TABS,
  marketHref,
  parseMarketQuery,
  TAB_LABELS,
  type MarketQuery,
  type MarketTab,
} from "./query";

/** What a card shows, pre-formatted (its link is /listing/{tab}/{id}; no image = the placeholder). */
export interface CardView {
  id: number;
  productName: string;
  sku: string;
  color: string;
  price: string;
  totalUnits: number;
  image: string | null;
  by: string;
}

export interface BrandSection {
  id: number;
  name: string;
  cards: CardView[];
  /** "View All" link (shown when the brand has more than a page and we are not in view-all mode). */
  viewAllHref: string | null;
  /** "Load more" link in view-all mode. */
  loadMoreHref: string | null;
  emptyText: string;
}

export interface TabLink {
  tab: MarketTab;
  label: string;
  href: string;
  current: boolean;
  /** The cart holds items of another type (spec 000 §2: the type lock). */
  disabled: boolean;
}

export interface MarketplaceData {
  tab: MarketTab;
  title: string;
  tabs: TabLink[];
  query: MarketQuery;
  /** The form's hidden state: the brand (when browsing one) and view-all. */
  brandName: string | null;
  sections: BrandSection[];
  /** Page-level message when there is nothing to show at all (or null). */
  pageMessage: string | null;
  mode: Viewer["mode"];
  categories: { id: number; name: string }[];
  cart: CartSummary | null;
  /** The marketplace without any filter (the "clear" link). */
  clearHref: string;
  /** This page, for the cart forms to come back to. */
  returnTo: string;
}

/** The page's own path and query as the browser shows it (single-fetch data requests end in ".data"). */
function pageUrl(request: Request): string {
  const u = new URL(request.url);
  const path = u.pathname.replace(/\/_\.data$/, "/").replace(/\.data$/, "");
  u.searchParams.delete("_routes");
  const search = u.searchParams.toString();
  return path + (search ? `?${search}` : "");
}

function badRequest(message: string): Response {
  return new Response(message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

function notFound(message: string): Response {
  return new Response(message, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** Retailers who see no brand at all get this (ours). */
export const NO_AUTHORIZED_BRANDS = "You are not authorized for any brand yet. Ask for brands on the Brands page.";

/** The cart helper's summary (null for staff browsing as admin: no cart). */
function cartOf(viewer: Viewer): Promise<CartSummary | null> {
  return loadCartSummary(viewer.auth);
}

/** Ours: the label of the viewer's own listing on a card and in the listing view. */
export const OWN_LISTING_LABEL = "Your listing";

function cardView(tab: MarketTab, c: MarketCard, isStaff: boolean): CardView {
  const party = { id: c.partyId, storeName: c.partyName };
  return {
    id: c.id,
    productName: c.productName,
    sku: c.sku,
    color: c.color,
    price: formatCents(c.priceCents),
    totalUnits: c.totalUnits,
    image: c.thumbnailUrl,
    by: c.own ? OWN_LISTING_LABEL : tab === "sell" ? requestedByText(party, isStaff) : listedByText(party, isStaff),
  };
}

/** Milliseconds since `t0`, for the Server-Timing header. */
function since(t0: number): string {
  return (performance.now() - t0).toFixed(1);
}

/**
 * The marketplace page's data, and a Server-Timing header saying where the loader's time went
 * (viewer = session + authorized brands, page = the page query, cart = the cart helper's summary).
 */
export async function marketplaceLoader(request: Request, tab: MarketTab, pathBrand?: string) {
  const tStart = performance.now();
  const viewer = await getViewer(request);
  const tViewer = since(tStart);
  const url = new URL(request.url);
  const parsed = parseMarketQuery(url.searchParams, pathBrand);
  if (!parsed.ok) throw badRequest(parsed.message);
  const q = parsed.query;

  let brands = viewer.brands;
  if (q.brand !== undefined) {
    // A brand the viewer is not authorized for does not exist as far as it is concerned.
    if (!viewer.brandIds.has(q.brand)) throw notFound("That brand is not available to you.");
    brands = brands.filter((b) => b.id === q.brand);
  }

  const tQueries = performance.now();
  let tPage = "0";
  let tCart = "0";
  const [pages, cart, categories] = await Promise.all([
    marketplacePage(db, {
      tab,
      brandIds: brands.map((b) => b.id),
      ordering: q.ordering,
      offset: q.offset,
      limit: q.limit,
      filters: { category: q.category, sizes: q.sizes, variantId: q.variantId, id: q.id, units: q.units, search: q.search },
      viewerRetailerId: viewer.retailerId,
      withNames: viewer.withNames,
    }).finally(() => {
      tPage = since(tQueries);
    }),
    cartOf(viewer).finally(() => {
      tCart = since(tQueries);
    }),
    listMarketCategories(db),
  ]);

  const filters = filtersOf(q);
  const emptyText = tab === "sell" ? NO_ACTIVE_REQUESTS_FOR_BRAND : noActiveListingsText(tab);
  const sections: BrandSection[] = brands.map((b) => {
    const page = pages.get(b.id) ?? { cards: [], hasMore: false };
    return {
      id: b.id,
      name: b.name,
      cards: page.cards.map((c) => cardView(tab, c, viewer.withNames)),
      viewAllHref: !q.viewAll && page.hasMore ? marketHref(tab, { ...filters, brand: b.id, viewAll: true }) : null,
      loadMoreHref:
        q.viewAll && page.hasMore ? marketHref(tab, { ...filters, brand: b.id, viewAll: true, offset: q.offset, limit: q.limit + LOAD_MORE_SIZE }) : null,
      emptyText,
    };
  });

  let pageMessage: string | null = null;
  if (viewer.brands.length === 0) pageMessage = NO_AUTHORIZED_BRANDS;
  else if (tab === "sell" && q.brand === undefined && sections.every((s) => s.cards.length === 0)) pageMessage = NO_REQUESTS_RIGHT_NOW;

  const lock = cartTabState(cart?.type ?? null);
  const tabs: TabLink[] = MARKET_TABS.map((t) => ({
    tab: t,
    label: TAB_LABELS[t],
    href: `/${t}/`,
    current: t === tab,
    disabled: lock.disabled[t as CartType],
  }));

  const payload: MarketplaceData = {
    tab,
    title: TAB_LABELS[tab],
    tabs,
    query: q,
    brandName: q.brand !== undefined ? (brands[0]?.name ?? null) : null,
    sections: pageMessage === NO_REQUESTS_RIGHT_NOW ? [] : sections,
    pageMessage,
    mode: viewer.mode,
    categories,
    cart,
    clearHref: `/${tab}/`,
    returnTo: pageUrl(request),
  };
  const timing = `viewer;dur=${tViewer}, page;dur=${tPage}, cart;dur=${tCart}, loader;dur=${since(tStart)}`;
  return data(payload, { headers: { "Server-Timing": timing } });
}

// --------------------------------------------------------------------------------------------------------
// The listing view.

export interface ItemViewData {
  tab: MarketTab;
  kind: "listing" | "request";
  id: number;
  productName: string;
  description: string;
  brandName: string;
  sku: string;
  color: string;
  priceCents: number;
  price: string;
  by: string;
  sizes: { label: string; available: number; max: number }[];
  totalUnits: number;
  totalValue: string;
  images: { url: string; alt: string }[];
  /** Why "Add to cart" is unavailable (admin without a retailer, cart locked to another type), or null. */
  cartBlocked: string | null;
  cart: CartSummary | null;
  backHref: string;
  returnTo: string;
}

function parseItemTab(raw: string | undefined): MarketTab | null {
  return raw === "buy" || raw === "swap" || raw === "sell" ? raw : null;
}

/** Ours: why staff browsing as admin cannot add to a cart. */
export const ADMIN_NO_CART = "Staff browsing as admin have no cart. Choose a retailer to act as to add this to its cart.";

export async function itemViewLoader(request: Request, tabParam: string | undefined, idParam: string | undefined): Promise<ItemViewData> {
  const viewer = await getViewer(request);
  const tab = parseItemTab(tabParam);
  const id = idParam !== undefined && /^[1-9][0-9]{0,9}$/.test(idParam) ? Number(idParam) : NaN;
  if (tab === null || !Number.isSafeInteger(id)) throw notFound(LISTING_UNAVAILABLE);

  const item = await getMarketItem(db, {
    kind: tab === "sell" ? "request" : "listing",
    id,
    brandIds: viewer.mode === "admin" ? null : [...viewer.brandIds],
    viewerRetailerId: viewer.retailerId,
    withNames: viewer.withNames,
  });
  if (!item) throw notFound(LISTING_UNAVAILABLE);
  if (item.kind === "listing") {
    const right: MarketTab = item.listingType === "swap" ? "swap" : "buy";
    if (right !== tab) throw redirect(itemHref(right, item.id));
  }

  const cart = await cartOf(viewer);
  let cartBlocked: string | null = null;
  if (viewer.retailerId === null) cartBlocked = ADMIN_NO_CART;
  else if (item.own) cartBlocked = CART_MESSAGES.ownListing;
  else if (cartTabState(cart?.type ?? null).disabled[tab as CartType]) {
    cartBlocked = `Your cart holds items to ${cart!.type}. Proceed with it or press Start Over before adding items to ${tab}.`;
  }

  const party = { id: item.partyId, storeName: item.partyName };
  return {
    tab,
    kind: item.kind,
    id: item.id,
    productName: item.productName,
    description: item.description,
    brandName: item.brandName,
    sku: item.sku,
    color: item.color,
    priceCents: item.priceCents,
    price: formatCents(item.priceCents),
    by: item.own ? OWN_LISTING_LABEL : item.kind === "request" ? requestedByText(party, viewer.withNames) : listedByText(party, viewer.withNames),
    sizes: item.sizes.map(([label, n]) => ({ label, available: n, max: item.kind === "request" ? SELL_TO_REQUEST_MAX_PER_SIZE : n })),
    totalUnits: item.totalUnits,
    totalValue: formatCents(multiplyCents(item.priceCents, item.totalUnits)),
    images: item.images.length > 0 ? item.images : [{ url: PLACEHOLDER_IMAGE, alt: `${item.productName}, ${item.color}` }],
    cartBlocked,
    cart,
    backHref: marketHref(tab, { brand: item.brandId }),
    returnTo: pageUrl(request),
  };
}

/** The route's `headers`: passes the loader's Server-Timing on to the document response. */
export function marketplaceHeaders({ loaderHeaders }: { loaderHeaders: Headers }): Headers {
  const h = new Headers();
  const t = loaderHeaders.get("Server-Timing");
  if (t) h.set("Server-Timing", t);
  return h;
}

/**
 * Loaders of the marketplace pages (/buy/, /swap/, /sell/, with an optional brand) and of the listing
 * view (/listing/{buy|swap|sell}/{id}). Server-only. The SQL is db/queries/marketplace.ts.
 *
 * Loader data carries only what the page shows (cards as compact tuples with their "Listed by ..." text,
 * app/utils/marketplace-cards.ts), never a store name for a non-staff viewer (the query does not even
 * select it).
 */
import { nextPriceNotices } from "../../db/queries/markdowns";
import { data, redirect } from "@remix-run/node";
import { listedByText, requestedByText } from "../../domain/anonymity";
import {
  CART_MESSAGES,
  cartTabState,
  SELL_TO_REQUEST_MAX_PER_SIZE,
  type CartType,
} from "../../domain/cart";
import { LISTING_UNAVAILABLE, NO_REQUESTS_RIGHT_NOW } from "../../domain/messages";
import { formatCents, multiplyCents } from "../../domain/money";
import type { CartSummary } from "../../db/queries/cart";
import { loadCartSummary } from "~/utils/cart.server";
import { getMarketItem, marketplacePage, type MarketCard } from "../../db/queries/marketplace";
import { db } from "~/utils/db.server";
import { getAuth } from "~/utils/auth.server";
import { getViewer, type Viewer } from "~/utils/viewer.server";
import type { CardTuple } from "./marketplace-cards";
import {
  itemHref,
  marketHref,
  parseMarketQuery,
  PLACEHOLDER_IMAGE,
  type MarketQuery,
  type MarketTab,
} from "./marketplace-query";

export type { CardTuple };

/** A brand's block: its cards and whether more exist (the page builds "View All" / "Load more" from it). */
export interface BrandSection {
  id: number;
  name: string;
  cards: CardTuple[];
  /** More cards exist after this page. */
  hasMore: boolean;
}

/**
 * The marketplace page's loader data. Compact on purpose (it is sent twice: rendered as HTML and again as
 * the hydration data): what the page can derive from the tab and the query (title, tab links and their
 * type lock, "View All" / "Load more" / "Clear" links, empty texts, prices) is derived by the page.
 */
export interface MarketplaceData {
  tab: MarketTab;
  query: MarketQuery;
  /** The brand's name when browsing one brand. */
  brandName: string | null;
  sections: BrandSection[];
  /** Page-level message when there is nothing to show at all (or null). */
  pageMessage: string | null;
  mode: Viewer["mode"];
  categories: { id: number; name: string }[];
  cart: CartSummary | null;
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
  return new Response(message, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

function notFound(message: string): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** Retailers who see no brand at all get this (ours). */
export const NO_AUTHORIZED_BRANDS =
  "You are not authorized for any brand yet. Ask for brands on the Brands page.";

/** The cart helper's summary (null for staff browsing as admin: no cart). */
function cartOf(viewer: Viewer): Promise<CartSummary | null> {
  return loadCartSummary(viewer.auth);
}

/** Ours: the label of the viewer's own listing on a card and in the listing view. */
export const OWN_LISTING_LABEL = "Your listing";

function cardTuple(
  tab: MarketTab,
  c: MarketCard,
  isStaff: boolean,
  nextPrice: string | undefined,
): CardTuple {
  const party = { id: c.partyId, storeName: c.partyName };
  const by = c.own
    ? OWN_LISTING_LABEL
    : tab === "sell"
      ? requestedByText(party, isStaff)
      : listedByText(party, isStaff);
  const card: CardTuple = [
    c.id,
    c.productName,
    c.sku,
    c.color,
    c.priceCents,
    c.totalUnits,
    c.thumbnailUrl,
    by,
  ];
  if (nextPrice) card.push(nextPrice);
  return card;
}

/** The query without its unset fields (they would travel as `undefined` keys in the loader data). */
function compactQuery(q: MarketQuery): MarketQuery {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined) out[k] = v;
  return out as unknown as MarketQuery;
}

/** Milliseconds since `t0`, for the Server-Timing header. */
function since(t0: number): string {
  return (performance.now() - t0).toFixed(1);
}

/**
 * The marketplace page's data, and a Server-Timing header saying where the loader's time went
 * (viewer = session + authorized brands and categories, page = the page query alone, cart = the cart
 * helper's summary, read alongside the viewer: milliseconds since the loader started).
 */
export async function marketplaceLoader(request: Request, tab: MarketTab, pathBrand?: string) {
  const tStart = performance.now();
  let tCart = "0";
  // The cart needs only the session's retailer: read it while the viewer's brands are read (fewer round
  // trips in a row). getAuth is memoised per request; a viewer sent elsewhere never sees this cart.
  const cartP = getAuth(request)
    .then((auth) => loadCartSummary(auth))
    .finally(() => {
      tCart = since(tStart);
    });
  cartP.catch(() => {}); // a failure is raised below, where it is awaited
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
  const [pages, cart] = await Promise.all([
    marketplacePage(db, {
      tab,
      brandIds: brands.map((b) => b.id),
      ordering: q.ordering,
      offset: q.offset,
      limit: q.limit,
      filters: {
        category: q.category,
        sizes: q.sizes,
        variantId: q.variantId,
        id: q.id,
        units: q.units,
        search: q.search,
        retailerId: q.retailerId,
      },
      viewerRetailerId: viewer.retailerId,
      withNames: viewer.withNames,
    }).finally(() => {
      tPage = since(tQueries);
    }),
    cartP,
  ]);

  // The buy tab's cards are sell listings: those with a markdown step coming say so (one read for the page).
  const nextPrices =
    tab === "buy"
      ? await nextPriceNotices(
          db,
          [...pages.values()].flatMap((p) => p.cards.map((c) => c.id)),
        )
      : new Map<number, string>();
  const sections: BrandSection[] = brands.map((b) => {
    const page = pages.get(b.id) ?? { cards: [], hasMore: false };
    return {
      id: b.id,
      name: b.name,
      cards: page.cards.map((c) => cardTuple(tab, c, viewer.withNames, nextPrices.get(c.id))),
      hasMore: page.hasMore,
    };
  });

  let pageMessage: string | null = null;
  if (viewer.brands.length === 0) pageMessage = NO_AUTHORIZED_BRANDS;
  else if (tab === "sell" && q.brand === undefined && sections.every((s) => s.cards.length === 0))
    pageMessage = NO_REQUESTS_RIGHT_NOW;

  const payload: MarketplaceData = {
    tab,
    query: compactQuery(q),
    brandName: q.brand !== undefined ? (brands[0]?.name ?? null) : null,
    sections: pageMessage === NO_REQUESTS_RIGHT_NOW ? [] : sections,
    pageMessage,
    mode: viewer.mode,
    categories: viewer.categories,
    cart,
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
  /** A listing's coming markdown step: "Next price $x on <date>" (docs/product/markdowns.md), or null. */
  nextPrice: string | null;
}

function parseItemTab(raw: string | undefined): MarketTab | null {
  return raw === "buy" || raw === "swap" || raw === "sell" ? raw : null;
}

/** Ours: why staff browsing as admin cannot add to a cart. */
export const ADMIN_NO_CART =
  "Staff browsing as admin have no cart. Choose a retailer to act as to add this to its cart.";

export async function itemViewLoader(
  request: Request,
  tabParam: string | undefined,
  idParam: string | undefined,
): Promise<ItemViewData> {
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
  const nextPrice =
    item.kind === "listing" && item.listingType === "sell"
      ? (await nextPriceNotices(db, [item.id])).get(item.id)
      : undefined;
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
    by: item.own
      ? OWN_LISTING_LABEL
      : item.kind === "request"
        ? requestedByText(party, viewer.withNames)
        : listedByText(party, viewer.withNames),
    sizes: item.sizes.map(([label, n]) => ({
      label,
      available: n,
      max: item.kind === "request" ? SELL_TO_REQUEST_MAX_PER_SIZE : n,
    })),
    totalUnits: item.totalUnits,
    totalValue: formatCents(multiplyCents(item.priceCents, item.totalUnits)),
    images:
      item.images.length > 0
        ? item.images
        : [{ url: PLACEHOLDER_IMAGE, alt: `${item.productName}, ${item.color}` }],
    cartBlocked,
    cart,
    backHref: marketHref(tab, { brand: item.brandId }),
    returnTo: pageUrl(request),
    nextPrice: nextPrice ?? null,
  };
}

/** The route's `headers`: passes the loader's Server-Timing on to the document response. */
export function marketplaceHeaders({ loaderHeaders }: { loaderHeaders: Headers }): Headers {
  const h = new Headers();
  const t = loaderHeaders.get("Server-Timing");
  if (t) h.set("Server-Timing", t);
  return h;
}

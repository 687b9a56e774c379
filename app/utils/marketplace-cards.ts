/**
 * The marketplace cards (docs/product/screens.md, "Marketplace"), pure (no React, no I/O): the compact shape the loader sends and the
 * markup of a brand's card list, built as one HTML string on the server and again in the browser.
 *
 * Why a string and not React elements (docs/performance.md, Marketplace "Analysis"): a page holds up to
 * 10 brands x 20 cards (and view-all pages hundreds), ~9 elements each. Rendering them as React elements
 * was the largest part of the page's server CPU; the cards are static markup (a plain link that opens in
 * a new window, no handlers), so the list is rendered with `dangerouslySetInnerHTML` from this one
 * function, every text and attribute escaped here.
 */
import { formatCents } from "../../domain/money";
import { PLACEHOLDER_IMAGE, itemHref, type MarketTab } from "./marketplace-query";

/**
 * One card: [id, productName, sku, color, priceCents, totalUnits, thumbnail (null = placeholder), by, and, for a
 * listing whose markdown schedule has a step coming, "Next price $x on <date>" (docs/product/markdowns.md)].
 * A tuple, not an object: the hydration data repeats it for every card of the page.
 */
export type CardTuple = [
  id: number,
  productName: string,
  sku: string,
  color: string,
  priceCents: number,
  totalUnits: number,
  image: string | null,
  by: string,
  nextPrice?: string,
];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
};

/** Text or attribute value, escaped for HTML (the same characters React escapes). */
export function escapeHtml(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]) : s;
}

/** The markup of one card (what the React component rendered before, byte for byte). */
export function cardHtml(tab: MarketTab, c: CardTuple): string {
  const [id, productName, sku, color, priceCents, totalUnits, image, by, nextPrice] = c;
  return (
    `<li class="market-card" data-id="${id}"><a href="${itemHref(tab, id)}" target="_blank" rel="noopener">` +
    `<img src="${escapeHtml(image ?? PLACEHOLDER_IMAGE)}" alt="" width="160" height="160" loading="lazy"/>` +
    `<b>${escapeHtml(productName)}</b><code>${escapeHtml(sku)}</code><span>${escapeHtml(color)}</span>` +
    `<strong>${escapeHtml(formatCents(priceCents))}</strong><span>${totalUnits} ${totalUnits === 1 ? "unit" : "units"}</span>` +
    (nextPrice ? `<em class="market-card-next">${escapeHtml(nextPrice)}</em>` : "") +
    `<small>${escapeHtml(by)}</small></a></li>`
  );
}

/** The inner HTML of a brand's `<ul class="market-cards">`. */
export function cardsHtml(tab: MarketTab, cards: readonly CardTuple[]): string {
  let html = "";
  for (const c of cards) html += cardHtml(tab, c);
  return html;
}

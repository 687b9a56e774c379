/**
 * Server side of the cart shared by /cart (the resource/action route), /checkout and the marketplace
 * pages (which render <CartBar summary={await loadCartSummary(auth)} />).
 */
import { randomUUID } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import {
  CART_MESSAGES,
  CheckoutTermsSchema,
  SellInfoSchema,
  selectionFromEntries,
  swapBlock,
  type CartType,
  type SwapBlock,
} from "../../domain/cart";
import { CONFIGURE_PAYOUT_TEXT, SWAP_NO_ACTIVE_LISTINGS, SWAP_NO_PAYOUT } from "../../domain/messages";
import { addToCart, clearCart, countActiveOwnListings, getCartSummary, removeFromCart, type CartSummary } from "../../db/queries/cart";
import { proceedFromCart } from "../../db/queries/checkout";
import { getCardOnFile } from "../../db/queries/settings";
import { buyWorkflowId } from "../../workflows/buy/contract";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { getAuth, type AuthContext, type RetailerRow } from "./auth.server";
import { ensureSellerCard } from "./card.server";
import { CHECKOUT_MESSAGES, sendOffers } from "./checkout.server";
import { db } from "./db.server";

export type { CartSummary };

/** The cart of whoever asks: the effective retailer's; null for staff browsing as admin (no cart). */
export async function loadCartSummary(auth: Pick<AuthContext, "retailer" | "user"> | null): Promise<CartSummary | null> {
  if (!auth?.retailer) return null;
  return getCartSummary(db, auth.retailer.id, { viewerIsStaff: auth.user.isStaff });
}

/** Data returned by the cart and checkout actions when something is refused (4xx). */
export interface CartActionError {
  ok: false;
  error: string;
  /** Which checkout dialog to show instead of the form, when the refusal is one. */
  dialog?: "configure_payout" | "no_payout" | "no_active_listings";
  values?: Record<string, string>;
  /** The sell dialog's card fields (a seller without a card on file): errors per field. */
  cardErrors?: Record<string, string>;
}

export function refuse(status: number, error: string, extra: Omit<CartActionError, "ok" | "error"> = {}) {
  return data<CartActionError>({ ok: false, error, ...extra }, { status });
}

/** A same-site path to come back to (the marketplace page the form was on), else /cart. */
export function safeReturnTo(raw: FormDataEntryValue | null | undefined, fallback = "/cart"): string {
  if (typeof raw !== "string" || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\") || /[\u0000-\u001f\\]/.test(raw)) return fallback;
  try {
    const u = new URL(raw, "http://same.invalid");
    if (u.origin !== "http://same.invalid") return fallback;
    return u.pathname + u.search;
  } catch {
    return fallback;
  }
}

export function withRef(path: string, ref: string): string {
  const u = new URL(path, "http://same.invalid");
  u.searchParams.set("ref", ref);
  return u.pathname + u.search;
}

function idField(raw: FormDataEntryValue | null): number | undefined | "bad" {
  if (raw === null || raw === "") return undefined;
  if (typeof raw !== "string" || !/^\d{1,10}$/.test(raw.trim())) return "bad";
  const n = Number(raw.trim());
  return n > 0 && n <= 2_147_483_647 ? n : "bad";
}

function typeField(raw: FormDataEntryValue | null): CartType | undefined | "bad" {
  if (raw === null || raw === "") return undefined;
  return raw === "buy" || raw === "swap" || raw === "sell" ? raw : "bad";
}

/** intent=add: listingId or requestId, size.<label>=qty, optional type and returnTo. */
export async function handleAdd(retailerId: number, form: FormData) {
  const listingId = idField(form.get("listingId"));
  const requestId = idField(form.get("requestId"));
  const type = typeField(form.get("type"));
  // An id that cannot exist is "not found" like one that does not exist.
  if (listingId === "bad" || requestId === "bad") return refuse(404, "Sorry, we could not find that item.");
  if (type === "bad") return refuse(400, "Unknown cart type.");
  const parsed = selectionFromEntries(form.entries());
  if (!parsed.ok) return refuse(400, parsed.message);
  const result = await addToCart(db, retailerId, { listingId, requestId, selection: parsed.selection, type });
  if (!result.ok) return refuse(result.status, result.message);
  return redirect(withRef(safeReturnTo(form.get("returnTo")), "cartAdded"), 303);
}

export async function handleRemove(retailerId: number, form: FormData) {
  const listingId = idField(form.get("listingId"));
  const requestId = idField(form.get("requestId"));
  if (listingId === "bad" || requestId === "bad" || (listingId === undefined) === (requestId === undefined)) {
    return refuse(404, CART_MESSAGES.notInCart);
  }
  const result = await removeFromCart(db, retailerId, listingId !== undefined ? { listingId } : { requestId });
  if (!result.ok) return refuse(result.status, result.message);
  return redirect(withRef(safeReturnTo(form.get("returnTo")), "cartRemoved"), 303);
}

export async function handleClear(retailerId: number, form: FormData) {
  await clearCart(db, retailerId);
  return redirect(withRef(safeReturnTo(form.get("returnTo")), "cartCleared"), 303);
}

export interface CheckoutState {
  summary: CartSummary;
  payoutSet: boolean;
  /** Swap carts: why swapping is not possible yet, or null. */
  swapBlock: SwapBlock | null;
  /** Sell carts without payout: the "Configure Payout Settings" prompt. */
  needsPayoutForSell: boolean;
  /** Sell carts of a seller without a card on file: the sell dialog asks for one. */
  needsCardForSell: boolean;
  /** The id of the card's submission when it is asked for (one card-on-file workflow per submission). */
  cardSubmissionId: string | null;
}

export async function checkoutState(auth: { user: { isStaff: boolean } }, retailer: RetailerRow): Promise<CheckoutState> {
  const summary = await getCartSummary(db, retailer.id, { viewerIsStaff: auth.user.isStaff });
  const payoutSet = Boolean(retailer.btMerchantId);
  let block: SwapBlock | null = null;
  if (summary.type === "swap" && summary.lines.length > 0) {
    const n = payoutSet ? await countActiveOwnListings(db, retailer.id, summary.lines[0].brandId) : 0;
    block = swapBlock({ payoutSet, activeListingsOfBrand: n });
  }
  const needsCardForSell = summary.type === "sell" && !(await getCardOnFile(db, retailer.id));
  return { summary, payoutSet, swapBlock: block, needsPayoutForSell: summary.type === "sell" && !payoutSet, needsCardForSell, cardSubmissionId: needsCardForSell ? randomUUID() : null };
}

function formValues(form: FormData, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = form.get(n);
    if (typeof v === "string") out[n] = v;
  }
  return out;
}

/**
 * intent=proceed: the terms (and for a sell cart the info dialog) are checked here, then the cart is
 * handed to proceedFromCart. Buy and sell go to the draft review; a swap to its review and card step.
 */
export async function handleProceed(auth: AuthContext, retailer: RetailerRow, form: FormData) {
  const state = await checkoutState(auth, retailer);
  const type = state.summary.type;
  const values = formValues(form, ["reason", "floor_time", "terms"]);
  if (!type) return refuse(400, state.summary.dropped > 0 ? CART_MESSAGES.itemDropped : CART_MESSAGES.emptyCart);
  if (type === "swap" && state.swapBlock) {
    return refuse(403, state.swapBlock === "no_payout" ? SWAP_NO_PAYOUT : SWAP_NO_ACTIVE_LISTINGS, { dialog: state.swapBlock });
  }
  if (state.needsPayoutForSell) return refuse(403, CONFIGURE_PAYOUT_TEXT, { dialog: "configure_payout" });

  let sellInfo: { reason: string; floorTime: string } | null = null;
  if (type === "sell") {
    const parsed = SellInfoSchema.safeParse({ reason: form.get("reason") ?? undefined, floor_time: form.get("floor_time") ?? undefined, terms: form.get("terms") ?? undefined });
    if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? CART_MESSAGES.fillOutEverything, { values });
    sellInfo = { reason: parsed.data.reason, floorTime: parsed.data.floor_time };
    // The offer is the seller's approval: without a card on file, the dialog's card fields are saved first.
    const card = await ensureSellerCard(retailer, form);
    if (!card.ok) return refuse(card.status, card.errors[""] ?? Object.values(card.errors)[0] ?? CART_MESSAGES.fillOutEverything, { values, cardErrors: card.errors });
  } else {
    const parsed = CheckoutTermsSchema.safeParse({ terms: form.get("terms") ?? undefined });
    if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? CART_MESSAGES.acceptTerms, { values });
  }

  const outcome = await proceedFromCart(db, retailer.id, { workflowIdFor: buyWorkflowId, swapWorkflowIdFor: swapWorkflowId, sellInfo });
  if (!outcome.ok) {
    const dialog = outcome.code === "no_payout" || outcome.code === "no_active_listings" ? outcome.code : outcome.code === "payout_required" ? "configure_payout" : undefined;
    return refuse(outcome.status, outcome.message, { values, ...(dialog ? { dialog } : {}) });
  }
  // A swap: its review and card step (the card is pre-authorised as the swap's workflow starts).
  if (outcome.kind === "swap") return redirect("/checkout/swap", 303);
  // Selling to a request: confirming the sell dialog sends the offer (its workflow starts, action 223).
  if (outcome.kind === "sell" && sellInfo) {
    const sent = await sendOffers(retailer, outcome.drafts, sellInfo);
    if (sent.ok) return redirect("/buy?ref=offerSent", 303);
    return refuse(503, CHECKOUT_MESSAGES.unavailable, { values });
  }
  return redirect("/checkout/review", 303);
}

/** For loaders that must know who asks without requiring anything. */
export { getAuth };

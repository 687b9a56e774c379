/**
 * The server-side cart, one per retailer (docs/product/orders.md, "Cart": staff acting as a retailer use that
 * retailer's).
 * The rules are domain/cart.ts; this file loads what they need, checks what the retailer may see, and
 * stores the result. Every change locks the cart row (SELECT ... FOR UPDATE) so two tabs cannot interleave.
 *
 * What a retailer may add:
 * - a listing that is active, has units, is not reserved for someone else's request, and is of a brand
 *   the retailer is authorized for (anything else is "not found": 404);
 * - a request with units, of an authorized brand (sell cart: selling to the request).
 * A listing's type decides the cart type: listing_type 'sell' -> buy cart, 'swap' -> swap cart.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  CART_MESSAGES,
  checkAdd,
  lineKey,
  proceedLabel,
  selectionUnits,
  validateSelection,
  withLine,
  withoutLine,
  type CartLine,
  type CartState,
  type CartType,
  type Selection,
} from "../../domain/cart";
import { displayRetailer } from "../../domain/anonymity";
import { LISTING_UNAVAILABLE } from "../../domain/messages";
import type { Db, Tx, DbOrTx } from "../client";
import {
  brands,
  carts,
  listingRequests,
  listings,
  orders,
  productVariations,
  products,
  retailerBrands,
  retailers,
  variationImages,
} from "../schema";
import { isRowId } from "../../domain/ids";

export interface StoredCart extends CartState {
  type: CartType | null;
  items: CartLine[];
  draftOrderIds: number[];
}

const EMPTY: StoredCart = { type: null, items: [], draftOrderIds: [] };

function asCartType(t: string | null): CartType | null {
  return t === "buy" || t === "swap" || t === "sell" ? t : null;
}

/** The retailer's cart (an empty one when it has none). */
export async function getCart(db: DbOrTx, retailerId: number): Promise<StoredCart> {
  const [row] = await db.select().from(carts).where(eq(carts.retailerId, retailerId)).limit(1);
  if (!row) return { ...EMPTY, items: [], draftOrderIds: [] };
  const items = (row.items ?? []) as CartLine[];
  return {
    type: items.length > 0 ? asCartType(row.type) : null,
    items,
    draftOrderIds: row.draftOrderIds ?? [],
  };
}

/** Locks (creating when missing) the retailer's cart row inside a transaction, then reads it. */
export async function lockCart(tx: Tx, retailerId: number): Promise<StoredCart> {
  await tx.insert(carts).values({ retailerId }).onConflictDoNothing();
  const [row] = await tx.select().from(carts).where(eq(carts.retailerId, retailerId)).for("update");
  const items = (row?.items ?? []) as CartLine[];
  return {
    type: items.length > 0 ? asCartType(row?.type ?? null) : null,
    items,
    draftOrderIds: row?.draftOrderIds ?? [],
  };
}

export async function saveCart(tx: DbOrTx, retailerId: number, cart: StoredCart): Promise<void> {
  const type = cart.items.length > 0 ? cart.type : null;
  await tx
    .insert(carts)
    .values({
      retailerId,
      type,
      items: cart.items,
      draftOrderIds: cart.draftOrderIds,
      draftOrderId: cart.draftOrderIds[0] ?? null,
      updatedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: carts.retailerId,
      set: {
        type,
        items: cart.items,
        draftOrderIds: cart.draftOrderIds,
        draftOrderId: cart.draftOrderIds[0] ?? null,
        updatedAt: new Date(),
      },
    });
}

// ---------------------------------------------------------------------------------------------------------
// What may be added.

export interface ListingTarget {
  kind: "listing";
  id: number;
  providerId: number;
  brandId: number;
  variationId: number;
  listingType: "sell" | "swap";
  sizes: Selection;
  /** The listing's current price (its markdown's, never above the catalogue's: docs/product/markdowns.md). */
  priceCents: number;
}

export interface RequestTarget {
  kind: "request";
  id: number;
  requestorId: number;
  brandId: number;
  variationId: number;
  sizes: Selection;
}

/**
 * A listing the retailer may put in a cart, or null when it cannot see it (gone, no units, hidden
 * until its provider sets up payout, reserved for another retailer's request, brand not authorized).
 * The retailer's own listings are returned (they are visible to it); checkAdd refuses them.
 */
export async function visibleListing(
  db: DbOrTx,
  retailerId: number,
  listingId: number,
): Promise<ListingTarget | null> {
  if (!isRowId(listingId)) return null;
  const [row] = await db
    .select({
      id: listings.id,
      providerId: listings.providerId,
      brandId: listings.brandId,
      variationId: listings.variationId,
      listingType: listings.listingType,
      sizes: listings.sizes,
      priceCents: listings.priceCents,
      totalUnits: listings.totalUnits,
      status: listings.status,
      reservedFor: listings.reservedForRequestId,
      reservedRequestor: listingRequests.requestorId,
      authorized: retailerBrands.id,
      brandActive: brands.isActive,
    })
    .from(listings)
    .innerJoin(brands, eq(brands.id, listings.brandId))
    .leftJoin(
      retailerBrands,
      and(
        eq(retailerBrands.brandId, listings.brandId),
        eq(retailerBrands.retailerId, retailerId),
        eq(retailerBrands.status, "authorized"),
      ),
    )
    .leftJoin(listingRequests, eq(listingRequests.id, listings.reservedForRequestId))
    .where(eq(listings.id, listingId))
    .limit(1);
  if (!row) return null;
  const own = row.providerId === retailerId;
  if (!own) {
    if (
      row.status !== "active" ||
      row.totalUnits <= 0 ||
      row.authorized === null ||
      !row.brandActive
    )
      return null;
    if (row.reservedFor !== null && row.reservedRequestor !== retailerId) return null;
  }
  return {
    kind: "listing",
    id: row.id,
    providerId: row.providerId,
    brandId: row.brandId,
    variationId: row.variationId,
    listingType: row.listingType,
    sizes: row.sizes,
    priceCents: row.priceCents,
  };
}

/** A request the retailer may sell to, or null (gone, no units, brand not authorized). Own requests are returned; checkAdd refuses them. */
export async function visibleRequest(
  db: DbOrTx,
  retailerId: number,
  requestId: number,
): Promise<RequestTarget | null> {
  if (!isRowId(requestId)) return null;
  const [row] = await db
    .select({
      id: listingRequests.id,
      requestorId: listingRequests.requestorId,
      brandId: listingRequests.brandId,
      variationId: listingRequests.variationId,
      sizes: listingRequests.sizes,
      totalUnits: listingRequests.totalUnits,
      authorized: retailerBrands.id,
      brandActive: brands.isActive,
    })
    .from(listingRequests)
    .innerJoin(brands, eq(brands.id, listingRequests.brandId))
    .leftJoin(
      retailerBrands,
      and(
        eq(retailerBrands.brandId, listingRequests.brandId),
        eq(retailerBrands.retailerId, retailerId),
        eq(retailerBrands.status, "authorized"),
      ),
    )
    .where(eq(listingRequests.id, requestId))
    .limit(1);
  if (!row) return null;
  if (
    row.requestorId !== retailerId &&
    (row.totalUnits <= 0 || row.authorized === null || !row.brandActive)
  )
    return null;
  return {
    kind: "request",
    id: row.id,
    requestorId: row.requestorId,
    brandId: row.brandId,
    variationId: row.variationId,
    sizes: row.sizes,
  };
}

/** The cart type a listing goes into. */
export function cartTypeOfListing(listingType: "sell" | "swap"): CartType {
  return listingType === "swap" ? "swap" : "buy";
}

// ---------------------------------------------------------------------------------------------------------
// Changes.

export type CartChange =
  | { ok: true; cart: StoredCart }
  | { ok: false; status: 400 | 404 | 409; message: string };

export interface AddToCartInput {
  listingId?: number;
  requestId?: number;
  selection: Selection;
  /** Optional: the tab the form was on; must agree with the item (a sell listing goes in a buy cart). */
  type?: CartType;
}

/** Adds (or re-selects) a listing or request; the rules of domain/cart.ts decide. */
export async function addToCart(
  db: Db,
  retailerId: number,
  input: AddToCartInput,
): Promise<CartChange> {
  const hasListing = input.listingId !== undefined;
  const hasRequest = input.requestId !== undefined;
  if (hasListing === hasRequest)
    return { ok: false, status: 400, message: "Choose one listing or one request to add." };
  return db.transaction(async (tx): Promise<CartChange> => {
    const cart = await lockCart(tx, retailerId);
    let line: CartLine;
    let type: CartType;
    let available: Selection;
    if (hasListing) {
      const l = await visibleListing(tx, retailerId, input.listingId!);
      if (!l) return { ok: false, status: 404, message: LISTING_UNAVAILABLE };
      type = cartTypeOfListing(l.listingType);
      line = { listingId: l.id, selection: {}, providerId: l.providerId, brandId: l.brandId };
      available = l.sizes;
    } else {
      const r = await visibleRequest(tx, retailerId, input.requestId!);
      if (!r)
        return {
          ok: false,
          status: 404,
          message: "Sorry, but the request you are looking for is no longer open.",
        };
      type = "sell";
      line = { requestId: r.id, selection: {}, providerId: r.requestorId, brandId: r.brandId };
      available = r.sizes;
    }
    if (input.type !== undefined && input.type !== type) {
      return {
        ok: false,
        status: 400,
        message:
          type === "swap"
            ? "This listing is offered for swaps only."
            : type === "buy"
              ? "This listing is offered for sale, not for swaps."
              : "Requests are sold to from the requests tab.",
      };
    }
    const allowed = checkAdd(cart, line, type, retailerId);
    if (!allowed.ok) return { ok: false, status: 409, message: allowed.message };
    const checked = validateSelection({ selection: input.selection, available, mode: type });
    if (!checked.ok) return { ok: false, status: 400, message: checked.message };
    const next = withLine(cart, { ...line, selection: checked.selection }, type);
    const stored: StoredCart = {
      type: next.type,
      items: [...next.items],
      draftOrderIds: cart.draftOrderIds,
    };
    await saveCart(tx, retailerId, stored);
    return { ok: true, cart: stored };
  });
}

/** Removes one line (by listing or request id). A line that is not in the cart: 404. */
export async function removeFromCart(
  db: Db,
  retailerId: number,
  key: { listingId?: number; requestId?: number },
): Promise<CartChange> {
  return db.transaction(async (tx): Promise<CartChange> => {
    const cart = await lockCart(tx, retailerId);
    const k = lineKey(key);
    if (!cart.items.some((i) => lineKey(i) === k))
      return { ok: false, status: 404, message: CART_MESSAGES.notInCart };
    const next = withoutLine(cart, k);
    const stored: StoredCart = {
      type: next.type,
      items: [...next.items],
      draftOrderIds: cart.draftOrderIds,
    };
    await saveCart(tx, retailerId, stored);
    return { ok: true, cart: stored };
  });
}

export interface ClearedCart {
  /** Draft orders of the cart that were still drafts and are deleted with it (cancel their workflows, if any). */
  removedDrafts: { orderId: number; workflowId: string }[];
}

/**
 * "Start Over": empties the cart and deletes its draft orders that are still drafts (checkout never
 * completed, nothing authorised). Orders that moved on are left alone.
 */
export async function clearCart(db: Db, retailerId: number): Promise<ClearedCart> {
  return db.transaction(async (tx) => {
    const cart = await lockCart(tx, retailerId);
    const removed = await deleteDraftOrders(tx, retailerId, cart.draftOrderIds);
    await saveCart(tx, retailerId, { type: null, items: [], draftOrderIds: [] });
    return { removedDrafts: removed };
  });
}

/** Deletes the given orders that are still untouched drafts of this retailer; returns what it deleted. */
export async function deleteDraftOrders(
  tx: DbOrTx,
  retailerId: number,
  orderIds: number[],
): Promise<{ orderId: number; workflowId: string }[]> {
  if (orderIds.length === 0) return [];
  const rows = await tx
    .delete(orders)
    .where(
      and(
        inArray(orders.id, orderIds),
        eq(orders.statename, "complete_order_checkout"),
        eq(orders.authorizedCents, 0),
        sql`(${orders.receiverId} = ${retailerId} OR (${orders.providerId} = ${retailerId} AND ${orders.requestId} IS NOT NULL))`,
      ),
    )
    .returning({ orderId: orders.id, workflowId: orders.workflowId });
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// Reading the cart for the bar and the checkout pages.

export interface CartSummaryLine {
  key: string;
  listingId: number | null;
  requestId: number | null;
  productCode: string;
  displayName: string;
  color: string;
  brandId: number;
  brandName: string;
  /** The other retailer as this viewer may see it ("retailer-00{id}" unless staff). */
  counterpartyLabel: string;
  counterpartyId: number;
  selection: Selection;
  units: number;
  unitPriceCents: number;
  valueCents: number;
  imageUrl: string | null;
}

export interface CartSummary {
  type: CartType | null;
  lines: CartSummaryLine[];
  itemCount: number;
  unitCount: number;
  goodsCents: number;
  draftOrderIds: number[];
  /** How many lines were dropped just now because their listing or request disappeared. */
  dropped: number;
  /** "Proceed with purchase" / "... swap" / "... sell", or null for an empty cart. */
  proceedLabel: string | null;
}

interface LineDetail {
  variationId: number;
  productCode: string;
  displayName: string;
  color: string;
  brandName: string;
  unitPriceCents: number;
  imageUrl: string | null;
}

async function variationDetails(
  db: DbOrTx,
  variationIds: number[],
): Promise<Map<number, LineDetail>> {
  const out = new Map<number, LineDetail>();
  if (variationIds.length === 0) return out;
  const rows = await db
    .select({
      variationId: productVariations.id,
      productCode: productVariations.sku,
      color: productVariations.color,
      unitPriceCents: productVariations.priceCents,
      displayName: products.displayName,
      brandName: brands.displayName,
      imageUrl: sql<
        string | null
      >`(select ${variationImages.thumbnailUrl} from ${variationImages} where ${variationImages.variationId} = ${productVariations.id} order by ${variationImages.position}, ${variationImages.id} limit 1)`,
    })
    .from(productVariations)
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(brands, eq(brands.id, productVariations.brandId))
    .where(inArray(productVariations.id, variationIds));
  for (const r of rows) out.set(r.variationId, r);
  return out;
}

/**
 * Checks every line against the database: a line whose listing or request disappeared (deleted, sold
 * out, hidden, brand no longer authorized) or no longer has the chosen units is dropped. Returns the kept
 * lines with their targets, and how many were dropped.
 */
/** A cart line still there, with its listing's price as the same read saw it (null for a request's line). */
export interface KeptLine {
  line: CartLine;
  variationId: number;
  listingPriceCents: number | null;
}

export async function reconcileLines(
  db: DbOrTx,
  retailerId: number,
  cart: StoredCart,
): Promise<{ kept: KeptLine[]; dropped: number }> {
  const kept: KeptLine[] = [];
  let dropped = 0;
  for (const line of cart.items) {
    if (line.listingId != null) {
      const l = await visibleListing(db, retailerId, line.listingId);
      const ok =
        l !== null &&
        l.providerId !== retailerId &&
        cart.type !== null &&
        cartTypeOfListing(l.listingType) === cart.type &&
        validateSelection({ selection: line.selection, available: l.sizes, mode: cart.type }).ok;
      if (ok) kept.push({ line, variationId: l!.variationId, listingPriceCents: l!.priceCents });
      else dropped += 1;
    } else if (line.requestId != null) {
      const r = await visibleRequest(db, retailerId, line.requestId);
      const ok =
        r !== null &&
        r.requestorId !== retailerId &&
        cart.type === "sell" &&
        validateSelection({ selection: line.selection, available: r.sizes, mode: "sell" }).ok;
      if (ok) kept.push({ line, variationId: r!.variationId, listingPriceCents: null });
      else dropped += 1;
    } else {
      dropped += 1;
    }
  }
  return { kept, dropped };
}

/**
 * The cart as the bar and the checkout pages show it. Lines that disappeared are dropped (and the cart
 * saved without them) so the page can say so once. `viewerIsStaff` decides whether the other retailer is
 * named (staff) or shown as retailer-00{id}; for others no store name is even read.
 */
export async function getCartSummary(
  db: Db,
  retailerId: number,
  opts: { viewerIsStaff?: boolean } = {},
): Promise<CartSummary> {
  let cart = await getCart(db, retailerId);
  let dropped = 0;
  if (cart.items.length > 0) {
    const r = await reconcileLines(db, retailerId, cart);
    if (r.dropped > 0) {
      // Save the drop under the row lock, re-checking against the cart as it is now.
      cart = await db.transaction(async (tx) => {
        const locked = await lockCart(tx, retailerId);
        const again = await reconcileLines(tx, retailerId, locked);
        dropped = again.dropped;
        const items = again.kept.map((k) => k.line);
        const next: StoredCart = {
          type: items.length > 0 ? locked.type : null,
          items,
          draftOrderIds: locked.draftOrderIds,
        };
        if (again.dropped > 0) await saveCart(tx, retailerId, next);
        return next;
      });
    }
  }
  return summarize(db, retailerId, cart, dropped, opts.viewerIsStaff === true);
}

async function summarize(
  db: DbOrTx,
  retailerId: number,
  cart: StoredCart,
  dropped: number,
  viewerIsStaff: boolean,
): Promise<CartSummary> {
  const variationOf = new Map<string, number>();
  /** A listing's line is at the listing's current price (a markdown's, docs/product/markdowns.md). */
  const listingPrice = new Map<number, number>();
  const listingIds = cart.items.filter((i) => i.listingId != null).map((i) => i.listingId!);
  const requestIds = cart.items
    .filter((i) => i.listingId == null && i.requestId != null)
    .map((i) => i.requestId!);
  if (listingIds.length > 0) {
    for (const r of await db
      .select({ id: listings.id, v: listings.variationId, price: listings.priceCents })
      .from(listings)
      .where(inArray(listings.id, listingIds))) {
      variationOf.set(`listing:${r.id}`, r.v);
      listingPrice.set(r.id, r.price);
    }
  }
  if (requestIds.length > 0) {
    for (const r of await db
      .select({ id: listingRequests.id, v: listingRequests.variationId })
      .from(listingRequests)
      .where(inArray(listingRequests.id, requestIds))) {
      variationOf.set(`request:${r.id}`, r.v);
    }
  }
  const details = await variationDetails(db, [...new Set(variationOf.values())]);
  const names = new Map<number, string>();
  if (viewerIsStaff && cart.items.length > 0) {
    const ids = [...new Set(cart.items.map((i) => i.providerId))];
    for (const r of await db
      .select({ id: retailers.id, storeName: retailers.storeName })
      .from(retailers)
      .where(inArray(retailers.id, ids))) {
      names.set(r.id, r.storeName);
    }
  }
  const lines: CartSummaryLine[] = [];
  for (const item of cart.items) {
    const key = lineKey(item);
    const d = details.get(variationOf.get(key) ?? -1);
    if (!d) continue;
    const units = selectionUnits(item.selection);
    const unitPriceCents =
      (item.listingId != null ? listingPrice.get(item.listingId) : undefined) ?? d.unitPriceCents;
    lines.push({
      key,
      listingId: item.listingId ?? null,
      requestId: item.listingId == null ? (item.requestId ?? null) : null,
      productCode: d.productCode,
      displayName: d.displayName,
      color: d.color,
      brandId: item.brandId,
      brandName: d.brandName,
      counterpartyId: item.providerId,
      counterpartyLabel: displayRetailer(
        { id: item.providerId, storeName: names.get(item.providerId) ?? null },
        viewerIsStaff,
        retailerId,
      ),
      selection: item.selection,
      units,
      unitPriceCents,
      valueCents: unitPriceCents * units,
      imageUrl: d.imageUrl,
    });
  }
  const type = lines.length > 0 ? cart.type : null;
  return {
    type,
    lines,
    itemCount: lines.length,
    unitCount: lines.reduce((a, l) => a + l.units, 0),
    goodsCents: lines.reduce((a, l) => a + l.valueCents, 0),
    draftOrderIds: cart.draftOrderIds,
    dropped,
    proceedLabel: type ? proceedLabel(type) : null,
  };
}

/** Active listings of a brand the retailer itself has (swapping needs at least one). */
export async function countActiveOwnListings(
  db: DbOrTx,
  retailerId: number,
  brandId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listings)
    .where(
      and(
        eq(listings.providerId, retailerId),
        eq(listings.brandId, brandId),
        eq(listings.status, "active"),
        sql`${listings.totalUnits} > 0`,
      ),
    );
  return row?.n ?? 0;
}

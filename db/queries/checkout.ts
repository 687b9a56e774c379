/**
 * The hand-over from the cart to checkout: `proceedFromCart` is the ONE function that turns a retailer's
 * cart into draft orders (docs/product/orders.md, "Checkout and drafts").
 *
 * - buy cart: one draft order per seller (orders + order_contributions, statename
 *   'complete_order_checkout', amounts from domain/fees purchaseQuote: goods + 10% fee + shipping), an
 *   order number (external_id) and the deterministic workflow id the caller gives (buyWorkflowId of
 *   workflows/buy/contract.ts; db/ may not import workflows/ at runtime, so it is passed in). Proceeding
 *   again while the cart holds drafts updates them (same order ids and numbers); a seller no longer in the
 *   cart loses its draft. The next issue starts the buy workflow of each returned draft.
 * - sell cart (selling to requests): needs payout set up and the sell info (reason, floor_time); the
 *   offer is recorded the same way, one draft per request (provider = the seller, receiver = the
 *   requestor); sending it to the requestor is the next issue's.
 * - swap cart: needs payout set up and an active listing of the brand, and no swap in progress with the same
 *   retailer (yourmove / theirmove); then one swap draft (the receiver = this retailer, the provider = the
 *   listings' owner, its goods = the cart; workflow id from opts.swapWorkflowIdFor), replacing the cart's
 *   earlier swap draft. Checking it out (/checkout/swap) starts the swap workflow.
 */
import { and, eq, inArray, ne, notInArray, sql, type SQL } from "drizzle-orm";
import {
  CART_MESSAGES,
  orderNumber,
  sellBlocked,
  swapBlock,
  type CartLine,
} from "../../domain/cart";
import { displayRetailer } from "../../domain/anonymity";
import { purchaseQuote } from "../../domain/fees";
import {
  alreadyTransactingMessage,
  CONFIGURE_PAYOUT_TEXT,
  FILL_OUT_EVERYTHING,
  SWAP_NO_ACTIVE_LISTINGS,
  SWAP_NO_PAYOUT,
} from "../../domain/messages";
import { ACTION } from "../../domain/action-codes";
import { WINDOWS } from "../../domain/business-days";
import { SYSTEM_REASON } from "../../domain/reasons";
import {
  actionNeededBy,
  BUY_STATES,
  COMMON_STATES,
  completedFlagFor,
  displayStatusFor,
  stageForState,
  TRANSACTION_TYPE,
} from "../../domain/states";
import type { BuyDraftHandOver } from "../../domain/cart";
import type { Db, Tx, DbOrTx } from "../client";
import {
  brands,
  carts,
  listings,
  orderActions,
  orderContributions,
  orders,
  productVariations,
  products,
  retailers,
} from "../schema";
import {
  countActiveOwnListings,
  deleteDraftOrders,
  lockCart,
  reconcileLines,
  saveCart,
  type KeptLine,
  type StoredCart,
} from "./cart";
import { insertSwapOrder, swapGuardMessage, type SwapDraft } from "./swap-orders";

export type ProceedFailureCode =
  | "empty"
  | "dropped"
  | "no_payout"
  | "no_active_listings"
  | "payout_required"
  | "sell_info_required"
  | "already_transacting";

/**
 * A draft order as handed to the buy workflow: checkout's hand-over plus the unit price of every line (what
 * workflows/buy/contract.ts buyOrderInputFromDraft needs; the workflow re-prices the lines with them and
 * checks the total against goods/fee/shipping/total).
 */
export type CheckoutDraft = Omit<BuyDraftHandOver, "units"> & {
  units: (BuyDraftHandOver["units"][number] & { unitPriceCents: number })[];
};

export type ProceedOutcome =
  | {
      ok: true;
      kind: "buy" | "sell";
      drafts: CheckoutDraft[];
      created: number[];
      updated: number[];
      /** Drafts deleted because their seller (or request) left the cart: cancel their workflows if started. */
      removed: { orderId: number; workflowId: string }[];
    }
  | { ok: true; kind: "swap"; swap: SwapDraft }
  | { ok: false; status: 400 | 403 | 409; code: ProceedFailureCode; message: string };

export interface ProceedOptions {
  /** The deterministic workflow id of an order: pass buyWorkflowId from workflows/buy/contract.ts. */
  workflowIdFor: (orderId: number) => string;
  /** The same for a swap order: pass swapWorkflowId from workflows/swap/contract.ts. */
  swapWorkflowIdFor?: (orderId: number) => string;
  /** Sell carts: the sell-for-request info dialog's answers. */
  sellInfo?: { reason: string; floorTime: string } | null;
  /** The user proceeding (the orders' "placed by", docs/product/teams.md). */
  placedBy?: number | null;
}

const NEGOTIATION_STATES = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  BUY_STATES.STORE_APPROVE_PURCHASE,
  BUY_STATES.PROVIDER_APPROVE_SALE,
  BUY_STATES.PAYMENT,
  BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
];

interface PricedLine {
  line: CartLine;
  variationId: number;
  unitPriceCents: number;
}

/**
 * The lines' unit prices, frozen on the draft order: a listing's line at the listing's current price (its
 * markdown's, never above the catalogue's: docs/product/markdowns.md, "What a buyer pays"), as the cart's check of
 * the line under its lock read it; a request's at the catalogue price. A step after this changes the listing,
 * never the order.
 */
async function priceLines(tx: DbOrTx, kept: KeptLine[]): Promise<PricedLine[]> {
  const ids = [
    ...new Set(kept.filter((k) => k.listingPriceCents === null).map((k) => k.variationId)),
  ];
  const prices = new Map<number, number>();
  if (ids.length > 0) {
    for (const r of await tx
      .select({ id: productVariations.id, price: productVariations.priceCents })
      .from(productVariations)
      .where(inArray(productVariations.id, ids))) {
      prices.set(r.id, r.price);
    }
  }
  return kept.map((k) => ({
    ...k,
    unitPriceCents: k.listingPriceCents ?? prices.get(k.variationId) ?? 0,
  }));
}

/** Cart -> draft orders (see the file comment). One transaction under the cart's row lock. */
export async function proceedFromCart(
  db: Db,
  retailerId: number,
  opts: ProceedOptions,
): Promise<ProceedOutcome> {
  return db.transaction(async (tx): Promise<ProceedOutcome> => {
    // A draft of this cart older than 24 hours is expired (kept as such), so proceeding makes a new one.
    await expireStaleDrafts(tx, { retailerId });
    const cart = await lockCart(tx, retailerId);
    if (cart.items.length === 0 || cart.type === null)
      return { ok: false, status: 400, code: "empty", message: CART_MESSAGES.emptyCart };

    const { kept, dropped } = await reconcileLines(tx, retailerId, cart);
    if (dropped > 0) {
      const items = kept.map((k) => k.line);
      await saveCart(tx, retailerId, {
        type: items.length > 0 ? cart.type : null,
        items,
        draftOrderIds: cart.draftOrderIds,
      });
      return {
        ok: false,
        status: 409,
        code: "dropped",
        message: dropped === 1 ? CART_MESSAGES.itemDropped : CART_MESSAGES.itemsDropped(dropped),
      };
    }

    const [me] = await tx
      .select({ btMerchantId: retailers.btMerchantId })
      .from(retailers)
      .where(eq(retailers.id, retailerId));
    const payoutSet = Boolean(me?.btMerchantId);

    if (cart.type === "swap") {
      const block = swapBlock({
        payoutSet,
        activeListingsOfBrand: payoutSet
          ? await countActiveOwnListings(tx, retailerId, cart.items[0].brandId)
          : 0,
      });
      if (block === "no_payout")
        return { ok: false, status: 403, code: "no_payout", message: SWAP_NO_PAYOUT };
      if (block === "no_active_listings")
        return {
          ok: false,
          status: 403,
          code: "no_active_listings",
          message: SWAP_NO_ACTIVE_LISTINGS,
        };
      const swap = await swapDraftFromCart(tx, retailerId, cart, kept, opts);
      return "ok" in swap ? swap : { ok: true, kind: "swap", swap };
    }

    if (cart.type === "sell") {
      if (sellBlocked({ payoutSet }))
        return { ok: false, status: 403, code: "payout_required", message: CONFIGURE_PAYOUT_TEXT };
      if (!opts.sellInfo?.reason || !opts.sellInfo.floorTime)
        return { ok: false, status: 400, code: "sell_info_required", message: FILL_OUT_EVERYTHING };
    }

    const type = cart.type;
    const priced = await priceLines(tx, kept);
    // Groups: buy -> one per seller; sell -> one per request.
    const groups = new Map<string, PricedLine[]>();
    for (const p of priced) {
      const key = draftKey(type, p.line);
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }

    const existing = await cartDrafts(tx, retailerId, type, cart.draftOrderIds);
    const draftByKey = new Map(existing.map((o) => [draftKey(type, o), o]));

    if (type === "buy") {
      const guard = await alreadyTransacting(
        tx,
        retailerId,
        priced,
        existing.map((o) => o.id),
      );
      if (guard) return { ok: false, status: 409, code: "already_transacting", message: guard };
    }

    const drafts: CheckoutDraft[] = [];
    const created: number[] = [];
    const updated: number[] = [];
    for (const [key, lines] of groups) {
      const written = await writeDraftOrder(tx, {
        retailerId,
        type,
        lines,
        draft: draftByKey.get(key),
        opts,
      });
      (written.created ? created : updated).push(written.draft.orderId);
      drafts.push(written.draft);
    }

    const keepIds = drafts.map((d) => d.orderId);
    const removed = await deleteDraftOrders(
      tx,
      retailerId,
      cart.draftOrderIds.filter((id) => !keepIds.includes(id)),
    );
    const next: StoredCart = { type: cart.type, items: cart.items, draftOrderIds: keepIds };
    await saveCart(tx, retailerId, next);
    return { ok: true, kind: cart.type, drafts, created, updated, removed };
  });
}

type DraftOrderRow = typeof orders.$inferSelect;
/** A buy cart's drafts are keyed by seller, a sell cart's by request. */
const draftKey = (
  type: "buy" | "sell",
  o: { providerId: number; requestId?: number | null },
): string => (type === "buy" ? `seller:${o.providerId}` : `request:${o.requestId}`);

/** The cart's drafts that are still drafts (not yet authorised). */
async function cartDrafts(
  tx: Tx,
  retailerId: number,
  type: "buy" | "sell",
  draftOrderIds: number[],
): Promise<DraftOrderRow[]> {
  if (draftOrderIds.length === 0) return [];
  return tx
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.id, draftOrderIds),
        eq(orders.statename, BUY_STATES.COMPLETE_ORDER_CHECKOUT),
        eq(orders.authorizedCents, 0),
        type === "buy"
          ? and(eq(orders.receiverId, retailerId), sql`${orders.requestId} IS NULL`)
          : and(eq(orders.providerId, retailerId), sql`${orders.requestId} IS NOT NULL`),
      ),
    );
}

/**
 * One group's draft order: the cart's earlier draft of that seller (or request) updated in place (same id and
 * number, its lines replaced), or a new order with its number and workflow id; then its lines.
 */
async function writeDraftOrder(
  tx: Tx,
  g: {
    retailerId: number;
    type: "buy" | "sell";
    lines: PricedLine[];
    draft: DraftOrderRow | undefined;
    opts: ProceedOptions;
  },
): Promise<{ draft: CheckoutDraft; created: boolean }> {
  const { retailerId, type, lines, draft, opts } = g;
  const quote = purchaseQuote(
    lines.map((l) => ({ unitPriceCents: l.unitPriceCents, units: l.line.selection })),
  );
  const first = lines[0].line;
  const providerId = type === "buy" ? first.providerId : retailerId;
  const receiverId = type === "buy" ? retailerId : first.providerId;
  const requestId = type === "sell" ? (first.requestId ?? null) : null;
  const amounts = {
    valueCents: quote.goodsCents,
    receiverFeeCents: quote.feeCents,
    receiverShippingCents: quote.shippingCents,
    receiverGrandTotalCents: quote.totalCents,
    brandId: first.brandId,
    floorTime: type === "sell" ? opts.sellInfo!.floorTime : null,
    reasons: (type === "sell" ? { sell_reason: opts.sellInfo!.reason } : {}) as Record<
      string,
      string | number
    >,
    modifiedAt: new Date(),
    placedByUserId: opts.placedBy ?? null,
  };
  let orderId: number;
  let externalId: string;
  let workflowId: string;
  if (draft) {
    orderId = draft.id;
    externalId = draft.externalId;
    workflowId = draft.workflowId;
    await tx.update(orders).set(amounts).where(eq(orders.id, orderId));
    await tx.delete(orderContributions).where(eq(orderContributions.orderId, orderId));
  } else {
    const [{ id }] = await tx.execute<{ id: number }>(
      sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
    );
    orderId = Number(id);
    externalId = orderNumber(orderId);
    workflowId = opts.workflowIdFor(orderId);
    await tx.insert(orders).values({
      id: orderId,
      externalId,
      workflowId,
      transactionType: TRANSACTION_TYPE.SALE,
      providerId,
      receiverId,
      requestId,
      statename: BUY_STATES.COMPLETE_ORDER_CHECKOUT,
      displayStatus: displayStatusFor("buy", BUY_STATES.COMPLETE_ORDER_CHECKOUT),
      actionNeeded: actionNeededBy("buy", BUY_STATES.COMPLETE_ORDER_CHECKOUT),
      stage: "pre_shipping",
      completed: null,
      ...amounts,
    });
  }
  await tx.insert(orderContributions).values(
    lines.map((l) => {
      const quantity = Object.values(l.line.selection).reduce((a, n) => a + n, 0);
      return {
        orderId,
        side: "provider",
        type: "goods",
        listingId: l.line.listingId ?? null,
        variationId: l.variationId,
        units: l.line.selection,
        quantity,
        unitPriceCents: l.unitPriceCents,
        valueCents: l.unitPriceCents * quantity,
      };
    }),
  );
  return {
    created: !draft,
    draft: {
      orderId,
      workflowId,
      externalId,
      receiverId,
      providerId,
      requestId,
      goodsCents: quote.goodsCents,
      feeCents: quote.feeCents,
      shippingCents: quote.shippingCents,
      totalCents: quote.totalCents,
      units: lines.map((l) => ({
        listingId: l.line.listingId ?? null,
        variationId: l.variationId,
        sizes: l.line.selection,
        unitPriceCents: l.unitPriceCents,
      })),
    },
  };
}

function missingSwapWorkflowId(): never {
  throw new Error("proceedFromCart: a swap cart needs opts.swapWorkflowIdFor");
}

/**
 * A swap cart -> one swap draft (the cart holds one provider's swap listings of one brand): the cart's
 * earlier swap draft, still unchecked-out, is replaced. The duplicate-swap guard answers first.
 */
async function swapDraftFromCart(
  tx: Tx,
  retailerId: number,
  cart: StoredCart,
  kept: KeptLine[],
  opts: ProceedOptions,
): Promise<SwapDraft | Extract<ProceedOutcome, { ok: false }>> {
  const priced = await priceLines(tx, kept);
  const providerId = priced[0].line.providerId;
  const guard = await swapGuardMessage(tx, retailerId, providerId, cart.draftOrderIds);
  if (guard) return { ok: false, status: 409, code: "already_transacting", message: guard };
  await deleteDraftOrders(tx, retailerId, cart.draftOrderIds);
  const swap = await insertSwapOrder(tx, {
    providerId,
    receiverId: retailerId,
    brandId: priced[0].line.brandId,
    providerLines: priced.map((p) => ({
      listingId: p.line.listingId ?? null,
      variationId: p.variationId,
      sizes: p.line.selection,
      unitPriceCents: p.unitPriceCents,
    })),
    workflowIdFor: opts.swapWorkflowIdFor ?? missingSwapWorkflowId,
    placedBy: opts.placedBy,
  });
  await saveCart(tx, retailerId, {
    type: cart.type,
    items: cart.items,
    draftOrderIds: [swap.orderId],
  });
  return swap;
}

/**
 * The duplicate-order guard (docs/product/orders.md, "Duplicate-order guard"): an open order outside this cart, between this buyer and the
 * same seller, for one of the same listings. Checkout still to complete -> "yourmove"; waiting for the
 * seller -> "theirmove". Returns the message, or null.
 */
async function alreadyTransacting(
  tx: Tx,
  retailerId: number,
  priced: PricedLine[],
  ownDraftIds: number[],
): Promise<string | null> {
  const listingIds = priced.map((p) => p.line.listingId).filter((x): x is number => x != null);
  if (listingIds.length === 0) return null;
  const sellers = [...new Set(priced.map((p) => p.line.providerId))];
  const rows = await tx
    .selectDistinct({ statename: orders.statename })
    .from(orders)
    .innerJoin(orderContributions, eq(orderContributions.orderId, orders.id))
    .where(
      and(
        eq(orders.receiverId, retailerId),
        inArray(orders.providerId, sellers),
        eq(orders.transactionType, TRANSACTION_TYPE.SALE),
        inArray(orders.statename, NEGOTIATION_STATES),
        inArray(orderContributions.listingId, listingIds),
        ownDraftIds.length ? notInArray(orders.id, ownDraftIds) : ne(orders.id, -1),
      ),
    );
  if (rows.length === 0) return null;
  const yours = rows.some((r) => r.statename === BUY_STATES.COMPLETE_ORDER_CHECKOUT);
  return alreadyTransactingMessage("buy", yours ? "yourmove" : "theirmove");
}

// ---------------------------------------------------------------------------------------------------------
// The review page.

export interface DraftOrderView {
  id: number;
  externalId: string;
  kind: "buy" | "sell";
  /** A purchase / sale, or a swap (this retailer receives the other's goods: the swap's receiver). */
  ttype: "buy" | "swap";
  statename: string;
  displayStatus: string;
  counterpartyLabel: string;
  goodsCents: number;
  feeCents: number;
  shippingCents: number;
  totalCents: number;
  floorTime: string | null;
  lines: {
    productCode: string;
    displayName: string;
    color: string;
    brandName: string;
    sizes: Record<string, number>;
    quantity: number;
    unitPriceCents: number;
    valueCents: number;
  }[];
  /** The same order as the hand-over its workflow is started with (read in the same two statements). */
  draft: CheckoutDraft;
}

/**
 * The given orders where this retailer is a party, with their goods, for the checkout review and the pay
 * step: one statement for the orders, one for their lines (the view and the workflow's hand-over alike).
 */
export async function getDraftOrders(
  db: DbOrTx,
  retailerId: number,
  orderIds: number[],
  opts: { viewerIsStaff?: boolean } = {},
): Promise<DraftOrderView[]> {
  if (orderIds.length === 0) return [];
  const os = await db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.id, orderIds),
        sql`(${orders.receiverId} = ${retailerId} OR ${orders.providerId} = ${retailerId})`,
      ),
    )
    .orderBy(orders.id);
  if (os.length === 0) return [];
  const lines = await db
    .select({
      orderId: orderContributions.orderId,
      side: orderContributions.side,
      listingId: orderContributions.listingId,
      variationId: orderContributions.variationId,
      units: orderContributions.units,
      quantity: orderContributions.quantity,
      unitPriceCents: orderContributions.unitPriceCents,
      valueCents: orderContributions.valueCents,
      productCode: productVariations.sku,
      color: productVariations.color,
      displayName: products.displayName,
      brandName: brands.displayName,
    })
    .from(orderContributions)
    .innerJoin(productVariations, eq(productVariations.id, orderContributions.variationId))
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(brands, eq(brands.id, productVariations.brandId))
    .where(
      inArray(
        orderContributions.orderId,
        os.map((o) => o.id),
      ),
    )
    .orderBy(orderContributions.id);
  const names = new Map<number, string>();
  if (opts.viewerIsStaff) {
    const ids = [...new Set(os.flatMap((o) => [o.providerId, o.receiverId]))];
    for (const r of await db
      .select({ id: retailers.id, storeName: retailers.storeName })
      .from(retailers)
      .where(inArray(retailers.id, ids)))
      names.set(r.id, r.storeName);
  }
  return os.map((o) => {
    const other = o.receiverId === retailerId ? o.providerId : o.receiverId;
    const own = lines.filter((l) => l.orderId === o.id);
    return {
      id: o.id,
      externalId: o.externalId,
      kind: o.receiverId === retailerId ? ("buy" as const) : ("sell" as const),
      ttype: o.transactionType === TRANSACTION_TYPE.SWAP ? ("swap" as const) : ("buy" as const),
      statename: o.statename,
      displayStatus: o.displayStatus,
      counterpartyLabel: displayRetailer(
        { id: other, storeName: names.get(other) ?? null },
        opts.viewerIsStaff === true,
        retailerId,
      ),
      goodsCents: o.valueCents,
      feeCents: o.receiverFeeCents,
      shippingCents: o.receiverShippingCents,
      totalCents: o.receiverGrandTotalCents,
      floorTime: o.floorTime,
      draft: {
        orderId: o.id,
        workflowId: o.workflowId,
        externalId: o.externalId,
        receiverId: o.receiverId,
        providerId: o.providerId,
        requestId: o.requestId,
        goodsCents: o.valueCents,
        feeCents: o.receiverFeeCents,
        shippingCents: o.receiverShippingCents,
        totalCents: o.receiverGrandTotalCents,
        units: own
          .filter((l) => l.side === "provider")
          .map((l) => ({
            listingId: l.listingId,
            variationId: l.variationId as number,
            sizes: l.units,
            unitPriceCents: l.unitPriceCents,
          })),
      },
      lines: own.map((l) => ({
        productCode: l.productCode,
        displayName: l.displayName,
        color: l.color,
        brandName: l.brandName,
        sizes: l.units,
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        valueCents: l.valueCents,
      })),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Starting the orders' workflows (app/utils/checkout.server.ts).

/**
 * Orders whose workflow has started are no longer the cart's drafts: they leave the cart's draft list and
 * take their cart lines with them (buy: the lines of that seller; sell: the line of that request). From
 * then on they are orders (Pending Orders), not drafts a later "proceed" could rewrite or "start over" delete.
 */
export async function detachOrdersFromCart(
  db: Db,
  retailerId: number,
  orderIds: number[],
): Promise<void> {
  if (orderIds.length === 0) return;
  await db.transaction(async (tx) => {
    const cart = await lockCart(tx, retailerId);
    const os = await tx
      .select({
        id: orders.id,
        providerId: orders.providerId,
        receiverId: orders.receiverId,
        requestId: orders.requestId,
      })
      .from(orders)
      .where(inArray(orders.id, orderIds));
    const sellers = new Set(
      os
        .filter((o) => o.receiverId === retailerId && o.requestId === null)
        .map((o) => o.providerId),
    );
    const requests = new Set(
      os
        .filter((o) => o.providerId === retailerId && o.requestId !== null)
        .map((o) => o.requestId as number),
    );
    const items = cart.items.filter((l) =>
      cart.type === "buy" || cart.type === "swap"
        ? !sellers.has(l.providerId)
        : cart.type === "sell"
          ? !(l.requestId != null && requests.has(l.requestId))
          : true,
    );
    const draftOrderIds = cart.draftOrderIds.filter((id) => !orderIds.includes(id));
    await saveCart(tx, retailerId, {
      type: items.length > 0 ? cart.type : null,
      items,
      draftOrderIds,
    });
  });
}

/** The cart's draft order ids (buy, sell or swap), for the pay step. */
export async function cartDraftOrderIds(db: DbOrTx, retailerId: number): Promise<number[]> {
  const [row] = await db
    .select({ ids: carts.draftOrderIds })
    .from(carts)
    .where(eq(carts.retailerId, retailerId))
    .limit(1);
  return row?.ids ?? [];
}

// ---------------------------------------------------------------------------------------------------------
// Drafts that were never checked out (docs/product/windows.md, "Checkout": a checkout never completed expires
// after 24 hours). Once its workflow starts, an order leaves the cart and its own timer expires it; a draft still
// in a cart (the card step never submitted, or an offer never sent) has no workflow, so it is expired here:
// every list treats it as expired at once (staleCartDraftSql), and expireStaleDrafts writes it down.

/** The SQL of "a cart draft (an order still in a cart's draft list) untouched for WINDOWS.checkoutExpiry". */
export function staleCartDraftSql(now: Date = new Date(), retailerId?: number): SQL {
  const cutoff = new Date(now.getTime() - WINDOWS.checkoutExpiry);
  const ofCart = retailerId === undefined ? sql`` : sql` WHERE c.retailer_id = ${retailerId}`;
  return sql`(${orders.statename} = ${BUY_STATES.COMPLETE_ORDER_CHECKOUT} AND ${orders.authorizedCents} = 0 AND ${orders.modifiedAt} <= ${cutoff.toISOString()}::timestamptz
    AND ${orders.id} IN (SELECT (jsonb_array_elements_text(c.draft_order_ids))::int FROM carts c${ofCart}))`;
}

/**
 * Marks the stale cart drafts (all, or one retailer's cart) expired: state `expired` ("Expired", stage
 * declined), system reason "Checkout was not completed in time", action 301 (checkout expired), and takes
 * them out of their cart's draft list (proceeding again makes a new draft; the cart's lines stay).
 * Returns the expired order ids. Idempotent: an expired draft is no longer stale.
 */
export async function expireStaleDrafts(
  db: DbOrTx,
  opts: { now?: Date; retailerId?: number } = {},
): Promise<number[]> {
  const now = opts.now ?? new Date();
  return db.transaction(async (tx) => {
    const expired = COMMON_STATES.EXPIRED;
    const rows = await tx
      .update(orders)
      .set({
        statename: expired,
        displayStatus: displayStatusFor("buy", expired),
        stage: stageForState(expired),
        completed: completedFlagFor(expired),
        actionNeeded: null,
        reasons: sql`${orders.reasons} || ${JSON.stringify({ system_reason: SYSTEM_REASON.CHECKOUT_NOT_COMPLETED })}::jsonb`,
        modifiedAt: now,
      })
      .where(staleCartDraftSql(now, opts.retailerId))
      .returning({ id: orders.id });
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return [];
    await tx.insert(orderActions).values(
      ids.map((orderId) => ({
        orderId,
        code: ACTION.CHECKOUT_EXPIRED,
        role: "system",
        statename: expired,
        displayStatus: displayStatusFor("buy", expired),
        createdAt: now,
      })),
    );
    const holders = await tx
      .select({ retailerId: carts.retailerId, draftOrderIds: carts.draftOrderIds })
      .from(carts)
      .where(
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${carts.draftOrderIds}) e WHERE e::int IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}))`,
      )
      .for("update");
    for (const c of holders) {
      const left = c.draftOrderIds.filter((id) => !ids.includes(id));
      await tx
        .update(carts)
        .set({ draftOrderIds: left, draftOrderId: left[0] ?? null, updatedAt: now })
        .where(eq(carts.retailerId, c.retailerId));
    }
    return ids;
  });
}

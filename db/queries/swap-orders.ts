/**
 * Swap orders in the read model (transaction_type 2): the row checkout creates before the swap's workflow
 * starts, and the workflow's read-model write of each step (the swap activity recordSwapState).
 *
 * recordSwapState: one step, written by recordStep (db/queries/order-steps.ts) like the buy's recordOrderState,
 * with both sides' goods:
 *   - orders: state name, display status, stage, completed, whose move, each side's fee and shipping, the
 *     receiver's due, the valuation (ledger), reasons, deadlines;
 *   - order_contributions: the goods of each side as they stand (side 'provider' = what the provider gives,
 *     'receiver' = what the receiver gives). A line the provider chose is added; a line removed keeps its
 *     row with no units (history); cash is the valuation's, on the ledger;
 *   - order_actions and the step's notices (outbox), deduplicated by the write's key;
 *   - shipments: each side's parcel follows the workflow's (without them, the order's state).
 * A write not newer than the row's record_seq adds only its action rows and notices.
 */
import { and, eq, inArray, notInArray, or, sql } from "drizzle-orm";
import { orderNumber } from "../../domain/cart";
import { alreadyTransactingMessage } from "../../domain/messages";
import {
  TRANSACTION_TYPE,
  BUY_STATES,
  SWAP_OPEN_STATES,
  displayStatusFor,
  isMoveOf,
  type ShipmentStatus,
} from "../../domain/states";
import type { Db, DbOrTx } from "../client";
import {
  listings,
  orderContributions,
  orders,
  productVariations,
  products,
  shipments,
  type SizesMap,
} from "../schema";
import {
  mergedReasons,
  recordStep,
  shipmentsFollow,
  stepOf,
  type OrderActionWrite,
  type OrderNoticeWrite,
  type StepState,
} from "./order-steps";
import { lineKey, saveOrderRating, type OrderLineWrite } from "./orders";

export type SwapSide = "provider" | "receiver";

export interface SwapOrderCreate {
  providerId: number;
  receiverId: number;
  brandId: number | null;
  /** The provider's swap listings in the receiver's cart. */
  providerLines: OrderLineWrite[];
  workflowIdFor(orderId: number): string;
  /** The receiver's user who proceeded from its cart (docs/product/teams.md, "Who placed an order"). */
  placedBy?: number | null;
}

function units(sizes: SizesMap): number {
  return Object.values(sizes).reduce((a, n) => a + n, 0);
}

/** A goods row of one side. */
function goodsRow(orderId: number, side: SwapSide, l: OrderLineWrite) {
  const q = units(l.sizes);
  return {
    orderId,
    side,
    type: "goods",
    listingId: l.listingId,
    variationId: l.variationId ?? null,
    units: l.sizes,
    quantity: q,
    unitPriceCents: l.unitPriceCents,
    valueCents: l.unitPriceCents * q,
  };
}

export interface SwapDraft {
  orderId: number;
  externalId: string;
  workflowId: string;
  providerId: number;
  receiverId: number;
  providerLines: OrderLineWrite[];
}

/** Creates the swap order row at checkout (before its workflow starts) with the provider's goods. */
export async function createSwapOrder(db: Db, input: SwapOrderCreate): Promise<SwapDraft> {
  return db.transaction((tx) => insertSwapOrder(tx, input));
}

/** createSwapOrder inside the caller's transaction (the cart's checkout). */
export async function insertSwapOrder(tx: DbOrTx, input: SwapOrderCreate): Promise<SwapDraft> {
  if (input.providerLines.length === 0)
    throw new RangeError("a swap needs at least one line of the provider's goods");
  const [{ id }] = await tx.execute<{ id: number }>(
    sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
  );
  const orderId = Number(id);
  const externalId = orderNumber(orderId);
  const workflowId = input.workflowIdFor(orderId);
  const valueCents = input.providerLines.reduce((a, l) => a + l.unitPriceCents * units(l.sizes), 0);
  await tx.insert(orders).values({
    id: orderId,
    externalId,
    workflowId,
    transactionType: TRANSACTION_TYPE.SWAP,
    brandId: input.brandId,
    providerId: input.providerId,
    receiverId: input.receiverId,
    placedByUserId: input.placedBy ?? null,
    statename: BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    displayStatus: displayStatusFor("swap", BUY_STATES.COMPLETE_ORDER_CHECKOUT),
    actionNeeded: "receiver",
    stage: "pre_shipping",
    completed: null,
    valueCents,
  });
  await tx
    .insert(orderContributions)
    .values(input.providerLines.map((l) => goodsRow(orderId, "provider", l)));
  return {
    orderId,
    externalId,
    workflowId,
    providerId: input.providerId,
    receiverId: input.receiverId,
    providerLines: input.providerLines,
  };
}

/** A swap's step: the state it leaves the order in (StepState) and what else it writes. */
export interface SwapStateWrite extends StepState {
  orderId: number;
  dedupeKey: string;
  sequence: number;
  isModified: boolean;
  lines: Record<SwapSide, OrderLineWrite[]>;
  /** Per side: fee, shipping, total due (cents). */
  amounts: Record<SwapSide, { feeCents: number; shippingCents: number; dueCents: number }>;
  /** Goods of the provider (what the receiver gets). */
  valueCents: number;
  ledger: Record<string, number | boolean>;
  reasons: Record<string, number>;
  deadlines: Record<string, string | null>;
  /** Each side's parcel (the one it sends) and the windows of what it receives; without it, shipments follow the state. */
  sides?: Record<
    SwapSide,
    { parcel: ShipmentStatus | null; ratingBy: string | null; rmaBy: string | null }
  >;
  /**
   * The terms as the workflow holds them (orders.swap_view). A write without them (a worker from before they
   * were kept) clears them: the panel then asks the workflow instead of showing an older step's terms.
   */
  view?: Record<string, unknown> | null;
  /** Who of the receiver's store approved it over the placer's limit (docs/product/teams.md). */
  approvedByUserId?: number | null;
  actions: OrderActionWrite[];
  notices: OrderNoticeWrite[];
}

/** What a swap parcel's row (shipments.status) may move from to reach each status: never backwards. */
const PARCEL_BEFORE: Record<ShipmentStatus, string[]> = {
  pickup_scheduled: [],
  in_route: ["pickup_scheduled"],
  delivered: ["pickup_scheduled", "in_route"],
  cancelled: ["pickup_scheduled"],
};

/** Each side's parcel row follows the workflow's parcel (never backwards). */
async function parcelsFollow(
  tx: DbOrTx,
  orderId: number,
  parties: Record<SwapSide, number>,
  sides: NonNullable<SwapStateWrite["sides"]>,
): Promise<void> {
  for (const side of ["provider", "receiver"] as const) {
    const status = sides[side].parcel;
    if (!status || PARCEL_BEFORE[status].length === 0) continue;
    await tx
      .update(shipments)
      .set({ status, modifiedAt: sql`now()` })
      .where(
        and(
          eq(shipments.orderId, orderId),
          eq(shipments.senderId, parties[side]),
          inArray(shipments.status, PARCEL_BEFORE[status]),
        ),
      );
  }
}

/** The windows of what each side receives, kept with the order's deadlines (providerRatingBy, receiverRmaBy, ...). */
function sideWindows(sides: SwapStateWrite["sides"]): Record<string, string | null> {
  if (!sides) return {};
  return {
    providerRatingBy: sides.provider.ratingBy,
    providerRmaBy: sides.provider.rmaBy,
    receiverRatingBy: sides.receiver.ratingBy,
    receiverRmaBy: sides.receiver.rmaBy,
  };
}

/** The goods of one side as they stand: rows updated, added (a line chosen), or emptied (a line removed). */
async function syncSide(
  tx: DbOrTx,
  orderId: number,
  side: SwapSide,
  lines: OrderLineWrite[],
): Promise<void> {
  const rows = await tx
    .select({
      id: orderContributions.id,
      listingId: orderContributions.listingId,
      variationId: orderContributions.variationId,
    })
    .from(orderContributions)
    .where(
      and(
        eq(orderContributions.orderId, orderId),
        eq(orderContributions.side, side),
        eq(orderContributions.type, "goods"),
      ),
    );
  const current = new Map(lines.map((l) => [lineKey(l), l]));
  for (const r of rows) {
    const line = current.get(lineKey(r));
    current.delete(lineKey(r));
    const sizes = line?.sizes ?? {};
    const q = units(sizes);
    await tx
      .update(orderContributions)
      .set({
        units: sizes,
        quantity: q,
        ...(line ? { unitPriceCents: line.unitPriceCents } : {}),
        valueCents: (line?.unitPriceCents ?? 0) * q,
      })
      .where(eq(orderContributions.id, r.id));
  }
  const added = [...current.values()];
  if (added.length > 0)
    await tx.insert(orderContributions).values(added.map((l) => goodsRow(orderId, side, l)));
}

/** One step of a swap, written by recordStep (db/queries/order-steps.ts). */
export async function recordSwapState(db: Db, w: SwapStateWrite): Promise<{ recorded: boolean }> {
  return recordStep(db, {
    ...stepOf(w),
    columns: {
      isModified: w.isModified,
      valueCents: w.valueCents,
      receiverFeeCents: w.amounts.receiver.feeCents,
      receiverShippingCents: w.amounts.receiver.shippingCents,
      receiverGrandTotalCents: w.amounts.receiver.dueCents,
      providerFeeCents: w.amounts.provider.feeCents,
      providerShippingCents: w.amounts.provider.shippingCents,
      ledger: w.ledger,
      reasons: mergedReasons(w.reasons),
      deadlines: { ...w.deadlines, ...sideWindows(w.sides) },
      swapView: w.view ?? null,
      ...(w.approvedByUserId ? { approvedByUserId: w.approvedByUserId } : {}),
    },
    whenNewer: async (tx, parties) => {
      await syncSide(tx, w.orderId, "provider", w.lines.provider);
      await syncSide(tx, w.orderId, "receiver", w.lines.receiver);
      if (w.sides)
        await parcelsFollow(
          tx,
          w.orderId,
          { provider: parties.providerId, receiver: parties.receiverId },
          w.sides,
        );
      else await shipmentsFollow(tx, w.orderId, w.statename);
    },
    actions: () => w.actions,
    notices: w.notices,
  });
}

/** A swap's terms as its workflow last recorded them (orders.swap_view, see recordSwapState), or null. */
export async function recordedSwapView(
  db: DbOrTx,
  orderId: number,
): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ view: orders.swapView })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row?.view ?? null;
}

/** A side's rating of the goods it received (once per rater), shown on the order as that side's rating. */
export async function saveSwapRating(
  db: DbOrTx,
  input: Parameters<typeof saveOrderRating>[1] & { role: SwapSide },
): Promise<{ saved: boolean }> {
  const r = await saveOrderRating(db, input);
  if (r.saved) {
    const column =
      input.role === "receiver"
        ? { receiverRating: input.stars.overall, receiverRatingComments: input.comments }
        : { providerRating: input.stars.overall, providerRatingComments: input.comments };
    await db.update(orders).set(column).where(eq(orders.id, input.orderId));
  }
  return r;
}

/**
 * The duplicate-swap guard (docs/product/orders.md, "Duplicate-order guard"): a swap in progress between these two
 * retailers, whichever of them started it (orders in `except`, e.g. this cart's own draft, do not count).
 * "yourmove" when one of them waits for `retailerId` (its side's move, or both sides' in payment), else
 * "theirmove"; null when there is none.
 */
export async function swapInProgress(
  db: DbOrTx,
  retailerId: number,
  otherId: number,
  except: number[] = [],
): Promise<"yourmove" | "theirmove" | null> {
  const rows = await db
    .select({ providerId: orders.providerId, actionNeeded: orders.actionNeeded })
    .from(orders)
    .where(
      and(
        eq(orders.transactionType, TRANSACTION_TYPE.SWAP),
        inArray(orders.statename, [...SWAP_OPEN_STATES]),
        or(
          and(eq(orders.receiverId, retailerId), eq(orders.providerId, otherId)),
          and(eq(orders.receiverId, otherId), eq(orders.providerId, retailerId)),
        ),
        except.length > 0 ? notInArray(orders.id, except) : undefined,
      ),
    );
  if (rows.length === 0) return null;
  const mine = rows.some((r) =>
    isMoveOf(r.actionNeeded, r.providerId === retailerId ? "provider" : "receiver"),
  );
  return mine ? "yourmove" : "theirmove";
}

/** The guard's message (verbatim), or null. */
export async function swapGuardMessage(
  db: DbOrTx,
  retailerId: number,
  otherId: number,
  except: number[] = [],
): Promise<string | null> {
  const move = await swapInProgress(db, retailerId, otherId, except);
  return move ? alreadyTransactingMessage("swap", move) : null;
}

export interface SwapChoice {
  listingId: number;
  variationId: number;
  productCode: string;
  displayName: string;
  color: string;
  sizes: SizesMap;
  unitPriceCents: number;
}

/**
 * What the provider may choose from (add_provider_swap_choice): the receiver's active swap listings of the
 * swap's brand with units left, oldest first.
 */
export async function swapChoices(
  db: DbOrTx,
  receiverId: number,
  brandId: number | null,
): Promise<SwapChoice[]> {
  if (brandId === null) return [];
  return db
    .select({
      listingId: listings.id,
      variationId: listings.variationId,
      productCode: productVariations.sku,
      displayName: products.displayName,
      color: productVariations.color,
      sizes: listings.sizes,
      unitPriceCents: productVariations.priceCents,
    })
    .from(listings)
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .innerJoin(products, eq(products.id, productVariations.productId))
    .where(
      and(
        eq(listings.providerId, receiverId),
        eq(listings.brandId, brandId),
        eq(listings.listingType, "swap"),
        eq(listings.status, "active"),
        sql`${listings.totalUnits} > 0`,
      ),
    )
    .orderBy(listings.createdAt, listings.id);
}

/**
 * The listings a swap's modification raises or adds (ADR 0025), as they stand: owner, whether still an active
 * swap listing, units per size, unit price (the variation's, as swapChoices). Listings that no longer exist are
 * left out.
 */
export async function swapListedUnits(
  db: DbOrTx,
  listingIds: number[],
): Promise<
  {
    listingId: number;
    retailerId: number;
    variationId: number;
    swappable: boolean;
    sizes: SizesMap;
    unitPriceCents: number;
  }[]
> {
  if (listingIds.length === 0) return [];
  const rows = await db
    .select({
      listingId: listings.id,
      retailerId: listings.providerId,
      variationId: listings.variationId,
      listingType: listings.listingType,
      status: listings.status,
      sizes: listings.sizes,
      unitPriceCents: productVariations.priceCents,
    })
    .from(listings)
    .innerJoin(productVariations, eq(productVariations.id, listings.variationId))
    .where(inArray(listings.id, listingIds))
    .orderBy(listings.id);
  return rows.map(({ listingType, status, ...r }) => ({
    ...r,
    swappable: listingType === "swap" && status === "active",
  }));
}

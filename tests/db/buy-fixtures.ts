/**
 * Fixtures of the buy activities' database tests and the real-activities workflow test: a seller with a
 * listing, a buyer, and draft orders as checkout writes them (orders + order_contributions).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { orderContributions, orders } from "../../db/schema";
import { purchaseQuote } from "../../domain/fees";
import { BUY_STATES, displayStatusFor, TRANSACTION_TYPE } from "../../domain/states";
import { buyWorkflowId } from "../../workflows/buy/contract";
import type { OrderLine } from "../../domain/order-money";
import { createBrand, createCollection, createListing, createProduct, createRetailer, SIZE_RUNS } from "../factories";

export async function createSellerWithListing(
  db: Db,
  opts: { sizes?: Record<string, number>; priceCents?: number; payout?: boolean } = {},
) {
  const brand = await createBrand(db);
  const col = await createCollection(db, { brandId: brand.id });
  const { variations } = await createProduct(db, { collectionId: col.id, sizes: SIZE_RUNS.apparel, colors: 1 });
  const variation = variations[0];
  const seller = await createRetailer(db, {
    payout: opts.payout ?? true,
    storeName: `Seller Store ${Date.now()}${Math.random().toString(36).slice(2, 6)}`,
  });
  const listing = await createListing(db, {
    variationId: variation.id,
    providerId: seller.retailer.id,
    sizes: opts.sizes ?? { S: 2, M: 3 },
  });
  return { brand, variation, seller, listing, priceCents: opts.priceCents ?? variation.priceCents };
}

/** A draft order as checkout writes it; returns its id, workflow id and lines. */
export async function createDraftOrder(
  db: Db,
  input: { providerId: number; receiverId: number; brandId?: number | null; lines: OrderLine[]; requestId?: number | null },
): Promise<{ orderId: number; workflowId: string; externalId: string; lines: OrderLine[] }> {
  const quote = purchaseQuote(input.lines.map((l) => ({ unitPriceCents: l.unitPriceCents, units: l.sizes })));
  const [{ id }] = await db.execute<{ id: number }>(sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`);
  const orderId = Number(id);
  const workflowId = buyWorkflowId(orderId);
  const externalId = `T${orderId}-${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
  await db.insert(orders).values({
    id: orderId,
    externalId,
    workflowId,
    transactionType: TRANSACTION_TYPE.SALE,
    brandId: input.brandId ?? null,
    providerId: input.providerId,
    receiverId: input.receiverId,
    requestId: input.requestId ?? null,
    statename: BUY_STATES.COMPLETE_ORDER_CHECKOUT,
    displayStatus: displayStatusFor("buy", BUY_STATES.COMPLETE_ORDER_CHECKOUT),
    actionNeeded: "receiver",
    valueCents: quote.goodsCents,
    receiverFeeCents: quote.feeCents,
    receiverShippingCents: quote.shippingCents,
    receiverGrandTotalCents: quote.totalCents,
    reasons: { sell_reason: "kept from checkout" },
  });
  await db.insert(orderContributions).values(
    input.lines.map((l) => {
      const q = Object.values(l.sizes).reduce((a, n) => a + n, 0);
      return {
        orderId,
        side: "provider",
        type: "goods",
        listingId: l.listingId,
        variationId: l.variationId ?? null,
        units: l.sizes,
        quantity: q,
        unitPriceCents: l.unitPriceCents,
        valueCents: q * l.unitPriceCents,
      };
    }),
  );
  return { orderId, workflowId, externalId, lines: input.lines };
}

/**
 * RMAs seen from both sides (docs/product/screens.md, "My returns"): a seller S and a buyer B with three
 * delivered sales S→B and one B→S, and four RMAs: B's of the first two sales and of the third, S's of the
 * sale B made. The second is decided (staff approved its line: the return ships), the others wait for staff.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { orderContributions, orders } from "../../db/schema";
import { createRma } from "../../db/queries/rmas";
import { TRANSACTION_TYPE } from "../../domain/states";
import { createBrand, createCollection, createProduct, createRetailer, SIZE_RUNS } from "./index";
import { createOrderAt, createRmaOf } from "./orders";

export const DECIDED_LEDGER = { victimRefundCents: 2000, perpetratorChargeCents: 2150 } as const;

export interface RmaSides {
  sellerId: number;
  buyerId: number;
  outsiderId: number;
  /** The original orders, in the order above. */
  sales: { id: number; externalId: string }[];
  /** B's RMAs of sales 1, 2 and 3, then S's of sale 4. */
  rmas: { id: number; externalId: string }[];
}

/** The fixture; `users` gives the three retailers these sign-in e-mails and store names. */
export async function createRmaSides(
  db: Db,
  tok: string,
  users: {
    seller?: { email: string; storeName: string };
    buyer?: { email: string; storeName: string };
    outsider?: { email: string };
  } = {},
): Promise<RmaSides> {
  const brand = await createBrand(db, { name: `RmaSides ${tok}` });
  const col = await createCollection(db, { brandId: brand.id });
  const prod = await createProduct(db, {
    collectionId: col.id,
    sku: `RS${tok}`,
    sizes: SIZE_RUNS.apparel,
    priceCents: 2000,
  });
  const retailer = async (u?: { email: string; storeName?: string }) =>
    (
      await createRetailer(db, {
        payout: true,
        ...(u ? { storeName: u.storeName, user: { email: u.email } } : {}),
      })
    ).retailer.id;
  const sellerId = await retailer(users.seller);
  const buyerId = await retailer(users.buyer);
  const outsiderId = await retailer(users.outsider);
  const delivered = (providerId: number, receiverId: number) =>
    createOrderAt(db, "delivered", {
      providerId,
      receiverId,
      lines: [{ variationId: prod.variations[0].id, sizes: { S: 2 } }],
      deliveredAt: new Date(Date.now() - 3_600_000),
    });
  const sales = [];
  for (const [p, r] of [
    [sellerId, buyerId],
    [sellerId, buyerId],
    [sellerId, buyerId],
    [buyerId, sellerId],
  ])
    sales.push((await delivered(p, r)).order);
  const contact = {
    name: `Contact ${tok}`,
    email: `rma-sides-${tok.toLowerCase()}@example.test`,
    phone: "555-0101",
    packingSlipName: "Slip",
  };
  const rmas = [];
  for (const [i, victimId] of [buyerId, buyerId, buyerId, sellerId].entries()) {
    const r = await createRmaOf(db, sales[i].id, { victimId, contact });
    rmas.push({ id: r.rmaId, externalId: r.externalId });
  }
  await decide(db, rmas[1].id);
  return {
    sellerId,
    buyerId,
    outsiderId,
    sales: sales.map((s) => ({ id: s.id, externalId: s.externalId })),
    rmas,
  };
}

/** Staff's decision as the RMA's record writes it: the line approved, the return shipping, the settlement's amounts. */
async function decide(db: Db, rmaId: number): Promise<void> {
  await db
    .update(orderContributions)
    .set({ rmaApproved: true, quantity: 1, valueCents: 2000 })
    .where(eq(orderContributions.orderId, rmaId));
  await db
    .update(orders)
    .set({
      stage: "shipping",
      statename: "shipping",
      displayStatus: "Return Shipping",
      ledger: { ...DECIDED_LEDGER },
      modifiedAt: new Date(),
    })
    .where(eq(orders.id, rmaId));
}

/** A delivered swap between two retailers in which each side filed an RMA of the goods it received. */
export interface SwapRmaSides {
  providerId: number;
  receiverId: number;
  swap: { id: number; externalId: string };
  /** The provider's RMA (victim: the provider), then the receiver's. */
  rmas: { id: number; externalId: string }[];
}

export async function createSwapRmaSides(
  db: Db,
  tok: string,
  users: {
    provider?: { email: string; storeName: string };
    receiver?: { email: string; storeName: string };
  } = {},
): Promise<SwapRmaSides> {
  const brand = await createBrand(db, { name: `SwapRma ${tok}` });
  const col = await createCollection(db, { brandId: brand.id });
  const prod = await createProduct(db, {
    collectionId: col.id,
    sku: `SW${tok}`,
    sizes: SIZE_RUNS.apparel,
    priceCents: 2000,
    colors: 2,
  });
  const retailer = async (u?: { email: string; storeName: string }) =>
    (
      await createRetailer(db, {
        payout: true,
        ...(u ? { storeName: u.storeName, user: { email: u.email } } : {}),
      })
    ).retailer.id;
  const providerId = await retailer(users.provider);
  const receiverId = await retailer(users.receiver);
  const { order } = await createOrderAt(db, "delivered", {
    providerId,
    receiverId,
    transactionType: TRANSACTION_TYPE.SWAP,
    lines: [{ variationId: prod.variations[0].id, sizes: { S: 2 } }],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  // The receiver's side of the swap: the goods the provider received.
  await db.insert(orderContributions).values({
    orderId: order.id,
    side: "receiver",
    type: "goods",
    variationId: prod.variations[1].id,
    units: { M: 2 },
    quantity: 2,
    unitPriceCents: 2000,
    valueCents: 4000,
  });
  const contact = {
    name: `Contact ${tok}`,
    email: `swap-rma-${tok.toLowerCase()}@example.test`,
    phone: "555-0102",
    packingSlipName: "Slip",
  };
  const lines = await db
    .select({ id: orderContributions.id, side: orderContributions.side })
    .from(orderContributions)
    .where(eq(orderContributions.orderId, order.id));
  const rmas = [];
  // Each side returns one unit of what it received: the provider the receiver's goods, the receiver the provider's.
  for (const [victimId, received] of [
    [providerId, "receiver"],
    [receiverId, "provider"],
  ] as const) {
    const r = await createRma(db, {
      orderId: order.id,
      victimId,
      contact,
      lines: [{ sourceId: lines.find((l) => l.side === received)!.id, quantity: 1, reason: 2 }],
      workflowIdFor: (id) => `test-rma:${id}`,
    });
    rmas.push({ id: r.rmaId, externalId: r.externalId });
  }
  return { providerId, receiverId, swap: { id: order.id, externalId: order.externalId }, rmas };
}

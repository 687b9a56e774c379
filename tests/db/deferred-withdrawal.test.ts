/**
 * A stock import's deferred withdrawal (docs/guides/stock-import.md "Sync"; db/queries/deferred-withdrawals.ts) through the real
 * read-model writes of the buy workflow's activities: a listing a file withdraws while an order waits for an
 * answer is marked with the import, then withdrawn (its history naming that import) in the step that ends
 * its last such order: declined, approved, the second of two; units put back later do not list it again; a
 * later file listing it with units, or its owner setting units, calls the withdrawal off.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createBuyActivities } from "../../activities/buy";
import type { OrderStateRecord } from "../../workflows/buy/activities";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { createSwapActivities } from "../../activities/swap";
import { readStockFile, runStockImport } from "../../app/utils/stock-import.server";
import { deferredWithdrawalOf } from "../../db/queries/deferred-withdrawals";
import { updateMyListing } from "../../db/queries/my-listings";
import { createSwapOrder } from "../../db/queries/swap-orders";
import { createImport, listingImportHistory } from "../../db/queries/stock-import";
import { listings } from "../../db/schema";
import { orderQuote, type OrderLine } from "../../domain/order-money";
import { IN_FLIGHT_KEPT, WITHDRAWAL_CALLED_OFF } from "../../domain/stock-import";
import { BUY_STATES, COMMON_STATES, SWAP_STATES } from "../../domain/states";
import { swapWorkflowId } from "../../workflows/swap/contract";
import { authorizeBrand, createRetailer } from "../factories";
import {
  createSellerWithListing,
  draftPurchase,
  listingLine,
  orderStateRecord,
} from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(4);
let acts: ReturnType<typeof createBuyActivities>;
let swapActs: ReturnType<typeof createSwapActivities>;

beforeAll(() => {
  const carrier = createSandboxCarrier(db, {
    appOrigin: "http://127.0.0.1:9",
    webhookSecret: "deferred_withdrawal_test",
  });
  const app = { appOrigin: "http://localhost:3000", timeZone: "America/New_York" };
  acts = createBuyActivities({ db, payments: new SandboxPayments(db), carrier, ...app });
  swapActs = createSwapActivities({ db, buy: acts, ...app });
});

type Seller = Awaited<ReturnType<typeof createSellerWithListing>>;

async function seller(): Promise<Seller> {
  const f = await createSellerWithListing(db, { sizes: { S: 2, M: 3 } });
  await authorizeBrand(db, f.seller.retailer.id, f.brand.id);
  return f;
}

/** An order of one unit of S, moved by the read model's write to "waiting for the seller's answer". */
async function pendingOrder(f: Seller) {
  const { o } = await draftPurchase(db, { seller: f, buyerUser: false });
  await acts.recordOrderState(step(o, 1, BUY_STATES.PROVIDER_APPROVE_SALE, o.lines));
  return o;
}

function step(
  o: { orderId: number; workflowId: string; lines: OrderLine[] },
  n: number,
  statename: string,
  lines = o.lines,
): OrderStateRecord {
  return orderStateRecord(o, n, orderQuote(lines), {
    sequence: n,
    statename,
    displayStatus: statename,
    actionNeeded: null,
    lines,
  });
}

/** Confirms a file of the listing's variation (its sizes as given; all 0 withdraws it). */
async function importFile(f: Seller, sizes: Record<string, number>) {
  const text = [
    "product_code,size,units",
    ...Object.entries(sizes).map(([s, n]) => `${f.variation.sku},${s},${n}`),
  ].join("\n");
  const cells = await readStockFile("stock.csv", Buffer.from(text));
  const retailerId = f.seller.retailer.id;
  const imp = await createImport(db, {
    retailerId,
    uploadedBy: null,
    fileName: "stock.csv",
    fileSha256: "x",
    wholeSurplus: false,
    cells,
  });
  const mapping = { code: "product_code", size: "size", units: "units" };
  const rows = await runStockImport(db, {
    retailerId,
    cells,
    mapping,
    wholeSurplus: false,
    confirm: { importId: imp.id },
  });
  return { importId: imp.id, row: rows[0] };
}

async function listing(id: number) {
  const [row] = await db
    .select({ sizes: listings.sizes, totalUnits: listings.totalUnits })
    .from(listings)
    .where(eq(listings.id, id));
  return row;
}

describe("deferred withdrawal", () => {
  test("order declined → withdrawn in that step, the history naming the import", async () => {
    const f = await seller();
    const o = await pendingOrder(f);
    const { importId, row } = await importFile(f, { S: 0 });
    expect(row).toMatchObject({
      action: "kept",
      listingId: f.listing.id,
      messages: [IN_FLIGHT_KEPT],
    });
    expect(await deferredWithdrawalOf(db, f.listing.id)).toBe(importId);
    expect((await listing(f.listing.id)).totalUnits).toBe(5);
    expect((await listingImportHistory(db, f.listing.id))[0]).toMatchObject({
      importId,
      action: "kept",
    });

    await acts.recordOrderState(step(o, 2, COMMON_STATES.DECLINED));
    expect(await listing(f.listing.id)).toEqual({ sizes: { S: 0, M: 0 }, totalUnits: 0 });
    expect((await listingImportHistory(db, f.listing.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
      before: { S: 2, M: 3 },
      after: { S: 0, M: 0 },
    });
  });

  test("order approved → withdrawn; units a cancelled shipment puts back later do not list it again", async () => {
    const f = await seller();
    const o = await pendingOrder(f);
    const { importId } = await importFile(f, { S: 0 });
    expect(
      await acts.decrementStock({
        idempotencyKey: `${o.workflowId}:dec`,
        orderId: o.orderId,
        lines: o.lines,
      }),
    ).toEqual({ ok: true });
    expect((await listing(f.listing.id)).totalUnits).toBe(4);
    await acts.recordOrderState(step(o, 2, BUY_STATES.SHIP_ORDER));
    expect((await listing(f.listing.id)).totalUnits).toBe(0);
    expect((await listingImportHistory(db, f.listing.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
      before: { S: 1, M: 3 },
    });

    await acts.restoreStock({
      idempotencyKey: `${o.workflowId}:restore`,
      orderId: o.orderId,
      lines: o.lines,
    });
    expect(await listing(f.listing.id)).toEqual({ sizes: { S: 0, M: 0 }, totalUnits: 0 });
  });

  test("units put back while the order still waits stay until it ends; then withdrawn", async () => {
    const f = await seller();
    const o = await pendingOrder(f);
    await importFile(f, { S: 0 });
    await acts.decrementStock({
      idempotencyKey: `${o.workflowId}:dec`,
      orderId: o.orderId,
      lines: o.lines,
    });
    // A capture that failed: the units come back while the order is still waiting for the seller.
    await acts.restoreStock({
      idempotencyKey: `${o.workflowId}:restore`,
      orderId: o.orderId,
      lines: o.lines,
    });
    expect((await listing(f.listing.id)).totalUnits).toBe(5);
    await acts.recordOrderState(step(o, 2, COMMON_STATES.CANCELLED));
    expect((await listing(f.listing.id)).totalUnits).toBe(0);
  });

  test("two orders waiting: withdrawn only when the second ends", async () => {
    const f = await seller();
    const first = await pendingOrder(f);
    const second = await pendingOrder(f);
    const { importId } = await importFile(f, { S: 0 });
    await acts.recordOrderState(step(first, 2, COMMON_STATES.DECLINED));
    expect((await listing(f.listing.id)).totalUnits).toBe(5);
    expect(await deferredWithdrawalOf(db, f.listing.id)).toBe(importId);
    await acts.recordOrderState(step(second, 2, COMMON_STATES.EXPIRED));
    expect((await listing(f.listing.id)).totalUnits).toBe(0);
    expect((await listingImportHistory(db, f.listing.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
    });
  });

  test("a later file listing it with units calls the withdrawal off", async () => {
    const f = await seller();
    const o = await pendingOrder(f);
    await importFile(f, { S: 0 });
    const { row } = await importFile(f, { S: 2, M: 4 });
    expect(row).toMatchObject({
      action: "update",
      messages: ["Units set to S: 2, M: 4 (were S: 2, M: 3).", WITHDRAWAL_CALLED_OFF],
    });
    expect(await deferredWithdrawalOf(db, f.listing.id)).toBeNull();
    await acts.recordOrderState(step(o, 2, COMMON_STATES.DECLINED));
    expect((await listing(f.listing.id)).totalUnits).toBe(6);
  });

  test("its owner setting units on its page calls the withdrawal off", async () => {
    const f = await seller();
    const o = await pendingOrder(f);
    await importFile(f, { S: 0 });
    const saved = await updateMyListing(db, {
      id: f.listing.id,
      ownerId: f.seller.retailer.id,
      sizes: { S: 1, M: 3 },
      reason: "overstock",
      modifiedReason: "none",
    });
    expect(saved).toMatchObject({ totalUnits: 4 });
    expect(await deferredWithdrawalOf(db, f.listing.id)).toBeNull();
    await acts.recordOrderState(step(o, 2, COMMON_STATES.DECLINED));
    expect((await listing(f.listing.id)).totalUnits).toBe(4);
  });

  test("a swap's step out of the negotiation withdraws it too", async () => {
    const f = await seller();
    const other = await createRetailer(db, { payout: true, user: false });
    const providerLines: OrderLine[] = [listingLine(f, { M: 2 })];
    const o = await createSwapOrder(db, {
      providerId: f.seller.retailer.id,
      receiverId: other.retailer.id,
      brandId: f.brand.id,
      providerLines,
      workflowIdFor: swapWorkflowId,
    });
    const swapStep = (sequence: number, statename: string) => ({
      orderId: o.orderId,
      workflowId: o.workflowId,
      externalId: o.externalId,
      providerId: f.seller.retailer.id,
      receiverId: other.retailer.id,
      sequence,
      statename,
      displayStatus: statename,
      isModified: false,
      actionNeeded: null,
      providerLines,
      receiverLines: [],
      callItEven: { provider: false, receiver: false },
      dues: { provider: 0, receiver: 0 },
      reasons: {},
      deadlines: { checkoutBy: null, turnBy: null, paymentBy: null, pickupBy: null },
      actions: [],
      notices: [],
    });
    await swapActs.recordSwapState(swapStep(1, SWAP_STATES.PROVIDER_CHOOSE_ITEMS));
    const { importId, row } = await importFile(f, { S: 0 });
    expect(row.action).toBe("kept");
    await swapActs.recordSwapState(swapStep(2, COMMON_STATES.DECLINED));
    expect((await listing(f.listing.id)).totalUnits).toBe(0);
    expect((await listingImportHistory(db, f.listing.id))[0]).toMatchObject({
      importId,
      action: "withdraw",
    });
  });
});

/**
 * Monthly statements (db/queries/statements.ts; docs/product/money.md, "Statements"): money moved by the real
 * buy activities through the sandbox payments provider, then read back as statements. Each statement sums to
 * its lines, a month opens with the closing of the month before, its lines are the payments rows the order
 * pages read, and its net equals what the provider holds for that retailer (captured less refunded, and
 * transferred to its account).
 */
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createBuyActivities } from "../../activities/buy";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { listOrderPayments, sandboxObjectsOfOrders } from "../../db/queries/payments";
import { listStatementMonths, monthStatement } from "../../db/queries/statements";
import { payments } from "../../db/schema";
import { formatMonth } from "../../domain/date-format";
import { orderQuote } from "../../domain/order-money";
import {
  AMOUNT_COLUMNS,
  parseStatementMonth,
  previousMonth,
  type Statement,
} from "../../domain/statements";
import {} from "../factories";
import { createSellerWithListing, TEST_VISA, tradedOrder } from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(4);
const ZONE = "America/New_York";
const sandbox = new SandboxPayments(db);
let acts: ReturnType<typeof createBuyActivities>;
const visa = TEST_VISA;

beforeAll(() => {
  const carrier = createSandboxCarrier(db, {
    appOrigin: "http://127.0.0.1:9",
    webhookSecret: "statements_test",
  });
  acts = createBuyActivities({
    db,
    payments: sandbox,
    carrier,
    appOrigin: "http://localhost:3000",
    timeZone: ZONE,
  });
});

function expectSumsToLines(s: Statement) {
  for (const c of AMOUNT_COLUMNS)
    expect(s.totals[c], c).toBe(s.lines.reduce((t, l) => t + l[c], 0));
  for (const k of s.byKind)
    expect(k.net).toBe(s.lines.filter((l) => l.kind === k.kind).reduce((t, l) => t + l.net, 0));
  expect(s.closing).toBe(s.opening + s.totals.net);
  expect(s.lines.at(-1)?.balance ?? s.opening).toBe(s.closing);
}

describe("statements from the payments ledger", () => {
  let a: Awaited<ReturnType<typeof createSellerWithListing>>;
  let b: Awaited<ReturnType<typeof createSellerWithListing>>;
  let orderIds: number[] = [];
  const now = parseStatementMonth(formatMonth(new Date(), ZONE))!;

  beforeAll(async () => {
    a = await createSellerWithListing(db, { sizes: { M: 5 } });
    b = await createSellerWithListing(db, { sizes: { M: 5 } });
    // A buys from B (last month), B buys from A twice (this month), one of them refunded in part.
    const first = await tradedOrder(db, acts, b, a.seller.retailer.id, { paymentMethod: visa });
    const second = await tradedOrder(db, acts, a, b.seller.retailer.id, {
      paymentMethod: visa,
      refundCents: 2750,
    });
    const third = await tradedOrder(db, acts, a, b.seller.retailer.id, { paymentMethod: visa });
    orderIds = [first.orderId, second.orderId, third.orderId];
    const lastMonth = new Date(Date.now() - 40 * 86_400_000);
    await db
      .update(payments)
      .set({ createdAt: lastMonth })
      .where(eq(payments.orderId, first.orderId));
  });

  test("each statement sums to its lines, and a month opens with the closing of the month before", async () => {
    for (const r of [a.seller.retailer.id, b.seller.retailer.id]) {
      const list = await listStatementMonths(db, r, formatMonth(new Date(), ZONE), ZONE);
      expect(list[0].month).toBe(formatMonth(new Date(), ZONE));
      expect(list.length).toBeGreaterThanOrEqual(2);
      let next: Statement | null = null;
      for (const m of list) {
        const s = await monthStatement(db, r, parseStatementMonth(m.month)!, ZONE);
        expectSumsToLines(s);
        expect([s.opening, s.closing, s.lines.length]).toEqual([m.opening, m.closing, m.lines]);
        if (next) expect(next.opening).toBe(s.closing);
        next = s;
      }
      expect(list.at(-1)!.opening).toBe(0);
    }
  });

  test("the lines are the payments rows the order pages read (money movements only), with kind and counterparty", async () => {
    const s = await monthStatement(db, a.seller.retailer.id, now, ZONE);
    const rows = (await Promise.all(orderIds.map((id) => listOrderPayments(db, id))))
      .flat()
      .filter(
        (p) =>
          p.retailerId === a.seller.retailer.id && p.createdAt >= new Date(Date.now() - 86_400_000),
      );
    expect(s.lines.map((l) => l.id).sort()).toEqual(
      rows
        .filter((p) => p.txtype !== "authorization")
        .map((p) => p.id)
        .sort(),
    );
    expect(
      s.lines.every((l) => l.kind === "Sale" && l.counterpartyId === b.seller.retailer.id),
    ).toBe(true);
    const prev = await monthStatement(db, a.seller.retailer.id, previousMonth(now), ZONE);
    // Last month A bought: one payment of goods, fee and shipping.
    const q = orderQuote([{ listingId: 0, variationId: 0, sizes: { M: 2 }, unitPriceCents: 2500 }]);
    expect(prev.lines.map((l) => [l.kind, l.gross, l.fee, l.shipping, l.net])).toEqual([
      ["Purchase", -q.goodsCents, -q.feeCents, -q.shippingCents, -q.totalCents],
    ]);
  });

  test("a retailer's statements add up to what the sandbox provider holds for it", async () => {
    const objects = await sandboxObjectsOfOrders(db, orderIds);
    for (const f of [a, b]) {
      const r = f.seller.retailer;
      const list = await listStatementMonths(db, r.id, formatMonth(new Date(), ZONE), ZONE);
      let provider = 0;
      const mine = await db.select().from(payments).where(inArray(payments.orderId, orderIds));
      for (const id of orderIds) {
        const o = objects.get(id)!;
        const paidByMe = mine.some(
          (p) => p.orderId === id && p.retailerId === r.id && p.txtype === "capture",
        );
        if (paidByMe) {
          for (const pi of o.intents) provider -= pi.amount_received as number;
          for (const rf of o.refunds) provider += rf.amount as number;
        }
        for (const t of o.transfers)
          if (t.destination === r.btMerchantId) provider += t.amount as number;
      }
      expect(provider).not.toBe(0);
      expect(list[0].closing, `retailer ${r.id}`).toBe(provider);
    }
  });
});

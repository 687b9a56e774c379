/**
 * Monthly statements against the Stripe adapter (ADR 0026; docs/product/money.md, "Statements"): the
 * stripe-mock half of tests/db/statements.test.ts. Money is moved by the real buy activities
 * (activities/buy) through the real Stripe adapter (StripePayments) pointed at stripe-mock through a
 * recording proxy (stripe-recorder.ts), then each retailer's statements are compared, month by month, line by
 * line and to the cent, with what the provider's records say it holds: captured less refunded and charged on
 * its cards (its customer), plus transferred to its connected account.
 *
 * What stripe-mock can prove, and what it cannot. It keeps no state: it validates each request against
 * Stripe's OpenAPI description and answers with a fixture, reflecting some request parameters (amount,
 * customer, description, capture_method of a PaymentIntent; amount and payment_intent of a Refund; amount and
 * destination of a Transfer; the intent id of a capture's path). So "its records" are its answers to our
 * calls, and their sum is the sum of what we asked for and it accepted (200). The test proves that:
 * - every money movement on a statement was sent to the provider with the amount the statement shows, and
 *   every accepted money request for the retailer is on its statements (no missing, no extra, per month);
 * - what stripe-mock reflects equals what we sent (a drift between the request and the recorded row shows);
 * - every POST carries an idempotency key, and a key repeated (an activity retried) repeats the same request;
 *   as Stripe answers a repeated key with its first answer, one object is counted per key;
 * - a capture names an intent we created, for no more than its amount; refunds of an intent are no more than
 *   its capture.
 * It cannot prove what real Stripe would settle: stripe-mock ignores amount_to_capture in its answer (the
 * captured amount is the accepted request's), its statuses are fixtures (a confirmed intent answers
 * requires_payment_method), a repeated key gets a new object rather than the first one, and its `created`
 * is a fixed time (the month of a record is when the request was made). Declines, disputes and payout
 * failures need Stripe's test mode.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBuyActivities } from "../../activities/buy";
import type { CardOnFile } from "../../workflows/buy/activities";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { createStripeClient, StripePayments } from "../../activities/payments/stripe";
import { listStatementMonths, monthStatement } from "../../db/queries/statements";
import { payments } from "../../db/schema";
import { formatMonth } from "../../domain/date-format";
import { parseStatementMonth } from "../../domain/statements";
import { createSellerWithListing, TEST_VISA, tradedOrder } from "../db/buy-fixtures";
import { openTestDb } from "../db/helpers";
import { startStripeRecorder, type StripeExchange, type StripeRecorder } from "./stripe-recorder";

const handle = openTestDb(4);
const db = handle.db;
const ZONE = "America/New_York";
const mock = new URL(process.env.STRIPE_MOCK_URL ?? "http://127.0.0.1:12111");
let recorder: StripeRecorder;
let acts: ReturnType<typeof createBuyActivities>;

beforeAll(async () => {
  recorder = await startStripeRecorder(mock);
  const stripe = createStripeClient({
    secretKey: "sk_test_123",
    host: recorder.host,
    port: recorder.port,
    protocol: recorder.protocol,
  });
  const carrier = createSandboxCarrier(db, {
    appOrigin: "http://127.0.0.1:9",
    webhookSecret: "statements_stripe_test",
  });
  acts = createBuyActivities({
    db,
    payments: new StripePayments(stripe),
    carrier,
    appOrigin: "http://localhost:3000",
    timeZone: ZONE,
  });
});
afterAll(async () => {
  await recorder.close();
  await handle.close();
});

type Seller = Awaited<ReturnType<typeof createSellerWithListing>>;

const cards = new Map<number, Promise<CardOnFile>>();
/** The retailer's card on file, saved once (a Stripe customer and an attached PaymentMethod): its payments name the customer. */
function savedCard(retailerId: number): Promise<CardOnFile> {
  if (!cards.has(retailerId)) cards.set(retailerId, saveCard(retailerId));
  return cards.get(retailerId)!;
}
async function saveCard(retailerId: number): Promise<CardOnFile> {
  const r = await acts.saveCardOnFile({
    idempotencyKey: `statements-stripe:card:${retailerId}`,
    retailerId,
    paymentMethod: TEST_VISA,
  });
  if (r.status !== "saved") throw new Error(r.message);
  return r.card;
}

/** A purchase from `f`'s seller on the buyer's saved card; a refund is retried once (the same key again). */
async function purchase(
  f: Seller,
  buyerId: number,
  opts: { refundCents?: number; rmaChargeCents?: number } = {},
) {
  const paymentMethod = await savedCard(buyerId);
  return tradedOrder(db, acts, f, buyerId, {
    paymentMethod,
    refundCents: opts.refundCents,
    refundAttempts: 2,
    beforePayout: async (o) => {
      if (!opts.rmaChargeCents) return;
      await savedCard(f.seller.retailer.id);
      const r = await acts.chargeSellerPenalty({
        idempotencyKey: `${o.workflowId}:rma-charge:1`,
        orderId: o.orderId,
        retailerId: f.seller.retailer.id,
        amountCents: opts.rmaChargeCents,
        purpose: "rma",
      });
      if (r.status !== "charged") throw new Error("RMA charge not accepted");
    },
  });
}

/** One money movement as the provider's answers record it, signed from its retailer's side. */
interface ProviderMovement {
  key: string;
  /** The ids the provider answered for this key (one per attempt). */
  refs: string[];
  what: "capture" | "refund" | "charge" | "transfer";
  customer?: string;
  destination?: string;
  net: number;
  at: Date;
}

const CAPTURE_PATH = /^\/v1\/payment_intents\/([^/]+)\/capture$/;

/**
 * The provider's records of the run, read from the recorded exchanges only: every POST accepted with a key,
 * a repeated key repeating its request; what stripe-mock reflects checked against what was sent.
 */
function providerRecords(exchanges: readonly StripeExchange[]) {
  const byKey = new Map<string, StripeExchange[]>();
  for (const e of exchanges.filter((x) => x.method === "POST")) {
    expect(e.status, `${e.path}: ${JSON.stringify(e.body).slice(0, 200)}`).toBe(200);
    expect(e.idempotencyKey, `${e.path} was sent without an idempotency key`).toBeTruthy();
    const same = byKey.get(e.idempotencyKey!);
    if (same) {
      expect([e.path, e.params], `key ${e.idempotencyKey} repeated with another request`).toEqual([
        same[0].path,
        same[0].params,
      ]);
      same.push(e);
    } else byKey.set(e.idempotencyKey!, [e]);
  }
  const customers = new Map<string, string>();
  const intents = new Map<
    string,
    { amount: number; customer: string; captured: number; refunded: number }
  >();
  const movements: ProviderMovement[] = [];
  for (const [key, attempts] of byKey) {
    const [{ path, params, body, at }] = attempts;
    const refs = attempts.map((a) => String(a.body.id));
    const amount = Number(params.amount);
    if (path === "/v1/customers") {
      expect(body.description).toBe(params.description);
      customers.set(String(body.id), String(body.description));
    } else if (path === "/v1/payment_intents") {
      expect([body.amount, body.customer, body.capture_method], key).toEqual([
        amount,
        params.customer,
        params.capture_method,
      ]);
      intents.set(String(body.id), {
        amount,
        customer: String(body.customer),
        captured: 0,
        refunded: 0,
      });
      // An automatic-capture intent (a penalty or an RMA charge) moves the money when it is confirmed.
      if (params.capture_method === "automatic" && params.confirm === "true")
        movements.push({
          key,
          refs,
          what: "charge",
          customer: String(body.customer),
          net: -amount,
          at,
        });
    } else if (CAPTURE_PATH.test(path)) {
      const id = CAPTURE_PATH.exec(path)![1];
      const intent = intents.get(id);
      const captured = Number(params.amount_to_capture);
      expect(body.id, key).toBe(id);
      expect(intent, `capture of an intent never created: ${id}`).toBeDefined();
      expect(captured, key).toBeLessThanOrEqual(intent!.amount);
      intent!.captured += captured;
      movements.push({
        key,
        refs: [id],
        what: "capture",
        customer: intent!.customer,
        net: -captured,
        at,
      });
    } else if (path === "/v1/refunds") {
      const intent = intents.get(params.payment_intent);
      expect([body.amount, body.payment_intent], key).toEqual([amount, params.payment_intent]);
      expect(intent, `refund of an intent never created: ${params.payment_intent}`).toBeDefined();
      intent!.refunded += amount;
      expect(
        intent!.refunded,
        `refunds of ${params.payment_intent} above its capture`,
      ).toBeLessThanOrEqual(intent!.captured);
      movements.push({ key, refs, what: "refund", customer: intent!.customer, net: amount, at });
    } else if (path === "/v1/transfers") {
      expect([body.amount, body.destination, body.currency], key).toEqual([
        amount,
        params.destination,
        params.currency,
      ]);
      movements.push({
        key,
        refs,
        what: "transfer",
        destination: String(body.destination),
        net: amount,
        at,
      });
    }
  }
  return { customers, movements, keys: byKey };
}

describe("statements against the Stripe provider's records (stripe-mock)", () => {
  let a: Seller;
  let b: Seller;
  let firstExchanges: StripeExchange[] = [];
  const lastMonth = new Date(Date.now() - 40 * 86_400_000);

  beforeAll(async () => {
    a = await createSellerWithListing(db, { sizes: { M: 5 } });
    b = await createSellerWithListing(db, { sizes: { M: 5 } });
    // A buys from B (moved to last month, on both sides), B buys from A twice: once refunded in part, with
    // an RMA charge on A's card.
    const before = recorder.exchanges.length;
    const first = await purchase(b, a.seller.retailer.id);
    firstExchanges = recorder.exchanges.slice(before);
    const second = await purchase(a, b.seller.retailer.id, {
      refundCents: 2750,
      rmaChargeCents: 600,
    });
    await purchase(a, b.seller.retailer.id);
    await db
      .update(payments)
      .set({ createdAt: lastMonth })
      .where(eq(payments.orderId, first.orderId));
    for (const e of firstExchanges) e.at = lastMonth;
    expect(second.orderId).toBeGreaterThan(first.orderId);
  });

  test("every money POST carried an idempotency key, a repeated key the same request, and stripe-mock echoed what was sent", () => {
    const { keys, movements } = providerRecords(recorder.exchanges);
    expect(movements.map((m) => m.what).sort()).toEqual(
      [
        "capture",
        "capture",
        "capture",
        "refund",
        "charge",
        "transfer",
        "transfer",
        "transfer",
      ].sort(),
    );
    const retried = [...keys.values()].filter((attempts) => attempts.length > 1);
    expect(retried.map((attempts) => attempts[0].path)).toEqual(["/v1/refunds"]);
    expect(firstExchanges.length).toBeGreaterThan(0);
  });

  test("each retailer's statements, month by month and line by line, equal what the provider holds for it", async () => {
    const { customers, movements } = providerRecords(recorder.exchanges);
    for (const f of [a, b]) {
      const r = f.seller.retailer;
      const mine = movements.filter(
        (m) =>
          (m.customer && customers.get(m.customer) === `Retailer ${r.id}`) ||
          m.destination === r.btMerchantId,
      );
      const list = await listStatementMonths(db, r.id, formatMonth(new Date(), ZONE), ZONE);
      const months = [...new Set(mine.map((m) => formatMonth(m.at, ZONE)))].sort();
      expect(months.length, `retailer ${r.id}: movements in two months`).toBe(2);
      expect(list.map((m) => m.month)).toEqual(expect.arrayContaining(months));
      for (const month of list.map((m) => m.month)) {
        const s = await monthStatement(db, r.id, parseStatementMonth(month)!, ZONE);
        const held = mine.filter((m) => formatMonth(m.at, ZONE) === month);
        const rows = s.lines.length
          ? await db
              .select({ id: payments.id, key: payments.idempotencyKey, ref: payments.providerRef })
              .from(payments)
              .where(
                inArray(
                  payments.id,
                  s.lines.map((l) => l.id),
                ),
              )
          : [];
        const rowOf = new Map(rows.map((p) => [p.id, p]));
        expect(
          s.lines.map((l) => rowOf.get(l.id)!.key).sort(),
          `retailer ${r.id}, ${month}`,
        ).toEqual(held.map((m) => m.key).sort());
        for (const line of s.lines) {
          const row = rowOf.get(line.id)!;
          const m = held.find((x) => x.key === row.key)!;
          expect(m.refs, `${row.key}: the recorded provider object`).toContain(row.ref);
          expect(line.net, row.key).toBe(m.net);
          const column = {
            capture: line.gross + line.fee + line.shipping,
            refund: line.refund,
            charge: line.penalty,
            transfer: line.payout,
          }[m.what];
          expect(column, `${row.key}: ${m.what} column`).toBe(m.net);
        }
        expect(s.totals.net, `retailer ${r.id}, ${month}`).toBe(
          held.reduce((t, m) => t + m.net, 0),
        );
      }
      const holds = mine.reduce((t, m) => t + m.net, 0);
      expect(holds).not.toBe(0);
      expect(list[0].closing, `retailer ${r.id}`).toBe(holds);
    }
  });
});

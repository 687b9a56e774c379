/**
 * Contract test of the Stripe adapter's findMovementByKey (docs/decisions/0048-restore-asks-the-provider.md):
 * what a restored order asks the provider before it sends a movement again. stripe-mock validates each request
 * against Stripe's API description and answers with fixtures (no state), so the test checks the requests
 * (method, path, query) and how the answers are read: a fixture that does not carry the key is "not found", one
 * that does (the recorder rewrites the fixture as the real provider would answer) is found.
 *   an authorisation or a saved card's charge: GET /v1/payment_intents/search?query=metadata['idempotency_key']:'<key>'
 *   a capture: GET /v1/payment_intents/{id} (an intent is captured once)
 *   a refund: GET /v1/refunds?payment_intent=..., a transfer: GET /v1/transfers?transfer_group=... (search
 *   covers neither), each filtered by the key in its metadata.
 * The movements' POSTs carry that key in their metadata (tests/contract/stripe-buy.test.ts).
 * The nightly reconciliation's provider side (listMovementsCreated;
 * docs/decisions/0052-reconciliation-actions-and-reconciled-months.md): GET /v1/payment_intents, /v1/refunds and
 * /v1/transfers with created[gte]/created[lt] and limit=100, each paged on (starting_after) while has_more.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createdRangeParams,
  createStripeClient,
  movementSearchParams,
  StripePayments,
} from "../../activities/payments/stripe";

const mock = new URL(process.env.STRIPE_MOCK_URL ?? "http://127.0.0.1:12111");
const KEY = "buy-order:4242:payout:1";

/**
 * A proxy in front of stripe-mock that records each GET (path and query) and, when `carryKey` is set, writes
 * that key into the metadata of every object in the answer (what the provider holds after the movement).
 */
let proxy: http.Server;
let port = 0;
let carryKey: string | null = null;
/** Rewrites an answer as the real provider would (more pages, the objects a day holds). */
let rewrite: ((path: string, body: Record<string, unknown>) => void) | null = null;
const gets: { path: string; query: Record<string, string> }[] = [];

beforeAll(async () => {
  proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", mock);
    gets.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && k !== "host" && k !== "connection") headers[k] = v;
    fetch(url, { method: req.method, headers })
      .then(async (answer) => {
        const body = (await answer.json()) as Record<string, unknown>;
        const objects = Array.isArray(body.data)
          ? (body.data as Record<string, unknown>[])
          : [body];
        if (carryKey) for (const o of objects) o.metadata = { idempotency_key: carryKey };
        rewrite?.(url.pathname, body);
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      })
      .catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  port = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => proxy.close(r));
});

function adapter(): { payments: StripePayments; statuses: number[] } {
  const stripe = createStripeClient({
    secretKey: "sk_test_123",
    host: "127.0.0.1",
    port,
    protocol: "http",
  });
  const statuses: number[] = [];
  stripe.on("response", (e: Stripe.ResponseEvent) => statuses.push(e.status));
  gets.length = 0;
  carryKey = null;
  rewrite = null;
  return { payments: new StripePayments(stripe), statuses };
}

describe("Stripe adapter: a movement looked up by its idempotency key against stripe-mock", () => {
  test("an authorisation: GET /v1/payment_intents/search by the key in the metadata", async () => {
    const { payments, statuses } = adapter();
    const key = "buy-order:4242:authorize:1";
    expect(await payments.findMovementByKey({ kind: "payment_intent", idempotencyKey: key })).toBe(
      null,
    );
    carryKey = key;
    const found = await payments.findMovementByKey({ kind: "payment_intent", idempotencyKey: key });
    expect(found?.id).toMatch(/^pi_/);
    expect(found?.amountCents).toEqual(expect.any(Number));
    const query = { query: `metadata['idempotency_key']:'${key}'`, limit: "10" };
    expect(gets).toEqual([
      { path: "/v1/payment_intents/search", query },
      { path: "/v1/payment_intents/search", query },
    ]);
    expect(statuses).toEqual([200, 200]);
  });

  test("a key with a quote or a backslash is escaped as the search query language asks", () => {
    expect(movementSearchParams("a'b\\c").query).toBe(`metadata['idempotency_key']:'a\\'b\\\\c'`);
  });

  test("a capture: GET /v1/payment_intents/{id}; found only when the intent has succeeded", async () => {
    const { payments, statuses } = adapter();
    const found = await payments.findMovementByKey({
      kind: "capture",
      idempotencyKey: "buy-order:4242:capture:1",
      paymentIntentId: "pi_123",
    });
    expect(gets).toEqual([{ path: "/v1/payment_intents/pi_123", query: {} }]);
    expect(statuses).toEqual([200]);
    // stripe-mock's fixture intent is in requires_payment_method: not captured.
    expect(found).toBe(null);
  });

  test("a refund: GET /v1/refunds for the intent, filtered by the key in the metadata", async () => {
    const { payments, statuses } = adapter();
    const key = "buy-order:4242:refund:1";
    const input = { kind: "refund" as const, idempotencyKey: key, paymentIntentId: "pi_123" };
    expect(await payments.findMovementByKey(input)).toBe(null);
    carryKey = key;
    expect((await payments.findMovementByKey(input))?.id).toMatch(/^re_/);
    const query = { payment_intent: "pi_123", limit: "100" };
    expect(gets).toEqual([
      { path: "/v1/refunds", query },
      { path: "/v1/refunds", query },
    ]);
    expect(statuses).toEqual([200, 200]);
  });

  test("a payout: GET /v1/transfers for the order's transfer group, filtered by the key", async () => {
    const { payments, statuses } = adapter();
    const input = { kind: "transfer" as const, idempotencyKey: KEY, transferGroup: "order-4242" };
    expect(await payments.findMovementByKey(input)).toBe(null);
    carryKey = KEY;
    const found = await payments.findMovementByKey(input);
    expect(found).toMatchObject({ status: "paid" });
    expect(found?.id).toMatch(/^tr_/);
    const query = { transfer_group: "order-4242", limit: "100" };
    expect(gets).toEqual([
      { path: "/v1/transfers", query },
      { path: "/v1/transfers", query },
    ]);
    expect(statuses).toEqual([200, 200]);
  });
});

describe("Stripe adapter: the movements created on a day, listed against stripe-mock", () => {
  const day = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-02T00:00:00Z") };
  const created = { "created[gte]": "1772323200", "created[lt]": "1772409600", limit: "100" };
  const paths = ["/v1/payment_intents", "/v1/refunds", "/v1/transfers"];

  test("the day's range in Stripe's seconds", () => {
    expect(createdRangeParams(day)).toEqual({
      created: { gte: 1772323200, lt: 1772409600 },
      limit: 100,
    });
    expect(createdRangeParams({ from: new Date(1_500), to: new Date(2_001) }).created).toEqual({
      gte: 2,
      lt: 3,
    });
  });

  test("each list is read page after page; only the objects carrying a key are listed", async () => {
    const { payments, statuses } = adapter();
    const pages = new Map<string, number>();
    rewrite = (path, body) => {
      const page = (pages.get(path) ?? 0) + 1;
      pages.set(path, page);
      // Two pages of each list; the second page's objects carry a key, the first page's do not.
      body.has_more = page === 1;
      for (const o of body.data as Record<string, unknown>[]) {
        o.id = `${String(o.id)}_${page}`;
        if (page === 2) {
          o.metadata = { idempotency_key: `${path}:key` };
          if (o.object === "payment_intent") o.status = "succeeded";
        }
      }
    };
    const listed = await payments.listMovementsCreated(day);
    expect(listed.map((m) => m.idempotencyKey)).toEqual(paths.map((p) => `${p}:key`));
    expect(listed.map((m) => m.id)).toEqual([
      expect.stringMatching(/^pi_.*_2$/),
      expect.stringMatching(/^re_.*_2$/),
      expect.stringMatching(/^tr_.*_2$/),
    ]);
    for (const m of listed) expect(m.amountCents).toEqual(expect.any(Number));
    expect(gets).toEqual(
      paths.flatMap((path) => [
        { path, query: created },
        { path, query: { ...created, starting_after: expect.stringMatching(/_1$/) } },
      ]),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });

  test("an intent waiting for a payment method moved nothing: not listed", async () => {
    const { payments } = adapter();
    carryKey = "buy-order:4242:penalty:1";
    // stripe-mock's fixture intent is in requires_payment_method; its refund and transfer are listed.
    const listed = await payments.listMovementsCreated(day);
    expect(listed.map((m) => m.id)).toEqual([
      expect.stringMatching(/^re_/),
      expect.stringMatching(/^tr_/),
    ]);
    expect(gets.map((g) => g.path)).toEqual(paths);
  });
});

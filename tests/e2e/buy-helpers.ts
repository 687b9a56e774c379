/**
 * Helpers for the buy-order e2e tests (checkout, webhooks, the whole flow): a Temporal client on the app's
 * server (TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE of the e2e stack), polling an order's workflow view and
 * read model, retailers with logins, the cart form the marketplace pages post, the checkout through the
 * pages (terms → review → card).
 */
import { Client, Connection } from "@temporalio/client";
import { testDataConverter } from "../setup/temporal";
import { and, eq, like, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { getEnv } from "../../app/utils/env.server";
import type { Db, DbHandle } from "../../db/client";
import { orders, sandboxIdempotencyKeys } from "../../db/schema";
import {
  BUY_WORKFLOW_TYPE,
  buyOrderInputFromDraft,
  buyWorkflowId,
  orderViewQuery,
  type BuyOrderView,
} from "../../workflows/buy/contract";
import {
  authorizeBrand,
  createRequest,
  createRetailer,
  DEFAULT_TEST_PASSWORD,
  type RetailerRow,
} from "../factories";
import { createOrder, type CreatedOrder } from "../factories/orders";
import { uniqueEmail, url } from "./harness";
import { HttpClient } from "./http";

export { buyWorkflowId };

let client: Client | undefined;
let connection: Connection | undefined;

/** The file's Temporal client (the app's server, with the tests' payload codec); closeTemporal after the file. */
export async function temporal(): Promise<Client> {
  if (!client) {
    const env = getEnv();
    connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
    client = new Client({
      connection,
      namespace: env.TEMPORAL_NAMESPACE,
      dataConverter: testDataConverter,
    });
  }
  return client;
}

export async function closeTemporal(): Promise<void> {
  await connection?.close().catch(() => {});
  client = undefined;
  connection = undefined;
}

export async function until<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The order's workflow view once it is in `statename` and idle. */
export async function waitForOrderState(
  orderId: number,
  statename: string | string[],
  timeoutMs = 30_000,
): Promise<BuyOrderView> {
  const want = Array.isArray(statename) ? statename : [statename];
  const c = await temporal();
  return until(
    `order ${orderId} in ${want.join("|")}`,
    async () => {
      const v = await c.workflow.getHandle(buyWorkflowId(orderId)).query(orderViewQuery);
      return want.includes(v.statename) && !v.busy ? v : null;
    },
    timeoutMs,
  );
}

/** The read model row once its statename is `statename`. */
export async function waitForReadModel(
  dbh: DbHandle,
  orderId: number,
  statename: string,
  timeoutMs = 30_000,
) {
  return until(
    `orders.${orderId} statename ${statename}`,
    async () => {
      const [o] = await dbh.db.select().from(orders).where(eq(orders.id, orderId));
      return o && o.statename === statename ? o : null;
    },
    timeoutMs,
  );
}

/** Idempotency keys the sandbox payment provider saw for an order's workflow step ("authorize", ...). */
export async function providerKeys(
  dbh: DbHandle,
  orderId: number,
  step: string,
): Promise<string[]> {
  const rows = await dbh.db
    .select({ key: sandboxIdempotencyKeys.key })
    .from(sandboxIdempotencyKeys)
    .where(and(like(sandboxIdempotencyKeys.key, `${buyWorkflowId(orderId)}:${step}:%`)))
    .orderBy(sql`${sandboxIdempotencyKeys.createdAt}`);
  return [...new Set(rows.map((r) => r.key.split(":").slice(0, 4).join(":")))];
}

/** A retailer with a login, authorized for the given brands. */
export async function retailerWithLogin(
  dbh: DbHandle,
  brandIds: number[],
  opts: { payout?: boolean; prefix?: string } = {},
): Promise<{ r: RetailerRow; email: string }> {
  const email = uniqueEmail(opts.prefix ?? "buy");
  const { retailer: r } = await createRetailer(dbh.db, {
    payout: opts.payout ?? true,
    user: { email },
  });
  for (const b of brandIds) await authorizeBrand(dbh.db, r.id, b);
  return { r, email };
}

/**
 * A request of one `size` by a new retailer, and a new seller signed in over HTTP (`client`) with its offer to
 * that request in the cart (the /cart form the request page posts): where an offer's checkout starts.
 */
export async function offerInCart(
  dbh: DbHandle,
  brandId: number,
  variationId: number,
  size: string,
  opts: { prefix?: string } = {},
) {
  const requestor = await retailerWithLogin(dbh, [brandId], {
    prefix: opts.prefix && `${opts.prefix}-req`,
  });
  const seller = await retailerWithLogin(dbh, [brandId], {
    prefix: opts.prefix && `${opts.prefix}-sell`,
  });
  const req = await createRequest(dbh.db, {
    variationId,
    requestorId: requestor.r.id,
    sizes: { [size]: 1 },
  });
  const client = new HttpClient();
  await client.signIn(seller.email, DEFAULT_TEST_PASSWORD);
  const added = await client.postForm("/cart", {
    intent: "add",
    requestId: req.id,
    [`size.${size}`]: 1,
    returnTo: "/cart",
  });
  expect(added.status).toBe(303);
  return { requestor, seller, req, client };
}

/** Posts the /cart form the marketplace pages post (intent=add, listingId|requestId, size.<label>=qty). */
export async function postCartForm(
  p: Page,
  fields: Record<string, string | number>,
): Promise<void> {
  await p.goto(url("/cart"));
  await Promise.all([
    p.waitForNavigation({ waitUntil: "load" }),
    p.evaluate((f) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/cart";
      for (const [name, value] of Object.entries(f)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = String(value);
        form.appendChild(input);
      }
      document.body.appendChild(form);
      HTMLFormElement.prototype.submit.call(form);
    }, fields),
  ]);
}

/** /checkout: accept the buy terms and continue to the review. */
/**
 * Ticks the checkout's terms box. The terms appear 500 ms after the checkout opens (docs/product/screens.md,
 * "Cart and checkout"): the page is watched every 20 ms until the box shows, then ticked, where a tick (or a
 * locator's wait) alone retries on Playwright's back-off and lands about 350 ms after the box shows.
 */
export async function checkTerms(p: Page): Promise<void> {
  await p.waitForFunction(
    () => {
      const box = document.getElementById("checkout-terms-box");
      return box !== null && getComputedStyle(box).visibility === "visible";
    },
    undefined,
    // Every 20 ms on the page's timers, not on every animation frame (which makes Chromium draw frames).
    { polling: 20 },
  );
  await p.locator("#checkout-terms-box").check();
}

export async function acceptBuyTerms(p: Page): Promise<void> {
  await p.goto(url("/checkout"));
  await checkTerms(p);
  await Promise.all([
    p.waitForURL(/\/checkout\/review/),
    p.getByTestId("checkout-continue").click(),
  ]);
}

/** /checkout/review → "Continue to payment" → /checkout/pay?order=...: the order ids of the page. */
export async function continueToPayment(p: Page): Promise<number[]> {
  await Promise.all([
    p.waitForURL(/\/checkout\/pay\?order=/),
    p.getByTestId("review-continue").click(),
  ]);
  await p.getByTestId("pay-form").waitFor();
  return new URL(p.url()).searchParams.getAll("order").map(Number);
}

/** Fills the sandbox's test-card form and pays. */
export async function payWithTestCard(p: Page, number: string): Promise<void> {
  const newCard = p.locator('input[type="radio"][name="card_choice"][value="new"]');
  if (await newCard.count()) await newCard.check();
  await p.locator("#card_number").fill(number);
  await p.locator("#card_expiry").fill("12/34");
  await p.locator("#card_cvc").fill("123");
  await p.getByTestId("pay-submit").click();
}

/** After paying: the success landing. */
export async function expectCheckoutComplete(p: Page): Promise<void> {
  await p.waitForURL(/\/buy\?ref=checkoutComplete/, { timeout: 40_000 });
  await p
    .getByText("Thank you! Your order was sent to the seller.", { exact: false })
    .first()
    .waitFor();
}

/** The RMA wizard's Contact Info step: fills the four fields and goes on to Confirm. */
export async function rmaContactStep(
  p: Page,
  c: { name: string; email: string; phone: string; packingSlipName: string },
): Promise<void> {
  await p.getByTestId("rma-contact-form").waitFor();
  await p.locator("#rma-contact_name").fill(c.name);
  await p.locator("#rma-contact_email").fill(c.email);
  await p.locator("#rma-contact_phone").fill(c.phone);
  await p.locator("#rma-packing_slip_name").fill(c.packingSlipName);
  await p.getByTestId("rma-next").click();
  await p.getByTestId("rma-confirm-form").waitFor();
}

/**
 * A draft order written by the factory (one line, in complete_order_checkout) and its buy workflow started by
 * type name on `client`, as checkout does; the caller terminates it when done (buyWorkflowId(order.id)).
 */
export async function startBuyOrder(
  client: Client,
  db: Db,
  opts: {
    providerId: number;
    receiverId: number;
    variationId: number;
    listingId: number | null;
    sizes: Record<string, number>;
    unitPriceCents: number;
    requestId?: number;
  },
): Promise<CreatedOrder> {
  const env = getEnv();
  const draft = await createOrder(db, {
    providerId: opts.providerId,
    receiverId: opts.receiverId,
    statename: "complete_order_checkout",
    requestId: opts.requestId ?? null,
    lines: [{ variationId: opts.variationId, listingId: opts.listingId, sizes: opts.sizes }],
  });
  const id = draft.order.id;
  const workflowId = buyWorkflowId(id);
  await db.update(orders).set({ workflowId }).where(eq(orders.id, id));
  const input = buyOrderInputFromDraft(
    {
      orderId: id,
      workflowId,
      externalId: draft.order.externalId,
      receiverId: opts.receiverId,
      providerId: opts.providerId,
      requestId: opts.requestId ?? null,
      goodsCents: draft.quote.goodsCents,
      feeCents: draft.quote.feeCents,
      shippingCents: draft.quote.shippingCents,
      totalCents: draft.quote.totalCents,
      units: [
        {
          listingId: opts.listingId,
          variationId: opts.variationId,
          sizes: opts.sizes,
          unitPriceCents: opts.unitPriceCents,
        },
      ],
    },
    { timeZone: env.MARKETPLACE_TZ },
  );
  await client.workflow.start(BUY_WORKFLOW_TYPE, {
    taskQueue: env.TEMPORAL_TASK_QUEUE,
    workflowId,
    args: [input],
    workflowIdReusePolicy: "REJECT_DUPLICATE",
  });
  return draft;
}

/**
 * The RMA wizard for one unit of an order's first line, up to sending it; no pictures needed: "Missing units"
 * (nothing ships back), or with `otherText` "Other" with that text (one that mentions shipping ships back).
 */
export async function fileOneUnitRma(
  p: Page,
  orderId: number,
  opts: { otherText?: string } = {},
): Promise<void> {
  await p.goto(url(`/create-rma/${orderId}`));
  await p.getByTestId("rma-units-form").waitFor();
  const line = p.getByTestId("rma-line").first();
  await line.locator('input[name^="q."]').fill("1");
  await line.locator('select[name^="r."]').selectOption(opts.otherText ? "4" : "2");
  if (opts.otherText) await line.locator('[name^="o."]').fill(opts.otherText);
  await p.getByTestId("rma-next").click();
  await p.getByTestId("rma-pictures-form").waitFor();
  await p.getByTestId("rma-next").click();
  await rmaContactStep(p, {
    name: "Pat",
    email: "pat@example.test",
    phone: "555-0100",
    packingSlipName: "Pat",
  });
  await p.getByTestId("rma-process").click();
}

/**
 * Fixtures of the buy activities' database tests and the real-activities workflow test: a seller with a
 * listing, a buyer, and draft orders as checkout writes them (orders + order_contributions).
 */
import { sql } from "drizzle-orm";
import { createBuyActivities } from "../../activities/buy";
import { createSandboxCarrier } from "../../activities/carrier/sandbox";
import { SandboxPayments } from "../../activities/payments/sandbox";
import type {
  BuyActivities,
  OrderStateRecord,
  RefundPaymentInput,
  RefundPaymentResult,
} from "../../workflows/buy/activities";
import type { Db } from "../../db/client";
import { recordPaymentMethod } from "../../db/queries/settings";
import { orderContributions, orders } from "../../db/schema";
import { purchaseQuote } from "../../domain/fees";
import { BUY_STATES, displayStatusFor, TRANSACTION_TYPE } from "../../domain/states";
import { buyWorkflowId } from "../../workflows/buy/contract";
import type { PaymentMethodInput } from "../../workflows/common/contract";
import { orderLedger, orderQuote, type OrderLine } from "../../domain/order-money";
import { createListing, createRetailer, createWorld, SIZE_RUNS } from "../factories";

/** The sandbox's (and stripe-mock's) test cards, as checkout and Settings send them. */
export const TEST_VISA: PaymentMethodInput = {
  paymentMethodId: "tok_visa",
  lastFour: "4242",
  description: "Visa",
};
/** The test Visa saved as `retailerId`'s default card, as Settings → Card On File saves it. */
export async function visaOnFile(db: Db, retailerId: number): Promise<void> {
  await recordPaymentMethod(db, {
    retailerId,
    providerPaymentMethodId: TEST_VISA.paymentMethodId,
    providerCustomerId: null,
    description: TEST_VISA.description,
    lastFour: TEST_VISA.lastFour,
  });
}
export const TEST_MASTERCARD: PaymentMethodInput = {
  paymentMethodId: "tok_mastercard",
  lastFour: "4444",
  description: "Mastercard",
};

export async function createSellerWithListing(
  db: Db,
  opts: {
    sizes?: Record<string, number>;
    priceCents?: number;
    payout?: boolean;
    /** The catalogue's price a unit (the factory's default otherwise). */
    catalogueCents?: number;
  } = {},
) {
  const { brand, products } = await createWorld(db, {
    products: [{ sizes: SIZE_RUNS.apparel, colors: 1, priceCents: opts.catalogueCents }],
  });
  const { variations } = products[0];
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

/** An order line for `sizes` of the listing of `f` (a createSellerWithListing), at its price. */
export function listingLine(
  f: Awaited<ReturnType<typeof createSellerWithListing>>,
  sizes: Record<string, number>,
): OrderLine {
  return {
    listingId: f.listing.id,
    variationId: f.variation.id,
    sizes,
    unitPriceCents: f.priceCents,
  };
}

/** A draft order as checkout writes it; returns its id, workflow id and lines. */
export async function createDraftOrder(
  db: Db,
  input: {
    providerId: number;
    receiverId: number;
    brandId?: number | null;
    lines: OrderLine[];
    requestId?: number | null;
  },
): Promise<{ orderId: number; workflowId: string; externalId: string; lines: OrderLine[] }> {
  const quote = purchaseQuote(
    input.lines.map((l) => ({ unitPriceCents: l.unitPriceCents, units: l.sizes })),
  );
  const [{ id }] = await db.execute<{ id: number }>(
    sql`select nextval(pg_get_serial_sequence('orders', 'id'))::int as id`,
  );
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

/**
 * The purchase's activities on the sandbox payment provider and carrier (the carrier's webhooks go nowhere): for
 * tests that drive money movements without a workflow.
 */
export function sandboxBuyActivities(
  db: Db,
  opts: {
    payments?: SandboxPayments;
    appOrigin?: string;
    tellOfferUnitsTaken?: (offerWorkflowId: string) => Promise<void>;
  } = {},
) {
  return createBuyActivities({
    db,
    payments: opts.payments ?? new SandboxPayments(db),
    carrier: createSandboxCarrier(db, { appOrigin: "http://127.0.0.1:9", webhookSecret: "x" }),
    appOrigin: opts.appOrigin ?? "http://localhost:3000",
    timeZone: "America/New_York",
    tellOfferUnitsTaken: opts.tellOfferUnitsTaken,
  });
}

/**
 * A draft purchase at $25.00 a unit (at the listing's price with `listingPrice`; one unit of S unless `sizes`
 * says otherwise) from a seller with a listing (of two S unless `listing` says otherwise; or `seller`'s), to a
 * buyer without a payout account (and without a login when `buyerUser` is false).
 */
export async function draftPurchase(
  db: Db,
  opts: {
    sizes?: Record<string, number>;
    listing?: Record<string, number>;
    payout?: boolean;
    seller?: Awaited<ReturnType<typeof createSellerWithListing>>;
    buyerUser?: false;
    listingPrice?: true;
  } = {},
) {
  const f =
    opts.seller ??
    (await createSellerWithListing(db, { sizes: opts.listing ?? { S: 2 }, payout: opts.payout }));
  const buyer = await createRetailer(db, { payout: false, user: opts.buyerUser });
  const o = await createDraftOrder(db, {
    providerId: f.seller.retailer.id,
    receiverId: buyer.retailer.id,
    brandId: f.brand.id,
    lines: [
      {
        ...listingLine(f, opts.sizes ?? { S: 1 }),
        ...(opts.listingPrice ? {} : { unitPriceCents: 2500 }),
      },
    ],
  });
  return { f, buyer, o };
}

/** Authorises `amountCents` of draft order `o` for `buyerId` on a Visa through the buy activities. */
export async function authorizePurchase(
  acts: Pick<BuyActivities, "authorizePayment">,
  o: { orderId: number; workflowId: string; externalId: string },
  buyerId: number,
  amountCents: number,
  key = `${o.workflowId}:authorize:1`,
) {
  const r = await acts.authorizePayment({
    idempotencyKey: key,
    orderId: o.orderId,
    retailerId: buyerId,
    paymentMethod: TEST_VISA,
    amountCents,
    description: `Order ${o.externalId}`,
  });
  if (r.status !== "authorized")
    throw new Error(`expected an authorisation, got ${JSON.stringify(r)}`);
  return r;
}

/**
 * A purchase by `buyerId` of 2 × $25.00 from `f`'s seller, checked out: its draft order, and its payment
 * authorised through the buy activities as the workflow calls them.
 */
export async function checkedOutOrder(
  db: Db,
  acts: Pick<BuyActivities, "authorizePayment">,
  f: Awaited<ReturnType<typeof createSellerWithListing>>,
  buyerId: number,
  paymentMethod: PaymentMethodInput,
) {
  const lines: OrderLine[] = [
    { listingId: f.listing.id, variationId: f.variation.id, sizes: { M: 2 }, unitPriceCents: 2500 },
  ];
  const o = await createDraftOrder(db, {
    providerId: f.seller.retailer.id,
    receiverId: buyerId,
    brandId: f.brand.id,
    lines,
  });
  const q = orderQuote(lines);
  const auth = await acts.authorizePayment({
    idempotencyKey: `${o.workflowId}:authorize:1`,
    orderId: o.orderId,
    retailerId: buyerId,
    paymentMethod,
    amountCents: q.totalCents,
    description: `Order ${o.externalId}`,
  });
  if (auth.status !== "authorized") throw new Error(`not authorised: ${auth.message}`);
  return { o, q, auth };
}

/**
 * A purchase by `buyerId` of 2 × $25.00 from `f`'s seller, through the buy activities as the workflow calls
 * them: authorised, captured, optionally refunded in part (`refundAttempts` times with the same key, as a
 * retried activity would), `beforePayout` (e.g. an RMA charge), then paid out. The statements tests'
 * money (tests/db/statements.test.ts with the sandbox, tests/contract/statements-stripe.test.ts with Stripe).
 */
export async function tradedOrder(
  db: Db,
  acts: BuyActivities,
  f: Awaited<ReturnType<typeof createSellerWithListing>>,
  buyerId: number,
  opts: {
    paymentMethod: PaymentMethodInput;
    refundCents?: number;
    refundAttempts?: number;
    beforePayout?: (o: { orderId: number; workflowId: string }) => Promise<void>;
  },
) {
  const { o, q, auth } = await checkedOutOrder(db, acts, f, buyerId, opts.paymentMethod);
  await captureThenRefund(acts, o, auth.paymentIntentId, q.totalCents, {
    cents: opts.refundCents,
    attempts: opts.refundAttempts,
  });
  await opts.beforePayout?.(o);
  await acts.releaseSellerPayout({
    idempotencyKey: `${o.workflowId}:payout:1`,
    orderId: o.orderId,
    retailerId: f.seller.retailer.id,
    amountCents: q.goodsCents,
  });
  return { ...o, quote: q };
}

/**
 * What follows a checkout, with the keys of the workflow's first run: the capture of `totalCents` (all that was
 * authorised) and, with `refund.cents`, a refund (sent `refund.attempts` times with one key, as a retried
 * activity would; for an RMA unless `refund.reason` says otherwise). Returns the last refund's result.
 */
export async function captureThenRefund(
  acts: Pick<BuyActivities, "capturePayment" | "refundPayment">,
  o: { orderId: number; workflowId: string },
  paymentIntentId: string,
  totalCents: number,
  refund: { cents?: number; attempts?: number; reason?: RefundPaymentInput["reason"] } = {},
) {
  await acts.capturePayment({
    idempotencyKey: `${o.workflowId}:capture:1`,
    orderId: o.orderId,
    paymentIntentId,
    amountCents: totalCents,
    authorizedCents: totalCents,
  });
  let last: RefundPaymentResult | null = null;
  for (let i = 0; refund.cents && i < (refund.attempts ?? 1); i++) {
    last = await acts.refundPayment({
      idempotencyKey: `${o.workflowId}:refund:1`,
      orderId: o.orderId,
      paymentIntentId,
      amountCents: refund.cents,
      reason: refund.reason ?? "rma",
    });
  }
  return last;
}

/**
 * The `n`-th read-model write of order `o`: waiting for the seller, `quote` authorised and nothing else done;
 * `over` sets the rest.
 */
export function orderStateRecord(
  o: { orderId: number; workflowId: string },
  n: number,
  quote: ReturnType<typeof orderQuote>,
  over: Partial<OrderStateRecord> = {},
): OrderStateRecord {
  return {
    orderId: o.orderId,
    workflowId: o.workflowId,
    dedupeKey: `${o.workflowId}:record:${n}`,
    kind: "from_listing",
    providerId: 0,
    receiverId: 0,
    statename: "provider_approve_sale",
    displayStatus: "Pending Approval",
    stage: "pre_shipping",
    completed: null,
    actionNeeded: "provider",
    actions: [],
    isModified: false,
    lines: [],
    pendingLines: null,
    amounts: { quote, authorizedCents: quote.totalCents, capturedCents: 0 },
    ledger: orderLedger([{ kind: "authorization", amountCents: quote.totalCents }]),
    reasons: {},
    deadlines: {},
    ...over,
  };
}

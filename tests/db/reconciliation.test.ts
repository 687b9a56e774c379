/**
 * The nightly reconciliation (docs/decisions/0045-nightly-reconciliation.md) against Postgres and the sandbox
 * provider: a clean day shows no difference; a ledger row the provider has no object for, a capture whose amount
 * differs from the provider's and a provider object no ledger row holds are recorded, once, and listed for staff.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { createReconciliationActivities } from "../../activities/reconciliation";
import { getPaymentByKey } from "../../db/queries/payments";
import { listOpenDifferences } from "../../db/queries/reconciliation";
import { payments, sandboxPaymentObjects } from "../../db/schema";
import {
  authorizePurchase,
  captureThenRefund,
  draftPurchase,
  sandboxBuyActivities,
} from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(4);
const sandbox = new SandboxPayments(db);
const acts = sandboxBuyActivities(db, { payments: sandbox });
const recon = createReconciliationActivities({ db, payments: sandbox });

/** A day of its own (long past): only the movements a test moves onto it are reconciled. */
function ownDay(): string {
  const offset = Math.floor(Math.random() * 20_000);
  return new Date(Date.UTC(1950, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** An order authorised, captured in full and partly refunded at the sandbox; its ledger rows moved onto `day`. */
async function tradedOn(day: string) {
  const { f, buyer, o } = await draftPurchase(db);
  const auth = await authorizePurchase(acts, o, buyer.retailer.id, 3000);
  const refund = await captureThenRefund(acts, o, auth.paymentIntentId, 3000, {
    cents: 1000,
    reason: "shipment_cancelled",
  });
  expect(refund?.status).toBe("refunded");
  await db
    .update(payments)
    .set({ createdAt: new Date(`${day}T12:00:00Z`) })
    .where(eq(payments.orderId, o.orderId));
  await db
    .update(sandboxPaymentObjects)
    .set({ createdAt: new Date(`${day}T12:00:00Z`) })
    .where(
      sql`${sandboxPaymentObjects.data} -> 'metadata' ->> 'idempotency_key' like ${`${o.workflowId}:%`}`,
    );
  return { o, seller: f.seller, buyer };
}

const reconcile = (day: string) => recon.reconcilePage({ day, afterId: 0, limit: 100 });
const differencesOf = async (day: string) =>
  (await listOpenDifferences(db)).filter((d) => d.day === day);

describe("nightly reconciliation", () => {
  test("a clean day: every movement found at the provider with its amount, no difference", async () => {
    const day = ownDay();
    await tradedOn(day);
    expect(await reconcile(day)).toMatchObject({ checked: 3, recorded: 0, done: true });
    // The provider's side: the intent and the refund, both in the ledger.
    expect(await recon.reconcileProviderSide({ day })).toEqual({ listed: 2, recorded: 0 });
    expect(await differencesOf(day)).toEqual([]);
  });

  test("a ledger row the provider has no object for, and a capture whose amount differs, are differences (recorded once)", async () => {
    const day = ownDay();
    const { o, seller } = await tradedOn(day);
    // Planted: a payout the ledger says was sent, that the provider never made.
    const plantedKey = `${o.workflowId}:transfer:planted`;
    await db.insert(payments).values({
      orderId: o.orderId,
      retailerId: seller.retailer.id,
      name: "Payout",
      txtype: "transfer",
      amountCents: 2200,
      status: "paid",
      queued: false,
      idempotencyKey: plantedKey,
      createdAt: new Date(`${day}T13:00:00Z`),
    });
    // The ledger's capture says 2900; the provider captured 3000.
    const captureKey = `${o.workflowId}:capture:1`;
    await db
      .update(payments)
      .set({ amountCents: 2900 })
      .where(inArray(payments.idempotencyKey, [captureKey]));

    expect(await reconcile(day)).toMatchObject({ checked: 4, recorded: 2, done: true });
    const found = await differencesOf(day);
    expect(found).toEqual([
      expect.objectContaining({
        kind: "amount_differs",
        idempotencyKey: captureKey,
        paymentId: (await getPaymentByKey(db, captureKey))!.id,
        movementKind: "capture",
        orderExternalId: o.externalId,
        ledgerCents: 2900,
        providerCents: 3000,
      }),
      expect.objectContaining({
        kind: "missing_at_provider",
        idempotencyKey: plantedKey,
        movementKind: "transfer",
        storeName: seller.retailer.storeName,
        ledgerCents: 2200,
        providerCents: null,
        providerRef: null,
      }),
    ]);
    // A run again (a retried activity, a second night's catch-up) writes nothing twice.
    expect(await reconcile(day)).toMatchObject({ checked: 4, recorded: 0 });
    expect(await differencesOf(day)).toHaveLength(2);
  });

  test("a provider object of the day whose key the ledger does not hold is missing with us", async () => {
    const day = ownDay();
    await tradedOn(day);
    const strayKey = `stray:${day}`;
    await db.insert(sandboxPaymentObjects).values({
      id: `tr_stray_${day}`,
      kind: "transfer",
      data: {
        id: `tr_stray_${day}`,
        object: "transfer",
        amount: 700,
        metadata: { idempotency_key: strayKey },
      },
      createdAt: new Date(`${day}T09:00:00Z`),
    });
    expect(await recon.reconcileProviderSide({ day })).toEqual({ listed: 3, recorded: 1 });
    expect(await differencesOf(day)).toEqual([
      expect.objectContaining({
        kind: "missing_with_us",
        idempotencyKey: strayKey,
        paymentId: null,
        ledgerCents: null,
        providerCents: 700,
        providerRef: `tr_stray_${day}`,
      }),
    ]);
  });

  test("a day's movements are checked a page at a time", async () => {
    const day = ownDay();
    await tradedOn(day);
    const first = await recon.reconcilePage({ day, afterId: 0, limit: 2 });
    expect(first).toMatchObject({ checked: 2, done: false });
    const second = await recon.reconcilePage({ day, afterId: first.lastId, limit: 2 });
    expect(second).toMatchObject({ checked: 1, done: true });
  });
});

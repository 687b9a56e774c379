/**
 * The nightly reconciliation (docs/decisions/0045-nightly-reconciliation.md) against Postgres and the sandbox
 * provider: a clean day shows no difference; a ledger row the provider has no object for, a capture whose amount
 * differs from the provider's and a provider object no ledger row holds are recorded, once, and listed for staff.
 * Staff resolve one with a note (audited, once); a finished run is stored once; a retailer's month is reconciled
 * once every UTC day of it has a run and no difference on its movements is open
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { createOfferActivities } from "../../activities/offer";
import { createReconciliationActivities } from "../../activities/reconciliation";
import { getPaymentByKey } from "../../db/queries/payments";
import {
  listDifferenceEvents,
  listOpenDifferences,
  listResolvedDifferences,
  monthReconciliationFacts,
  recordDifferences,
  resolveDifference,
} from "../../db/queries/reconciliation";
import { payments, reconciliationRuns, sandboxPaymentObjects } from "../../db/schema";
import { monthReconciledAt, utcDaysOf } from "../../domain/reconciliation";
import { monthRange } from "../../domain/statements";
import { createRetailer, createStaffUser } from "../factories";
import {
  authorizePurchase,
  captureThenRefund,
  draftPurchase,
  sandboxBuyActivities,
  visaOnFile,
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

  test("an offer's holds (one released, no order yet) are in the ledger: no difference on either side", async () => {
    const day = ownDay();
    const buyer = await createRetailer(db);
    await visaOnFile(db, buyer.retailer.id);
    const offer = createOfferActivities({
      db,
      payments: sandbox,
      appOrigin: "http://localhost:3000",
    });
    const wf = `offer:recon-${day}`;
    const hold = (attempt: number, amountCents: number) =>
      offer.holdOfferCard({
        offerId: 1,
        buyerId: buyer.retailer.id,
        amountCents,
        idempotencyKey: `${wf}:hold:${attempt}`,
      });
    // Held, countered lower (held again at the new price), the first hold released.
    const first = await hold(1, 6600);
    await hold(2, 6000);
    await offer.releaseOfferHold({ reference: first.reference, idempotencyKey: `${wf}:release:1` });
    const ledger = await db
      .select()
      .from(payments)
      .where(sql`${payments.idempotencyKey} like ${`${wf}:%`}`)
      .orderBy(payments.id);
    expect(ledger.map((r) => [r.txtype, r.name, r.amountCents, r.status, r.orderId])).toEqual([
      ["authorization", "offer pre-authorization", 6600, "canceled", null],
      ["authorization", "offer pre-authorization", 6000, "requires_capture", null],
      ["release", "offer authorization released", 6600, "canceled", null],
    ]);
    await db
      .update(payments)
      .set({ createdAt: new Date(`${day}T12:00:00Z`) })
      .where(sql`${payments.idempotencyKey} like ${`${wf}:%`}`);
    await db
      .update(sandboxPaymentObjects)
      .set({ createdAt: new Date(`${day}T12:00:00Z`) })
      .where(
        sql`${sandboxPaymentObjects.data} -> 'metadata' ->> 'idempotency_key' like ${`${wf}:%`}`,
      );
    expect(await reconcile(day)).toMatchObject({ checked: 3, recorded: 0, done: true });
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

describe("staff's resolution of a difference", () => {
  test("resolved with a note: it leaves the open list, is listed with who, when and why, audited; once", async () => {
    const day = ownDay();
    await tradedOn(day);
    const key = `stray-resolve:${day}:${Math.random()}`;
    await recordDifferences(db, day, [
      {
        kind: "missing_with_us",
        idempotencyKey: key,
        paymentId: null,
        ledgerCents: null,
        providerCents: 500,
        providerRef: "tr_x",
      },
    ]);
    const [d] = await differencesOf(day);
    const staff = await createStaffUser(db);
    const note = "A test transfer made by hand in the dashboard";
    expect(await resolveDifference(db, { differenceId: d.id, actorId: staff.id, note })).toBe(true);
    expect(await differencesOf(day)).toEqual([]);
    const resolved = (await listResolvedDifferences(db, 500)).find((r) => r.id === d.id);
    expect(resolved).toMatchObject({
      idempotencyKey: key,
      resolutionNote: note,
      resolvedByEmail: staff.email,
    });
    expect(resolved?.resolvedAt).toBeInstanceOf(Date);
    // Resolved again (two staff at once): refused, nothing written twice.
    expect(
      await resolveDifference(db, { differenceId: d.id, actorId: staff.id, note: "again" }),
    ).toBe(false);
    expect(await listDifferenceEvents(db, d.id)).toEqual([
      expect.objectContaining({ action: "resolved", note, actorEmail: staff.email }),
    ]);
    expect(
      await resolveDifference(db, { differenceId: 2_000_000_000, actorId: staff.id, note }),
    ).toBe(false);
  });
});

describe("a finished run and a statement's month", () => {
  test("the run's last activity stores it once per workflow run", async () => {
    const runId = `run-${Math.random()}`;
    const run = { runId, day: "1948-01-05", checked: 3, listed: 2, recorded: 1 };
    await recon.recordReconciliationRun(run);
    await recon.recordReconciliationRun({ ...run, checked: 99 });
    const rows = await db
      .select()
      .from(reconciliationRuns)
      .where(eq(reconciliationRuns.runId, runId));
    expect(rows).toEqual([expect.objectContaining({ ...run, finishedAt: expect.any(Date) })]);
  });

  test("reconciled once every UTC day of the month has a run and no difference on the retailer's movements is open", async () => {
    const zone = "America/Los_Angeles";
    // A February of its own (long past; the runs are the platform's, not the retailer's).
    const year = 1900 + Math.floor(Math.random() * 48);
    const range = monthRange({ year, month: 2 }, zone);
    const days = utcDaysOf(range);
    const r = await createRetailer(db, { payout: false });
    const other = await createRetailer(db, { payout: false });
    const penalty = (retailerId: number, k: string, at: string) => ({
      retailerId,
      name: "Penalty",
      txtype: "penalty",
      amountCents: 500,
      status: "succeeded",
      queued: false,
      idempotencyKey: `month-${retailerId}-${k}`,
      createdAt: new Date(at),
    });
    const [mine, others] = await db
      .insert(payments)
      .values([
        // The last evening of February in the zone: the UTC day of March 1st.
        penalty(r.retailer.id, "late", `${year}-03-01T06:00:00Z`),
        penalty(other.retailer.id, "other", `${year}-02-10T12:00:00Z`),
      ])
      .returning();
    const reconciledAt = async () =>
      monthReconciledAt(days, await monthReconciliationFacts(db, r.retailer.id, range, days));

    // Every day but the last has run.
    const finished = (day: string, i: number) => ({
      runId: `month-${r.retailer.id}-${day}`,
      day,
      checked: 1,
      listed: 0,
      recorded: 0,
      finishedAt: new Date(Date.parse(`${day}T10:00:00Z`) + i),
    });
    await db
      .insert(reconciliationRuns)
      .values(days.slice(0, -1).map(finished))
      .onConflictDoNothing();
    expect(await reconciledAt()).toBe(null);
    await db
      .insert(reconciliationRuns)
      .values([finished(days.at(-1)!, 0)])
      .onConflictDoNothing();
    const lastRun = new Date(`${days.at(-1)}T10:00:00Z`);
    expect(await reconciledAt()).toEqual(lastRun);

    // A difference on another retailer's movement does not touch this statement; one on its own does.
    const diff = (p: typeof mine) => ({
      kind: "missing_at_provider" as const,
      idempotencyKey: p.idempotencyKey,
      paymentId: p.id,
      ledgerCents: 500,
      providerCents: null,
      providerRef: null,
    });
    await recordDifferences(db, `${year}-02-10`, [diff(others)]);
    expect(await reconciledAt()).toEqual(lastRun);
    await recordDifferences(db, `${year}-03-01`, [diff(mine)]);
    expect(await reconciledAt()).toBe(null);

    // Resolved: reconciled from the moment it was resolved.
    const [open] = (await listOpenDifferences(db)).filter((d) => d.paymentId === mine.id);
    const staff = await createStaffUser(db);
    await resolveDifference(db, {
      differenceId: open.id,
      actorId: staff.id,
      note: "Charged again",
    });
    const at = await reconciledAt();
    expect(at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

/**
 * Held money movements (docs/decisions/0044-payments-needing-attention.md) against Postgres and the sandbox
 * provider: a penalty with no card, a refused refund and a payout with no payout account are held (staff's list,
 * the retailer's alert and one e-mail each, the audit); a retry asks the provider about the latest key first and
 * makes a new attempt only when it did not happen; a new card marks the retailer's penalties due; staff settle or
 * write off (once); staff's daily list goes to the staff who hold the permission, once a day.
 */
import { and, eq, like } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { createHeldPaymentActivities } from "../../activities/held-payments";
import { SandboxPayments } from "../../activities/payments/sandbox";
import {
  claimNewAttempt,
  dueHeldPayments,
  getHeldPayment,
  listHeldPaymentEvents,
  listOpenHeldPayments,
  listRetailerHeldPayments,
  markHeldPaymentsDue,
  queueHeldPaymentsDigest,
  resolveHeldPayment,
} from "../../db/queries/held-payments";
import { getPaymentByKey } from "../../db/queries/payments";
import { getCardOnFile } from "../../db/queries/settings";
import { outboxEmails, sandboxPaymentObjects } from "../../db/schema";
import { PAYMENTS_ATTENTION_PERMISSION } from "../../domain/held-payments";
import { createStaffUser } from "../factories";
import { authorizePurchase, draftPurchase, sandboxBuyActivities, TEST_VISA } from "./buy-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb(6);
const sandbox = new SandboxPayments(db);
const acts = sandboxBuyActivities(db, { payments: sandbox });
const held = createHeldPaymentActivities({ db, payments: sandbox });
const uid = () => Math.random().toString(36).slice(2, 10);

async function orderWith(opts: { payout?: boolean } = {}) {
  const { f, buyer, o } = await draftPurchase(db, opts);
  return { ...f, buyer, ...o };
}

const heldMails = (paymentId: number) =>
  db
    .select()
    .from(outboxEmails)
    .where(like(outboxEmails.dedupeKey, `held-payment:${paymentId}:%`));

/** The sandbox's payment intents of one order (its metadata's order id). */
async function intentsOf(orderId: number) {
  const rows = await db
    .select()
    .from(sandboxPaymentObjects)
    .where(eq(sandboxPaymentObjects.kind, "payment_intent"));
  return rows
    .map((r) => r.data as { id: string; metadata?: Record<string, string>; amount: number })
    .filter((d) => d.metadata?.order_id === String(orderId));
}

async function penaltyHeld() {
  const o = await orderWith();
  const key = `${o.workflowId}:penalty:1`;
  const input = {
    idempotencyKey: key,
    orderId: o.orderId,
    retailerId: o.seller.retailer.id,
    amountCents: 500,
  };
  expect(await acts.chargeSellerPenalty(input)).toEqual({ status: "queued", chargeId: null });
  // A retried activity finds the row and the hold: nothing twice.
  expect(await acts.chargeSellerPenalty(input)).toEqual({ status: "queued", chargeId: null });
  const row = (await getPaymentByKey(db, key))!;
  return { o, key, paymentId: row.id };
}

describe("holding", () => {
  test("a penalty with no card on file is held: staff's list, the retailer's alert, one e-mail, the audit", async () => {
    const { o, key, paymentId } = await penaltyHeld();
    expect(await getPaymentByKey(db, key)).toMatchObject({ status: "queued", queued: true });
    expect(await getHeldPayment(db, paymentId)).toMatchObject({
      reason: "no_card",
      need: "card",
      attempts: 1,
      lastKey: key,
      kind: "penalty",
      amountCents: 500,
      storeName: o.seller.retailer.storeName,
      orderExternalId: o.externalId,
      resolvedAt: null,
    });
    const open = await listOpenHeldPayments(db);
    expect(open.map((r) => r.paymentId)).toContain(paymentId);
    expect(
      (await listRetailerHeldPayments(db, o.seller.retailer.id)).map((r) => r.paymentId),
    ).toEqual([paymentId]);
    expect(await listRetailerHeldPayments(db, o.buyer.retailer.id)).toEqual([]);
    const mails = await heldMails(paymentId);
    expect(mails).toHaveLength(1);
    expect(mails[0].bodyText).toContain("Add a card on file");
    expect((await listHeldPaymentEvents(db, paymentId)).map((e) => e.action)).toEqual(["held"]);
  });

  test("a refund the provider refuses is held for staff with what a new attempt sends; a payout with no account waits for one", async () => {
    const o = await orderWith({ payout: false });
    const auth = await authorizePurchase(acts, o, o.buyer.retailer.id, 3000);
    // Nothing captured: the provider refuses the refund.
    const r = await acts.refundPayment({
      idempotencyKey: `${o.workflowId}:refund:1`,
      orderId: o.orderId,
      paymentIntentId: auth.paymentIntentId,
      amountCents: 1000,
      reason: "shipment_cancelled",
    });
    expect(r).toEqual({ status: "queued", refundId: null });
    const refund = (await getPaymentByKey(db, `${o.workflowId}:refund:1`))!;
    expect(refund).toMatchObject({
      status: "failed:payment_intent_unexpected_state",
      queued: true,
    });
    expect(await getHeldPayment(db, refund.id)).toMatchObject({
      need: "staff",
      reason: "payment_intent_unexpected_state",
      retry: { paymentIntentId: auth.paymentIntentId, reason: "shipment_cancelled" },
    });

    await acts.releaseSellerPayout({
      idempotencyKey: `${o.workflowId}:payout:1`,
      orderId: o.orderId,
      retailerId: o.seller.retailer.id,
      amountCents: 2000,
    });
    const payout = (await getPaymentByKey(db, `${o.workflowId}:payout:1`))!;
    expect(await getHeldPayment(db, payout.id)).toMatchObject({
      need: "payout",
      reason: "no_payout_account",
      retry: { transferGroup: `order-${o.orderId}` },
    });
  });
});

describe("retrying", () => {
  test("no card yet: still held (told once); a card added marks it due; the retry charges it once, under a new key", async () => {
    const { o, key, paymentId } = await penaltyHeld();
    expect(await held.retryHeldPayment({ paymentId, actorId: null })).toEqual({
      paymentId,
      outcome: "held",
    });
    expect(await heldMails(paymentId)).toHaveLength(1);
    expect(await intentsOf(o.orderId)).toEqual([]);

    await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: o.seller.retailer.id,
      paymentMethod: TEST_VISA,
    });
    expect(await markHeldPaymentsDue(db, o.seller.retailer.id, "card")).toBe(1);
    expect((await dueHeldPayments(db, 100)).map((d) => d.paymentId)).toContain(paymentId);

    expect(await held.retryHeldPayment({ paymentId, actorId: null })).toEqual({
      paymentId,
      outcome: "paid",
    });
    const intents = await intentsOf(o.orderId);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      amount: 500,
      metadata: { idempotency_key: `${key}:retry-2`, step: "penalty" },
    });
    expect(await getPaymentByKey(db, key)).toMatchObject({
      status: "succeeded",
      queued: false,
      providerRef: intents[0].id,
    });
    expect(await getHeldPayment(db, paymentId)).toMatchObject({ resolution: "paid", attempts: 2 });
    expect((await listOpenHeldPayments(db)).map((r) => r.paymentId)).not.toContain(paymentId);
    // Again (a second click, the relay): it has ended, nothing is sent.
    expect(await held.retryHeldPayment({ paymentId, actorId: null })).toEqual({
      paymentId,
      outcome: "ended",
    });
    expect(await intentsOf(o.orderId)).toHaveLength(1);
    expect((await listHeldPaymentEvents(db, paymentId)).map((e) => e.action)).toEqual([
      "held",
      "refused",
      "retried",
      "paid",
    ]);
  });

  test("an attempt the provider made but we never recorded is found by its key: no second charge", async () => {
    const { o, key, paymentId } = await penaltyHeld();
    const saved = await acts.saveCardOnFile({
      idempotencyKey: `save-${uid()}`,
      retailerId: o.seller.retailer.id,
      paymentMethod: TEST_VISA,
    });
    if (saved.status !== "saved") throw new Error("card not saved");
    // A retry claimed its attempt and the provider charged it, then the worker died before recording it.
    const nextKey = `${key}:retry-2`;
    expect(await claimNewAttempt(db, { paymentId, lastKey: key, nextKey, actorId: null })).toBe(
      true,
    );
    // A second retry racing the first cannot claim the same attempt.
    expect(
      await claimNewAttempt(db, { paymentId, lastKey: key, nextKey: `${key}:x`, actorId: null }),
    ).toBe(false);
    const card = (await getCardOnFile(db, o.seller.retailer.id))!;
    const charged = await sandbox.chargeSavedCard({
      idempotencyKey: nextKey,
      amountCents: 500,
      customerId: card.providerCustomerId!,
      paymentMethodId: card.providerPaymentMethodId,
      description: "Penalty",
      metadata: { order_id: String(o.orderId), step: "penalty", idempotency_key: nextKey },
    });

    expect(await held.retryHeldPayment({ paymentId, actorId: null })).toEqual({
      paymentId,
      outcome: "paid",
    });
    expect(await intentsOf(o.orderId)).toHaveLength(1);
    expect(await getPaymentByKey(db, key)).toMatchObject({
      providerRef: charged.paymentIntentId,
      queued: false,
    });
  });

  test("the sandbox answers 'did not happen' for a refused key and an unknown one", async () => {
    const o = await orderWith();
    const key = `${o.workflowId}:refund:9`;
    expect(await sandbox.findMovementByKey({ idempotencyKey: key, kind: "refund" })).toBeNull();
    await expect(
      sandbox.refundPayment({
        idempotencyKey: key,
        paymentIntentId: "pi_none",
        amountCents: 100,
        metadata: {},
      }),
    ).rejects.toThrow();
    expect(await sandbox.findMovementByKey({ idempotencyKey: key, kind: "refund" })).toBeNull();
  });
});

describe("staff", () => {
  test("settled outside the platform or written off: once, audited with the note and who did it", async () => {
    const staff = await createStaffUser(db, { permissions: [PAYMENTS_ATTENTION_PERMISSION] });
    const a = await penaltyHeld();
    const b = await penaltyHeld();
    expect(
      await resolveHeldPayment(db, {
        paymentId: a.paymentId,
        actorId: staff.id,
        resolution: "settled",
        note: "Paid by cheque 1042",
      }),
    ).toBe(true);
    expect(
      await resolveHeldPayment(db, {
        paymentId: a.paymentId,
        actorId: staff.id,
        resolution: "written_off",
        note: null,
      }),
    ).toBe(false);
    expect(
      await resolveHeldPayment(db, {
        paymentId: b.paymentId,
        actorId: staff.id,
        resolution: "written_off",
        note: null,
      }),
    ).toBe(true);
    expect(await getPaymentByKey(db, a.key)).toMatchObject({
      status: "settled_outside",
      queued: false,
    });
    expect(await getPaymentByKey(db, b.key)).toMatchObject({
      status: "written_off",
      queued: false,
    });
    expect(await getHeldPayment(db, a.paymentId)).toMatchObject({
      resolution: "settled",
      resolutionNote: "Paid by cheque 1042",
      resolvedBy: staff.id,
    });
    const events = await listHeldPaymentEvents(db, a.paymentId);
    expect(events.at(-1)).toMatchObject({
      action: "settled",
      note: "Paid by cheque 1042",
      actorEmail: staff.email,
    });
    const open = (await listOpenHeldPayments(db)).map((r) => r.paymentId);
    expect(open).not.toContain(a.paymentId);
    expect(open).not.toContain(b.paymentId);
    // A retry of an ended movement sends nothing.
    expect(await held.retryHeldPayment({ paymentId: b.paymentId, actorId: null })).toMatchObject({
      outcome: "ended",
    });
  });

  test("the daily list: one e-mail per staff user with the permission, once a day", async () => {
    await penaltyHeld();
    const withRight = await createStaffUser(db, { permissions: [PAYMENTS_ATTENTION_PERMISSION] });
    const without = await createStaffUser(db, { permissions: [] });
    const day = `2099-01-${String(1 + Math.floor(Math.random() * 27)).padStart(2, "0")}-${uid()}`;
    expect(await queueHeldPaymentsDigest(db, day, new Date())).toBeGreaterThan(0);
    expect(await queueHeldPaymentsDigest(db, day, new Date())).toBe(0);
    const mine = await db
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.toEmail, withRight.email),
          eq(outboxEmails.kind, "payment:held-digest"),
        ),
      );
    expect(mine).toHaveLength(1);
    expect(mine[0].subject).toMatch(/^Payments needing attention: \d+ open$/);
    expect(mine[0].bodyText).toContain("Penalty $5.00");
    const theirs = await db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.toEmail, without.email));
    expect(theirs).toEqual([]);
  });
});

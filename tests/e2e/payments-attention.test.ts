/**
 * In Chromium: "Payments needing attention" (docs/decisions/0044-payments-needing-attention.md). Three penalties
 * are held (their sellers had no card on file); the seller of one sees it on /alerts with what to do. A staff
 * user with the permission finds the screen from the admin hub: "Retry now" on the one whose seller has since
 * saved a card (the worker's retry charges it once and it leaves the list), "Settled outside the platform"
 * refused without a note then recorded with one, "Write off". Each is in the audit with who did it. Below, a
 * difference the nightly reconciliation found is resolved the same way: refused without a note, then resolved
 * with one, it leaves the open list for the resolved one with who and why, audited
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md). The seller and a staff user without the
 * permission are refused the screen and its actions (nothing changed); a post without a note answers 400, a
 * second resolution 409.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { getHeldPayment, listHeldPaymentEvents } from "../../db/queries/held-payments";
import { getPaymentByKey } from "../../db/queries/payments";
import { listDifferenceEvents, recordDifferences } from "../../db/queries/reconciliation";
import { heldPayments, reconciliationDifferences } from "../../db/schema";
import { PAYMENTS_ATTENTION_PERMISSION } from "../../domain/held-payments";
import { createStaffUser, DEFAULT_TEST_PASSWORD, uniqueToken } from "../factories";
import { draftPurchase, sandboxBuyActivities } from "../db/buy-fixtures";
import { db, launchBrowser, signedIn, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
const tok = uniqueToken();
const staffEmail = `pa-staff-${tok}@example.test`;
const plainStaffEmail = `pa-plain-${tok}@example.test`;
let staffId: number;

type Held = Awaited<ReturnType<typeof holdPenalty>>;
let retried: Held;
let settled: Held;
let writtenOff: Held;
/** Two differences the nightly reconciliation found: one staff resolve in the walk, one the refusals leave open. */
let differenceId: number;
let untouchedDifferenceId: number;

/** A provider object no ledger row holds (missing with us), recorded as the nightly run would. */
async function plantDifference(name: string): Promise<number> {
  const key = `pa-stray-${name}-${tok}`;
  await recordDifferences(db(), "2026-01-15", [
    {
      kind: "missing_with_us",
      idempotencyKey: key,
      paymentId: null,
      ledgerCents: null,
      providerCents: 700,
      providerRef: `tr_${name}_${tok}`,
    },
  ]);
  const [d] = await db()
    .select({ id: reconciliationDifferences.id })
    .from(reconciliationDifferences)
    .where(eq(reconciliationDifferences.idempotencyKey, key));
  return d.id;
}

/** A penalty held for want of a card: its seller (and the seller's sign-in e-mail), key and payment id. */
async function holdPenalty() {
  const payments = new SandboxPayments(db());
  const acts = sandboxBuyActivities(db(), {
    payments: payments,
    appOrigin: "http://localhost:3100",
  });
  const { f, o } = await draftPurchase(db());
  const key = `${o.workflowId}:penalty:1`;
  await acts.chargeSellerPenalty({
    idempotencyKey: key,
    orderId: o.orderId,
    retailerId: f.seller.retailer.id,
    amountCents: 900,
  });
  const paymentId = (await getPaymentByKey(db(), key))!.id;
  return { acts, seller: f.seller, order: o, key, paymentId };
}

beforeAll(async () => {
  browser = await launchBrowser();
  staffId = (
    await createStaffUser(db(), { email: staffEmail, permissions: [PAYMENTS_ATTENTION_PERMISSION] })
  ).id;
  await createStaffUser(db(), { email: plainStaffEmail, permissions: [] });
  [retried, settled, writtenOff] = [await holdPenalty(), await holdPenalty(), await holdPenalty()];
  differenceId = await plantDifference("resolved");
  untouchedDifferenceId = await plantDifference("untouched");
  // The first seller has saved a card since (without the card workflow: nothing marks it due, staff retry it).
  await retried.acts.saveCardOnFile({
    idempotencyKey: `pa-card-${tok}`,
    retailerId: retried.seller.retailer.id,
    paymentMethod: { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" },
  });
}, 120_000);

const rowOf = (page: Page, h: Held) =>
  page.locator(`[data-testid="held-payment"][data-payment="${h.paymentId}"]`);
const open = async (id: number) =>
  (await db().select().from(heldPayments).where(eq(heldPayments.paymentId, id)))[0]?.resolvedAt ===
  null;
const differenceRow = (page: Page, id: number) =>
  page.locator(`[data-testid="reconciliation-difference"][data-difference="${id}"]`);
const differenceOpen = async (id: number) =>
  (
    await db().select().from(reconciliationDifferences).where(eq(reconciliationDifferences.id, id))
  )[0]?.resolvedAt === null;

describe("payments needing attention", () => {
  it("the seller is told on /alerts what is held and what to do", async () => {
    const page = await signedIn(browser, settled.seller.user!.email, { at: "/alerts" });
    const alert = page.getByTestId("held-alert");
    await expect(alert.innerText()).resolves.toContain(
      `A penalty of $9.00 for order ${settled.order.externalId} is on hold.`,
    );
    await expect(page.getByTestId("held-alert-todo").getAttribute("href")).resolves.toBe(
      "/settings/card",
    );
  });

  it("staff retry one, settle one with a note (refused without), write one off, resolve a difference with a note: each leaves its list, audited", async () => {
    const page = await signedIn(browser, staffEmail);
    await page.getByRole("link", { name: "Payments needing attention" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/payments-attention");
    for (const h of [retried, settled, writtenOff]) {
      const row = rowOf(page, h);
      await expect(row.innerText()).resolves.toContain(h.seller.retailer.storeName);
      await expect(row.innerText()).resolves.toContain("No card on file");
    }

    // Retry now: the worker asks the provider, then charges the card saved since, once.
    await rowOf(page, retried).getByRole("button", { name: "Retry now" }).click();
    await page.getByTestId("held-notice").waitFor();
    await expect.poll(() => open(retried.paymentId), { timeout: 30_000 }).toBe(false);
    expect(await getPaymentByKey(db(), retried.key)).toMatchObject({
      status: "succeeded",
      queued: false,
    });
    await page.reload();
    await expect(rowOf(page, retried).count()).resolves.toBe(0);

    // Settled outside the platform: a note is required.
    await rowOf(page, settled)
      .getByRole("button", { name: "Settled outside the platform" })
      .click();
    await expect(rowOf(page, settled).getByText("Say how it was settled.").count()).resolves.toBe(
      1,
    );
    expect(await open(settled.paymentId)).toBe(true);
    await rowOf(page, settled).getByLabel("Note").fill("Paid by bank transfer, ref 88");
    await rowOf(page, settled)
      .getByRole("button", { name: "Settled outside the platform" })
      .click();
    await rowOf(page, settled).waitFor({ state: "detached" });
    await expect(page.getByTestId("held-notice").innerText()).resolves.toContain(
      "Recorded as settled outside the platform.",
    );

    await rowOf(page, writtenOff).getByRole("button", { name: "Write off" }).click();
    await rowOf(page, writtenOff).waitFor({ state: "detached" });

    expect(await getHeldPayment(db(), settled.paymentId)).toMatchObject({
      resolution: "settled",
      resolutionNote: "Paid by bank transfer, ref 88",
      resolvedBy: staffId,
    });
    expect(await getPaymentByKey(db(), writtenOff.key)).toMatchObject({ status: "written_off" });
    for (const [h, action] of [
      [retried, "retried"],
      [settled, "settled"],
      [writtenOff, "written_off"],
    ] as const) {
      const events = await listHeldPaymentEvents(db(), h.paymentId);
      expect(events.find((e) => e.action === action)?.actorEmail).toBe(staffEmail);
    }

    // A difference between the ledger and the provider: resolved with a note (refused without one).
    const diff = differenceRow(page, differenceId);
    await expect(diff.innerText()).resolves.toContain("Missing in our ledger");
    await diff.getByRole("button", { name: "Resolve" }).click();
    await expect(diff.getByText("Say why the difference is resolved.").count()).resolves.toBe(1);
    expect(await differenceOpen(differenceId)).toBe(true);
    await diff.getByLabel("Note").fill("A test transfer made by hand in the dashboard");
    await diff.getByRole("button", { name: "Resolve" }).click();
    await diff.waitFor({ state: "detached" });
    await expect(page.getByTestId("held-notice").innerText()).resolves.toContain(
      "The difference is resolved.",
    );
    const resolved = page.locator(
      `[data-testid="resolved-difference"][data-difference="${differenceId}"]`,
    );
    await expect(resolved.innerText()).resolves.toContain(
      `by ${staffEmail}: A test transfer made by hand in the dashboard`,
    );
    expect(await listDifferenceEvents(db(), differenceId)).toEqual([
      expect.objectContaining({ action: "resolved", actorEmail: staffEmail }),
    ]);
  });

  it("a retailer and a staff user without the permission are refused the screen and its actions", async () => {
    const h = await holdPenalty();
    const seller = new HttpClient();
    await seller.signIn(h.seller.user!.email, DEFAULT_TEST_PASSWORD);
    const asSeller = await seller.get("/admin/payments-attention");
    expect(asSeller.status).toBe(302);
    expect(asSeller.location).toBe("/error/");
    expect(
      (
        await seller.postForm("/admin/payments-attention", {
          intent: "writeOff",
          paymentId: String(h.paymentId),
        })
      ).status,
    ).toBe(302);

    const plain = new HttpClient();
    await plain.signIn(plainStaffEmail, DEFAULT_TEST_PASSWORD);
    expect((await plain.get("/admin/payments-attention")).status).toBe(403);
    expect(
      (
        await plain.postForm("/admin/payments-attention", {
          intent: "writeOff",
          paymentId: String(h.paymentId),
        })
      ).status,
    ).toBe(403);
    expect(await open(h.paymentId)).toBe(true);
    const resolveIt = { intent: "resolveDifference", differenceId: String(untouchedDifferenceId) };
    expect(
      (await seller.postForm("/admin/payments-attention", { ...resolveIt, note: "x" })).status,
    ).toBe(302);
    expect(
      (await plain.postForm("/admin/payments-attention", { ...resolveIt, note: "x" })).status,
    ).toBe(403);
    // Staff with the permission, without a note: 400 with the message.
    const staff = new HttpClient();
    await staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD);
    const noNote = await staff.postForm("/admin/payments-attention", { ...resolveIt, note: " " });
    expect(noNote.status).toBe(400);
    expect(noNote.body).toContain("Say why the difference is resolved.");
    expect(await differenceOpen(untouchedDifferenceId)).toBe(true);
    // The one resolved in the walk: a second resolution is refused, its audit keeps one entry.
    const again = await staff.postForm("/admin/payments-attention", {
      intent: "resolveDifference",
      differenceId: String(differenceId),
      note: "again",
    });
    expect(again.status).toBe(409);
    expect(await listDifferenceEvents(db(), differenceId)).toHaveLength(1);
    const page = await signedIn(browser, plainStaffEmail, { at: null });
    await page.goto(url("/admin"));
    await expect(
      page.getByRole("link", { name: "Payments needing attention" }).count(),
    ).resolves.toBe(0);
  });
});

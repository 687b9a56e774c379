/**
 * In Chromium: "Payments needing attention" (docs/decisions/0044-payments-needing-attention.md). Three penalties
 * are held (their sellers had no card on file); the seller of one sees it on /alerts with what to do. A staff
 * user with the permission finds the screen from the admin hub: "Retry now" on the one whose seller has since
 * saved a card (the worker's retry charges it once and it leaves the list), "Settled outside the platform"
 * refused without a note then recorded with one, "Write off". Each is in the audit with who did it. The seller
 * and a staff user without the permission are refused the screen and its actions (nothing changed).
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { SandboxPayments } from "../../activities/payments/sandbox";
import { getHeldPayment, listHeldPaymentEvents } from "../../db/queries/held-payments";
import { getPaymentByKey } from "../../db/queries/payments";
import { heldPayments } from "../../db/schema";
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

  it("staff retry one, settle one with a note (refused without), write one off: each leaves the list, audited", async () => {
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
    const page = await signedIn(browser, plainStaffEmail);
    await page.goto(url("/admin"));
    await expect(
      page.getByRole("link", { name: "Payments needing attention" }).count(),
    ).resolves.toBe(0);
  });
});

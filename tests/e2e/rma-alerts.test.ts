/**
 * The perpetrator's alerts in Chromium (docs/product/screens.md, "Alerts" and "My returns"): a buyer files an RMA
 * through the wizard (the RMA workflow runs); the seller's /alerts shows it under "Returns filed against you"
 * with a bell, the buyer only as retailer-00{id}, and a link to the RMA page; opening the RMA clears it; the
 * seller is e-mailed. Staff decide it: the alert comes back with the decision and what the seller will be
 * charged, and the decision's e-mail says the same. The buyer (the victim) opening the RMA does not clear the
 * seller's alert. A swap whose two sides each filed an RMA: each side's /rma lists both, its own as "Filed by
 * you" and the other's as "Filed against you", and the swap's page links it to both.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { retailerNoticeAddress } from "../../db/queries/order-steps";
import { orders } from "../../db/schema";
import { formatCents } from "../../domain/money";
import { createStaffUser, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { createOrderAt } from "../factories/orders";
import { createSwapRmaSides, type SwapRmaSides } from "../factories/rma-sides";
import { fileOneUnitRma } from "./buy-helpers";
import { db, launchBrowser, signedIn, uniqueEmail, url, waitForEmail } from "./harness";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const SELLER = { email: uniqueEmail("rma-alert-seller"), storeName: `Alert Seller Store ${tok}` };
const BUYER = { email: uniqueEmail("rma-alert-buyer"), storeName: `Alert Buyer Store ${tok}` };
const SWAP_A = { email: uniqueEmail("rma-swap-a"), storeName: `Swap A Store ${tok}` };
const SWAP_B = { email: uniqueEmail("rma-swap-b"), storeName: `Swap B Store ${tok}` };
const staffEmail = uniqueEmail("rma-alert-staff");
let sellerId: number;
let buyerId: number;
let orderId: number;
let swap: SwapRmaSides;
/** What the filing e-mails said the RMA comes to as asked. */
let askedCharge: string | undefined;
let askedRefund: string | undefined;
let seller: Page;
let buyer: Page;

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `AlertBrand ${tok}` },
    products: [{ sku: `AL${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
    retailers: {
      seller: { payout: true, storeName: SELLER.storeName, user: { email: SELLER.email } },
      buyer: { payout: true, storeName: BUYER.storeName, user: { email: BUYER.email } },
    },
  });
  sellerId = world.retailers.seller.retailer.id;
  buyerId = world.retailers.buyer.retailer.id;
  await createStaffUser(db(), { email: staffEmail });
  const delivered = await createOrderAt(db(), "delivered", {
    providerId: sellerId,
    receiverId: buyerId,
    lines: [{ variationId: world.variation.id, sizes: { S: 2 } }],
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  orderId = delivered.order.id;
  swap = await createSwapRmaSides(db(), tok, { provider: SWAP_A, receiver: SWAP_B });
  browser = await launchBrowser();
}, 120_000);

const alertOf = (p: Page, externalId: string) =>
  p.locator(`[data-testid=rma-alert][data-rma="${externalId}"]`);

/** Reloads /alerts until the RMA's alert shows with `status` (the workflow records its steps asynchronously). */
async function alertUntil(p: Page, externalId: string, status: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await p.goto(url("/alerts"));
    const a = alertOf(p, externalId);
    if ((await a.count()) > 0 && (await a.getByTestId("rma-alert-status").textContent()) === status)
      return a;
    if (Date.now() > end) throw new Error(`no alert for ${externalId} with status ${status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("the perpetrator's bell", () => {
  it("an RMA filed against the seller shows in its alerts with the RMA link, and is e-mailed; opening it clears it", async () => {
    buyer = await signedIn(browser, BUYER.email);
    // A reason that ships the unit back: staff's approval books the return and the charge waits for its delivery.
    await fileOneUnitRma(buyer, orderId, { otherText: "Wrong colour, will ship it back" });
    await buyer.waitForURL((u) => u.pathname === "/" && u.searchParams.get("rma") === "complete");
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, orderId));

    seller = await signedIn(browser, SELLER.email);
    const alert = await alertUntil(seller, rma.externalId, "RMA Requested");
    await expect(seller.getByTestId("bell-returns").textContent()).resolves.toBe("🔔 1");
    await expect(alert.getByTestId("rma-alert-other").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await expect(alert.textContent()).resolves.toContain(
      `filed against you by retailer-00${buyerId}`,
    );
    await expect(alert.getByTestId("rma-alert-money").textContent()).resolves.toBe(
      "Staff will review it and tell you the outcome.",
    );
    expect(await seller.content()).not.toContain(BUYER.storeName);

    const mail = await waitForEmail((await retailerNoticeAddress(db(), sellerId))!, {
      subject: rma.externalId,
    });
    expect(mail.kind).toBe("rma:rma_requested_perpetrator");
    expect(mail.bodyText).toContain(`/rma/${rma.id}`);
    expect(`${mail.subject} ${mail.bodyText}`).toContain(`retailer-00${buyerId}`);
    expect(`${mail.subject} ${mail.bodyText}`).not.toContain(BUYER.storeName);
    // Filing states the money as asked, as the decision's e-mail does; the buyer who filed is told too.
    askedCharge = mail.bodyText.match(
      /If staff approve it as asked, you will be charged (\$[\d,.]+)\./,
    )?.[1];
    expect(askedCharge).toBeTruthy();
    const filed = await waitForEmail((await retailerNoticeAddress(db(), buyerId))!, {
      subject: `Your return request RMA ${rma.externalId} was sent`,
    });
    expect(filed.kind).toBe("rma:rma_requested_victim");
    askedRefund = filed.bodyText.match(
      /If staff approve it as asked, you will get back (\$[\d,.]+)\./,
    )?.[1];
    expect(askedRefund).toBeTruthy();
    expect(filed.bodyText).toContain(`/rma/${rma.id}`);
    expect(filed.bodyText).toContain(`retailer-00${sellerId}`);
    expect(filed.bodyText).not.toContain(SELLER.storeName);

    // The victim opening its RMA does not clear the seller's alert.
    await buyer.goto(url(`/rma/${rma.id}`));
    await buyer.getByTestId("rma-page").waitFor();
    await seller.goto(url("/alerts"));
    expect(await alertOf(seller, rma.externalId).count()).toBe(1);

    await Promise.all([
      seller.waitForURL(new RegExp(`/rma/${rma.id}$`)),
      alert.getByTestId("rma-alert-link").click(),
    ]);
    await expect(seller.getByTestId("counterparty").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await seller.goto(url("/alerts"));
    expect(await seller.getByTestId("rma-alerts").count()).toBe(0);
  });

  it("staff's decision brings the alert back with the decision and what the seller will be charged; the e-mail says it too", async () => {
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, orderId));
    const staff = await signedIn(browser, staffEmail, { at: null });
    await staff.goto(url(`/admin/active-rmas/pending?rma=${rma.id}`));
    await staff.getByTestId("admin-rma-card").waitFor();
    await staff.getByTestId("rma-decide-line").locator('input[value="approve"]').check();
    await staff.getByTestId("rma-decide-line").locator('input[name$=".qty"]').fill("1");
    await staff.getByTestId("rma-fee").fill("5.00");
    await staff.getByTestId("rma-process-staff").click();
    await staff.getByTestId("rma-review").waitFor();
    await staff.getByTestId("rma-confirm-staff").click();
    await staff.getByTestId("admin-notice").waitFor();

    const alert = await alertUntil(seller, rma.externalId, "Return Shipping");
    const [decided] = await db().select().from(orders).where(eq(orders.id, rma.id));
    const charge = formatCents(Number(decided.ledger?.perpetratorChargeCents));
    expect(Number(decided.ledger?.perpetratorChargeCents)).toBeGreaterThan(0);
    // Staff approved the unit as asked and added a $5.00 fee: the filing e-mails' amounts, plus the fee.
    expect(formatCents(Number(decided.ledger?.perpetratorChargeCents) - 500)).toBe(askedCharge);
    expect(formatCents(Number(decided.ledger?.victimRefundCents))).toBe(askedRefund);
    await expect(alert.getByTestId("rma-alert-money").textContent()).resolves.toBe(
      `You will be charged: ${charge}.`,
    );
    const mail = await waitForEmail((await retailerNoticeAddress(db(), sellerId))!, {
      subject: `RMA ${rma.externalId} approved`,
    });
    expect(mail.bodyText).toContain(`You will be charged ${charge} once the return is delivered.`);
    expect(mail.bodyText).toContain(`/rma/${rma.id}`);

    await Promise.all([
      seller.waitForURL(new RegExp(`/rma/${rma.id}$`)),
      alert.getByTestId("rma-alert-link").click(),
    ]);
    await expect(seller.getByTestId("rma-money").textContent()).resolves.toContain(
      `Charged to you: ${charge}`,
    );
    expect(await seller.content()).not.toContain(BUYER.storeName);
  });

  it("a malformed or foreign RMA id is a 404, and an unknown alerts action a 400", async () => {
    expect((await seller.goto(url("/rma/not-a-number")))?.status()).toBe(404);
    expect((await seller.goto(url(`/rma/${swap.rmas[0].id}`)))?.status()).toBe(404);
    const res = await seller.request.post(url("/alerts"), {
      form: { intent: "bogus" },
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(res.status()).toBe(400);
  });
});

describe("a swap whose two sides each filed an RMA", () => {
  it("each side's /rma lists both: its own as filed by it, the other's as filed against it", async () => {
    const [own, other] = [swap.rmas[0], swap.rmas[1]];
    for (const [who, mine, theirs, otherId, hidden] of [
      [SWAP_A, own, other, swap.receiverId, SWAP_B.storeName],
      [SWAP_B, other, own, swap.providerId, SWAP_A.storeName],
    ] as const) {
      const p = await signedIn(browser, who.email, { at: null });
      await p.goto(url("/rma"));
      await p.getByTestId("rma-list").waitFor();
      expect(await p.getByTestId("rma-row").count()).toBe(2);
      const row = (externalId: string) =>
        p.locator(`[data-testid=rma-row][data-rma="${externalId}"]`);
      await expect(row(mine.externalId).getByTestId("rma-side").textContent()).resolves.toBe(
        "Filed by you",
      );
      await expect(row(theirs.externalId).getByTestId("rma-side").textContent()).resolves.toBe(
        "Filed against you",
      );
      for (const r of [mine, theirs]) {
        await expect(row(r.externalId).getByTestId("rma-other").textContent()).resolves.toBe(
          `retailer-00${otherId}`,
        );
        await expect(row(r.externalId).textContent()).resolves.toContain(swap.swap.externalId);
      }
      expect(await p.content()).not.toContain(hidden);
      // The swap's page links the side to both: its own RMA and the one filed against it.
      await p.goto(url(`/transaction/swap/${swap.swap.id}`));
      const links = p.getByTestId("rma-link");
      await links.first().waitFor();
      expect(
        await links.evaluateAll((ls) =>
          ls.map((l) => [l.getAttribute("data-side"), l.getAttribute("href")]),
        ),
      ).toEqual([
        ["victim", `/rma/${mine.id}`],
        ["perpetrator", `/rma/${theirs.id}`],
      ]);
      expect(await p.content()).not.toContain(hidden);
    }
  });
});

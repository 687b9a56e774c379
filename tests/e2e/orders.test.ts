/**
 * The order pages in Chromium against orders written straight into the read model (tests/factories/orders.ts):
 * /alerts (tabs, bell badges, pending vs declined, empty states verbatim with links only in the pending view,
 * seen-marking), /orders (tabs, Delivered filter, Outgoing / Incoming), the transaction detail (action panel
 * by state name, "You:" / "Other Retailer:" reasons, payments with method and last four, "payment is queued
 * for processing.", "Released from escrow" with its date, the RMA button only within 48 h of delivery, the
 * buyer's rating read-only or "Not Yet Rated"), a rejected command answered with the workflow's message and a
 * 4xx, the packing slip and shipper checklist PDFs (text extracted with pdftotext), the staff screens, and
 * anonymity: at no point does a retailer's page or PDF carry the other party's store name.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { orders } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import {
  alertsEmptyText,
  NOT_YET_RATED,
  PAYMENT_QUEUED,
  RMA_PRINTED_TEXTS,
} from "../../domain/messages";
import { BUY_ERRORS } from "../../workflows/buy/contract";
import { RMA_WIZARD_MESSAGES } from "../../app/utils/rma.server";
import { SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import {
  addOrderAction,
  addPayment,
  addRating,
  createOrderAt,
  type CreatedOrder,
} from "../factories/orders";
import {
  baseUrl,
  closePage,
  db,
  launchBrowser,
  signedIn,
  signInAs,
  uniqueEmail,
  url,
} from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const sellerEmail = uniqueEmail("orders-seller");
const buyerEmail = uniqueEmail("orders-buyer");
const outsiderEmail = uniqueEmail("orders-outsider");
const staffEmail = uniqueEmail("orders-staff");
const SELLER_NAME = `Seller Secret Boutique ${tok}`;
const BUYER_NAME = `Buyer Hidden Emporium ${tok}`;
let sellerId: number;
let buyerId: number;
let variationId: number;
let brandName: string;
const o: Record<string, CreatedOrder & { shipment?: unknown }> = {};
const pdfDir = mkdtempSync(path.join(tmpdir(), "orders-e2e-"));

let sellerPage: Page;
let buyerPage: Page;

function pdfText(bytes: Buffer, name: string): string {
  const f = path.join(pdfDir, `${name}.pdf`);
  writeFileSync(f, bytes);
  return execFileSync("pdftotext", ["-layout", f, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

/** The whole HTML (rendered text and the loader data sent to the browser). */
async function html(p: Page): Promise<string> {
  return p.content();
}

async function expectAnonymous(p: Page, otherName: string) {
  const h = await html(p);
  expect(h).not.toContain(otherName);
}

beforeAll(async () => {
  const { brand, products } = await createWorld(db(), {
    brand: { name: `OrdersBrand ${tok}` },
    products: [{ sku: `OR${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
  });
  const prod = products[0];
  brandName = brand.displayName || brand.name;
  variationId = prod.variations[0].id;
  sellerId = (
    await createRetailer(db(), {
      payout: true,
      storeName: SELLER_NAME,
      user: { email: sellerEmail },
    })
  ).retailer.id;
  buyerId = (
    await createRetailer(db(), { payout: true, storeName: BUYER_NAME, user: { email: buyerEmail } })
  ).retailer.id;
  await createRetailer(db(), { payout: true, user: { email: outsiderEmail } });
  await createStaffUser(db(), { email: staffEmail });
  const base = {
    providerId: sellerId,
    receiverId: buyerId,
    lines: [{ variationId, sizes: { S: 2, M: 1 } }],
  };
  o.waiting = await createOrderAt(db(), "provider_approve_sale", base);
  o.modified = await createOrderAt(db(), "receiver_approve_modified_purchase", {
    ...base,
    isModified: true,
    lines: [{ variationId, sizes: { S: 2, M: 1 }, pendingSizes: { S: 1 } }],
  });
  o.declined = await createOrderAt(db(), "declined", {
    ...base,
    reasons: { provider_decline_buy_reason: 12 },
  });
  o.expired = await createOrderAt(db(), "expired", base);
  o.ship = await createOrderAt(db(), "ship_order", base);
  o.route = await createOrderAt(db(), "in_route", base);
  o.delivered = await createOrderAt(db(), "delivered", {
    ...base,
    deliveredAt: new Date(Date.now() - 3_600_000),
  });
  o.old = await createOrderAt(db(), "delivered", {
    ...base,
    deliveredAt: new Date(Date.now() - 72 * 3_600_000),
  });
  await addRating(db(), o.old.order, { stars: 4, comments: "Well packed" });
  await addPayment(db(), o.route.order, {
    retailerId: sellerId,
    name: "penalty fee",
    txtype: "penalty",
    amountCents: 600,
    queued: true,
  });
  await db()
    .update(orders)
    .set({
      ledger: {
        authorizedCents: 8975,
        buyerPaidCents: 8975,
        goodsCents: 6000,
        feeCents: 600,
        shippingCents: 2375,
        sellerPaidCents: 6000,
        escrowCents: 0,
        balanced: true,
      },
    })
    .where(eq(orders.id, o.route.order.id));
  browser = await launchBrowser();
  sellerPage = await signedIn(browser, sellerEmail, { at: null });
  buyerPage = await signedIn(browser, buyerEmail, { at: null });
});

afterAll(async () => {
  if (sellerPage) await closePage(sellerPage);
  if (buyerPage) await closePage(buyerPage);
  rmSync(pdfDir, { recursive: true, force: true });
});

describe("alerts", () => {
  it("shows the seller's pending sales with a bell badge, anonymously, and clears the action count when a detail is opened", async () => {
    const p = sellerPage;
    await p.goto(url("/alerts"));
    await expect(p.getByTestId("bell-sales").textContent()).resolves.toContain("1");
    expect(await p.getByTestId("bell-purchases").count()).toBe(0);
    const card = p.locator(`[data-testid=order-card][data-order-id="${o.waiting.order.id}"]`);
    await expect(card.textContent()).resolves.toContain(`retailer-00${buyerId}`);
    await expect(card.textContent()).resolves.toContain(brandName);
    // The buyer's modified-purchase order is pending too (the buyer's move), the declined one is not here.
    expect(
      await p.locator(`[data-testid=order-card][data-order-id="${o.modified.order.id}"]`).count(),
    ).toBe(1);
    expect(
      await p.locator(`[data-testid=order-card][data-order-id="${o.declined.order.id}"]`).count(),
    ).toBe(0);
    await expect(p.getByTestId("action-count").textContent()).resolves.toContain("1 new update");
    await expectAnonymous(p, BUYER_NAME);

    await card.getByTestId("status-link").click();
    await p.waitForURL(`**/transaction/buy/${o.waiting.order.id}`);
    await p.getByTestId("go-back").click();
    await p.waitForURL("**/alerts");
    await p.getByTestId("alerts-page").waitFor();
    expect(await p.getByTestId("action-count").count()).toBe(0);
    await expect(p.getByTestId("bell-sales").textContent()).resolves.toContain("1");
  });

  it("shows the buyer's purchases and the declined view with its reason", async () => {
    const p = buyerPage;
    await p.goto(url("/alerts?tab=purchases"));
    await expect(p.getByTestId("bell-purchases").textContent()).resolves.toContain("1");
    expect(
      await p.locator(`[data-testid=order-card][data-order-id="${o.waiting.order.id}"]`).count(),
    ).toBe(1);
    await p.goto(url("/alerts?status=declined&tab=purchases"));
    const card = p.locator(`[data-testid=order-card][data-order-id="${o.declined.order.id}"]`);
    await expect(card.textContent()).resolves.toContain("Declined");
    // Only Declined: the expired order is not in the declined view.
    expect(
      await p.locator(`[data-testid=order-card][data-order-id="${o.expired.order.id}"]`).count(),
    ).toBe(0);
    await card.getByTestId("status-link").click();
    await p.waitForURL(`**/transaction/buy/${o.declined.order.id}`);
    await expect(p.getByTestId("reason").textContent()).resolves.toBe(
      "Other Retailer: I no longer want to sell at cost",
    );
    await expectAnonymous(p, SELLER_NAME);
    await sellerPage.goto(url(`/transaction/buy/${o.declined.order.id}`));
    await expect(sellerPage.getByTestId("reason").textContent()).resolves.toBe(
      "You: I no longer want to sell at cost",
    );
  });

  it("says the empty states verbatim, with the links only in the pending view", async () => {
    const p = await signedIn(browser, outsiderEmail, { at: null });
    await p.goto(url("/alerts?tab=swaps"));
    await expect(p.getByTestId("alerts-empty").textContent()).resolves.toContain(
      alertsEmptyText("pending", "swaps"),
    );
    expect(await p.getByTestId("empty-link").getAttribute("href")).toBe("/swap");
    await p.goto(url("/alerts?tab=sales"));
    expect(await p.getByTestId("empty-link").getAttribute("href")).toBe("/addlisting");
    await p.goto(url("/alerts?tab=purchases"));
    expect(await p.getByTestId("empty-link").getAttribute("href")).toBe("/requestlisting");
    await p.goto(url("/alerts?status=declined&tab=purchases"));
    await expect(p.getByTestId("alerts-empty").textContent()).resolves.toBe(
      alertsEmptyText("declined", "purchases"),
    );
    expect(await p.getByTestId("empty-link").count()).toBe(0);
    // Another retailer's order, by id: 404.
    const r = await p.goto(url(`/transaction/buy/${o.waiting.order.id}`));
    expect(r?.status()).toBe(404);
    const slip = await p.request.get(url(`/packingslip/${o.ship.order.externalId}/`));
    expect(slip.status()).toBe(404);
    await closePage(p);
  });
});

describe("orders", () => {
  it("lists approved orders with Outgoing / Incoming shipments and the Delivered filter", async () => {
    await sellerPage.goto(url("/orders"));
    const route = sellerPage.locator(
      `[data-testid=order-card][data-order-id="${o.route.order.id}"]`,
    );
    await expect(route.getByTestId("card-shipments").textContent()).resolves.toContain(
      "Outgoing: In-Route",
    );
    await buyerPage.goto(url("/orders/purchases"));
    const delivered = buyerPage.locator(
      `[data-testid=order-card][data-order-id="${o.delivered.order.id}"]`,
    );
    await expect(delivered.getByTestId("card-shipments").textContent()).resolves.toContain(
      "Incoming: Delivered",
    );
    await buyerPage.goto(url("/orders/purchases?status=delivered&limit=50"));
    const ids = await buyerPage
      .locator("[data-testid=order-card]")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-order-id"))));
    expect(ids.sort()).toEqual([o.delivered.order.id, o.old.order.id].sort());
    await buyerPage.goto(url("/orders/swaps"));
    await expect(buyerPage.getByTestId("orders-empty").textContent()).resolves.toBe(
      "You have no approved swaps at this time.",
    );
    expect((await buyerPage.goto(url("/orders/nonsense")))?.status()).toBe(404);
    await expectAnonymous(buyerPage, SELLER_NAME);
  });
});

describe("detail", () => {
  it("gives the seller the provider-approve panel: Approve Sale becomes Submit response when units change; a decline needs a reason", async () => {
    const p = sellerPage;
    await p.goto(url(`/transaction/buy/${o.waiting.order.id}`));
    expect(await p.getByTestId("order-detail").getAttribute("data-panel")).toBe("provider-approve");
    await expect(p.getByTestId("respond-submit").textContent()).resolves.toBe("Approve Sale");
    await p.waitForLoadState("networkidle"); // hydrated: the label follows the inputs
    await p.getByTestId("units-input").first().fill("0");
    await expect(p.getByTestId("respond-submit").textContent()).resolves.toBe("Submit response");
    await p.getByTestId("decline-submit").click();
    await expect(p.getByTestId("decline-error").textContent()).resolves.toBe(
      "Please choose a reason for declining.",
    );
    await expect(p.getByTestId("counterparty").textContent()).resolves.toBe(
      `retailer-00${buyerId}`,
    );
    await expectAnonymous(p, BUYER_NAME);
  });

  it("asks the seller for a card to approve, and still offers Decline (Decline and Approve Sale)", async () => {
    const paying = await createOrderAt(db(), "payment", {
      providerId: sellerId,
      receiverId: buyerId,
      lines: [{ variationId, sizes: { L: 1 } }],
    });
    await sellerPage.goto(url(`/transaction/buy/${paying.order.id}`));
    const panel = sellerPage.getByTestId("panel-payment");
    await panel.waitFor();
    expect(await panel.getByTestId("decline-submit").textContent()).toBe("Decline");
  });

  it("answers a command on an order whose workflow is not running with the workflow's message and a 4xx, never a 500", async () => {
    const p = sellerPage;
    await p.goto(url(`/transaction/buy/${o.waiting.order.id}`));
    const [resp] = await Promise.all([
      p.waitForResponse(
        (r) =>
          r.request().method() === "POST" &&
          r.url().includes(`/transaction/buy/${o.waiting.order.id}`),
      ),
      p.getByTestId("respond-submit").click(),
    ]);
    expect(resp.status()).toBeGreaterThanOrEqual(400);
    expect(resp.status()).toBeLessThan(500);
    await expect(p.getByTestId("action-error").textContent()).resolves.toBe(BUY_ERRORS.wrong_state);
  });

  it("gives the buyer the modified purchase to approve or decline, showing the modified units", async () => {
    const p = buyerPage;
    await p.goto(url(`/transaction/buy/${o.modified.order.id}`));
    expect(await p.getByTestId("order-detail").getAttribute("data-panel")).toBe("provider-approve");
    await expect(p.getByTestId("display-status").textContent()).resolves.toBe(
      "Approve/Decline Modified Purchase",
    );
    expect(await p.getByTestId("approve-modified-submit").count()).toBe(1);
    await expect(p.getByTestId("pending-sizes").first().textContent()).resolves.toBe("S × 1");
  });

  it("shows the shipment-pending panel with the packing slip and the checklist; both PDFs are anonymous", async () => {
    const p = sellerPage;
    await p.goto(url(`/transaction/buy/${o.ship.order.id}`));
    expect(await p.getByTestId("order-detail").getAttribute("data-panel")).toBe("shipment-pending");
    const href = await p.getByTestId("packing-slip-link").getAttribute("href");
    expect(href).toBe(`/packingslip/${o.ship.order.externalId}/`);
    expect(await p.getByTestId("packing-slip-link").getAttribute("target")).toBe("_blank");
    expect(await p.getByTestId("form-cancel_shipment").count()).toBe(1);
    for (const [who, page] of [
      ["seller", sellerPage],
      ["buyer", buyerPage],
    ] as const) {
      const slip = await page.request.get(url(href!));
      expect(slip.status()).toBe(200);
      expect(slip.headers()["content-type"]).toBe("application/pdf");
      const text = pdfText(await slip.body(), `slip-${who}`);
      expect(text).toContain(o.ship.order.externalId);
      expect(text).toContain(`retailer-00${sellerId}`);
      expect(text).toContain(`retailer-00${buyerId}`);
      expect(text).toContain(RMA_PRINTED_TEXTS.requestWindow);
      expect(text).not.toContain(SELLER_NAME);
      expect(text).not.toContain(BUYER_NAME);
    }
    // By an action id too.
    const actionId = (
      await addOrderAction(db(), o.ship.order, {
        code: ACTION.CALL_TAG_SCHEDULED_ORDER,
        role: "system",
        seenAt: new Date(),
      })
    ).id;
    expect((await p.request.get(url(`/packingslip/${actionId}/`))).status()).toBe(200);
    const checklist = await p.request.get(url(`/shipperchecklist/${o.ship.order.externalId}/`));
    expect(checklist.status()).toBe(200);
    const ct = pdfText(await checklist.body(), "checklist");
    expect(ct).toContain("Shipper Checklist");
    expect(ct).toContain(RMA_PRINTED_TEXTS.staffReply);
    expect(ct).not.toContain(BUYER_NAME);
  });

  it("shows payments with method and last four, the queued alert, and Released from escrow with its date", async () => {
    await buyerPage.goto(url(`/transaction/buy/${o.route.order.id}`));
    await expect(buyerPage.getByTestId("payment-method").first().textContent()).resolves.toBe(
      "Visa ending in 4242",
    );
    expect(await buyerPage.getByTestId("payment-queued").count()).toBe(0);
    await sellerPage.goto(url(`/transaction/buy/${o.route.order.id}`));
    await expect(sellerPage.getByTestId("payout-released").textContent()).resolves.toMatch(
      /^Released from escrow \d{2}\/\d{2}\/\d{4}$/,
    );
    await expect(sellerPage.getByTestId("payment-queued").textContent()).resolves.toBe(
      PAYMENT_QUEUED,
    );
    await sellerPage.goto(url(`/transaction/buy/${o.ship.order.id}`));
    expect(await sellerPage.getByTestId("payout-pending").count()).toBe(1);
  });

  it("offers the buyer the rating and the RMA button within 48 hours of delivery only; the seller sees the rating or Not Yet Rated", async () => {
    await buyerPage.goto(url(`/transaction/buy/${o.delivered.order.id}`));
    expect(await buyerPage.getByTestId("rate-link").count()).toBe(1);
    expect(await buyerPage.getByTestId("rma-button").count()).toBe(1);
    await buyerPage.goto(url(`/transaction/buy/${o.old.order.id}`));
    expect(await buyerPage.getByTestId("rma-button").count()).toBe(0);
    expect(await buyerPage.getByTestId("rate-link").count()).toBe(0);
    // After 48 hours the wizard says why, and a request posted anyway is refused (409) with nothing saved.
    await buyerPage.goto(url(`/create-rma/${o.old.order.id}`));
    await expect(buyerPage.getByTestId("rma-not-possible").textContent()).resolves.toContain(
      RMA_CLOSED,
    );
    const late = await buyerPage.request.post(url(`/create-rma/${o.old.order.id}`), {
      form: { step: "units" },
      headers: { Origin: baseUrl },
      maxRedirects: 0,
    });
    expect(late.status()).toBe(409);
    expect(await late.text()).toContain(RMA_CLOSED);
    expect(
      await db().select({ id: orders.id }).from(orders).where(eq(orders.rmaForId, o.old.order.id)),
    ).toEqual([]);

    await sellerPage.goto(url(`/transaction/buy/${o.delivered.order.id}`));
    await expect(sellerPage.getByTestId("buyer-rating").textContent()).resolves.toContain(
      NOT_YET_RATED,
    );
    await sellerPage.goto(url(`/transaction/buy/${o.old.order.id}`));
    await expect(sellerPage.getByTestId("buyer-rating").textContent()).resolves.toContain(
      "Well packed",
    );
    expect(await sellerPage.getByTestId("rate-link").count()).toBe(0);
  });

  it("opens the rating screen with the rating modal; a rating without stars is refused in the browser", async () => {
    const p = buyerPage;
    await p.goto(url(`/rate/${o.delivered.order.id}`));
    await expect(p.getByTestId("counterparty").textContent()).resolves.toBe(
      `retailer-00${sellerId}`,
    );
    expect(await p.getByTestId("rma-button").count()).toBe(1);
    await p.getByTestId("open-rating").click();
    await expect(p.locator("#rate-title").textContent()).resolves.toBe("Rate this Transaction");
    await p.getByTestId("submit-rating").click();
    expect(await p.getByTestId("rating-modal").locator(".alert-danger").count()).toBeGreaterThan(0);
    await expectAnonymous(p, SELLER_NAME);
    // The seller has nothing to rate here: sent to the order.
    await sellerPage.goto(url(`/rate/${o.delivered.order.id}`));
    expect(new URL(sellerPage.url()).pathname).toBe(`/transaction/buy/${o.delivered.order.id}`);
  });

  it("without JavaScript the rating form opens by its link; a rating without every star is refused (400) with the stars and comments kept", async () => {
    const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
    try {
      const p = await context.newPage();
      await signInAs(p, buyerEmail, { at: null });
      await p.goto(url(`/rate/${o.delivered.order.id}`));
      expect(await p.getByTestId("rating-modal").count()).toBe(0);
      await p.getByTestId("open-rating").click();
      await p.getByTestId("rating-modal").waitFor();
      expect(new URL(p.url()).searchParams.get("rate")).toBe("1");
      await expect(p.locator("#rate-title").textContent()).resolves.toBe("Rate this Transaction");
      await p.locator('[data-testid="stars-condition"] input[value="5"]').check();
      await p.getByTestId("rating-comments").fill("Arrived in one piece.");
      const [res] = await Promise.all([
        p.waitForResponse((r) => r.request().method() === "POST"),
        p.getByTestId("submit-rating").click(),
      ]);
      expect(res.status()).toBe(400);
      await p.getByTestId("rating-modal").waitFor();
      expect(
        ((await p.getByTestId("rate-error").textContent()) ?? "").trim().length,
      ).toBeGreaterThan(0);
      expect(await p.locator('[data-testid="stars-condition"] input[value="5"]').isChecked()).toBe(
        true,
      );
      await expect(p.getByTestId("rating-comments").inputValue()).resolves.toBe(
        "Arrived in one piece.",
      );
      expect(await p.content()).not.toContain(SELLER_NAME);
    } finally {
      await context.close();
    }
  });
});

const RMA_CLOSED = RMA_WIZARD_MESSAGES.closed;

describe("staff", () => {
  it("filters transactions and opens the admin order card with names, updates, Shipping tools and Payments with the ledger", async () => {
    const p = await signedIn(browser, staffEmail, { at: null });
    // The hub's "Orders and RMAs" is a link to the transactions screen.
    await p.goto(url("/admin"));
    await Promise.all([
      p.waitForURL(/\/admin\/active-transactions$/),
      p.getByRole("link", { name: "Orders and RMAs" }).click(),
    ]);
    await p.goto(url(`/admin/active-transactions/shipping?action=${ACTION.SHIPMENT_PICKED_UP}`));
    // The stage tabs keep the other filters.
    expect(await p.getByTestId("stage-all").getAttribute("href")).toBe(
      `/admin/active-transactions/all?action=${ACTION.SHIPMENT_PICKED_UP}`,
    );
    const card = p.locator(`[data-testid=admin-order-card][data-order-id="${o.route.order.id}"]`);
    await expect(card.getByTestId("provider-name").textContent()).resolves.toBe(SELLER_NAME);
    await expect(card.getByTestId("receiver-name").textContent()).resolves.toBe(BUYER_NAME);
    expect(
      await p
        .locator(`[data-testid=admin-order-card][data-order-id="${o.waiting.order.id}"]`)
        .count(),
    ).toBe(0);
    await card.getByTestId("expand-card").click();
    await p.waitForURL(/order=/);
    await card.getByTestId("card-tab-updates").click();
    await p.waitForURL(/tab=updates/);
    await card
      .locator(`[data-testid=updates] tr[data-code="${ACTION.SHIPMENT_PICKED_UP}"]`)
      .waitFor();
    await card.getByTestId("card-tab-shipping").click();
    await p.waitForURL(/tab=shipping/);
    await card.getByTestId("carrier-tools").waitFor();
    await card.getByTestId("card-tab-payments").click();
    await p.waitForURL(/tab=payments/);
    await expect(card.getByTestId("ledger-balanced").textContent()).resolves.toBe("yes");
    await p.goto(url("/admin/active-shipments"));
    expect(
      await p.locator(`[data-testid=shipment-row][data-order-id="${o.ship.order.id}"]`).count(),
    ).toBe(1);
    // Bad filters are 4xx, never 500.
    expect((await p.goto(url("/admin/active-transactions/nope")))?.status()).toBe(404);
    expect((await p.goto(url("/admin/active-transactions?action=12345")))?.status()).toBe(400);
    await closePage(p);
    // Retailers may not.
    await sellerPage.goto(url("/admin/active-transactions"));
    expect(new URL(sellerPage.url()).pathname).toBe("/error/");
  });
});

describe("bad input and other retailers' orders (HTTP)", () => {
  it("staff's active shipments: a refused carrier tool is a 400 with its message in admin-error, never a 500", async () => {
    const staff = new HttpClient();
    await staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD);
    const refusals: [Record<string, string>, string][] = [
      [{ intent: "bogus" }, "Unknown action."],
      [
        { intent: "carrier", order: "x", status: "delivered" },
        "Choose an order and a carrier event.",
      ],
    ];
    for (const [form, message] of refusals) {
      const r = await staff.postForm("/admin/active-shipments", form);
      expect(r.status).toBe(400);
      expect(r.body).toContain(
        `data-testid="admin-error"><div class="alert-body"><p>${message}</p></div></div>`,
      );
    }
  });

  it("answers 404 for other retailers' orders and unknown ids, 403 for the wrong party, 400 for bad forms; never a 500", async () => {
    const outsider = new HttpClient();
    await outsider.signIn(outsiderEmail, DEFAULT_TEST_PASSWORD);
    const path = `/transaction/buy/${o.waiting.order.id}`;
    expect((await outsider.postForm(path, { intent: "decline", reason: 12 })).status).toBe(404);
    expect((await outsider.get(`/transaction/buy/999999999`)).status).toBe(404);
    expect((await outsider.get(`/transaction/swap/${o.waiting.order.id}`)).status).toBe(404);
    expect((await outsider.get(`/transaction/rma/1`)).status).toBe(404);
    expect((await outsider.get(`/transaction/buy/abc`)).status).toBe(404);
    expect((await outsider.get(`/rate/${o.delivered.order.id}`)).status).toBe(404);
    expect((await outsider.get(`/shipperchecklist/${o.ship.order.externalId}/`)).status).toBe(404);

    const seller = new HttpClient();
    await seller.signIn(sellerEmail, DEFAULT_TEST_PASSWORD);
    expect((await seller.get(`/transaction/buy/${o.waiting.order.id}`)).status).toBe(200);
    const wrongWay = `/transaction/buy/${o.waiting.order.id}`;
    const noReason = await seller.postForm(wrongWay, { intent: "decline" });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toContain("Please choose a reason for declining.");
    expect((await seller.postForm(wrongWay, { intent: "decline", reason: 99 })).status).toBe(400);
    expect((await seller.postForm(wrongWay, { intent: "bogus" })).status).toBe(400);
    const tooMany = await seller.postForm(wrongWay, {
      intent: "respond",
      [`units.${999}.S`]: 1,
      "units.1.S": "x",
    });
    expect(tooMany.status).toBe(400);
    expect((await seller.postForm(wrongWay, { intent: "approve_modified" })).status).toBe(403);
    const noCard = await seller.postForm(wrongWay, { intent: "add_card", card_number: "1234" });
    expect(noCard.status).toBe(400);
    const seen = await seller.postForm("/alerts", {
      intent: "seen",
      ids: [o.waiting.order.id, "x"],
    });
    expect(seen.status).toBe(200);
    expect((await seller.postForm("/alerts", { intent: "nope" })).status).toBe(400);
    expect((await seller.get("/alerts?tab=bogus")).status).toBe(404);
    expect((await seller.get("/orders/sales?status=bogus")).status).toBe(400);

    const buyer = new HttpClient();
    await buyer.signIn(buyerEmail, DEFAULT_TEST_PASSWORD);
    const rate = await buyer.postForm(`/rate/${o.delivered.order.id}`, {
      intent: "rate",
      condition: 9,
      packaging: 1,
      timeliness: 1,
      overall: 1,
    });
    expect(rate.status).toBe(400);
    expect(rate.body).toContain("Please rate every criterion with 1 to 5 stars.");
    expect(
      (
        await buyer.postForm(`/transaction/buy/${o.ship.order.id}`, {
          intent: "cancel_shipment",
          reason: 50,
        })
      ).status,
    ).toBe(403);
  });
});

describe("alert counters", () => {
  it("refresh by themselves (every 15 s)", async () => {
    const p = await signedIn(browser, buyerEmail, { at: null });
    // The page's clock is Playwright's: the 15 s pass at once instead of being waited for.
    await p.clock.install();
    await p.goto(url("/alerts?tab=purchases"));
    const before = Number(
      (await p.getByTestId("bell-purchases").textContent())!.replace(/\D/g, ""),
    );
    await createOrderAt(db(), "receiver_approve_modified_purchase", {
      providerId: sellerId,
      receiverId: buyerId,
      lines: [{ variationId, sizes: { L: 1 } }],
    });
    await p.clock.fastForward(15_000);
    await p.waitForFunction(
      (n) =>
        Number(
          (document.querySelector("[data-testid=bell-purchases]")?.textContent ?? "").replace(
            /\D/g,
            "",
          ),
        ) === n,
      before + 1,
      { timeout: 20_000 },
    );
    await closePage(p);
  });
});

/**
 * Staff's RMA screens and the RMA landing in Chromium (docs/product/screens.md, "RMA wizard", "RMA page",
 * "Staff: RMAs"): a retailer that files an RMA lands on home with ONE notice; staff acting as a retailer land
 * on /admin with the same one notice; staff's RMA list names the RMA's original order, not "for order —"; the
 * RMA card's Payments; tracking links; the rating dialog.
 */
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { orders, shipmentEvents, shipments } from "../../db/schema";
import { RMA_SENT } from "../../domain/messages";
import { createStaffUser, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { addPayment, createOrderAt, type CreatedOrder } from "../factories/orders";
import { fileOneUnitRma } from "./buy-helpers";
import { db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const buyerEmail = uniqueEmail("srma-buyer");
const staffEmail = uniqueEmail("srma-staff");
const BUYER_NAME = `Srma Buyer ${tok}`;
const SELLER_NAME = `Srma Seller ${tok}`;
let sellerId: number;
let buyerId: number;
const o: Record<string, CreatedOrder> = {};

beforeAll(async () => {
  const world = await createWorld(db(), {
    brand: { name: `SrmaBrand ${tok}` },
    products: [{ sku: `SR${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2000 }],
    retailers: {
      seller: { payout: true, storeName: SELLER_NAME },
      buyer: { payout: true, storeName: BUYER_NAME, user: { email: buyerEmail } },
    },
  });
  const variationId = world.variation.id;
  sellerId = world.retailers.seller.retailer.id;
  buyerId = world.retailers.buyer.retailer.id;
  await createStaffUser(db(), { email: staffEmail });
  const base = {
    providerId: sellerId,
    receiverId: buyerId,
    lines: [{ variationId, sizes: { S: 2 } }],
  };
  const deliveredAt = new Date(Date.now() - 3_600_000);
  o.byBuyer = await createOrderAt(db(), "delivered", { ...base, deliveredAt });
  o.byStaff = await createOrderAt(db(), "delivered", { ...base, deliveredAt });
  o.toRate = await createOrderAt(db(), "delivered", { ...base, deliveredAt });
  browser = await launchBrowser();
}, 120_000);

describe("the RMA landing", () => {
  it("a retailer lands on home with one notice", async () => {
    const p = await signedIn(browser, buyerEmail);
    await fileOneUnitRma(p, o.byBuyer.order.id);
    await p.waitForURL((u) => u.pathname === "/" && u.searchParams.get("rma") === "complete");
    await p.getByRole("status").filter({ hasText: RMA_SENT }).waitFor();
    expect(await p.getByRole("status").filter({ hasText: RMA_SENT }).count()).toBe(1);
    expect(await p.getByText("Your return request has been sent.").count()).toBe(0);
  });

  it("staff acting as the retailer land on /admin with one notice; staff's list names the original order", async () => {
    const s = await signedIn(browser, staffEmail, { at: null });
    await s.goto(url(`/act-as?q=${encodeURIComponent(BUYER_NAME)}`));
    await s.locator('select[name="retailerId"]').selectOption(String(buyerId));
    await Promise.all([
      s.waitForURL(/chosen=1/),
      s.getByRole("button", { name: "Act as this retailer" }).click(),
    ]);
    await fileOneUnitRma(s, o.byStaff.order.id);
    await s.waitForURL((u) => u.pathname === "/admin" && u.searchParams.get("rma") === "complete");
    await s.getByRole("status").filter({ hasText: RMA_SENT }).waitFor();
    expect(await s.getByRole("status").filter({ hasText: RMA_SENT }).count()).toBe(1);

    await s.goto(url("/admin/active-rmas/all"));
    const rows = s.getByTestId("admin-rma-row");
    await rows.first().waitFor();
    const text = (await rows.allTextContents()).join("\n");
    for (const original of [o.byStaff, o.byBuyer]) {
      expect(text).toMatch(
        new RegExp(`for order ${original.order.externalId} · victim ${BUYER_NAME}`),
      );
    }
  });

  it("staff's RMA card: the Payments tab groups the victim's and the perpetrator's payments and says where the provider's records are", async () => {
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, o.byBuyer.order.id));
    await addPayment(db(), rma, {
      retailerId: buyerId,
      name: "RMA refund",
      txtype: "refund",
      amountCents: 2200,
    });
    await addPayment(db(), rma, {
      retailerId: sellerId,
      name: "RMA charge",
      txtype: "charge",
      amountCents: 2200,
    });
    const s = await signedIn(browser, staffEmail, { at: null });
    await s.goto(url(`/admin/active-rmas?rma=${rma.id}&tab=payments`));
    await s.getByTestId("admin-rma-card").waitFor();
    const victim = s.getByTestId("rma-payments-victim");
    const perpetrator = s.getByTestId("rma-payments-perpetrator");
    expect(await victim.locator("h3").textContent()).toBe(`Victim (${BUYER_NAME})`);
    expect(await perpetrator.locator("h3").textContent()).toBe(`Perpetrator (${SELLER_NAME})`);
    expect(await victim.textContent()).toContain("RMA refund");
    expect(await victim.textContent()).not.toContain("RMA charge");
    expect(await perpetrator.textContent()).toContain("RMA charge");
    // The e2e server runs on the sandbox provider: the search goes to its records page (a Stripe key: Stripe's).
    const search = await s.getByTestId("provider-dashboard-link").getAttribute("href");
    expect(search).toBe(`/sandbox/dashboard/search?query=${encodeURIComponent(rma.externalId)}`);
    await s.goto(url(search ?? ""));
    expect(await s.getByTestId("sandbox-dashboard").textContent()).toContain(
      `for “${rma.externalId}”`,
    );
  });

  it("tracking links come from the carrier: a sandbox parcel opens the product's page with its carrier events; another carrier's parcel its own page; a parcel the carrier gave no page stays unlinked", async () => {
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, o.byStaff.order.id));
    const sandbox = `SBX${String(Date.now()).slice(-13)}1`;
    const real = `9400${String(Date.now()).slice(-12)}`;
    const [parcel] = await db()
      .insert(shipments)
      .values({
        orderId: rma.id,
        senderId: buyerId,
        receiverId: sellerId,
        trackingNumber: sandbox,
        trackingUrl: `/tracking/${sandbox}`,
        status: "in_route",
      })
      .returning();
    const realPage = `https://carrier.example/track?number=${real}`;
    await db()
      .insert(shipments)
      .values([
        {
          orderId: rma.id,
          senderId: buyerId,
          receiverId: sellerId,
          carrier: "other",
          trackingNumber: real,
          trackingUrl: realPage,
          status: "in_route",
        },
        {
          orderId: rma.id,
          senderId: buyerId,
          receiverId: sellerId,
          carrier: "other",
          trackingNumber: `${real}9`,
          status: "in_route",
        },
      ]);
    await db()
      .insert(shipmentEvents)
      .values([
        {
          shipmentId: parcel.id,
          status: "picked_up",
          description: `Picked up ${tok}`,
          eventTimestamp: new Date(Date.now() - 7_200_000),
        },
        {
          shipmentId: parcel.id,
          status: "in_transit",
          description: `In transit ${tok}`,
          eventTimestamp: new Date(Date.now() - 3_600_000),
        },
      ]);
    const s = await signedIn(browser, staffEmail, { at: null });
    await s.goto(url(`/admin/active-rmas?rma=${rma.id}&tab=shipping`));
    await s.getByTestId("admin-rma-card").waitFor();
    expect(
      await s.getByTestId("tracking-link").filter({ hasText: sandbox }).getAttribute("href"),
    ).toBe(`/tracking/${sandbox}`);
    expect(
      await s.getByTestId("tracking-link").filter({ hasText: real }).getAttribute("href"),
    ).toBe(realPage);
    expect(
      await s
        .getByTestId("tracking-link")
        .filter({ hasText: `${real}9` })
        .count(),
    ).toBe(0);
    expect(await s.getByTestId("admin-rma-card").textContent()).toContain(`${real}9`);
    // The parcel's sender (the buyer, returning the goods) sees the same page as staff.
    const buyer = await signedIn(browser, buyerEmail, { at: null });
    for (const p of [s, buyer]) {
      await p.goto(url(`/tracking/${sandbox}`));
      await p.getByTestId("parcel-tracking").waitFor();
      expect(await p.locator("h1").textContent()).toBe(`Tracking ${sandbox}`);
      expect(await p.getByTestId("parcel-event").allTextContents()).toEqual([
        expect.stringContaining(`Picked up ${tok}`),
        expect.stringContaining(`In transit ${tok}`),
      ]);
    }
    // A malformed or unknown tracking number: 404.
    expect((await buyer.goto(url(`/tracking/${sandbox}0000`)))?.status()).toBe(404);
    expect((await buyer.goto(url("/tracking/not-a-number!")))?.status()).toBe(404);
  });
});

describe("the rating page", () => {
  it("the 'Rate this Transaction' dialog leaves 'I received the package' reachable", async () => {
    const p = await signedIn(browser, buyerEmail, { at: null });
    await p.goto(url(`/rate/${o.toRate.order.id}`));
    await p.getByTestId("confirm-received").waitFor();
    await p.getByTestId("open-rating").click();
    const dialog = p.getByTestId("rating-modal");
    await dialog.waitFor();
    // The one button is inside the dialog, visible and not covered (Playwright's actionability checks).
    expect(await p.getByTestId("confirm-received").count()).toBe(1);
    await dialog.getByRole("button", { name: "I received the package" }).click({ trial: true });
  });
});

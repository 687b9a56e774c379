/**
 * The order pages driving a real buy workflow (Temporal server + worker of the test stack, the activities'
 * read model in Postgres): the buyer completes checkout with a test card on the detail page, the seller
 * modifies the sale without a card on file (need_payment_method opens the card step, then the modification
 * continues), the buyer approves the modified purchase, staff schedule / simulate pickup and delivery from
 * the admin order card (signed events through POST /webhooks/carrier), the seller sees the payout
 * "Released from escrow", the buyer rates ("Rating saved!", then home) and the seller sees the rating.
 * Then the buyer asks for an RMA in the four-step wizard (pictures checked by content) and lands on
 * /?rma=complete. At no point does either retailer's page or packing slip carry the other's store name.
 *
 * The draft order is written by the factory and its workflow started here by type name, as checkout does.
 */
import type { Client } from "@temporalio/client";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderContributions, orders, outboxEmails, payments, uploads } from "../../db/schema";
import {
  PAYMENT_QUEUED,
  PICTURE_REQUIRED,
  RATING_SAVED,
  RMA_SENT,
  UPDATE_YOUR_LISTINGS,
} from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { buyWorkflowId, completeCheckoutUpdate } from "../../workflows/buy/contract";
import { type CreatedProduct, SIZE_RUNS } from "../factories/catalogue";
import { createWorld } from "../factories/world";
import { createRetailer, createStaffUser } from "../factories/retailers";
import { createListing, createRequest } from "../factories/listings";
import { uniqueToken } from "../factories/util";
import { pdfText } from "../setup/pdf-text";
import { WIZARD_MESSAGES } from "../../domain/listing-forms";
import { TINY_PNG } from "./form-fixtures";
import { closeTemporal, rmaContactStep, startBuyOrder, temporal } from "./buy-helpers";
import { closePage, db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
let client: Client;
const tok = uniqueToken().toUpperCase();
const SELLER_NAME = `Roundtrip Seller Atelier ${tok}`;
const BUYER_NAME = `Roundtrip Buyer Depot ${tok}`;
const sellerEmail = uniqueEmail("rt-seller");
const buyerEmail = uniqueEmail("rt-buyer");
const staffEmail = uniqueEmail("rt-staff");
let sellerId: number;
let buyerId: number;
let buyerUserId: number;
let orderId: number;
let externalId: string;
let seller: Page;
let buyer: Page;
let staff: Page;

async function stateOf(id: number): Promise<string> {
  const [row] = await db().select({ s: orders.statename }).from(orders).where(eq(orders.id, id));
  return row?.s ?? "";
}

/** Waits until the read model shows the state (activities write it right after the step). */
async function waitForState(id: number, state: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < end) {
    last = await stateOf(id);
    if (last === state) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`order ${id}: expected state ${state}, still ${last}`);
}

async function anonymous(p: Page, otherName: string) {
  expect(await p.content()).not.toContain(otherName);
}

async function fillCard(p: Page, number = "4242 4242 4242 4242") {
  await p.locator('input[name="card_number"]').fill(number);
  await p.locator('input[name="card_expiry"]').fill("12/40");
  await p.locator('input[name="card_cvc"]').fill("123");
}

/** Reloads the detail until `testId` shows (the workflow's next activities may still be writing). */
async function detailUntil(p: Page, testId: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await openDetail(p);
    if ((await p.getByTestId(testId).count()) > 0) return;
    if (Date.now() > end) throw new Error(`${testId} never showed on order ${orderId}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function openDetail(p: Page) {
  await p.goto(url(`/transaction/buy/${orderId}`));
}

const started: number[] = [];

/** A draft order and its buy workflow (startBuyOrder), terminated after the file. */
async function startOrder(opts: Parameters<typeof startBuyOrder>[2]) {
  const draft = await startBuyOrder(client, db(), opts);
  started.push(draft.order.id);
  return draft;
}

beforeAll(async () => {
  client = await temporal();

  const world = await createWorld(db(), {
    brand: { name: `RoundtripBrand ${tok}` },
    products: [{ sku: `RT${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 2500 }],
  });
  const prod = world.products[0];
  sellerId = (
    await createRetailer(db(), {
      payout: true,
      storeName: SELLER_NAME,
      user: { email: sellerEmail },
    })
  ).retailer.id;
  const buyerRow = await createRetailer(db(), {
    payout: true,
    storeName: BUYER_NAME,
    user: { email: buyerEmail },
  });
  buyerId = buyerRow.retailer.id;
  buyerUserId = buyerRow.user!.id;
  await createStaffUser(db(), { email: staffEmail });
  const listing = await createListing(db(), {
    variationId: prod.variations[0].id,
    providerId: sellerId,
    sizes: { S: 4, M: 4 },
  });

  const draft = await startBuyOrder(client, db(), {
    providerId: sellerId,
    receiverId: buyerId,
    variationId: prod.variations[0].id,
    listingId: listing.id,
    sizes: { S: 2, M: 1 },
    unitPriceCents: 2500,
  });
  orderId = draft.order.id;
  externalId = draft.order.externalId;

  browser = await launchBrowser();
  seller = await signedIn(browser, sellerEmail, { at: null });
  buyer = await signedIn(browser, buyerEmail, { at: null });
  staff = await signedIn(browser, staffEmail, { at: null });
});

afterAll(async () => {
  for (const p of [seller, buyer, staff]) if (p) await closePage(p);
  for (const id of [orderId, ...started]) {
    try {
      await client?.workflow.getHandle(buyWorkflowId(id)).terminate("test done");
    } catch {
      // already finished
    }
  }
  await closeTemporal();
});

describe("a purchase through the pages and the buy workflow", () => {
  it("buyer: a declined card shows the specification's message; a good card completes checkout", async () => {
    await openDetail(buyer);
    expect(await buyer.getByTestId("order-detail").getAttribute("data-panel")).toBe(
      "complete-checkout",
    );
    await fillCard(buyer, "4000 0000 0000 0002");
    await buyer.getByTestId("complete-checkout-submit").click();
    await expect(buyer.getByTestId("card-error").textContent()).resolves.toBe(
      "Sorry but this card was declined. Please try another.",
    );
    await fillCard(buyer);
    await buyer.getByTestId("complete-checkout-submit").click();
    await waitForState(orderId, "provider_approve_sale");
    await anonymous(buyer, SELLER_NAME);
  });

  it("seller: sees the alert, modifies the sale, adds a card when asked, and the buyer gets the modified purchase", async () => {
    await seller.goto(url("/alerts?tab=sales"));
    await expect(seller.getByTestId("bell-sales").textContent()).resolves.toMatch(/\d/);
    await anonymous(seller, BUYER_NAME);
    await openDetail(seller);
    const inputs = seller.getByTestId("units-input");
    // Lower one size by one unit.
    const first = inputs.first();
    const v = Number(await first.inputValue());
    await first.fill(String(v - 1));
    await expect(seller.getByTestId("respond-submit").textContent()).resolves.toBe(
      "Submit response",
    );
    await seller.getByTestId("respond-submit").click();
    // No card on file: the card step opens (need_payment_method, state `payment`).
    await seller.getByTestId("form-add_card").waitFor();
    await fillCard(seller);
    await seller.getByTestId("add-card-submit").click();
    await waitForState(orderId, "receiver_approve_modified_purchase");
  });

  it("buyer: approves the modified purchase; the order is approved with a pickup booked", async () => {
    await openDetail(buyer);
    await expect(buyer.getByTestId("display-status").textContent()).resolves.toBe(
      "Approve/Decline Modified Purchase",
    );
    await buyer.getByTestId("approve-modified-submit").click();
    // The buyer lands on its Purchase Orders tab (not the Sales tab /orders opens on).
    await buyer.waitForURL((u) => u.pathname === "/orders/purchases", { timeout: 30_000 });
    await waitForState(orderId, "ship_order");
    await openDetail(seller);
    expect(await seller.getByTestId("order-detail").getAttribute("data-panel")).toBe(
      "shipment-pending",
    );
    const slip = await seller.request.get(url(`/packingslip/${externalId}/`));
    expect(slip.status()).toBe(200);
    const text = pdfText(await slip.body());
    expect(text).toContain(`retailer-00${buyerId}`);
    expect(text).not.toContain(BUYER_NAME);
    expect(text).not.toContain(SELLER_NAME);
  });

  it("staff: simulate pickup and delivery from the admin order card; the seller sees the payout released", async () => {
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=shipping`));
    await staff.getByTestId("carrier-picked_up").click();
    await staff.getByTestId("admin-notice").waitFor();
    await waitForState(orderId, "in_route");
    await detailUntil(seller, "payout-released");
    await expect(seller.getByTestId("payout-released").textContent()).resolves.toMatch(
      /^Released from escrow \d{2}\/\d{2}\/\d{4}$/,
    );
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=shipping`));
    await staff.getByTestId("carrier-delivered").click();
    await staff.getByTestId("admin-notice").waitFor();
    await waitForState(orderId, "delivered");
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=payments`));
    await expect(staff.getByTestId("ledger-balanced").textContent()).resolves.toBe("yes");
  });

  it("buyer: rates the order (Rating saved!, then home); the seller sees the rating", async () => {
    await openDetail(buyer);
    expect(await buyer.getByTestId("rma-button").count()).toBe(1);
    await buyer.getByTestId("rate-link").click();
    await buyer.waitForURL(`**/rate/${orderId}`);
    await buyer.waitForLoadState("networkidle");
    await buyer.getByTestId("open-rating").click();
    for (const f of ["condition", "packaging", "timeliness", "overall"]) {
      await buyer.getByTestId(`stars-${f}`).locator('input[value="4"]').check();
    }
    await buyer.getByTestId("rating-comments").fill("Arrived well packed");
    await buyer.getByTestId("submit-rating").click();
    await expect(buyer.getByTestId("rating-saved").textContent()).resolves.toContain(RATING_SAVED);
    await buyer.waitForURL((u) => u.pathname === "/", { timeout: 10_000 });
    await openDetail(seller);
    await expect(seller.getByTestId("buyer-rating").textContent()).resolves.toContain(
      "Arrived well packed",
    );
    await anonymous(seller, BUYER_NAME);
  });
});

describe("the seller's other answers", () => {
  let prod: CreatedProduct;
  let s2: number;
  let s2Page: Page;
  let b2Page: Page;
  const s2Email = uniqueEmail("rt-seller2");
  const b2Email = uniqueEmail("rt-buyer2");
  let a: number;
  let b: number;
  let c: number;

  beforeAll(async () => {
    const world = await createWorld(db(), {
      brand: { name: `RoundtripBrand2 ${tok}` },
      products: [{ sku: `RU${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 1500 }],
    });
    prod = world.products[0];
    s2 = (await createRetailer(db(), { payout: true, user: { email: s2Email } })).retailer.id;
    const b2 = (await createRetailer(db(), { payout: true, user: { email: b2Email } })).retailer.id;
    // Two buyers want the last two units of one listing; a third order comes from another listing.
    const last = await createListing(db(), {
      variationId: prod.variations[0].id,
      providerId: s2,
      sizes: { L: 2 },
    });
    const other = await createListing(db(), {
      variationId: prod.variations[1].id,
      providerId: s2,
      sizes: { L: 3 },
    });
    const line = {
      providerId: s2,
      variationId: prod.variations[0].id,
      listingId: last.id,
      sizes: { L: 2 },
      unitPriceCents: 1500,
    };
    a = (await startOrder({ ...line, receiverId: buyerId })).order.id;
    b = (await startOrder({ ...line, receiverId: b2 })).order.id;
    c = (
      await startOrder({
        providerId: s2,
        receiverId: b2,
        variationId: prod.variations[1].id,
        listingId: other.id,
        sizes: { L: 1 },
        unitPriceCents: 1500,
      })
    ).order.id;
    const card = { paymentMethodId: "tok_visa", lastFour: "4242", description: "Visa" };
    for (const [id, who] of [
      [a, buyerId],
      [b, b2],
      [c, b2],
    ] as const) {
      await client.workflow.getHandle(buyWorkflowId(id)).executeUpdate(completeCheckoutUpdate, {
        args: [{ actorRetailerId: who, paymentMethod: card }],
      });
      await waitForState(id, "provider_approve_sale");
    }
    s2Page = await signedIn(browser, s2Email, { at: null });
    b2Page = await signedIn(browser, b2Email, { at: null });
  });

  afterAll(async () => {
    if (s2Page) await closePage(s2Page);
    if (b2Page) await closePage(b2Page);
  });

  it("approving the last units: card step, then 'Yes I am sure' declines the other order, and the seller goes to /orders", async () => {
    await s2Page.goto(url(`/transaction/buy/${a}`));
    await expect(s2Page.getByTestId("respond-submit").textContent()).resolves.toBe("Approve Sale");
    await s2Page.getByTestId("respond-submit").click();
    await s2Page.getByTestId("form-add_card").waitFor();
    await fillCard(s2Page);
    await s2Page.getByTestId("add-card-submit").click();
    await s2Page.getByTestId("confirm-decline-others").waitFor();
    await s2Page.getByTestId("confirm-yes").click();
    await s2Page.waitForURL((u) => u.pathname === "/orders", { timeout: 30_000 });
    await waitForState(a, "ship_order");
    await waitForState(b, "declined");
    await b2Page.goto(url(`/transaction/buy/${b}`));
    await expect(b2Page.getByTestId("reason").textContent()).resolves.toBe(
      "Other Retailer: The units were sold to another retailer",
    );
  });

  it("declining for units sold in the store shows the update-your-listings message, then goes to active listings", async () => {
    await s2Page.goto(url(`/transaction/buy/${c}`));
    await s2Page.getByTestId("decline-reason").selectOption("14");
    await s2Page.getByTestId("decline-submit").click();
    await expect(s2Page.getByTestId("action-message").textContent()).resolves.toBe(
      UPDATE_YOUR_LISTINGS,
    );
    await s2Page.waitForURL((u) => u.pathname.startsWith("/active/listings"), { timeout: 10_000 });
    await waitForState(c, "declined");
    await b2Page.goto(url(`/transaction/buy/${c}`));
    await expect(b2Page.getByTestId("reason").textContent()).resolves.toBe(
      "Other Retailer: The units sold in my store",
    );
  });
});

describe("an order made for a request", () => {
  it("the requestor sees it pending with complete-checkout and declines it with a reason; both see who declined", async () => {
    const { products } = await createWorld(db(), {
      brand: { name: `RoundtripBrand3 ${tok}` },
      products: [{ sizes: SIZE_RUNS.apparel, priceCents: 1200 }],
    });
    const p = products[0];
    const req = await createRequest(db(), {
      variationId: p.variations[0].id,
      requestorId: buyerId,
      sizes: { M: 2 },
    });
    const id = (
      await startOrder({
        providerId: sellerId,
        receiverId: buyerId,
        variationId: p.variations[0].id,
        listingId: null,
        sizes: { M: 2 },
        unitPriceCents: 1200,
        requestId: req.id,
      })
    ).order.id;
    // The offer (action 223) is recorded by the workflow: the requestor gets an alert.
    const end = Date.now() + 20_000;
    for (;;) {
      await buyer.goto(url("/alerts?tab=purchases&limit=50"));
      if ((await buyer.locator(`[data-testid=order-card][data-order-id="${id}"] .new`).count()) > 0)
        break;
      if (Date.now() > end) throw new Error("the offer never showed as new to the requestor");
      await new Promise((r) => setTimeout(r, 500));
    }
    await seller.goto(url("/alerts?tab=sales&limit=50"));
    expect(await seller.locator(`[data-testid=order-card][data-order-id="${id}"]`).count()).toBe(1);
    await buyer.goto(url(`/transaction/buy/${id}`));
    expect(await buyer.getByTestId("order-detail").getAttribute("data-panel")).toBe(
      "complete-checkout",
    );
    await buyer.getByTestId("decline_checkout-reason").selectOption("0");
    await buyer.getByTestId("decline_checkout-submit").click();
    await waitForState(id, "declined");
    await buyer.goto(url(`/transaction/buy/${id}`));
    await expect(buyer.getByTestId("reason").textContent()).resolves.toBe("You: No longer need it");
    await seller.goto(url(`/transaction/buy/${id}`));
    await expect(seller.getByTestId("reason").textContent()).resolves.toBe(
      "Other Retailer: No longer need it",
    );
    await anonymous(seller, BUYER_NAME);
  });

  it("buyer: requests an RMA in four steps (a damaged unit, three pictures required), lands on /?rma=complete; the RMA waits for staff; a second one is refused", async () => {
    await buyer.goto(url(`/create-rma/${orderId}`));
    await buyer.getByTestId("rma-units-form").waitFor();
    // Nothing chosen: refused with the message; then 1 damaged unit.
    await buyer.getByTestId("rma-next").click();
    await expect
      .poll(() => buyer.getByTestId("rma-error").textContent())
      .toBe("Choose at least one unit to return.");
    const line = buyer.getByTestId("rma-line").first();
    await line.locator('input[name^="q."]').fill("1");
    await line.locator('select[name^="r."]').selectOption("0");
    await buyer.getByTestId("rma-next").click();
    await buyer.getByTestId("rma-pictures-form").waitFor();
    // Damaged needs three pictures: Next without them says so; a program renamed .png is refused by its bytes.
    await buyer.getByTestId("rma-next").click();
    await expect
      .poll(() =>
        buyer.getByTestId("rma-picture-line").locator(".field-error").first().textContent(),
      )
      .toBe(PICTURE_REQUIRED);
    const file = buyer.locator('input[type="file"]');
    await file.setInputFiles([
      { name: "virus.png", mimeType: "image/png", buffer: Buffer.from("MZ not a picture") },
    ]);
    await buyer.getByTestId("rma-upload").click();
    await expect
      .poll(() => buyer.getByTestId("rma-picture-line").textContent())
      .toContain("virus.png: Only .jpg, .jpeg and .png pictures can be uploaded.");
    // A GIF renamed .jpg, four pictures for one item, a 6 MB picture: each refused beside the item, the draft kept.
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(64)]);
    await buyer
      .locator('input[type="file"]')
      .setInputFiles([{ name: "photo.jpg", mimeType: "image/jpeg", buffer: gif }]);
    await buyer.getByTestId("rma-upload").click();
    await expect
      .poll(() => buyer.getByTestId("rma-picture-line").textContent())
      .toContain(`photo.jpg: ${WIZARD_MESSAGES.photoType}`);
    await buyer.locator('input[type="file"]').setInputFiles(
      ["a", "b", "c", "d"].map((n) => ({
        name: `${n}.png`,
        mimeType: "image/png",
        buffer: TINY_PNG,
      })),
    );
    await buyer.getByTestId("rma-upload").click();
    await expect
      .poll(() => buyer.getByTestId("rma-picture-line").textContent())
      .toContain("Up to 3 pictures per item.");
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(6 * 1024 * 1024)]);
    await buyer
      .locator('input[type="file"]')
      .setInputFiles([{ name: "big.png", mimeType: "image/png", buffer: big }]);
    await buyer.getByTestId("rma-upload").click();
    await expect
      .poll(() => buyer.getByTestId("rma-picture-line").textContent())
      .toContain(`big.png: ${WIZARD_MESSAGES.photoTooLarge}`);
    expect(await buyer.getByTestId("rma-picture-line").locator("img").count()).toBe(0);
    expect(
      await db().select().from(uploads).where(eq(uploads.uploaderId, buyerUserId)),
    ).toHaveLength(0);
    await buyer
      .locator('input[type="file"]')
      .setInputFiles(
        ["a", "b", "c"].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: TINY_PNG })),
      );
    await buyer.getByTestId("rma-upload").click();
    await expect.poll(() => buyer.getByTestId("rma-picture-line").locator("img").count()).toBe(3);
    await buyer.getByTestId("rma-next").click();
    await rmaContactStep(buyer, {
      name: "Pat Buyer",
      email: "pat@example.test",
      phone: "555-0100",
      packingSlipName: "Pat",
    });
    // Confirm: a sale, some units → the requested value + 10%.
    await buyer.getByTestId("rma-confirm-form").waitFor();
    expect(await buyer.getByTestId("rma-amount").textContent()).toBe(formatCents(2500 + 250));
    await buyer.getByTestId("rma-process").click();
    await buyer.waitForURL((u) => u.pathname === "/" && u.searchParams.get("rma") === "complete");
    await buyer.getByRole("status").filter({ hasText: RMA_SENT }).waitFor();
    expect(await buyer.getByRole("status").filter({ hasText: RMA_SENT }).count()).toBe(1);

    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, orderId));
    expect(rma).toMatchObject({
      transactionType: 3,
      providerId: buyerId,
      receiverId: sellerId,
      rmaContactName: "Pat Buyer",
    });
    await expect
      .poll(
        async () => (await db().select().from(orders).where(eq(orders.id, rma.id)))[0].recordSeq,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    const lines = await db()
      .select()
      .from(orderContributions)
      .where(eq(orderContributions.orderId, rma.id));
    expect(
      lines.map((l) => [
        l.rmaReason,
        l.rmaQuantityRequested,
        l.rmaApproved,
        (l.rmaPictures ?? []).length,
      ]),
    ).toEqual([[0, 1, null, 3]]);
    const kept = await db().select().from(uploads).where(eq(uploads.rmaId, rma.id));
    expect(kept).toHaveLength(3);
    // The order page no longer offers it but links to it; the wizard says an RMA exists; an RMA is not an order page.
    await openDetail(buyer);
    expect(await buyer.getByTestId("rma-button").count()).toBe(0);
    expect(await buyer.getByTestId("rma-link").textContent()).toBe(
      `RMA ${rma.externalId}: RMA Requested`,
    );
    expect(await buyer.getByTestId("rma-link").getAttribute("href")).toBe(`/rma/${rma.id}`);
    await buyer.goto(url(`/create-rma/${orderId}`));
    expect(await buyer.getByTestId("rma-not-possible").textContent()).toContain(
      "An RMA already exists for this order.",
    );
    expect((await buyer.request.get(url(`/transaction/buy/${rma.id}`))).status()).toBe(404);
    await anonymous(buyer, SELLER_NAME);
  });

  it("staff: the RMA card shows the lines, pictures and contact; processing it (1 approved, $5.00 fee) books the return; once it is delivered the buyer is refunded and the seller charged", async () => {
    const [rma] = await db().select().from(orders).where(eq(orders.rmaForId, orderId));
    await staff.goto(url(`/admin/active-rmas/pending?rma=${rma.id}`));
    const card = staff.getByTestId("admin-rma-card");
    await card.waitFor();
    expect(await staff.getByTestId("rma-contact").textContent()).toContain("Pat Buyer");
    expect(await card.getByTestId("rma-lines").locator("img").count()).toBe(3);
    expect(await staff.getByTestId("rma-faulty").textContent()).toBe(formatCents(2500));
    expect(await staff.getByTestId("rma-will-receive").textContent()).toBe(formatCents(2750));
    // The status filter beside the tabs: pending ones list it, queued charges do not.
    const listed = async (status: string) => {
      await staff.goto(url(`/admin/active-rmas/all?status=${status}`));
      return staff.locator(`[data-testid=admin-rma-row][data-rma-id="${rma.id}"]`).count();
    };
    expect(await listed("rmarequested")).toBe(1);
    expect(await listed("charge_queued")).toBe(0);
    await staff.goto(url(`/admin/active-rmas/pending?rma=${rma.id}`));
    await card.waitFor();
    // Process waits until every line has a decision.
    expect(await staff.getByTestId("rma-process-staff").isDisabled()).toBe(true);
    await staff.getByTestId("rma-decide-line").locator('input[value="approve"]').check();
    // More than requested: the field's max stops it in the browser; past that, the server refuses, nothing saved.
    const qty = staff.getByTestId("rma-decide-line").locator('input[name$=".qty"]');
    await qty.evaluate((el) => el.removeAttribute("max"));
    await qty.fill("2");
    await staff.getByTestId("rma-process-staff").click();
    await expect
      .poll(() => staff.getByTestId("admin-error").textContent())
      .toBe("The approved quantity cannot exceed the quantity requested.");
    expect((await db().select().from(orders).where(eq(orders.id, rma.id)))[0].stage).toBe(
      "rmarequested",
    );
    await staff.getByTestId("rma-decide-line").locator('input[value="approve"]').check();
    await staff.getByTestId("rma-decide-line").locator('input[name$=".qty"]').fill("1");
    await staff.getByTestId("rma-fee").fill("5.00");
    // Process shows the amounts first; nothing is decided until staff confirm them.
    await staff.getByTestId("rma-process-staff").click();
    await staff.getByTestId("rma-review").waitFor();
    expect(await staff.getByTestId("rma-review-refund").textContent()).toBe(formatCents(2750));
    expect(await staff.getByTestId("rma-review-charge").textContent()).toBe(formatCents(5225));
    // The parts add up to the charge (docs/product/money.md, "RMA refund and charge"): goods + return shipping + RMA fee + the sale's 10%.
    expect(await staff.getByTestId("rma-review-charge-parts").textContent()).toBe(
      `${formatCents(2500)} approved goods + ${formatCents(1975)} return shipping + ${formatCents(500)} RMA fee + ${formatCents(250)} the sale's fee on the approved goods`,
    );
    expect((await db().select().from(orders).where(eq(orders.id, rma.id)))[0].stage).toBe(
      "rmarequested",
    );
    await staff.getByTestId("rma-confirm-staff").click();
    await staff.getByTestId("admin-notice").waitFor();
    // The card closes after the save; the notice opens it again.
    expect(await staff.getByTestId("admin-rma-card").count()).toBe(0);
    await staff.getByTestId("admin-notice-open").click();
    await staff.getByTestId("admin-rma-card").waitFor();
    expect(await staff.getByTestId("admin-rma-card").getAttribute("data-stage")).toBe("shipping");
    // The summary's original order and totals card: the marketplace keeps shipping + fee.
    expect(await staff.getByTestId("rma-original").textContent()).toContain("Sale");
    expect(await staff.getByTestId("rma-totals-kept").textContent()).toBe(formatCents(1975 + 500));
    // docs/product/money.md: refund $25.00 + 10% = $27.50; charge $25.00 + $19.75 (1 unit back) + $5.00 fee + $2.50 = $52.25.
    expect(await staff.getByTestId("rma-amounts").textContent()).toBe(
      `${formatCents(2750)} / ${formatCents(5225)}`,
    );

    // The buyer ships the return with its packing slip (from it, to the seller, both by number only).
    await buyer.goto(url(`/rma/${rma.id}`));
    await buyer.getByTestId("rma-return").waitFor();
    const slip = await buyer.request.get(url(`/packingslip/${rma.externalId}/`));
    expect(slip.status()).toBe(200);
    const text = pdfText(await slip.body()).replace(/\s+/g, " ");
    expect(text).toContain("Return (RMA)");
    expect(text).toContain(`From retailer-00${buyerId}`);
    expect(text).toContain(`To retailer-00${sellerId}`);
    expect(text).not.toContain(SELLER_NAME);
    await anonymous(buyer, SELLER_NAME);

    for (const event of ["picked_up", "delivered"]) {
      await staff.goto(url(`/admin/active-rmas?rma=${rma.id}&tab=shipping`));
      await staff.getByTestId(`carrier-${event}`).click();
      await staff.waitForURL((u) => u.searchParams.get("notice") === event);
    }
    await expect
      .poll(async () => (await db().select().from(orders).where(eq(orders.id, rma.id)))[0].stage, {
        timeout: 15_000,
      })
      .toBe("rmacompleted");
    await expect
      .poll(
        async () =>
          (await db().select().from(payments).where(eq(payments.orderId, rma.id)))
            .map((p) => [p.txtype, p.retailerId, p.amountCents])
            .sort(),
        { timeout: 15_000 },
      )
      .toEqual(
        [
          ["penalty", sellerId, 5225],
          ["refund", buyerId, 2750],
        ].sort(),
      );
    // The payments tab: the ledger balances (refund and charge as recorded).
    await staff.goto(url(`/admin/active-rmas?rma=${rma.id}&tab=payments`));
    expect(await staff.getByTestId("ledger-balanced").textContent()).toBe("yes");
    await buyer.goto(url(`/rma/${rma.id}`));
    expect(await buyer.getByTestId("rma-money").textContent()).toBe(
      `Returned to you: ${formatCents(2750)}`,
    );
    // The seller sees the charge, and the buyer only by its number.
    await seller.goto(url(`/rma/${rma.id}`));
    expect(await seller.getByTestId("rma-money").textContent()).toBe(
      `Charged to you: ${formatCents(5225)}`,
    );
    expect(await seller.getByTestId("counterparty").textContent()).toBe(`retailer-00${buyerId}`);
    await anonymous(seller, BUYER_NAME);
    // A charge waiting for the seller's card (as the RMA workflow records it when the card is declined): the
    // seller reads that its payment is queued; staff find it with the status filter and see it on the card.
    const [done] = await db()
      .select({ ledger: orders.ledger })
      .from(orders)
      .where(eq(orders.id, rma.id));
    await db()
      .update(orders)
      .set({ ledger: { ...done.ledger, chargeQueued: true } })
      .where(eq(orders.id, rma.id));
    try {
      await seller.goto(url(`/rma/${rma.id}`));
      expect(await seller.getByTestId("rma-charge-queued").textContent()).toBe(
        ` ${PAYMENT_QUEUED}`,
      );
      await staff.goto(url("/admin/active-rmas/all?status=charge_queued"));
      await staff.locator(`[data-testid=admin-rma-row][data-rma-id="${rma.id}"] a`).click();
      await expect
        .poll(() => staff.getByTestId("rma-charge-queued").textContent())
        .toContain(PAYMENT_QUEUED);
      await buyer.goto(url(`/rma/${rma.id}`));
      expect(await buyer.getByTestId("rma-charge-queued").count()).toBe(0);
    } finally {
      await db().update(orders).set({ ledger: done.ledger }).where(eq(orders.id, rma.id));
    }
    // Every RMA e-mail names the other party by its number only.
    const mails = (await db().select().from(outboxEmails)).filter((m) =>
      `${m.subject}${m.bodyText}`.includes(rma.externalId),
    );
    expect(mails.length).toBeGreaterThan(2);
    for (const m of mails)
      for (const name of [BUYER_NAME, SELLER_NAME])
        expect(`${m.subject}${m.bodyText}${m.bodyHtml ?? ""}`).not.toContain(name);

    // A retailer outside the order: neither the wizard nor the RMA exists for it, and nothing is saved.
    const outsiderEmail = uniqueEmail("rma-outsider");
    await createRetailer(db(), { user: { email: outsiderEmail } });
    const outsider = await signedIn(browser, outsiderEmail, { at: null });
    try {
      expect((await outsider.request.get(url(`/create-rma/${orderId}`))).status()).toBe(404);
      const posted = await outsider.request.post(url(`/create-rma/${orderId}`), {
        form: { step: "confirm" },
        headers: { Origin: new URL(url("/")).origin },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(404);
      expect((await outsider.request.get(url(`/rma/${rma.id}`))).status()).toBe(404);
      expect(
        await db().select({ id: orders.id }).from(orders).where(eq(orders.rmaForId, orderId)),
      ).toHaveLength(1);
    } finally {
      await closePage(outsider);
    }
  });
});

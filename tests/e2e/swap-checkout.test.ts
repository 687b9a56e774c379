/**
 * The swap cart's checkout in the browser (swap terms, swap review, card modal, yourmove / theirmove;
 * docs/product/screens.md, "Cart and checkout"): the terms, the review of the other retailer's goods (anonymous) with what the
 * card is pre-authorised for, a declined card answered and retried, then the swap's workflow waits for the
 * provider ("awaiting retailer's response" / "awaiting your selection"), the swap has left the cart, and a
 * second swap between the same two retailers is refused with the specification's message, either way round.
 * Then the negotiation on /transaction/swap/:id: the provider chooses from the receiver's swap listings
 * (approve disabled until then) and approves, the receiver declines over money, the provider calls it even on
 * the last chance, and each side makes its payment: stock of both sides taken, a shipment per side.
 * Then shipping: the provider chooses and modifies, the receiver calls it even and approves, both pay; each
 * side prints its own papers (anonymous PDFs), staff simulate both pickups and deliveries from the admin
 * card, both rate; no page, PDF or e-mail names the other side; /orders shows the swap as pair, sent and
 * received; a side cancels its shipment while the pickup is scheduled. Then an RMA on the receiver's side (a
 * missing unit): staff see the amounts before confirming, the receiver is paid out, the provider charged, and
 * neither side's RMA page or e-mail names the other (nor shows the victim's contact to the perpetrator).
 */
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  listings,
  orderContributions,
  orders,
  outboxEmails,
  payments,
  productVariations,
  shipments,
} from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { CHECKOUT_TERMS } from "../../domain/cart";
import { swapValuation } from "../../domain/fees";
import {
  CARD_DECLINED,
  ORDER_UNAVAILABLE_MESSAGE,
  PAYMENT_QUEUED,
  SWAP_ALREADY_THEIR_MOVE,
  SWAP_ALREADY_YOUR_MOVE,
  SWAP_AWAITING_RETAILER,
  SWAP_AWAITING_YOUR_SELECTION,
  SWAP_SUMMARY_RESTORED,
  TRANSACTION_LABELS,
} from "../../domain/messages";
import { formatCents } from "../../domain/money";
import { createWorld } from "../factories/world";
import { authorizeBrand, createRetailer, createStaffUser } from "../factories/retailers";
import { createListing } from "../factories/listings";
import { DEFAULT_TEST_PASSWORD, type RetailerRow } from "../factories";
import { NOTICES } from "../../app/components/shell-data";
import { createSwapOrder } from "../factories/orders";
import { payWithTestCard, postCartForm, rmaContactStep, checkTerms } from "./buy-helpers";
import { pdfText } from "../setup/pdf-text";
import { SWAP_CARD_AWAITING_PAYMENT, SWAP_CARD_PAYMENT_DUE } from "../../domain/swap-texts";
import { db, hydrated, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
// The tests run at the same time (their time is mostly the workflows' steps going by): their pages stay open
// until the file ends (tests/e2e/setup.ts closes them then), not closed after each test.
const pages: Page[] = [];

/**
 * `expect.poll` for tests that run at the same time, which it does not support (it needs the running test, and
 * Vitest does not track it then): `await poll(read).toBe(x)` reads again every 100 ms until the assertion
 * holds, and fails with its last error after `timeout` ms (5 s unless given).
 */
function poll<T>(read: () => T | Promise<T>, opts: { timeout?: number } = {}) {
  const until = (assert: (value: T) => void) =>
    vi.waitFor(async () => assert(await read()), { timeout: opts.timeout ?? 5_000, interval: 100 });
  return {
    toBe: (want: T) => until((v) => expect(v).toBe(want)),
    toEqual: (want: unknown) => until((v) => expect(v).toEqual(want)),
    toContain: (part: string) => until((v) => expect(v).toContain(part)),
    toBeGreaterThan: (n: number) => until((v) => expect(v).toBeGreaterThan(n)),
    not: { toBe: (other: T) => until((v) => expect(v).not.toBe(other)) },
  };
}
let brand: number;
let variation: number;
const PRICE = 1999;

beforeAll(async () => {
  const world = await createWorld(db(), { products: [{ colors: 1, priceCents: PRICE }] });
  [brand, variation] = [world.brand.id, world.variation.id];
  browser = await launchBrowser();
});

async function retailer(): Promise<{ r: RetailerRow; email: string }> {
  const email = uniqueEmail("swapco");
  const { retailer: r } = await createRetailer(db(), { payout: true, user: { email } });
  await authorizeBrand(db(), r.id, brand);
  return { r, email };
}

/** Swap cart -> /checkout -> the swap terms accepted -> Continue. */
async function proceedWithSwap(
  p: Page,
  listingId: number,
  sizes: Record<string, number>,
): Promise<void> {
  await postCartForm(p, {
    intent: "add",
    listingId,
    ...Object.fromEntries(Object.entries(sizes).map(([k, n]) => [`size.${k}`, n])),
  });
  await p.goto(url("/checkout"));
  expect(await p.getByTestId("checkout-terms").textContent()).toContain(CHECKOUT_TERMS.swap.title);
  await checkTerms(p);
  await p.getByTestId("checkout-continue").click();
}

describe.concurrent("swap checkout", () => {
  it("terms, review, a declined card, then pre-authorised: the provider's to answer, the cart emptied; a second swap between the two is refused", async () => {
    const provider = await retailer();
    const receiver = await retailer();
    const theirs = await createListing(db(), {
      variationId: variation,
      providerId: provider.r.id,
      sizes: { S: 3, M: 1 },
      listingType: "swap",
    });
    const mine = await createListing(db(), {
      variationId: variation,
      providerId: receiver.r.id,
      sizes: { L: 2 },
      listingType: "swap",
    });

    const p = await signedIn(browser, receiver.email, { pages });
    await proceedWithSwap(p, theirs.id, { S: 2 });
    await p.waitForURL((u) => u.pathname === "/checkout/swap");
    const review = p.getByTestId("swap-review");
    await review.waitFor();
    const text = (await review.textContent()) ?? "";
    expect(text).toContain(`retailer-00${provider.r.id}`);
    expect(text).not.toContain(provider.r.storeName);
    const v = swapValuation({
      provider: { goodsCents: 2 * PRICE, units: 2 },
      receiver: { goodsCents: 0, units: 0 },
      callItEven: false,
    });
    const authorize = v.receiver.feeCents + v.receiver.shippingCents;
    expect(await p.getByTestId("amount-goods").textContent()).toBe(formatCents(2 * PRICE));
    expect(await p.getByTestId("amount-fee").textContent()).toBe(formatCents(v.receiver.feeCents));
    expect(await p.getByTestId("amount-shipping").textContent()).toBe(
      formatCents(v.receiver.shippingCents),
    );
    expect(await p.getByTestId("amount-authorize").textContent()).toBe(formatCents(authorize));
    const orderId = Number(await review.getAttribute("data-order-id"));
    // Not requested yet: the receiver's page of the draft leads back to this checkout (no wait for terms).
    await p.goto(url(`/transaction/swap/${orderId}`));
    await p.getByTestId("swap-complete-checkout").click();
    await p.waitForURL(
      (u) => u.pathname === "/checkout/swap" && u.searchParams.get("order") === String(orderId),
    );
    await p.getByTestId("swap-review").waitFor();

    // A declined card: the message, the page stays on this swap; the next card is a new attempt.
    await payWithTestCard(p, "4000000000000002");
    await p.waitForURL(
      (u) => u.pathname === "/checkout/swap" && u.searchParams.get("declined") === "1",
    );
    await poll(() => p.getByTestId("pay-error").textContent()).toBe(CARD_DECLINED);
    await payWithTestCard(p, "4242424242424242");
    // A success notice, on /buy (docs/product/screens.md: `?ref=...` notices).
    await p.waitForURL(
      (u) => u.pathname === "/buy" && u.searchParams.get("ref") === "swapRequested",
    );
    await p.getByText(NOTICES.swapRequested).waitFor();
    await p.goto(url(`/transaction/swap/${orderId}`));
    await poll(() => p.getByTestId("swap-status").textContent()).toBe(SWAP_AWAITING_RETAILER);

    const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({
      transactionType: 2,
      statename: "provider_choose_items",
      providerId: provider.r.id,
      receiverId: receiver.r.id,
      actionNeeded: "provider",
    });
    const auths = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.txtype, "authorization")))
      .orderBy(payments.id);
    // The declined attempt is recorded as declined; the second card holds the fee and shipping.
    expect(auths.map((a) => [a.retailerId, a.amountCents, a.status === "declined"])).toEqual([
      [receiver.r.id, authorize, true],
      [receiver.r.id, authorize, false],
    ]);
    await p.goto(url("/cart"));
    expect(await p.getByTestId("cart-line").count()).toBe(0);

    // The provider sees the swap waiting for its selection, the receiver anonymous.
    const q = await signedIn(browser, provider.email, { pages, at: null });
    await q.goto(url(`/transaction/swap/${orderId}`));
    await poll(() => q.getByTestId("swap-status").textContent()).toBe(SWAP_AWAITING_YOUR_SELECTION);
    expect(await q.locator("main").textContent()).not.toContain(receiver.r.storeName);

    // A second swap between the same two retailers: theirmove for the receiver, yourmove for the provider.
    await proceedWithSwap(p, theirs.id, { M: 1 });
    await poll(() => p.getByTestId("checkout-form-error").textContent()).toBe(
      SWAP_ALREADY_THEIR_MOVE,
    );
    await proceedWithSwap(q, mine.id, { L: 1 });
    await poll(() => q.getByTestId("checkout-form-error").textContent()).toBe(
      SWAP_ALREADY_YOUR_MOVE,
    );
  });
});

/** The receiver's swap checkout with a good card; returns the swap's order id. */
async function requestSwap(
  p: Page,
  listingId: number,
  sizes: Record<string, number>,
): Promise<number> {
  await proceedWithSwap(p, listingId, sizes);
  await p.waitForURL((u) => u.pathname === "/checkout/swap");
  const orderId = Number(await p.getByTestId("swap-review").getAttribute("data-order-id"));
  await payWithTestCard(p, "4242424242424242");
  await p.waitForURL((u) => u.pathname === "/buy" && u.searchParams.get("ref") === "swapRequested");
  return orderId;
}

async function panelSays(p: Page, text: string): Promise<void> {
  await poll(() => p.getByTestId("swap-status").textContent(), { timeout: 15_000 }).toBe(text);
}

async function fillCard(p: Page, number: string): Promise<void> {
  await p.locator('input[name="card_number"]').fill(number);
  await p.locator('input[name="card_expiry"]').fill("12/34");
  await p.locator('input[name="card_cvc"]').fill("123");
}

/**
 * Two retailers with a swap listing each (the provider's S x 3, the receiver's L x 2), and the receiver's
 * swap of S x 2 checked out: the provider's to choose.
 */
async function swapRequested() {
  const provider = await retailer();
  const receiver = await retailer();
  const theirs = await createListing(db(), {
    variationId: variation,
    providerId: provider.r.id,
    sizes: { S: 3 },
    listingType: "swap",
  });
  const mine = await createListing(db(), {
    variationId: variation,
    providerId: receiver.r.id,
    sizes: { L: 2 },
    listingType: "swap",
  });
  const p = await signedIn(browser, receiver.email, { pages });
  const orderId = await requestSwap(p, theirs.id, { S: 2 });
  return { provider, receiver, theirs, mine, p, orderId, page: `/transaction/swap/${orderId}` };
}

/** The provider on the swap's page, with the choice form shown. */
async function providerChoosing(email: string, page: string): Promise<Page> {
  const q = await signedIn(browser, email, { pages, at: null });
  await q.goto(url(page));
  await q.getByTestId("swap-choose-form").waitFor();
  return q;
}

describe.concurrent("a swap whose workflow does not answer", () => {
  it("the party whose move it is reads that the order service cannot be reached, and gets no form to send", async () => {
    // A swap's row waiting for the provider, without a workflow: its page cannot ask for the terms (as while
    // the worker restarts).
    const provider = await retailer();
    const receiver = await retailer();
    const listing = await createListing(db(), {
      variationId: variation,
      providerId: provider.r.id,
      sizes: { M: 2 },
      listingType: "swap",
    });
    const swap = await createSwapOrder(db(), {
      providerId: provider.r.id,
      receiverId: receiver.r.id,
      lines: [
        { listingId: listing.id, variationId: variation, sizes: { M: 1 }, unitPriceCents: PRICE },
      ],
    });
    const p = await signedIn(browser, provider.email, { pages, at: null });
    await p.goto(url(`/transaction/swap/${swap.order.id}`));
    expect(await p.getByTestId("swap-unavailable").textContent()).toBe(ORDER_UNAVAILABLE_MESSAGE);
    expect(await p.locator('[data-testid="swap-panel"] form').count()).toBe(0);
  });
});

describe.concurrent("swap negotiation and payment", () => {
  it("the provider chooses and approves; a decline over money, called even on the last chance; each side pays its due; stock taken, a shipment per side", async () => {
    const { provider, receiver, theirs, mine, p, orderId, page } = await swapRequested();

    // The provider chooses 1 unit of the receiver's swap listing, then approves.
    const q = await providerChoosing(provider.email, page);
    expect(await q.getByTestId("swap-choice").count()).toBe(1);
    // More than the listing holds: the field's max stops it in the browser; past that, the server refuses.
    await q.locator(`input[name="units.${mine.id}.L"]`).evaluate((el) => el.removeAttribute("max"));
    await q.locator(`input[name="units.${mine.id}.L"]`).fill("3");
    await q.getByTestId("swap-choose").click();
    await poll(() => q.getByTestId("swap-error").textContent()).toBe(
      "These units are no longer available.",
    );
    await q.locator(`input[name="units.${mine.id}.L"]`).fill("1");
    await q.getByTestId("swap-choose").click();
    await q.getByTestId("swap-approve").waitFor();
    expect(await q.getByTestId("swap-approve").textContent()).toBe("Approve Swap");
    // Each line names its style (both sides' lines are of the test's one variation).
    const [style] = await db()
      .select({ sku: productVariations.sku })
      .from(productVariations)
      .where(eq(productVariations.id, variation));
    for (const t of await q.getByTestId("swap-line-style").allTextContents())
      expect(t.startsWith(`${style.sku} `)).toBe(true);
    // Ticking "call it even" changes no quantity: the button still approves (Submit Response only if modified).
    await hydrated(q);
    await q.locator("#swap-call-it-even").check();
    expect(await q.getByTestId("swap-approve").textContent()).toBe("Approve Swap");
    await q.locator("#swap-call-it-even").uncheck();
    await q.getByTestId("swap-approve").click();
    await panelSays(q, SWAP_AWAITING_RETAILER);

    // The receiver declines over money (it would add $19.99); the provider calls it even on the last chance.
    await p.goto(url(page));
    await p.getByTestId("swap-decline-form").waitFor();
    // Before that, each side's amounts: the receiver adds the difference, the provider is paid it; the fee is the swap's.
    const terms = swapValuation({
      provider: { goodsCents: 2 * PRICE, units: 2 },
      receiver: { goodsCents: PRICE, units: 1 },
      callItEven: false,
    });
    expect(await amountsOf(p)).toEqual({
      "Goods you give": formatCents(PRICE),
      "Goods you receive": formatCents(2 * PRICE),
      "Value difference you add": formatCents(terms.receiver.cashCents),
      "Fee (5% of the larger value)": formatCents(terms.receiver.feeCents),
      "Shipping of the units you receive": formatCents(terms.receiver.shippingCents),
      "Your payment": formatCents(terms.receiver.totalDueCents),
    });
    await q.goto(url(page));
    expect(await amountsOf(q)).toEqual({
      "Goods you give": formatCents(2 * PRICE),
      "Goods you receive": formatCents(PRICE),
      "Value difference paid to you once both parcels are scanned": formatCents(PRICE),
      "Fee (5% of the larger value)": formatCents(terms.provider.feeCents),
      "Shipping of the units you receive": formatCents(terms.provider.shippingCents),
      "Your payment": formatCents(terms.provider.totalDueCents),
    });
    expect(await q.locator("main").textContent()).not.toContain("Fee (10%)");
    await p.locator("#swap-decline-reason").selectOption("61");
    await p.getByTestId("swap-decline").click();
    await panelSays(p, SWAP_AWAITING_RETAILER);
    await q.goto(url(page));
    await q.getByTestId("swap-last-chance").waitFor();
    expect(await q.getByTestId("reason").allTextContents()).toEqual([
      expect.stringMatching(/^Other Retailer: /),
    ]);
    await q.getByTestId("swap-call-it-even-last").click();

    // Payment: each side pays the same fee and the shipping of what it receives; nobody adds cash.
    await q.getByTestId("swap-pay-form").waitFor();
    const v = swapValuation({
      provider: { goodsCents: 2 * PRICE, units: 2 },
      receiver: { goodsCents: PRICE, units: 1 },
      callItEven: true,
    });
    expect(await q.getByTestId("swap-pay-amount").textContent()).toBe(
      formatCents(v.provider.totalDueCents),
    );
    await fillCard(q, "4242424242424242");
    await q.getByTestId("swap-pay").click();
    await q.waitForURL((u) => u.pathname.startsWith("/orders/sentswaps"));
    // The first to pay finds the swap there, while it waits for the other side's payment.
    const paidCard = q.locator(`[data-testid=order-card][data-order-id="${orderId}"]`);
    await paidCard.waitFor();
    expect(await paidCard.getByTestId("status-link").textContent()).toBe(
      SWAP_CARD_AWAITING_PAYMENT,
    );
    await p.goto(url("/alerts?tab=swaps"));
    const owedCard = p.locator(`[data-testid=order-card][data-order-id="${orderId}"]`);
    expect(await owedCard.getByTestId("status-link").textContent()).toBe(SWAP_CARD_PAYMENT_DUE);
    await p.goto(url(page));
    await p.getByTestId("swap-pay-form").waitFor();
    expect(await p.getByTestId("swap-pay-amount").textContent()).toBe(
      formatCents(v.receiver.totalDueCents),
    );
    // The side that owes sees what it owes, not that a payment method is needed.
    expect(await p.getByTestId("display-status").textContent()).toBe(
      `Payment Due: ${formatCents(v.receiver.totalDueCents)}`,
    );
    await fillCard(p, "4000000000000002");
    await p.getByTestId("swap-pay").click();
    await poll(() => p.getByTestId("swap-error").textContent()).toBe(CARD_DECLINED);
    await fillCard(p, "4242424242424242");
    await p.getByTestId("swap-pay").click();
    await p.waitForURL((u) => u.pathname.startsWith("/orders/sentswaps"));

    await poll(
      async () => (await db().select().from(orders).where(eq(orders.id, orderId)))[0].statename,
      { timeout: 15_000 },
    ).toBe("ship_swap");
    const stock = await db()
      .select({ id: listings.id, sizes: listings.sizes })
      .from(listings)
      .where(eq(listings.providerId, provider.r.id));
    expect(stock.find((x) => x.id === theirs.id)?.sizes).toEqual({ S: 1 });
    const [mineNow] = await db()
      .select({ sizes: listings.sizes })
      .from(listings)
      .where(eq(listings.id, mine.id));
    expect(mineNow.sizes).toEqual({ L: 1 });
    const ships = await db().select().from(shipments).where(eq(shipments.orderId, orderId));
    expect(ships.map((x) => x.senderId).sort()).toEqual([provider.r.id, receiver.r.id].sort());
    // Each side's payment is named as a swap's, not as a purchase's receiver's.
    const captured = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.txtype, "capture")));
    expect(captured.map((x) => [x.retailerId, x.name]).sort()).toEqual(
      [
        [provider.r.id, "swap payment"],
        [receiver.r.id, "swap payment"],
      ].sort(),
    );

    // The goods, each with whose it is (the receiver's view).
    await p.goto(url(page));
    expect(await p.getByTestId("line-side").allTextContents()).toEqual(["You receive", "You give"]);
    // Called even: nobody is paid a value difference.
    await q.goto(url(page));
    expect(await q.getByTestId("payout-pending").count()).toBe(0);
    // The receiver's page shows the difference forgiven and what it paid, and no longer its
    // decline over money; staff see both sides.
    await p.goto(url(page));
    expect(await p.getByTestId("reason").count()).toBe(0);
    expect(await amountsOf(p)).toEqual({
      "Goods you give": formatCents(PRICE),
      "Goods you receive": formatCents(2 * PRICE),
      "Value difference forgiven (called even)": formatCents(PRICE),
      "Fee (5% of the larger value)": formatCents(v.receiver.feeCents),
      "Shipping of the units you receive": formatCents(v.receiver.shippingCents),
      "Your payment": formatCents(v.receiver.totalDueCents),
    });
    const staffEmail = uniqueEmail("swapamounts");
    await createStaffUser(db(), { email: staffEmail, password: DEFAULT_TEST_PASSWORD });
    const staff = await signedIn(browser, staffEmail, { pages, at: null });
    await staff.goto(url(page));
    const cells = (side: string) =>
      staff.getByTestId(`amounts-${side}`).locator("td").allTextContents();
    expect(await cells("provider")).toEqual([
      provider.r.storeName,
      formatCents(2 * PRICE),
      formatCents(0),
      formatCents(v.provider.feeCents),
      formatCents(v.provider.shippingCents),
      formatCents(v.provider.totalDueCents),
    ]);
    expect(await cells("receiver")).toEqual([
      receiver.r.storeName,
      formatCents(PRICE),
      formatCents(0),
      formatCents(v.receiver.feeCents),
      formatCents(v.receiver.shippingCents),
      formatCents(v.receiver.totalDueCents),
    ]);
    expect(await staff.getByTestId("amount-forgiven").textContent()).toBe(
      `Value difference forgiven (called even): ${formatCents(PRICE)}`,
    );
  });
});

/** The order page's amounts box as label → amount. */
async function amountsOf(p: Page): Promise<Record<string, string>> {
  const box = p.getByTestId("order-amounts");
  const labels = await box.locator("dt").allTextContents();
  const values = await box.locator("dd").allTextContents();
  return Object.fromEntries(labels.map((l, i) => [l, values[i]]));
}

describe.concurrent("swap modification", () => {
  it("a removal that would leave a side empty is refused ('Summary is restored'); lowering units is a Submit Response the other side answers", async () => {
    const { provider, mine, p, orderId, page } = await swapRequested();

    const q = await providerChoosing(provider.email, page);
    await q.locator(`input[name="units.${mine.id}.L"]`).fill("1");
    await q.getByTestId("swap-choose").click();
    // The receiver's only line removed would leave its side empty: refused, the terms stand.
    await q.getByTestId("swap-lines-theirs").getByTestId("swap-remove-line").click();
    await poll(() => q.getByTestId("swap-error").textContent()).toBe(SWAP_SUMMARY_RESTORED);
    expect(
      await q
        .getByTestId("swap-lines-theirs")
        .locator('input[name="lines.receiver.0.L"]')
        .inputValue(),
    ).toBe("1");
    await q.getByTestId("swap-approve").click();
    await panelSays(q, SWAP_AWAITING_RETAILER);

    // The receiver lowers the provider's units: the button becomes Submit Response; the provider answers next.
    await p.goto(url(page));
    await p.getByTestId("swap-approve-form").waitFor();
    expect(await p.getByTestId("swap-approve").textContent()).toBe(TRANSACTION_LABELS.approveSwap);
    await p.locator('input[name="lines.provider.0.S"]').fill("1");
    await poll(() => p.getByTestId("swap-approve").textContent()).toBe(
      TRANSACTION_LABELS.submitResponseSwap,
    );
    await p.getByTestId("swap-approve").click();
    await panelSays(p, SWAP_AWAITING_RETAILER);
    const provided = await db()
      .select()
      .from(orderContributions)
      .where(and(eq(orderContributions.orderId, orderId), eq(orderContributions.side, "provider")));
    expect(provided.map((c) => c.units)).toEqual([{ S: 1 }]);
    await q.goto(url(page));
    await q.getByTestId("swap-approve-form").waitFor();
    expect(await q.getByTestId("swap-approve").textContent()).toBe(
      TRANSACTION_LABELS.submitResponseSwap,
    );
    expect(await q.locator('input[name="lines.provider.0.S"]').inputValue()).toBe("1");
  });
});

/**
 * A requested swap taken to shipping: the provider chooses 2 L from the receiver's swap listings and lowers
 * them to 1 ("Submit Response"), the receiver calls the $19.99 difference even and approves, the provider
 * approves, both pay.
 */
async function swapPaid() {
  const s = await swapRequested();
  const q = await providerChoosing(s.provider.email, s.page);
  await q.locator(`input[name="units.${s.mine.id}.L"]`).fill("2");
  await q.getByTestId("swap-choose").click();
  await q.getByTestId("swap-approve-form").waitFor();
  await q.locator('input[name="lines.receiver.0.L"]').fill("1");
  await poll(() => q.getByTestId("swap-approve").textContent()).toBe(
    TRANSACTION_LABELS.submitResponseSwap,
  );
  await q.getByTestId("swap-approve").click();
  await panelSays(q, SWAP_AWAITING_RETAILER);
  await s.p.goto(url(s.page));
  await s.p.locator("#swap-call-it-even").check();
  await s.p.getByTestId("swap-approve").click();
  await panelSays(s.p, SWAP_AWAITING_RETAILER);
  await q.goto(url(s.page));
  await q.getByTestId("swap-approve").click();
  await q.getByTestId("swap-pay-form").waitFor();
  for (const page of [s.p, q]) {
    await page.goto(url(s.page));
    await page.getByTestId("swap-pay-form").waitFor();
    await fillCard(page, "4242424242424242");
    await page.getByTestId("swap-pay").click();
    await page.waitForURL((u) => u.pathname.startsWith("/orders/sentswaps"));
  }
  await poll(
    async () => (await db().select().from(orders).where(eq(orders.id, s.orderId)))[0].statename,
    { timeout: 15_000 },
  ).toBe("ship_swap");
  return { ...s, q };
}

/** Staff sends a carrier event for one side's parcel from the admin order card (the signed webhook path). */
async function carrierEvent(
  staff: Page,
  orderId: number,
  side: "provider" | "receiver",
  status: "picked_up" | "delivered",
): Promise<void> {
  await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=shipping`));
  await staff.getByTestId(`admin-parcel-${side}`).getByTestId(`carrier-${status}`).click();
  await staff.waitForURL((u) => u.searchParams.get("notice") === status);
  await hydrated(staff);
}

describe.concurrent("swap shipping and rating", () => {
  it("each side prints its own papers, the carrier scans both parcels, each side rates what it received and may request an RMA; the orders tabs and the admin card show both parcels", async () => {
    const { provider, receiver, p, q, orderId, page } = await swapPaid();
    // The provider paid last and landed on the swaps it sends: this one, 2 units going to the receiver.
    const sent = q.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`);
    await poll(() => sent.getAttribute("data-swap-kind")).toBe("sent");
    expect(await sent.getByTestId("card-swap-sent").textContent()).toBe(
      `Swap sent: 2 units to retailer-00${receiver.r.id}`,
    );
    expect(await sent.getByTestId("card-swap-received").count()).toBe(0);
    await p.goto(url("/orders/receivedswaps"));
    const received = p.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`);
    expect(await received.getByTestId("card-swap-received").textContent()).toBe(
      `Swap received: 2 units from retailer-00${provider.r.id}`,
    );
    await p.goto(url("/orders/swaps"));
    expect(
      await p
        .locator(`[data-testid="order-card"][data-order-id="${orderId}"]`)
        .getByTestId("card-swap-halves")
        .textContent(),
    ).toBe(
      `Swap sent: 1 unit to retailer-00${provider.r.id} · Swap received: 2 units from retailer-00${provider.r.id}`,
    );

    // Each side sees its own parcel with its papers, and the other's parcel.
    for (const [who, me] of [
      [q, provider.r.id],
      [p, receiver.r.id],
    ] as const) {
      await who.goto(url(page));
      await who.getByTestId("swap-my-parcel").waitFor();
      expect(await who.getByTestId("swap-my-parcel-status").textContent()).toBe("Pickup Scheduled");
      expect(await who.getByTestId("swap-their-parcel-status").textContent()).toBe(
        "Pickup Scheduled",
      );
      expect(await who.getByTestId("form-cancel_shipment").count()).toBe(1);
      const label = await who.getByTestId("label-link").getAttribute("href");
      const [mine] = await db()
        .select()
        .from(shipments)
        .where(and(eq(shipments.orderId, orderId), eq(shipments.senderId, me)));
      expect(label).toContain(mine.trackingNumber!);
      const res = await who.request.get(url(label!));
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toContain("application/pdf");
      // The packing slip of this side's parcel: from it, to the other side, anonymous both ways.
      const slip = await who.request.get(
        url((await who.getByTestId("packing-slip-link").getAttribute("href"))!),
      );
      expect(slip.status()).toBe(200);
      const other = me === provider.r.id ? receiver.r.id : provider.r.id;
      const text = pdfText(await slip.body()).replace(/\s+/g, " ");
      expect(text).toContain(`From retailer-00${me}`);
      expect(text).toContain(`To retailer-00${other}`);
      expect(text).toContain(`Total units ${me === provider.r.id ? 2 : 1}`);
      for (const name of [provider.r.storeName, receiver.r.storeName])
        expect(text).not.toContain(name);
      expect(pdfText(await res.body())).not.toContain(
        me === provider.r.id ? receiver.r.storeName : provider.r.storeName,
      );
      expect(await who.locator("main").textContent()).not.toContain(
        me === provider.r.id ? receiver.r.storeName : provider.r.storeName,
      );
    }
    // A side cannot print the other side's label.
    const [providerParcel] = await db()
      .select()
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), eq(shipments.senderId, provider.r.id)));
    expect(
      (await p.request.get(url(`/shipping-label/${providerParcel.trackingNumber}`))).status(),
    ).toBe(404);

    // The carrier scans the provider's parcel first: the swap stays in shipping until both are scanned.
    const staffEmail = uniqueEmail("swapstaff");
    await createStaffUser(db(), { email: staffEmail, password: DEFAULT_TEST_PASSWORD });
    const staff = await signedIn(browser, staffEmail, { pages, at: null });
    // "Schedule pickup" on the receiver's parcel: the swap's workflow books it a new call tag (912 in Updates).
    const receiverCallTag = async () =>
      (
        await db()
          .select({ callTag: shipments.callTag })
          .from(shipments)
          .where(and(eq(shipments.orderId, orderId), eq(shipments.senderId, receiver.r.id)))
      )[0]?.callTag;
    const firstTag = await receiverCallTag();
    expect(firstTag).toBeTruthy();
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=shipping`));
    await staff.getByTestId("admin-parcel-receiver").getByTestId("carrier-pre_transit").click();
    await staff.waitForURL((u) => u.searchParams.get("notice") === "pre_transit");
    await poll(receiverCallTag, { timeout: 15_000 }).not.toBe(firstTag);
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=updates`));
    expect(
      await staff
        .locator(`[data-testid=updates] tr[data-code="${ACTION.CALL_TAG_BOOKED_BY_STAFF_SWAP}"]`)
        .textContent(),
    ).toContain("Pickup booked by staff");
    await carrierEvent(staff, orderId, "provider", "picked_up");
    // The scan's answer can come before its parcel row is read back: reload until the card shows it.
    await poll(
      async () => {
        await staff.reload();
        return staff.getByTestId("admin-parcel-provider").textContent();
      },
      { timeout: 15_000 },
    ).toContain("In-Route");
    expect(await staff.getByTestId("admin-parcel-receiver").textContent()).toContain(
      "Pickup Scheduled",
    );
    await carrierEvent(staff, orderId, "receiver", "picked_up");
    await carrierEvent(staff, orderId, "provider", "delivered");

    // The receiver got the provider's goods: it rates them and may request an RMA; the provider must wait.
    await p.goto(url(page));
    await poll(() => p.getByTestId("swap-their-parcel-status").textContent()).toBe("Delivered");
    expect(await p.getByTestId("rma-button").count()).toBe(1);
    // It confirms the package on the rating screen, then rates.
    await p.goto(url(`/rate/${orderId}`));
    await p.getByTestId("confirm-received").click();
    await poll(() => p.getByTestId("confirm-received").count()).toBe(0);
    await p.getByTestId("open-rating").click();
    await p.getByTestId("rating-modal").waitFor();
    for (const f of ["condition", "packaging", "timeliness", "overall"])
      await p.getByTestId(`stars-${f}`).locator('input[value="4"]').check();
    await p.getByTestId("submit-rating").click();
    await p.getByTestId("rating-saved").waitFor();
    await q.goto(url(page));
    expect(await q.getByTestId("rate-link").count()).toBe(0);
    expect(await q.getByTestId("rma-button").count()).toBe(0);
    await poll(() => q.getByTestId("their-rating").textContent()).toContain("4 of 5");

    await carrierEvent(staff, orderId, "receiver", "delivered");
    await poll(
      async () => (await db().select().from(orders).where(eq(orders.id, orderId)))[0].statename,
      { timeout: 15_000 },
    ).toBe("delivered");
    await q.goto(url(page));
    await q.getByTestId("rate-link").click();
    await q.getByTestId("rating-modal").waitFor();
    for (const f of ["condition", "packaging", "timeliness", "overall"])
      await q.getByTestId(`stars-${f}`).locator('input[value="5"]').check();
    await q.getByTestId("submit-rating").click();
    await q.getByTestId("rating-saved").waitFor();
    const rated = await db().select().from(orders).where(eq(orders.id, orderId));
    expect([rated[0].receiverRating, rated[0].providerRating]).toEqual([4, 5]);

    // The staff card: both sides' payments, the ledger balanced.
    await staff.goto(url(`/admin/active-transactions?order=${orderId}&tab=payments`));
    expect(await staff.getByTestId("ledger-balanced").textContent()).toBe("yes");
    // Every e-mail of this swap names the other side by its number only.
    const [{ externalId }] = await db()
      .select({ externalId: orders.externalId })
      .from(orders)
      .where(eq(orders.id, orderId));
    const mails = (await db().select().from(outboxEmails)).filter((m) =>
      `${m.subject}${m.bodyText}`.includes(externalId),
    );
    expect(mails.length).toBeGreaterThan(3);
    for (const m of mails)
      for (const name of [provider.r.storeName, receiver.r.storeName])
        expect(`${m.subject}${m.bodyText}${m.bodyHtml ?? ""}`).not.toContain(name);
    // Staff find it by type (2 Swap) and by its call tag's action code (910 ship_swap).
    await staff.goto(url("/admin/active-transactions?type=2&action=910"));
    expect(
      await staff.locator(`[data-testid="admin-order-card"][data-order-id="${orderId}"]`).count(),
    ).toBe(1);

    // An RMA on the receiver's side: 1 of the 2 units it received is missing (no pictures needed).
    await p.goto(url(`/create-rma/${orderId}`));
    await p.getByTestId("rma-units-form").waitFor();
    const line = p.getByTestId("rma-line").first();
    await line.locator('input[name^="q."]').fill("1");
    await line.locator('select[name^="r."]').selectOption("2");
    await p.getByTestId("rma-next").click();
    await p.getByTestId("rma-pictures-form").waitFor();
    await p.getByTestId("rma-next").click();
    await rmaContactStep(p, {
      name: "Sam Swapper",
      email: "sam@example.test",
      phone: "555-0199",
      packingSlipName: "Sam",
    });
    await p.getByTestId("rma-confirm-form").waitFor();
    // A swap's victim is owed the value of the goods it asks back.
    const [got] = await db()
      .select()
      .from(orderContributions)
      .where(
        and(
          eq(orderContributions.orderId, orderId),
          eq(orderContributions.side, "provider"),
          eq(orderContributions.type, "goods"),
        ),
      );
    expect(await p.getByTestId("rma-amount").textContent()).toBe(formatCents(got.unitPriceCents));
    await p.getByTestId("rma-process").click();
    await p.waitForURL((u) => u.searchParams.get("rma") === "complete");
    const [rma] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.rmaForId, orderId), eq(orders.providerId, receiver.r.id)));
    expect(rma).toMatchObject({ transactionType: 3, receiverId: provider.r.id });
    await poll(
      async () => (await db().select().from(orders).where(eq(orders.id, rma.id)))[0].recordSeq,
      { timeout: 15_000 },
    ).toBeGreaterThan(0);

    // Staff approve it; Process shows the amounts first; with nothing to send back it settles at once.
    await staff.goto(url(`/admin/active-rmas/pending?rma=${rma.id}`));
    await staff.getByTestId("admin-rma-card").waitFor();
    await hydrated(staff);
    await staff.getByTestId("rma-decide-line").locator('input[value="approve"]').check();
    await staff.getByTestId("rma-process-staff").click();
    await staff.getByTestId("rma-review").waitFor();
    expect(await staff.getByTestId("rma-review-refund").textContent()).toBe(
      formatCents(got.unitPriceCents),
    );
    expect(await staff.getByTestId("rma-review-charge").textContent()).toBe(
      formatCents(got.unitPriceCents),
    );
    await staff.getByTestId("rma-confirm-staff").click();
    await staff.getByTestId("admin-notice").waitFor();
    await poll(
      async () => (await db().select().from(orders).where(eq(orders.id, rma.id)))[0].stage,
      {
        timeout: 15_000,
      },
    ).toBe("rmacompleted");
    // The receiver is paid out the unit's value; the provider is charged it, and, having paid its side of the
    // swap without putting a card on file, reads that the charge is queued for its card.
    await poll(
      async () =>
        (
          await db()
            .select()
            .from(payments)
            .where(and(eq(payments.orderId, rma.id), eq(payments.retailerId, receiver.r.id)))
        ).map((x) => x.amountCents),
      { timeout: 15_000 },
    ).toEqual([got.unitPriceCents]);
    await p.goto(url(`/rma/${rma.id}`));
    expect(await p.getByTestId("rma-money").textContent()).toBe(
      `Returned to you: ${formatCents(got.unitPriceCents)}`,
    );
    expect(await p.getByTestId("counterparty").textContent()).toBe(`retailer-00${provider.r.id}`);
    await q.goto(url(`/rma/${rma.id}`));
    expect(await q.getByTestId("rma-money").textContent()).toBe(
      `Charged to you: ${formatCents(got.unitPriceCents)} ${PAYMENT_QUEUED}`,
    );
    expect(
      (await db().select({ ledger: orders.ledger }).from(orders).where(eq(orders.id, rma.id)))[0]
        .ledger,
    ).toMatchObject({
      chargeQueued: true,
    });
    expect(await q.getByTestId("counterparty").textContent()).toBe(`retailer-00${receiver.r.id}`);
    // Neither side's RMA page (data included) nor any RMA e-mail names the other; the victim's contact stays with staff.
    expect(await p.content()).not.toContain(provider.r.storeName);
    for (const hidden of [receiver.r.storeName, "Sam Swapper", "sam@example.test"])
      expect(await q.content()).not.toContain(hidden);
    const rmaMails = (await db().select().from(outboxEmails)).filter((m) =>
      `${m.subject}${m.bodyText}`.includes(rma.externalId),
    );
    expect(rmaMails.length).toBeGreaterThan(1);
    for (const m of rmaMails)
      for (const name of [provider.r.storeName, receiver.r.storeName])
        expect(`${m.subject}${m.bodyText}${m.bodyHtml ?? ""}`).not.toContain(name);
  });

  it("a side cancels its shipment while the pickup is scheduled: its parcel is cancelled, the other side's still to ship", async () => {
    const { p, q, page } = await swapPaid();
    await p.goto(url(page));
    await p.getByTestId("form-cancel_shipment").waitFor();
    await p.getByTestId("cancel_shipment-submit").click();
    await poll(() => p.getByTestId("swap-error").textContent()).toBe("Please choose a reason.");
    await p.getByTestId("cancel_shipment-reason").selectOption("52");
    await p.getByTestId("cancel_shipment-submit").click();
    await poll(() => p.getByTestId("swap-my-parcel-status").textContent(), {
      timeout: 15_000,
    }).toBe("Cancelled");
    expect(await p.getByTestId("label-link").count()).toBe(0);
    expect(await p.getByTestId("form-cancel_shipment").count()).toBe(0);
    await q.goto(url(page));
    expect(await q.getByTestId("swap-my-parcel-status").textContent()).toBe("Pickup Scheduled");
    expect(await q.getByTestId("swap-their-parcel-status").textContent()).toBe("Cancelled");
  });
});

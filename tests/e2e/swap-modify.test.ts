/**
 * A swap modified both ways in the browser (docs/product/orders.md, "Swap"; ADR 0025): the provider chooses
 * again while the swap waits on its approval; a raise past the units a listing still has is refused with its
 * message and a 4xx, and nothing changes; the provider raises its own line and adds a line from the
 * receiver's swap listings ("Submit Response"); the receiver sees the new lines and amounts and adds a line
 * from the provider's swap listings; the provider sees that line.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { listings, orderContributions, orders, payments } from "../../db/schema";
import { CHECKOUT_TERMS } from "../../domain/cart";
import { swapValuation } from "../../domain/fees";
import {
  SWAP_AWAITING_RETAILER,
  SWAP_REQUEST_DECLINED,
  TRANSACTION_LABELS,
} from "../../domain/messages";
import { reasonLabel } from "../../domain/reasons";
import { formatCents } from "../../domain/money";
import { SWAP_ERRORS, SWAP_SOLD_OUT_MESSAGE } from "../../workflows/swap/contract";
import { authorizeBrand, createListing, createRetailer, createWorld } from "../factories";
import { payWithTestCard, postCartForm, checkTerms } from "./buy-helpers";
import { db, hydrated, launchBrowser, pagesPerTest, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
const pages = pagesPerTest();
let brand: number;
/** Two styles of the brand: $19.99 and $12.50 a unit. */
const PRICES = [1999, 1250] as const;
const variations: number[] = [];

beforeAll(async () => {
  const world = await createWorld(db(), {
    products: PRICES.map((priceCents) => ({ colors: 1, priceCents })),
  });
  brand = world.brand.id;
  variations.push(...world.products.map((p) => p.variations[0].id));
  browser = await launchBrowser();
});

async function retailer(): Promise<{ id: number; email: string }> {
  const email = uniqueEmail("swapmod");
  const { retailer: r } = await createRetailer(db(), { payout: true, user: { email } });
  await authorizeBrand(db(), r.id, brand);
  return { id: r.id, email };
}

const swapListing = (providerId: number, style: 0 | 1, sizes: Record<string, number>) =>
  createListing(db(), { variationId: variations[style], providerId, sizes, listingType: "swap" });

/** Each side's goods as the read model holds them (listing id -> units; removed lines left out). */
async function goods(
  orderId: number,
  side: "provider" | "receiver",
): Promise<Record<number, Record<string, number>>> {
  const rows = await db()
    .select({
      listingId: orderContributions.listingId,
      units: orderContributions.units,
      quantity: orderContributions.quantity,
    })
    .from(orderContributions)
    .where(
      and(
        eq(orderContributions.orderId, orderId),
        eq(orderContributions.side, side),
        eq(orderContributions.type, "goods"),
      ),
    );
  return Object.fromEntries(rows.filter((r) => r.quantity > 0).map((r) => [r.listingId, r.units]));
}

async function amountsOf(p: Page): Promise<Record<string, string>> {
  const box = p.getByTestId("order-amounts");
  const labels = await box.locator("dt").allTextContents();
  const values = await box.locator("dd").allTextContents();
  return Object.fromEntries(labels.map((l, i) => [l, values[i]]));
}

async function panelSays(p: Page, text: string): Promise<void> {
  await expect
    .poll(() => p.getByTestId("swap-status").textContent(), { timeout: 15_000 })
    .toBe(text);
}

/** The swap's page on this side's move, hydrated (a changed quantity makes the button "Submit Response"). */
async function onMove(p: Page, page: string): Promise<void> {
  await p.goto(url(page));
  await p.getByTestId("swap-approve-form").waitFor();
  await hydrated(p);
}

/** The receiver's swap cart of one listing, its terms accepted and checked out with a good card. */
async function requestSwap(email: string, listingId: number, sizes: Record<string, number>) {
  const p = await signedIn(browser, email, { pages, at: null });
  await postCartForm(p, { intent: "add", listingId, ...sizes });
  await p.goto(url("/checkout"));
  expect(await p.getByTestId("checkout-terms").textContent()).toContain(CHECKOUT_TERMS.swap.title);
  await checkTerms(p);
  await p.getByTestId("checkout-continue").click();
  await p.waitForURL((u) => u.pathname === "/checkout/swap");
  const orderId = Number(await p.getByTestId("swap-review").getAttribute("data-order-id"));
  await payWithTestCard(p, "4242424242424242");
  await p.waitForURL((u) => u.pathname === "/buy" && u.searchParams.get("ref") === "swapRequested");
  return { p, orderId, page: `/transaction/swap/${orderId}` };
}

/** "Make Payment" with a good card. */
async function payOnPage(p: Page, page: string): Promise<void> {
  await p.goto(url(page));
  await p.getByTestId("swap-pay-form").waitFor();
  await p.locator('input[name="card_number"]').fill("4242424242424242");
  await p.locator('input[name="card_expiry"]').fill("12/34");
  await p.locator('input[name="card_cvc"]').fill("123");
  await p.getByTestId("swap-pay").click();
}

describe("swap modified both ways", () => {
  it("the provider chooses again; a raise past the units listed is refused (4xx, nothing changed); raises and additions both ways, each side sees the other's lines and amounts", async () => {
    const provider = await retailer();
    const receiver = await retailer();
    const a = await swapListing(provider.id, 0, { S: 3 });
    const b = await swapListing(provider.id, 1, { M: 2 });
    const c = await swapListing(receiver.id, 0, { L: 2 });
    const d = await swapListing(receiver.id, 1, { XL: 3 });

    // The receiver asks for 2 S of the provider's first listing and checks out.
    const { p, orderId, page } = await requestSwap(receiver.email, a.id, { "size.S": 2 });

    // The provider chooses 1 L; the swap waits on its approval, and it may choose again: 2 L instead.
    const q = await signedIn(browser, provider.email, { pages, at: null });
    await q.goto(url(page));
    await q.getByTestId("swap-choose-form").waitFor();
    await q.locator(`input[name="units.${c.id}.L"]`).fill("1");
    await q.getByTestId("swap-choose").click();
    const again = q.getByTestId("swap-choose-again");
    await again.waitFor();
    expect(await again.locator(`input[name="units.${c.id}.L"]`).inputValue()).toBe("1");
    await again.locator(`input[name="units.${c.id}.L"]`).fill("2");
    await again.getByTestId("swap-choose").click();
    await expect
      .poll(() => goods(orderId, "receiver"), { timeout: 15_000 })
      .toEqual({ [c.id]: { L: 2 } });
    await onMove(q, page);
    expect(await q.locator('input[name="lines.receiver.0.L"]').inputValue()).toBe("2");

    // Past the units listed (3 S): refused with the message and a 4xx; the terms stand.
    const before = await db()
      .select({ view: orders.swapView, seq: orders.recordSeq })
      .from(orders)
      .where(eq(orders.id, orderId));
    await q.locator('input[name="lines.provider.0.S"]').fill("4");
    await expect
      .poll(() => q.getByTestId("swap-approve").textContent())
      .toBe(TRANSACTION_LABELS.submitResponseSwap);
    const [refusal] = await Promise.all([
      q.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(page)),
      q.getByTestId("swap-approve").click(),
    ]);
    expect(refusal.status()).toBe(400);
    await expect
      .poll(() => q.getByTestId("swap-error").textContent())
      .toContain(SWAP_ERRORS.more_than_listed);
    expect(await q.getByTestId("swap-error").textContent()).toContain(
      "Size S: 3 listed, you asked for 4.",
    );
    // A forged form: a size named like an Object member, and an addition of a listing that is not the side's.
    for (const field of ["lines.provider.0.constructor", `add.provider.${c.id}.L`]) {
      const forged = await q.evaluate(
        async ([action, name]) => {
          const body = new FormData();
          body.set("intent", "approve");
          body.set(name, "1");
          const res = await fetch(action, { method: "POST", body });
          return { status: res.status, text: await res.text() };
        },
        [page, field] as const,
      );
      expect(forged.status).toBe(400);
      expect(forged.text).toContain(SWAP_ERRORS.more_than_listed);
    }
    expect(await goods(orderId, "provider")).toEqual({ [a.id]: { S: 2 } });
    expect(
      await db()
        .select({ view: orders.swapView, seq: orders.recordSeq })
        .from(orders)
        .where(eq(orders.id, orderId)),
    ).toEqual(before);

    // The provider gives one S more (3, all it lists) and asks for 1 XL of the receiver's other listing.
    await onMove(q, page);
    const addTheirs = q.getByTestId("swap-add-theirs");
    expect(await addTheirs.textContent()).toContain("(of 3 listed)");
    expect(await q.getByTestId("swap-add-mine").textContent()).toContain("(of 2 listed)");
    await q.locator('input[name="lines.provider.0.S"]').fill("3");
    await addTheirs.locator(`input[name="add.receiver.${d.id}.XL"]`).fill("1");
    await q.getByTestId("swap-approve").click();
    await panelSays(q, SWAP_AWAITING_RETAILER);
    expect(await goods(orderId, "provider")).toEqual({ [a.id]: { S: 3 } });
    expect(await goods(orderId, "receiver")).toEqual({ [c.id]: { L: 2 }, [d.id]: { XL: 1 } });

    // The receiver sees the new lines and amounts: it gives $39.98 + $12.50, receives $59.97 and adds the difference.
    let terms = swapValuation({
      provider: { goodsCents: 3 * PRICES[0], units: 3 },
      receiver: { goodsCents: 2 * PRICES[0] + PRICES[1], units: 3 },
      callItEven: false,
    });
    await onMove(p, page);
    expect(await p.locator('input[name="lines.provider.0.S"]').inputValue()).toBe("3");
    expect(await p.getByTestId("swap-lines-mine").getByTestId("swap-line").count()).toBe(2);
    expect(await p.locator('input[name="lines.receiver.1.XL"]').inputValue()).toBe("1");
    expect(await p.getByTestId("swap-my-due").textContent()).toBe(
      formatCents(terms.receiver.totalDueCents),
    );
    expect(await amountsOf(p)).toMatchObject({
      "Goods you give": formatCents(2 * PRICES[0] + PRICES[1]),
      "Goods you receive": formatCents(3 * PRICES[0]),
      "Value difference you add": formatCents(terms.receiver.cashCents),
      "Your payment": formatCents(terms.receiver.totalDueCents),
    });

    // The receiver asks for 1 M of the provider's other listing: the provider sees it and what it now pays.
    await p
      .getByTestId("swap-add-theirs")
      .locator(`input[name="add.provider.${b.id}.M"]`)
      .fill("1");
    await p.getByTestId("swap-approve").click();
    await panelSays(p, SWAP_AWAITING_RETAILER);
    expect(await goods(orderId, "provider")).toEqual({ [a.id]: { S: 3 }, [b.id]: { M: 1 } });
    terms = swapValuation({
      provider: { goodsCents: 3 * PRICES[0] + PRICES[1], units: 4 },
      receiver: { goodsCents: 2 * PRICES[0] + PRICES[1], units: 3 },
      callItEven: false,
    });
    await onMove(q, page);
    expect(await q.getByTestId("swap-lines-mine").getByTestId("swap-line").count()).toBe(2);
    expect(await q.locator('input[name="lines.provider.1.M"]').inputValue()).toBe("1");
    expect(await q.getByTestId("swap-my-due").textContent()).toBe(
      formatCents(terms.provider.totalDueCents),
    );
    expect(await amountsOf(q)).toMatchObject({
      "Goods you give": formatCents(3 * PRICES[0] + PRICES[1]),
      "Your payment": formatCents(terms.provider.totalDueCents),
    });
  });
  it("a line sold out before the stock is taken: the payer reads why, the swap is declined with the reason, both payments refunded, no stock taken", async () => {
    const provider = await retailer();
    const receiver = await retailer();
    const a = await swapListing(provider.id, 0, { S: 3 });
    const c = await swapListing(receiver.id, 0, { L: 2 });
    const { p, orderId, page } = await requestSwap(receiver.email, a.id, { "size.S": 2 });
    const q = await signedIn(browser, provider.email, { pages, at: null });
    await q.goto(url(page));
    await q.getByTestId("swap-choose-form").waitFor();
    await q.locator(`input[name="units.${c.id}.L"]`).fill("1");
    await q.getByTestId("swap-choose").click();
    await q.getByTestId("swap-choose-again").waitFor();
    await onMove(q, page);
    await q.getByTestId("swap-approve").click();
    await panelSays(q, SWAP_AWAITING_RETAILER);
    await onMove(p, page);
    await p.getByTestId("swap-approve").click();
    await p.getByTestId("swap-pay-form").waitFor();
    await payOnPage(q, page);
    await q.waitForURL((u) => u.pathname.startsWith("/orders/sentswaps"));

    // Meanwhile the provider's listing sold two of its three units elsewhere.
    await db()
      .update(listings)
      .set({ sizes: { S: 1 }, totalUnits: 1 })
      .where(eq(listings.id, a.id));
    await payOnPage(p, page);
    await expect
      .poll(() => p.getByTestId("action-message").textContent(), { timeout: 15_000 })
      .toBe(SWAP_SOLD_OUT_MESSAGE);
    expect(new URL(p.url()).pathname).toBe(page);
    await p.goto(url(page));
    await panelSays(p, SWAP_REQUEST_DECLINED);
    expect(await p.getByTestId("reason").allTextContents()).toEqual([reasonLabel(62)]);
    const refunds = await db()
      .select({ retailerId: payments.retailerId, amountCents: payments.amountCents })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.txtype, "refund")));
    const captured = await db()
      .select({ retailerId: payments.retailerId, amountCents: payments.amountCents })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.txtype, "capture")));
    const byRetailer = (rows: { retailerId: number | null; amountCents: number }[]) =>
      rows.map((r) => [r.retailerId, r.amountCents]).sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(captured).toHaveLength(2);
    expect(byRetailer(refunds)).toEqual(byRetailer(captured));
    const stock = await db()
      .select({ id: listings.id, sizes: listings.sizes })
      .from(listings)
      .where(inArray(listings.id, [a.id, c.id]));
    expect(Object.fromEntries(stock.map((x) => [x.id, x.sizes]))).toEqual({
      [a.id]: { S: 1 },
      [c.id]: { L: 2 },
    });
  });
});

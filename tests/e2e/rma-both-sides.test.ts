/**
 * Returns seen from both sides in Chromium (docs/product/screens.md, "My returns" and "RMA page"): the menu's
 * Returns entry leads to /rma, which lists the buyer's RMAs as victim and the seller's as perpetrator, each
 * with its side, the other party only as retailer-00{id}, the original order, the status and what the viewer
 * gets back or is charged once staff decided; the status filter, and a bad filter or offset answered with a
 * message and a 400; the order page links both parties to the order's RMA; the perpetrator opens the RMA and
 * sees staff's decision and its charge; an outsider's list is empty.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "../../domain/money";
import { uniqueToken } from "../factories";
import { createRmaSides, DECIDED_LEDGER, type RmaSides } from "../factories/rma-sides";
import { closePage, db, launchBrowser, newPage, signInAs, uniqueEmail, url } from "./harness";

let browser: Browser;
const tok = uniqueToken().toUpperCase();
const SELLER = { email: uniqueEmail("rma-sides-seller"), storeName: `Seller Hidden Store ${tok}` };
const BUYER = { email: uniqueEmail("rma-sides-buyer"), storeName: `Buyer Hidden Store ${tok}` };
const OUTSIDER = { email: uniqueEmail("rma-sides-outsider") };
let f: RmaSides;
let seller: Page;
let buyer: Page;
let outsider: Page;

beforeAll(async () => {
  f = await createRmaSides(db(), tok, { seller: SELLER, buyer: BUYER, outsider: OUTSIDER });
  browser = await launchBrowser();
  [seller, buyer, outsider] = [
    await newPage(browser),
    await newPage(browser),
    await newPage(browser),
  ];
  await signInAs(seller, SELLER.email, { at: null });
  await signInAs(buyer, BUYER.email, { at: null });
  await signInAs(outsider, OUTSIDER.email, { at: null });
});

afterAll(async () => {
  for (const p of [seller, buyer, outsider]) if (p) await closePage(p);
});

const row = (p: Page, externalId: string) =>
  p.locator(`[data-testid=rma-row][data-rma="${externalId}"]`);

describe("/rma, the retailer's returns", () => {
  it("the menu's Returns entry opens the buyer's list: its RMAs as victim and the one filed against it", async () => {
    const p = buyer;
    await p.goto(url("/"));
    await p.click("label.menu-button");
    await p.locator("nav.slideout").waitFor({ state: "visible" });
    await Promise.all([
      p.waitForURL(/\/rma$/),
      p.locator("nav.slideout").getByRole("link", { name: "Returns" }).click(),
    ]);
    await p.getByTestId("rma-list-page").waitFor();
    await expect(p.locator("[data-testid=rma-list-page] h1").textContent()).resolves.toBe(
      "My returns",
    );
    expect(await p.getByTestId("rma-row").count()).toBe(4);
    const first = row(p, f.rmas[0].externalId);
    await expect(first.getByTestId("rma-side").textContent()).resolves.toBe("Filed by you");
    await expect(first.getByTestId("rma-other").textContent()).resolves.toBe(
      `retailer-00${f.sellerId}`,
    );
    await expect(first.textContent()).resolves.toContain(f.sales[0].externalId);
    await expect(first.getByTestId("rma-row-status").textContent()).resolves.toBe("RMA Requested");
    await expect(first.getByTestId("rma-amount").textContent()).resolves.toBe(
      "Awaiting staff's decision",
    );
    const decided = row(p, f.rmas[1].externalId);
    await expect(decided.getByTestId("rma-row-status").textContent()).resolves.toBe(
      "Return Shipping",
    );
    await expect(decided.getByTestId("rma-amount").textContent()).resolves.toBe(
      `Refunded to you: ${formatCents(DECIDED_LEDGER.victimRefundCents)}`,
    );
    const against = row(p, f.rmas[3].externalId);
    await expect(against.getByTestId("rma-side").textContent()).resolves.toBe("Filed against you");
    await expect(against.textContent()).resolves.toContain(f.sales[3].externalId);
    expect(await p.content()).not.toContain(SELLER.storeName);
  });

  it("the seller sees the RMAs filed against it and opens one: staff's decision and what it will be charged", async () => {
    const p = seller;
    await p.goto(url("/rma"));
    expect(await p.getByTestId("rma-row").count()).toBe(4);
    const decided = row(p, f.rmas[1].externalId);
    await expect(decided.getByTestId("rma-side").textContent()).resolves.toBe("Filed against you");
    await expect(decided.getByTestId("rma-other").textContent()).resolves.toBe(
      `retailer-00${f.buyerId}`,
    );
    const charge = `Charged to you: ${formatCents(DECIDED_LEDGER.perpetratorChargeCents)}`;
    await expect(decided.getByTestId("rma-amount").textContent()).resolves.toBe(charge);
    await expect(row(p, f.rmas[3].externalId).getByTestId("rma-side").textContent()).resolves.toBe(
      "Filed by you",
    );
    expect(await p.content()).not.toContain(BUYER.storeName);

    await Promise.all([
      p.waitForURL(new RegExp(`/rma/${f.rmas[1].id}$`)),
      decided.getByRole("link", { name: f.rmas[1].externalId }).click(),
    ]);
    await expect(p.getByTestId("rma-status").textContent()).resolves.toBe("Return Shipping");
    await expect(p.getByTestId("counterparty").textContent()).resolves.toBe(
      `retailer-00${f.buyerId}`,
    );
    await expect(p.getByTestId("rma-money").textContent()).resolves.toContain(charge);
    await expect(p.getByTestId("rma-lines").textContent()).resolves.toMatch(/approved/i);
    expect(await p.content()).not.toContain(BUYER.storeName);
  });

  it("the status filter narrows the list; a bad filter or offset gets a message and a 400", async () => {
    const p = seller;
    await p.goto(url("/rma"));
    await p.getByTestId("rma-status-filter").selectOption("shipping");
    await Promise.all([
      p.waitForURL(/status=shipping/),
      p.getByRole("button", { name: "Filter" }).click(),
    ]);
    const shown = () =>
      p
        .locator("[data-testid=rma-row]")
        .evaluateAll((rs) => rs.map((r) => r.getAttribute("data-rma")));
    await expect.poll(shown).toEqual([f.rmas[1].externalId]);
    await p.goto(url("/rma?status=rmacompleted"));
    await expect(p.getByTestId("rma-list-empty").textContent()).resolves.toBe(
      "No returns with this status.",
    );

    const bad = await p.goto(url("/rma?status=bogus"));
    expect(bad?.status()).toBe(400);
    await expect(p.locator(".page-error").textContent()).resolves.toContain(
      "Unknown status filter: choose one of the list.",
    );
    const badOffset = await p.goto(url("/rma?offset=-3"));
    expect(badOffset?.status()).toBe(400);
    await expect(p.locator(".page-error").textContent()).resolves.toContain(
      "Bad page offset: it must be a whole number.",
    );
  });

  it("an outsider's list is empty and shows none of the others' RMAs", async () => {
    await outsider.goto(url("/rma"));
    await expect(outsider.getByTestId("rma-list-empty").textContent()).resolves.toBe("No returns.");
    const html = await outsider.content();
    for (const r of f.rmas) expect(html).not.toContain(r.externalId);
  });
});

describe("the order page links both parties to the order's RMA", () => {
  it("the seller (perpetrator) and the buyer (victim) of a sale each see the link, and it opens", async () => {
    await seller.goto(url(`/transaction/buy/${f.sales[0].id}`));
    const link = seller.getByTestId("rma-link");
    await expect(link.getAttribute("data-side")).resolves.toBe("perpetrator");
    await expect(link.textContent()).resolves.toBe(
      `RMA ${f.rmas[0].externalId} filed against you: RMA Requested`,
    );
    await Promise.all([seller.waitForURL(new RegExp(`/rma/${f.rmas[0].id}$`)), link.click()]);
    await expect(seller.getByTestId("counterparty").textContent()).resolves.toBe(
      `retailer-00${f.buyerId}`,
    );

    await buyer.goto(url(`/transaction/buy/${f.sales[0].id}`));
    await expect(buyer.getByTestId("rma-link").getAttribute("data-side")).resolves.toBe("victim");
    await expect(buyer.getByTestId("rma-link").textContent()).resolves.toBe(
      `RMA ${f.rmas[0].externalId}: RMA Requested`,
    );
    // The buyer already has its RMA of this order: no second request button.
    expect(await buyer.getByTestId("rma-button").count()).toBe(0);
    // The sale the buyer made: it is the perpetrator of the seller's RMA.
    await buyer.goto(url(`/transaction/buy/${f.sales[3].id}`));
    await expect(buyer.getByTestId("rma-link").getAttribute("data-side")).resolves.toBe(
      "perpetrator",
    );
  });
});

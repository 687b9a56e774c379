/**
 * Statements (docs/product/screens.md, "Statements"; ADR 0026): a retailer with a purchase, a sale and an RMA
 * this month finds the month on /statements/, and its page, CSV and PDF show the same lines and totals (the
 * counterparty only as retailer-00{id}), and that the month in progress is not yet reconciled with the payment
 * provider, while a past month whose every day has a finished run is. Bad months and offsets answer 4xx with
 * the message; another retailer's statement is not found; staff open it from the manage-retailer screens.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, reconciliationRuns } from "../../db/schema";
import { anonymousRetailerLabel } from "../../domain/anonymity";
import { formatDate, formatMonth } from "../../domain/date-format";
import { utcDaysOf } from "../../domain/reconciliation";
import { centsToDecimalString, formatCents } from "../../domain/money";
import { monthRange, STATEMENT_MONTH_MESSAGES } from "../../domain/statements";
import { createStaffUser, createWorld, SIZE_RUNS, uniqueToken } from "../factories";
import { addPayment, createOrderAt, createRmaOf } from "../factories/orders";
import { pdfText } from "../setup/pdf-text";
import { csvRecords } from "./csv-parse";
import { closePage, db, launchBrowser, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
let me: Page;
let staff: Page;
const tok = uniqueToken().toUpperCase();
const myEmail = uniqueEmail("stmt-me");
const staffEmail = uniqueEmail("stmt-staff");
const zone = process.env.MARKETPLACE_TZ ?? "America/Los_Angeles";
const month = formatMonth(new Date(), zone);
const NOT_YET = "Not yet reconciled with the payment provider.";
let meId: number;
let sellerId: number;
let buyerId: number;
let sellerName: string;
/** What the statement must add up to, by kind and in all (cents). */
let expected: { purchase: number; sale: number; rma: number; net: number };

beforeAll(async () => {
  sellerName = `Stmt Seller ${tok}`;
  const world = await createWorld(db(), {
    brand: { name: `StmtBrand ${tok}` },
    products: [{ sku: `ST${tok}`, sizes: SIZE_RUNS.apparel, priceCents: 3000 }],
    retailers: {
      me: { payout: true, user: { email: myEmail } },
      seller: { payout: true, storeName: sellerName },
      buyer: { payout: true },
    },
  });
  const variationId = world.variation.id;
  [meId, sellerId, buyerId] = [
    world.retailers.me,
    world.retailers.seller,
    world.retailers.buyer,
  ].map((r) => r.retailer.id);
  // A purchase (paid, delivered), a sale (paid out) and an RMA of the purchase (refunded to me).
  const purchase = await createOrderAt(db(), "delivered", {
    providerId: sellerId,
    receiverId: meId,
    lines: [{ variationId, sizes: { S: 2 } }],
  });
  const sale = await createOrderAt(db(), "delivered", {
    providerId: meId,
    receiverId: buyerId,
    lines: [{ variationId, sizes: { M: 1 } }],
  });
  const rma = await createRmaOf(db(), purchase.order.id, {
    victimId: meId,
    contact: {
      name: "Pat Tester",
      email: "pat@example.test",
      phone: "+1-555-0100",
      packingSlipName: "Pat",
    },
  });
  const [rmaOrder] = await db().select().from(orders).where(eq(orders.id, rma.rmaId));
  await addPayment(db(), rmaOrder, {
    retailerId: meId,
    name: "receiver refund",
    txtype: "refund",
    amountCents: 3300,
  });
  await addPayment(db(), rmaOrder, {
    retailerId: sellerId,
    name: "RMA charge",
    txtype: "penalty",
    amountCents: 3300,
  });
  expected = {
    purchase: -purchase.quote.totalCents,
    sale: sale.quote.goodsCents,
    rma: 3300,
    net: -purchase.quote.totalCents + sale.quote.goodsCents + 3300,
  };
  await createStaffUser(db(), { email: staffEmail });
  browser = await launchBrowser();
  me = await signedIn(browser, myEmail, { at: null });
  staff = await signedIn(browser, staffEmail, { at: null });
});

afterAll(async () => {
  await closePage(me);
  await closePage(staff);
});

describe("statements", () => {
  it("the month is listed and its page shows every movement, the totals by kind and the balances", async () => {
    await me.goto(url("/statements"));
    const row = me.locator(`[data-testid=statement-month][data-month="${month}"]`);
    expect(await row.count()).toBe(1);
    expect(await row.locator("td").nth(1).textContent()).toBe("3");
    await row.locator("a").first().click();
    await me.waitForURL(`**/statements/${month}`);
    await me.waitForSelector(`[data-testid=statement-page][data-month="${month}"]`);
    expect(await me.locator("h1").textContent()).toContain("Statement:");
    const kinds = await me
      .locator("[data-testid=statement-line]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")));
    expect(kinds.sort()).toEqual(["Purchase", "RMA", "Sale"]);
    const net = (kind: string) =>
      me.locator(`[data-testid=statement-kind][data-kind=${kind}] td[data-col=net]`).textContent();
    expect(await net("Purchase")).toBe(formatCents(expected.purchase));
    expect(await net("Sale")).toBe(formatCents(expected.sale));
    expect(await net("RMA")).toBe(formatCents(expected.rma));
    expect(await me.textContent("[data-testid=statement-net]")).toBe(formatCents(expected.net));
    // The month in progress has days without a reconciliation run.
    expect(await me.textContent("[data-testid=statement-reconciled]")).toBe(NOT_YET);
    // A sale's line: its gross is what the buyer paid for the goods, the payout its own column.
    const saleCell = (col: string) =>
      me.locator(`[data-testid=statement-line][data-kind=Sale] td[data-col=${col}]`).textContent();
    expect(await saleCell("gross")).toBe(formatCents(expected.sale));
    expect(await saleCell("payout")).toBe(formatCents(expected.sale));
    expect(await saleCell("net")).toBe(formatCents(expected.sale));
    expect(await me.textContent("[data-testid=statement-opening-amount]")).toBe("$0.00");
    expect(await me.textContent("[data-testid=statement-closing-amount]")).toBe(
      formatCents(expected.net),
    );
    const body = await me.textContent("[data-testid=statement-lines]");
    expect(body).toContain(anonymousRetailerLabel(sellerId));
    expect(body).toContain(anonymousRetailerLabel(buyerId));
    expect(await me.content()).not.toContain(sellerName);
  });

  it("the CSV and the PDF show the same totals as the page", async () => {
    const csv = await me.request.get(url(`/statements/${month}/csv`));
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const { header, records } = csvRecords(await csv.text());
    expect(header).toEqual([
      "date",
      "order",
      "kind",
      "counterparty",
      "description",
      "gross",
      "fee",
      "shipping",
      "penalty",
      "refund",
      "payout",
      "net",
      "balance",
    ]);
    const byKind = (k: string) => records.find((r) => r.kind === k);
    expect(byKind("Total")?.net).toBe(centsToDecimalString(expected.net));
    expect(byKind("Total Purchase")?.net).toBe(centsToDecimalString(expected.purchase));
    expect(byKind("Total Sale")?.net).toBe(centsToDecimalString(expected.sale));
    expect(byKind("Total RMA")?.net).toBe(centsToDecimalString(expected.rma));
    expect(byKind("Opening balance")?.balance).toBe("0.00");
    expect(byKind("Closing balance")?.balance).toBe(centsToDecimalString(expected.net));
    expect(byKind("Reconciliation")?.description).toBe(NOT_YET);
    expect(records.filter((r) => r.date !== "").map((r) => r.counterparty)).toContain(
      anonymousRetailerLabel(sellerId),
    );
    expect(records.filter((r) => r.date !== "").every((r) => r.date.startsWith(month))).toBe(true);

    const pdf = await me.request.get(url(`/statements/${month}/pdf`));
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    const text = pdfText(await pdf.body());
    const line = (label: string) => text.split("\n").find((l) => l.trim().startsWith(label)) ?? "";
    expect(line("Total ").trim().split(/\s+/).at(-1)).toBe(formatCents(expected.net));
    expect(line("Closing balance")).toContain(formatCents(expected.net));
    expect(line("Purchase (1)")).toContain(formatCents(expected.purchase));
    expect(line("Sale (1)")).toContain(formatCents(expected.sale));
    expect(line("RMA (1)")).toContain(formatCents(expected.rma));
    expect(text).toContain(NOT_YET);
    expect(text).toContain(anonymousRetailerLabel(sellerId));
    expect(text).not.toContain(sellerName);
  });

  it("a past month whose every day has a finished reconciliation run says when it was reconciled", async () => {
    const past = { year: 2001, month: 2 };
    const days = utcDaysOf(monthRange(past, zone));
    const finished = new Date("2001-03-05T20:00:00Z");
    await db()
      .insert(reconciliationRuns)
      .values(
        days.map((day) => ({
          runId: `stmt-${tok}-${day}`,
          day,
          checked: 0,
          listed: 0,
          recorded: 0,
          finishedAt: finished,
        })),
      )
      .onConflictDoNothing();
    await me.goto(url("/statements/2001-02"));
    expect(await me.textContent("[data-testid=statement-reconciled]")).toBe(
      `Reconciled with the payment provider on ${formatDate(finished, zone)}.`,
    );
  });

  it("a bad month or offset answers 4xx with the message", async () => {
    for (const [path, status, message] of [
      ["/statements/2026-13", 400, STATEMENT_MONTH_MESSAGES.badMonth],
      ["/statements/november", 400, STATEMENT_MONTH_MESSAGES.badMonth],
      ["/statements/2999-01", 404, STATEMENT_MONTH_MESSAGES.futureMonth],
      [`/statements/${month}?offset=7`, 400, STATEMENT_MONTH_MESSAGES.badOffset],
      [`/statements/${month}?offset=-100`, 400, STATEMENT_MONTH_MESSAGES.badOffset],
      [`/statements/${month}?offset=100`, 400, STATEMENT_MONTH_MESSAGES.badOffset],
    ] as const) {
      const r = await me.goto(url(path));
      expect(r?.status(), path).toBe(status);
      // What the page shows (innerText: not the data Remix embeds in a script for hydration).
      expect(await me.innerText("body"), path).toContain(message);
    }
    for (const path of ["/statements/2026-13/csv", "/statements/1999-12/pdf"]) {
      const r = await me.request.get(url(path));
      expect(r.status(), path).toBe(400);
      expect(await r.text()).toBe(STATEMENT_MONTH_MESSAGES.badMonth);
    }
  });

  it("another retailer's statement is not found", async () => {
    for (const path of [
      `/statements?retailer=${sellerId}`,
      `/statements/${month}?retailer=${sellerId}`,
      `/statements/${month}/csv?retailer=${sellerId}`,
      `/statements/${month}/pdf?retailer=${sellerId}`,
    ]) {
      const r = await me.request.get(url(path), { maxRedirects: 0 });
      expect(r.status(), path).toBe(404);
      expect(await r.text()).not.toContain(sellerName);
    }
    // Naming itself is fine.
    expect((await me.request.get(url(`/statements/${month}?retailer=${meId}`))).status()).toBe(200);
  });

  it("staff open a retailer's statements from the manage-retailer screens", async () => {
    await staff.goto(url(`/manage-retailer/statements?id=${meId}`));
    const row = staff.locator(`[data-testid=statement-month][data-month="${month}"]`);
    await row.locator("a").first().click();
    await staff.waitForURL(`**/statements/${month}?retailer=${meId}`);
    await staff.waitForSelector(`[data-testid=statement-page][data-month="${month}"]`);
    expect(await staff.textContent("[data-testid=statement-net]")).toBe(formatCents(expected.net));
    const csv = await staff.request.get(url(`/statements/${month}/csv?retailer=${meId}`));
    expect(csvRecords(await csv.text()).records.find((r) => r.kind === "Total")?.net).toBe(
      centsToDecimalString(expected.net),
    );
    // Staff acting as nobody, without ?retailer=, are sent to choose a retailer.
    const r = await staff.request.get(url("/statements"), { maxRedirects: 0 });
    expect(r.status()).toBe(302);
    expect(r.headers().location).toContain("/manage-retailer");
  });
});

/**
 * The "Must show" browser test, in Chromium, on the real worker: retailer A buys from retailer B's
 * listing (terms → review → card), B approves with a modification (one size fewer; a card on file is asked
 * for first), A approves the modified purchase (capture), staff book the pickup again ("Schedule pickup": a
 * new call tag, 922 in the order's history) and simulate pickup and delivery from the admin order card (signed
 * events through POST /webhooks/carrier), B sees the payout "Released from escrow", A rates ("Rating saved!",
 * then home), B sees the rating read-only; the order is in Temporal's workflow list
 * (the list the Temporal UI shows). At no point does A see B's name or B see A's — in pages, and in the
 * packing slip, shipper checklist and label PDFs (text extracted with pdftotext).
 */
import { eq, like } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { orders, outboxEmails, retailerContacts } from "../../db/schema";
import { ACTION } from "../../domain/action-codes";
import { purchaseQuote } from "../../domain/fees";
import { BUY_STATES, COMMON_STATES } from "../../domain/states";
import { createListing, createStaffUser, createWorld, type RetailerRow } from "../factories";
import {
  acceptBuyTerms,
  buyWorkflowId,
  closeTemporal,
  continueToPayment,
  expectCheckoutComplete,
  payWithTestCard,
  postCartForm,
  retailerWithLogin,
  temporal,
  until,
  waitForOrderState,
} from "./buy-helpers";
import { pdfText } from "../setup/pdf-text";
import { dbHandle, launchBrowser, pagesPerTest, signedIn, uniqueEmail, url } from "./harness";

let browser: Browser;
let dbh: DbHandle;
const pages = pagesPerTest();

beforeAll(async () => {
  dbh = dbHandle();
  browser = await launchBrowser();
});
afterAll(async () => {
  await closeTemporal();
});

/** The number on the header's Alerts link, or null when it shows none. */
async function headerCount(p: Page): Promise<string | null> {
  const badge = p.locator('.nav-quick a[href="/alerts"] [data-testid="alerts-count"]');
  return (await badge.count()) === 0 ? null : await badge.textContent();
}

/** What identifies a retailer: store and business names, e-mails, phones, street (≥ 6 characters). */
async function secretsOf(r: RetailerRow, loginEmail: string): Promise<string[]> {
  const contacts = await dbh.db
    .select()
    .from(retailerContacts)
    .where(eq(retailerContacts.retailerId, r.id));
  const values = [
    r.storeName,
    r.businessName,
    r.storeEmail,
    r.storePhone,
    r.address1,
    loginEmail,
    ...contacts.flatMap((c) => [c.email, c.phone, c.celphone, c.address1]),
  ];
  return [
    ...new Set(
      values
        .filter((v): v is string => typeof v === "string")
        .map((v) => v.trim())
        .filter((v) => v.length >= 6),
    ),
  ];
}

/** Street addresses (the label may print the recipient's). */
function addressesOf(r: RetailerRow): string[] {
  return [r.address1]
    .filter((v): v is string => typeof v === "string" && v.trim().length >= 6)
    .map((v) => v.trim());
}

function leaks(text: string, secrets: string[]): string[] {
  const t = text.toLowerCase();
  return secrets.filter((s) => t.includes(s.toLowerCase()));
}

/** The page's HTML must not name the other retailer. */
async function expectAnonymous(p: Page, secrets: string[], where: string): Promise<void> {
  expect(
    leaks(await p.content(), secrets),
    `${where} (${p.url()}) names the other retailer`,
  ).toEqual([]);
}

/** A PDF the page links to, as text (pdftotext), fetched with the page's cookies; null when it is not a PDF. */
async function linkedPdfText(p: Page, href: string): Promise<string | null> {
  const res = await p.request.get(url(href));
  if (res.status() !== 200 || !(res.headers()["content-type"] ?? "").includes("application/pdf"))
    return null;
  return pdfText(await res.body());
}

async function openOrder(p: Page, orderId: number): Promise<void> {
  await p.goto(url(`/transaction/buy/${orderId}`));
  await p.getByTestId("order-detail").waitFor();
}

async function waitForDetailState(p: Page, orderId: number, statename: string): Promise<void> {
  await until(
    `the detail page of ${orderId} in ${statename}`,
    async () => {
      await openOrder(p, orderId);
      return (await p.getByTestId("order-detail").getAttribute("data-statename")) === statename;
    },
    30_000,
    500,
  );
}

describe("a purchase from checkout to rating, anonymous throughout", () => {
  it("A buys, B modifies, A approves, staff simulate pickup and delivery, B is paid, A rates", async () => {
    const world = await createWorld(dbh.db, { products: [{ colors: 1, priceCents: 4200 }] });
    const [brand, variation] = [world.brand.id, world.variation.id];
    const A = await retailerWithLogin(dbh, [brand], { prefix: "flow-a" });
    const B = await retailerWithLogin(dbh, [brand], { prefix: "flow-b" });
    const listing = await createListing(dbh.db, {
      variationId: variation,
      providerId: B.r.id,
      sizes: { S: 2, M: 2 },
    });
    const aSecrets = await secretsOf(A.r, A.email); // what B must never see
    const bSecrets = await secretsOf(B.r, B.email); // what A must never see
    expect(aSecrets.length).toBeGreaterThan(2);
    const gaps: string[] = [];
    expect(bSecrets.length).toBeGreaterThan(2);

    // --- A: cart → terms → review → card ---------------------------------------------------------------
    const a = await signedIn(browser, A.email, { pages, at: null });
    await a.goto(url(`/viewlisting/${listing.id}/buy`)).catch(() => undefined);
    await expectAnonymous(a, bSecrets, "the listing");
    await postCartForm(a, {
      intent: "add",
      listingId: listing.id,
      "size.S": 2,
      "size.M": 1,
      returnTo: "/cart",
    });
    await expectAnonymous(a, bSecrets, "the cart");
    await acceptBuyTerms(a);
    await a.getByTestId("draft-order").first().waitFor();
    await expectAnonymous(a, bSecrets, "the review");
    const [orderId] = await continueToPayment(a);
    await expectAnonymous(a, bSecrets, "the pay page");
    await payWithTestCard(a, "4242 4242 4242 4242");
    await expectCheckoutComplete(a);
    await waitForOrderState(orderId, BUY_STATES.PROVIDER_APPROVE_SALE);

    // The order is in Temporal's workflow list (what the Temporal UI lists).
    const c = await temporal();
    const listed = await until("the workflow in the list", async () => {
      for await (const wf of c.workflow.list({ query: `WorkflowId = "${buyWorkflowId(orderId)}"` }))
        return wf;
      return null;
    });
    expect(listed.type).toBe("buyOrderWorkflow");

    // --- B: /alerts → Sales → the order → fewer units → Submit response → card on file ---------------------
    const b = await signedIn(browser, B.email, { pages, at: null });
    await b.goto(url("/alerts"));
    await b.locator(`[data-testid="order-card"][data-order-id="${orderId}"]`).waitFor();
    // The header's Alerts link counts the orders waiting for this retailer's answer, on every page
    // (docs/product/screens.md, "Menus and banners"): B's one order; nothing waits for A.
    expect(await headerCount(b)).toBe("1");
    await a.reload({ waitUntil: "networkidle" });
    expect(await headerCount(a)).toBeNull();
    await expectAnonymous(b, aSecrets, "B's alerts");
    await Promise.all([
      b.waitForURL(new RegExp(`/transaction/buy/${orderId}`)),
      b
        .locator(
          `[data-testid="order-card"][data-order-id="${orderId}"] [data-testid="status-link"]`,
        )
        .click(),
    ]);
    await b.getByTestId("panel-provider-approve").waitFor();
    expect(await b.getByTestId("counterparty").textContent()).toContain(`retailer-00${A.r.id}`);
    await expectAnonymous(b, aSecrets, "B's order detail");
    expect(await b.getByTestId("respond-submit").textContent()).toBe("Approve Sale");
    await b.getByLabel(/size M$/).fill("0");
    expect(await b.getByTestId("respond-submit").textContent()).toBe("Submit response");
    await b.getByTestId("respond-submit").click();
    // B has no card on file: the card step first (need_payment_method), then the modification goes on.
    await b.getByTestId("form-add_card").waitFor({ timeout: 30_000 });
    await b
      .locator('[data-testid="form-add_card"] input[name="card_number"]')
      .fill("4242424242424242");
    await b.locator('[data-testid="form-add_card"] input[name="card_expiry"]').fill("12/34");
    await b.locator('[data-testid="form-add_card"] input[name="card_cvc"]').fill("123");
    await b.getByTestId("add-card-submit").click();
    const modified = await waitForOrderState(
      orderId,
      BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE,
      40_000,
    );
    expect(modified.actions.map((x) => x.code)).toEqual(
      expect.arrayContaining([ACTION.PAYMENT, ACTION.PROVIDER_MODIFY_SALE]),
    );

    // --- A: approve the modified purchase (capture of S×2 only) --------------------------------------------
    await waitForDetailState(a, orderId, BUY_STATES.RECEIVER_APPROVE_MODIFIED_PURCHASE);
    await a.getByTestId("panel-modified-purchase").waitFor();
    expect(await headerCount(a)).toBe("1");
    await b.goto(url("/buy"));
    expect(await headerCount(b)).toBeNull();
    await expectAnonymous(a, bSecrets, "A's modified purchase");
    await a.getByTestId("approve-modified-submit").click();
    const shipping = await waitForOrderState(orderId, BUY_STATES.SHIP_ORDER, 40_000);
    await a.goto(url("/orders"));
    expect(await headerCount(a)).toBeNull();
    expect(shipping.amounts.capturedCents).toBe(
      purchaseQuote([{ unitPriceCents: 4200, units: { S: 2 } }]).totalCents,
    );

    // --- B: ship: packing slip, checklist and label are anonymous PDFs ----------------------------------------
    await waitForDetailState(b, orderId, BUY_STATES.SHIP_ORDER);
    await b.getByTestId("panel-shipment-pending").waitFor();
    await expectAnonymous(b, aSecrets, "B's shipment panel");
    for (const id of ["packing-slip-link", "checklist-link", "label-link"]) {
      const link = b.getByTestId(id);
      if ((await link.count()) === 0) {
        expect(id, `${id} is missing`).toBe("label-link"); // the label link only while pickup is scheduled
        continue;
      }
      const href = (await link.getAttribute("href"))!;
      const text = await linkedPdfText(b, href);
      if (text === null) {
        // Checked at the end, so that one missing document does not hide the rest of the flow.
        gaps.push(`${id}: ${href} is not a PDF (status or content type)`);
        continue;
      }
      expect(text.length, `${id} has text`).toBeGreaterThan(20);
      // docs/product/glossary.md, "Anonymity": the carrier's label is the one document that carries the destination (street) address;
      // it names the recipient only as retailer-00{id}. Every other identifying value stays out of all three.
      const allowed = id === "label-link" ? addressesOf(A.r) : [];
      expect(
        leaks(
          text,
          aSecrets.filter((x) => !allowed.includes(x)),
        ),
        `${id} names the buyer`,
      ).toEqual([]);
      expect(
        leaks(
          text,
          bSecrets.filter((x) => !addressesOf(B.r).includes(x) || id !== "label-link"),
        ),
        `${id} names the seller`,
      ).toEqual([]);
      if (id === "packing-slip-link") expect(text).toContain("retailer-00");
    }

    // --- staff: book the pickup again, then simulate pickup and delivery, from the admin order card ---------
    const staffEmail = uniqueEmail("flow-staff");
    await createStaffUser(dbh.db, { email: staffEmail });
    const s = await signedIn(browser, staffEmail, { pages, at: null });
    const card = `/admin/active-transactions?order=${orderId}&tab=shipping`;
    await s.goto(url(card));
    // "Schedule pickup": the order's workflow books a new call tag with the carrier (922 in its history).
    const firstTag = (await waitForOrderState(orderId, BUY_STATES.SHIP_ORDER)).shipment?.callTag;
    await s.getByTestId("carrier-pre_transit").click();
    await s.getByTestId("admin-notice").waitFor({ timeout: 30_000 });
    const rebooked = await waitForOrderState(orderId, BUY_STATES.SHIP_ORDER);
    expect(rebooked.shipment).toMatchObject({ attempt: 2 });
    expect(rebooked.shipment?.callTag).not.toBe(firstTag);
    await s.goto(url(`/admin/active-transactions?order=${orderId}&tab=updates`));
    expect(
      await s
        .locator(`[data-testid=updates] tr[data-code="${ACTION.CALL_TAG_BOOKED_BY_STAFF_ORDER}"]`)
        .textContent(),
    ).toContain("Pickup booked by staff");
    await s.goto(url(card));
    await s.getByTestId("carrier-picked_up").click();
    await s.getByTestId("admin-notice").waitFor({ timeout: 30_000 });
    const inRoute = await waitForOrderState(orderId, COMMON_STATES.IN_ROUTE);
    expect(inRoute.payoutReleasedAt).toBeTruthy();
    await s.goto(url(card));
    await s.getByTestId("carrier-delivered").click();
    await s.getByTestId("admin-notice").waitFor({ timeout: 30_000 });
    await waitForOrderState(orderId, COMMON_STATES.DELIVERED);

    // --- staff: each payment links to its record at the provider (the sandbox's records page) ---------------
    await s.goto(url(`/admin/active-transactions?order=${orderId}&tab=payments`));
    const links = s.getByTestId("payment-record-link");
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(0);
    const transfer = hrefs.find((h) => h.startsWith("/sandbox/dashboard/connect/transfers/tr_"));
    expect(transfer, hrefs.join(", ")).toBeTruthy();
    await s.goto(url(transfer ?? ""));
    const [order] = await dbh.db
      .select({ externalId: orders.externalId })
      .from(orders)
      .where(eq(orders.id, orderId));
    // The description the payout was sent with names the order, so the provider's search finds it.
    expect(await s.getByTestId("sandbox-record-description").textContent()).toBe(
      `Payout: ${order.externalId}`,
    );

    // --- B: the payout is released -------------------------------------------------------------------------
    await waitForDetailState(b, orderId, COMMON_STATES.DELIVERED);
    await b.getByTestId("payout-released").waitFor();
    expect(await b.getByTestId("payout-released").textContent()).toMatch(
      /^Released from escrow \d{2}\/\d{2}\/\d{4}/,
    );
    expect(await b.getByTestId("buyer-rating").textContent()).toContain("Not Yet Rated");
    await expectAnonymous(b, aSecrets, "B's delivered order");

    // --- A: rate: four criteria, comments → "Rating saved!" → home -----------------------------------------
    await waitForDetailState(a, orderId, COMMON_STATES.DELIVERED);
    await expectAnonymous(a, bSecrets, "A's delivered order");
    await Promise.all([
      a.waitForURL(new RegExp(`/rate/${orderId}`)),
      a.getByTestId("rate-link").click(),
    ]);
    await a.getByTestId("rate-page").waitFor();
    await expectAnonymous(a, bSecrets, "A's rating page");
    await a.getByTestId("open-rating").click();
    for (const [criterion, stars] of Object.entries({
      condition: 5,
      packaging: 4,
      timeliness: 5,
      overall: 4,
    })) {
      await a.locator(`[data-testid="stars-${criterion}"] input[value="${stars}"]`).check();
    }
    await a.getByTestId("rating-comments").fill("Well packed, quick pickup.");
    await a.getByTestId("submit-rating").click();
    await a.getByTestId("rating-saved").waitFor({ timeout: 30_000 });
    expect(await a.getByTestId("rating-saved").textContent()).toContain("Rating saved!");
    await a.waitForURL((u) => u.pathname === "/", { timeout: 10_000 });
    const rated = await waitForOrderState(orderId, COMMON_STATES.DELIVERED);
    expect(rated.rating).toMatchObject({ condition: 5, packaging: 4, timeliness: 5, overall: 4 });

    // --- B: the buyer's rating, read-only -------------------------------------------------------------------
    await until("B sees the rating", async () => {
      await openOrder(b, orderId);
      return !((await b.getByTestId("buyer-rating").textContent()) ?? "").includes("Not Yet Rated");
    });
    expect(await b.getByTestId("buyer-rating").textContent()).toContain(
      "Well packed, quick pickup.",
    );
    expect(await b.locator('[data-testid="panel-order-summary"] form').count()).toBe(0);
    await expectAnonymous(b, aSecrets, "B's rated order");

    // Orders pages, both sides.
    await a.goto(url("/orders"));
    await expectAnonymous(a, bSecrets, "A's orders");
    await b.goto(url("/orders"));
    await expectAnonymous(b, aSecrets, "B's orders");

    // E-mails: every notice of this order went to one of the two parties and names only its own store.
    const mails = await dbh.db
      .select()
      .from(outboxEmails)
      .where(like(outboxEmails.dedupeKey, `${buyWorkflowId(orderId)}:mail:%`));
    const aAddresses = new Set(aSecrets.map((x) => x.toLowerCase()));
    const bAddresses = new Set(bSecrets.map((x) => x.toLowerCase()));
    const toA = mails.filter((m) => aAddresses.has(m.toEmail.toLowerCase()));
    const toB = mails.filter((m) => bAddresses.has(m.toEmail.toLowerCase()));
    expect(toA.length + toB.length, "every order notice goes to the buyer or the seller").toBe(
      mails.length,
    );
    expect(toA.length, "A got order notices").toBeGreaterThan(0);
    expect(toB.length, "B got order notices").toBeGreaterThan(0);
    for (const m of toA)
      expect(
        leaks(`${m.subject}\n${m.bodyText}\n${m.bodyHtml ?? ""}`, bSecrets),
        `e-mail "${m.subject}" to A names B`,
      ).toEqual([]);
    for (const m of toB)
      expect(
        leaks(`${m.subject}\n${m.bodyText}\n${m.bodyHtml ?? ""}`, aSecrets),
        `e-mail "${m.subject}" to B names A`,
      ).toEqual([]);

    expect(gaps, "documents that could not be checked").toEqual([]);
  });
});

/**
 * Store teams (docs/product/teams.md), one walk in Chromium and the rest over HTTP:
 * - the owner opens Settings → Team, invites a lister by e-mail (the form), sees the waiting invitation;
 * - the invited person opens the e-mail's link, sets a password and signs in: a lister may import stock, not
 *   buy (the message, a 403) nor manage the team nor see the finance pages;
 * - refusals: no role, an address of another store, a member's address → the message, a 4xx, nothing
 *   written;
 * - the owner removes the member in Chromium: the member's session ends at once, and it signs in no more;
 * - staff see the store's members on the retailer's Contacts tab;
 * - a buyer's limits: the owner sets them (a limit of $0 refused with the message, a 400); a purchase over
 *   the limit is pre-authorised and waits for the store (the pay page says so first); the buyer may not approve
 *   it (a 403 with the message, nothing changes); an approver approves it in Chromium, then it is the seller's,
 *   and the order shows who approved it to the store only; an offer over the limit is refused (403, nothing
 *   written).
 */
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { offers, orders, storeInvitations, users } from "../../db/schema";
import { storeApprovalMessage, TEAM_MSG } from "../../domain/teams";
import {
  createListing,
  createRetailer,
  createStaffUser,
  createUser,
  createWorld,
  DEFAULT_TEST_PASSWORD,
} from "../factories";
import {
  acceptBuyTerms,
  continueToPayment,
  payWithTestCard,
  postCartForm,
  retailerWithLogin,
  waitForOrderState,
} from "./buy-helpers";
import {
  db,
  dbHandle,
  firstLink,
  launchBrowser,
  signedIn,
  uniqueEmail,
  url,
  waitForEmail,
} from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
const owner = { email: uniqueEmail("team-owner"), id: 0 };
const lister = uniqueEmail("team-lister");
const staff = uniqueEmail("team-staff");
let otherStoreEmail = "";

beforeAll(async () => {
  owner.id = (
    await createRetailer(db(), { payout: true, user: { email: owner.email } })
  ).retailer.id;
  otherStoreEmail = (await createRetailer(db())).user!.email;
  await createStaffUser(db(), { email: staff });
  browser = await launchBrowser();
});

const invitations = () =>
  db().select().from(storeInvitations).where(eq(storeInvitations.retailerId, owner.id));

const inviteBody = (fields: [string, string][]) =>
  new URLSearchParams([["intent", "invite"], ...fields]);

describe("store teams", () => {
  it("the owner invites a lister; the lister joins and may list, not buy, manage or see finance", async () => {
    const page = await signedIn(browser, owner.email);
    await page.goto(url("/settings/team"));
    await page.getByLabel("E-mail").fill(lister);
    await page.getByRole("checkbox", { name: /Lister/ }).check();
    await page.getByRole("button", { name: "Send the invitation" }).click();
    await expect
      .poll(() => page.getByTestId("team-notice").textContent())
      .toBe(TEAM_MSG.invited(lister));
    expect(await page.getByTestId("team-invitations").textContent()).toContain(lister);

    const mail = await waitForEmail(lister, { subject: /invited/ });
    const link = firstLink(mail.bodyText);
    expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{40,}$/);
    const path = new URL(link).pathname;
    const joiner = new HttpClient();
    const open = await joiner.get(path);
    expect(open.status).toBe(200);
    expect(open.body).toContain(lister);
    const joined = await joiner.postForm(path, {
      new_password: DEFAULT_TEST_PASSWORD,
      confirm: DEFAULT_TEST_PASSWORD,
    });
    expect([joined.status, joined.location]).toEqual([302, "/signin?joined=1"]);
    // The link works once.
    expect((await joiner.get(path)).status).toBe(404);

    const member = new HttpClient();
    await member.signIn(lister, DEFAULT_TEST_PASSWORD);
    expect((await member.get("/stock-import")).status).toBe(200);
    // Home: the cards its roles allow, and no dashboard (the finance role's).
    const home = await member.get("/");
    expect(home.body).toContain('href="/addlisting/"');
    expect(home.body).not.toContain('href="/requestlisting/"');
    expect(home.body).not.toContain('data-testid="surplus-dashboard"');
    for (const [p, need] of [
      ["/cart", "buy"],
      ["/settings/team", "team"],
      ["/statements", "finance"],
    ] as const) {
      const r = await member.get(p);
      expect([p, r.status]).toEqual([p, 403]);
      expect(r.body).toContain(TEAM_MSG.notAllowed(need));
    }
    // Buying is refused wherever it is posted from, and writes nothing.
    const add = await member.postForm("/cart", { intent: "add", listing: 1, "size.S": 1 });
    expect(add.status).toBe(403);
  });

  it("refusals: no role, another store's address, one already a member → the message, a 4xx, nothing written", async () => {
    const http = new HttpClient();
    await http.signIn(owner.email, DEFAULT_TEST_PASSWORD);
    const before = (await invitations()).length;
    for (const [fields, message] of [
      [[["email", uniqueEmail("no-role")]], TEAM_MSG.roleRequired],
      [
        [
          ["email", lister],
          ["roles", "buyer"],
        ],
        TEAM_MSG.alreadyMember,
      ],
      [
        [
          ["email", otherStoreEmail],
          ["roles", "finance"],
        ],
        TEAM_MSG.emailTaken,
      ],
    ] as [[string, string][], string][]) {
      const r = await http.postForm("/settings/team", inviteBody(fields));
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).toContain(message.replace(/'/g, "&#x27;"));
    }
    expect(await invitations()).toHaveLength(before);
  });

  it("the owner removes the member: its session ends at once; staff see the store's members", async () => {
    const member = new HttpClient();
    await member.signIn(lister, DEFAULT_TEST_PASSWORD);
    expect((await member.get("/stock-import")).status).toBe(200);

    const page = await signedIn(browser, owner.email);
    await page.goto(url("/settings/team"));
    await page.locator(`tr[data-member="${lister}"]`).getByTestId("remove-member").click();
    await expect.poll(() => page.getByTestId("team-notice").textContent()).toBe(TEAM_MSG.removed);

    const after = await member.get("/stock-import");
    expect([after.status, after.location?.startsWith("/signin")]).toEqual([302, true]);
    const again = await new HttpClient().postForm("/signin", {
      email: lister,
      password: DEFAULT_TEST_PASSWORD,
    });
    expect(again.status).not.toBe(302);
    const [row] = await db()
      .select({ at: users.deactivatedAt })
      .from(users)
      .where(and(eq(users.email, lister)));
    expect(row.at).not.toBeNull();

    const admin = new HttpClient();
    await admin.signIn(staff, DEFAULT_TEST_PASSWORD);
    const tab = await admin.get(`/manage-retailer/contacts?id=${owner.id}`);
    expect(tab.status).toBe(200);
    expect(tab.body).toContain(`data-member="${owner.email}"`);
    expect(tab.body).toContain(`data-member="${lister}"`);
  });
});

describe("a buyer's limits and the store's approval (docs/product/teams.md, 'Limits and approval')", () => {
  it("over the limit: pre-authorised, waits for an approver (not the buyer), then goes to the seller", async () => {
    const world = await createWorld(db(), { products: [{ colors: 1, priceCents: 2500 }] });
    const seller = await retailerWithLogin(dbHandle(), [world.brand.id], {
      prefix: "limit-seller",
    });
    const store = await retailerWithLogin(dbHandle(), [world.brand.id], {
      prefix: "limit-owner",
    });
    const buyer = await createUser(db(), {
      email: uniqueEmail("limit-buyer"),
      retailerId: store.r.id,
      storeRoles: ["buyer"],
    });
    const approver = await createUser(db(), {
      email: uniqueEmail("limit-approver"),
      retailerId: store.r.id,
      storeRoles: ["approver"],
    });
    const listing = await createListing(db(), {
      variationId: world.products[0].variations[0].id,
      providerId: seller.r.id,
      sizes: { M: 2 },
    });

    // The owner sets the buyer's limit: $0 is refused (the message, nothing saved); $10 an order is saved.
    const owning = await signedIn(browser, store.email, { at: "/settings/team" });
    const row = owning.locator(`tr[data-member="${buyer.email}"]`);
    await row.getByLabel("Per order ($)").fill("0");
    await row.getByRole("button", { name: "Save limits" }).click();
    await expect.poll(() => row.getByText(TEAM_MSG.limitPositive).count()).toBe(1);
    await row.getByLabel("Per order ($)").fill("10");
    await row.getByRole("button", { name: "Save limits" }).click();
    await expect
      .poll(() => owning.getByTestId("team-notice").textContent())
      .toBe(TEAM_MSG.limitsSaved);
    await expect
      .poll(() => owning.locator(`tr[data-member="${buyer.email}"]`).textContent())
      .toContain("Up to $10.00 an order");

    // The buyer checks out $25 of goods: the pay page says it will wait, and it does.
    const p = await signedIn(browser, buyer.email, { at: null });
    await postCartForm(p, { intent: "add", listingId: listing.id, "size.M": 1, returnTo: "/cart" });
    await acceptBuyTerms(p);
    const [orderId] = await continueToPayment(p);
    expect(await p.getByTestId("pay-store-approval").textContent()).toBe(
      storeApprovalMessage({ reason: "order_limit", limitCents: 1000 }),
    );
    await payWithTestCard(p, "4242 4242 4242 4242");
    await p.waitForURL(/\/buy\?ref=checkoutAwaitingStoreApproval/, { timeout: 40_000 });
    await waitForOrderState(orderId, "store_approve_purchase");

    // The buyer may not approve it (no approver role): the message, a 403, the order unchanged.
    const asBuyer = new HttpClient();
    await asBuyer.signIn(buyer.email, DEFAULT_TEST_PASSWORD);
    const forged = await asBuyer.postForm(`/transaction/buy/${orderId}`, {
      intent: "store_approve",
    });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain(htmlEscape(TEAM_MSG.notAllowed("approve")));
    const [still] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect([still.statename, still.approvedByUserId]).toEqual(["store_approve_purchase", null]);

    // The approver approves on the order page; the seller's turn begins; who approved shows to the store.
    const a = await signedIn(browser, approver.email, { at: `/transaction/buy/${orderId}` });
    await a.getByTestId("store-approve-submit").click();
    await expect.poll(() => a.getByText(TEAM_MSG.approved).count()).toBeGreaterThan(0);
    await waitForOrderState(orderId, "provider_approve_sale");
    await a.reload();
    expect(await a.getByTestId("approved-by").textContent()).toBe(approver.email);
    expect(await a.getByTestId("placed-by").textContent()).toBe(buyer.email);

    const asSeller = new HttpClient();
    await asSeller.signIn(seller.email, DEFAULT_TEST_PASSWORD);
    const sellerView = await asSeller.get(`/transaction/buy/${orderId}`);
    expect(sellerView.status).toBe(200);
    expect(sellerView.body).not.toContain(approver.email);
    expect(sellerView.body).not.toContain(buyer.email);

    // An offer holds the card at once: over the limit it is refused (the message, a 403), nothing written.
    const offersBefore = await db().select().from(offers).where(eq(offers.listingId, listing.id));
    const offered = await asBuyer.postForm(`/offers/new?listing=${listing.id}`, {
      listing: listing.id,
      price: "20.00",
      "sizes.M": 1,
    });
    expect(offered.status).toBe(403);
    expect(offered.body).toContain(htmlEscape(TEAM_MSG.overLimitForOffer(1000)));
    expect(await db().select().from(offers).where(eq(offers.listingId, listing.id))).toEqual(
      offersBefore,
    );
  });
});

const htmlEscape = (s: string) => s.replace(/'/g, "&#x27;");

/**
 * Store teams (docs/product/teams.md), one walk in Chromium and the rest over HTTP:
 * - the owner opens Settings → Team, invites a lister by e-mail (the form), sees the waiting invitation;
 * - the invited person opens the e-mail's link, sets a password and signs in: a lister may import stock, not
 *   buy (the message, a 403) nor manage the team nor see the finance pages;
 * - refusals: no role, an address of another store, a member's address → the message, a 4xx, nothing
 *   written;
 * - the owner removes the member in Chromium: the member's session ends at once, and it signs in no more;
 * - staff see the store's members on the retailer's Contacts tab.
 */
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { storeInvitations, users } from "../../db/schema";
import { TEAM_MSG } from "../../domain/teams";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories";
import { db, firstLink, launchBrowser, signedIn, uniqueEmail, url, waitForEmail } from "./harness";
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

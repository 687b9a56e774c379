/**
 * In Chromium: staff accounts and permissions (docs/product/screens.md, "Staff users"). A staff user holding
 * the Staff users right invites a new staff user with two permissions; the invitation arrives through the
 * outbox, the new user sets a password through the reset flow, signs in and sees only what was granted.
 * Granting and revoking show in the user's audit, newest first. Revoking one's own Staff users right is
 * refused with a message and a 409, nothing changed; a forged change by a staff user without the right is a
 * 403, nothing changed; a staff user with no grants sees a page that says so and whom to ask; a deactivated
 * account's session ends and it signs in no more. Bad input (a malformed or taken e-mail) is a 4xx.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { staffUserChanges, users } from "../../db/schema";
import { RESOURCE_NAMES } from "../../domain/resources";
import { STAFF_MSG, STAFF_USERS_PERMISSION } from "../../domain/staff-users";
import { createStaffUser, DEFAULT_TEST_PASSWORD, uniqueToken } from "../factories";
import {
  db,
  firstLink,
  hydrated,
  launchBrowser,
  newPage,
  signedIn,
  url,
  waitForEmail,
} from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
let page: Page;
let staff: HttpClient;
const tok = uniqueToken();
const adminEmail = `sa-admin-${tok}@example.test`;
const invitedEmail = `sa-new-${tok}@example.test`;
const NEW_PASSWORD = "staff-new-pass-1";
let adminId: number;
let invitedId: number;

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await createStaffUser(db(), {
    email: adminEmail,
    permissions: [...RESOURCE_NAMES, STAFF_USERS_PERMISSION],
  });
  adminId = admin.id;
  page = await signedIn(browser, adminEmail, { at: null });
  staff = new HttpClient();
  await staff.signIn(adminEmail, DEFAULT_TEST_PASSWORD);
}, 120_000);

const stateOf = async (id: number) => {
  const [u] = await db().select().from(users).where(eq(users.id, id));
  return { permissions: u.adminPermissions, deactivatedAt: u.deactivatedAt };
};
const auditCount = async (id: number) =>
  (await db().select().from(staffUserChanges).where(eq(staffUserChanges.userId, id))).length;
const auditTexts = (p: Page) => p.getByTestId("staff-audit-row").allInnerTexts();

describe("staff accounts", () => {
  it("invite → password e-mail → the new staff user sets a password, signs in and sees only what was granted", async () => {
    await page.goto(url("/admin"));
    await page.getByRole("link", { name: "Staff users" }).click();
    await page.waitForURL((u) => u.pathname === "/admin/staff-users");
    await hydrated(page);
    // Bad input: a malformed address is refused in the page and by the server (400); a taken one is a 409.
    await page.getByLabel("E-mail").fill("not-an-address");
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByText("Enter a valid e-mail address.").waitFor();
    expect((await staff.postForm("/admin/staff-users", { email: "not-an-address" })).status).toBe(
      400,
    );
    const taken = await staff.postForm("/admin/staff-users", {
      email: adminEmail.toUpperCase(),
      permissions: ["brand"],
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toContain(STAFF_MSG.emailTaken);

    const since = new Date(Date.now() - 1000);
    await page.getByLabel("E-mail").fill(invitedEmail);
    const invite = page.getByTestId("staff-invite");
    await invite.getByLabel("Brands", { exact: true }).check();
    await invite.getByLabel("Listings", { exact: true }).check();
    await page.getByRole("button", { name: "Invite" }).click();
    await page.getByTestId("staff-notice").getByText(STAFF_MSG.invited).waitFor();
    invitedId = Number(new URL(page.url()).pathname.split("/").pop());
    expect(await page.locator("h1").innerText()).toBe(invitedEmail);
    // Newest first: the grants were written after the invitation (same instant, in that order).
    expect(await auditTexts(page)).toEqual([
      expect.stringContaining(`${adminEmail} granted Listings`),
      expect.stringContaining(`${adminEmail} granted Brands`),
      expect.stringContaining(`${adminEmail} invited this staff user`),
    ]);

    const mail = await waitForEmail(invitedEmail, {
      subject: "Set your Wholesale Exchange staff password",
      since,
    });
    expect(mail.bodyText).toContain("You have been invited to the staff of Wholesale Exchange.");
    const link = firstLink(mail.bodyText);
    expect(link.startsWith(url(`/password-reset/${invitedId}/`))).toBe(true);
    // The outbox page shows the e-mail but not the link's token (the link is the new user's alone).
    await page.goto(url(`/admin/outbox?to=${encodeURIComponent(invitedEmail)}`));
    const shown = await page.getByTestId("outbox-mail").first().locator("pre").innerText();
    expect(shown).toContain(`/password-reset/${invitedId}/[hidden]`);
    expect(shown).not.toContain(link);

    const fresh = await newPage(browser);
    await fresh.goto(link);
    await hydrated(fresh);
    await fresh.locator('input[name="new_password"]').fill(NEW_PASSWORD);
    await fresh.locator('input[name="confirm"]').fill(NEW_PASSWORD);
    await Promise.all([
      fresh.waitForURL(
        (u) => u.searchParams.get("ref") === "resetSuccessful" || u.pathname === "/admin",
      ),
      fresh.getByRole("button", { name: "Save my new password" }).click(),
    ]);
    await fresh.goto(url("/admin"));
    const catalogue = fresh.locator(".hub-card", {
      has: fresh.getByRole("heading", { name: "Catalogue" }),
    });
    await catalogue.getByRole("link", { name: "Brands" }).waitFor();
    await catalogue.getByRole("link", { name: "Listings" }).waitFor();
    expect(await fresh.getByRole("link", { name: "Activation and brand links" }).count()).toBe(0);
    expect(await fresh.getByRole("link", { name: "Staff users" }).count()).toBe(0);
    expect(await fresh.getByTestId("no-grants").count()).toBe(0);
    // Only what was granted opens.
    const invited = new HttpClient();
    await invited.signIn(invitedEmail, NEW_PASSWORD);
    expect((await invited.get("/admin/listings/all")).status).toBe(200);
    expect((await invited.get("/admin/retailers")).status).toBe(403);
    const list = await invited.get("/admin/staff-users");
    expect(list.status).toBe(403);
    expect(list.body).toContain(STAFF_MSG.forbidden);
  });

  it("grant and revoke show in the user's audit, newest first, and change what the user sees", async () => {
    await page.goto(url(`/admin/staff-users/${invitedId}`));
    const form = page.getByTestId("staff-permissions");
    await form.getByLabel("Listings", { exact: true }).uncheck();
    await form.getByLabel("Retailers", { exact: true }).check();
    await form.getByRole("button", { name: "Save permissions" }).click();
    await page.getByTestId("staff-notice").getByText(STAFF_MSG.saved).waitFor();
    const rows = await auditTexts(page);
    expect(rows.slice(0, 2).sort()).toEqual(
      [
        expect.stringContaining(`${adminEmail} granted Retailers`),
        expect.stringContaining(`${adminEmail} revoked Listings`),
      ].sort(),
    );
    expect(rows.at(-1)).toContain("invited this staff user");
    expect((await stateOf(invitedId)).permissions).toEqual(["brand", "retailer"]);
    const invited = new HttpClient();
    await invited.signIn(invitedEmail, NEW_PASSWORD);
    expect((await invited.get("/admin/retailers")).status).toBe(200);
    expect((await invited.get("/admin/listings/all")).status).toBe(403);
  });

  it("revoking one's own Staff users right: the message, a 409, nothing changed", async () => {
    const before = await stateOf(adminId);
    const audits = await auditCount(adminId);
    await page.goto(url(`/admin/staff-users/${adminId}`));
    await page.getByText("This is you.").waitFor();
    const form = page.getByTestId("staff-permissions");
    await form.getByLabel("Staff users", { exact: true }).uncheck();
    await form.getByRole("button", { name: "Save permissions" }).click();
    await form.getByTestId("form-error").getByText(STAFF_MSG.selfRevoke).waitFor();
    const r = await staff.postForm(`/admin/staff-users/${adminId}`, {
      intent: "permissions",
      permissions: ["brand"],
    });
    expect(r.status).toBe(409);
    expect(r.body).toContain(STAFF_MSG.selfRevoke);
    // Nor may one deactivate oneself.
    await page.goto(url(`/admin/staff-users/${adminId}`));
    await page.getByRole("button", { name: "Deactivate account" }).click();
    await page.getByTestId("account-error").getByText(STAFF_MSG.selfDeactivate).waitFor();
    expect(
      (await staff.postForm(`/admin/staff-users/${adminId}`, { intent: "deactivate" })).status,
    ).toBe(409);
    expect(await stateOf(adminId)).toEqual(before);
    expect(await auditCount(adminId)).toBe(audits);
  });

  it("a forged permission change by a staff user without the right: 403, nothing changed", async () => {
    const forger = await createStaffUser(db(), { email: `sa-forger-${tok}@example.test` });
    const c = new HttpClient();
    await c.signIn(forger.email, DEFAULT_TEST_PASSWORD);
    const before = await stateOf(adminId);
    const audits = await auditCount(adminId);
    const forged = [
      await c.postForm(`/admin/staff-users/${adminId}`, { intent: "permissions", permissions: [] }),
      await c.postForm(`/admin/staff-users/${forger.id}`, {
        intent: "permissions",
        permissions: [STAFF_USERS_PERMISSION],
      }),
      await c.postForm(`/admin/staff-users/${adminId}`, { intent: "deactivate" }),
      await c.postForm("/admin/staff-users", {
        email: `sa-forged-${tok}@example.test`,
        permissions: [STAFF_USERS_PERMISSION],
      }),
    ];
    expect(forged.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(forged[0].body).toContain(STAFF_MSG.forbidden);
    expect(await stateOf(adminId)).toEqual(before);
    expect(await auditCount(adminId)).toBe(audits);
    expect((await stateOf(forger.id)).permissions).not.toContain(STAFF_USERS_PERMISSION);
    const [made] = await db()
      .select()
      .from(users)
      .where(eq(users.email, `sa-forged-${tok}@example.test`));
    expect(made).toBeUndefined();
  });

  it("a staff user with no grants sees a page that says so and whom to ask", async () => {
    const bare = await createStaffUser(db(), {
      email: `sa-bare-${tok}@example.test`,
      permissions: [],
    });
    const p = await signedIn(browser, bare.email, { at: "/admin" });
    const box = p.getByTestId("no-grants");
    await box.getByRole("heading", { name: "No permissions yet" }).waitFor();
    expect(await box.innerText()).toContain(adminEmail);
    expect(await p.getByRole("heading", { name: "Catalogue" }).count()).toBe(0);
    expect(await p.getByRole("heading", { name: "Manage" }).count()).toBe(0);
    // What still works is still linked; the staff-users screens say why they are closed.
    await p.getByRole("link", { name: "Orders and RMAs" }).waitFor();
    const closed = await p.goto(url("/admin/staff-users"));
    expect(closed?.status()).toBe(403);
    await p.getByText(STAFF_MSG.forbidden).waitFor();
  });

  it("bad input on a staff user's page: a clear message and a 4xx, nothing changed", async () => {
    const t = await createStaffUser(db(), {
      email: `sa-bad-${tok}@example.test`,
      permissions: ["brand"],
    });
    const before = await stateOf(t.id);
    const unknown = await staff.postForm(`/admin/staff-users/${t.id}`, {
      intent: "permissions",
      permissions: ["brand", "root"],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain(STAFF_MSG.unknownPermission);
    expect((await staff.postForm(`/admin/staff-users/${t.id}`, { intent: "promote" })).status).toBe(
      400,
    );
    expect(
      (await staff.postForm(`/admin/staff-users/${t.id}`, { intent: "reactivate" })).status,
    ).toBe(409);
    expect(
      (
        await staff.postRaw(
          `/admin/staff-users/${t.id}`,
          '{"intent":"deactivate"}',
          "application/json",
        )
      ).status,
    ).toBe(400);
    for (const bad of ["abc", "0", "999999999"])
      expect((await staff.get(`/admin/staff-users/${bad}`)).status).toBe(404);
    expect(await stateOf(t.id)).toEqual(before);
    expect(await auditCount(t.id)).toBe(0);
  });

  it("deactivating ends the user's session and sign-in; reactivating is audited", async () => {
    const invited = new HttpClient();
    await invited.signIn(invitedEmail, NEW_PASSWORD);
    await page.goto(url(`/admin/staff-users/${invitedId}`));
    await page.getByRole("button", { name: "Deactivate account" }).click();
    await page.getByTestId("staff-notice").getByText(STAFF_MSG.deactivated).waitFor();
    expect((await auditTexts(page))[0]).toContain(`${adminEmail} deactivated the account`);
    const after = await invited.get("/admin");
    expect(after.status).toBe(302);
    expect(after.location).toBe("/error/");
    expect(
      (await new HttpClient().postForm("/signin", { email: invitedEmail, password: NEW_PASSWORD }))
        .status,
    ).toBe(401);
    await page.getByRole("button", { name: "Reactivate account" }).click();
    await page.getByTestId("staff-notice").getByText(STAFF_MSG.reactivated).waitFor();
    expect((await auditTexts(page))[0]).toContain(`${adminEmail} reactivated the account`);
    await new HttpClient().signIn(invitedEmail, NEW_PASSWORD);
  });
});

/**
 * In Chromium: a retailer is told of every status change and brand link, whichever screen made it
 * (docs/product/screens.md, "Notices to retailers"). Staff change the status from Manage Retailer → Info and
 * from the generic retailer form, authorize and remove a brand on the Brands tab and through the generic
 * retailer-brand screens, and read the e-mails on /admin/outbox (going back to pending included). Saving an
 * unchanged status sends nothing; a bad status is a 400 and sends nothing.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { listOutbox } from "../../db/queries/outbox";
import { retailerBrands, retailers } from "../../db/schema";
import { createBrand } from "../factories/catalogue";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories/retailers";
import { uniqueToken } from "../factories/util";
import { db, launchBrowser, signedIn, url } from "./harness";
import { HttpClient } from "./http";

let browser: Browser;
let page: Page;
let staff: HttpClient;
const tok = uniqueToken();
const staffEmail = `sn-staff-${tok}@example.test`;

beforeAll(async () => {
  browser = await launchBrowser();
  await createStaffUser(db(), { email: staffEmail });
  page = await signedIn(browser, staffEmail, { at: null });
  staff = new HttpClient();
  await staff.signIn(staffEmail, DEFAULT_TEST_PASSWORD);
}, 120_000);

async function pendingRetailer(name: string) {
  const email = `sn-${name}-${tok}@example.test`;
  const r = await createRetailer(db(), {
    status: "pending",
    storeName: `SN ${name} ${tok}`,
    user: { email },
  });
  return { id: r.retailer.id, email };
}

/** The subjects /admin/outbox shows for `email`, newest first. */
async function outboxSubjects(email: string): Promise<string[]> {
  await page.goto(url(`/admin/outbox?to=${encodeURIComponent(email)}`));
  return page.locator('[data-testid="outbox-mail"] h2').allInnerTexts();
}

const statusOf = async (id: number) =>
  (await db().select().from(retailers).where(eq(retailers.id, id)))[0].status;

describe("status changes", () => {
  it("Manage Retailer → Info: activating sends the activation e-mail once; saving again unchanged sends nothing", async () => {
    const r = await pendingRetailer("info");
    await page.goto(url(`/manage-retailer/info?id=${r.id}`));
    await page.getByLabel("Status").selectOption("active");
    await page.getByRole("button", { name: "Save retailer" }).click();
    await page.getByText("Retailer saved.").waitFor();
    expect(await statusOf(r.id)).toBe("active");
    expect(await outboxSubjects(r.email)).toEqual(["Your retailer account is active"]);
    await expect(page.locator('[data-testid="outbox-mail"] pre').innerText()).resolves.toContain(
      "Good news: your retailer account is active.",
    );

    await page.goto(url(`/manage-retailer/info?id=${r.id}`));
    await page.getByRole("button", { name: "Save retailer" }).click();
    await page.getByText("Retailer saved.").waitFor();
    expect(await outboxSubjects(r.email)).toEqual(["Your retailer account is active"]);
  });

  it("Info: inactivating sends the inactivation e-mail; a status that does not exist is a 400 and sends nothing", async () => {
    const r = await pendingRetailer("inactive");
    const bad = await staff.postForm(`/manage-retailer/info?id=${r.id}`, {
      intent: "info",
      status: "closed",
    });
    expect(bad.status).toBe(400);
    expect(await statusOf(r.id)).toBe("pending");
    expect(await outboxSubjects(r.email)).toEqual([]);
    await db().update(retailers).set({ status: "active" }).where(eq(retailers.id, r.id));
    await page.goto(url(`/manage-retailer/info?id=${r.id}`));
    await page.getByLabel("Status").selectOption("inactive");
    await page.getByRole("button", { name: "Save retailer" }).click();
    await page.getByText("Retailer saved.").waitFor();
    expect(await outboxSubjects(r.email)).toEqual(["Your retailer account is no longer active"]);
    // Back to pending: told too.
    await page.goto(url(`/manage-retailer/info?id=${r.id}`));
    await page.getByLabel("Status").selectOption("pending");
    await page.getByRole("button", { name: "Save retailer" }).click();
    await page.getByText("Retailer saved.").waitFor();
    expect(await outboxSubjects(r.email)).toEqual([
      "Your retailer account is under review",
      "Your retailer account is no longer active",
    ]);
  });

  it("the generic retailer form: denying sends the denial e-mail with the denied page's words; activating then sends the activation", async () => {
    const r = await pendingRetailer("generic");
    await page.goto(url(`/admin/retailer/${r.id}/`));
    await page.locator("select#field-status").selectOption("denied");
    await Promise.all([
      page.waitForURL(/saved=1/),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    expect(await statusOf(r.id)).toBe("denied");
    expect(await outboxSubjects(r.email)).toEqual(["Your retailer account has been denied"]);
    await expect(page.locator('[data-testid="outbox-mail"] pre').innerText()).resolves.toContain(
      "Your retailer account has been denied. If you think this is in error, you can submit additional credentials to the retailer support email",
    );

    await page.goto(url(`/admin/retailer/${r.id}/`));
    await page.locator("select#field-status").selectOption("active");
    await Promise.all([
      page.waitForURL(/saved=1/),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    expect(await outboxSubjects(r.email)).toEqual([
      "Your retailer account is active",
      "Your retailer account has been denied",
    ]);
  });
});

describe("brand links", () => {
  it("the Brands tab: adding a brand and deleting it each tell the retailer", async () => {
    const r = await pendingRetailer("brands");
    const brand = await createBrand(db(), { name: `SN Brand ${tok}` });
    await page.goto(url(`/manage-retailer/brands?id=${r.id}`));
    await page.getByLabel("Brand to add").selectOption(String(brand.id));
    await page.getByRole("button", { name: "Add brand" }).click();
    await page.getByText("Brand added.").waitFor();
    await page.getByRole("button", { name: `Delete ${brand.displayName}` }).click();
    await page.getByText("Brand link deleted.").waitFor();
    expect(await outboxSubjects(r.email)).toEqual([
      `Brand no longer authorized: ${brand.displayName}`,
      `Brand authorized: ${brand.displayName}`,
    ]);
    await expect(
      page.locator('[data-testid="outbox-mail"] pre').last().innerText(),
    ).resolves.toContain(`You are now authorized for ${brand.displayName}.`);
  });

  it("the generic retailer-brand screens: creating an authorized link, revoking it and deleting a link tell the retailer", async () => {
    const r = await pendingRetailer("links");
    const brand = await createBrand(db(), { name: `SN Link ${tok}` });
    const create = await staff.postForm("/admin/retailerbrand/new/", {
      retailer: r.id,
      brand: brand.id,
      status: "authorized",
    });
    expect(create.status).toBe(302);
    const [link] = await db()
      .select()
      .from(retailerBrands)
      .where(eq(retailerBrands.retailerId, r.id));
    expect(await outboxSubjects(r.email)).toEqual([`Brand authorized: ${brand.displayName}`]);

    // Revoked in the form: the retailer is told it lost the brand; deleting the revoked link tells nothing more.
    const revoke = await staff.postForm(`/admin/retailerbrand/${link.id}/`, {
      retailer: r.id,
      brand: brand.id,
      status: "revoked",
    });
    expect(revoke.status).toBe(302);
    expect((await listOutbox(db(), { toEmail: r.email })).map((m) => m.kind)).toEqual([
      "retailer_brand_removed",
      "retailer_brand_authorized",
    ]);
    const del = await staff.postForm("/admin/retailerbrand", { intent: "delete", id: link.id });
    expect(del.status).toBe(302);
    expect(await outboxSubjects(r.email)).toEqual([
      `Brand no longer authorized: ${brand.displayName}`,
      `Brand authorized: ${brand.displayName}`,
    ]);

    // Deleting an authorized link from the generic list tells the retailer.
    await staff.postForm("/admin/retailerbrand/new/", {
      retailer: r.id,
      brand: brand.id,
      status: "authorized",
    });
    const [again] = await db()
      .select()
      .from(retailerBrands)
      .where(eq(retailerBrands.retailerId, r.id));
    expect(
      (await staff.postForm("/admin/retailerbrand", { intent: "delete", id: again.id })).status,
    ).toBe(302);
    expect((await listOutbox(db(), { toEmail: r.email })).map((m) => m.kind)).toEqual([
      "retailer_brand_removed",
      "retailer_brand_authorized",
      "retailer_brand_removed",
      "retailer_brand_authorized",
    ]);
  });
});

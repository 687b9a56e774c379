/**
 * The shell in a real browser: menus, information pages, error pages, home cards and the
 * action-required banners, against the running app (E2E_BASE_URL) and the seeded demo data
 * (db/seed-logins.json).
 */
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import logins from "../../db/seed-logins.json";
import { baseUrl, launchBrowser, newPage, signIn } from "./harness";

type Login = { role: string; email: string; password: string };
const all = logins as Login[];
function login(email: string): Login {
  const l = all.find((x) => x.email === email);
  if (!l) throw new Error(`seed login ${email} missing from db/seed-logins.json`);
  return l;
}
const STAFF = login("staff@demo.test");
const RETAILER = login("retailer1@demo.test"); // payout set up, cell phone present
const NO_PAYOUT = login("retailer4@demo.test");
const NO_CELLPHONE = login("retailer5@demo.test");
const INACTIVE = login("retailer8@demo.test");

const CELLPHONE_TEXT =
  "Action Required! You must fill in your cell phone number so that we can notify you when you have orders to approve.";

let browser: Browser;

const page = (): Promise<Page> => newPage(browser);

async function signedIn(l: Login): Promise<Page> {
  const p = await page();
  await signIn(p, l.email, l.password);
  return p;
}

const url = (path: string) => new URL(path, baseUrl).href;

/** Opens the slide-out menu (a CSS checkbox toggle) and returns its links as [text, href]. */
async function menuLinks(p: Page): Promise<Array<[string, string]>> {
  await p.click("label.menu-button");
  await p.locator("nav.slideout").waitFor({ state: "visible" });
  return p.$$eval("nav.slideout a", (as) =>
    as.map((a) => [a.textContent?.trim() ?? "", a.getAttribute("href") ?? ""] as [string, string]),
  );
}

beforeAll(async () => {
  browser = await launchBrowser();
});

describe("information pages (public)", () => {
  it("/onboarding explains how the marketplace works", async () => {
    const p = await page();
    const res = await p.goto(url("/onboarding"));
    expect(res?.status()).toBe(200);
    expect(await p.title()).toContain("How It Works");
    const text = await p.textContent("main");
    expect(text).toContain("Register your store");
    expect(text).toContain("Anonymous by design");
    expect(text).toContain("retailer-00");
    expect(text).toContain("pre-authorised");
    expect(text).toContain("48 hours");
  });

  it("/how-selling-works gives the steps and windows", async () => {
    const p = await page();
    const res = await p.goto(url("/how-selling-works"));
    expect(res?.status()).toBe(200);
    const text = await p.textContent("main");
    expect(text).toContain("ready for pickup within 2 business days");
    expect(text).toContain("Get paid at the carrier scan");
    expect(text).toContain("within 3 business days of delivery");
    expect(text).toContain("within 48 hours of delivery");
    expect(text).toContain("10% of the approved goods value");
    // docs/product/money.md, "Swap value difference": one side's call-it-even forgives the difference; both still pay the same fee.
    expect(text).toContain(
      "unless either side calls it even: one side's choice is enough to forgive the difference",
    );
    expect(text).toContain("both sides pay the same 5% fee on the larger goods value");
    expect(text).not.toContain("both agree");
  });

  it("/pricing shows the fees and the full shipping table", async () => {
    const p = await page();
    const res = await p.goto(url("/pricing"));
    expect(res?.status()).toBe(200);
    expect(await p.title()).toBe("Pricing | Wholesale Exchange");
    const fees = await p.textContent("[data-testid=fees-table]");
    expect(fees).toContain("Free");
    expect(fees).toContain("10% of the approved goods value");
    expect(fees).toContain("5% of the larger goods value");
    const rows = await p.$$eval("[data-testid=shipping-table] tbody tr", (trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent?.trim())),
    );
    expect(rows.slice(0, 7)).toEqual([
      ["0 units", "$0.00"],
      ["1 unit", "$19.75"],
      ["2–3 units", "$23.75"],
      ["4–5 units", "$27.75"],
      ["6–7 units", "$31.75"],
      ["8–9 units", "$35.75"],
      ["10–100 units", "$39.75"],
    ]);
    expect(await p.textContent("main")).toContain("penalty of 10%");
    expect(await p.textContent("main")).toContain(
      "unless either of you calls it even: one side's choice is enough to forgive the difference",
    );
  });

  it("the footer links to the contact page, which gives the support e-mail and phone", async () => {
    const p = await page();
    await p.goto(url("/pricing"));
    expect(await p.textContent("footer")).toContain("© 2021");
    await p.locator("footer a[href='/contact']").click();
    await p.waitForURL(/\/contact$/);
    await p.locator("main h1", { hasText: "Contact us" }).waitFor();
    const text = await p.textContent("main");
    expect(text).toMatch(/E-mail: \S+@\S+/);
    expect(text).toMatch(/Phone: [\d-]+/);
  });

  it("/error/ shows Error.", async () => {
    const p = await page();
    const res = await p.goto(url("/error/"));
    expect(res?.status()).toBe(200);
    expect((await p.textContent("h1"))?.trim()).toBe("Error.");
    expect(await p.getAttribute("main a[href='/']", "href")).toBe("/");
  });
});

describe("retailer shell", () => {
  it("home shows the four cards and the menus show every group and link", async () => {
    const p = await signedIn(RETAILER);
    await p.goto(url("/"));
    const cards = await p.$$eval("[data-testid=home-cards] a", (as) =>
      as.map((a) => [a.getAttribute("href"), a.textContent]),
    );
    expect(cards.map((c) => c[0])).toEqual(["/addlisting/", "/requestlisting/", "/buy/", "/sell/"]);
    expect(cards[0][1]).toContain("LIST what didn't sell");
    expect(cards[1][1]).toContain("REQUEST what you need");
    expect(cards[2][1]).toContain("see what other retailers have listed");
    expect(cards[3][1]).toContain("see what others requested");

    const groups = await p.$$eval("nav.slideout .menu-group-title", (hs) =>
      hs.map((h) => h.textContent),
    );
    expect(groups).toEqual([
      "How It Works",
      "Browse",
      "My Listings & Requests",
      "Brands",
      "Inbox",
      "My Profile",
    ]);
    const hrefs = (await menuLinks(p)).map(([, h]) => h);
    for (const h of [
      "/onboarding",
      "/how-selling-works",
      "/pricing",
      "/buy",
      "/sell",
      "/swap",
      "/addlisting",
      "/requestlisting",
      "/active/listings",
      "/active/requests",
      "/brands",
      "/alerts",
      "/alerts?status=declined",
      "/orders",
      "/rma",
      "/settings",
    ]) {
      expect(hrefs).toContain(h);
    }
    expect(hrefs).not.toContain("/admin");
    // Logout is a POST form showing the user's e-mail.
    expect(await p.textContent("nav.slideout form[action='/logout'] button")).toContain(
      RETAILER.email,
    );
    expect(await p.locator("[data-testid=admin-pill]").count()).toBe(0);
    expect(await p.locator("[data-testid=env-badge]").count()).toBe(0);
    // Everything set up: no banner.
    expect(await p.locator("[data-testid^=banner-]").count()).toBe(0);
  });

  it("a menu link leads to its page and closes the menu", async () => {
    const p = await signedIn(RETAILER);
    await p.goto(url("/"));
    await menuLinks(p);
    await p.locator("nav.slideout a[href='/active/listings']").click();
    await p.waitForURL(/\/active\/listings$/);
    await p.locator("main h1", { hasText: "My Listings" }).waitFor();
    expect((await p.textContent("main h1"))?.trim()).toBe("My Listings");
    await p.locator("nav.slideout").waitFor({ state: "hidden" });
  });

  it("settings has its eight tabs (the owner's)", async () => {
    const p = await signedIn(RETAILER);
    await p.goto(url("/settings"));
    expect(new URL(p.url()).pathname).toBe("/settings/store");
    const tabs = await p.$$eval("nav.tabs a", (as) => as.map((a) => a.textContent?.trim()));
    expect(tabs).toEqual([
      "Store Info",
      "Contact Info",
      "Payout Info",
      "Card On File",
      "Password",
      "Two-factor sign-in",
      "API tokens",
      "Team",
    ]);
    await p.locator("nav.tabs a[href='/settings/password']").click();
    await p.waitForURL(/\/settings\/password$/);
    await p.locator("main h2", { hasText: "Password" }).waitFor();
    expect(await p.getAttribute("main a[href='/password-reset']", "href")).toBe("/password-reset");
  });

  it("an unknown page is a friendly 404", async () => {
    const p = await signedIn(RETAILER);
    const res = await p.goto(url("/no-such-page-here"));
    expect(res?.status()).toBe(404);
    expect(await p.textContent("main h1")).toBe("Page not found");
    expect(await p.title()).toContain("Page not found");
    // Rendered inside the layout.
    expect(await p.locator("header.navbar").count()).toBe(1);
  });
});

describe("staff shell", () => {
  it("shows the Admin pill, the environment badge and the acting-as control; the logo goes to /admin", async () => {
    const p = await signedIn(STAFF);
    await p.goto(url("/admin"));
    expect(await p.textContent("[data-testid=admin-pill]")).toBe("Admin");
    expect(["local", "test", "staging", "production"]).toContain(
      (await p.textContent("[data-testid=env-badge]"))?.trim(),
    );
    expect(await p.getAttribute("[data-testid=acting-as] a", "href")).toBe("/act-as");
    expect(await p.getAttribute("header.navbar a.brand", "href")).toBe("/admin");
    // The hub links to the retailers page and the outbox.
    expect(await p.locator("main a[href='/admin/retailers']").count()).toBeGreaterThan(0);
    expect(await p.locator("main a[href='/admin/outbox']").count()).toBeGreaterThan(0);
    const hrefs = (await menuLinks(p)).map(([, h]) => h);
    expect(hrefs).toContain("/admin");
    // Staff acting as nobody see no retailer banners.
    expect(await p.locator("[data-testid^=banner-]").count()).toBe(0);
  });
});

describe("staff acting as a retailer", () => {
  it("shows who they act as, that retailer's banners, and clears from the navbar", async () => {
    const p = await signedIn(STAFF);
    await p.goto(url("/act-as"));
    await p.selectOption("#act-retailer", "4"); // Harborline Shoes: no payout set up
    await Promise.all([
      p.waitForURL(/\/act-as\?chosen=1/),
      p.locator("button", { hasText: "Act as this retailer" }).click(),
    ]);
    await p.goto(url("/"));
    const acting = p.locator("[data-testid=acting-as]");
    expect(await acting.textContent()).toContain("Acting as Harborline Shoes");
    expect(await p.locator("[data-testid=banner-payout]").count()).toBe(1);
    await acting.locator("button", { hasText: "clear" }).click();
    await acting.locator("a", { hasText: "Act as a retailer" }).waitFor();
    expect(new URL(p.url()).pathname).toBe("/");
    expect(await p.locator("[data-testid^=banner-]").count()).toBe(0);
  });
});

describe("banners", () => {
  it("payout missing: Action Required! with a link to /getpaid/; 'do this later' hides it for the session", async () => {
    const p = await signedIn(NO_PAYOUT);
    await p.goto(url("/"));
    const banner = p.locator("[data-testid=banner-payout]");
    expect(await banner.textContent()).toContain("Action Required!");
    expect(await banner.textContent()).toContain("will not be shown to other retailers");
    expect(await banner.locator("a[href='/getpaid/']").count()).toBe(1);
    await banner.locator("button", { hasText: "do this later" }).click();
    await banner.waitFor({ state: "detached" });
    expect(new URL(p.url()).pathname).toBe("/");
    // Still hidden on other pages of the same session.
    await p.goto(url("/pricing"));
    expect(await p.locator("[data-testid=banner-payout]").count()).toBe(0);
    // A new session shows it again.
    const again = await signedIn(NO_PAYOUT);
    await again.goto(url("/"));
    expect(await again.locator("[data-testid=banner-payout]").count()).toBe(1);
  });

  it("contact without a cell phone: the verbatim Action Required! banner, which cannot be put off", async () => {
    const p = await signedIn(NO_CELLPHONE);
    await p.goto(url("/"));
    const banner = p.locator("[data-testid=banner-cellphone]");
    expect(await banner.textContent()).toContain(CELLPHONE_TEXT);
    expect(await banner.locator("a[href='/settings/contact']").count()).toBe(1);
    expect(await banner.locator("button", { hasText: "do this later" }).count()).toBe(0);
    expect(await p.locator("[data-testid=banner-payout]").count()).toBe(0);
  });

  it("inactive retailer: the account-not-active warning with the support contact", async () => {
    const p = await signedIn(INACTIVE);
    await p.goto(url("/"));
    const text = await p.locator("[data-testid=banner-inactive]").textContent();
    // The specification's words first, then ours with the support contact.
    expect(text).toMatch(
      /^Account not active, contact support\. Your retailer account is not active\./,
    );
    expect(text).toMatch(/contact support/i);
    expect(await p.locator("[data-testid=banner-inactive] button").count()).toBe(0);
  });
});

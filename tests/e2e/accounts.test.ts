// Accounts end to end: register -> setup wizard -> wait -> staff activation ->
// home; sign-in failure and sign-out; password reset through the outbox; admin guard; act-as; denied.
import type { Browser, Page } from "playwright-core";
import { createBrand, createRetailer, createStaffUser } from "../factories";
import {
  db,
  firstLink,
  hydrated,
  launchBrowser,
  newPage,
  pagesPerTest,
  signIn,
  uniqueEmail,
  url,
  waitForEmail,
} from "./harness";

const PASSWORD = "e2e-password-1";
let browser: Browser;
const pages = pagesPerTest();

beforeAll(async () => {
  browser = await launchBrowser();
});

const page = (): Promise<Page> => newPage(browser, { pages });

async function staffPage(): Promise<Page> {
  const email = uniqueEmail("staff");
  await createStaffUser(db(), { email, password: PASSWORD });
  const p = await page();
  await signIn(p, email, PASSWORD);
  return p;
}

async function logout(p: Page) {
  await Promise.all([
    p.waitForURL((u) => u.pathname.startsWith("/signin")),
    p.locator('form[action="/logout"] button:visible').first().click(),
  ]);
}

/** A POST as a browser without JavaScript would send it (same origin), for status codes. */
async function post(p: Page, path: string, form: Record<string, string>) {
  return p.request.post(url(path), {
    form,
    headers: { Origin: new URL(url("/")).origin },
    maxRedirects: 0,
  });
}

test("register -> setup wizard -> wait for activation -> staff activates -> retailer reaches home", async () => {
  const brand = await createBrand(db(), { name: `E2E Brand ${Date.now().toString(36)}` });
  const email = uniqueEmail("reg");
  const storeName = `E2E Store ${Date.now().toString(36)}`;
  const p = await page();

  // Register: CONTINUE disabled while invalid or the confirmation is empty.
  await p.goto(url("/register"));
  await hydrated(p);
  const cont = p.getByRole("button", { name: "CONTINUE" });
  await expect.poll(() => cont.isDisabled()).toBe(true);
  await p.locator('input[name="email"]').fill("not-an-email");
  await p.locator('input[name="password"]').fill(PASSWORD);
  await p.locator('input[name="confirm"]').fill(PASSWORD);
  await p.getByText("A valid email address is required.").waitFor();
  expect(await cont.isDisabled()).toBe(true);
  await p.locator('input[name="email"]').fill(email);
  await p.locator('input[name="confirm"]').fill(PASSWORD + "x");
  await p.getByText("Passwords must match").waitFor();
  expect(await cont.isDisabled()).toBe(true);
  await p.locator('input[name="confirm"]').fill(PASSWORD);
  await expect.poll(() => cont.isDisabled()).toBe(false);
  await Promise.all([p.waitForURL(/\/retailer-setup\/?$/), cont.click()]);

  // Wizard without the navbar. Step 1 Retailer, with one validation error first.
  await p.getByRole("heading", { name: "Retailer", exact: true }).waitFor();
  expect(await p.locator('[data-testid="slideout"]').count()).toBe(0);
  expect(await p.locator("header.navbar-plain").count()).toBe(1);
  const fill = async (name: string, value: string) => p.locator(`[name="${name}"]`).fill(value);
  await fill("store_name", storeName);
  await fill("store_email", `store-${email}`);
  await fill("store_phone", "212 555 0100");
  await fill("business_name", `${storeName} LLC`);
  await fill("address1", "1 Broadway");
  await fill("city", "New York");
  await fill("state", "NY");
  await fill("postal_code", "100");
  await fill("resale_number", "1234567890123");
  await p.getByRole("button", { name: "Next" }).click();
  await p.getByText("Enter a ZIP code as ##### or #####-####.").waitFor();
  expect(await p.locator('[name="store_name"]').inputValue()).toBe(storeName); // values kept
  await fill("postal_code", "10004");
  await Promise.all([
    p.getByRole("heading", { name: "Retailer Contact" }).waitFor(),
    p.getByRole("button", { name: "Next" }).click(),
  ]);

  // Progress is in the database: a reload resumes at the contact step.
  await p.reload();
  await p.getByRole("heading", { name: "Retailer Contact" }).waitFor();
  await fill("first_name", "Robin");
  await fill("last_name", "Reg");
  await p.locator('select[name="job_title"]').selectOption("Buyer");
  await fill("phone", "2125550101");
  await p.getByRole("button", { name: "Next" }).click();
  await p.getByText("Contact cell phone required.", { exact: false }).waitFor();
  await fill("celphone", "2125550102");
  await Promise.all([
    p.getByRole("heading", { name: "Request Brands" }).waitFor(),
    p.getByRole("button", { name: "Next" }).click(),
  ]);

  // Step 3: at least one brand; choose the marketplace brand and request another one.
  await hydrated(p);
  await p.getByRole("button", { name: "Finish" }).click();
  await p.getByText("Choose at least one brand or request one.").first().waitFor();
  await p.getByLabel(brand.name).check();
  await fill("requests[0].brand_name", "Brand Not Yet Here");
  await fill("requests[0].brand_purchase_amount", "25,000");
  await Promise.all([
    p.waitForURL(/\/wait-for-activation\/?$/),
    p.getByRole("button", { name: "Finish" }).click(),
  ]);
  await p.getByText("Thank You. Please Wait for Activation").waitFor();

  // Held in the required-action state.
  await p.goto(url("/buy"));
  expect(new URL(p.url()).pathname).toBe("/wait-for-activation/");
  await p.goto(url("/retailer-setup/"));
  expect(new URL(p.url()).pathname).toBe("/wait-for-activation/");
  await logout(p);

  // Staff activates it and authorizes the requested brand (pre-checked).
  const s = await staffPage();
  expect(new URL(s.url()).pathname).toBe("/admin");
  // Found by the page's search (each status shows a page of its newest retailers); the action comes back to it.
  await s.goto(url(`/admin/retailers?q=${encodeURIComponent(storeName)}`));
  const card = s.locator(`article[data-store="${storeName}"]`);
  await card.waitFor();
  await card.getByText("Brand Not Yet Here").waitFor();
  await card.getByText("(waiting for brand validation)").waitFor();
  expect(await card.getByLabel(brand.name).isChecked()).toBe(true);
  await Promise.all([
    s.waitForURL(/done=activate/),
    card.getByRole("button", { name: "Activate" }).click(),
  ]);
  await s
    .locator('[data-testid="retailers-active"]')
    .locator(`article[data-store="${storeName}"]`)
    .getByText(brand.name)
    .first()
    .waitFor();
  const mail = await waitForEmail(email, { subject: "Your retailer account is active" });
  expect(mail.bodyText).toContain("active");
  // The brand typed at registration waits on Validation → Brands, named by this registration.
  await s.goto(url("/admin/validate/brands"));
  await s.getByText(`Requested by ${storeName} (at registration #`, { exact: false }).waitFor();

  // The retailer signs in and reaches home.
  const r = await page();
  await signIn(r, email, PASSWORD);
  expect(new URL(r.url()).pathname).toBe("/");
  await r.goto(url("/wait-for-activation/"));
  expect(new URL(r.url()).pathname).toBe("/");
});

test("wrong password: same answer for unknown e-mail, support phone, 401; sign out", async () => {
  const { user } = await createRetailer(db(), {
    user: { email: uniqueEmail("signin"), password: PASSWORD },
  });
  const p = await page();
  await p.goto(url("/signin"));
  await hydrated(p);
  await p.locator('input[name="email"]').fill(user!.email);
  await p.locator('input[name="password"]').fill("wrong-password");
  await p.getByRole("button", { name: "Sign in" }).click();
  const alert = p.getByTestId("login-failed");
  await alert.getByText("That password is incorrect; please try again").waitFor();
  expect(await alert.locator('a[href^="tel:"]').count()).toBe(1);
  expect(await alert.innerText()).toMatch(/desktop browser/);
  expect(await p.locator('input[name="email"]').inputValue()).toBe(user!.email); // kept

  const wrong = await post(p, "/signin", { email: user!.email, password: "wrong-password" });
  const unknown = await post(p, "/signin", {
    email: uniqueEmail("nobody"),
    password: "wrong-password",
  });
  expect(wrong.status()).toBe(401);
  expect(unknown.status()).toBe(401);
  const text = (s: string) => s.includes("That password is incorrect; please try again");
  expect(text(await wrong.text()) && text(await unknown.text())).toBe(true);
  expect((await post(p, "/signin", { email: "", password: "" })).status()).toBe(400);
  // A cross-site POST is refused by the origin check.
  const cross = await p.request.post(url("/signin"), {
    form: { email: user!.email, password: PASSWORD },
    headers: { Origin: "https://evil.example" },
  });
  expect(cross.status()).toBe(403);

  await signIn(p, user!.email, PASSWORD);
  expect(new URL(p.url()).pathname).toBe("/");
  const cookies = await p.context().cookies();
  const session = cookies.find((c) => c.name === "wx_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  await logout(p);
  await p.goto(url("/"));
  expect(new URL(p.url()).pathname).toBe("/signin");
});

test("password reset end to end through the outbox", async () => {
  const email = uniqueEmail("reset");
  await createRetailer(db(), { user: { email, password: PASSWORD } });
  const p = await page();
  await p.goto(url("/password-reset"));
  await hydrated(p);
  await p.getByRole("button", { name: "Send me the link" }).click();
  await p.getByText("Email field is mandatory").waitFor();
  expect((await post(p, "/password-reset", { email: "" })).status()).toBe(400);

  const since = new Date(Date.now() - 1000);
  await p.locator('input[name="email"]').fill(email);
  await p.getByRole("button", { name: "Send me the link" }).click();
  await p
    .getByTestId("reset-sent")
    .getByText("Thanks. Please check your email", { exact: false })
    .waitFor();
  // The same answer for an unknown address.
  const unknown = await post(p, "/password-reset", { email: uniqueEmail("nobody") });
  expect(unknown.status()).toBe(302);
  expect(unknown.headers()["location"]).toContain("/password-reset?sent=1");

  const mail = await waitForEmail(email, { subject: /reset/i, since });
  const link = firstLink(mail.bodyText);
  expect(link.startsWith(url("/password-reset/"))).toBe(true);

  const r = await page();
  await r.goto(link);
  await hydrated(r);
  await r.locator('input[name="new_password"]').fill("brand-new-pass-1");
  await r.locator('input[name="confirm"]').fill("brand-new-pass-2");
  await r.getByRole("button", { name: "Save my new password" }).click();
  await r.getByText("passwords must match").waitFor();
  await r.locator('input[name="confirm"]').fill("brand-new-pass-1");
  await Promise.all([
    r.waitForURL((u) => u.searchParams.get("ref") === "resetSuccessful"),
    r.getByRole("button", { name: "Save my new password" }).click(),
  ]);
  await r.getByText("Your password has been reset.").waitFor();

  // Single use: the same link now says so, with a Start Over link.
  const again = await page();
  await again.goto(link);
  await again
    .getByText("This code is no longer valid, please reset your password again.")
    .waitFor();
  await again.getByRole("link", { name: "Start Over" }).waitFor();

  // Old password refused, new one works.
  expect((await post(again, "/signin", { email, password: PASSWORD })).status()).toBe(401);
  await signIn(again, email, "brand-new-pass-1");
  expect(new URL(again.url()).pathname).toBe("/");
});

test("admin guard: non-staff on any admin path land on /error/ with 'Error.'", async () => {
  const email = uniqueEmail("guard");
  await createRetailer(db(), { user: { email, password: PASSWORD } });
  const anon = await page();
  await anon.goto(url("/admin/retailers"));
  expect(new URL(anon.url()).pathname).toBe("/error/");
  await anon.getByRole("heading", { name: "Error." }).waitFor();

  const p = await page();
  await signIn(p, email, PASSWORD);
  for (const path of ["/admin", "/admin/retailers", "/admin/outbox"]) {
    await p.goto(url(path));
    expect(new URL(p.url()).pathname).toBe("/error/");
    await p.getByRole("heading", { name: "Error." }).waitFor();
  }
  // Posting to staff-only actions does nothing but send them to /error/.
  const res = await post(p, "/admin/retailers", { intent: "deny", retailerId: "1" });
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/error/");
});

test("act-as: staff choose a retailer and a brand, see 'Acting as', and clear", async () => {
  const brand = await createBrand(db(), { name: `ActAs Brand ${Date.now().toString(36)}` });
  const { retailer } = await createRetailer(db(), {
    storeName: `ActAs Store ${Date.now().toString(36)}`,
    user: false,
  });
  const { authorizeBrand } = await import("../factories");
  await authorizeBrand(db(), retailer.id, brand.id);

  const s = await staffPage();
  await s.goto(url(`/act-as?q=${encodeURIComponent(retailer.storeName)}`));
  await s.locator('select[name="retailerId"]').selectOption(String(retailer.id));
  await Promise.all([
    s.waitForURL(/chosen=1/),
    s.getByRole("button", { name: "Act as this retailer" }).click(),
  ]);
  await s.getByTestId("act-as-current").getByText(retailer.storeName).waitFor();
  await s.getByTestId("acting-as").getByText(`Acting as ${retailer.storeName}`).waitFor();

  await s.locator("#act-brand").selectOption(String(brand.id));
  await s.getByRole("button", { name: "Act as this brand" }).click();
  await s.getByTestId("acting-as").getByText(brand.name).waitFor();

  await s.getByTestId("act-as-current").getByRole("button", { name: "Clear" }).click();
  await s.getByText("You are acting as admin").waitFor();
  expect(await s.getByTestId("act-as-current").count()).toBe(0);
});

test("a denied retailer sees 'Thank You. Denied.' greeting its contact", async () => {
  const email = uniqueEmail("denied");
  await createRetailer(db(), {
    status: "denied",
    user: { email, password: PASSWORD },
    contact: { firstName: "Dana" },
  });
  const p = await page();
  await signIn(p, email, PASSWORD);
  expect(new URL(p.url()).pathname).toBe("/retailer-denied/");
  await p.getByText("Thank You. Denied.").waitFor();
  await p.getByText("Hello Dana,").waitFor();
  await p
    .getByText("Your retailer account has been denied. If you think this is in error", {
      exact: false,
    })
    .waitFor();
});

test("staff setup wizard starts with the User step, then continues for that user", async () => {
  const s = await staffPage();
  await s.goto(url("/retailer-setup/"));
  await s.getByRole("heading", { name: "User", exact: true }).waitFor();
  const email = uniqueEmail("staffmade");
  await s.locator('input[name="email"]').fill(email);
  await s.locator('input[name="password"]').fill(PASSWORD);
  await s.locator('input[name="confirm"]').fill(PASSWORD);
  await Promise.all([s.waitForURL(/user=\d+/), s.getByRole("button", { name: "Next" }).click()]);
  await s.getByRole("heading", { name: "Retailer", exact: true }).waitFor();
  await s.getByText(`setting up the retailer of ${email}`).waitFor();
});

// Two-factor sign-in end to end (docs/product/screens.md, "Two-factor sign-in"; ADR 0041): a staff user turns
// it on in Settings (the key read from the page, codes computed here with otplib), which signs out its other
// session; then signs in with a TOTP code, with a recovery code (used once), and is refused a wrong code with
// its message. A password changed in Settings ends the user's other sessions and keeps this one.
import { generateSync } from "otplib";
import type { Browser, Page } from "playwright-core";
import { createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories";
import {
  db,
  hydrated,
  launchBrowser,
  newPage,
  pagesPerTest,
  signedIn,
  uniqueEmail,
  url,
} from "./harness";

let browser: Browser;
const pages = pagesPerTest();

beforeAll(async () => {
  browser = await launchBrowser();
});

const page = (): Promise<Page> => newPage(browser, { pages });

/** The password step of the form; for a user with two-factor on it lands on the code step. */
async function passwordStep(p: Page, email: string, password: string) {
  await p.goto(url("/signin"));
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password").fill(password);
  await Promise.all([
    p.waitForURL((u) => u.pathname === "/signin/code"),
    p.getByRole("button", { name: "Sign in" }).click(),
  ]);
  await hydrated(p);
}

async function codeStep(p: Page, code: string) {
  await p.getByLabel("Code").fill(code);
  await p.getByRole("button", { name: "Verify" }).click();
}

/** The page is signed out: a page behind sign-in sends it to /signin. */
async function expectSignedOut(p: Page, at: string) {
  await p.goto(url(at));
  expect(new URL(p.url()).pathname).toBe("/signin");
}

test("staff: two-factor on in Settings, then sign-in with a TOTP code, with a recovery code, and a wrong code refused", async () => {
  const email = uniqueEmail("staff2fa");
  await createStaffUser(db(), { email, password: DEFAULT_TEST_PASSWORD });
  const other = await signedIn(browser, email, { pages });
  const p = await signedIn(browser, email, { pages, at: "/settings/two-factor" });

  // Set up: the key and its otpauth link as text, confirmed with the current code.
  await p
    .getByTestId("two-factor-status")
    .filter({ hasText: /is off/ })
    .waitFor();
  await p.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await p.getByTestId("totp-secret").waitFor();
  const secret = (await p.getByTestId("totp-secret").textContent())!.trim();
  expect(await p.getByTestId("totp-uri").textContent()).toContain(`secret=${secret}`);
  await p.getByLabel("Code").fill(generateSync({ secret }));
  await p.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await p.getByTestId("recovery-codes").waitFor();
  const codes = (await p.getByTestId("recovery-codes").locator("code").allTextContents()).map((c) =>
    c.trim(),
  );
  expect(codes).toHaveLength(10);
  await p
    .getByTestId("two-factor-status")
    .filter({ hasText: /is on\b/ })
    .waitFor();
  // Turning it on ended the other session and kept this one.
  await expectSignedOut(other, "/settings/password");
  await p.goto(url("/settings/two-factor"));
  expect(new URL(p.url()).pathname).toBe("/settings/two-factor");

  // Sign-in with a TOTP code (of the next step: the set-up's code is never accepted twice).
  const a = await page();
  await passwordStep(a, email, DEFAULT_TEST_PASSWORD);
  await a.getByRole("heading", { name: "Enter your code" }).waitFor();
  await Promise.all([
    a.waitForURL((u) => u.pathname === "/admin"),
    codeStep(a, generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })),
  ]);

  // Sign-in with a recovery code.
  const b = await page();
  await passwordStep(b, email, DEFAULT_TEST_PASSWORD);
  await Promise.all([b.waitForURL((u) => u.pathname === "/admin"), codeStep(b, codes[0]!)]);

  // A wrong code, and the recovery code used above, are refused with the message; the page stays on the code step.
  const c = await page();
  await passwordStep(c, email, DEFAULT_TEST_PASSWORD);
  const valid = new Set(
    [-30, 0, 30].map((d) => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + d })),
  );
  const wrong = ["000000", "111111", "222222"].find((x) => !valid.has(x))!;
  for (const code of [wrong, codes[0]!]) {
    const answer = c.waitForResponse(
      (r) =>
        r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/signin/code"),
    );
    await codeStep(c, code);
    expect((await answer).status()).toBe(401);
    await c.getByText("That code is not valid.").waitFor();
    expect(new URL(c.url()).pathname).toBe("/signin/code");
  }
  // Without JavaScript: the same refusal is a 401 with the message in the page.
  const noJs = await c.request.post(url("/signin/code"), {
    form: { code: wrong },
    headers: { Origin: new URL(url("/")).origin },
    maxRedirects: 0,
  });
  expect(noJs.status()).toBe(401);
  expect(await noJs.text()).toContain("That code is not valid.");
});

test("a password changed in Settings ends the user's other sessions and keeps this one", async () => {
  const email = uniqueEmail("pw-change");
  await createRetailer(db(), { user: { email } });
  const other = await signedIn(browser, email, { pages });
  const p = await signedIn(browser, email, { pages, at: "/settings/password" });

  await p.getByLabel("Current password").fill("not-the-password");
  await p.getByLabel("New password", { exact: true }).fill("a-new-password-2");
  await p.getByLabel("New password again").fill("a-new-password-2");
  await p.getByRole("button", { name: "Change password" }).click();
  await p.getByText("Your current password is not correct.").waitFor();

  await p.getByLabel("Current password").fill(DEFAULT_TEST_PASSWORD);
  await p.getByLabel("New password", { exact: true }).fill("a-new-password-2");
  await p.getByLabel("New password again").fill("a-new-password-2");
  await p.getByRole("button", { name: "Change password" }).click();
  await p.getByTestId("password-changed").waitFor();

  await expectSignedOut(other, "/settings/password");
  await p.goto(url("/settings/password"));
  expect(new URL(p.url()).pathname).toBe("/settings/password");
});

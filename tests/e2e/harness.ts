/**
 * Browser-test harness: Debian's Chromium driven by playwright-core, against the app that
 * `npm test` (scripts/test.mjs) builds and starts on E2E_BASE_URL (http://localhost:3100) with a
 * seeded database (DATABASE_URL = marketplace_e2e) and a Temporal dev server + worker behind it.
 * It owns what every browser test needs: the browser (one per Vitest process, shared by its files), the
 * database handle, sign-in, and the pages a test opened (closed, and screenshotted on failure, by
 * tests/e2e/setup.ts after each file).
 *
 *   import { launchBrowser, newPage, signedIn, readOutbox, baseUrl } from "./harness";
 *   let browser: Browser;
 *   beforeAll(async () => { browser = await launchBrowser(); });
 *   test("...", async () => { const page = await signedIn(browser, email); ... });
 *
 * `signedIn` opens a page already signed in (a session started as the sign-in form starts one); `signIn` fills
 * the sign-in form itself, for the tests of signing in.
 *
 * When a test fails, every page opened with newPage() and still open gets a full-page screenshot in
 * test-results/e2e/<file>--<test>-<n>.png (so close pages in afterAll/afterEach, not inside the test).
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterEach, type TestContext } from "vitest";
import { createDb, type Db, type DbHandle } from "../../db/client";
import { listOutbox, type OutboxRow } from "../../db/queries/outbox";
import { findUserByEmail, touchLastLogin } from "../../db/queries/users";
import { SESSION_COOKIE_NAME, startSession } from "../../app/utils/session.server";
import { HEADLESS_SHELL_PATHS } from "../../scripts/lib/tools.mjs";

export const baseUrl: string = (process.env.E2E_BASE_URL ?? "http://localhost:3100").replace(
  /\/$/,
  "",
);
// npm test passes the browser ensureChromium installed; run alone, Debian's headless shell where it installs it.
const chromiumPath = process.env.CHROMIUM_PATH ?? HEADLESS_SHELL_PATHS[0];
const resultsDir = process.env.E2E_RESULTS_DIR ?? path.resolve("test-results", "e2e");

/** Absolute URL for an app path: url("/signin"). */
export function url(p: string): string {
  return new URL(p, baseUrl + "/").toString();
}

let shared: Promise<Browser> | undefined;

/**
 * The browser of this Vitest process: started by the first file that asks, shared by the files after it (each
 * page in a context of its own, so no cookie is shared). Starting Chromium costs about a CPU-second; a file
 * never closes it, tests/e2e/setup.ts closes the file's contexts instead.
 */
export async function launchBrowser(): Promise<Browser> {
  const current = shared && (await shared.catch(() => undefined));
  if (current?.isConnected()) return current;
  shared = startChromium();
  return shared;
}

function startChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--disable-dev-shm-usage",
    ],
  });
}

const openPages = new Set<Page>();

/**
 * Contexts are recycled, not closed: a page "closed" by the harness closes, its context loses its cookies and
 * permissions and waits here for the next newPage() of the same viewport. So the next test starts signed out,
 * as in a new context, but Chromium keeps the context's HTTP cache: the app's JavaScript (/build/, immutable)
 * is neither fetched from the web process nor compiled again (the CPU saved: docs/performance.md, "Test
 * command"). The cache also keeps the answers marked cacheable privately (/uploads/<file>,
 * /catalogue-images/<file>): a test that checks a browser is refused one of those opens its own context (as
 * no-script-forms does) or asks over HTTP.
 */
const idle: { context: BrowserContext; key: string }[] = [];
/** The harness's own contexts, each with its viewport's key ("1280x900"). */
const viewportOf = new WeakMap<BrowserContext, string>();
/**
 * When each harness context last sent a request of its own (`page.request`, `context.request`). That client
 * keeps its connections open between requests; the web process closes a connection idle for 70 s
 * (workers/web.mjs keepAliveTimeout), and a request sent on it at that moment is reset ("socket hang up").
 * Chromium sends a request again on such a reset, Node's client does not: so a context whose own client has
 * been idle longer than REQUEST_IDLE_MAX_MS is closed, not handed to the next test.
 */
const lastRequestAt = new WeakMap<BrowserContext, number>();
const REQUEST_IDLE_MAX_MS = 45_000;
/**
 * Contexts a test put on Playwright's clock (page.clock is its context's): their pages' timers and dates stay
 * fake, so such a context is closed, never handed to the next test.
 */
const clocked = new WeakSet<BrowserContext>();

/** Marks the context as clocked (see `clocked`) when a test sets its clock. */
function watchClock(context: BrowserContext): void {
  const clock = context.clock as unknown as Record<
    string,
    (...args: unknown[]) => Promise<unknown>
  >;
  for (const name of [
    "install",
    "setFixedTime",
    "setSystemTime",
    "pauseAt",
    "fastForward",
    "runFor",
  ]) {
    const call = clock[name].bind(clock);
    clock[name] = (...args: unknown[]) => {
      clocked.add(context);
      return call(...args);
    };
  }
}

/** Notes each request `context.request` sends (see lastRequestAt). */
function watchRequests(context: BrowserContext): void {
  const request = context.request;
  for (const name of ["fetch", "get", "post", "put", "patch", "delete", "head"] as const) {
    const send = request[name].bind(request) as (...args: unknown[]) => Promise<unknown>;
    (request as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      lastRequestAt.set(context, Date.now());
      return send(...args).finally(() => lastRequestAt.set(context, Date.now()));
    };
  }
}

/** An idle context of `browser` whose viewport has the `key`, if there is one. */
function idleContext(browser: Browser, key: string): BrowserContext | undefined {
  for (;;) {
    const i = idle.findIndex((c) => c.key === key);
    if (i < 0) return undefined;
    const [{ context }] = idle.splice(i, 1);
    // A context of an earlier browser (one that crashed and was started again) is dropped.
    if (context.browser() !== browser) continue;
    const used = lastRequestAt.get(context);
    if (used === undefined || Date.now() - used < REQUEST_IDLE_MAX_MS) return context;
    void context.close().catch(() => {});
  }
}

/**
 * A harness context back to the idle ones, its pages closed and its cookies and permissions cleared; a context
 * a test made itself (browser.newContext) is closed.
 */
async function release(context: BrowserContext): Promise<void> {
  const key = viewportOf.get(context);
  if (key === undefined || clocked.has(context))
    return void (await context.close().catch(() => {}));
  if (idle.some((c) => c.context === context)) return;
  try {
    for (const p of context.pages()) await p.close();
    await context.clearCookies();
    await context.clearPermissions();
  } catch {
    return void (await context.close().catch(() => {}));
  }
  idle.push({ context, key });
}

/**
 * React's errors for a page whose server HTML does not match what the browser renders (#418, #423, #425 in a
 * production build): React then throws the server's HTML away and renders the page again, which a user sees as
 * a flash, and the page shows what the browser computed (a value from a `.server` module renders empty there).
 * hydrated() fails the test on one.
 */
const HYDRATION_ERROR = /Minified React error #(418|423|425)\b|Hydration failed|did not match/;
const hydrationErrors = new WeakMap<Page, string>();
/** Errors a page of the app threw and nothing caught, since the last test ended (see failOnPageErrors). */
const uncaughtErrors: string[] = [];

/**
 * After each test (tests/e2e/setup.ts): fails it when a page of the app threw an error nothing caught (the suite
 * had none when this check came; a user would meet a page that stops working).
 */
export function failOnPageErrors(): void {
  if (uncaughtErrors.length === 0) return;
  const errors = uncaughtErrors.splice(0);
  throw new Error(`a page threw an uncaught error: ${errors.join(" | ")}`);
}

/** How long a page may take to hydrate, and the contexts' default timeout. */
const HYDRATION_TIMEOUT_MS = 15_000;

/** A page in its own context (own cookies), with sensible timeouts; pushed onto `pages` when given. */
export async function newPage(
  browser: Browser,
  opts: { viewport?: { width: number; height: number }; pages?: Page[] } = {},
): Promise<Page> {
  const viewport = opts.viewport ?? { width: 1280, height: 900 };
  const key = `${viewport.width}x${viewport.height}`;
  let context = idleContext(browser, key);
  if (!context) {
    context = await browser.newContext({ baseURL: baseUrl, viewport });
    viewportOf.set(context, key);
    watchRequests(context);
    watchClock(context);
  }
  context.setDefaultTimeout(HYDRATION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(30_000);
  const page = await context.newPage();
  // Every full page load waits for React to hydrate the page before the test goes on: a click that lands
  // while the page hydrates can be lost (a link does nothing, a form's button submits a form React then
  // replaces). Pages that are not the app's HTML (a PDF, a CSV) have no Remix context and are not waited for.
  const goto = page.goto.bind(page);
  page.goto = async (target, options) => {
    const response = await goto(target, options);
    await hydrated(page);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await hydrated(page);
    return response;
  };
  page.on("pageerror", (err) => {
    // The app's pages only (not the Temporal UI's, which a test opens).
    if (!page.url().startsWith(baseUrl)) return;
    const line = `${page.url()}: ${String(err).split("\n")[0]}`;
    if (HYDRATION_ERROR.test(String(err))) hydrationErrors.set(page, line);
    else uncaughtErrors.push(line);
  });
  openPages.add(page);
  page.on("close", () => {
    openPages.delete(page);
  });
  opts.pages?.push(page);
  return page;
}

/**
 * Waits until React has hydrated the page (app/root.tsx marks <html data-hydrated="true"> in an effect).
 * Pages from newPage() do this after every goto and reload; call it after a navigation made some other way
 * (a click that loads a whole document) before clicking again.
 *
 * The page itself waits, on a MutationObserver of that attribute: Playwright's waitForFunction would evaluate
 * its predicate on every animation frame, making Chromium draw frames while the page hydrates (about 15 ms of
 * CPU a page load, 12 %, on docs/performance.md's page-load probe). When the document is replaced while it
 * waits (a redirect), the new one is waited for with waitForFunction.
 */
export async function hydrated(page: Page): Promise<void> {
  const onPage = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const done = () =>
          !(window as unknown as { __remixContext?: unknown }).__remixContext ||
          document.documentElement.dataset.hydrated === "true";
        if (done()) return resolve();
        const observer = new MutationObserver(() => {
          if (!done()) return;
          observer.disconnect();
          resolve();
        });
        // The whole document: where the server's HTML does not match, React renders <html> anew.
        observer.observe(document, {
          attributes: true,
          attributeFilter: ["data-hydrated"],
          childList: true,
          subtree: true,
        });
      }),
  );
  // The deadline is kept here, not on the page's timers (a test may have put the page on Playwright's clock).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), HYDRATION_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([onPage, deadline]);
    onPage.catch(() => {}); // a page left waiting closes with its test
    if (outcome === "late")
      throw new Error(`${page.url()} did not hydrate within ${HYDRATION_TIMEOUT_MS} ms`);
  } catch (err) {
    if (String(err).includes("did not hydrate")) throw err;
    await page.waitForFunction(
      () =>
        !(window as unknown as { __remixContext?: unknown }).__remixContext ||
        document.documentElement.dataset.hydrated === "true",
    );
  } finally {
    clearTimeout(timer);
  }
  const mismatch = hydrationErrors.get(page);
  if (mismatch) {
    hydrationErrors.delete(page);
    throw new Error(`the server's HTML did not match the page React rendered: ${mismatch}`);
  }
}

/** Closes a page and its context (recycled: see `idle`). */
export async function closePage(page: Page): Promise<void> {
  openPages.delete(page);
  await release(page.context());
}

/**
 * The pages a file's tests open (signedIn's `pages`, or pushed), closed after each test: for files whose tests
 * open many pages. Call it at the file's top level; what is left open closes after the file anyway.
 */
export function pagesPerTest(): Page[] {
  const pages: Page[] = [];
  afterEach(async () => {
    while (pages.length) await closePage(pages.pop()!);
  });
  return pages;
}

/**
 * Signs in through the form at /signin and waits for the navigation away from it.
 * Fields are found by their label (E-mail / Password) or, failing that, by name="email"/"password".
 */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(url("/signin"));
  const byName = (n: string) => page.locator(`input[name="${n}"]`).first();
  const emailInput = (await byName("email").count())
    ? byName("email")
    : page.getByLabel(/e-?mail/i).first();
  const passwordInput = (await byName("password").count())
    ? byName("password")
    : page.getByLabel(/password/i).first();
  await emailInput.fill(email);
  await passwordInput.fill(password);
  const submit = page.locator('form button[type="submit"], form input[type="submit"]').first();
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith("/signin"), { timeout: 30_000 }),
    submit.click(),
  ]);
}

/**
 * A new page signed in as the user with `email`, as if through the sign-in form: a session started as the
 * form's action starts one (sessionFor) and its cookie in the page's context, the last sign-in noted; then the page opens `at` (by default where the form lands: /admin for staff, / for a retailer). The
 * form itself is tested where signing in is the subject (accounts, bad-input, security-review).
 */
export async function signedIn(
  browser: Browser,
  email: string,
  opts: { at?: string | null; pages?: Page[] } = {},
): Promise<Page> {
  const page = await newPage(browser, { pages: opts.pages });
  await signInAs(page, email, opts);
  return page;
}

/** Signs an open page's context in as the user with `email` (see signedIn) and opens `at`, unless null. */
export async function signInAs(
  page: Page,
  email: string,
  opts: { at?: string | null } = {},
): Promise<void> {
  const { id, isStaff } = await sessionFor(email);
  await page
    .context()
    .addCookies([
      { name: SESSION_COOKIE, value: id, url: baseUrl, httpOnly: true, sameSite: "Lax" },
    ]);
  const at = opts.at === undefined ? (isStaff ? "/admin" : "/") : opts.at;
  if (at !== null) await page.goto(url(at));
}

/** The sign-in cookie's name. */
export const SESSION_COOKIE = SESSION_COOKIE_NAME;

/**
 * A new session of the user with `email` (who must exist and not be deactivated), started as the sign-in form's
 * action starts one (app/utils/session.server.ts startSession); its id is the cookie's value.
 */
export async function sessionFor(email: string): Promise<{ id: string; isStaff: boolean }> {
  const db = database().db;
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`no user ${email} to sign in`);
  if (user.deactivatedAt)
    throw new Error(`${email} is deactivated: the sign-in form would refuse it`);
  const { sessionId } = await startSession(user.id);
  await touchLastLogin(db, user.id);
  return { id: sessionId, isStaff: user.isStaff };
}

/** Signs out by posting the sign-out form if there is one on the page, else visiting /signout. */
export async function signOut(page: Page): Promise<void> {
  const form = page
    .locator('form[action="/signout"] button, form[action="/signout"] input[type="submit"]')
    .first();
  if (await form.count()) {
    await Promise.all([page.waitForNavigation({ timeout: 30_000 }), form.click()]);
  } else {
    await page.goto(url("/signout"));
  }
}

let pool: DbHandle | undefined;
function database(): DbHandle {
  if (!process.env.DATABASE_URL)
    throw new Error("DATABASE_URL is not set (npm test sets it to the e2e database)");
  pool ??= createDb(process.env.DATABASE_URL, { max: 2 });
  return pool;
}

/**
 * The e2e database (Drizzle): one pool for the files of this Vitest process, closed after each file by
 * tests/e2e/setup.ts and opened again by the next file that asks.
 */
export function db(): Db {
  return database().db;
}

/** The pool itself, for the helpers that take a handle (tests/e2e/buy-helpers.ts); closed as db()'s is. */
export function dbHandle(): DbHandle {
  return database();
}

/** The same pool as raw SQL (postgres.js), for what Drizzle does not say (a row lock, a sequence). */
export function sql(): DbHandle["sql"] {
  return database().sql;
}

/** Row of outbox_emails: toEmail, subject, bodyText, createdAt, kind, ... */
export type OutboxEmail = OutboxRow;

/** E-mails in the outbox for `toEmail` (case-insensitive), newest first. */
export async function readOutbox(toEmail: string): Promise<OutboxEmail[]> {
  return listOutbox(database().db, { toEmail, limit: 50 });
}

/**
 * Waits until an e-mail for `toEmail` arrives (optionally matching `subject`) that was created after
 * `since`, and returns it. E-mails are written by workflows/actions asynchronously.
 */
export async function waitForEmail(
  toEmail: string,
  opts: { subject?: RegExp | string; since?: Date; timeoutMs?: number } = {},
): Promise<OutboxEmail> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const rows = await readOutbox(toEmail);
    const hit = rows.find(
      (r) =>
        (!opts.since || r.createdAt >= opts.since) &&
        (!opts.subject ||
          (typeof opts.subject === "string"
            ? r.subject.includes(opts.subject)
            : opts.subject.test(r.subject))),
    );
    if (hit) return hit;
    if (Date.now() > deadline)
      throw new Error(
        `no e-mail to ${toEmail}${opts.subject ? ` matching ${opts.subject}` : ""} in the outbox`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** First http(s) link in a text (e.g. the reset link of an e-mail body). */
export function firstLink(text: string): string {
  const m = text.match(/https?:\/\/[^\s<>"')]+/);
  if (!m) throw new Error(`no link in: ${text.slice(0, 200)}`);
  return m[0];
}

/** A unique e-mail address for a test run. */
export function uniqueEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

/**
 * After each file (tests/e2e/setup.ts): its pages and contexts closed, the database handle closed. The browser
 * stays for the next file.
 */
export async function closeFileResources(): Promise<void> {
  openPages.clear();
  const b = shared && (await shared.catch(() => undefined));
  for (const context of b?.contexts() ?? []) await release(context);
  await pool?.close();
  pool = undefined;
}

/** After a failed test (tests/e2e/setup.ts): a full-page screenshot of every page still open. */
export async function screenshotOpenPages(ctx: TestContext): Promise<void> {
  if (ctx.task.result?.state !== "fail" || openPages.size === 0) return;
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.basename(ctx.task.file?.name ?? "test").replace(/\.test\.ts$/, "");
  const name = `${file}--${ctx.task.name}`.replace(/[^\w.-]+/g, "_").slice(0, 120);
  let n = 0;
  for (const page of openPages) {
    n += 1;
    const out = path.join(resultsDir, `${name}-${n}.png`);
    await page.screenshot({ path: out, fullPage: true, timeout: 5_000 }).catch(() => {});
    console.log(`screenshot: ${out} (${page.url()})`);
  }
}

// Bad input never breaks the app: every form action, sent what no
// browser would send (empty, missing fields, wrong types, 100 KB values, malformed bodies, unknown
// intents, ids that do not exist or are someone else's) and the specifications' bad values, answers a
// 4xx with the specification's message (or a clear one), echoes what the user typed, and never shows a
// stack trace. Plain HTTP (tests/e2e/http.ts), no browser.
//
// Throttle budget (ADR 0003): sign-in failures are limited per e-mail and client address (5 per 15 min), per
// e-mail across addresses and per address across e-mails (20). This file records 7 failures (2 wrong-password
// answers + 5 to reach the throttle), each on its own fresh e-mail address except the throttle case; malformed
// or invalid sign-in forms are not recorded. Register and reset requests count per e-mail (3) and per address
// (20); each test here uses its own e-mail address.
import fs from "node:fs";
import path from "node:path";
import { findUserByEmail } from "../../db/queries/users";
import { listOutbox } from "../../db/queries/outbox";
import { MSG } from "../../domain/accounts";
import { PAYOUT_MESSAGES as PM } from "../../domain/payout";
import { PAYOUT_TOKEN_MESSAGES } from "../../domain/payout-tokens";
import { createBrand, createRetailer, createStaffUser, DEFAULT_TEST_PASSWORD } from "../factories";
import {
  appOrigin,
  freshEmail,
  htmlDecode,
  HttpClient,
  inputValue,
  leakedTrace,
  type FormFields,
  type HttpResponse,
} from "./http";
import { db } from "./harness";

const PASSWORD = "bad-input-pass-1";
const HUGE = "a".repeat(100 * 1024);
const HUGE_DIGITS = "9".repeat(100 * 1024);
const MISSING_ID = 999999;
const BEYOND_INT4 = "99999999999";

/** Staff, created for this file. */
const staff = new HttpClient();
/** An active retailer without payout details, created for this file. */
const retailer = new HttpClient();
let activeRetailerId = 0;
/** A pending retailer (setup finished) that only this file touches: target of the admin actions. */
let pendingRetailerId = 0;
let brandId = 0;
let brandId2 = 0;
let staffUserId = 0;

beforeAll(async () => {
  const staffUser = await createStaffUser(db(), { email: freshEmail("bad-staff") });
  const active = await createRetailer(db(), {
    status: "active",
    payout: false,
    user: { email: freshEmail("bad-active") },
  });
  const pending = await createRetailer(db(), {
    status: "pending",
    user: { email: freshEmail("bad-pending") },
  });
  staffUserId = staffUser.id;
  activeRetailerId = active.retailer.id;
  pendingRetailerId = pending.retailer.id;
  brandId = (await createBrand(db(), { name: `Bad Input Brand ${Date.now().toString(36)}` })).id;
  brandId2 = (await createBrand(db(), { name: `Bad Input Brand 2 ${Date.now().toString(36)}` })).id;
  await staff.signIn(staffUser.email, DEFAULT_TEST_PASSWORD);
  await retailer.signIn(active.user!.email, DEFAULT_TEST_PASSWORD);
});

// ---------------------------------------------------------------------------------------------
// Assertions

function describeResponse(r: HttpResponse): string {
  const text = htmlDecode(
    r.body.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ");
  return `${r.status} ${r.location ?? ""} ${text.slice(0, 600)}`;
}

function expectNoTrace(r: HttpResponse): void {
  expect(leakedTrace(r.body), `stack trace in ${r.url}`).toBeNull();
}

/** 4xx (one of `status` when given), the messages present, no stack trace. */
function expectRejected(
  r: HttpResponse,
  opts: { status?: number | number[]; messages?: string[] } = {},
): void {
  const info = describeResponse(r);
  expect(r.status, info).toBeGreaterThanOrEqual(400);
  expect(r.status, info).toBeLessThan(500);
  if (opts.status !== undefined) expect([opts.status].flat(), info).toContain(r.status);
  const body = htmlDecode(r.body);
  for (const m of opts.messages ?? []) expect(body, `${m}\n${info}`).toContain(m);
  expectNoTrace(r);
}

/** A redirect (never 5xx) to `to` (a path, or a predicate on it), without a stack trace. */
function expectRedirect(r: HttpResponse, to: string | RegExp): void {
  const info = describeResponse(r);
  expect([301, 302, 303, 307, 308], info).toContain(r.status);
  if (typeof to === "string") expect(r.location, info).toBe(to);
  else expect(r.location ?? "", info).toMatch(to);
  expectNoTrace(r);
}

// ---------------------------------------------------------------------------------------------
// Malformed bodies, sent to every form action

type Malformed = { name: string; body: string | Uint8Array; type: string | null };
const MALFORMED: Malformed[] = [
  {
    name: "invalid bytes and bad escapes in a form body",
    body: new Uint8Array([
      ...Buffer.from("email=%ff%fe%zz&"),
      0xff,
      0xfe,
      0x00,
      0xc3,
      0x28,
      ...Buffer.from("=%E0%A4%A&intent=%"),
    ]),
    type: "application/x-www-form-urlencoded",
  },
  {
    name: "JSON body",
    body: JSON.stringify({
      email: "x@example.test",
      password: "p",
      intent: "activate",
      retailerId: 1,
    }),
    type: "application/json",
  },
  {
    name: "multipart garbage",
    body: "this is not multipart\r\n--nope--",
    type: "multipart/form-data; boundary=----boundary",
  },
  {
    name: "multipart without a boundary",
    body: '------x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n------x--',
    type: "multipart/form-data",
  },
  {
    name: "truncated multipart",
    body: '------b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx@exa',
    type: "multipart/form-data; boundary=----b",
  },
  { name: "text/plain body", body: "email=x@example.test\npassword=p", type: "text/plain" },
  { name: "no Content-Type", body: "email=x", type: null },
  { name: "100 KB of one unnamed value", body: HUGE, type: "application/x-www-form-urlencoded" },
];

type FormRoute = { path: string; who: () => HttpClient };
const anon = () => new HttpClient();
const FORM_ROUTES: FormRoute[] = [
  { path: "/signin", who: anon },
  { path: "/register", who: anon },
  { path: "/password-reset", who: anon },
  { path: "/password-reset/1/not-a-token", who: anon },
  { path: "/admin/retailers", who: () => staff },
  { path: "/act-as", who: () => staff },
  { path: "/banners/dismiss", who: () => retailer },
  { path: "/getpaid/", who: () => retailer },
  { path: "/settings/payout", who: () => retailer },
];

describe("malformed bodies get a 400, never a 5xx or a stack trace", () => {
  for (const route of FORM_ROUTES) {
    for (const m of MALFORMED) {
      test(`${route.path}: ${m.name}`, async () => {
        const r = await route.who().postRaw(route.path, m.body, m.type);
        expectRejected(r);
      });
    }
  }

  test("/retailer-setup/: every malformed body", async () => {
    const c = new HttpClient();
    await c.register(freshEmail("bad-setup-malformed"), PASSWORD);
    for (const m of MALFORMED) expectRejected(await c.postRaw("/retailer-setup/", m.body, m.type));
  });

  test("/logout ignores its body: every malformed body signs out with a redirect, never a 5xx", async () => {
    for (const m of MALFORMED) {
      const r = await new HttpClient().postRaw("/logout", m.body, m.type);
      expectRedirect(r, "/");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The data requests of Remix before single fetch

/** Every route module with an action, as a path with its parameters filled ("1"; optional ones left out). */
function actionPaths(): string[] {
  const dir = path.resolve(__dirname, "../../app/routes");
  return fs
    .readdirSync(dir)
    .filter((n) => /\.tsx?$/.test(n) && !/\.server\.tsx?$/.test(n))
    .filter((n) =>
      /export (async )?function action\b|export const action\b/.test(
        fs.readFileSync(path.join(dir, n), "utf8"),
      ),
    )
    .map((n) => {
      const segments = n
        .replace(/\.tsx?$/, "")
        .split(".")
        .filter((seg) => !/^\(.*\)$/.test(seg) && seg !== "_index")
        .map((seg) => (seg.startsWith("$") ? "1" : seg.replace(/_$/, "")));
      return `/${segments.join("/")}`;
    });
}

describe("?_data= (the data requests of Remix before single fetch)", () => {
  test("a POST with ?_data= to every route with an action answers 4xx, signed out and signed in, never a stack", async () => {
    const paths = actionPaths();
    expect(paths.length).toBeGreaterThan(30);
    for (const who of [anon(), retailer, staff]) {
      for (const p of paths) {
        const r = await who.postForm(`${p}?_data=${encodeURIComponent(`routes/${p.slice(1)}`)}`, {
          intent: "nothing",
          email: "x",
        });
        expectRejected(r);
      }
    }
  });

  test("a GET with ?_data= answers 400 too", async () => {
    expectRejected(await anon().get("/register?_data=routes%2Fregister"), { status: 400 });
  });
});

// ---------------------------------------------------------------------------------------------
// Origin check and the admin guard

describe("cross-site requests and the admin guard", () => {
  const evil = "http://evil.example";
  for (const path of [
    "/signin",
    "/register",
    "/password-reset",
    "/logout",
    "/admin/retailers",
    "/act-as",
    "/banners/dismiss",
    "/getpaid/",
    "/retailer-setup/",
  ]) {
    test(`POST ${path} from ${evil} is 403`, async () => {
      const r = await staff.postForm(
        path,
        { email: "x@example.test", intent: "activate", retailerId: pendingRetailerId },
        { origin: evil },
      );
      expect(r.status, describeResponse(r)).toBe(403);
      expectNoTrace(r);
    });
  }

  test("a POST with neither Origin nor Referer is 403; a foreign Referer too", async () => {
    expect(
      (
        await new HttpClient().postForm(
          "/signin",
          { email: "x@example.test", password: "p" },
          { origin: null },
        )
      ).status,
    ).toBe(403);
    const r = await new HttpClient().postForm(
      "/signin",
      { email: "x@example.test", password: "p" },
      { origin: null, headers: { Referer: "http://evil.example/form" } },
    );
    expect(r.status).toBe(403);
    // "null" (sandboxed iframes, file://) is not our origin either.
    expect(
      (await new HttpClient().postForm("/signin", { email: "x@example.test" }, { origin: "null" }))
        .status,
    ).toBe(403);
  });

  test("the staff session survives a cross-site logout attempt", async () => {
    const r = await staff.postForm("/logout", {}, { origin: evil });
    expect(r.status).toBe(403);
    const admin = await staff.get("/admin/retailers");
    expect(admin.status).toBe(200);
  });

  for (const path of [
    "/admin",
    "/admin/",
    "/admin/retailers",
    "/admin/outbox",
    "/admin/does-not-exist",
    "/settings/administrator",
    "/ADMIN",
  ]) {
    test(`GET ${path} as a retailer ends at /error/`, async () => {
      const r = await retailer.get(path, { follow: true });
      expect(new URL(r.url).pathname, describeResponse(r)).toBe("/error/");
      expect(r.status).toBeLessThan(500);
      expect(htmlDecode(r.body)).toContain("Error.");
      expectNoTrace(r);
    });
  }

  test("GET /admin signed out ends at /error/", async () => {
    const r = await new HttpClient().get("/admin/retailers", { follow: true });
    expect(new URL(r.url).pathname).toBe("/error/");
  });

  test("staff-only actions posted by a retailer go to /error/ and change nothing", async () => {
    expectRedirect(
      await retailer.postForm("/admin/retailers", {
        intent: "activate",
        retailerId: pendingRetailerId,
      }),
      "/error/",
    );
    expectRedirect(
      await retailer.postForm("/act-as", { intent: "act", retailerId: pendingRetailerId }),
      "/error/",
    );
    const row = await db().query.retailers.findFirst({
      where: (t, { eq }) => eq(t.id, pendingRetailerId),
    });
    expect(row?.status).toBe("pending");
  });
});

// ---------------------------------------------------------------------------------------------
// Sign in

describe("/signin", () => {
  test("empty body: both messages of the spec", async () => {
    expectRejected(await anon().postForm("/signin", {}), {
      status: 400,
      messages: [MSG.emailInvalid, MSG.passwordIndecent],
    });
  });

  test("invalid e-mail: the spec's message and the e-mail typed is echoed", async () => {
    const r = await anon().postForm("/signin", { email: "not-an-email", password: "whatever" });
    expectRejected(r, { status: 400, messages: [MSG.emailInvalid] });
    expect(inputValue(r.body, "email")).toBe("not-an-email");
    expect(inputValue(r.body, "password")).toBeNull();
  });

  test("missing password: message, e-mail echoed", async () => {
    const email = freshEmail("bad-signin-nopw");
    const r = await anon().postForm("/signin", { email });
    expectRejected(r, { status: 400, messages: [MSG.passwordIndecent] });
    expect(inputValue(r.body, "email")).toBe(email);
  });

  test("100 KB e-mail and 100 KB password", async () => {
    expectRejected(await anon().postForm("/signin", { email: HUGE, password: "x" }), {
      status: 400,
      messages: [MSG.emailInvalid],
    });
    expectRejected(
      await anon().postForm("/signin", { email: `${HUGE}@example.test`, password: HUGE }),
      {
        status: 400,
        messages: [MSG.emailInvalid],
      },
    );
    expectRejected(
      await anon().postForm("/signin", { email: freshEmail("bad-signin-huge"), password: HUGE }),
      { status: 400 },
    );
  });

  test("wrong types: repeated fields, an unknown intent, a hostile next", async () => {
    expectRejected(
      await anon().postForm("/signin", {
        email: ["a@example.test", "b@example.test"],
        password: ["x", "y"],
      }),
      {
        status: 400,
      },
    );
    expectRejected(
      await anon().postForm("/signin", { intent: "delete-everything", email: "", password: "" }),
      {
        status: 400,
        messages: [MSG.emailInvalid],
      },
    );
    expectRejected(
      await anon().postForm("/signin", {
        email: "x@example.test",
        password: "",
        next: "//evil.example/",
      }),
      {
        status: 400,
        messages: [MSG.passwordIndecent],
      },
    );
  });

  test("wrong password and unknown e-mail: the same 401 answer, e-mail echoed", async () => {
    const email = freshEmail("bad-signin-wrongpw");
    const c = new HttpClient();
    await c.register(email, PASSWORD);
    const wrong = await anon().postForm("/signin", { email, password: "not-the-password" });
    expectRejected(wrong, { status: 401, messages: [MSG.loginFailed] });
    expect(inputValue(wrong.body, "email")).toBe(email);
    const unknownEmail = freshEmail("bad-signin-unknown");
    const unknown = await anon().postForm("/signin", {
      email: unknownEmail,
      password: "not-the-password",
    });
    expectRejected(unknown, { status: 401, messages: [MSG.loginFailed] });
    expect(inputValue(unknown.body, "email")).toBe(unknownEmail);
  });

  test("a successful sign-in never follows a hostile next", async () => {
    const email = freshEmail("bad-signin-next");
    await new HttpClient().register(email, PASSWORD);
    for (const next of [
      "//evil.example/",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
    ]) {
      const c = new HttpClient();
      const to = await c.signIn(email, PASSWORD, next);
      expect(to.startsWith("/") && !to.startsWith("//"), to).toBe(true);
    }
  });

  test("the sixth failure for one e-mail from one client address within the window is throttled with 429", async () => {
    const email = freshEmail("bad-signin-throttle");
    for (let i = 0; i < 5; i++) {
      expectRejected(await anon().postForm("/signin", { email, password: `wrong-${i}` }), {
        status: 401,
      });
    }
    const r = await anon().postForm("/signin", { email, password: "wrong-again" });
    expectRejected(r, { status: 429, messages: ["Too many failed sign-in attempts."] });
    expect(inputValue(r.body, "email")).toBe(email);
  });
});

// ---------------------------------------------------------------------------------------------
// Register

describe("/register", () => {
  test("empty body: the spec's messages", async () => {
    expectRejected(await anon().postForm("/register", {}), {
      status: 400,
      messages: [MSG.emailInvalid, MSG.passwordIndecent],
    });
  });

  test("invalid e-mail: message, e-mail echoed, passwords not", async () => {
    const r = await anon().postForm("/register", {
      email: "someone@",
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expectRejected(r, { status: 400, messages: [MSG.emailInvalid] });
    expect(inputValue(r.body, "email")).toBe("someone@");
    expect(inputValue(r.body, "password")).toBeNull();
    expect(inputValue(r.body, "confirm")).toBeNull();
  });

  test("passwords that differ: 'Passwords must match', e-mail echoed", async () => {
    const email = freshEmail("bad-register-mismatch");
    const r = await anon().postForm("/register", {
      email,
      password: PASSWORD,
      confirm: `${PASSWORD}x`,
    });
    expectRejected(r, { status: 400, messages: [MSG.passwordsMustMatch] });
    expect(inputValue(r.body, "email")).toBe(email);
  });

  test("indecent passwords: short, only spaces, 100 KB", async () => {
    for (const pw of ["short", "        ", HUGE]) {
      const email = freshEmail("bad-register-pw");
      const r = await anon().postForm("/register", { email, password: pw, confirm: pw });
      expectRejected(r, { status: 400, messages: [MSG.passwordIndecent] });
      expect(inputValue(r.body, "email")).toBe(email);
    }
  });

  test("missing confirm, 100 KB e-mail, repeated fields, unknown intent", async () => {
    expectRejected(
      await anon().postForm("/register", { email: freshEmail("bad-register"), password: PASSWORD }),
      {
        status: 400,
        messages: [MSG.passwordsMustMatch],
      },
    );
    expectRejected(
      await anon().postForm("/register", { email: HUGE, password: PASSWORD, confirm: PASSWORD }),
      {
        status: 400,
        messages: [MSG.emailInvalid],
      },
    );
    expectRejected(
      await anon().postForm("/register", {
        email: [freshEmail("a"), freshEmail("b")],
        password: PASSWORD,
        confirm: PASSWORD,
      }),
      { status: 400 },
    );
    expectRejected(await anon().postForm("/register", { intent: "admin", isStaff: "true" }), {
      status: 400,
      messages: [MSG.emailInvalid],
    });
  });

  test("an address already registered: 409 with a clear message", async () => {
    const email = freshEmail("bad-register-dup");
    await new HttpClient().register(email, PASSWORD);
    const r = await anon().postForm("/register", {
      email: email.toUpperCase(),
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expectRejected(r, { status: 409, messages: [MSG.alreadyRegistered] });
  });

  test("registering never makes staff (an isStaff field is ignored)", async () => {
    const email = freshEmail("bad-register-staff");
    const c = new HttpClient();
    const r = await c.postForm("/register", {
      email,
      password: PASSWORD,
      confirm: PASSWORD,
      isStaff: "true",
      is_staff: "1",
    });
    expectRedirect(r, "/retailer-setup/");
    expect((await findUserByEmail(db(), email))?.isStaff).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Password reset

describe("/password-reset", () => {
  test("step 1: empty e-mail is 'Email field is mandatory'", async () => {
    expectRejected(await anon().postForm("/password-reset", {}), {
      status: 400,
      messages: [MSG.resetEmailMandatory],
    });
    expectRejected(await anon().postForm("/password-reset", { email: "   " }), {
      status: 400,
      messages: [MSG.resetEmailMandatory],
    });
  });

  test("step 1: invalid and 100 KB e-mails, e-mail echoed", async () => {
    const r = await anon().postForm("/password-reset", { email: "nobody-at-example" });
    expectRejected(r, { status: 400, messages: [MSG.resetEmailInvalid] });
    expect(inputValue(r.body, "email")).toBe("nobody-at-example");
    expectRejected(await anon().postForm("/password-reset", { email: HUGE }), {
      status: 400,
      messages: [MSG.resetEmailInvalid],
    });
    expectRejected(
      await anon().postForm("/password-reset", { email: ["a@example.test", "b@example.test"] }),
      { status: 400 },
    );
  });

  test("step 1: an unknown address gets the same answer as a known one (no enumeration)", async () => {
    expectRedirect(
      await anon().postForm("/password-reset", { email: freshEmail("bad-reset-unknown") }),
      "/password-reset?sent=1",
    );
  });

  test("step 3: passwords that differ are 'passwords must match'", async () => {
    const r = await anon().postForm("/password-reset/1/abcdefabcdefabcdefabcdefabcdef", {
      new_password: PASSWORD,
      confirm: `${PASSWORD}!`,
    });
    expectRejected(r, { status: 400, messages: [MSG.resetPasswordsMustMatch] });
  });

  test("step 3: indecent or missing passwords", async () => {
    expectRejected(await anon().postForm("/password-reset/1/abc", {}), {
      status: 400,
      messages: [MSG.passwordIndecent],
    });
    expectRejected(
      await anon().postForm("/password-reset/1/abc", { new_password: "short", confirm: "short" }),
      {
        status: 400,
        messages: [MSG.passwordIndecent],
      },
    );
    expectRejected(
      await anon().postForm("/password-reset/1/abc", { new_password: HUGE, confirm: HUGE }),
      {
        status: 400,
        messages: [MSG.passwordIndecent],
      },
    );
  });

  for (const [uid, token] of [
    ["1", "not-a-token"],
    [String(MISSING_ID), "a".repeat(43)],
    ["abc", "x"],
    [BEYOND_INT4, "a".repeat(43)],
    ["-1", "a".repeat(43)],
    ["1", "%00"],
    ["1", HUGE.slice(0, 4000)],
  ]) {
    test(`step 3: a link that is not valid (${uid.slice(0, 12)}/${token.slice(0, 12)}) is 'This code is no longer valid...'`, async () => {
      const path = `/password-reset/${uid}/${token}`;
      const r = await anon().postForm(path, { new_password: PASSWORD, confirm: PASSWORD });
      expectRejected(r, { status: 400, messages: [MSG.resetTokenInvalid] });
      const page = await anon().get(path);
      expect(page.status, describeResponse(page)).toBeLessThan(500);
      expect(htmlDecode(page.body)).toContain(MSG.resetTokenInvalid);
      expectNoTrace(page);
    });
  }

  test("step 3: a link that is not even valid URL encoding is a 400", async () => {
    for (const path of ["/password-reset/1/%ff%fe", "/password-reset/%E0%A4%A/x"]) {
      expectRejected(await anon().postForm(path, { new_password: PASSWORD, confirm: PASSWORD }), {
        status: 400,
      });
      expectRejected(await anon().get(path), { status: 400 });
    }
  });

  test("step 3: a used link is 'This code is no longer valid...' (single use)", async () => {
    const email = freshEmail("bad-reset-used");
    await new HttpClient().register(email, PASSWORD);
    const since = new Date(Date.now() - 1000);
    expectRedirect(await anon().postForm("/password-reset", { email }), "/password-reset?sent=1");
    // The e-mail is written just after the answer (the same work for known and unknown addresses).
    let mail: Awaited<ReturnType<typeof listOutbox>>[number] | undefined;
    for (let i = 0; i < 100 && !mail; i++) {
      mail = (await listOutbox(db(), { toEmail: email })).find((m) => m.createdAt >= since);
      if (!mail) await new Promise((r) => setTimeout(r, 50));
    }
    const link = mail?.bodyText.match(/https?:\/\/\S+\/password-reset\/\d+\/\S+/)?.[0];
    expect(link, mail?.bodyText).toBeTruthy();
    const path = new URL(link!).pathname;
    expectRedirect(
      await anon().postForm(path, { new_password: `${PASSWORD}-new`, confirm: `${PASSWORD}-new` }),
      /^\/\?ref=resetSuccessful/,
    );
    const again = await anon().postForm(path, {
      new_password: `${PASSWORD}-again`,
      confirm: `${PASSWORD}-again`,
    });
    expectRejected(again, { status: 400, messages: [MSG.resetTokenInvalid] });
  });
});

// ---------------------------------------------------------------------------------------------
// Retailer setup wizard

const GOOD_RETAILER = {
  step: "retailer",
  store_name: "Bad Input Boutique",
  store_email: "store@example.test",
  store_phone: "+1-555-555-1234",
  business_name: "Bad Input LLC",
  address1: "1 Main St",
  city: "Springfield",
  state: "IL",
  postal_code: "62701",
  resale_number: "12-3456789012-3",
};
const GOOD_CONTACT = {
  step: "contact",
  first_name: "Pat",
  last_name: "Tester",
  job_title: "Owner",
  phone: "5555551234",
  celphone: "5555554321",
};

describe("/retailer-setup/", () => {
  const wizard = new HttpClient();
  const wizardEmail = freshEmail("bad-setup");
  beforeAll(async () => {
    await wizard.register(wizardEmail, PASSWORD);
  });

  test("no step or an unknown step is a 400", async () => {
    expectRejected(await wizard.postForm("/retailer-setup/", {}), {
      status: 400,
      messages: ["Unknown setup step."],
    });
    expectRejected(await wizard.postForm("/retailer-setup/", { step: "launch-rockets" }), {
      status: 400,
      messages: ["Unknown setup step."],
    });
    expectRejected(await wizard.postForm("/retailer-setup/", { step: HUGE }), {
      status: 400,
      messages: ["Unknown setup step."],
    });
  });

  test("a retailer cannot use the staff User step", async () => {
    const r = await wizard.postForm("/retailer-setup/", {
      step: "user",
      email: freshEmail("bad-setup-user"),
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expectRejected(r, { status: 403, messages: ["Only staff create logins for retailers."] });
    expect(await findUserByEmail(db(), wizardEmail)).toBeTruthy();
  });

  test("Retailer step: empty, then each bad value with its message", async () => {
    expectRejected(await wizard.postForm("/retailer-setup/", { step: "retailer" }), {
      status: 400,
      messages: [MSG.required, MSG.stateInvalid, MSG.postalInvalid, MSG.resaleInvalid],
    });
    const cases: [FormFields, string][] = [
      [{ store_email: "store@" }, MSG.resetEmailInvalid],
      [{ store_phone: "12345" }, MSG.phoneInvalid],
      [{ state: "New York" }, MSG.stateInvalid],
      [{ postal_code: "1234" }, MSG.postalInvalid],
      [{ resale_number: "12-34" }, MSG.resaleInvalid],
      [{ store_name: "   " }, MSG.required],
      [{ store_name: HUGE }, "At most 120 characters."],
      [{ city: HUGE }, "At most 100 characters."],
      [{ store_phone: HUGE_DIGITS }, MSG.phoneInvalid],
      [{ resale_number: HUGE }, MSG.resaleInvalid],
    ];
    for (const [bad, message] of cases) {
      const r = await wizard.postForm("/retailer-setup/", { ...GOOD_RETAILER, ...bad });
      expectRejected(r, { status: 400, messages: [message] });
    }
    // What the user typed comes back.
    const r = await wizard.postForm("/retailer-setup/", { ...GOOD_RETAILER, postal_code: "ABCDE" });
    expect(inputValue(r.body, "store_name")).toBe(GOOD_RETAILER.store_name);
    expect(inputValue(r.body, "postal_code")).toBe("ABCDE");
  });

  test("a step ahead of the current one is refused and saves nothing", async () => {
    const r = await wizard.postForm("/retailer-setup/", { ...GOOD_CONTACT });
    expect(r.status, describeResponse(r)).toBeLessThan(500);
    expect(r.status === 400 || r.location === "/retailer-setup/", describeResponse(r)).toBe(true);
    expectNoTrace(r);
    expect((await findUserByEmail(db(), wizardEmail))?.retailerId).toBeNull();
  });

  test("Retailer Contact step: empty, then each bad value with its message", async () => {
    expectRedirect(await wizard.postForm("/retailer-setup/", GOOD_RETAILER), "/retailer-setup/");
    expectRejected(await wizard.postForm("/retailer-setup/", { step: "contact" }), {
      status: 400,
      messages: [MSG.required, MSG.celphoneRequired],
    });
    const cases: [FormFields, string][] = [
      [{ job_title: "Emperor" }, MSG.required],
      [{ job_title: "Other", job_title_other: "" }, MSG.jobTitleOtherRequired],
      [{ phone: "123" }, MSG.phoneInvalid],
      [{ celphone: "" }, MSG.celphoneRequired],
      [{ celphone: "phone" }, MSG.phoneInvalid],
      [{ first_name: HUGE }, "At most 100 characters."],
      [{ job_title: ["Owner", "Buyer"] }, MSG.required],
    ];
    for (const [bad, message] of cases) {
      expectRejected(await wizard.postForm("/retailer-setup/", { ...GOOD_CONTACT, ...bad }), {
        status: 400,
        messages: [message],
      });
    }
  });

  test("Request Brands step: nothing chosen, brands that do not exist, bad amounts", async () => {
    expectRedirect(await wizard.postForm("/retailer-setup/", GOOD_CONTACT), "/retailer-setup/");
    expectRejected(await wizard.postForm("/retailer-setup/", { step: "brands" }), {
      status: 400,
      messages: [MSG.brandsRequired],
    });
    for (const ids of [[MISSING_ID], [BEYOND_INT4], ["abc"], ["-3"], [HUGE_DIGITS]]) {
      expectRejected(
        await wizard.postForm("/retailer-setup/", { step: "brands", brand_ids: ids }),
        { status: 400 },
      );
    }
    expectRejected(
      await wizard.postForm("/retailer-setup/", {
        step: "brands",
        "requests[0].brand_purchase_amount": "lots",
        "requests[0].brand_contact_email": "nope",
      }),
      { status: 400, messages: [MSG.brandNameRequired, MSG.amountInvalid, MSG.resetEmailInvalid] },
    );
    expectRejected(
      await wizard.postForm("/retailer-setup/", {
        step: "brands",
        "requests[0].brand_name": "X",
        "requests[0].your_interest_in_this_brand": "steal",
      }),
      { status: 400 },
    );
    expectRejected(
      await wizard.postForm("/retailer-setup/", { step: "brands", "requests[0].brand_name": HUGE }),
      { status: 400 },
    );
  });

  test("staff User step: the spec's messages, and a user that does not exist is 404", async () => {
    const email = freshEmail("bad-setup-staff");
    expectRejected(await staff.postForm("/retailer-setup/", { step: "user" }), {
      status: 400,
      messages: [MSG.emailInvalid, MSG.passwordIndecent],
    });
    const mismatch = await staff.postForm("/retailer-setup/", {
      step: "user",
      email,
      password: PASSWORD,
      confirm: "other-password",
    });
    expectRejected(mismatch, { status: 400, messages: [MSG.passwordsMustMatch] });
    expect(inputValue(mismatch.body, "email")).toBe(email);
    expectRejected(
      await staff.postForm("/retailer-setup/", {
        step: "user",
        email: "x@",
        password: "short",
        confirm: "short",
      }),
      {
        status: 400,
        messages: [MSG.emailInvalid, MSG.passwordIndecent],
      },
    );
    const taken = (await findUserByEmail(
      db(),
      (await db().query.users.findFirst({
        where: (u, { eq }) => eq(u.retailerId, pendingRetailerId),
      }))!.email,
    ))!;
    expectRejected(
      await staff.postForm("/retailer-setup/", {
        step: "user",
        email: taken.email,
        password: PASSWORD,
        confirm: PASSWORD,
      }),
      {
        status: 409,
        messages: [MSG.alreadyRegistered],
      },
    );
    for (const user of [String(MISSING_ID), BEYOND_INT4, "abc", "0", String(staffUserId)]) {
      expectRejected(await staff.postForm("/retailer-setup/", { ...GOOD_RETAILER, user }), {
        status: 404,
        messages: ["That user does not exist."],
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Staff: retailers (activate / deny / inactivate / authorize / unauthorize)

describe("/admin/retailers", () => {
  async function status(): Promise<string | undefined> {
    return (
      await db().query.retailers.findFirst({ where: (t, { eq }) => eq(t.id, pendingRetailerId) })
    )?.status;
  }

  test("no retailer, or a retailer id that is not one: 400 'Choose a retailer.'", async () => {
    for (const retailerId of [undefined, "", "abc", "-1", "0", "1.5", HUGE_DIGITS, " "]) {
      expectRejected(await staff.postForm("/admin/retailers", { intent: "activate", retailerId }), {
        status: 400,
        messages: ["Choose a retailer."],
      });
    }
  });

  test("a retailer that does not exist: 404", async () => {
    for (const retailerId of [MISSING_ID, BEYOND_INT4, "1e9"]) {
      for (const intent of ["activate", "deny", "inactivate", "authorize"]) {
        expectRejected(
          await staff.postForm("/admin/retailers", { intent, retailerId, brandId: brandId }),
          { status: [400, 404] },
        );
      }
    }
    expectRejected(
      await staff.postForm("/admin/retailers", { intent: "activate", retailerId: MISSING_ID }),
      {
        status: 404,
        messages: ["That retailer does not exist."],
      },
    );
  });

  test("an unknown or missing intent: 400 'Unknown action.'", async () => {
    for (const intent of [undefined, "", "delete", HUGE]) {
      expectRejected(
        await staff.postForm("/admin/retailers", { intent, retailerId: pendingRetailerId }),
        {
          status: 400,
          messages: ["Unknown action."],
        },
      );
    }
    expect(await status()).toBe("pending");
  });

  test("authorize/unauthorize without the right brands: 400", async () => {
    expectRejected(
      await staff.postForm("/admin/retailers", {
        intent: "authorize",
        retailerId: pendingRetailerId,
      }),
      {
        status: 400,
        messages: ["Choose a brand to authorize."],
      },
    );
    expectRejected(
      await staff.postForm("/admin/retailers", {
        intent: "unauthorize",
        retailerId: pendingRetailerId,
      }),
      {
        status: 400,
        messages: ["Choose a brand."],
      },
    );
    expectRejected(
      await staff.postForm("/admin/retailers", {
        intent: "unauthorize",
        retailerId: pendingRetailerId,
        brandId: [brandId, brandId2],
      }),
      {
        status: 400,
        messages: ["Choose a brand."],
      },
    );
    expectRejected(
      await staff.postForm("/admin/retailers", {
        intent: "authorize",
        retailerId: pendingRetailerId,
        brandId: ["abc", "-1"],
      }),
      {
        status: 400,
        messages: ["That brand does not exist."],
      },
    );
  });

  test("brands that do not exist are refused before anything changes", async () => {
    for (const intent of ["authorize", "activate"]) {
      for (const b of [MISSING_ID, BEYOND_INT4]) {
        const r = await staff.postForm("/admin/retailers", {
          intent,
          retailerId: pendingRetailerId,
          brandId: [brandId, b],
        });
        expectRejected(r, { status: [400, 404], messages: ["That brand does not exist."] });
      }
    }
    expect(await status()).toBe("pending");
    const links = await db().query.retailerBrands.findMany({
      where: (t, { eq }) => eq(t.retailerId, pendingRetailerId),
    });
    expect(links).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Staff: act as a retailer

describe("/act-as", () => {
  async function acting(): Promise<number | null> {
    const r = await staff.get("/act-as");
    return /data-testid="act-as-current"/.test(r.body)
      ? Number(/Acting as <strong>[^<]*<\/strong> \(#(?:<!-- -->)?(\d+)/.exec(r.body)?.[1] ?? -1)
      : null;
  }

  test("no retailer chosen: 400 'Choose a retailer.'", async () => {
    for (const retailerId of [undefined, "", "abc", "-5", "0", HUGE_DIGITS, HUGE]) {
      expectRejected(await staff.postForm("/act-as", { intent: "act", retailerId }), {
        status: 400,
        messages: ["Choose a retailer."],
      });
    }
  });

  test("a retailer that does not exist: 4xx 'That retailer does not exist.'", async () => {
    expectRejected(await staff.postForm("/act-as", { intent: "act", retailerId: MISSING_ID }), {
      status: [400, 404],
      messages: ["That retailer does not exist."],
    });
    // Beyond any id a row can have: not a retailer id at all.
    expectRejected(await staff.postForm("/act-as", { intent: "act", retailerId: BEYOND_INT4 }), {
      status: 400,
      messages: ["Choose a retailer."],
    });
    expect(await acting()).toBeNull();
  });

  test("a brand the retailer is not authorized for, or that does not exist: 400", async () => {
    for (const b of [brandId, MISSING_ID]) {
      expectRejected(
        await staff.postForm("/act-as", {
          intent: "brand",
          retailerId: activeRetailerId,
          brandId: b,
        }),
        {
          status: 400,
          messages: ["That brand is not authorized for this retailer."],
        },
      );
    }
    for (const b of ["abc", "-2", BEYOND_INT4, HUGE_DIGITS]) {
      expectRejected(
        await staff.postForm("/act-as", {
          intent: "brand",
          retailerId: activeRetailerId,
          brandId: b,
        }),
        { status: 400 },
      );
    }
    expect(await acting()).toBeNull();
  });

  test("an unknown intent is refused and changes nothing", async () => {
    for (const intent of ["sudo", HUGE]) {
      expectRejected(await staff.postForm("/act-as", { intent, retailerId: activeRetailerId }), {
        status: 400,
        messages: ["Unknown action."],
      });
    }
    expect(await acting()).toBeNull();
  });

  test("a hostile redirectTo stays on this site", async () => {
    for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const r = await staff.postForm("/act-as", { intent: "clear", redirectTo });
      expectRedirect(r, /^\/(?!\/)/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Banners ("do this later") and sign-out

describe("/banners/dismiss and /logout", () => {
  test("an unknown or missing banner: 400", async () => {
    // The cell-phone banner cannot be put off (only the payout one is dismissible).
    for (const banner of [undefined, "", "inactive", "cellphone", "everything", HUGE]) {
      expectRejected(await retailer.postForm("/banners/dismiss", { banner, redirectTo: "/" }), {
        status: 400,
        messages: ["Unknown banner."],
      });
    }
  });

  test("signed out: sent to sign in, nothing stored", async () => {
    expectRedirect(await anon().postForm("/banners/dismiss", { banner: "payout" }), /^\/signin/);
  });

  test("a hostile redirectTo stays on this site", async () => {
    for (const redirectTo of ["//evil.example/", "https://evil.example/x", HUGE]) {
      expectRedirect(
        await retailer.postForm("/banners/dismiss", { banner: "payout", redirectTo }),
        /^\/(?!\/)/,
      );
    }
  });

  test("GET is 404", async () => {
    const r = await retailer.get("/banners/dismiss");
    expectRejected(r, { status: 404 });
  });

  test("/logout signed out, with junk fields: a redirect, never a 5xx", async () => {
    expectRedirect(await anon().postForm("/logout", { intent: "everyone", sessionId: HUGE }), "/");
  });
});

// ---------------------------------------------------------------------------------------------
// Payout (merchant) form: /getpaid/ and /settings/payout

// Valid except that it carries no submission id: if a "bad" value below were accepted, the form would
// still be refused (expired) and no workflow would start. The bank account, tax id and birth date go to the
// payment provider, never to us (ADR 0050): the form posts the provider's tokens (well-formed here).
const GOOD_PAYOUT = {
  first_name: "Jane",
  last_name: "Doe",
  email: "jane@example.test",
  street_address: "1 Main St",
  locality: "Springfield",
  region: "IL",
  postal_code: "62701",
  buslegal_name: "Bad Input LLC",
  busstreet_address: "1 Main St",
  buslocality: "Springfield",
  busregion: "IL",
  buspostal_code: "62701",
  account_token: "ct_sandbox_badinput000",
  person_token: "cpt_sandbox_badinput000",
  bank_account_token: "btok_sandbox_badinput000",
  bustax_id_last4: "6789",
  tos_accepted: "on",
};

/** Fields the browser sends to the payment provider only: a post that carries them anyway (bad or good). */
const PROVIDER_ONLY_VALUES: FormFields[] = [
  { date_of_birth: "" },
  { date_of_birth: "02/30/1980" },
  { bustax_id: "123-45-6789" },
  { account_number: "12ab5678" },
  { routing_number: "11000000a" },
  { account_number: "000123456789", routing_number: "110000000", date_of_birth: "01/15/1980" },
];

const PAYOUT_CASES: [FormFields, string][] = [
  [{ tos_accepted: undefined }, PM.tosRequired],
  [{ tos_accepted: "no" }, PM.tosRequired],
  [{ first_name: "" }, PM.firstNameRequired],
  [{ first_name: "J0hn" }, PM.firstNameAlphabetic],
  [{ first_name: "Mary Ann" }, PM.firstNameAlphabetic],
  [{ last_name: "Smith3" }, PM.lastNameAlphabetic],
  [{ email: "jane@" }, PM.emailInvalid],
  [{ street_address: " " }, PM.streetAddressRequired],
  [{ locality: "" }, PM.localityRequired],
  [{ region: "" }, PM.regionRequired],
  [{ region: "NYC" }, PM.regionLength],
  [{ region: "1Y" }, PM.regionLetters],
  [{ postal_code: "1234" }, PM.postalCodeFormat],
  [{ buslegal_name: "" }, PM.buslegalNameRequired],
  [{ busstreet_address: "" }, PM.busstreetAddressRequired],
  [{ buslocality: "" }, PM.buslocalityRequired],
  [{ busregion: "" }, PM.busregionRequired],
  [{ busregion: "ZZZ" }, PM.busregionLength],
  [{ busregion: "Z9" }, PM.busregionLetters],
  [{ buspostal_code: "12" }, PM.buspostalCodeFormat],
  [{ first_name: HUGE }, PM.tooLong("First name", 100)],
  [{ street_address: HUGE }, PM.tooLong("Street address", 100)],
  [{ first_name: ["Jane", "Joan"] }, PM.firstNameRequired],
  [{ account_token: undefined }, PAYOUT_TOKEN_MESSAGES.tokensMissing],
  [{ bank_account_token: "000123456789" }, PAYOUT_TOKEN_MESSAGES.tokensMissing],
  [{ person_token: HUGE }, PAYOUT_TOKEN_MESSAGES.tokensMissing],
  [{ bustax_id_last4: "" }, PAYOUT_TOKEN_MESSAGES.tokensMissing],
];

for (const path of ["/getpaid/", "/settings/payout"]) {
  describe(`${path} (merchant form)`, () => {
    test("empty body: every required message, the terms of service included", async () => {
      expectRejected(await retailer.postForm(path, {}), {
        status: 400,
        messages: [PM.tosRequired, PM.firstNameRequired, PAYOUT_TOKEN_MESSAGES.tokensMissing],
      });
    });

    test("each bad value gets its message, the other values are echoed", async () => {
      for (const [bad, message] of PAYOUT_CASES) {
        const r = await retailer.postForm(path, {
          ...GOOD_PAYOUT,
          ...bad,
          submission_id: crypto.randomUUID(),
        });
        expectRejected(r, { status: 400, messages: [message] });
        if (!("locality" in bad)) expect(inputValue(r.body, "locality")).toBe(GOOD_PAYOUT.locality);
      }
    });

    test("bank, tax and birth fields posted by hand are neither read nor echoed", async () => {
      for (const raw of PROVIDER_ONLY_VALUES) {
        const r = await retailer.postForm(path, {
          ...GOOD_PAYOUT,
          first_name: "J0hn", // refused, so no workflow starts whatever the rest
          ...raw,
          submission_id: crypto.randomUUID(),
        });
        expectRejected(r, { status: 400, messages: [PM.firstNameAlphabetic] });
        for (const value of Object.values(raw))
          if (typeof value === "string" && value.length > 0) expect(r.body).not.toContain(value);
        for (const m of [PM.dobRequired, PM.bustaxIdFormat, PM.accountNumberNumeric])
          expect(r.body).not.toContain(m);
      }
    });

    test("a valid form without a valid submission id is refused before any workflow starts", async () => {
      for (const submission_id of [undefined, "", "not-a-uuid", HUGE]) {
        expectRejected(await retailer.postForm(path, { ...GOOD_PAYOUT, submission_id }), {
          status: 400,
          messages: ["This form has expired. Please submit it again."],
        });
      }
    });

    test("unknown fields and intents are ignored; the form is still validated", async () => {
      expectRejected(
        await retailer.postForm(path, {
          intent: "skip-validation",
          retailerId: MISSING_ID,
          bt_merchant_id: "acct_x",
        }),
        {
          status: 400,
          messages: [PM.tosRequired],
        },
      );
    });

    test("signed out: sent to sign in", async () => {
      expectRedirect(await anon().postForm(path, GOOD_PAYOUT), /^\/signin/);
    });
  });
}

test("the test's own origin is the app's origin (sanity)", () => {
  expect(appOrigin).toMatch(/^https?:\/\//);
});

import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertOutboxEmail, listOutbox } from "../../db/queries/outbox";
import {
  authorizeBrands,
  setRetailerStatus,
  unauthorizeBrand,
} from "../../db/queries/retailer-status";
import {
  getContact,
  getRetailerWithContact,
  isBrandAuthorized,
  listAuthorizedBrands,
  listBrandRequests,
  listRetailersForAdmin,
  retailerNotificationEmails,
  saveBrandsStep,
  saveContactStep,
  saveRetailerStep,
  searchRetailers,
} from "../../db/queries/retailers";
import {
  dismissBanner,
  getSessionRow,
  getSessionWithUser,
  setActing,
} from "../../db/queries/sessions";
import {
  consumeResetToken,
  createUser,
  findUserByEmail,
  findUserById,
  isResetTokenUsable,
  recordLoginAttempt,
  replaceResetToken,
} from "../../db/queries/users";
import { retailerContacts, retailers, sessions } from "../../db/schema";
import { loginFailureCounts } from "../../db/queries/throttle";
import {
  ACCOUNT_REQUESTS_PER_EMAIL,
  admitAccountRequest,
  checkLoginThrottle,
  IP_FACTOR,
  liftLoginThrottle,
} from "../../app/utils/throttle.server";
import { generateResetToken, hashResetToken } from "../../app/utils/password.server";
import { createBrand, createRetailer, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb();

const email = () => `acc-${uniqueToken()}@example.test`;
const LINKS = {
  signInUrl: "http://localhost:3000/signin",
  supportEmail: "retailers@wholesale.example",
};
const ip = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe("registration", () => {
  it("a second registration of the same e-mail (any case, spaces) is refused", async () => {
    const e = email();
    const first = await createUser(db, { email: e, passwordHash: "h" });
    expect(first.ok).toBe(true);
    const again = await createUser(db, { email: `  ${e.toUpperCase()} `, passwordHash: "h2" });
    expect(again).toEqual({ ok: false, reason: "duplicate" });
    const found = await findUserByEmail(db, e.toUpperCase());
    expect(found?.passwordHash).toBe("h");
  });
});

describe("sign-in throttling", () => {
  const cfg = { max: 3, windowSeconds: 900 };

  it("limits one e-mail from one address after max failures; the owner elsewhere is not locked out", async () => {
    const e = email();
    const addr = ip();
    for (let i = 0; i < 2; i++)
      await recordLoginAttempt(db, { email: e, ip: addr, succeeded: false });
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: addr })).limited).toBe(false);
    await recordLoginAttempt(db, { email: e, ip: addr, succeeded: false });
    const v = await checkLoginThrottle(db, cfg, { email: e, ip: addr });
    expect(v.limited).toBe(true);
    if (v.limited) expect(v.message).toMatch(/Too many failed sign-in attempts/);
    // The same e-mail from another address (its owner) is not affected, nor another e-mail.
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: ip() })).limited).toBe(false);
    expect((await checkLoginThrottle(db, cfg, { email: email(), ip: addr })).limited).toBe(false);
    // A success resets the e-mail's counts.
    await recordLoginAttempt(db, { email: e, ip: ip(), succeeded: true });
    expect(await loginFailureCounts(db, e, addr, new Date(Date.now() - 900_000))).toMatchObject({
      pair: 0,
      email: 0,
    });
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: addr })).limited).toBe(false);
  });

  it("limits one e-mail across addresses after max x IP_FACTOR failures, until a password reset", async () => {
    const e = email();
    for (let i = 0; i < cfg.max * IP_FACTOR; i++)
      await recordLoginAttempt(db, { email: e, ip: ip(), succeeded: false });
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: ip() })).limited).toBe(true);
    await liftLoginThrottle(db, { email: e, ip: ip() });
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: ip() })).limited).toBe(false);
  });

  it("failures older than the window do not count", async () => {
    const e = email();
    const old = new Date(Date.now() - 901_000);
    for (let i = 0; i < 5; i++)
      await recordLoginAttempt(db, { email: e, ip: ip(), succeeded: false, at: old });
    expect((await checkLoginThrottle(db, cfg, { email: e, ip: ip() })).limited).toBe(false);
  });

  it("limits a client address after max x IP_FACTOR failures across e-mails", async () => {
    const addr = ip();
    for (let i = 0; i < cfg.max * IP_FACTOR - 1; i++)
      await recordLoginAttempt(db, { email: email(), ip: addr, succeeded: false });
    expect((await checkLoginThrottle(db, cfg, { email: email(), ip: addr })).limited).toBe(false);
    await recordLoginAttempt(db, { email: email(), ip: addr, succeeded: false });
    expect((await checkLoginThrottle(db, cfg, { email: email(), ip: addr })).limited).toBe(true);
  });
});

describe("register and password-reset throttling", () => {
  const cfg = { max: 2, windowSeconds: 900 };

  it("admits ACCOUNT_REQUESTS_PER_EMAIL requests per e-mail, from any address", async () => {
    const e = email();
    for (let i = 0; i < ACCOUNT_REQUESTS_PER_EMAIL; i++)
      expect(
        (await admitAccountRequest(db, cfg, "password_reset", { email: e, ip: ip() })).limited,
      ).toBe(false);
    const v = await admitAccountRequest(db, cfg, "password_reset", {
      email: e.toUpperCase(),
      ip: ip(),
    });
    expect(v.limited).toBe(true);
    if (v.limited) expect(v.message).toMatch(/Too many password reset requests/);
    // Registering that address is counted apart.
    expect((await admitAccountRequest(db, cfg, "register", { email: e, ip: ip() })).limited).toBe(
      false,
    );
  });

  it("admits max x IP_FACTOR requests per address, across e-mails", async () => {
    const addr = ip();
    for (let i = 0; i < cfg.max * IP_FACTOR; i++)
      expect(
        (await admitAccountRequest(db, cfg, "register", { email: email(), ip: addr })).limited,
      ).toBe(false);
    const v = await admitAccountRequest(db, cfg, "register", { email: email(), ip: addr });
    expect(v.limited).toBe(true);
    if (v.limited) expect(v.message).toMatch(/Too many registration attempts/);
    expect(
      (await admitAccountRequest(db, cfg, "register", { email: email(), ip: ip() })).limited,
    ).toBe(false);
  });

  it("requests older than the window do not count", async () => {
    const e = email();
    const old = new Date(Date.now() - 901_000);
    for (let i = 0; i < 5; i++)
      await admitAccountRequest(db, cfg, "password_reset", { email: e, ip: ip() }, old);
    expect(
      (await admitAccountRequest(db, cfg, "password_reset", { email: e, ip: ip() })).limited,
    ).toBe(false);
  });
});

describe("password reset tokens", () => {
  async function user() {
    const r = await createUser(db, { email: email(), passwordHash: "h" });
    if (!r.ok) throw new Error("dup");
    return r.user;
  }

  it("is single use", async () => {
    const u = await user();
    const t = hashResetToken(generateResetToken());
    await replaceResetToken(db, u.id, t, new Date(Date.now() + 3_600_000));
    expect(await isResetTokenUsable(db, u.id, t)).toBe(true);
    const [a, b] = await Promise.all([
      consumeResetToken(db, u.id, t),
      consumeResetToken(db, u.id, t),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1); // concurrent use: exactly one wins
    expect(await consumeResetToken(db, u.id, t)).toBe(false);
    expect(await isResetTokenUsable(db, u.id, t)).toBe(false);
  });

  it("expires", async () => {
    const u = await user();
    const t = hashResetToken(generateResetToken());
    await replaceResetToken(db, u.id, t, new Date(Date.now() + 3_600_000));
    const later = new Date(Date.now() + 3_600_001);
    expect(await isResetTokenUsable(db, u.id, t, later)).toBe(false);
    expect(await consumeResetToken(db, u.id, t, later)).toBe(false);
    expect(await consumeResetToken(db, u.id, t)).toBe(true);
  });

  it("a new token invalidates the previous one; a token only works for its own user", async () => {
    const u = await user();
    const other = await user();
    const t1 = hashResetToken(generateResetToken());
    const t2 = hashResetToken(generateResetToken());
    await replaceResetToken(db, u.id, t1, new Date(Date.now() + 3_600_000));
    await replaceResetToken(db, u.id, t2, new Date(Date.now() + 3_600_000));
    expect(await consumeResetToken(db, u.id, t1)).toBe(false);
    expect(await consumeResetToken(db, other.id, t2)).toBe(false);
    expect(await consumeResetToken(db, u.id, t2)).toBe(true);
  });
});

describe("retailer setup wizard and activation", () => {
  it("keeps progress in the database and activation authorizes the chosen brands", async () => {
    const created = await createUser(db, { email: email(), passwordHash: "h" });
    if (!created.ok) throw new Error("dup");
    const u = created.user;
    const brandA = await createBrand(db);
    const brandB = await createBrand(db);
    const info = {
      storeName: `Wizard Store ${uniqueToken()}`,
      storeEmail: "store@wizard.test",
      storePhone: "+1-212-555-0100",
      businessName: "Wizard LLC",
      address1: "1 Main",
      city: "Albany",
      state: "NY",
      postalCode: "12207",
      resaleNumber: "12-3456789012-3",
    };
    const r = await saveRetailerStep(db, u.id, info);
    expect(r.status).toBe("pending");
    expect((await findUserById(db, u.id))?.retailerId).toBe(r.id);
    // Saving step 1 again updates, never creates a second retailer.
    const r2 = await saveRetailerStep(db, u.id, { ...info, city: "Troy" });
    expect(r2.id).toBe(r.id);
    expect(r2.city).toBe("Troy");

    const contactInput = {
      firstName: "Ann",
      lastName: "Lee",
      jobTitle: "Buyer",
      jobTitleOther: "",
      phone: "+1-212-555-0101",
      celphone: "+1-212-555-0102",
    };
    const c = await saveContactStep(db, r.id, { id: u.id, email: u.email }, contactInput);
    const c2 = await saveContactStep(
      db,
      r.id,
      { id: u.id, email: u.email },
      { ...contactInput, firstName: "Anne" },
    );
    expect(c2.id).toBe(c.id);
    expect((await getContact(db, r.id, u.id))?.firstName).toBe("Anne");

    await saveBrandsStep(db, r.id, [
      { brandName: brandA.name, brandId: brandA.id },
      {
        brandName: "Not Yet Listed Co",
        brandPurchaseAmountCents: 2_500_000,
        yourInterestInThisBrand: ["buy"],
      },
    ]);
    const reqs = await listBrandRequests(db, r.id);
    expect(reqs.map((x) => x.brandName)).toEqual([brandA.name, "Not Yet Listed Co"]);
    const [row] = await db.select().from(retailers).where(eq(retailers.id, r.id));
    expect(row.setupCompletedAt).not.toBeNull();

    const found = await listRetailersForAdmin(db, { q: info.storeName });
    expect(found.map((sec) => [sec.status, sec.total])).toEqual([
      ["pending", 1],
      ["active", 0],
      ["inactive", 0],
      ["denied", 0],
    ]);
    const admin = found[0].entries.find((e) => e.retailer.id === r.id);
    expect(admin?.brandRequests).toHaveLength(2);
    expect(admin?.userEmails).toEqual([u.email]);

    const active = (await setRetailerStatus(db, r.id, "active", LINKS, [brandA.id, brandB.id]))
      ?.retailer;
    expect(active?.status).toBe("active");
    expect((await listAuthorizedBrands(db, r.id)).map((b) => b.id).sort()).toEqual(
      [brandA.id, brandB.id].sort(),
    );
    expect((await listBrandRequests(db, r.id)).find((x) => x.brandId === brandA.id)?.status).toBe(
      "authorized",
    );
    // Activating again is harmless.
    await setRetailerStatus(db, r.id, "active", LINKS, [brandA.id]);
    expect(await listAuthorizedBrands(db, r.id)).toHaveLength(2);

    await unauthorizeBrand(db, r.id, brandB.id);
    expect(await isBrandAuthorized(db, r.id, brandB.id)).toBe(false);
    await authorizeBrands(db, r.id, [brandB.id]);
    expect(await isBrandAuthorized(db, r.id, brandB.id)).toBe(true);

    expect((await setRetailerStatus(db, r.id, "denied", LINKS))?.retailer.status).toBe("denied");
    expect(await retailerNotificationEmails(db, r.id)).toEqual([u.email]);
    expect((await searchRetailers(db, info.storeName.slice(-8))).map((x) => x.id)).toContain(r.id);
  });

  it("the activation page reads one page per status, newest first, with every status's count, however many retailers there are", async () => {
    const tag = `Paged ${uniqueToken()}`;
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        (await createRetailer(db, { storeName: `${tag} ${i}`, status: "pending", user: false }))
          .retailer.id,
      );
    made.push(
      (await createRetailer(db, { storeName: `${tag} active`, status: "active", user: false }))
        .retailer.id,
    );
    const list = (pages: Partial<Record<"pending" | "active", number>>) =>
      listRetailersForAdmin(db, { q: tag, pages, pageSize: 3 });

    const first = await list({});
    expect(first.map((sec) => [sec.status, sec.total, sec.page, sec.pages])).toEqual([
      ["pending", 7, 1, 3],
      ["active", 1, 1, 1],
      ["inactive", 0, 1, 1],
      ["denied", 0, 1, 1],
    ]);
    const pendingIds = [...made.slice(0, 7)].reverse(); // created one after the other: the newest is the last made
    expect(first[0].entries.map((e) => e.retailer.id)).toEqual(pendingIds.slice(0, 3));
    expect(first[1].entries.map((e) => e.retailer.id)).toEqual([made[7]]);
    expect((await list({ pending: 2 }))[0].entries.map((e) => e.retailer.id)).toEqual(
      pendingIds.slice(3, 6),
    );
    // Past the last page: the last page; the other sections stay on theirs.
    const last = await list({ pending: 99, active: 5 });
    expect([last[0].page, last[0].entries.map((e) => e.retailer.id)]).toEqual([
      3,
      pendingIds.slice(6),
    ]);
    expect([last[1].page, last[1].entries.length]).toEqual([1, 1]);
    await db.delete(retailers).where(inArray(retailers.id, made));
  });
});

describe("a retailer with its contact in one read (every signed-in request)", () => {
  it("picks the contact getContact picks: the user's own first when a user is given, else the first; none and no retailer too", async () => {
    const { retailer, contact: first, user } = await createRetailer(db, { user: false });
    const made = await createUser(db, {
      email: `colleague-${uniqueToken()}@example.test`,
      passwordHash: "h",
      retailerId: retailer.id,
    });
    if (!made.ok) throw new Error("the colleague's user was not created");
    const colleague = made.user;
    const [second] = await db
      .insert(retailerContacts)
      .values({
        retailerId: retailer.id,
        userId: colleague.id,
        firstName: "Col",
        lastName: "League",
        email: colleague.email,
        jobTitle: "Buyer",
        jobTitleOther: "",
        phone: "",
        celphone: "",
      })
      .returning();
    expect(user).toBeNull();
    for (const userId of [undefined, colleague.id, 999_999_999]) {
      const both = await getRetailerWithContact(db, retailer.id, userId);
      expect(both?.retailer).toEqual(retailer);
      expect(both?.contact?.id).toBe((await getContact(db, retailer.id, userId))?.id);
    }
    expect((await getRetailerWithContact(db, retailer.id))?.contact?.id).toBe(first.id);
    expect((await getRetailerWithContact(db, retailer.id, colleague.id))?.contact?.id).toBe(
      second.id,
    );

    await db.delete(retailerContacts).where(eq(retailerContacts.retailerId, retailer.id));
    expect(await getRetailerWithContact(db, retailer.id, colleague.id)).toEqual({
      retailer,
      contact: null,
    });
    expect(await getRetailerWithContact(db, 2_000_000_000)).toBeNull();
  });
});

describe("sessions and outbox", () => {
  it("stores acting retailer/brand and dismissed banners on the session row", async () => {
    const { retailer, user } = await createRetailer(db);
    const id = `test-session-${uniqueToken()}`;
    await db
      .insert(sessions)
      .values({ id, userId: user!.id, expiresAt: new Date(Date.now() + 86_400_000) });
    await setActing(db, id, retailer.id, 42);
    expect(await getSessionRow(db, id)).toMatchObject({
      actingRetailerId: retailer.id,
      actingBrandId: 42,
    });
    await setActing(db, id, null, 42);
    expect(await getSessionRow(db, id)).toMatchObject({
      actingRetailerId: null,
      actingBrandId: null,
    });
    await dismissBanner(db, id, "payout");
    await dismissBanner(db, id, "payout");
    await dismissBanner(db, id, "cellphone");
    expect((await getSessionRow(db, id))?.dismissedBanners).toEqual(["payout", "cellphone"]);
  });

  it("reads a session with its user's email, staff flag and retailer, never the password hash", async () => {
    const { retailer, user } = await createRetailer(db);
    const id = `test-session-${uniqueToken()}`;
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db.insert(sessions).values({
      id,
      userId: user!.id,
      expiresAt,
      actingRetailerId: retailer.id,
      dismissedBanners: ["payout"],
    });
    // Twice: the second call runs the statement built by the first (db/built-once.ts).
    for (let i = 0; i < 2; i++) {
      const row = await getSessionWithUser(db, id);
      expect(row).toEqual({
        session: {
          id,
          userId: user!.id,
          expiresAt,
          actingRetailerId: retailer.id,
          actingBrandId: null,
          dismissedBanners: ["payout"],
        },
        user: {
          id: user!.id,
          email: user!.email,
          isStaff: false,
          retailerId: retailer.id,
          twoFactor: false,
          storeRoles: ["owner"],
        },
      });
    }
    expect(await getSessionWithUser(db, `${id}-unknown`)).toBeNull();
  });

  it("outbox: newest first, filter by recipient, dedupe key makes a retry a no-op", async () => {
    const to = email();
    const key = `k-${uniqueToken()}`;
    const a = await insertOutboxEmail(db, {
      toEmail: to,
      subject: "one",
      bodyText: "1",
      kind: "test",
      dedupeKey: key,
    });
    const again = await insertOutboxEmail(db, {
      toEmail: to,
      subject: "one",
      bodyText: "1",
      kind: "test",
      dedupeKey: key,
    });
    expect(again.id).toBe(a.id);
    await insertOutboxEmail(db, { toEmail: to, subject: "two", bodyText: "2", kind: "test" });
    const rows = await listOutbox(db, { toEmail: to.toUpperCase() });
    expect(rows.map((r) => r.subject)).toEqual(["two", "one"]);
  });
});

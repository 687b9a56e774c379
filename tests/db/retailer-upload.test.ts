/**
 * Bulk retailer upload below the page: a good file's rows are created each with its contact, login,
 * brand links and ONE welcome e-mail in the outbox; a second run creates nothing (skipped); bad rows are
 * reported with their problems and the good ones of the same file created; a zip bomb (honest or lying
 * directory) and a renamed program are refused before the spreadsheet library reads them; 2,000 rows are all
 * created (how long they take: npm run bench:uploads). Also: last_active is written at most once per 5 minutes.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import {
  outboxEmails,
  passwordResetTokens,
  retailerBrands,
  retailerContacts,
  retailers,
  users,
} from "../../db/schema";
import { touchRetailerLastActive } from "../../db/queries/retailer-admin";
import { LAST_ACTIVE_EVERY_MS } from "../../domain/retailer-admin";
import { previewUpload, submitUpload, XlsxRejected } from "../../app/utils/retailer-upload.server";
import { createBrand, createRetailer, uniqueToken } from "../factories";
import { goodRow, renamedExe, uploadWorkbook, zipBomb } from "../e2e/xlsx-fixtures";
import { useTestDb } from "./helpers";

const db = useTestDb();
afterAll(async () => {
  const g = globalThis as { __dbHandle?: { close(): Promise<void> } };
  await g.__dbHandle?.close();
  g.__dbHandle = undefined;
});

async function welcomeMails(emails: string[]) {
  return db
    .select()
    .from(outboxEmails)
    .where(and(inArray(outboxEmails.toEmail, emails), eq(outboxEmails.kind, "retailer_welcome")));
}

describe("bulk retailer upload", () => {
  it("creates each good row with its contact, login, brands and one welcome e-mail; a second run creates nothing", async () => {
    const tag = uniqueToken();
    const brand = await createBrand(db, { name: `UpBrand ${tag}` });
    const rows = [0, 1, 2].map((i) => goodRow(tag, i, { brands: `UpBrand ${tag}` }));
    const preview = await previewUpload(await uploadWorkbook(rows));
    expect(preview.map((r) => r.problems)).toEqual([[], [], []]);
    const results = await submitUpload(preview);
    expect(results.map((r) => r.outcome)).toEqual(["created", "created", "created"]);
    const emails = rows.map((r) => r.contact_email!);
    const us = await db.select().from(users).where(inArray(users.email, emails));
    expect(us).toHaveLength(3);
    const r0 = (
      await db.select().from(retailers).where(eq(retailers.id, results[0].retailerId!))
    )[0];
    expect(r0.status).toBe("active");
    expect(r0.state).toBe("NY");
    expect(r0.latitude).toBeCloseTo(Number(rows[0].latitude), 5);
    const contacts = await db
      .select()
      .from(retailerContacts)
      .where(eq(retailerContacts.retailerId, r0.id));
    expect(contacts.map((c) => [c.email, c.userId !== null])).toEqual([[emails[0], true]]);
    expect(
      await db.select().from(retailerBrands).where(eq(retailerBrands.retailerId, r0.id)),
    ).toMatchObject([{ brandId: brand.id, status: "authorized" }]);
    const mails = await welcomeMails(emails);
    expect(mails).toHaveLength(3);
    // The welcome link carries the token; only its hash is stored.
    const u0 = us.find((u) => u.email === emails[0])!;
    const mail0 = mails.find((m) => m.toEmail === emails[0])!;
    expect(mail0.bodyText).toMatch(new RegExp(`/password-reset/${u0.id}/[A-Za-z0-9_-]{43}`));
    const tokens = await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, u0.id));
    expect(tokens).toHaveLength(1);
    expect(mail0.bodyText).not.toContain(tokens[0].tokenHash);

    // Re-run: the same file again creates nothing, sends nothing.
    const again = await submitUpload(await previewUpload(await uploadWorkbook(rows)));
    expect(again.map((r) => r.outcome)).toEqual(["skipped", "skipped", "skipped"]);
    expect(await db.select().from(users).where(inArray(users.email, emails))).toHaveLength(3);
    expect(await welcomeMails(emails)).toHaveLength(3);
  });

  it("a file with 10 bad rows: every bad row is reported with its problems, the good ones are created", async () => {
    const tag = uniqueToken();
    const rows = Array.from({ length: 20 }, (_, i) => goodRow(tag, i));
    const bad: Record<number, Partial<Record<string, string>>> = {
      1: { store_name: "" },
      3: { contact_email: "not-an-email" },
      5: { state: "ZZ" },
      7: { postal_code: "123" },
      9: { store_phone: "12" },
      11: { contact_celphone: "" },
      13: { resale_number: "nope" },
      15: { brands: "No Such Brand " + tag },
      17: { latitude: "123" },
      19: { contact_email: rows[0].contact_email! },
    };
    for (const [i, over] of Object.entries(bad)) Object.assign(rows[Number(i)], over);
    const preview = await previewUpload(await uploadWorkbook(rows));
    const withProblems = preview.filter((r) => r.problems.length > 0);
    expect(withProblems.map((r) => r.line)).toEqual(Object.keys(bad).map((i) => Number(i) + 2));
    expect(preview.find((r) => r.line === 7)!.problems.join(" ")).toMatch(/state/);
    expect(preview.find((r) => r.line === 21)!.problems.join(" ")).toMatch(
      /same e-mail is on line 2/,
    );
    const results = await submitUpload(preview);
    expect(results.filter((r) => r.outcome === "created")).toHaveLength(10);
    expect(results.filter((r) => r.outcome === "failed").map((r) => r.line)).toEqual(
      withProblems.map((r) => r.line),
    );
    expect(results.find((r) => r.line === 17)!.reason).toMatch(/No Such Brand/);
    const goodEmails = rows.filter((_, i) => !(i in bad)).map((r) => r.contact_email!);
    expect(await welcomeMails(goodEmails)).toHaveLength(10);
  });

  it("refuses a zip bomb (honest and lying directory) and a renamed program before reading them", async () => {
    const before = process.memoryUsage().rss;
    await expect(previewUpload(zipBomb(false))).rejects.toBeInstanceOf(XlsxRejected);
    await expect(previewUpload(zipBomb(true))).rejects.toBeInstanceOf(XlsxRejected);
    await expect(previewUpload(renamedExe())).rejects.toBeInstanceOf(XlsxRejected);
    await expect(previewUpload(Buffer.from("store_name,city\nA,B\n"))).rejects.toBeInstanceOf(
      XlsxRejected,
    );
    // Nothing near the bomb's 200 MB was inflated (the fixture itself holds 200 MB of zeros while built).
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it("2,000 rows preview and submit: every row created, one welcome e-mail each (the time: npm run bench:uploads)", async () => {
    const tag = uniqueToken();
    const rows = Array.from({ length: 2000 }, (_, i) => goodRow(tag, i));
    const file = await uploadWorkbook(rows);
    const preview = await previewUpload(file);
    const results = await submitUpload(preview);
    expect(results.filter((r) => r.outcome === "created")).toHaveLength(2000);
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.kind, "retailer_welcome"),
          sql`${outboxEmails.toEmail} like ${`contact-${tag}-%`}`,
        ),
      );
    expect(n).toBe(2000);
  }, 60_000);
});

describe("last_active", () => {
  it("is written when due and not again within 5 minutes", async () => {
    const { retailer } = await createRetailer(db, {});
    const t0 = new Date(Date.now() + 24 * 3600_000); // after whatever the factory wrote
    await touchRetailerLastActive(db, retailer.id, t0, LAST_ACTIVE_EVERY_MS);
    await touchRetailerLastActive(
      db,
      retailer.id,
      new Date(t0.getTime() + 60_000),
      LAST_ACTIVE_EVERY_MS,
    );
    const read = async () =>
      (
        await db
          .select({ at: retailers.lastActiveAt })
          .from(retailers)
          .where(eq(retailers.id, retailer.id))
      )[0].at;
    expect((await read())?.toISOString()).toBe(t0.toISOString());
    const t1 = new Date(t0.getTime() + LAST_ACTIVE_EVERY_MS);
    await touchRetailerLastActive(db, retailer.id, t1, LAST_ACTIVE_EVERY_MS);
    expect((await read())?.toISOString()).toBe(t1.toISOString());
  });
});

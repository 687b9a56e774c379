/**
 * Bulk retailer upload (docs/product/screens.md, "Staff: retailer setup and bulk upload"; ADR 0018): the parsed upload kept between Preview and Submit, and the
 * creation of one row's retailer, contact, login, brand links, welcome link and welcome e-mail in ONE
 * transaction (all or nothing per row). The login's e-mail is the row's identity: a row whose contact e-mail
 * already has a login is skipped, so running the same file again creates no duplicates.
 */
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import type { RetailerLocatedInfo } from "./retailers";
import {
  brands,
  outboxEmails,
  passwordResetTokens,
  retailerBrands,
  retailerContacts,
  retailers,
  retailerUploads,
  users,
  type RetailerUploadResultJson,
  type RetailerUploadRowJson,
} from "../schema";

export type RetailerUploadRecord = typeof retailerUploads.$inferSelect;

export async function saveRetailerUpload(
  db: Db,
  input: { uploadedBy: number; fileName: string; rows: RetailerUploadRowJson[] },
): Promise<RetailerUploadRecord> {
  const rows = await db.insert(retailerUploads).values(input).returning();
  return rows[0];
}

export async function getRetailerUpload(db: Db, id: number): Promise<RetailerUploadRecord | null> {
  const rows = await db.select().from(retailerUploads).where(eq(retailerUploads.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function listRecentRetailerUploads(db: Db, limit = 10) {
  return db
    .select({
      id: retailerUploads.id,
      fileName: retailerUploads.fileName,
      status: retailerUploads.status,
      createdAt: retailerUploads.createdAt,
    })
    .from(retailerUploads)
    .orderBy(desc(retailerUploads.createdAt), desc(retailerUploads.id))
    .limit(limit);
}

export async function recordRetailerUploadResults(
  db: Db,
  id: number,
  results: RetailerUploadResultJson[],
): Promise<void> {
  await db
    .update(retailerUploads)
    .set({ status: "submitted", results, submittedAt: new Date() })
    .where(eq(retailerUploads.id, id));
}

/** Brand ids by lower-cased name and display name (the names a file may use). */
export async function brandIdsByName(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: brands.id, name: brands.name, displayName: brands.displayName })
    .from(brands);
  const out = new Map<string, number>();
  for (const b of rows) {
    out.set(b.displayName.toLowerCase(), b.id);
    out.set(b.name.toLowerCase(), b.id);
  }
  return out;
}

/** Which of these e-mails already have a login (lower-cased). */
export async function registeredEmails(db: Db, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const lower = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  const rows = await db
    .select({ email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, lower));
  return new Set(rows.map((r) => r.email));
}

export type UploadedRetailer = {
  retailer: RetailerLocatedInfo;
  contact: {
    firstName: string;
    lastName: string;
    email: string;
    jobTitle: string;
    phone: string;
    celphone: string;
  };
  brandIds: number[];
  /** Hash of the welcome link's token (the token itself is only in the e-mail). */
  tokenHash: string;
  tokenExpiresAt: Date;
  /** The welcome e-mail, given the new login's id (its link names the user). */
  welcome: (userId: number) => { subject: string; text: string };
};

/** A login nobody can sign in with until the welcome link sets a password (argon2 never verifies it). */
export const NO_PASSWORD_YET = "!bulk-upload:no-password-yet";

/**
 * Creates one uploaded retailer, its contact, its login (no password yet), its brand links, the welcome
 * link's token and the welcome e-mail in one transaction. `skipped` when the contact e-mail already has a
 * login (nothing written).
 */
export async function createUploadedRetailer(
  db: Db,
  row: UploadedRetailer,
): Promise<{ status: "created"; retailerId: number } | { status: "skipped" }> {
  const email = row.contact.email.trim().toLowerCase();
  const SKIP = Symbol("skip");
  try {
    return await db.transaction(async (tx) => {
      const [r] = await tx
        .insert(retailers)
        .values({ ...row.retailer, status: "active", setupCompletedAt: new Date() })
        .returning({ id: retailers.id });
      const [u] = await tx
        .insert(users)
        .values({ email, passwordHash: NO_PASSWORD_YET, retailerId: r.id })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!u) throw SKIP;
      await tx
        .insert(retailerContacts)
        .values({ ...row.contact, email, retailerId: r.id, userId: u.id });
      if (row.brandIds.length > 0) {
        await tx
          .insert(retailerBrands)
          .values(
            [...new Set(row.brandIds)].map((brandId) => ({
              retailerId: r.id,
              brandId,
              status: "authorized",
            })),
          )
          .onConflictDoNothing();
      }
      await tx
        .insert(passwordResetTokens)
        .values({ userId: u.id, tokenHash: row.tokenHash, expiresAt: row.tokenExpiresAt });
      const mail = row.welcome(u.id);
      await tx.insert(outboxEmails).values({
        toEmail: email,
        subject: mail.subject,
        bodyText: mail.text,
        kind: "retailer_welcome",
        dedupeKey: `retailer-welcome:${u.id}`,
        status: "queued",
      });
      return { status: "created" as const, retailerId: r.id };
    });
  } catch (err) {
    if (err === SKIP) return { status: "skipped" };
    throw err;
  }
}

import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { uploads } from "../schema";

/** Listing photos' owners (db/schema/marketplace.ts uploads; app/utils/uploads.server.ts). */

export async function insertUpload(
  db: Db,
  input: { name: string; uploaderId: number; at?: Date },
): Promise<void> {
  await db
    .insert(uploads)
    .values({ name: input.name, uploaderId: input.uploaderId, uploadedAt: input.at ?? new Date() });
}

export type UploadAccess = {
  uploaderId: number | null;
  listingId: number | null;
  rmaId: number | null;
};

export async function findUpload(db: Db, name: string): Promise<UploadAccess | null> {
  const rows = await db
    .select({ uploaderId: uploads.uploaderId, listingId: uploads.listingId, rmaId: uploads.rmaId })
    .from(uploads)
    .where(eq(uploads.name, name))
    .limit(1);
  return rows[0] ?? null;
}

/** How many of `names` this user uploaded. */
export async function countOwnUploads(
  db: Db,
  names: readonly string[],
  uploaderId: number,
): Promise<number> {
  if (names.length === 0) return 0;
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(uploads)
    .where(and(inArray(uploads.name, [...names]), eq(uploads.uploaderId, uploaderId)));
  return rows[0]?.n ?? 0;
}

/** Puts this uploader's unattached uploads on a listing; returns how many were attached. */
export async function attachUploads(
  db: Db,
  names: readonly string[],
  listingId: number,
  uploaderId: number,
): Promise<number> {
  if (names.length === 0) return 0;
  const rows = await db
    .update(uploads)
    .set({ listingId })
    .where(
      and(
        inArray(uploads.name, [...names]),
        eq(uploads.uploaderId, uploaderId),
        isNull(uploads.listingId),
      ),
    )
    .returning({ name: uploads.name });
  return rows.length;
}

/** Puts this uploader's unattached uploads on an RMA (its line pictures); returns how many were attached. */
export async function attachRmaUploads(
  db: DbOrTx,
  names: readonly string[],
  rmaId: number,
  uploaderId: number,
): Promise<number> {
  if (names.length === 0) return 0;
  const rows = await db
    .update(uploads)
    .set({ rmaId })
    .where(
      and(
        inArray(uploads.name, [...names]),
        eq(uploads.uploaderId, uploaderId),
        isNull(uploads.listingId),
        isNull(uploads.rmaId),
      ),
    )
    .returning({ name: uploads.name });
  return rows.length;
}

/** Deletes the rows of uploads never attached and older than `before`; returns their names (files to remove). */
export async function takeOrphanUploads(db: Db, before: Date, limit = 500): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`
    delete from ${uploads} where ${uploads.name} in (
      select name from ${uploads} where listing_id is null and rma_id is null and uploaded_at < ${before.toISOString()}::timestamptz limit ${limit}
    ) returning name`);
  return [...rows].map((r) => r.name);
}

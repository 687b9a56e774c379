/**
 * A retailer's status and brand links, and the notices they send (docs/product/screens.md, "Notices to
 * retailers"): every screen that changes them calls these, so each change writes its e-mails to the outbox in
 * the same transaction, and an unchanged status or an already-authorized brand writes none.
 */
import { and, eq, inArray } from "drizzle-orm";
import {
  brandLinkMail,
  retailerStatusMail,
  type NoticeLinks,
  type NoticeMail,
} from "../../domain/messages";
import type { Db, DbOrTx } from "../client";
import { brandRequests, brands, retailerBrands, retailers } from "../schema";
import { recordMatchesForRetailerListings } from "./matches";
import { insertOutboxEmail } from "./outbox";
import { retailerNotificationEmails, type RetailerRow, type RetailerStatus } from "./retailers";

/** Writes `mail` to the outbox for each address that hears about the retailer's account. */
async function mailRetailer(db: DbOrTx, retailerId: number, mail: NoticeMail): Promise<void> {
  for (const to of await retailerNotificationEmails(db, retailerId)) {
    await insertOutboxEmail(db, {
      toEmail: to,
      subject: mail.subject,
      bodyText: mail.text,
      kind: mail.kind,
      status: "queued",
    });
  }
}

async function brandNames(db: DbOrTx, ids: number[]): Promise<string[]> {
  const rows = await db
    .select({ name: brands.name, displayName: brands.displayName })
    .from(brands)
    .where(inArray(brands.id, ids));
  return rows.map((b) => b.displayName || b.name).sort();
}

async function storeName(db: DbOrTx, retailerId: number): Promise<string | null> {
  const rows = await db
    .select({ storeName: retailers.storeName })
    .from(retailers)
    .where(eq(retailers.id, retailerId));
  return rows[0]?.storeName ?? null;
}

/** Tells the retailer the brands were authorized for it or removed from it (nothing for an empty list). */
async function noticeBrands(
  db: DbOrTx,
  retailerId: number,
  change: "authorized" | "removed",
  brandIds: number[],
): Promise<void> {
  const name = brandIds.length > 0 ? await storeName(db, retailerId) : null;
  if (name === null) return;
  await mailRetailer(db, retailerId, brandLinkMail(change, name, await brandNames(db, brandIds)));
}

/** The brands among `brandIds` already authorized for the retailer. */
async function authorizedAmong(
  db: DbOrTx,
  retailerId: number,
  brandIds: number[],
): Promise<Set<number>> {
  const rows = await db
    .select({ brandId: retailerBrands.brandId })
    .from(retailerBrands)
    .where(
      and(
        eq(retailerBrands.retailerId, retailerId),
        inArray(retailerBrands.brandId, brandIds),
        eq(retailerBrands.status, "authorized"),
      ),
    );
  return new Set(rows.map((r) => r.brandId));
}

/** Authorizes the brands (settling the brand requests matched to them) and tells the retailer about the new ones. */
export async function authorizeBrands(
  db: DbOrTx,
  retailerId: number,
  brandIds: number[],
): Promise<void> {
  if (brandIds.length === 0) return;
  const already = await authorizedAmong(db, retailerId, brandIds);
  await db
    .insert(retailerBrands)
    .values(brandIds.map((brandId) => ({ retailerId, brandId, status: "authorized" })))
    .onConflictDoUpdate({
      target: [retailerBrands.retailerId, retailerBrands.brandId],
      set: { status: "authorized" },
    });
  // A brand request matched to an authorized brand is settled.
  await db
    .update(brandRequests)
    .set({ status: "authorized" })
    .where(and(eq(brandRequests.retailerId, retailerId), inArray(brandRequests.brandId, brandIds)));
  await noticeBrands(db, retailerId, "authorized", [
    ...new Set(brandIds.filter((id) => !already.has(id))),
  ]);
}

/** Deletes the link; the retailer is told when the brand was authorized. */
export async function unauthorizeBrand(
  db: DbOrTx,
  retailerId: number,
  brandId: number,
): Promise<void> {
  const gone = await db
    .delete(retailerBrands)
    .where(and(eq(retailerBrands.retailerId, retailerId), eq(retailerBrands.brandId, brandId)))
    .returning({ status: retailerBrands.status });
  if (gone[0]?.status === "authorized") await noticeBrands(db, retailerId, "removed", [brandId]);
}

/**
 * Sets the retailer's status (and authorizes `brandIds`, as activation does) in one transaction, writing the
 * status's e-mail when the status actually changed. Null when the retailer does not exist.
 */
export async function setRetailerStatus(
  db: Db,
  retailerId: number,
  status: RetailerStatus,
  links: NoticeLinks,
  brandIds: number[] = [],
): Promise<{ retailer: RetailerRow; changed: boolean } | null> {
  return db.transaction(async (tx) => {
    const before = await tx
      .select({ status: retailers.status })
      .from(retailers)
      .where(eq(retailers.id, retailerId))
      .for("update");
    if (!before[0]) return null;
    const [retailer] = await tx
      .update(retailers)
      .set({ status })
      .where(eq(retailers.id, retailerId))
      .returning();
    const changed = before[0].status !== status;
    const mail = changed ? retailerStatusMail(status, retailer.storeName, links) : null;
    if (mail) await mailRetailer(tx, retailerId, mail);
    await authorizeBrands(tx, retailerId, brandIds);
    // Active again: its listings are visible again, so they match open requests and saved searches (ADR 0030).
    if (changed && status === "active") await recordMatchesForRetailerListings(tx, retailerId);
    return { retailer, changed };
  });
}

export type BrandLink = { retailerId: number; brandId: number; status: string };

export async function getBrandLink(db: DbOrTx, id: number): Promise<BrandLink | null> {
  const rows = await db
    .select({
      retailerId: retailerBrands.retailerId,
      brandId: retailerBrands.brandId,
      status: retailerBrands.status,
    })
    .from(retailerBrands)
    .where(eq(retailerBrands.id, id));
  return rows[0] ?? null;
}

/**
 * After the generic screens saved or deleted a brand link (`before` and `after` the change, null where there
 * was or is no row): the retailer that lost an authorization and the one that gained one are told.
 */
export async function noticeBrandLinkChange(
  db: DbOrTx,
  before: BrandLink | null,
  after: BrandLink | null,
): Promise<void> {
  const auth = (l: BrandLink | null) => (l?.status === "authorized" ? l : null);
  const was = auth(before);
  const is = auth(after);
  const same =
    was !== null && is !== null && was.retailerId === is.retailerId && was.brandId === is.brandId;
  if (same) return;
  if (was) await noticeBrands(db, was.retailerId, "removed", [was.brandId]);
  if (is) await noticeBrands(db, is.retailerId, "authorized", [is.brandId]);
}

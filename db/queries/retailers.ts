import { and, asc, desc, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { builtOnce } from "../built-once";
import type { Db, DbOrTx } from "../client";
import { brandForTypedName } from "./external-brands";
import {
  brandRequests,
  brands,
  retailerBrands,
  retailerContacts,
  retailers,
  users,
} from "../schema";

export type RetailerRow = typeof retailers.$inferSelect;
export type ContactRow = typeof retailerContacts.$inferSelect;
export type BrandRequestRow = typeof brandRequests.$inferSelect;
export type RetailerStatus = RetailerRow["status"];

export type RetailerInfoInput = {
  storeName: string;
  storeEmail: string;
  storePhone: string;
  businessName: string;
  address1: string;
  city: string;
  state: string;
  postalCode: string;
  resaleNumber: string;
};

/** The store fields plus what staff and the bulk upload also set. */
export type RetailerLocatedInfo = RetailerInfoInput & {
  segments: string[];
  priceTier: string;
  latitude: number | null;
  longitude: number | null;
};

export type ContactInput = {
  firstName: string;
  lastName: string;
  jobTitle: string;
  jobTitleOther: string;
  phone: string;
  celphone: string;
};

export type BrandRequestInput = {
  brandName: string;
  brandId?: number | null;
  brandPurchaseAmountCents?: number | null;
  yourInterestInThisBrand?: string[];
  brandContactEmail?: string;
  brandContactName?: string;
};

export async function getRetailer(db: DbOrTx, id: number): Promise<RetailerRow | null> {
  const rows = await db.select().from(retailers).where(eq(retailers.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Which of a retailer's contacts is "its contact": the one linked to `userId` when given, else the first one. */
function contactPreference(userId?: number | Placeholder): SQL[] {
  return userId === undefined
    ? [asc(retailerContacts.id)]
    : [sql`(${retailerContacts.userId} = ${userId}) desc nulls last`, asc(retailerContacts.id)];
}

/** The retailer's contact: the one linked to `userId` when given, else the first one. */
export async function getContact(
  db: Db,
  retailerId: number,
  userId?: number,
): Promise<ContactRow | null> {
  const rows = await db
    .select()
    .from(retailerContacts)
    .where(eq(retailerContacts.retailerId, retailerId))
    .orderBy(...contactPreference(userId))
    .limit(1);
  return rows[0] ?? null;
}

const contactOfRetailer = alias(retailerContacts, "contact");

/**
 * The retailer and its contact (as getContact picks it) in one statement: every signed-in request reads both
 * (app/utils/auth.server.ts), so one round trip instead of two.
 */
export async function getRetailerWithContact(
  db: Db,
  retailerId: number,
  userId?: number,
): Promise<{ retailer: RetailerRow; contact: ContactRow | null } | null> {
  // Built once per pool (two texts: with and without the user's own contact first).
  const forUser = userId !== undefined;
  const name = forUser ? "retailer_with_users_contact" : "retailer_with_contact";
  const query = builtOnce(db, name, (pool) =>
    pool
      .select({ retailer: retailers, contact: contactOfRetailer })
      .from(retailers)
      .leftJoin(
        contactOfRetailer,
        eq(
          contactOfRetailer.id,
          sql`(select ${retailerContacts.id} from ${retailerContacts} where ${retailerContacts.retailerId} = ${retailers.id} order by ${sql.join(contactPreference(forUser ? sql.placeholder("userId") : undefined), sql`, `)} limit 1)`,
        ),
      )
      .where(eq(retailers.id, sql.placeholder("retailerId")))
      .limit(1)
      .prepare(name),
  );
  const rows = await query.execute({ retailerId, userId });
  return rows[0] ?? null;
}

/** Setup wizard step 1: creates the (pending) retailer and links it to the user, or updates it. */
export async function saveRetailerStep(
  db: Db,
  userId: number,
  info: RetailerInfoInput,
): Promise<RetailerRow> {
  return db.transaction(async (tx) => {
    const u = await tx
      .select({ retailerId: users.retailerId })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!u[0]) throw new Error(`user ${userId} not found`);
    const existingId = u[0].retailerId;
    if (existingId !== null) {
      const rows = await tx
        .update(retailers)
        .set(info)
        .where(eq(retailers.id, existingId))
        .returning();
      return rows[0];
    }
    const rows = await tx
      .insert(retailers)
      .values({ ...info, status: "pending" })
      .returning();
    const retailer = rows[0];
    await tx.update(users).set({ retailerId: retailer.id }).where(eq(users.id, userId));
    return retailer;
  });
}

/** Setup wizard step 2: creates or updates the contact of the retailer linked to this user. */
export async function saveContactStep(
  db: Db,
  retailerId: number,
  user: { id: number; email: string },
  input: ContactInput,
): Promise<ContactRow> {
  const existing = await getContact(db, retailerId, user.id);
  if (existing) {
    const rows = await db
      .update(retailerContacts)
      .set({ ...input, userId: existing.userId ?? user.id })
      .where(eq(retailerContacts.id, existing.id))
      .returning();
    return rows[0];
  }
  const rows = await db
    .insert(retailerContacts)
    .values({ ...input, retailerId, userId: user.id, email: user.email })
    .returning();
  return rows[0];
}

/**
 * Setup wizard step 3: records the brand requests (a typed name matched to its brand, a new one an external
 * brand for staff to validate) and marks the setup finished.
 */
export async function saveBrandsStep(
  db: Db,
  retailerId: number,
  requests: BrandRequestInput[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const brandIds: (number | null)[] = [];
    for (const r of requests)
      brandIds.push(r.brandId ?? (await brandForTypedName(tx, r.brandName)));
    if (requests.length > 0) {
      await tx.insert(brandRequests).values(
        requests.map((r, i) => ({
          retailerId,
          brandName: r.brandName,
          brandId: brandIds[i],
          source: "registration",
          brandPurchaseAmountCents: r.brandPurchaseAmountCents ?? null,
          yourInterestInThisBrand: r.yourInterestInThisBrand ?? [],
          brandContactEmail: r.brandContactEmail ?? "",
          brandContactName: r.brandContactName ?? "",
        })),
      );
    }
    await tx
      .update(retailers)
      .set({ setupCompletedAt: new Date() })
      .where(eq(retailers.id, retailerId));
  });
}

export async function listBrandRequests(db: Db, retailerId: number): Promise<BrandRequestRow[]> {
  return db
    .select()
    .from(brandRequests)
    .where(eq(brandRequests.retailerId, retailerId))
    .orderBy(asc(brandRequests.id));
}

export type BrandChoice = { id: number; name: string; displayName: string };

/** Brands a retailer may choose or staff may authorize (valid and active), by name. */
export async function listBrandChoices(db: Db): Promise<BrandChoice[]> {
  return db
    .select({ id: brands.id, name: brands.name, displayName: brands.displayName })
    .from(brands)
    .where(and(eq(brands.isValid, true), eq(brands.isActive, true)))
    .orderBy(asc(brands.displayName));
}

export async function getBrandsByIds(db: Db, ids: number[]): Promise<BrandChoice[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: brands.id, name: brands.name, displayName: brands.displayName })
    .from(brands)
    .where(inArray(brands.id, ids));
}

export async function listAuthorizedBrands(db: Db, retailerId: number): Promise<BrandChoice[]> {
  return db
    .select({ id: brands.id, name: brands.name, displayName: brands.displayName })
    .from(retailerBrands)
    .innerJoin(brands, eq(brands.id, retailerBrands.brandId))
    .where(and(eq(retailerBrands.retailerId, retailerId), eq(retailerBrands.status, "authorized")))
    .orderBy(asc(brands.displayName));
}

export async function isBrandAuthorized(
  db: Db,
  retailerId: number,
  brandId: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: retailerBrands.id })
    .from(retailerBrands)
    .where(
      and(
        eq(retailerBrands.retailerId, retailerId),
        eq(retailerBrands.brandId, brandId),
        eq(retailerBrands.status, "authorized"),
      ),
    )
    .limit(1);
  return rows.length === 1;
}

export type RetailerAdminEntry = {
  retailer: RetailerRow;
  contact: ContactRow | null;
  userEmails: string[];
  brandRequests: BrandRequestRow[];
  authorizedBrands: BrandChoice[];
};

/** The activation page's sections, in page order. */
export const ADMIN_RETAILER_STATUSES: readonly RetailerStatus[] = [
  "pending",
  "active",
  "inactive",
  "denied",
];
/** Retailers per section and page on the activation page (each card carries its forms and brand choices). */
export const ADMIN_RETAILERS_PAGE_SIZE = 25;

export type AdminRetailerSection = {
  status: RetailerStatus;
  page: number;
  pages: number;
  total: number;
  entries: RetailerAdminEntry[];
};

/** A search term matching a retailer's store name or city (contains, any case) or its id (exactly). */
function retailerMatches(term: string): SQL {
  const like = `%${term}%`;
  return sql`(${retailers.storeName} ilike ${like} or ${retailers.city} ilike ${like} or ${retailers.id}::text = ${term})`;
}

/**
 * The staff activation page: for each status, one page of its retailers (newest first; `pages[status]`, from 1)
 * with their contact, users, brand requests and authorized brands, and how many there are in all; optionally
 * only those matching `q`. Bounded whatever the number of retailers: at most four pages of cards.
 */
export async function listRetailersForAdmin(
  db: Db,
  opts: { pages?: Partial<Record<RetailerStatus, number>>; q?: string; pageSize?: number } = {},
): Promise<AdminRetailerSection[]> {
  const size = opts.pageSize ?? ADMIN_RETAILERS_PAGE_SIZE;
  const term = (opts.q ?? "").trim();
  const match = term ? retailerMatches(term) : undefined;
  const counts = await db
    .select({ status: retailers.status, n: sql<number>`count(*)::int` })
    .from(retailers)
    .where(match)
    .groupBy(retailers.status);
  const sections = ADMIN_RETAILER_STATUSES.map((status) => {
    const total = counts.find((c) => c.status === status)?.n ?? 0;
    const pages = Math.max(1, Math.ceil(total / size));
    return { status, total, pages, page: Math.min(pages, Math.max(1, opts.pages?.[status] ?? 1)) };
  });
  const rows = await Promise.all(
    sections.map((sec) =>
      sec.total === 0
        ? Promise.resolve([] as RetailerRow[])
        : db
            .select()
            .from(retailers)
            .where(and(eq(retailers.status, sec.status), match))
            .orderBy(desc(retailers.createdAt), desc(retailers.id))
            .limit(size)
            .offset((sec.page - 1) * size),
    ),
  );
  const details = await retailerAdminDetails(db, rows.flat());
  return sections.map((sec, i) => ({ ...sec, entries: rows[i].map((r) => details(r)) }));
}

/** Each retailer's contact, users, brand requests and authorized brands, read at once for all of them. */
async function retailerAdminDetails(
  db: Db,
  rs: RetailerRow[],
): Promise<(retailer: RetailerRow) => RetailerAdminEntry> {
  const ids = rs.map((r) => r.id);
  const [contacts, us, reqs, auth] =
    ids.length === 0
      ? [[], [], [], []]
      : await Promise.all([
          db
            .select()
            .from(retailerContacts)
            .where(inArray(retailerContacts.retailerId, ids))
            .orderBy(asc(retailerContacts.id)),
          db
            .select({ email: users.email, retailerId: users.retailerId })
            .from(users)
            .where(inArray(users.retailerId, ids)),
          db
            .select()
            .from(brandRequests)
            .where(inArray(brandRequests.retailerId, ids))
            .orderBy(asc(brandRequests.id)),
          db
            .select({
              retailerId: retailerBrands.retailerId,
              id: brands.id,
              name: brands.name,
              displayName: brands.displayName,
            })
            .from(retailerBrands)
            .innerJoin(brands, eq(brands.id, retailerBrands.brandId))
            .where(
              and(inArray(retailerBrands.retailerId, ids), eq(retailerBrands.status, "authorized")),
            )
            .orderBy(asc(brands.displayName)),
        ]);
  return (retailer) => ({
    retailer,
    contact: contacts.find((c) => c.retailerId === retailer.id) ?? null,
    userEmails: us.filter((u) => u.retailerId === retailer.id).map((u) => u.email),
    brandRequests: reqs.filter((r) => r.retailerId === retailer.id),
    authorizedBrands: auth
      .filter((a) => a.retailerId === retailer.id)
      .map((a) => ({ id: a.id, name: a.name, displayName: a.displayName })),
  });
}

export type RetailerPick = {
  id: number;
  storeName: string;
  city: string;
  state: string;
  status: RetailerStatus;
};

/** Retailers staff may act as, optionally filtered by store name / city / id. */
export async function searchRetailers(db: Db, q: string, limit = 200): Promise<RetailerPick[]> {
  const term = q.trim();
  const base = db
    .select({
      id: retailers.id,
      storeName: retailers.storeName,
      city: retailers.city,
      state: retailers.state,
      status: retailers.status,
    })
    .from(retailers);
  const filtered = term ? base.where(retailerMatches(term)) : base;
  return filtered.orderBy(asc(retailers.storeName)).limit(limit);
}

/** Addresses that should hear about the retailer's account: its users, else the store e-mail. */
export async function retailerNotificationEmails(
  db: DbOrTx,
  retailerId: number,
): Promise<string[]> {
  const us = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.retailerId, retailerId));
  const r = await getRetailer(db, retailerId);
  const set = new Set(us.map((u) => u.email));
  if (set.size === 0 && r?.storeEmail) set.add(r.storeEmail);
  return [...set];
}

/**
 * Staff retailer administration (docs/product/screens.md, "Staff: retailer admin"; ADR 0018): the Choose Retailer list, one retailer's Info,
 * Contacts, Brands, Listings, Requests and Transactions, and the throttled last_active write.
 */
import { and, asc, desc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "../client";
import type { RetailerLocatedInfo } from "./retailers";
import {
  brandRequests,
  brands,
  listingRequests,
  listings,
  orders,
  productVariations,
  products,
  retailerBrands,
  retailerContacts,
  retailers,
  users,
} from "../schema";

export type AdminRetailerStatus = "pending" | "active" | "inactive" | "denied";

export type RetailerListRow = {
  id: number;
  contactEmail: string;
  storeName: string;
  city: string;
  state: string;
  segments: string[];
  priceTier: string;
  status: AdminRetailerStatus;
  createdAt: Date;
  lastActiveAt: Date | null;
};

export const RETAILER_PAGE_SIZE = 50;

/**
 * One page of retailers in the given statuses, newest first, optionally searched by id, store name, city
 * or contact e-mail. contact_email is the first contact's e-mail, else the store e-mail.
 */
export async function listRetailersPage(
  db: Db,
  opts: { statuses: readonly AdminRetailerStatus[]; q?: string; page?: number; pageSize?: number },
): Promise<{ rows: RetailerListRow[]; total: number }> {
  const size = opts.pageSize ?? RETAILER_PAGE_SIZE;
  const page = Math.max(1, opts.page ?? 1);
  const term = (opts.q ?? "").trim();
  // A one-table select renders its columns unqualified, so the correlated subqueries name "retailers"."id" themselves.
  const outerId = sql.raw(`"retailers"."id"`);
  const contactEmail = sql<string>`coalesce((select c.email from ${retailerContacts} c where c.retailer_id = ${outerId} order by c.id limit 1), "retailers"."store_email")`;
  const conds: SQL[] = [inArray(retailers.status, [...opts.statuses])];
  if (term) {
    const like = `%${term}%`;
    conds.push(
      sql`(${retailers.storeName} ilike ${like} or ${retailers.city} ilike ${like} or ${retailers.id}::text = ${term}
        or exists (select 1 from ${retailerContacts} c where c.retailer_id = ${outerId} and c.email ilike ${like}))`,
    );
  }
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    db
      .select({
        id: retailers.id,
        contactEmail,
        storeName: retailers.storeName,
        city: retailers.city,
        state: retailers.state,
        segments: retailers.segments,
        priceTier: retailers.priceTier,
        status: retailers.status,
        createdAt: retailers.createdAt,
        lastActiveAt: retailers.lastActiveAt,
      })
      .from(retailers)
      .where(where)
      .orderBy(desc(retailers.createdAt), desc(retailers.id))
      .limit(size)
      .offset((page - 1) * size),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(retailers)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/**
 * The Info tab's store columns: the setup wizard's store fields plus segments, price tier and location. Its
 * status goes through setRetailerStatus (db/queries/retailer-status.ts), which tells the retailer.
 */
export async function updateRetailerInfo(
  db: Db,
  retailerId: number,
  info: RetailerLocatedInfo,
): Promise<boolean> {
  const rows = await db
    .update(retailers)
    .set(info)
    .where(eq(retailers.id, retailerId))
    .returning({ id: retailers.id });
  return rows.length === 1;
}

/**
 * Records that the retailer was seen now, unless it was seen within `every` ms: one conditional UPDATE
 * (nothing written when a recent request already did), called at most once per `every` per retailer.
 */
export async function touchRetailerLastActive(
  db: Db,
  retailerId: number,
  now: Date,
  everyMs: number,
): Promise<void> {
  await db
    .update(retailers)
    .set({ lastActiveAt: now })
    .where(
      and(
        eq(retailers.id, retailerId),
        or(
          isNull(retailers.lastActiveAt),
          lte(retailers.lastActiveAt, new Date(now.getTime() - everyMs)),
        ),
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Contacts

export type ContactRow = typeof retailerContacts.$inferSelect;
export type AdminContact = ContactRow & { loginUserId: number | null };

/** The retailer's contacts with the login each one has (its user, or the user with its e-mail). */
export async function listContactsWithLogin(db: Db, retailerId: number): Promise<AdminContact[]> {
  const rows = await db
    .select({
      c: retailerContacts,
      byId: users.id,
      byEmail: sql<
        number | null
      >`(select u.id from ${users} u where lower(u.email) = lower(${retailerContacts.email}) limit 1)`,
    })
    .from(retailerContacts)
    .leftJoin(users, eq(users.id, retailerContacts.userId))
    .where(eq(retailerContacts.retailerId, retailerId))
    .orderBy(asc(retailerContacts.id));
  return rows.map((r) => ({ ...r.c, loginUserId: r.byId ?? r.byEmail ?? null }));
}

export type ContactUpdate = {
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string;
  jobTitleOther: string;
  phone: string;
  celphone: string;
};

/** Updates a contact of this retailer (another retailer's contact id is not found: false). */
export async function updateContact(
  db: Db,
  retailerId: number,
  contactId: number,
  input: ContactUpdate,
): Promise<boolean> {
  const rows = await db
    .update(retailerContacts)
    .set(input)
    .where(and(eq(retailerContacts.id, contactId), eq(retailerContacts.retailerId, retailerId)))
    .returning({ id: retailerContacts.id });
  return rows.length === 1;
}

export async function addContact(
  db: Db,
  retailerId: number,
  input: ContactUpdate,
): Promise<ContactRow> {
  const rows = await db
    .insert(retailerContacts)
    .values({ ...input, retailerId })
    .returning();
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// Brands

export type RetailerBrandLink = {
  brandId: number;
  brandName: string;
  status: string;
  createdAt: Date;
};

export async function listRetailerBrandLinks(
  db: Db,
  retailerId: number,
): Promise<RetailerBrandLink[]> {
  return db
    .select({
      brandId: brands.id,
      brandName: brands.displayName,
      status: retailerBrands.status,
      createdAt: retailerBrands.createdAt,
    })
    .from(retailerBrands)
    .innerJoin(brands, eq(brands.id, retailerBrands.brandId))
    .where(eq(retailerBrands.retailerId, retailerId))
    .orderBy(asc(brands.displayName));
}

export async function listRetailerBrandRequests(db: Db, retailerId: number) {
  return db
    .select()
    .from(brandRequests)
    .where(eq(brandRequests.retailerId, retailerId))
    .orderBy(asc(brandRequests.id));
}

// ---------------------------------------------------------------------------------------------
// Listings, requests, transactions of one retailer

export type AdminItemRow = {
  id: number;
  brandName: string;
  sku: string;
  productName: string;
  color: string;
  totalUnits: number;
  priceCents: number;
  status: string;
  createdAt: Date;
};

export const ADMIN_ITEMS_LIMIT = 200;

/** A retailer's items with units left, newest first: its listings (`owner` the provider) or its requests (the requestor). */
async function retailerItems(
  db: Db,
  t: typeof listings | typeof listingRequests,
  owner: AnyPgColumn,
  status: SQL<string>,
  retailerId: number,
  limit: number,
): Promise<AdminItemRow[]> {
  return db
    .select({
      id: t.id,
      brandName: brands.displayName,
      sku: productVariations.sku,
      productName: products.displayName,
      color: productVariations.color,
      totalUnits: t.totalUnits,
      priceCents: productVariations.priceCents,
      status,
      createdAt: t.createdAt,
    })
    .from(t)
    .innerJoin(productVariations, eq(productVariations.id, t.variationId))
    .innerJoin(products, eq(products.id, productVariations.productId))
    .innerJoin(brands, eq(brands.id, t.brandId))
    .where(and(eq(owner, retailerId), sql`${t.totalUnits} > 0`))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit);
}

export function listRetailerListings(
  db: Db,
  retailerId: number,
  limit = ADMIN_ITEMS_LIMIT,
): Promise<AdminItemRow[]> {
  const status = sql<string>`${listings.status}::text || ' · ' || ${listings.listingType}::text`;
  return retailerItems(db, listings, listings.providerId, status, retailerId, limit);
}

export function listRetailerRequests(
  db: Db,
  retailerId: number,
  limit = ADMIN_ITEMS_LIMIT,
): Promise<AdminItemRow[]> {
  return retailerItems(
    db,
    listingRequests,
    listingRequests.requestorId,
    sql<string>`'open'`,
    retailerId,
    limit,
  );
}

export type AdminOrderRow = {
  id: number;
  externalId: string;
  transactionType: number;
  role: "provider" | "receiver";
  otherId: number;
  otherName: string;
  brandName: string | null;
  displayStatus: string;
  stage: string;
  valueCents: number;
  createdAt: Date;
};

/** The retailer's orders (either side), newest first. Staff see the other side's store name. */
export async function listRetailerOrders(
  db: Db,
  retailerId: number,
  opts: { transactionType?: number; limit?: number } = {},
): Promise<AdminOrderRow[]> {
  const rows = await db
    .select({
      id: orders.id,
      externalId: orders.externalId,
      transactionType: orders.transactionType,
      providerId: orders.providerId,
      receiverId: orders.receiverId,
      brandName: brands.displayName,
      displayStatus: orders.displayStatus,
      stage: orders.stage,
      valueCents: orders.valueCents,
      createdAt: orders.createdAt,
      providerName: sql<string>`(select r.store_name from ${retailers} r where r.id = ${orders.providerId})`,
      receiverName: sql<string>`(select r.store_name from ${retailers} r where r.id = ${orders.receiverId})`,
    })
    .from(orders)
    .leftJoin(brands, eq(brands.id, orders.brandId))
    .where(
      and(
        or(eq(orders.providerId, retailerId), eq(orders.receiverId, retailerId)),
        opts.transactionType !== undefined
          ? eq(orders.transactionType, opts.transactionType)
          : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(opts.limit ?? ADMIN_ITEMS_LIMIT);
  return rows.map((r) => {
    const role = r.providerId === retailerId ? "provider" : "receiver";
    return {
      id: r.id,
      externalId: r.externalId,
      transactionType: r.transactionType,
      role,
      otherId: role === "provider" ? r.receiverId : r.providerId,
      otherName: role === "provider" ? r.receiverName : r.providerName,
      brandName: r.brandName,
      displayStatus: r.displayStatus,
      stage: r.stage,
      valueCents: r.valueCents,
      createdAt: r.createdAt,
    };
  });
}

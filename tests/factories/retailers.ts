import type { DbOrTx } from "../../db/client";
import {
  brandRequests,
  retailerBrands,
  retailerContacts,
  retailers,
  sandboxPaymentObjects,
  users,
} from "../../db/schema";
import { RESOURCE_NAMES } from "../../domain/resources";
import { hashPassword, resaleNumber, uniqueToken } from "./util";

export type RetailerRow = typeof retailers.$inferSelect;
export type ContactRow = typeof retailerContacts.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type RetailerBrandRow = typeof retailerBrands.$inferSelect;
export type BrandRequestRow = typeof brandRequests.$inferSelect;

export const DEFAULT_TEST_PASSWORD = "correct-horse-battery";

/** Hash once per process for the default password: argon2id is deliberately slow. */
let defaultHash: Promise<string> | undefined;
function passwordHashFor(
  password: string | undefined,
  passwordHash: string | undefined,
): Promise<string> {
  if (passwordHash) return Promise.resolve(passwordHash);
  if (password === undefined || password === DEFAULT_TEST_PASSWORD) {
    defaultHash ??= hashPassword(DEFAULT_TEST_PASSWORD);
    return defaultHash;
  }
  return hashPassword(password);
}

export interface CreateUserInput {
  email?: string;
  password?: string;
  /** A precomputed argon2id hash (skips hashing). */
  passwordHash?: string;
  isStaff?: boolean;
  retailerId?: number | null;
  /** Staff's permissions map (resource names); createStaffUser defaults to every resource. */
  permissions?: string[];
  /** The person's roles in its store (docs/product/teams.md); default owner. */
  storeRoles?: string[];
  /** A buyer's limit per order in cents (docs/product/teams.md, "Limits and approval"); default none. */
  buyLimitOrderCents?: number;
}

/** A bare user (e.g. just registered, retailer not yet set up). */
export async function createUser(db: DbOrTx, input: CreateUserInput = {}): Promise<UserRow> {
  const [user] = await db
    .insert(users)
    .values({
      email: input.email ?? `user-${uniqueToken()}@example.test`,
      passwordHash: await passwordHashFor(input.password, input.passwordHash),
      isStaff: input.isStaff ?? false,
      retailerId: input.retailerId ?? null,
      adminPermissions: input.permissions ?? [],
      ...(input.storeRoles ? { storeRoles: input.storeRoles } : {}),
      ...(input.buyLimitOrderCents !== undefined
        ? { buyLimitOrderCents: input.buyLimitOrderCents }
        : {}),
    })
    .returning();
  return user;
}

export async function createStaffUser(
  db: DbOrTx,
  input: Omit<CreateUserInput, "isStaff" | "retailerId"> = {},
): Promise<UserRow> {
  return createUser(db, {
    ...input,
    email: input.email ?? `staff-${uniqueToken()}@example.test`,
    isStaff: true,
    retailerId: null,
    permissions: input.permissions ?? [...RESOURCE_NAMES],
  });
}

export interface CreateRetailerInput {
  status?: RetailerRow["status"];
  /** true: a sandbox connected account is created and its id stored in bt_merchant_id. */
  payout?: boolean;
  /** Explicit connected-account id (implies payout). */
  btMerchantId?: string;
  storeName?: string;
  businessName?: string;
  storeEmail?: string;
  storePhone?: string;
  address1?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  latitude?: number | null;
  longitude?: number | null;
  resaleNumber?: string;
  position?: string;
  segments?: string[];
  priceTier?: string;
  /** The setup wizard is finished (default true). */
  setupCompleted?: boolean;
  contact?: Partial<Omit<typeof retailerContacts.$inferInsert, "retailerId" | "userId">>;
  /** The signing-in user; `false` creates none. */
  user?: Omit<CreateUserInput, "isStaff" | "retailerId"> | false;
}

export interface CreatedRetailer {
  retailer: RetailerRow;
  contact: ContactRow;
  user: UserRow | null;
}

/** Stand-in connected account in the sandbox payment provider (so the sandbox adapter knows the id). */
export async function createSandboxAccount(
  db: DbOrTx,
  accountId: string,
  info: { email: string; businessName: string; retailerId?: number },
): Promise<void> {
  await db
    .insert(sandboxPaymentObjects)
    .values({
      id: accountId,
      kind: "account",
      data: {
        id: accountId,
        object: "account",
        type: "custom",
        country: "US",
        email: info.email,
        business_profile: { name: info.businessName },
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        metadata: info.retailerId ? { retailerId: String(info.retailerId) } : {},
        created: Math.floor(Date.now() / 1000),
      },
    })
    .onConflictDoNothing();
}

/**
 * Defaults that no other retailer shares (surname, phones, street): every test retailer carries its own marks,
 * so the leak canary (tests/e2e/leak-canary.test.ts) can tell whose data a page shows. Letters only in the
 * surname and digits only in the phones, in the formats the forms accept.
 */
function distinctDefaults(tok: string) {
  // The token (base 36) as letters (base 26) and as 7 digits: one-to-one within a run of 10 million retailers.
  let n = 0n;
  for (const ch of tok) n = n * 36n + BigInt(parseInt(ch, 36));
  let letters = "";
  for (let m = n; m > 0n || letters.length < 4; m /= 26n)
    letters = String.fromCharCode(97 + Number(m % 26n)) + letters;
  const d = String(n % 10_000_000n).padStart(7, "0");
  const tail = `${d.slice(0, 3)}-${d.slice(3)}`;
  return {
    lastName: `Tester${letters[0].toUpperCase()}${letters.slice(1)}`,
    storePhone: `+1-217-${tail}`,
    phone: `+1-309-${tail}`,
    celphone: `+1-618-${tail}`,
    address1: `${1 + Number(n % 9_000n)} ${letters[0].toUpperCase()}${letters.slice(1)} St`,
  };
}

export async function createRetailer(
  db: DbOrTx,
  input: CreateRetailerInput = {},
): Promise<CreatedRetailer> {
  const tok = uniqueToken();
  const storeName = input.storeName ?? `Test Store ${tok}`;
  const email =
    input.user === false ? undefined : (input.user?.email ?? `retailer-${tok}@example.test`);
  const payout = input.payout ?? Boolean(input.btMerchantId);
  const btMerchantId = payout
    ? (input.btMerchantId ?? `acct_sandbox_${tok}${Math.random().toString(36).slice(2, 8)}`)
    : null;
  const status = input.status ?? "active";
  const own = distinctDefaults(tok);

  const [retailer] = await db
    .insert(retailers)
    .values({
      storeName,
      storeEmail: input.storeEmail ?? email ?? `store-${tok}@example.test`,
      storePhone: input.storePhone ?? own.storePhone,
      businessName: input.businessName ?? `${storeName} LLC`,
      address1: input.address1 ?? own.address1,
      city: input.city ?? "Springfield",
      state: input.state ?? "IL",
      postalCode: input.postalCode ?? "62701",
      resaleNumber: input.resaleNumber ?? resaleNumber(),
      btMerchantId,
      position: input.position ?? "",
      segments: input.segments ?? [],
      priceTier: input.priceTier ?? "",
      status,
      setupCompletedAt: input.setupCompleted === false ? null : new Date(),
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      lastActiveAt: status === "active" ? new Date() : null,
    })
    .returning();

  if (btMerchantId) {
    await createSandboxAccount(db, btMerchantId, {
      email: retailer.storeEmail,
      businessName: retailer.businessName,
      retailerId: retailer.id,
    });
  }

  let user: UserRow | null = null;
  if (input.user !== false) {
    user = await createUser(db, { ...input.user, email, retailerId: retailer.id });
  }

  const c = input.contact ?? {};
  const [contact] = await db
    .insert(retailerContacts)
    .values({
      retailerId: retailer.id,
      userId: user?.id ?? null,
      firstName: c.firstName ?? "Pat",
      lastName: c.lastName ?? own.lastName,
      email: c.email ?? email ?? retailer.storeEmail,
      jobTitle: c.jobTitle ?? "Owner",
      jobTitleOther: c.jobTitleOther ?? "",
      phone: c.phone ?? own.phone,
      celphone: c.celphone ?? own.celphone,
      address1: c.address1 ?? retailer.address1,
      city: c.city ?? retailer.city,
      state: c.state ?? retailer.state,
      postalCode: c.postalCode ?? retailer.postalCode,
    })
    .returning();

  return { retailer, contact, user };
}

/** An active retailer with payouts set up (unless told otherwise), authorized for `brandId` unless told not. */
export async function tradingRetailer(
  db: DbOrTx,
  brandId: number,
  opts: { payout?: boolean; authorized?: boolean; status?: "active" | "inactive" } = {},
): Promise<RetailerRow> {
  const { retailer } = await createRetailer(db, {
    payout: opts.payout ?? true,
    user: false,
    status: opts.status ?? "active",
  });
  if (opts.authorized !== false) await authorizeBrand(db, retailer.id, brandId);
  return retailer;
}

/** Authorizes a retailer for a brand (idempotent: returns the existing link when there is one). */
export async function authorizeBrand(
  db: DbOrTx,
  retailerId: number,
  brandId: number,
  status = "authorized",
): Promise<RetailerBrandRow> {
  const [inserted] = await db
    .insert(retailerBrands)
    .values({ retailerId, brandId, status })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const existing = await db.query.retailerBrands.findFirst({
    where: (rb, { and, eq }) => and(eq(rb.retailerId, retailerId), eq(rb.brandId, brandId)),
  });
  if (!existing) throw new Error("authorizeBrand: link vanished");
  return existing;
}

export interface CreateBrandRequestInput {
  retailerId: number;
  brandName: string;
  brandId?: number | null;
  brandPurchaseAmountCents?: number | null;
  yourInterestInThisBrand?: string[];
  brandContactEmail?: string;
  brandContactName?: string;
  status?: string;
}

/** A retailer's request to be authorized for a brand (the "Request Brands" wizard step). */
export async function createBrandRequest(
  db: DbOrTx,
  input: CreateBrandRequestInput,
): Promise<BrandRequestRow> {
  const [row] = await db
    .insert(brandRequests)
    .values({
      retailerId: input.retailerId,
      brandName: input.brandName,
      brandId: input.brandId ?? null,
      brandPurchaseAmountCents: input.brandPurchaseAmountCents ?? null,
      yourInterestInThisBrand: input.yourInterestInThisBrand ?? [],
      brandContactEmail: input.brandContactEmail ?? "",
      brandContactName: input.brandContactName ?? "",
      status: input.status ?? "requested",
    })
    .returning();
  return row;
}

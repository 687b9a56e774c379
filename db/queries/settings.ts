/**
 * Settings (Store Info, Contact Info, Card On File) and brand requests of the effective retailer.
 */
import { and, asc, desc, eq, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { brandRequests, paymentMethods, retailerContacts, retailers } from "../schema";
import { brandForTypedName } from "./external-brands";
import type {
  BrandRequestInput,
  ContactInput,
  ContactRow,
  RetailerInfoInput,
  RetailerRow,
} from "./retailers";

/** Store Info: the retailer's own fields (never another retailer's). */
export async function updateStoreInfo(
  db: DbOrTx,
  retailerId: number,
  info: RetailerInfoInput,
): Promise<RetailerRow | null> {
  const rows = await db.update(retailers).set(info).where(eq(retailers.id, retailerId)).returning();
  return rows[0] ?? null;
}

/**
 * Contact Info: updates the retailer's contact (the one linked to `userId` when given, else its first
 * contact); creates one when the retailer has none.
 */
export async function updateContactInfo(
  db: Db,
  retailerId: number,
  who: { userId: number | null; email: string },
  input: ContactInput,
): Promise<ContactRow> {
  return db.transaction(async (tx) => {
    const mine =
      who.userId !== null
        ? await tx
            .select()
            .from(retailerContacts)
            .where(
              and(
                eq(retailerContacts.retailerId, retailerId),
                eq(retailerContacts.userId, who.userId),
              ),
            )
            .limit(1)
        : [];
    const existing =
      mine[0] ??
      (
        await tx
          .select()
          .from(retailerContacts)
          .where(eq(retailerContacts.retailerId, retailerId))
          .orderBy(asc(retailerContacts.id))
          .limit(1)
      )[0];
    if (existing) {
      const [row] = await tx
        .update(retailerContacts)
        .set(input)
        .where(eq(retailerContacts.id, existing.id))
        .returning();
      return row;
    }
    const [row] = await tx
      .insert(retailerContacts)
      .values({ ...input, retailerId, userId: who.userId, email: who.email })
      .returning();
    return row;
  });
}

/** ADD BRANDS: one brand request of the retailer, matched to its brand (a new name: an external brand for staff to validate). */
export async function createBrandRequestForRetailer(
  db: DbOrTx,
  retailerId: number,
  input: BrandRequestInput,
) {
  const [row] = await db
    .insert(brandRequests)
    .values({
      retailerId,
      brandName: input.brandName,
      brandId: input.brandId ?? (await brandForTypedName(db, input.brandName)),
      source: "request",
      brandPurchaseAmountCents: input.brandPurchaseAmountCents ?? null,
      yourInterestInThisBrand: input.yourInterestInThisBrand ?? [],
      brandContactEmail: input.brandContactEmail ?? "",
      brandContactName: input.brandContactName ?? "",
    })
    .returning();
  return row;
}

export async function listOwnBrandRequests(db: DbOrTx, retailerId: number) {
  return db
    .select()
    .from(brandRequests)
    .where(eq(brandRequests.retailerId, retailerId))
    .orderBy(desc(brandRequests.createdAt), desc(brandRequests.id));
}

// ---------------------------------------------------------------------------------------------------------
// Card on file (payment_methods keeps the provider's ids, the card type and the last four digits only).

export interface CardOnFile {
  description: string;
  lastFour: string;
  providerPaymentMethodId: string;
  providerCustomerId: string | null;
  createdAt: Date;
}

/** The retailer's default card, or null. */
export async function getCardOnFile(db: DbOrTx, retailerId: number): Promise<CardOnFile | null> {
  const [row] = await db
    .select({
      description: paymentMethods.description,
      lastFour: paymentMethods.lastFour,
      providerPaymentMethodId: paymentMethods.providerPaymentMethodId,
      providerCustomerId: paymentMethods.providerCustomerId,
      createdAt: paymentMethods.createdAt,
    })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.retailerId, retailerId), eq(paymentMethods.isDefault, true)))
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
    .limit(1);
  return row ?? null;
}

/** The provider customer the retailer's cards are attached to (from its latest card), or null. */
export async function getPaymentCustomerId(db: DbOrTx, retailerId: number): Promise<string | null> {
  const [row] = await db
    .select({ id: paymentMethods.providerCustomerId })
    .from(paymentMethods)
    .where(eq(paymentMethods.retailerId, retailerId))
    .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Records a saved card as the retailer's default (the others stop being default). Idempotent: the same
 * provider payment method is recorded once.
 */
export async function recordPaymentMethod(
  db: Db,
  input: {
    retailerId: number;
    providerPaymentMethodId: string;
    providerCustomerId: string | null;
    description: string;
    lastFour: string;
  },
): Promise<{ recorded: boolean }> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: retailers.id })
      .from(retailers)
      .where(eq(retailers.id, input.retailerId))
      .for("update");
    const [existing] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(
        and(
          eq(paymentMethods.retailerId, input.retailerId),
          eq(paymentMethods.providerPaymentMethodId, input.providerPaymentMethodId),
        ),
      )
      .limit(1);
    if (existing) return { recorded: false };
    const [row] = await tx
      .insert(paymentMethods)
      .values({
        retailerId: input.retailerId,
        providerPaymentMethodId: input.providerPaymentMethodId,
        providerCustomerId: input.providerCustomerId,
        description: input.description,
        lastFour: input.lastFour,
        isDefault: true,
      })
      .returning({ id: paymentMethods.id });
    await tx
      .update(paymentMethods)
      .set({ isDefault: false })
      .where(and(eq(paymentMethods.retailerId, input.retailerId), ne(paymentMethods.id, row.id)));
    return { recorded: true };
  });
}

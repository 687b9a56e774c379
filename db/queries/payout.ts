/**
 * Payout setup: the retailer's saved merchant details (payout_profiles, never a full account number or
 * tax id), the read model of each setup workflow (payout_setups) and the one transaction that records a
 * new connected account.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { payoutProfiles, payoutSetups, retailers } from "../schema";
import type { PayoutProfile } from "../../domain/payout";
import { activateListingsForRetailer } from "./listings";

export type PayoutProfileRow = typeof payoutProfiles.$inferSelect;
export type PayoutSetupRow = typeof payoutSetups.$inferSelect;

/** What payout_profiles keeps of a submitted form (defined by the domain: last four digits only). */
export type PayoutProfileInput = PayoutProfile;

export async function getPayoutProfile(
  db: DbOrTx,
  retailerId: number,
): Promise<PayoutProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutProfiles)
    .where(eq(payoutProfiles.retailerId, retailerId));
  return row;
}

export async function getPayoutSetup(
  db: DbOrTx,
  workflowId: string,
): Promise<PayoutSetupRow | undefined> {
  const [row] = await db.select().from(payoutSetups).where(eq(payoutSetups.workflowId, workflowId));
  return row;
}

export async function getLatestPayoutSetup(
  db: DbOrTx,
  retailerId: number,
): Promise<PayoutSetupRow | undefined> {
  const [row] = await db
    .select()
    .from(payoutSetups)
    .where(eq(payoutSetups.retailerId, retailerId))
    .orderBy(desc(payoutSetups.createdAt), desc(payoutSetups.id))
    .limit(1);
  return row;
}

/** The workflow has started (idempotent: a replayed or retried call keeps the first row). */
export async function markPayoutSetupStarted(
  db: DbOrTx,
  input: { retailerId: number; workflowId: string },
): Promise<void> {
  await db
    .insert(payoutSetups)
    .values({ retailerId: input.retailerId, workflowId: input.workflowId, status: "started" })
    .onConflictDoNothing({ target: payoutSetups.workflowId });
}

/** The setup failed with a user-facing reason. Never overwrites a completed setup. */
export async function markPayoutSetupFailed(
  db: DbOrTx,
  input: { retailerId: number; workflowId: string; error: string },
): Promise<void> {
  await db
    .insert(payoutSetups)
    .values({
      retailerId: input.retailerId,
      workflowId: input.workflowId,
      status: "failed",
      error: input.error,
      completedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: payoutSetups.workflowId,
      set: {
        status: "failed",
        error: input.error,
        completedAt: sql`coalesce(${payoutSetups.completedAt}, now())`,
      },
      setWhere: sql`${payoutSetups.status} <> 'done'`,
    });
}

export interface RecordPayoutAccountResult {
  /** false when this workflow's account had already been recorded (nothing changed). */
  recorded: boolean;
  listingsActivated: number;
}

/**
 * In ONE transaction: the retailer's bt_merchant_id, its payout profile, its listings payoutneeded →
 * active, and this setup marked done. Idempotent: a second call for the same workflow changes nothing.
 */
export async function recordPayoutAccount(
  db: Db,
  input: { retailerId: number; workflowId: string; accountId: string; profile: PayoutProfileInput },
): Promise<RecordPayoutAccountResult> {
  return db.transaction(async (tx) => {
    // Serialise with any concurrent recording for this retailer.
    const [retailer] = await tx
      .select({ id: retailers.id })
      .from(retailers)
      .where(eq(retailers.id, input.retailerId))
      .for("update");
    if (!retailer) throw new Error(`retailer ${input.retailerId} not found`);

    const existing = await getPayoutSetup(tx, input.workflowId);
    if (existing?.status === "done" && existing.accountId === input.accountId)
      return { recorded: false, listingsActivated: 0 };

    await tx
      .update(retailers)
      .set({ btMerchantId: input.accountId })
      .where(eq(retailers.id, input.retailerId));

    const p = input.profile;
    const values = {
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      dateOfBirth: p.dateOfBirth,
      streetAddress: p.streetAddress,
      locality: p.locality,
      region: p.region,
      postalCode: p.postalCode,
      buslegalName: p.buslegalName,
      bustaxIdLast4: p.bustaxIdLast4,
      busstreetAddress: p.busstreetAddress,
      buslocality: p.buslocality,
      busregion: p.busregion,
      buspostalCode: p.buspostalCode,
      accountLast4: p.accountLast4,
      routingNumber: p.routingNumber,
      tosAcceptedAt: new Date(p.tosAcceptedAt),
      updatedAt: new Date(),
    };
    await tx
      .insert(payoutProfiles)
      .values({ retailerId: input.retailerId, ...values })
      .onConflictDoUpdate({ target: payoutProfiles.retailerId, set: values });

    const listingsActivated = await activateListingsForRetailer(tx, input.retailerId);

    await tx
      .insert(payoutSetups)
      .values({
        retailerId: input.retailerId,
        workflowId: input.workflowId,
        status: "done",
        accountId: input.accountId,
        completedAt: new Date(),
      })
      .onConflictDoUpdate({
        target: payoutSetups.workflowId,
        set: { status: "done", accountId: input.accountId, error: null, completedAt: new Date() },
      });
    return { recorded: true, listingsActivated };
  });
}

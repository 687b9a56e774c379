import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import { recoveryCodes, signInChallenges, users } from "../schema";

/**
 * Two-factor sign-in (ADR 0041; docs/product/screens.md, "Two-factor sign-in"): the TOTP secret on the
 * user's row, the recovery codes (SHA-256 only) and the sign-ins waiting for their code.
 */

export type TwoFactorState = {
  secret: string | null;
  enabledAt: Date | null;
  lastStep: number | null;
};

export async function twoFactorState(db: Db, userId: number): Promise<TwoFactorState> {
  const rows = await db
    .select({
      secret: users.totpSecret,
      enabledAt: users.totpEnabledAt,
      lastStep: users.totpLastStep,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? { secret: null, enabledAt: null, lastStep: null };
}

/** Starts (or restarts) set-up: a new secret, not yet on. Refused (false) when two-factor is already on. */
export async function startTwoFactorSetup(
  db: Db,
  userId: number,
  secret: string,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpSecret: secret, totpLastStep: null })
    .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Accepts the code of `step` once: true when no code of this step or a later one was accepted before.
 * Two requests with the same code: one wins.
 */
export async function acceptTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Turns two-factor on (the set-up's secret confirmed) and stores the recovery codes' hashes, in one transaction. */
export async function enableTwoFactor(
  db: Db,
  userId: number,
  codeHashes: string[],
  at: Date = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ totpEnabledAt: at })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt), isNotNull(users.totpSecret)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
    return true;
  });
}

/** Turns two-factor off: the secret, the recovery codes and any waiting sign-in go. */
export async function disableTwoFactor(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await endUserSignInChallenges(tx, userId);
  });
}

/** Uses one recovery code: true when the user had it (it is gone afterwards, so it works once). */
export async function useRecoveryCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash)))
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
  return rows[0]?.n ?? 0;
}

/** A sign-in waiting for its code; the user's earlier waiting sign-ins and expired ones of anyone are dropped. */
export async function createSignInChallenge(
  db: Db,
  input: { tokenHash: string; userId: number; next: string | null; expiresAt: Date },
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(signInChallenges)
      .where(or(eq(signInChallenges.userId, input.userId), lt(signInChallenges.expiresAt, now)));
    await tx.insert(signInChallenges).values(input);
  });
}

/** The waiting sign-in of this token, unexpired, with its user's e-mail (null when absent or expired). */
export async function findSignInChallenge(
  db: Db,
  tokenHash: string,
  now: Date = new Date(),
): Promise<{ userId: number; email: string; isStaff: boolean; next: string | null } | null> {
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      isStaff: users.isStaff,
      next: signInChallenges.next,
    })
    .from(signInChallenges)
    .innerJoin(users, eq(signInChallenges.userId, users.id))
    .where(
      and(
        eq(signInChallenges.tokenHash, tokenHash),
        gt(signInChallenges.expiresAt, now),
        isNull(users.deactivatedAt),
        isNotNull(users.totpEnabledAt),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

/** Ends a waiting sign-in (its code was accepted, or it was abandoned). */
export async function endSignInChallenge(db: Db, tokenHash: string): Promise<void> {
  await db.delete(signInChallenges).where(eq(signInChallenges.tokenHash, tokenHash));
}

/** Ends every sign-in of the user waiting for its code (the password changed: who knew the old one starts over). */
export async function endUserSignInChallenges(db: Db, userId: number): Promise<void> {
  await db.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
}

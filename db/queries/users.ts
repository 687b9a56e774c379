import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { loginAttempts, passwordResetTokens, users } from "../schema";

export type UserRow = typeof users.$inferSelect;

/** E-mails are compared case-insensitively (unique index on lower(email)) and stored trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export type CreateUserResult = { ok: true; user: UserRow } | { ok: false; reason: "duplicate" };

/** Creates a user; an e-mail already registered (any case) gives { ok: false, reason: "duplicate" }. */
export async function createUser(
  db: Db,
  input: { email: string; passwordHash: string; isStaff?: boolean; retailerId?: number | null },
): Promise<CreateUserResult> {
  const rows = await db
    .insert(users)
    .values({
      email: normalizeEmail(input.email),
      passwordHash: input.passwordHash,
      isStaff: input.isStaff ?? false,
      retailerId: input.retailerId ?? null,
    })
    .onConflictDoNothing()
    .returning();
  const user = rows[0];
  return user ? { ok: true, user } : { ok: false, reason: "duplicate" };
}

export async function setUserPasswordHash(
  db: Db,
  userId: number,
  passwordHash: string,
): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function touchLastLogin(db: Db, userId: number, at: Date = new Date()): Promise<void> {
  await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, userId));
}

// ---------------------------------------------------------------------------------------------
// Password reset tokens (only the SHA-256 of the token is stored)

/** Stores a new token hash for the user; every earlier token of that user stops working. */
export async function replaceResetToken(
  db: Db,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    await tx.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });
  });
}

/** The user's reset token with this hash, still unused and unexpired at `now`. */
function usableToken(userId: number, tokenHash: string, now: Date) {
  return and(
    eq(passwordResetTokens.userId, userId),
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );
}

/** True when the token is unused, unexpired and belongs to the user (does not consume it). */
export async function isResetTokenUsable(
  db: Db,
  userId: number,
  tokenHash: string,
  now: Date = new Date(),
): Promise<boolean> {
  const rows = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(usableToken(userId, tokenHash, now))
    .limit(1);
  return rows.length === 1;
}

/**
 * Atomically marks the token used. Returns true for exactly one caller per token, and only while
 * the token is unused and unexpired.
 */
export async function consumeResetToken(
  db: Db,
  userId: number,
  tokenHash: string,
  now: Date = new Date(),
): Promise<boolean> {
  const rows = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(usableToken(userId, tokenHash, now))
    .returning({ id: passwordResetTokens.id });
  return rows.length === 1;
}

// ---------------------------------------------------------------------------------------------
// Sign-in attempts (throttling)

export async function recordLoginAttempt(
  db: Db,
  input: { email: string; ip: string; succeeded: boolean; at?: Date },
): Promise<void> {
  await db.insert(loginAttempts).values({
    email: normalizeEmail(input.email),
    ip: input.ip,
    succeeded: input.succeeded,
    attemptedAt: input.at ?? new Date(),
  });
}

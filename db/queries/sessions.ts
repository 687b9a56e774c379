import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { builtOnce } from "../built-once";
import type { Db } from "../client";
import { sessions, users } from "../schema";

export type SessionRow = typeof sessions.$inferSelect;

/** A session with what the app keeps of its user (never the password hash): read on every signed-in request. */
export interface SessionWithUser {
  session: Pick<
    SessionRow,
    "id" | "userId" | "expiresAt" | "actingRetailerId" | "actingBrandId" | "dismissedBanners"
  >;
  user: {
    id: number;
    email: string;
    isStaff: boolean;
    retailerId: number | null;
    twoFactor: boolean;
    /** The person's roles in its store (domain/teams.ts). */
    storeRoles: string[];
  };
}

export async function getSessionWithUser(
  db: Db,
  sessionId: string,
): Promise<SessionWithUser | null> {
  const query = builtOnce(db, "session_with_user", (pool) =>
    pool
      .select({
        session: {
          id: sessions.id,
          userId: sessions.userId,
          expiresAt: sessions.expiresAt,
          actingRetailerId: sessions.actingRetailerId,
          actingBrandId: sessions.actingBrandId,
          dismissedBanners: sessions.dismissedBanners,
        },
        user: {
          id: users.id,
          email: users.email,
          isStaff: users.isStaff,
          retailerId: users.retailerId,
          twoFactor: sql<boolean>`${users.totpEnabledAt} is not null`.as("two_factor"),
          storeRoles: users.storeRoles,
        },
      })
      .from(sessions)
      .innerJoin(users, eq(sessions.userId, users.id))
      // A deactivated account's sessions open nothing (docs/product/screens.md, "Staff users").
      .where(and(eq(sessions.id, sql.placeholder("sessionId")), isNull(users.deactivatedAt)))
      .prepare("session_with_user"),
  );
  const rows = await query.execute({ sessionId });
  return rows[0] ?? null;
}

/** Staff: the retailer (and optionally brand) to act as; both null = act as admin. */
export async function setActing(
  db: Db,
  sessionId: string,
  retailerId: number | null,
  brandId: number | null,
): Promise<void> {
  await db
    .update(sessions)
    .set({ actingRetailerId: retailerId, actingBrandId: retailerId === null ? null : brandId })
    .where(eq(sessions.id, sessionId));
}

/** Remembers a dismissed banner ("do this later") for this session only. Idempotent. */
export async function dismissBanner(db: Db, sessionId: string, key: string): Promise<void> {
  await db
    .update(sessions)
    .set({ dismissedBanners: sql`array_append(${sessions.dismissedBanners}, ${key})` })
    .where(and(eq(sessions.id, sessionId), sql`not (${key} = any(${sessions.dismissedBanners}))`));
}

export async function getSessionRow(db: Db, sessionId: string): Promise<SessionRow | null> {
  const rows = await db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  return rows[0] ?? null;
}

/** Ends every session of the user but one (a password or two-factor change in Settings; ADR 0041). */
export async function deleteOtherSessions(
  db: Db,
  userId: number,
  keepSessionId: string,
): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)));
}

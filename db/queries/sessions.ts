import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { sessions } from "../schema";

export type SessionRow = typeof sessions.$inferSelect;

/** Staff: the retailer (and optionally brand) to act as; both null = act as admin. */
export async function setActing(db: Db, sessionId: string, retailerId: number | null, brandId: number | null): Promise<void> {
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

export async function countUserSessions(db: Db, userId: number): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return rows[0]?.n ?? 0;
}

export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

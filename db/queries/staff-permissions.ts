import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { users } from "../schema";

/** A staff user's permissions map (resource names; ADR 0020). Empty for anyone else. */
export async function getAdminPermissions(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .select({ isStaff: users.isStaff, permissions: users.adminPermissions })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const row = rows[0];
  return row?.isStaff ? row.permissions : [];
}

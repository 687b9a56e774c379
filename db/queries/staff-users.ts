/**
 * Staff accounts (docs/product/screens.md, "Staff users"; ADR 0031): the list, one account with
 * its audit, the invitation, deactivation and the permissions map's grants and revokes. Every change runs in
 * one transaction that first locks the rows of the active holders of the staff-users right, checks that the
 * actor is one of them and that the change leaves one (domain/staff-users staffChangeRefusal), then writes the
 * change and its audit rows: two holders revoking each other at once cannot leave nobody holding it.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db, Tx, DbOrTx } from "../client";
import { staffUserChanges, users } from "../schema";
import {
  PERMISSION_NAMES,
  STAFF_MSG,
  STAFF_USERS_PERMISSION,
  staffChangeRefusal,
  type StaffChange,
} from "../../domain/staff-users";
import { normalizeEmail } from "./users";

export type StaffUserSummary = {
  id: number;
  email: string;
  permissions: string[];
  deactivatedAt: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
};

const summary = {
  id: users.id,
  email: users.email,
  permissions: users.adminPermissions,
  deactivatedAt: users.deactivatedAt,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

/** Every staff account, active ones first, then by e-mail. */
export async function listStaffUsers(db: DbOrTx): Promise<StaffUserSummary[]> {
  return db
    .select(summary)
    .from(users)
    .where(eq(users.isStaff, true))
    .orderBy(sql`${users.deactivatedAt} is not null`, users.email);
}

export async function getStaffUser(db: DbOrTx, id: number): Promise<StaffUserSummary | null> {
  const rows = await db
    .select(summary)
    .from(users)
    .where(and(eq(users.id, id), eq(users.isStaff, true)))
    .limit(1);
  return rows[0] ?? null;
}

export type StaffChangeRow = {
  id: number;
  action: string;
  permission: string | null;
  at: Date;
  actorEmail: string | null;
};

/** The audit of one staff account, newest first. */
export async function listStaffChanges(
  db: DbOrTx,
  userId: number,
  limit = 200,
): Promise<StaffChangeRow[]> {
  const actor = alias(users, "actor");
  return db
    .select({
      id: staffUserChanges.id,
      action: staffUserChanges.action,
      permission: staffUserChanges.permission,
      at: staffUserChanges.at,
      actorEmail: actor.email,
    })
    .from(staffUserChanges)
    .leftJoin(actor, eq(actor.id, staffUserChanges.actorId))
    .where(eq(staffUserChanges.userId, userId))
    .orderBy(desc(staffUserChanges.at), desc(staffUserChanges.id))
    .limit(limit);
}

/** The e-mails of the active staff users who hold the staff-users right (whom a staff user without grants asks). */
export async function listStaffAdmins(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.isStaff, true),
        isNull(users.deactivatedAt),
        sql`${STAFF_USERS_PERMISSION} = any(${users.adminPermissions})`,
      ),
    )
    .orderBy(users.email)
    .limit(20);
  return rows.map((r) => r.email);
}

/** A refusal of a change: the status the page answers and the message it shows. Nothing was written. */
export type StaffRefusal = { ok: false; status: 403 | 404 | 409; message: string };
export type StaffResult<T = object> = ({ ok: true } & T) | StaffRefusal;

const refuse = (status: StaffRefusal["status"], message: string): StaffRefusal => ({
  ok: false,
  status,
  message,
});

/** Locks the active holders of the right (their ids) for the rest of the transaction. */
async function lockHolders(tx: Tx): Promise<number[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isStaff, true),
        isNull(users.deactivatedAt),
        sql`${STAFF_USERS_PERMISSION} = any(${users.adminPermissions})`,
      ),
    )
    .orderBy(users.id)
    .for("update");
  return rows.map((r) => r.id);
}

async function audit(
  tx: Tx,
  rows: { userId: number; actorId: number; action: StaffChange; permission?: string | null }[],
) {
  if (rows.length > 0)
    await tx
      .insert(staffUserChanges)
      .values(rows.map((r) => ({ ...r, permission: r.permission ?? null })));
}

/** Runs `fn` in a transaction where the actor is checked to hold the right (else a 403, nothing written). */
function asStaffAdmin<T>(
  db: Db,
  actorId: number,
  fn: (tx: Tx, holders: number[]) => Promise<StaffResult<T>>,
): Promise<StaffResult<T>> {
  return db.transaction(async (tx) => {
    const holders = await lockHolders(tx);
    if (!holders.includes(actorId)) return refuse(403, STAFF_MSG.forbidden);
    return fn(tx, holders);
  });
}

async function lockTarget(tx: Tx, id: number) {
  const rows = await tx
    .select({
      id: users.id,
      permissions: users.adminPermissions,
      deactivatedAt: users.deactivatedAt,
      email: users.email,
      lastLoginAt: users.lastLoginAt,
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isStaff, true)))
    .for("update");
  return rows[0] ?? null;
}

/**
 * A new staff account with `permissions` (an unusable password until the user sets one through the link the
 * caller e-mails). A taken e-mail (any case, any kind of user) is a 409.
 */
export async function inviteStaffUser(
  db: Db,
  input: { actorId: number; email: string; permissions: readonly string[]; passwordHash: string },
): Promise<StaffResult<{ user: { id: number; email: string } }>> {
  return asStaffAdmin(db, input.actorId, async (tx) => {
    const rows = await tx
      .insert(users)
      .values({
        email: normalizeEmail(input.email),
        passwordHash: input.passwordHash,
        isStaff: true,
        adminPermissions: PERMISSION_NAMES.filter((p) => input.permissions.includes(p)),
      })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email });
    const user = rows[0];
    if (!user) return refuse(409, STAFF_MSG.emailTaken);
    await audit(tx, [
      { userId: user.id, actorId: input.actorId, action: "invited" },
      ...input.permissions.map((p) => ({
        userId: user.id,
        actorId: input.actorId,
        action: "granted" as const,
        permission: p,
      })),
    ]);
    return { ok: true, user };
  });
}

/**
 * Sets the target's permissions map to `permissions`: one audit row per entry granted or revoked. Refused:
 * the actor's own staff-users right, the last holder's, a deactivated or unknown account.
 */
export async function setStaffPermissions(
  db: Db,
  input: { actorId: number; targetId: number; permissions: readonly string[] },
): Promise<StaffResult<{ granted: string[]; revoked: string[] }>> {
  return asStaffAdmin(db, input.actorId, async (tx, holders) => {
    const target = await lockTarget(tx, input.targetId);
    if (!target) return refuse(404, STAFF_MSG.noSuchUser);
    const after = PERMISSION_NAMES.filter((p) => input.permissions.includes(p));
    const refusal = staffChangeRefusal({
      actorId: input.actorId,
      targetId: target.id,
      holders,
      targetAfter: after,
    });
    if (refusal) return refuse(409, refusal);
    const granted = after.filter((p) => !target.permissions.includes(p));
    const revoked = target.permissions.filter((p) => !after.includes(p));
    if (granted.length + revoked.length === 0) return { ok: true, granted, revoked };
    await tx.update(users).set({ adminPermissions: after }).where(eq(users.id, target.id));
    await audit(tx, [
      ...granted.map((p) => ({
        userId: target.id,
        actorId: input.actorId,
        action: "granted" as const,
        permission: p,
      })),
      ...revoked.map((p) => ({
        userId: target.id,
        actorId: input.actorId,
        action: "revoked" as const,
        permission: p,
      })),
    ]);
    return { ok: true, granted, revoked };
  });
}

/** Deactivates (active = false) or reactivates an account. Refused: oneself, the last holder of the right. */
export async function setStaffActive(
  db: Db,
  input: { actorId: number; targetId: number; active: boolean; at?: Date },
): Promise<StaffResult<{ email: string }>> {
  return asStaffAdmin(db, input.actorId, async (tx, holders) => {
    const target = await lockTarget(tx, input.targetId);
    if (!target) return refuse(404, STAFF_MSG.noSuchUser);
    if (input.active && target.deactivatedAt === null) return refuse(409, STAFF_MSG.alreadyActive);
    if (!input.active && target.deactivatedAt !== null)
      return refuse(409, STAFF_MSG.alreadyInactive);
    if (!input.active) {
      const refusal = staffChangeRefusal({
        actorId: input.actorId,
        targetId: target.id,
        holders,
        targetAfter: null,
      });
      if (refusal) return refuse(409, refusal);
    }
    await tx
      .update(users)
      .set({ deactivatedAt: input.active ? null : (input.at ?? new Date()) })
      .where(eq(users.id, target.id));
    await audit(tx, [
      {
        userId: target.id,
        actorId: input.actorId,
        action: input.active ? "reactivated" : "deactivated",
      },
    ]);
    return { ok: true, email: target.email };
  });
}

/** Records that the actor sent the account a password e-mail (the caller sends it). Refused for a deactivated one. */
export async function noteStaffResetSent(
  db: Db,
  input: { actorId: number; targetId: number },
): Promise<StaffResult<{ user: { id: number; email: string }; signedInBefore: boolean }>> {
  return asStaffAdmin(db, input.actorId, async (tx) => {
    const target = await lockTarget(tx, input.targetId);
    if (!target) return refuse(404, STAFF_MSG.noSuchUser);
    if (target.deactivatedAt !== null) return refuse(409, STAFF_MSG.deactivatedNoReset);
    await audit(tx, [{ userId: target.id, actorId: input.actorId, action: "reset_sent" }]);
    return {
      ok: true,
      user: { id: target.id, email: target.email },
      signedInBefore: target.lastLoginAt !== null,
    };
  });
}

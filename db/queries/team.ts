/**
 * A store's team (docs/product/teams.md; domain/teams.ts): its people with their roles, the owner's
 * invitations (kept as the SHA-256 of the link's token, the e-mail written in the same transaction), an
 * invitation accepted once into an account of the store, and a member removed at once (the account deactivated,
 * so it signs in no more, and its sessions deleted).
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, gte, isNull, lte, notInArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { dbErrorCode } from "../errors";
import { orders, retailers, sessions, storeInvitations, users } from "../schema";
import { insertOutboxEmail, type NewOutboxEmail } from "./outbox";
import { findUserByEmail, normalizeEmail } from "./users";
import { BUY_STATES, COMMON_STATES, TRANSACTION_TYPE } from "../../domain/states";
import {
  INVITATION_DAYS,
  monthStart,
  storeApprovalNeeds,
  TEAM_MSG,
  type InvitedRole,
  type MemberLimits,
  type StoreApprovalNeed,
} from "../../domain/teams";
import { secretHash } from "../secret-hash";

const hashOf = secretHash;

export interface TeamMember {
  userId: number;
  email: string;
  roles: string[];
  removedAt: Date | null;
  lastLoginAt: Date | null;
  orderLimitCents: number | null;
  monthLimitCents: number | null;
}

export interface WaitingInvitation {
  id: number;
  email: string;
  roles: string[];
  expiresAt: Date;
}

/** The store's people (owners first, then by address; removed ones last) and its waiting invitations. */
export async function listTeam(
  db: DbOrTx,
  retailerId: number,
  now: Date = new Date(),
): Promise<{ members: TeamMember[]; invitations: WaitingInvitation[] }> {
  const members = await db
    .select({
      userId: users.id,
      email: users.email,
      roles: users.storeRoles,
      removedAt: users.deactivatedAt,
      lastLoginAt: users.lastLoginAt,
      orderLimitCents: users.buyLimitOrderCents,
      monthLimitCents: users.buyLimitMonthCents,
    })
    .from(users)
    .where(and(eq(users.retailerId, retailerId), eq(users.isStaff, false)))
    .orderBy(
      sql`${users.deactivatedAt} is not null`,
      sql`not ('owner' = any(${users.storeRoles}))`,
      asc(users.email),
    );
  const invitations = await db
    .select({
      id: storeInvitations.id,
      email: storeInvitations.email,
      roles: storeInvitations.roles,
      expiresAt: storeInvitations.expiresAt,
    })
    .from(storeInvitations)
    .where(waiting(retailerId, now))
    .orderBy(asc(storeInvitations.id));
  return { members, invitations };
}

/** Not used, not revoked, not expired. */
const usable = (now: Date) =>
  and(
    isNull(storeInvitations.acceptedAt),
    isNull(storeInvitations.revokedAt),
    gt(storeInvitations.expiresAt, now),
  );
const waiting = (retailerId: number, now: Date) =>
  and(eq(storeInvitations.retailerId, retailerId), usable(now));

export type TeamResult = { ok: true } | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * The owner invites `email` with `roles`: the invitation and its e-mail (`mail`, given
 * the token) in one transaction. Refused: an address already in the team, or with an account of another store,
 * or already invited (and still waiting).
 */
export async function inviteMember(
  db: Db,
  input: {
    retailerId: number;
    invitedBy: number;
    email: string;
    roles: InvitedRole[];
    mail: (token: string) => NewOutboxEmail;
    now?: Date;
  },
): Promise<TeamResult> {
  const now = input.now ?? new Date();
  // Kept as every account's address is (db/queries/users.ts normalizeEmail), so the account it becomes is too.
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(db, email);
  if (existing)
    return {
      ok: false,
      status: 409,
      message:
        existing.retailerId === input.retailerId ? TEAM_MSG.alreadyMember : TEAM_MSG.emailTaken,
    };
  const token = randomBytes(32).toString("base64url");
  try {
    await db.transaction(async (tx) => {
      // An expired invitation to the address no longer waits: revoked, so the new one may.
      await tx
        .update(storeInvitations)
        .set({ revokedAt: now })
        .where(
          and(
            eq(storeInvitations.retailerId, input.retailerId),
            sql`lower(${storeInvitations.email}) = ${email}`,
            isNull(storeInvitations.acceptedAt),
            isNull(storeInvitations.revokedAt),
            lte(storeInvitations.expiresAt, now),
          ),
        );
      await tx.insert(storeInvitations).values({
        retailerId: input.retailerId,
        email,
        roles: input.roles,
        tokenHash: hashOf(token),
        invitedBy: input.invitedBy,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000),
      });
      await insertOutboxEmail(tx, input.mail(token));
    });
  } catch (e) {
    if (dbErrorCode(e) === "23505")
      return { ok: false, status: 409, message: TEAM_MSG.alreadyInvited };
    throw e;
  }
  return { ok: true };
}

/** A waiting invitation by its link's token, with its store's name; null when unknown, used, revoked or expired. */
export async function findInvitation(
  db: DbOrTx,
  token: string,
  now: Date = new Date(),
): Promise<{ id: number; email: string; storeName: string; roles: string[] } | null> {
  const [row] = await db
    .select({
      id: storeInvitations.id,
      email: storeInvitations.email,
      roles: storeInvitations.roles,
      storeName: retailers.storeName,
    })
    .from(storeInvitations)
    .innerJoin(retailers, eq(retailers.id, storeInvitations.retailerId))
    .where(and(eq(storeInvitations.tokenHash, hashOf(token)), usable(now)));
  return row ? { id: row.id, email: row.email, storeName: row.storeName, roles: row.roles } : null;
}

/**
 * The invited person sets a password: an account of the store with the invitation's roles, the
 * invitation used. Once: a second acceptance (or an address that got an account meanwhile) is refused.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; passwordHash: string; now?: Date },
): Promise<{ ok: true; userId: number } | { ok: false; status: 404 | 409; message: string }> {
  const now = input.now ?? new Date();
  try {
    return await db.transaction(async (tx) => {
      const [inv] = await tx
        .update(storeInvitations)
        .set({ acceptedAt: now })
        .where(and(eq(storeInvitations.tokenHash, hashOf(input.token)), usable(now)))
        .returning();
      if (!inv) return { ok: false, status: 404, message: TEAM_MSG.invitationGone } as const;
      const [user] = await tx
        .insert(users)
        .values({
          email: inv.email,
          passwordHash: input.passwordHash,
          retailerId: inv.retailerId,
          storeRoles: inv.roles,
          invitedBy: inv.invitedBy,
        })
        .returning({ id: users.id });
      return { ok: true, userId: user.id } as const;
    });
  } catch (e) {
    if (dbErrorCode(e) === "23505") return { ok: false, status: 409, message: TEAM_MSG.emailTaken };
    throw e;
  }
}

/**
 * The owner removes a member at once: the account is deactivated (it signs in no more; the orders it placed keep
 * its name) and every session of it is deleted. The owner cannot be removed.
 */
export async function removeMember(
  db: Db,
  input: { retailerId: number; userId: number; now?: Date },
): Promise<TeamResult> {
  return db.transaction(async (tx) => {
    const [member] = await tx
      .select({ roles: users.storeRoles, removedAt: users.deactivatedAt })
      .from(users)
      .where(
        and(
          eq(users.id, input.userId),
          eq(users.retailerId, input.retailerId),
          eq(users.isStaff, false),
        ),
      )
      .for("update");
    if (!member || member.removedAt)
      return { ok: false, status: 404, message: TEAM_MSG.notMember } as const;
    if (member.roles.includes("owner"))
      return { ok: false, status: 409, message: TEAM_MSG.lastOwner } as const;
    await tx
      .update(users)
      .set({ deactivatedAt: input.now ?? new Date() })
      .where(eq(users.id, input.userId));
    await tx.delete(sessions).where(eq(sessions.userId, input.userId));
    return { ok: true } as const;
  });
}

/** The owner withdraws a waiting invitation (its link stops working). */
export async function revokeInvitation(
  db: Db,
  input: { retailerId: number; invitationId: number; now?: Date },
): Promise<TeamResult> {
  const rows = await db
    .update(storeInvitations)
    .set({ revokedAt: input.now ?? new Date() })
    .where(
      and(
        eq(storeInvitations.id, input.invitationId),
        eq(storeInvitations.retailerId, input.retailerId),
        isNull(storeInvitations.acceptedAt),
        isNull(storeInvitations.revokedAt),
      ),
    )
    .returning({ id: storeInvitations.id });
  return rows.length ? { ok: true } : { ok: false, status: 404, message: TEAM_MSG.invitationGone };
}

// ---------------------------------------------------------------------------------------------------------
// A buyer's limits and the store's approval (docs/product/teams.md, "Limits and approval").

/** The owner sets a member's limits (null: none). An owner has none: its limits are not kept. */
export async function setMemberLimits(
  db: DbOrTx,
  retailerId: number,
  limits: MemberLimits,
): Promise<TeamResult> {
  const rows = await db
    .update(users)
    .set({ buyLimitOrderCents: limits.orderLimit, buyLimitMonthCents: limits.monthLimit })
    .where(
      and(
        eq(users.id, limits.userId),
        eq(users.retailerId, retailerId),
        eq(users.isStaff, false),
        isNull(users.deactivatedAt),
        sql`not ('owner' = any(${users.storeRoles}))`,
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1 ? { ok: true } : { ok: false, status: 404, message: TEAM_MSG.notMember };
}

/** Purchases that count toward a month's limit: every state but those that ended without money taken. */
const NOT_SPENT = [
  BUY_STATES.COMPLETE_ORDER_CHECKOUT,
  COMMON_STATES.DECLINED,
  COMMON_STATES.EXPIRED,
  COMMON_STATES.CANCELLED,
];

/** What `userId` placed (purchases checked out, not declined, expired or cancelled) since `since`, in cents. */
export async function monthSpentBy(db: DbOrTx, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${orders.receiverGrandTotalCents}), 0)` })
    .from(orders)
    .where(
      and(
        eq(orders.placedByUserId, userId),
        eq(orders.transactionType, TRANSACTION_TYPE.SALE),
        gte(orders.createdAt, since),
        notInArray(orders.statename, NOT_SPENT),
      ),
    );
  return Number(row?.cents ?? 0);
}

/**
 * Which of the orders `userId` checks out now (in order, with their totals) wait for an approver of its store:
 * its roles and limits, and what it placed this month in the marketplace's zone. Null for each when it has no
 * limits (owners, staff, a member without limits).
 */
export async function storeApprovalsFor(
  db: DbOrTx,
  userId: number,
  totals: readonly number[],
  opts: { now?: number; timeZone: string },
): Promise<(StoreApprovalNeed | null)[]> {
  const [u] = await db
    .select({
      roles: users.storeRoles,
      isStaff: users.isStaff,
      orderLimitCents: users.buyLimitOrderCents,
      monthLimitCents: users.buyLimitMonthCents,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!u || u.isStaff || (u.orderLimitCents === null && u.monthLimitCents === null))
    return totals.map(() => null);
  const since = monthStart(opts.now ?? Date.now(), opts.timeZone);
  const spent = u.monthLimitCents === null ? 0 : await monthSpentBy(db, userId, new Date(since));
  return storeApprovalNeeds(u.roles, u, spent, totals);
}

/**
 * A store's team in the database (db/queries/team.ts; docs/product/teams.md): the store's first user is its
 * owner (so every store of before is a store with one owner); an invitation and its e-mail written together, its
 * token kept hashed; the refusals (an address of the team, of another store, already invited) write nothing; an
 * invitation accepted once into an account with its roles; a member removed at once (deactivated, its
 * sessions deleted), never the owner.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  acceptInvitation,
  findInvitation,
  inviteMember,
  listTeam,
  removeMember,
  revokeInvitation,
  setMemberLimits,
  storeApprovalsFor,
} from "../../db/queries/team";
import { getOrderDetail } from "../../db/queries/order-views/order-detail";
import { orders, outboxEmails, sessions, storeInvitations, users } from "../../db/schema";
import { TEAM_MSG } from "../../domain/teams";
import { createRetailer, createWorld } from "../factories";
import { createOrderAt } from "../factories/orders";
import { uniqueToken } from "../factories/util";
import { useTestDb } from "./helpers";

const db = useTestDb(3);

async function store() {
  const r = await createRetailer(db);
  return { retailerId: r.retailer.id, owner: r.user!.id, ownerEmail: r.user!.email };
}

/** The owner invites `email`; the token the e-mail carried is kept in `sent`. */
async function invite(
  s: Awaited<ReturnType<typeof store>>,
  email: string,
  over: Partial<Parameters<typeof inviteMember>[1]> = {},
) {
  const sent: string[] = [];
  const result = await inviteMember(db, {
    retailerId: s.retailerId,
    invitedBy: s.owner,
    email,
    roles: ["buyer"],
    mail: (token) => {
      sent.push(token);
      return {
        toEmail: email,
        subject: "You are invited",
        bodyText: `Join: http://x/join/${token}`,
        kind: "team_invitation",
        dedupeKey: `team-invite:${token}`,
      };
    },
    ...over,
  });
  return { result, token: sent[0] };
}

const invitationRows = (retailerId: number) =>
  db.select().from(storeInvitations).where(eq(storeInvitations.retailerId, retailerId));

describe("a store's team", () => {
  it("the store's first user is its owner", async () => {
    const s = await store();
    const { members, invitations } = await listTeam(db, s.retailerId);
    expect(members).toEqual([
      expect.objectContaining({
        userId: s.owner,
        roles: ["owner"],
        removedAt: null,
      }),
    ]);
    expect(invitations).toEqual([]);
  });

  it("an invitation: its e-mail in the same write, its token kept hashed, accepted once into a member", async () => {
    const s = await store();
    const email = `buyer-${uniqueToken()}@example.test`;
    const { result, token } = await invite(s, email);
    expect(result).toEqual({ ok: true });
    const [row] = await invitationRows(s.retailerId);
    expect(row.tokenHash).not.toContain(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const mails = await db.select().from(outboxEmails).where(eq(outboxEmails.toEmail, email));
    expect(mails.map((m) => m.bodyText)).toEqual([`Join: http://x/join/${token}`]);
    expect(await findInvitation(db, token)).toMatchObject({ email, roles: ["buyer"] });
    expect(await findInvitation(db, "not-a-token")).toBeNull();

    const accepted = await acceptInvitation(db, { token, passwordHash: "hash" });
    if (!accepted.ok) throw new Error(accepted.message);
    const [member] = await db.select().from(users).where(eq(users.id, accepted.userId));
    expect(member).toMatchObject({
      email,
      retailerId: s.retailerId,
      storeRoles: ["buyer"],
      invitedBy: s.owner,
    });
    // Once.
    expect(await acceptInvitation(db, { token, passwordHash: "hash" })).toEqual({
      ok: false,
      status: 404,
      message: TEAM_MSG.invitationGone,
    });
    expect(await findInvitation(db, token)).toBeNull();
    expect((await listTeam(db, s.retailerId)).members.map((m) => m.roles)).toEqual([
      ["owner"],
      ["buyer"],
    ]);
  });

  it("keeps an invited address as every account's is (lower case), so the account it becomes is too", async () => {
    const s = await store();
    const email = `Mixed-${uniqueToken()}@Example.TEST`;
    const { token } = await invite(s, email);
    expect((await findInvitation(db, token))?.email).toBe(email.toLowerCase());
    const accepted = await acceptInvitation(db, { token, passwordHash: "hash" });
    if (!accepted.ok) throw new Error(accepted.message);
    const [member] = await db.select().from(users).where(eq(users.id, accepted.userId));
    expect(member.email).toBe(email.toLowerCase());
  });

  it("refuses an address of the team, of another store, or already invited, writing nothing", async () => {
    const s = await store();
    const other = await store();
    const email = `twice-${uniqueToken()}@example.test`;
    expect((await invite(s, email)).result).toEqual({ ok: true });
    expect((await invite(s, email.toUpperCase())).result).toEqual({
      ok: false,
      status: 409,
      message: TEAM_MSG.alreadyInvited,
    });
    expect((await invite(s, s.ownerEmail)).result).toEqual({
      ok: false,
      status: 409,
      message: TEAM_MSG.alreadyMember,
    });
    expect((await invite(s, other.ownerEmail)).result).toEqual({
      ok: false,
      status: 409,
      message: TEAM_MSG.emailTaken,
    });
    expect(await invitationRows(s.retailerId)).toHaveLength(1);
    // One e-mail: the first invitation's.
    expect(
      await db
        .select()
        .from(outboxEmails)
        .where(sql`lower(${outboxEmails.toEmail}) = lower(${email})`),
    ).toHaveLength(1);
  });

  it("an expired invitation cannot be accepted and no longer blocks a new one; a revoked one stops working", async () => {
    const s = await store();
    const email = `late-${uniqueToken()}@example.test`;
    const long = new Date(Date.now() - 8 * 86_400_000);
    const old = await invite(s, email, { now: long });
    expect(await acceptInvitation(db, { token: old.token, passwordHash: "h" })).toMatchObject({
      ok: false,
      status: 404,
    });
    const fresh = await invite(s, email);
    expect(fresh.result).toEqual({ ok: true });
    const [waiting] = (await listTeam(db, s.retailerId)).invitations;
    expect(
      await revokeInvitation(db, { retailerId: s.retailerId, invitationId: waiting.id }),
    ).toEqual({
      ok: true,
    });
    expect(await findInvitation(db, fresh.token)).toBeNull();
    // Another store cannot revoke it.
    const other = await store();
    expect(
      await revokeInvitation(db, { retailerId: other.retailerId, invitationId: waiting.id }),
    ).toMatchObject({ ok: false, status: 404 });
  });

  it("a member removed at once: deactivated, its sessions gone; never the owner, never another store's", async () => {
    const s = await store();
    const email = `gone-${uniqueToken()}@example.test`;
    const { token } = await invite(s, email, { roles: ["lister"] });
    const accepted = await acceptInvitation(db, { token, passwordHash: "h" });
    if (!accepted.ok) throw new Error(accepted.message);
    await db.insert(sessions).values({
      id: `s-${uniqueToken()}`,
      userId: accepted.userId,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const other = await store();
    expect(
      await removeMember(db, { retailerId: other.retailerId, userId: accepted.userId }),
    ).toEqual({
      ok: false,
      status: 404,
      message: TEAM_MSG.notMember,
    });
    expect(await removeMember(db, { retailerId: s.retailerId, userId: s.owner })).toEqual({
      ok: false,
      status: 409,
      message: TEAM_MSG.lastOwner,
    });
    expect(await removeMember(db, { retailerId: s.retailerId, userId: accepted.userId })).toEqual({
      ok: true,
    });
    const [row] = await db.select().from(users).where(eq(users.id, accepted.userId));
    expect(row.deactivatedAt).not.toBeNull();
    expect(
      await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, accepted.userId))),
    ).toEqual([]);
    const { members } = await listTeam(db, s.retailerId);
    expect(members.at(-1)).toMatchObject({ userId: accepted.userId, removedAt: expect.any(Date) });
  });
});

describe("who placed an order, and who approved it", () => {
  it("show to the placing store and staff, never to the other retailer", async () => {
    const buyer = await store();
    const seller = await store();
    const approver = await member(buyer.retailerId, ["approver"]);
    const order = await createOrderAt(db, "provider_approve_sale", {
      providerId: seller.retailerId,
      receiverId: buyer.retailerId,
      lines: [
        { variationId: (await createWorld(db)).products[0].variations[0].id, sizes: { M: 1 } },
      ],
    });
    const seen = async (viewer: { retailerId: number | null; isStaff: boolean }) => {
      const d = await getOrderDetail(db, order.order.id, viewer);
      return [d?.placedBy, d?.placedByUserId, d?.approvedBy];
    };
    // Placed by the owner, no approval needed.
    await db
      .update(orders)
      .set({ placedByUserId: buyer.owner })
      .where(eq(orders.id, order.order.id));
    const placed = [buyer.ownerEmail, buyer.owner, null];
    expect(await seen({ retailerId: buyer.retailerId, isStaff: false })).toEqual(placed);
    expect(await seen({ retailerId: seller.retailerId, isStaff: false })).toEqual([
      null,
      null,
      null,
    ]);
    expect(await seen({ retailerId: null, isStaff: true })).toEqual(placed);
    // Approved over the placer's limit by an approver of the store.
    await db
      .update(orders)
      .set({ approvedByUserId: approver.id })
      .where(eq(orders.id, order.order.id));
    const approved = [buyer.ownerEmail, buyer.owner, approver.email];
    expect(await seen({ retailerId: buyer.retailerId, isStaff: false })).toEqual(approved);
    expect(await seen({ retailerId: seller.retailerId, isStaff: false })).toEqual([
      null,
      null,
      null,
    ]);
    expect(await seen({ retailerId: null, isStaff: true })).toEqual(approved);
  });
});

/** A person of the store with `roles` (as an accepted invitation makes one). */
async function member(retailerId: number, roles: string[]) {
  const email = `member-${uniqueToken()}@example.test`;
  const [u] = await db
    .insert(users)
    .values({ email, passwordHash: "x", retailerId, storeRoles: roles })
    .returning();
  return u;
}

describe("a buyer's limits (docs/product/teams.md, 'Limits and approval')", () => {
  it("the owner sets a member's limits; never an owner's, a removed member's or another store's", async () => {
    const s = await store();
    const other = await store();
    const buyer = await member(s.retailerId, ["buyer"]);
    expect(
      await setMemberLimits(db, s.retailerId, {
        userId: buyer.id,
        orderLimit: 50_000,
        monthLimit: null,
      }),
    ).toEqual({ ok: true });
    const refused = { ok: false, status: 404, message: TEAM_MSG.notMember };
    const limits = { orderLimit: 1, monthLimit: 1 };
    expect(await setMemberLimits(db, s.retailerId, { userId: s.owner, ...limits })).toEqual(
      refused,
    );
    expect(await setMemberLimits(db, other.retailerId, { userId: buyer.id, ...limits })).toEqual(
      refused,
    );
    const { members } = await listTeam(db, s.retailerId);
    expect(members.map((m) => [m.roles, m.orderLimitCents, m.monthLimitCents])).toEqual([
      [["owner"], null, null],
      [["buyer"], 50_000, null],
    ]);
  });

  it("what a person placed this month counts toward its monthly limit; ended orders and last month do not", async () => {
    const s = await store();
    const seller = await store();
    const buyer = await member(s.retailerId, ["buyer"]);
    await setMemberLimits(db, s.retailerId, {
      userId: buyer.id,
      orderLimit: null,
      monthLimit: 100_000,
    });
    const variationId = (await createWorld(db)).products[0].variations[0].id;
    const now = Date.parse("2026-11-20T15:00:00Z");
    const placed = async (statename: string, totalCents: number, createdAt: string) => {
      const o = await createOrderAt(db, statename, {
        providerId: seller.retailerId,
        receiverId: s.retailerId,
        lines: [{ variationId, sizes: { M: 1 } }],
      });
      await db
        .update(orders)
        .set({
          placedByUserId: buyer.id,
          receiverGrandTotalCents: totalCents,
          createdAt: new Date(createdAt),
        })
        .where(eq(orders.id, o.order.id));
    };
    await placed("ship_order", 40_000, "2026-11-02T12:00:00Z"); // counts
    await placed("store_approve_purchase", 20_000, "2026-11-10T12:00:00Z"); // counts: waiting
    await placed("declined", 90_000, "2026-11-11T12:00:00Z"); // ended without money
    await placed("completed", 90_000, "2026-10-31T12:00:00Z"); // 31 October in New York: last month
    const needs = (totals: number[]) =>
      storeApprovalsFor(db, buyer.id, totals, { now, timeZone: "America/New_York" });
    // 60,000 spent: 40,000 more reaches the limit exactly; a second order of 1 cent goes over it.
    expect(await needs([40_000, 1])).toEqual([
      null,
      { reason: "month_limit", limitCents: 100_000 },
    ]);
    // The owner and a member without limits never wait.
    expect(
      await storeApprovalsFor(db, s.owner, [10 ** 8], { now, timeZone: "America/New_York" }),
    ).toEqual([null]);
  });
});

/**
 * Staff accounts (db/queries/staff-users.ts; docs/product/screens.md, "Staff users"): each change writes its
 * audit rows (who, when, what) in the transaction that makes it; the rules hold in the database: the actor
 * must hold the staff-users right, nobody removes their own, and two holders revoking each other at once
 * leave one holder (the second is refused because it no longer holds the right). A refusal writes nothing.
 */
import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getSessionWithUser } from "../../db/queries/sessions";
import { getAdminPermissions } from "../../db/queries/staff-permissions";
import {
  inviteStaffUser,
  listStaffAdmins,
  listStaffChanges,
  setStaffActive,
  setStaffPermissions,
} from "../../db/queries/staff-users";
import { sessions, staffUserChanges, users } from "../../db/schema";
import { RESOURCE_NAMES } from "../../domain/resources";
import { STAFF_MSG, STAFF_USERS_PERMISSION, staffChangeRefusal } from "../../domain/staff-users";
import { createStaffUser, uniqueToken } from "../factories";
import { useTestDb } from "./helpers";

const db = useTestDb();

const ADMIN = [...RESOURCE_NAMES, STAFF_USERS_PERMISSION];
const admin = () => createStaffUser(db, { permissions: ADMIN, passwordHash: "x" });
const plain = (permissions: string[] = ["brand"]) =>
  createStaffUser(db, { permissions, passwordHash: "x" });

async function auditOf(userId: number) {
  return db
    .select()
    .from(staffUserChanges)
    .where(eq(staffUserChanges.userId, userId))
    .orderBy(staffUserChanges.id);
}

async function stateOf(userId: number) {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return { permissions: u.adminPermissions, deactivatedAt: u.deactivatedAt };
}

describe("staff users", () => {
  it("an invitation creates a staff account with its permissions, audited as invited + one grant each; a taken e-mail is a 409", async () => {
    const a = await admin();
    const email = `Invited-${uniqueToken()}@Example.test`;
    const res = await inviteStaffUser(db, {
      actorId: a.id,
      email,
      permissions: ["listing", "brand"],
      passwordHash: "x",
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.user.email).toBe(email.toLowerCase());
    const [u] = await db.select().from(users).where(eq(users.id, res.user.id));
    expect(u.isStaff).toBe(true);
    expect(u.adminPermissions).toEqual(["brand", "listing"]);
    const rows = await auditOf(res.user.id);
    expect(rows.map((r) => [r.actorId, r.action, r.permission])).toEqual([
      [a.id, "invited", null],
      [a.id, "granted", "listing"],
      [a.id, "granted", "brand"],
    ]);
    const again = await inviteStaffUser(db, {
      actorId: a.id,
      email: email.toUpperCase(),
      permissions: [],
      passwordHash: "x",
    });
    expect(again).toEqual({ ok: false, status: 409, message: STAFF_MSG.emailTaken });
  });

  it("grant and revoke write one audit row each, newest first on the page; saving the same map writes nothing", async () => {
    const a = await admin();
    const t = await plain(["brand", "listing"]);
    const res = await setStaffPermissions(db, {
      actorId: a.id,
      targetId: t.id,
      permissions: ["brand", "retailer"],
    });
    expect(res).toEqual({ ok: true, granted: ["retailer"], revoked: ["listing"] });
    expect(await getAdminPermissions(db, t.id)).toEqual(["brand", "retailer"]);
    const changes = await listStaffChanges(db, t.id);
    expect(changes.map((c) => [c.actorEmail, c.action, c.permission])).toEqual([
      [a.email, "revoked", "listing"],
      [a.email, "granted", "retailer"],
    ]);
    expect(changes[0].at).toBeInstanceOf(Date);
    const same = await setStaffPermissions(db, {
      actorId: a.id,
      targetId: t.id,
      permissions: ["retailer", "brand"],
    });
    expect(same).toEqual({ ok: true, granted: [], revoked: [] });
    expect(await auditOf(t.id)).toHaveLength(2);
  });

  it("a staff user without the right is refused (403) and nothing changes", async () => {
    const forger = await plain(RESOURCE_NAMES);
    const t = await plain(["brand"]);
    const before = await stateOf(t.id);
    expect(
      await setStaffPermissions(db, { actorId: forger.id, targetId: t.id, permissions: ADMIN }),
    ).toEqual({
      ok: false,
      status: 403,
      message: STAFF_MSG.forbidden,
    });
    expect(
      await setStaffActive(db, { actorId: forger.id, targetId: t.id, active: false }),
    ).toMatchObject({ ok: false, status: 403 });
    const invited = await inviteStaffUser(db, {
      actorId: forger.id,
      email: `forged-${uniqueToken()}@example.test`,
      permissions: [],
      passwordHash: "x",
    });
    expect(invited).toMatchObject({ ok: false, status: 403 });
    expect(await stateOf(t.id)).toEqual(before);
    expect(await auditOf(t.id)).toEqual([]);
  });

  it("nobody removes their own staff-users right or deactivates themselves (409, nothing written); other entries of their own may change", async () => {
    const a = await admin();
    const before = await stateOf(a.id);
    const revoke = await setStaffPermissions(db, {
      actorId: a.id,
      targetId: a.id,
      permissions: ["brand"],
    });
    expect(revoke).toEqual({ ok: false, status: 409, message: STAFF_MSG.selfRevoke });
    const off = await setStaffActive(db, { actorId: a.id, targetId: a.id, active: false });
    expect(off).toEqual({ ok: false, status: 409, message: STAFF_MSG.selfDeactivate });
    expect(await stateOf(a.id)).toEqual(before);
    expect(await auditOf(a.id)).toEqual([]);
    const trimmed = await setStaffPermissions(db, {
      actorId: a.id,
      targetId: a.id,
      permissions: [STAFF_USERS_PERMISSION, "brand"],
    });
    expect(trimmed.ok).toBe(true);
    expect(await getAdminPermissions(db, a.id)).toEqual(["brand", STAFF_USERS_PERMISSION]);
  });

  it("the last holder keeps the right: two holders revoking each other at once leave one (the second no longer holds it: 403)", async () => {
    const [a, b] = [await admin(), await admin()];
    const results = await Promise.all([
      setStaffPermissions(db, { actorId: a.id, targetId: b.id, permissions: ["brand"] }),
      setStaffPermissions(db, { actorId: b.id, targetId: a.id, permissions: ["brand"] }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({
      ok: false,
      status: 403,
      message: STAFF_MSG.forbidden,
    });
    const holders = (await Promise.all([a, b].map((u) => getAdminPermissions(db, u.id)))).filter(
      (p) => p.includes(STAFF_USERS_PERMISSION),
    );
    expect(holders).toHaveLength(1);
    // The rule itself: a change that would leave no holder is refused, whoever asks.
    expect(
      staffChangeRefusal({ actorId: 0, targetId: a.id, holders: [a.id], targetAfter: [] }),
    ).toBe(STAFF_MSG.lastHolder);
    expect(
      staffChangeRefusal({
        actorId: b.id,
        targetId: a.id,
        holders: [a.id, b.id],
        targetAfter: null,
      }),
    ).toBeNull();
  });

  it("a deactivated account's sessions open nothing, it is no holder any more, and reactivation is audited", async () => {
    const a = await admin();
    const t = await admin();
    const sid = randomBytes(20).toString("hex");
    await db
      .insert(sessions)
      .values({ id: sid, userId: t.id, expiresAt: new Date(Date.now() + 86_400_000) });
    expect(await getSessionWithUser(db, sid)).not.toBeNull();
    expect(
      await setStaffActive(db, { actorId: a.id, targetId: t.id, active: false }),
    ).toMatchObject({ ok: true });
    expect(await getSessionWithUser(db, sid)).toBeNull();
    expect(await listStaffAdmins(db)).not.toContain(t.email);
    expect(await setStaffActive(db, { actorId: a.id, targetId: t.id, active: false })).toEqual({
      ok: false,
      status: 409,
      message: STAFF_MSG.alreadyInactive,
    });
    // A deactivated holder cannot act.
    expect(
      await setStaffPermissions(db, { actorId: t.id, targetId: a.id, permissions: [] }),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await setStaffActive(db, { actorId: a.id, targetId: t.id, active: true })).toMatchObject(
      { ok: true },
    );
    expect(await getSessionWithUser(db, sid)).not.toBeNull();
    expect((await auditOf(t.id)).map((r) => r.action)).toEqual(["deactivated", "reactivated"]);
    await db.delete(sessions).where(inArray(sessions.id, [sid]));
  });
});

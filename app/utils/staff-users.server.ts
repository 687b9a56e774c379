/**
 * The staff-users screens' server half (docs/product/screens.md, "Staff users"; ADR 0031): the list
 * with the invitation, and one staff user's page with its permissions, deactivation and audit. Every loader
 * and action needs the staff-users right (requireStaffAdmin: a 403 otherwise, nothing read or written); the
 * rules of a change (not one's own right, not the last holder's) are checked again inside the transaction
 * that writes it (db/queries/staff-users.ts). One function per intent.
 */
import { randomBytes } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import {
  getStaffUser,
  inviteStaffUser,
  listStaffChanges,
  listStaffUsers,
  noteStaffResetSent,
  setStaffActive,
  setStaffPermissions,
  type StaffRefusal,
} from "../../db/queries/staff-users";
import {
  PERMISSION_NAMES,
  permissionLabel,
  STAFF_MSG,
  StaffInviteSchema,
  StaffPermissionsSchema,
} from "../../domain/staff-users";
import { db } from "~/utils/db.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";
import { hashPassword } from "~/utils/password.server";
import { requireStaffAdmin, type StaffContext } from "~/utils/permissions.server";
import {
  newPasswordLink,
  sendStaffPasswordReset,
  WELCOME_TOKEN_TTL_MS,
} from "~/utils/retailer-admin.server";
import { sendResetMail } from "~/utils/reset-mail.server";
import { endAllSessions } from "~/utils/session.server";

/** The entries of the permissions map with their labels, in the page's order. */
export const permissionChoices = () =>
  PERMISSION_NAMES.map((name) => ({ name, label: permissionLabel(name) }));

/** Which notice a page shows after a change (?done=). */
export const DONE_NOTICES: Record<string, string> = {
  invited: STAFF_MSG.invited,
  saved: STAFF_MSG.saved,
  unchanged: STAFF_MSG.unchanged,
  deactivated: STAFF_MSG.deactivated,
  reactivated: STAFF_MSG.reactivated,
  reset: STAFF_MSG.resetSent,
};

export async function staffUsersList(request: Request) {
  const ctx = await requireStaffAdmin(request);
  const done = new URL(request.url).searchParams.get("done");
  return {
    me: ctx.user.id,
    users: await listStaffUsers(db),
    permissions: permissionChoices(),
    notice: DONE_NOTICES[done ?? ""] ?? null,
  };
}

/** A never-usable password until the invited user sets one through the e-mail's link. */
async function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString("base64url"));
}

/** The e-mail with a one-time link (7 days) to set the password, through the outbox. */
async function sendInvite(user: { id: number; email: string }): Promise<void> {
  await sendResetMail(user.email, await newPasswordLink(user.id, WELCOME_TOKEN_TTL_MS), "invite");
}

/** Invite: a new staff account with the permissions ticked, and its password e-mail. */
export async function invite(request: Request) {
  const ctx = await requireStaffAdmin(request);
  const submission = parseSubmission(await readFormData(request), { schema: StaffInviteSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const passwordHash = await unusablePasswordHash();
  const res = await inviteStaffUser(db, {
    actorId: ctx.user.id,
    email: submission.value.email,
    permissions: submission.value.permissions,
    passwordHash,
  });
  if (!res.ok)
    return data(
      { result: submission.reply({ formErrors: [res.message] }) },
      { status: res.status },
    );
  await sendInvite(res.user);
  return redirect(`/admin/staff-users/${res.user.id}?done=invited`);
}

/** The id of the URL: a positive integer, else a 404. */
function staffId(param: string | undefined): number {
  if (!param || !/^\d{1,9}$/.test(param) || Number(param) < 1)
    throw new Response("No such staff user.", { status: 404 });
  return Number(param);
}

export async function staffUserPage(request: Request, param: string | undefined) {
  const ctx = await requireStaffAdmin(request);
  const user = await getStaffUser(db, staffId(param));
  if (!user) throw new Response(STAFF_MSG.noSuchUser, { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return {
    me: ctx.user.id,
    user,
    changes: await listStaffChanges(db, user.id),
    permissions: permissionChoices(),
    notice: DONE_NOTICES[done ?? ""] ?? null,
  };
}

type Form = "permissions" | "active" | "reset";
type Intent = { ctx: StaffContext; id: number; form: FormData };

/** A refusal of the database's rules, shown above the form it answers; nothing changed. */
function refused(form: Form, r: StaffRefusal) {
  return data({ form, result: formError(r.message) }, { status: r.status });
}

const done = (id: number, what: string) => redirect(`/admin/staff-users/${id}?done=${what}`);

/** The page's actions: one function per intent; an unknown intent is a 400. */
export async function staffUserAction(request: Request, param: string | undefined) {
  const ctx = await requireStaffAdmin(request);
  const id = staffId(param);
  const form = await readFormData(request);
  const c: Intent = { ctx, id, form };
  switch (form.get("intent")) {
    case "permissions":
      return savePermissions(c);
    case "deactivate":
      return changeActive(c, false);
    case "reactivate":
      return changeActive(c, true);
    case "send-reset":
      return sendPasswordMail(c);
    default:
      return data(
        { form: "permissions" as Form, result: formError("Unknown action.") },
        { status: 400 },
      );
  }
}

/** Grant and revoke: the ticked entries are what the user holds afterwards (one audit row per change). */
async function savePermissions({ ctx, id, form }: Intent) {
  const submission = parseSubmission(form, { schema: StaffPermissionsSchema });
  if (submission.status !== "success")
    return data({ form: "permissions" as Form, result: submission.reply() }, { status: 400 });
  const res = await setStaffPermissions(db, {
    actorId: ctx.user.id,
    targetId: id,
    permissions: submission.value.permissions,
  });
  if (!res.ok)
    return data(
      { form: "permissions" as Form, result: submission.reply({ formErrors: [res.message] }) },
      { status: res.status },
    );
  return done(id, res.granted.length + res.revoked.length === 0 ? "unchanged" : "saved");
}

/** Deactivate (every session ends) or reactivate. */
async function changeActive({ ctx, id }: Intent, active: boolean) {
  const res = await setStaffActive(db, { actorId: ctx.user.id, targetId: id, active });
  if (!res.ok) return refused("active", res);
  if (!active) await endAllSessions(id);
  return done(id, active ? "reactivated" : "deactivated");
}

/** Sends the account a new password e-mail (an invitation not used in time, a forgotten password). */
async function sendPasswordMail({ ctx, id }: Intent) {
  const res = await noteStaffResetSent(db, { actorId: ctx.user.id, targetId: id });
  if (!res.ok) return refused("reset", res);
  // Someone who has signed in before gets the reset e-mail staff send; a new user the invitation again.
  if (res.signedInBefore) await sendStaffPasswordReset(res.user);
  else await sendInvite(res.user);
  return done(id, "reset");
}

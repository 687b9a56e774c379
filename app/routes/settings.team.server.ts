/**
 * Settings → Team, server half (docs/product/teams.md): the store's people and waiting invitations for its owner,
 * and one function per intent: invite (the e-mail with the link written with the invitation), remove a member
 * (at once: deactivated, its sessions ended), withdraw an invitation. Each refusal a message and a 4xx, nothing
 * written.
 */
import { data } from "@remix-run/node";
import { z } from "zod";
import { RowId } from "../../domain/ids";
import {
  inviteMember,
  listTeam,
  removeMember,
  revokeInvitation,
  setMemberLimits,
} from "../../db/queries/team";
import type { RetailerRow } from "../../db/queries/retailers";
import { formatDate } from "../../domain/date-format";
import { centsToDecimalString, formatCents } from "../../domain/money";
import {
  InviteMemberSchema,
  INVITATION_DAYS,
  MemberLimitsSchema,
  roleNames,
  TEAM_MSG,
} from "../../domain/teams";
import type { AuthContext } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { formError, parseSubmission, readFormData } from "~/utils/form.server";

type Auth = AuthContext & { retailer: RetailerRow };

export async function teamLoader(auth: Auth) {
  const { members, invitations } = await listTeam(db, auth.retailer.id);
  const tz = getEnv().MARKETPLACE_TZ;
  return {
    me: auth.user.id,
    members: members.map((m) => ({
      userId: m.userId,
      email: m.email,
      roles: roleNames(m.roles),
      owner: m.roles.includes("owner"),
      removed: m.removedAt !== null,
      limits: limitsText(m.orderLimitCents, m.monthLimitCents),
      orderLimit: m.orderLimitCents === null ? "" : centsToDecimalString(m.orderLimitCents),
      monthLimit: m.monthLimitCents === null ? "" : centsToDecimalString(m.monthLimitCents),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      roles: roleNames(i.roles),
      until: formatDate(i.expiresAt, tz),
    })),
  };
}

/** A member's limits as the list shows them. */
function limitsText(order: number | null, month: number | null): string {
  const parts = [
    order === null ? null : `${formatCents(order)} an order`,
    month === null ? null : `${formatCents(month)} a month`,
  ].filter(Boolean);
  return parts.length ? `Up to ${parts.join(", ")}` : "No limit";
}

/** Remove a member, withdraw an invitation: the intent and the row's id. */
const RowSchema = z.object({
  intent: z.enum(["remove", "revoke"]),
  id: RowId,
});

export async function teamAction(request: Request, auth: Auth) {
  const form = await readFormData(request);
  switch (form.get("intent")) {
    case "invite":
      return invite(form, auth);
    case "remove":
    case "revoke":
      return removeOrRevoke(form, auth);
    case "limits":
      return saveLimits(form, auth);
    default:
      return data({ result: formError("Unknown action."), notice: null }, { status: 400 });
  }
}

async function invite(form: FormData, auth: Auth) {
  const submission = parseSubmission(form, { schema: InviteMemberSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  const v = submission.value;
  const origin = getEnv().APP_ORIGIN;
  const r = await inviteMember(db, {
    retailerId: auth.retailer.id,
    invitedBy: auth.user.id,
    email: v.email,
    roles: v.roles,
    mail: (token) => ({
      toEmail: v.email,
      subject: `You are invited to ${auth.retailer.storeName}'s team`,
      bodyText: [
        `${auth.retailer.storeName} invites you to its team on the wholesale exchange, as: ${roleNames(v.roles)}.`,
        `Set your password to join (the link works for ${INVITATION_DAYS} days, once):`,
        `${origin}/join/${token}`,
      ].join("\n"),
      kind: "team_invitation",
      dedupeKey: `team-invitation:${auth.retailer.id}:${token.slice(0, 16)}`,
    }),
  });
  if (!r.ok)
    return data({ result: formError(r.message, "email"), notice: null }, { status: r.status });
  return { result: submission.reply({ resetForm: true }), notice: TEAM_MSG.invited(v.email) };
}

async function removeOrRevoke(form: FormData, auth: Auth) {
  const submission = parseSubmission(form, { schema: RowSchema });
  if (submission.status !== "success")
    return data({ result: formError(TEAM_MSG.notMember), notice: null }, { status: 400 });
  const { intent, id } = submission.value;
  const r =
    intent === "remove"
      ? await removeMember(db, { retailerId: auth.retailer.id, userId: id })
      : await revokeInvitation(db, { retailerId: auth.retailer.id, invitationId: id });
  if (!r.ok) return data({ result: formError(r.message), notice: null }, { status: r.status });
  return {
    result: null,
    notice: intent === "remove" ? TEAM_MSG.removed : "The invitation was withdrawn.",
  };
}

/** The owner sets a member's limits (over them, a purchase waits for an approver: docs/product/teams.md). */
async function saveLimits(form: FormData, auth: Auth) {
  const submission = parseSubmission(form, { schema: MemberLimitsSchema });
  // The answer names the member its form was for, so the page shows it under that member's row.
  const member = RowId.safeParse(submission.payload.userId);
  const forMember = member.success ? member.data : null;
  if (submission.status !== "success")
    return data({ result: submission.reply(), notice: null, forMember }, { status: 400 });
  const r = await setMemberLimits(db, auth.retailer.id, submission.value);
  if (!r.ok)
    return data({ result: formError(r.message), notice: null, forMember }, { status: r.status });
  return { result: submission.reply(), notice: TEAM_MSG.limitsSaved, forMember };
}

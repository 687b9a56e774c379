/**
 * Staff accounts and the permissions map (ADR 0031; docs/product/screens.md, "Staff users"): the
 * map's entries are the resource names staff may manage plus one right of its own, STAFF_USERS_PERMISSION,
 * that opens the staff-users screens (invite, deactivate, grant and revoke). What a change may not do is
 * decided here (pure), and again by db/queries/staff-users.ts inside the transaction that writes it.
 */
import { z } from "zod";
import { PAYMENTS_ATTENTION_PERMISSION } from "./held-payments";
import { RESOURCE_NAMES, RESOURCES } from "./resources";

/** The right to manage staff accounts and their permissions (kept in users.admin_permissions with the rest). */
export const STAFF_USERS_PERMISSION = "staffusers";

/**
 * The right to read sealed order payloads in the Temporal Web UI through the app's codec server (ADR 0031;
 * docs/operations.md, "Payload encryption keys").
 */
export const PAYLOAD_DECODE_PERMISSION = "ops.decode";

/** Every entry of the permissions map, in the order the staff user's page lists them. */
export const PERMISSION_NAMES: readonly string[] = [
  ...RESOURCE_NAMES,
  STAFF_USERS_PERMISSION,
  PAYLOAD_DECODE_PERMISSION,
  PAYMENTS_ATTENTION_PERMISSION,
];

export function isPermissionName(v: string): boolean {
  return PERMISSION_NAMES.includes(v);
}

/** What a permission is called on the pages and in the audit. */
export function permissionLabel(name: string): string {
  if (name === STAFF_USERS_PERMISSION) return "Staff users";
  if (name === PAYLOAD_DECODE_PERMISSION) return "Order payloads in the Temporal UI";
  if (name === PAYMENTS_ATTENTION_PERMISSION) return "Payments needing attention";
  return (RESOURCES as Record<string, { plural: string } | undefined>)[name]?.plural ?? name;
}

/** The kinds of change the audit records. */
export const STAFF_CHANGES = [
  "invited",
  "granted",
  "revoked",
  "deactivated",
  "reactivated",
  "reset_sent",
] as const;
export type StaffChange = (typeof STAFF_CHANGES)[number];

/** One audit row as the page says it: "granted Brands", "deactivated the account". */
export function staffChangeText(action: string, permission: string | null): string {
  switch (action) {
    case "invited":
      return "invited this staff user";
    case "granted":
      return `granted ${permissionLabel(permission ?? "")}`;
    case "revoked":
      return `revoked ${permissionLabel(permission ?? "")}`;
    case "deactivated":
      return "deactivated the account";
    case "reactivated":
      return "reactivated the account";
    case "reset_sent":
      return "sent a password e-mail";
    default:
      return action;
  }
}

export const STAFF_MSG = {
  forbidden: "You may not manage staff users.",
  emailTaken: "A user with this e-mail address already exists.",
  invited: "Invitation sent: the new staff user sets a password through the link in the e-mail.",
  saved: "Permissions saved.",
  unchanged: "Nothing changed.",
  deactivated: "Account deactivated: this staff user can no longer sign in.",
  reactivated: "Account reactivated.",
  resetSent: "Password e-mail sent.",
  selfRevoke:
    "You cannot remove your own Staff users permission: ask another staff user who holds it.",
  selfDeactivate:
    "You cannot deactivate your own account: ask another staff user who holds Staff users.",
  lastHolder:
    "This is the last active staff user with the Staff users permission: grant it to someone else first.",
  unknownPermission: "Choose permissions from the list.",
  noSuchUser: "No such staff user.",
  alreadyActive: "This account is already active.",
  alreadyInactive: "This account is already deactivated.",
  deactivatedNoReset: "Reactivate the account before sending a password e-mail.",
} as const;

const permissionList = z
  .array(z.string())
  .optional()
  .transform((v) => [...new Set(v ?? [])])
  .refine((v) => v.every(isPermissionName), STAFF_MSG.unknownPermission);

/** The invite form: the address and the permissions it starts with (possibly none). */
export const StaffInviteSchema = z.object({
  email: z
    .string({ required_error: "Enter the new staff user's e-mail address." })
    .trim()
    .min(1, "Enter the new staff user's e-mail address.")
    .max(254, "Enter a valid e-mail address.")
    .email("Enter a valid e-mail address."),
  permissions: permissionList,
});

/** The staff user page's permissions form: the entries that stay or become granted (the rest are revoked). */
export const StaffPermissionsSchema = z.object({ permissions: permissionList });

/**
 * Why a change to `target` by `actor` may not be made, or null. `holders` are the active staff users holding
 * STAFF_USERS_PERMISSION before the change; `after` is what the target would hold (null: deactivated).
 */
export function staffChangeRefusal(input: {
  actorId: number;
  targetId: number;
  holders: readonly number[];
  targetAfter: readonly string[] | null;
}): string | null {
  const { actorId, targetId, holders, targetAfter } = input;
  const losesRight =
    holders.includes(targetId) &&
    (targetAfter === null || !targetAfter.includes(STAFF_USERS_PERMISSION));
  if (!losesRight) return null;
  if (targetId === actorId)
    return targetAfter === null ? STAFF_MSG.selfDeactivate : STAFF_MSG.selfRevoke;
  if (holders.filter((h) => h !== targetId).length === 0) return STAFF_MSG.lastHolder;
  return null;
}

/**
 * Store teams (docs/product/teams.md): the roles a store's people have, what each role may do, and the owner's
 * invitation form. Pure; table tests in tests/unit/domain/teams.test.ts.
 */
import { z } from "zod";
import { emailSchema } from "./accounts";

/**
 * A store's roles. The owner may do everything, and alone manages the team. (A buyer's limits and the approver
 * who approves what is over them are not built yet: docs/product/teams.md, "Not yet".)
 */
export const STORE_ROLES = ["owner", "lister", "buyer", "finance"] as const;
export type StoreRole = (typeof STORE_ROLES)[number];

/** The roles an owner may give an invited person (a store has the owners it was created with). */
export const INVITED_ROLES = ["lister", "buyer", "finance"] as const;
export type InvitedRole = (typeof INVITED_ROLES)[number];

/** Each role's name, as lists of members show it. */
const ROLE_NAMES: Readonly<Record<StoreRole, string>> = Object.freeze({
  owner: "Owner",
  lister: "Lister",
  buyer: "Buyer",
  finance: "Finance",
});

/** A person's roles by name ("Lister, Buyer"); a role this code does not know shows as stored. */
export function roleNames(roles: readonly string[]): string {
  return roles.map((r) => ROLE_NAMES[r as StoreRole] ?? r).join(", ");
}

/** Each role with what it may do, as the invitation form and the invited person see it. */
export const ROLE_LABELS: Readonly<Record<StoreRole, string>> = Object.freeze({
  owner: "Owner",
  lister: "Lister: lists, edits and imports stock",
  buyer: "Buyer: buys, swaps, makes offers and requests",
  finance: "Finance: statements, dashboard and payout settings",
});

/** What a person of the store may do; each page and action of the store names the one it needs. */
export type StoreCapability = "list" | "buy" | "finance" | "team";

const CAN: Readonly<Record<StoreCapability, readonly StoreRole[]>> = Object.freeze({
  list: ["owner", "lister"],
  buy: ["owner", "buyer"],
  finance: ["owner", "finance"],
  team: ["owner"],
});

/**
 * The store's pages and their actions by what they need (docs/product/teams.md, "Who may do what"), by path
 * prefix; the rest (browsing the marketplace, orders, alerts, messages, one's own account) is open to every member.
 */
const PATH_NEEDS: readonly (readonly [prefix: string, need: StoreCapability])[] = [
  ["/addlisting", "list"],
  ["/updatelisting", "list"],
  ["/stock-import", "list"],
  ["/settings/api", "list"],
  ["/cart", "buy"],
  ["/checkout", "buy"],
  ["/offers/new", "buy"],
  ["/requestlisting", "buy"],
  ["/updaterequest", "buy"],
  ["/statements", "finance"],
  ["/settings/payout", "finance"],
  ["/getpaid", "finance"],
  ["/settings/card", "finance"],
  ["/settings/team", "team"],
  ["/settings/store", "team"],
  ["/settings/contact", "team"],
  ["/brands", "team"],
];

/** What the store's page (or its action) at `pathname` needs of the person; null: any member may. */
export function capabilityForPath(pathname: string): StoreCapability | null {
  for (const [prefix, need] of PATH_NEEDS)
    if (
      pathname === prefix ||
      pathname.startsWith(`${prefix}/`) ||
      pathname.startsWith(`${prefix}.`)
    )
      return need;
  return null;
}

/** Whether a person with `roles` may open the store's page at `pathname` (and post its actions). */
export function mayOpen(roles: readonly string[], pathname: string): boolean {
  const need = capabilityForPath(pathname);
  return need === null || may(roles, need);
}

/** Whether a person with `roles` may do `what`. */
export function may(roles: readonly string[], what: StoreCapability): boolean {
  return CAN[what].some((r) => roles.includes(r));
}

export const TEAM_MSG = Object.freeze({
  ownersOnly: "Only the store's owner may manage its team.",
  notAllowed: (what: StoreCapability) =>
    `Your role in this store does not allow this (it needs ${CAPABILITY_NEEDS[what]}). Ask the store's owner.`,
  roleRequired: "Choose at least one role.",
  alreadyMember: "This person is already in your store's team.",
  emailTaken:
    "This e-mail address already has an account of another store. Invite another address.",
  alreadyInvited: "An invitation to this address is already waiting.",
  invited: (email: string) => `Invitation sent to ${email}.`,
  removed: "The member was removed; their sessions have ended.",
  notMember: "There is no such member of your store.",
  lastOwner: "The store's owner cannot be removed.",
  invitationGone: "This invitation is no longer valid. Ask the store's owner for a new one.",
});

const CAPABILITY_NEEDS: Readonly<Record<StoreCapability, string>> = Object.freeze({
  list: "the lister role",
  buy: "the buyer role",
  finance: "the finance role",
  team: "the owner",
});

/** How long an invitation stays valid. */
export const INVITATION_DAYS = 7;

/** The owner's invitation: an e-mail and one or more roles. */
export const InviteMemberSchema = z.object({
  email: emailSchema,
  roles: z
    .array(z.enum(INVITED_ROLES), {
      required_error: TEAM_MSG.roleRequired,
      invalid_type_error: TEAM_MSG.roleRequired,
    })
    .min(1, TEAM_MSG.roleRequired)
    .transform((roles) => [...new Set(roles)]),
});
export type InviteMember = z.infer<typeof InviteMemberSchema>;

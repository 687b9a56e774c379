/**
 * Store teams (docs/product/teams.md): the roles a store's people have, what each role may do, the owner's
 * invitation form, and the spending limits of a buyer. Pure; table tests in tests/unit/domain/teams.test.ts.
 */
import { z } from "zod";
import { emailSchema } from "./accounts";
import { formatCents, parseDollars, type Cents } from "./money";

const DOLLARS_MESSAGE = "Enter an amount in dollars, like 12.50";

/** A store's roles. The owner may do everything, and alone manages the team. */
export const STORE_ROLES = ["owner", "lister", "buyer", "approver", "finance"] as const;
export type StoreRole = (typeof STORE_ROLES)[number];

/** The roles an owner may give an invited person (a store has the owners it was created with). */
export const INVITED_ROLES = ["lister", "buyer", "approver", "finance"] as const;
export type InvitedRole = (typeof INVITED_ROLES)[number];

export const ROLE_LABELS: Readonly<Record<StoreRole, string>> = Object.freeze({
  owner: "Owner",
  lister: "Lister: lists, edits and imports stock",
  buyer: "Buyer: buys and swaps, up to a limit",
  approver: "Approver: approves what is over a buyer's limit",
  finance: "Finance: statements, dashboard and payout settings",
});

/** What a person of the store may do; each page and action of the store names the one it needs. */
export type StoreCapability = "list" | "buy" | "approve" | "finance" | "team";

const CAN: Readonly<Record<StoreCapability, readonly StoreRole[]>> = Object.freeze({
  list: ["owner", "lister"],
  buy: ["owner", "buyer"],
  approve: ["owner", "approver"],
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
  ["/settings/card", "finance"],
  ["/settings/team", "team"],
  ["/settings/store", "team"],
  ["/settings/contact", "team"],
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

/** Whether a person with `roles` may do `what`. */
export function may(roles: readonly string[], what: StoreCapability): boolean {
  return CAN[what].some((r) => roles.includes(r));
}

export const TEAM_MSG = Object.freeze({
  ownersOnly: "Only the store's owner may manage its team.",
  notAllowed: (what: StoreCapability) =>
    `Your role in this store does not allow this (it needs ${CAPABILITY_NEEDS[what]}). Ask the store's owner.`,
  roleRequired: "Choose at least one role.",
  limitsForBuyers: "Limits are for buyers: choose the buyer role or leave the limits empty.",
  limitRequired: "A buyer needs a limit per order and a limit per month.",
  monthBelowOrder: "The limit per month cannot be below the limit per order.",
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
  approve: "the approver role",
  finance: "the finance role",
  team: "the owner",
});

/** How long an invitation stays valid. */
export const INVITATION_DAYS = 7;

/** A dollar amount, or nothing (an empty field): cents or undefined. */
const optionalDollars = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const cents = parseDollars(v);
    if (cents !== null) return cents;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: DOLLARS_MESSAGE });
    return z.NEVER;
  });

/** The owner's invitation: an e-mail, one or more roles, and a buyer's two limits (dollars, in cents once parsed). */
export const InviteMemberSchema = z
  .object({
    email: emailSchema,
    roles: z
      .array(z.enum(INVITED_ROLES), {
        required_error: TEAM_MSG.roleRequired,
        invalid_type_error: TEAM_MSG.roleRequired,
      })
      .min(1, TEAM_MSG.roleRequired)
      .transform((roles) => [...new Set(roles)]),
    order_limit: optionalDollars,
    monthly_limit: optionalDollars,
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    const buyer = v.roles.includes("buyer");
    if (!buyer && (v.order_limit !== undefined || v.monthly_limit !== undefined))
      issue("order_limit", TEAM_MSG.limitsForBuyers);
    if (buyer && v.order_limit === undefined) issue("order_limit", TEAM_MSG.limitRequired);
    if (buyer && v.monthly_limit === undefined) issue("monthly_limit", TEAM_MSG.limitRequired);
    if (
      v.order_limit !== undefined &&
      v.monthly_limit !== undefined &&
      v.monthly_limit < v.order_limit
    )
      issue("monthly_limit", TEAM_MSG.monthBelowOrder);
  });
export type InviteMember = z.infer<typeof InviteMemberSchema>;

/** A buyer's limits (null: none, as for an owner). */
export interface SpendingLimits {
  orderLimitCents: Cents | null;
  monthlyLimitCents: Cents | null;
}

/**
 * Whether an order of `totalCents` is over the buyer's limits, given what the buyer's orders of the month
 * already total (`monthCents`): null when within them, else which limit and by how much.
 */
export function overLimit(
  limits: SpendingLimits,
  totalCents: Cents,
  monthCents: Cents,
): { limit: "order" | "month"; overCents: Cents } | null {
  if (limits.orderLimitCents !== null && totalCents > limits.orderLimitCents)
    return { limit: "order", overCents: totalCents - limits.orderLimitCents };
  if (limits.monthlyLimitCents !== null && monthCents + totalCents > limits.monthlyLimitCents)
    return { limit: "month", overCents: monthCents + totalCents - limits.monthlyLimitCents };
  return null;
}

/** A member's limits as the team page shows them. */
export function limitsText(limits: SpendingLimits): string {
  if (limits.orderLimitCents === null && limits.monthlyLimitCents === null) return "No limit";
  const part = (c: Cents | null, per: string) => (c === null ? null : `${formatCents(c)} ${per}`);
  return [part(limits.orderLimitCents, "an order"), part(limits.monthlyLimitCents, "a month")]
    .filter(Boolean)
    .join(", ");
}

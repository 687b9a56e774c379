/**
 * Store teams (docs/product/teams.md): the roles a store's people have, what each role may do, and the owner's
 * invitation form. Pure; table tests in tests/unit/domain/teams.test.ts.
 */
import { z } from "zod";
import { emailSchema } from "./accounts";
import { WINDOWS, addBusinessDays, localDateTime, zonedToEpochMs } from "./business-days";
import { RowId } from "./ids";
import { dollarsInputSchema, formatCents, type Cents } from "./money";

/**
 * A store's roles. The owner may do everything, and alone manages the team; a buyer buys up to its limits, and
 * what is over them waits for an approver (or the owner).
 */
export const STORE_ROLES = ["owner", "lister", "buyer", "approver", "finance"] as const;
export type StoreRole = (typeof STORE_ROLES)[number];

/** The roles an owner may give an invited person (a store has the owners it was created with). */
export const INVITED_ROLES = ["lister", "buyer", "approver", "finance"] as const;
export type InvitedRole = (typeof INVITED_ROLES)[number];

/** Each role's name, as lists of members show it. */
const ROLE_NAMES: Readonly<Record<StoreRole, string>> = Object.freeze({
  owner: "Owner",
  lister: "Lister",
  buyer: "Buyer",
  approver: "Approver",
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
  buyer: "Buyer: buys, swaps, makes offers and requests, up to the limits the owner sets",
  approver: "Approver: approves or declines a purchase over a buyer's limit",
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

/** What waits for a store's approval, and whose it becomes once approved. */
type Held = "purchase" | "swap";
const OTHER_SIDE: Readonly<Record<Held, string>> = {
  purchase: "the seller",
  swap: "the other retailer",
};

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
  limitsSaved: "The member's limits were saved.",
  limitPositive: "Enter a limit in dollars above $0, or leave it empty for no limit.",
  overOrderLimit: (limit: Cents, what: Held = "purchase") =>
    `This ${what} is over your limit of ${formatCents(limit)} an order: it waits for an approver of your store (${STORE_APPROVAL_BUSINESS_DAYS} business days), then goes to ${OTHER_SIDE[what]}.`,
  overMonthLimit: (limit: Cents, what: Held = "purchase") =>
    `This ${what} takes you over your limit of ${formatCents(limit)} a month: it waits for an approver of your store (${STORE_APPROVAL_BUSINESS_DAYS} business days), then goes to ${OTHER_SIDE[what]}.`,
  overLimitForRequest: (limit: Cents) =>
    `This order is over your limit of ${formatCents(limit)}. An order made for your request is paid at once and cannot wait for an approver: ask your store's owner to check it out.`,
  overLimitForOffer: (limit: Cents) =>
    `This offer is over your limit of ${formatCents(limit)}. An offer holds your store's card at once and cannot wait for an approver: ask your store's owner or an approver to make it.`,
  ownOrder: "You placed this order: another approver of your store must approve it.",
  approved: "Approved: the order went to the seller.",
  declinedByStore: "Declined: the card's pre-authorization was released.",
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

// ---------------------------------------------------------------------------------------------------------
// A buyer's limits and the store's approval (docs/product/teams.md, "Limits and approval").

/** How long an approver has to approve or decline before the order is cancelled and its card released. */
export const STORE_APPROVAL_BUSINESS_DAYS = 2;

/**
 * When the store's approval runs out, for an order pre-authorised at `authorizedAt`: 2 business days later in the
 * marketplace's calendar, never past the pre-authorisation's life (less its safety margin).
 */
export function storeApprovalDeadline(
  authorizedAt: number,
  cal: { timeZone: string; holidays: readonly string[] },
): number {
  return Math.min(
    addBusinessDays(authorizedAt, STORE_APPROVAL_BUSINESS_DAYS, cal.timeZone, cal.holidays),
    authorizedAt + WINDOWS.authorizationLifetime - WINDOWS.authorizationSafetyMargin,
  );
}

/** A buyer's limits in cents; null: no limit. Owners have none. */
export interface BuyerLimits {
  orderLimitCents: Cents | null;
  monthLimitCents: Cents | null;
}

/** Why an order waits for the store's approval, and the limit it is over. */
export interface StoreApprovalNeed {
  reason: "order_limit" | "month_limit";
  limitCents: Cents;
}

/**
 * Whether an order of `totalCents` waits for an approver: over the per-order limit, or, with what the person
 * placed this month (`monthSpentCents`, orders not declined, expired or cancelled), over the monthly one. An
 * owner (or anyone without the buyer role's limits) never waits.
 */
export function storeApprovalNeed(
  roles: readonly string[],
  limits: BuyerLimits,
  monthSpentCents: Cents,
  totalCents: Cents,
): StoreApprovalNeed | null {
  if (roles.includes("owner")) return null;
  if (limits.orderLimitCents !== null && totalCents > limits.orderLimitCents)
    return { reason: "order_limit", limitCents: limits.orderLimitCents };
  if (limits.monthLimitCents !== null && monthSpentCents + totalCents > limits.monthLimitCents)
    return { reason: "month_limit", limitCents: limits.monthLimitCents };
  return null;
}

/**
 * The same for several orders checked out together, in order: each counts toward the month of the next ones
 * (an order that waits for approval counts too, as it would once approved).
 */
export function storeApprovalNeeds(
  roles: readonly string[],
  limits: BuyerLimits,
  monthSpentCents: Cents,
  totals: readonly Cents[],
): (StoreApprovalNeed | null)[] {
  let spent = monthSpentCents;
  return totals.map((total) => {
    const need = storeApprovalNeed(roles, limits, spent, total);
    spent += total;
    return need;
  });
}

/** The buyer's message for an order (a purchase, a swap) that waits for approval. */
export function storeApprovalMessage(need: StoreApprovalNeed, what: Held = "purchase"): string {
  return need.reason === "order_limit"
    ? TEAM_MSG.overOrderLimit(need.limitCents, what)
    : TEAM_MSG.overMonthLimit(need.limitCents, what);
}

/** The instant the calendar month holding `now` began in the marketplace's zone (a monthly limit's start). */
export function monthStart(now: number, timeZone: string): number {
  const { year, month } = localDateTime(now, timeZone);
  return zonedToEpochMs(
    { year, month, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
    timeZone,
  );
}

/** A limit typed by the owner: empty for none, else dollars above zero. */
const limitField = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === undefined || v === "" ? null : v))
  .pipe(
    z
      .union([z.null(), dollarsInputSchema(TEAM_MSG.limitPositive)])
      .refine((c) => c === null || c > 0, TEAM_MSG.limitPositive),
  );

/** The owner's limits of one member. */
export const MemberLimitsSchema = z.object({
  userId: RowId,
  orderLimit: limitField,
  monthLimit: limitField,
});
export type MemberLimits = z.infer<typeof MemberLimitsSchema>;

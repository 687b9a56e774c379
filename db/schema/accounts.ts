import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { retailers } from "./retailers";

/** A person who signs in: a retailer's contact or a staff member. */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    isStaff: boolean("is_staff").notNull().default(false),
    /**
     * The permissions map of a staff user (ADR 0020; docs/product/glossary.md, "Roles and permissions"): the resource names
     * (domain/resources RESOURCE_NAMES) this user may manage. Checked by app/utils/permissions.server.ts.
     */
    adminPermissions: text("admin_permissions")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The retailer this user belongs to (null for staff and for a retailer not yet set up). */
    retailerId: integer("retailer_id").references(() => retailers.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    /** A deactivated account signs in no more and its sessions end (docs/product/screens.md, "Staff users"). */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    /**
     * Two-factor sign-in (ADR 0041): the TOTP secret (base32), written when set-up starts; it is on once
     * totp_enabled_at is set. As sensitive at rest as a password hash. totp_last_step is the time step of
     * the last code accepted, so a code is never accepted twice.
     */
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    totpLastStep: integer("totp_last_step"),
    /**
     * The person's roles in its store (domain/teams STORE_ROLES; docs/product/teams.md): the store's first user
     * is its owner, people the owner invites have the roles given. Meaningless for staff.
     */
    storeRoles: text("store_roles")
      .array()
      .notNull()
      .default(sql`'{owner}'::text[]`),
    /** Who invited this person into the store (null: the store's first user). */
    invitedBy: integer("invited_by"),
    /**
     * A buyer's limits in cents (docs/product/teams.md, "Limits and approval"): a purchase over one waits for an
     * approver. Null: no limit. The owner sets them; owners have none.
     */
    buyLimitOrderCents: integer("buy_limit_order_cents"),
    buyLimitMonthCents: integer("buy_limit_month_cents"),
  },
  (t) => [
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_retailer_idx").on(t.retailerId),
  ],
);

/**
 * Every change made to a staff account on the staff-users screens (ADR 0031): who (actor), when,
 * what (action: domain/staff-users STAFF_CHANGES; permission: the map entry granted or revoked).
 */
export const staffUserChanges = pgTable(
  "staff_user_changes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    permission: text("permission"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("staff_user_changes_user_idx").on(t.userId, t.at)],
);

/** Lucia sessions; staff keep the retailer (and brand) they act as here. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    actingRetailerId: integer("acting_retailer_id").references(() => retailers.id, {
      onDelete: "set null",
    }),
    actingBrandId: integer("acting_brand_id"),
    /** Banners the user chose to dismiss for this session ("do this later"). */
    dismissedBanners: text("dismissed_banners")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Password reset: only the SHA-256 of the token is stored; single use; expiring. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("password_reset_token_hash_idx").on(t.tokenHash),
    index("password_reset_user_idx").on(t.userId),
  ],
);

/** Two-factor recovery codes (ADR 0041): only the SHA-256 of each code is stored; a code is deleted when used. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_idx").on(t.userId, t.codeHash)],
);

/**
 * A sign-in waiting for its second factor (ADR 0041): the password was right, the code not yet given. The
 * browser holds the random token in a cookie; only its SHA-256 is stored. Short-lived, used once.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    next: text("next"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sign_in_challenges_user_idx").on(t.userId)],
);

/** Sign-in attempts, for throttling by e-mail and by client address. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    ip: text("ip").notNull().default(""),
    succeeded: boolean("succeeded").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("login_attempts_email_idx").on(t.email, t.attemptedAt),
    index("login_attempts_ip_idx").on(t.ip, t.attemptedAt),
  ],
);

/**
 * Register and password-reset requests, for throttling by e-mail and by client address (ADR 0003).
 * kind: "register" | "password_reset".
 */
export const accountRequests = pgTable(
  "account_requests",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    email: text("email").notNull(),
    ip: text("ip").notNull().default(""),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("account_requests_email_idx").on(t.kind, t.email, t.requestedAt),
    index("account_requests_ip_idx").on(t.kind, t.ip, t.requestedAt),
  ],
);

/**
 * An owner's invitation of a person into its store (docs/product/teams.md): the roles it gives, the
 * hash of the link's token (the token itself is only in the e-mail), valid until `expiresAt`, used once.
 */
export const storeInvitations = pgTable(
  "store_invitations",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    roles: text("roles").array().notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: integer("invited_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("store_invitations_token_idx").on(t.tokenHash),
    // One waiting invitation per store and address.
    uniqueIndex("store_invitations_waiting_idx")
      .on(t.retailerId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL`),
  ],
);

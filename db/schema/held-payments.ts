import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { payments } from "./orders";

/**
 * A money movement the provider refused, or that could not be sent (no card on file, no payout account):
 * held until it is paid on a new attempt, settled outside the platform or written off
 * (docs/decisions/0044-payments-needing-attention.md). One row per held `payments` row; open while
 * `resolved_at` is null. `need` says what lets it go again (domain/held-payments HeldNeed); `last_key` is the
 * idempotency key of its latest attempt, the one the provider is asked about before a new one is made;
 * `retry` what a new attempt sends besides the card or account read at that moment.
 */
export const heldPayments = pgTable(
  "held_payments",
  {
    paymentId: integer("payment_id")
      .primaryKey()
      .references(() => payments.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    need: text("need").notNull(),
    attempts: integer("attempts").notNull().default(1),
    lastKey: text("last_key").notNull(),
    retry: jsonb("retry").$type<Record<string, unknown>>().notNull(),
    heldAt: timestamp("held_at", { withTimezone: true }).notNull().defaultNow(),
    lastTriedAt: timestamp("last_tried_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when what it waits for has come (a card, a payout account): the worker's relay starts a retry. */
    retryDueAt: timestamp("retry_due_at", { withTimezone: true }),
    resolution: text("resolution"),
    resolutionNote: text("resolution_note"),
    resolvedBy: integer("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    index("held_payments_open_idx")
      .on(t.heldAt)
      .where(sql`${t.resolvedAt} IS NULL`),
  ],
);

/** The audit of held movements: held, each new attempt, and staff's actions (actor null: the platform). */
export const heldPaymentEvents = pgTable(
  "held_payment_events",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    note: text("note"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("held_payment_events_payment_idx").on(t.paymentId, t.at)],
);

/**
 * The nightly reconciliation's differences (docs/decisions/0045-nightly-reconciliation.md): a sent movement of
 * `day` that the provider does not have under its key, or has with another amount, or a provider object whose key
 * no ledger row holds (`payment_id` null). One row per day, key and kind: a run again writes nothing twice. Open
 * on staff's "Payments needing attention" while `resolved_at` is null; staff resolve it with a note
 * (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md).
 */
export const reconciliationDifferences = pgTable(
  "reconciliation_differences",
  {
    id: serial("id").primaryKey(),
    day: text("day").notNull(),
    kind: text("kind").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    ledgerCents: integer("ledger_cents"),
    providerCents: integer("provider_cents"),
    providerRef: text("provider_ref"),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull().defaultNow(),
    resolutionNote: text("resolution_note"),
    resolvedBy: integer("resolved_by").references(() => users.id, { onDelete: "set null" }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    index("reconciliation_differences_payment_idx").on(t.paymentId),
    uniqueIndex("reconciliation_differences_key_idx").on(t.day, t.idempotencyKey, t.kind),
    index("reconciliation_differences_open_idx")
      .on(t.foundAt)
      .where(sql`${t.resolvedAt} IS NULL`),
  ],
);

/** The audit of differences: staff's actions on each (actor null: the platform), as held_payment_events. */
export const reconciliationDifferenceEvents = pgTable(
  "reconciliation_difference_events",
  {
    id: serial("id").primaryKey(),
    differenceId: integer("difference_id")
      .notNull()
      .references(() => reconciliationDifferences.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    note: text("note"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reconciliation_difference_events_difference_idx").on(t.differenceId, t.at)],
);

/**
 * Each finished run of the nightly reconciliation (docs/decisions/0052-reconciliation-actions-and-reconciled-months.md):
 * the UTC day it checked, when it finished and what it counted, written by its last activity (one row per
 * workflow run: a retried activity writes nothing twice). A statement's month is reconciled once every day of
 * it has one.
 */
export const reconciliationRuns = pgTable(
  "reconciliation_runs",
  {
    runId: text("run_id").primaryKey(),
    day: text("day").notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }).notNull().defaultNow(),
    /** Ledger movements checked with the provider. */
    checked: integer("checked").notNull(),
    /** Provider objects of the day listed (null: the provider's adapter cannot list them). */
    listed: integer("listed"),
    /** Differences newly recorded by the run. */
    recorded: integer("recorded").notNull(),
  },
  (t) => [index("reconciliation_runs_day_idx").on(t.day, t.finishedAt)],
);

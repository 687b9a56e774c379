import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** E-mails: sent through SMTP when configured, otherwise kept here for staff to read at /admin/outbox. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: serial("id").primaryKey(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    bodyHtml: text("body_html"),
    kind: text("kind").notNull(),
    /** Makes a retried send a no-op (e.g. workflow id + step). */
    dedupeKey: text("dedupe_key"),
    status: text("status").notNull().default("queued"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_to_idx").on(t.toEmail, t.createdAt), uniqueIndex("outbox_dedupe_idx").on(t.dedupeKey)],
);

/** Incoming webhook events, keyed by the provider's event id so duplicates are dropped before they signal. */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp("processed_at", { withTimezone: true }),
});

/**
 * State of the sandbox payment provider (the default offline adapter): payment intents, accounts,
 * transfers, refunds, payment methods, keyed like the provider keys them, plus idempotency records.
 */
export const sandboxPaymentObjects = pgTable(
  "sandbox_payment_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_payment_objects_kind_idx").on(t.kind)],
);

export const sandboxIdempotencyKeys = pgTable("sandbox_idempotency_keys", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  responseObjectId: text("response_object_id"),
  responseError: jsonb("response_error"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Demo-seed bookkeeping: the seed runs once per database. */
export const seedRuns = pgTable("seed_runs", {
  name: text("name").primaryKey(),
  ranAt: timestamp("ran_at", { withTimezone: true }).notNull().defaultNow(),
  detail: integer("detail"),
});

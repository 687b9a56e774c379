import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { CarrierLabelData } from "../../domain/carrier-events";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

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
  (t) => [
    index("outbox_to_idx").on(t.toEmail, t.createdAt),
    uniqueIndex("outbox_dedupe_idx").on(t.dedupeKey),
  ],
);

/**
 * Incoming webhook events, the inbox (docs/decisions/0042-webhook-inbox.md): keyed by the provider's event id so
 * a duplicate is dropped, stored before the sender is answered, then delivered to the order's workflow until
 * it has it. Waiting for delivery: `workflow_id` set and `processed_at` null; due when `next_attempt_at` has passed.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** Settled: delivered to its workflow, or nothing to deliver it to (`outcome` says which). */
    processedAt: timestamp("processed_at", { withTimezone: true }),
    /** The workflow the event goes to, and the signal it goes as (null: nothing to deliver). */
    workflowId: text("workflow_id"),
    signalName: text("signal_name"),
    signalArg: jsonb("signal_arg"),
    /** Delivery attempts started (the endpoint's own is the first). */
    attempts: integer("attempts").notNull().default(0),
    /** When the relay may try (again): the endpoint's hold, a relay's lease, or the back-off. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** domain/webhook-inbox.ts InboxOutcome, once settled. */
    outcome: text("outcome"),
    lastError: text("last_error"),
  },
  (t) => [
    index("webhook_events_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`processed_at IS NULL AND workflow_id IS NOT NULL`),
  ],
);

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

/**
 * Stock taken from / put back on listings by order workflows, one row per idempotency key: the row is
 * written in the same transaction as the stock change, so a retried activity changes stock once.
 */
export const stockMovements = pgTable(
  "stock_movements",
  {
    idempotencyKey: text("idempotency_key").primaryKey(),
    orderId: integer("order_id").notNull(),
    /** 'decrement' or 'restore'. */
    kind: text("kind").notNull(),
    /** Hash of the lines: the same key with other lines is a bug (IdempotencyConflict). */
    requestHash: text("request_hash").notNull(),
    lines: jsonb("lines").notNull(),
    ok: boolean("ok").notNull(),
    /** When not ok: the listing and size that lacked units. */
    failedListingId: integer("failed_listing_id"),
    failedSize: text("failed_size"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("stock_movements_order_idx").on(t.orderId)],
);

/**
 * State of the sandbox carrier (the built-in stand-in for a parcel carrier): one shipment per order and
 * sender (a swap ships both ways) with its tracking number and PDF label, the current pickup (call tag) and
 * the tracking status.
 */
export const sandboxCarrierShipments = pgTable(
  "sandbox_carrier_shipments",
  {
    id: text("id").primaryKey(),
    orderId: integer("order_id").notNull(),
    /** The retailer the parcel is picked up from. */
    senderId: integer("sender_id").notNull(),
    trackingNumber: text("tracking_number").notNull(),
    callTag: text("call_tag").notNull(),
    pickupAttempt: integer("pickup_attempt").notNull().default(1),
    pickupBy: timestamp("pickup_by", { withTimezone: true }),
    /** pre_transit (pickup scheduled), picked_up, in_transit, delivered, cancelled. */
    status: text("status").notNull().default("pre_transit"),
    /** Booked pickups (call tags) of this shipment, oldest first, with the idempotency key of each booking. */
    pickups: jsonb("pickups")
      .$type<
        {
          callTag: string;
          attempt: number;
          pickupBy: string;
          idempotencyKey: string;
          status: string;
        }[]
      >()
      .notNull()
      .default([]),
    /** Tracking scans sent so far, oldest first (the tracker's tracking_details). */
    scans: jsonb("scans")
      .$type<{ eventId: string; status: string; at: string }[]>()
      .notNull()
      .default([]),
    /** The label's data, recorded at booking; the PDF is rendered when the label is opened. */
    labelData: jsonb("label_data").$type<CarrierLabelData>(),
    /** A label rendered at booking (shipments booked before label_data existed). */
    labelPdf: bytea("label_pdf"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("sandbox_carrier_shipments_order_idx").on(t.orderId, t.senderId),
    uniqueIndex("sandbox_carrier_shipments_tracking_idx").on(t.trackingNumber),
  ],
);

/** Demo-seed bookkeeping: the seed runs once per database. */
export const seedRuns = pgTable("seed_runs", {
  name: text("name").primaryKey(),
  ranAt: timestamp("ran_at", { withTimezone: true }).notNull().defaultNow(),
  detail: integer("detail"),
});

/**
 * Each restore of a backup (scripts/restore.mjs, docs/operations.md "Backups and restore"): a movement of an
 * order created before it asks the provider whether it already happened before it is sent
 * (docs/decisions/0048-restore-asks-the-provider.md).
 */
export const restores = pgTable("restores", {
  id: serial("id").primaryKey(),
  /** The backup's directory name. */
  backup: text("backup").notNull(),
  /** When the backup was taken: what happened after it is not in this database. */
  backupTakenAt: timestamp("backup_taken_at", { withTimezone: true }).notNull(),
  restoredAt: timestamp("restored_at", { withTimezone: true }).notNull().defaultNow(),
});

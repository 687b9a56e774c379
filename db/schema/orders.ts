import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { SizesMap } from "./_types";
import { brands, productVariations } from "./catalogue";
import { listingRequests, listings } from "./marketplace";
import { users } from "./accounts";
import { retailers } from "./retailers";

/** Shape of orders.ledger: domain/order-money OrderLedger (kept structural: db/schema imports no domain code). */
export type OrderLedgerJson = Record<string, number | boolean>;

/**
 * An order (buy or swap transaction, or an RMA): the read model its workflow keeps current.
 * transaction_type: 1 Sale, 2 Swap, 3 RMA. statename/action codes come from domain/.
 * An RMA (docs/product/glossary.md, "Parties") is an order of type 3 for an original order (rma_for_id): its provider is the VICTIM
 * (refunded), its receiver the PERPETRATOR (charged), its contributions the lines asked back (rma_* fields),
 * its stage one of rmarequested, shipping, rmacompleted, rmadeclined, rmacancelled; the return parcel is one
 * of its shipments, so the carrier's events reach the RMA's workflow as any order's do.
 */
export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    externalId: text("external_id").notNull(),
    workflowId: text("workflow_id").notNull(),
    transactionType: integer("transaction_type").notNull(),
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "set null" }),
    providerId: integer("provider_id")
      .notNull()
      .references(() => retailers.id),
    /**
     * Who of the placing store placed it (docs/product/teams.md, "Who placed an order"): the user who proceeded
     * from the cart, or who made the offer it came from. Shown to that store and to staff only. Null for orders
     * placed before it was kept, and for a workflow's own orders.
     */
    placedByUserId: integer("placed_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /**
     * Who of the placing store approved it when it was over the placer's limit (docs/product/teams.md, "Limits and
     * approval"); null when it needed no approval. Shown to that store and to staff only.
     */
    approvedByUserId: integer("approved_by_user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    receiverId: integer("receiver_id")
      .notNull()
      .references(() => retailers.id),
    requestId: integer("request_id").references(() => listingRequests.id, { onDelete: "set null" }),
    statename: text("statename").notNull(),
    displayStatus: text("display_status").notNull(),
    /** Whose move it is: 'provider', 'receiver', 'staff' or null. */
    actionNeeded: text("action_needed"),
    stage: text("stage").notNull().default("pre_shipping"),
    /** null awaiting a response, false declined, true done. */
    completed: boolean("completed"),
    isModified: boolean("is_modified").notNull().default(false),
    valueCents: integer("value_cents").notNull().default(0),
    receiverFeeCents: integer("receiver_fee_cents").notNull().default(0),
    receiverShippingCents: integer("receiver_shipping_cents").notNull().default(0),
    receiverGrandTotalCents: integer("receiver_grand_total_cents").notNull().default(0),
    providerFeeCents: integer("provider_fee_cents").notNull().default(0),
    providerShippingCents: integer("provider_shipping_cents").notNull().default(0),
    authorizedCents: integer("authorized_cents").notNull().default(0),
    capturedCents: integer("captured_cents").notNull().default(0),
    reasons: jsonb("reasons").$type<Record<string, string | number>>().notNull().default({}),
    providerRating: integer("provider_rating"),
    receiverRating: integer("receiver_rating"),
    providerRatingComments: text("provider_rating_comments"),
    receiverRatingComments: text("receiver_rating_comments"),
    floorTime: text("floor_time"),
    /** The order's money ledger (domain/order-money OrderLedger) as its workflow last recorded it; staff see it on the order card. */
    ledger: jsonb("ledger").$type<OrderLedgerJson>(),
    /** The running windows (ISO instants or null: checkoutBy, sellerResponseBy, pickupBy, ratingBy, rmaBy, ...) as the workflow last recorded them. */
    deadlines: jsonb("deadlines").$type<Record<string, string | null>>(),
    /**
     * Sequence number of the workflow's last read-model write applied (OrderStateRecord.sequence): a write
     * with a lower or equal number (a slower activity of an earlier step finishing late) is not applied.
     */
    recordSeq: integer("record_seq").notNull().default(0),
    /**
     * A swap: the terms as its workflow holds them (workflows/swap/contract SwapView), written with each step's
     * read-model write (same sequence): the swap panel shows them without asking the workflow. Null for other
     * orders, and for a swap whose last write came before this column (the panel then asks the workflow).
     */
    swapView: jsonb("swap_view").$type<Record<string, unknown>>(),
    /** An RMA: the original order it returns goods of. */
    rmaForId: integer("rma_for_id"),
    /** An RMA: the victim's contact for the return (docs/product/screens.md, "RMA wizard", step 3) and staff's RMA fee. */
    rmaContactName: text("rma_contact_name"),
    rmaContactEmail: text("rma_contact_email"),
    rmaContactPhone: text("rma_contact_phone"),
    rmaPackingSlipName: text("rma_packing_slip_name"),
    rmaFeeCents: integer("rma_fee_cents").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_external_id_idx").on(t.externalId),
    // One RMA per original order and victim (a swap's two sides may each have one).
    uniqueIndex("orders_rma_for_victim_idx")
      .on(t.rmaForId, t.providerId)
      .where(sql`${t.transactionType} = 3`),
    uniqueIndex("orders_workflow_id_idx").on(t.workflowId),
    index("orders_provider_idx").on(t.providerId, t.modifiedAt),
    index("orders_receiver_idx").on(t.receiverId, t.modifiedAt),
    index("orders_stage_idx").on(t.stage),
    // The surplus dashboard's 12 months of a brand's and of the marketplace's orders (ADR 0028).
    index("orders_brand_created_idx").on(t.brandId, t.createdAt),
    index("orders_created_idx").on(t.createdAt),
    check(
      "orders_amounts_nonnegative",
      sql`${t.valueCents} >= 0 AND ${t.receiverFeeCents} >= 0 AND ${t.receiverShippingCents} >= 0 AND ${t.capturedCents} >= 0`,
    ),
  ],
);

/** What each side puts into an order: goods from a listing (units per size) or cash. */
export const orderContributions = pgTable(
  "order_contributions",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    side: text("side").notNull(),
    type: text("type").notNull().default("goods"),
    listingId: integer("listing_id").references(() => listings.id, { onDelete: "set null" }),
    variationId: integer("variation_id").references(() => productVariations.id, {
      onDelete: "set null",
    }),
    units: jsonb("units").$type<SizesMap>().notNull().default({}),
    /** Units as the other side proposed them, while a modification waits for an answer. */
    pendingUnits: jsonb("pending_units").$type<SizesMap>(),
    quantity: integer("quantity").notNull().default(0),
    unitPriceCents: integer("unit_price_cents").notNull().default(0),
    valueCents: integer("value_cents").notNull().default(0),
    /** An RMA line: the original order's line it returns units of, the reason (RMA_REASONS; 4 = other with its text), units asked back. */
    rmaSourceId: integer("rma_source_id"),
    rmaReason: integer("rma_reason"),
    rmaReasonOther: text("rma_reason_other"),
    rmaQuantityRequested: integer("rma_quantity_requested"),
    /** Staff's decision: null pending, true approved (quantity = approved units), false denied; and the comment. */
    rmaApproved: boolean("rma_approved"),
    rmaApprovalComment: text("rma_approval_comment"),
    /** The line's pictures (up to 3): stored upload names (uploads.rma_id holds them). */
    rmaPictures: jsonb("rma_pictures").$type<string[]>(),
  },
  (t) => [
    index("order_contributions_order_idx").on(t.orderId),
    check("order_contributions_units_valid", sql`sizes_map_valid(${t.units})`),
    check(
      "order_contributions_quantity_nonnegative",
      sql`${t.quantity} >= 0 AND ${t.valueCents} >= 0`,
    ),
  ],
);

/** Every step of an order, with the action code of domain/action-codes. */
export const orderActions = pgTable(
  "order_actions",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    code: integer("code").notNull(),
    role: text("role").notNull(),
    participantId: integer("participant_id"),
    statename: text("statename").notNull(),
    displayStatus: text("display_status").notNull(),
    complete: boolean("complete").notNull().default(false),
    seenAt: timestamp("seen_at", { withTimezone: true }),
    /** The workflow's dedupe key of the read-model write that recorded this row: a retried write adds no rows. */
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("order_actions_order_idx").on(t.orderId),
    index("order_actions_code_idx").on(t.code),
    uniqueIndex("order_actions_dedupe_idx").on(t.dedupeKey, t.code),
  ],
);

export const shipments = pgTable(
  "shipments",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    senderId: integer("sender_id")
      .notNull()
      .references(() => retailers.id),
    receiverId: integer("receiver_id")
      .notNull()
      .references(() => retailers.id),
    carrier: text("carrier").notNull().default("sandbox"),
    trackingNumber: text("tracking_number"),
    callTag: text("call_tag"),
    status: text("status").notNull().default("pickup_scheduled"),
    labelUrl: text("label_url"),
    /** Where the parcel is followed: the carrier adapter's answer to the booking (none: the number only). */
    trackingUrl: text("tracking_url"),
    pickupBy: timestamp("pickup_by", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("shipments_order_idx").on(t.orderId),
    uniqueIndex("shipments_tracking_idx").on(t.trackingNumber),
  ],
);

export const shipmentEvents = pgTable(
  "shipment_events",
  {
    id: serial("id").primaryKey(),
    shipmentId: integer("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    providerEventId: text("provider_event_id"),
    status: text("status").notNull(),
    description: text("description").notNull(),
    eventTimestamp: timestamp("event_timestamp", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("shipment_events_shipment_idx").on(t.shipmentId),
    uniqueIndex("shipment_events_provider_idx").on(t.providerEventId),
  ],
);

/** Money movements of an order: authorisations, captures, refunds, transfers (payouts), penalties. */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "cascade" }),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id),
    name: text("name").notNull(),
    txtype: text("txtype").notNull(),
    amountCents: integer("amount_cents").notNull(),
    feeCents: integer("fee_cents").notNull().default(0),
    status: text("status").notNull(),
    queued: boolean("queued").notNull().default(false),
    providerRef: text("provider_ref"),
    idempotencyKey: text("idempotency_key").notNull(),
    paymentMethodDescription: text("payment_method_description"),
    lastFour: text("last_four"),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payments_idempotency_idx").on(t.idempotencyKey),
    index("payments_order_idx").on(t.orderId),
    // A retailer's statements (db/queries/statements.ts): its movements by month, and the sum of those before one.
    index("payments_retailer_created_idx").on(t.retailerId, t.createdAt),
    // The surplus dashboard's payouts of a brand and of the marketplace since a date (ADR 0028; docs/performance.md).
    index("payments_transfer_created_idx")
      .on(t.createdAt)
      .where(sql`${t.txtype} = 'transfer'`),
    check("payments_amount_nonnegative", sql`${t.amountCents} >= 0 AND ${t.feeCents} >= 0`),
  ],
);

export const ratings = pgTable(
  "ratings",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    raterId: integer("rater_id")
      .notNull()
      .references(() => retailers.id),
    rateeId: integer("ratee_id")
      .notNull()
      .references(() => retailers.id),
    role: text("role").notNull(),
    condition: integer("condition").notNull(),
    packaging: integer("packaging").notNull(),
    timeliness: integer("timeliness").notNull(),
    overall: integer("overall").notNull(),
    comments: text("comments").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ratings_order_rater_idx").on(t.orderId, t.raterId),
    check(
      "ratings_stars_range",
      sql`${t.condition} BETWEEN 1 AND 5 AND ${t.packaging} BETWEEN 1 AND 5 AND ${t.timeliness} BETWEEN 1 AND 5 AND ${t.overall} BETWEEN 1 AND 5`,
    ),
  ],
);

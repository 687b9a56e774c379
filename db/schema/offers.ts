import { sql } from "drizzle-orm";
import {
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
import type { OfferMove } from "../../domain/offers";
import type { SizesMap } from "./_types";
import { users } from "./accounts";
import { listings } from "./marketplace";
import { orders } from "./orders";
import { retailers } from "./retailers";

/**
 * Offers below the listed price (docs/product/offers.md; ADR 0056): the read model of each offer's workflow
 * (id offer:<id>), written when the offer is made and by the workflow's activities after each turn. One open
 * offer per buyer and listing (offers_one_open_idx). order_id is the purchase an accepted offer became.
 */
export const offers = pgTable(
  "offers",
  {
    id: serial("id").primaryKey(),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    /** The buyer's user who made it (the purchase's "placed by"). */
    buyerUserId: integer("buyer_user_id").references(() => users.id, { onDelete: "set null" }),
    buyerId: integer("buyer_id")
      .notNull()
      .references(() => retailers.id),
    sellerId: integer("seller_id")
      .notNull()
      .references(() => retailers.id),
    workflowId: text("workflow_id").notNull().default(""),
    sizes: jsonb("sizes").$type<SizesMap>().notNull(),
    units: integer("units").notNull(),
    listedUnitCents: integer("listed_unit_cents").notNull(),
    buyerUnitCents: integer("buyer_unit_cents").notNull(),
    tableUnitCents: integer("table_unit_cents").notNull(),
    agreedUnitCents: integer("agreed_unit_cents"),
    holdCents: integer("hold_cents").notNull(),
    status: text("status").notNull().default("open"),
    turn: text("turn").notNull().default("seller"),
    sellerCounters: integer("seller_counters").notNull().default(0),
    buyerCounters: integer("buyer_counters").notNull().default(0),
    deadline: timestamp("deadline", { withTimezone: true }).notNull(),
    endReason: text("end_reason"),
    moves: jsonb("moves").$type<OfferMove[]>().notNull().default([]),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("offers_one_open_idx")
      .on(t.listingId, t.buyerId)
      .where(sql`${t.status} = 'open'`),
    index("offers_buyer_idx").on(t.buyerId, t.updatedAt),
    index("offers_seller_idx").on(t.sellerId, t.updatedAt),
    check(
      "offers_status",
      sql`${t.status} IN ('open', 'accepted', 'declined', 'expired', 'withdrawn')`,
    ),
    check("offers_turn", sql`${t.turn} IN ('buyer', 'seller')`),
    check(
      "offers_prices",
      sql`${t.units} > 0 AND ${t.buyerUnitCents} > 0 AND ${t.tableUnitCents} < ${t.listedUnitCents} AND ${t.buyerUnitCents} <= ${t.tableUnitCents}`,
    ),
    check("offers_two_sides", sql`${t.buyerId} <> ${t.sellerId}`),
  ],
);

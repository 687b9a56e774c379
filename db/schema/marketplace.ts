import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { SizesMap } from "./_types";
import { brands, productVariations } from "./catalogue";
import { users } from "./accounts";
import { retailers } from "./retailers";

export const listingType = pgEnum("listing_type", ["sell", "swap"]);
/** payoutneeded: hidden from other retailers until the provider sets up payout. */
export const listingStatus = pgEnum("listing_status", ["payoutneeded", "active"]);

export const listings = pgTable(
  "listings",
  {
    id: serial("id").primaryKey(),
    variationId: integer("variation_id")
      .notNull()
      .references(() => productVariations.id, { onDelete: "cascade" }),
    /** Denormalised from the variation for the marketplace's indexes. */
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    providerId: integer("provider_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    listingType: listingType("listing_type").notNull().default("sell"),
    reason: text("reason").notNull(),
    modifiedReason: text("modified_reason").notNull().default("none"),
    floorTime: text("floor_time"),
    reservedForRequestId: integer("reserved_for_request_id"),
    sizes: jsonb("sizes").$type<SizesMap>().notNull(),
    /** Sum of sizes; 0 means deleted / sold out. Kept by the same statement that changes sizes. */
    totalUnits: integer("total_units").notNull(),
    status: listingStatus("status").notNull().default("payoutneeded"),
    terms: boolean("terms").notNull().default(false),
    /**
     * Set when someone other than the owner (staff browsing as admin) changed the listing's sizes: the owner
     * sees an "Action Required!" re-list notice until they save the listing again (which clears it).
     */
    correctedAt: timestamp("corrected_at", { withTimezone: true }),
    /** Photos uploaded in the "List a style" wizard: file names under UPLOAD_DIR, served at /uploads/<name>. */
    images: jsonb("images").$type<string[]>().notNull().default([]),
    /**
     * Marketplace ordering keys copied from the variation (lower(sku), price) so per-brand top-N pages are
     * index scans. Kept by the database itself (trigger from migration 0004_marketplace_indexes): writers
     * need not set them.
     */
    skuKey: text("sku_key").notNull().default(""),
    priceCents: integer("price_cents").notNull().default(0),
    /**
     * The listing's own current price, set by its markdown schedule (docs/product/markdowns.md); null: the
     * catalogue's. price_cents is then the lower of the two (the triggers of migrations 0004 and 0040), and it is
     * what the marketplace, the cart and the draft order read.
     */
    ownPriceCents: integer("own_price_cents"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("listings_sizes_valid", sql`sizes_map_valid(${t.sizes})`),
    check("listings_total_units_nonnegative", sql`${t.totalUnits} >= 0`),
    index("listings_provider_idx").on(t.providerId),
    index("listings_brand_status_idx").on(t.brandId, t.status, t.createdAt),
    index("listings_variation_idx").on(t.variationId),
    // Marketplace (db/queries/marketplace.ts): visible listings per brand and type, one index per ordering.
    index("listings_market_recent_idx")
      .on(t.brandId, t.listingType, t.createdAt, t.id)
      .where(sql`${t.status} = 'active' AND ${t.totalUnits} > 0`),
    index("listings_market_sku_idx")
      .on(t.brandId, t.listingType, t.skuKey, t.id)
      .where(sql`${t.status} = 'active' AND ${t.totalUnits} > 0`),
    index("listings_market_price_idx")
      .on(t.brandId, t.listingType, t.priceCents, t.id)
      .where(sql`${t.status} = 'active' AND ${t.totalUnits} > 0`),
    index("listings_market_sku_trgm_idx")
      .using("gin", sql`${t.skuKey} gin_trgm_ops`)
      .where(sql`${t.status} = 'active' AND ${t.totalUnits} > 0`),
    // Staff's generic list (/admin/listing, /admin/listings: ADR 0020): every listing sorted by a column,
    // and searched by sku (a substring) whatever its status.
    index("listings_admin_price_idx").on(t.priceCents, t.id),
    index("listings_admin_created_idx").on(t.createdAt, t.id),
    index("listings_admin_units_idx").on(t.totalUnits, t.id),
    // Staff's list filtered by status, newest first (the generic list's deep pages).
    index("listings_admin_status_idx").on(t.status, t.id),
    index("listings_admin_sku_trgm_idx").using("gin", sql`${t.skuKey} gin_trgm_ops`),
  ],
);

export const listingRequests = pgTable(
  "listing_requests",
  {
    id: serial("id").primaryKey(),
    variationId: integer("variation_id")
      .notNull()
      .references(() => productVariations.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    requestorId: integer("requestor_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    modifiedReason: text("modified_reason").notNull().default("none"),
    sizes: jsonb("sizes").$type<SizesMap>().notNull(),
    totalUnits: integer("total_units").notNull(),
    /** Ordering keys copied from the variation by a trigger (see listings.skuKey). */
    skuKey: text("sku_key").notNull().default(""),
    priceCents: integer("price_cents").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("listing_requests_sizes_valid", sql`sizes_map_valid(${t.sizes})`),
    check("listing_requests_total_units_nonnegative", sql`${t.totalUnits} >= 0`),
    index("listing_requests_requestor_idx").on(t.requestorId),
    index("listing_requests_brand_idx").on(t.brandId, t.createdAt),
    index("listing_requests_variation_idx").on(t.variationId),
    index("listing_requests_market_recent_idx")
      .on(t.brandId, t.createdAt, t.id)
      .where(sql`${t.totalUnits} > 0`),
    index("listing_requests_market_sku_idx")
      .on(t.brandId, t.skuKey, t.id)
      .where(sql`${t.totalUnits} > 0`),
    index("listing_requests_market_price_idx")
      .on(t.brandId, t.priceCents, t.id)
      .where(sql`${t.totalUnits} > 0`),
    index("listing_requests_market_sku_trgm_idx")
      .using("gin", sql`${t.skuKey} gin_trgm_ops`)
      .where(sql`${t.totalUnits} > 0`),
  ],
);

/**
 * One cart line: a listing (buy and swap carts) or a request (sell carts: selling to a request; listingId
 * absent). providerId is the other retailer (the listing's provider, or the request's requestor).
 */
export type CartItem = {
  listingId?: number;
  requestId?: number;
  selection: SizesMap;
  providerId: number;
  brandId: number;
};

/** The server-side cart, one per retailer (staff acting as a retailer use that retailer's). */
export const carts = pgTable("carts", {
  retailerId: integer("retailer_id")
    .primaryKey()
    .references(() => retailers.id, { onDelete: "cascade" }),
  type: text("type"),
  items: jsonb("items").$type<CartItem[]>().notNull().default([]),
  draftOrderId: integer("draft_order_id"),
  /** Draft orders made from this cart at checkout (one per seller, or per request when selling): proceeding again updates them. */
  draftOrderIds: jsonb("draft_order_ids").$type<number[]>().notNull().default([]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Listing photos (files under UPLOAD_DIR, app/utils/uploads.server.ts). An upload belongs to its uploader
 * until a listing is created with it (listing_id set); unattached uploads older than a day are removed.
 * uploader_id is null only for photos that were already on listings before this table existed.
 */
export const uploads = pgTable(
  "uploads",
  {
    name: text("name").primaryKey(),
    uploaderId: integer("uploader_id").references(() => users.id, { onDelete: "cascade" }),
    listingId: integer("listing_id").references(() => listings.id, { onDelete: "set null" }),
    /** An RMA's picture: the RMA (an order of type 3) it belongs to. Plain integer: db/schema/orders imports this module. */
    rmaId: integer("rma_id"),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("uploads_unattached_idx")
      .on(t.uploadedAt)
      .where(sql`${t.listingId} is null and ${t.rmaId} is null`),
    index("uploads_listing_idx").on(t.listingId),
  ],
);

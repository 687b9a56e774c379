import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { brands, categories } from "./catalogue";
import { listingRequests, listings } from "./marketplace";
import { retailers } from "./retailers";

/**
 * A retailer's saved marketplace search (docs/product/screens.md, "Matches"; ADR 0030): a brand, optionally a
 * category, size labels and a product-code text. New visible listings that fit it become matches.
 */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "cascade" }),
    /** Size labels: a listing fits when it has units in at least one (none = any size). */
    sizes: text("sizes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Lower-case product-code text a listing's code must contain ('' = any). */
    search: text("search").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("saved_searches_brand_idx").on(t.brandId),
    index("saved_searches_retailer_idx").on(t.retailerId),
  ],
);

/**
 * A listing that became visible and fills a retailer's open request or fits its saved search: one row per
 * (listing, retailer), recorded by db/queries/matches.ts recordMatchesForListing. seen_at: opened on the
 * Matches tab; digest_key: the daily e-mail (outbox dedupe key) that listed it.
 */
export const listingMatches = pgTable(
  "listing_matches",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    requestId: integer("request_id").references(() => listingRequests.id, { onDelete: "cascade" }),
    savedSearchId: integer("saved_search_id").references(() => savedSearches.id, {
      onDelete: "cascade",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp("seen_at", { withTimezone: true }),
    digestKey: text("digest_key"),
  },
  (t) => [
    check(
      "listing_matches_one_source",
      sql`(${t.requestId} is null) <> (${t.savedSearchId} is null)`,
    ),
    uniqueIndex("listing_matches_listing_retailer_idx").on(t.listingId, t.retailerId),
    index("listing_matches_retailer_idx").on(t.retailerId, t.createdAt, t.id),
    // Staff's matches per week (ADR 0030): the last weeks' matches of the whole marketplace by their date.
    index("listing_matches_created_idx").on(t.createdAt),
    index("listing_matches_undigested_idx")
      .on(t.retailerId)
      .where(sql`${t.digestKey} is null`),
  ],
);

import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import type { SizesMap } from "./_types";
import { users } from "./accounts";
import { apiTokens } from "./api-tokens";
import { listings } from "./marketplace";
import { retailers } from "./retailers";

/** One preview or import result line (app/utils/stock-import.server.ts): what a file's line does. */
export interface StockImportRowJson {
  /** The file's line numbers this row stands for (one variation's sizes). */
  lines: number[];
  code: string;
  /** The matched variation ("Product code · colour"), when there is one. */
  variationId: number | null;
  label: string;
  /** create, update, unchanged, withdraw, kept (in an order), nothing, refused, choose (a guess to confirm). */
  action: string;
  sizes: SizesMap | null;
  listingId: number | null;
  messages: string[];
  /** Guesses the retailer confirms (action "choose"): the variation, its own product code (absent in imports before it was kept). */
  guesses?: { variationId: number; code?: string; label: string }[];
}

/**
 * A stock file import (docs/product/screens.md, "Stock file import"; ADR 0029): the file's rows as read
 * (header first), the preview, and after the confirmation the results. Kept as the history of the
 * retailer's uploads.
 */
export const stockImports = pgTable(
  "stock_imports",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    /** Sent through the API with this token (docs/guides/stock-import.md "API"); null for the page's uploads. */
    apiTokenId: integer("api_token_id").references(() => apiTokens.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    fileSha256: text("file_sha256").notNull(),
    wholeSurplus: boolean("whole_surplus").notNull().default(false),
    /** mapping (columns to choose), preview, confirmed. */
    status: text("status").notNull().default("preview"),
    cells: jsonb("cells").$type<string[][]>().notNull(),
    preview: jsonb("preview").$type<StockImportRowJson[]>(),
    results: jsonb("results").$type<StockImportRowJson[]>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (t) => [index("stock_imports_retailer_idx").on(t.retailerId, t.createdAt)],
);

/** The column mapping a retailer chose once (field -> header text), used for its next files. */
export const stockImportMappings = pgTable("stock_import_mappings", {
  retailerId: integer("retailer_id")
    .primaryKey()
    .references(() => retailers.id, { onDelete: "cascade" }),
  mapping: jsonb("mapping").$type<Record<string, string>>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A listing's history of stock imports: which import changed it, from what to what. */
export const listingStockChanges = pgTable(
  "listing_stock_changes",
  {
    id: serial("id").primaryKey(),
    listingId: integer("listing_id")
      .notNull()
      .references(() => listings.id, { onDelete: "cascade" }),
    importId: integer("import_id")
      .notNull()
      .references(() => stockImports.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    before: jsonb("before").$type<SizesMap>(),
    after: jsonb("after").$type<SizesMap>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    index("listing_stock_changes_listing_idx").on(t.listingId, t.createdAt),
    index("listing_stock_changes_import_idx").on(t.importId),
  ],
);

/**
 * A listing a stock import could not withdraw because an order waiting for an answer takes units from it
 * (docs/guides/stock-import.md "Sync"): it is withdrawn, as done by that import, in the transaction that ends its last such order
 * (db/queries/deferred-withdrawals.ts). The row stays after the withdrawal, so units an order puts back later
 * do not list it again; a later import listing it with units, or its owner setting units on its page, deletes it.
 */
export const deferredWithdrawals = pgTable("deferred_withdrawals", {
  listingId: integer("listing_id")
    .primaryKey()
    .references(() => listings.id, { onDelete: "cascade" }),
  importId: integer("import_id")
    .notNull()
    .references(() => stockImports.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

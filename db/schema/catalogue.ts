import { sql } from "drizzle-orm";
import type { UploadRow } from "../../domain/catalogue-upload";
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

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  jobTitle: text("job_title").notNull().default(""),
  phone: text("phone").notNull().default(""),
  celphone: text("celphone").notNull().default(""),
  email: text("email").notNull().default(""),
  address1: text("address1").notNull().default(""),
  address2: text("address2").notNull().default(""),
  city: text("city").notNull().default(""),
  state: text("state").notNull().default(""),
  postalCode: text("postal_code").notNull().default(""),
  country: text("country").notNull().default("US"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const brands = pgTable(
  "brands",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    displayName: text("display_name").notNull(),
    businessModel: text("business_model").notNull().default(""),
    segments: text("segments")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    priceTier: text("price_tier").notNull().default(""),
    companyId: integer("company_id").references(() => companies.id, { onDelete: "set null" }),
    alias: text("alias"),
    isValid: boolean("is_valid").notNull().default(true),
    isActive: boolean("is_active").notNull().default(true),
    /** Staff's notes on the brand (never shown to retailers). */
    staffComments: text("staff_comments").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("brands_name_lower_idx").on(sql`lower(${t.name})`)],
);

export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  parentId: integer("parent_id"),
});

export const collections = pgTable(
  "collections",
  {
    id: serial("id").primaryKey(),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    year: integer("year").notNull(),
    name: text("name").notNull(),
    subbrand: text("subbrand").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
  },
  (t) => [index("collections_brand_idx").on(t.brandId)],
);

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    /** Denormalised from the collection for filtering. */
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    sku: text("sku").notNull(),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    /** Wholesale cost set by the brand, in cents. */
    priceCents: integer("price_cents").notNull(),
    isActive: boolean("is_active").notNull().default(true),
  },
  (t) => [
    index("products_collection_idx").on(t.collectionId),
    index("products_brand_idx").on(t.brandId),
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
  ],
);

/** The size run of a product (labels in display order). */
export const productSizes = pgTable(
  "product_sizes",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [uniqueIndex("product_sizes_product_label_idx").on(t.productId, t.label)],
);

/** A colour variation of a product: what is listed and requested. `sku` is the product code searched for. */
export const productVariations = pgTable(
  "product_variations",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    color: text("color").notNull(),
    priceCents: integer("price_cents").notNull(),
    options: jsonb("options").$type<Record<string, string>>().notNull().default({}),
    /**
     * Its barcodes (UPC-A, EAN-13 or EAN-8 as entered, check digit included: domain/barcodes.ts), what a stock
     * file may name it by; no two variations share one (checked where they are set, db/queries/barcodes.ts).
     */
    barcodes: text("barcodes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isActive: boolean("is_active").notNull().default(true),
  },
  (t) => [
    index("variations_product_idx").on(t.productId),
    index("variations_barcodes_idx").using("gin", t.barcodes),
    index("variations_brand_sku_idx").on(t.brandId, t.sku),
    check("variations_price_nonnegative", sql`${t.priceCents} >= 0`),
  ],
);

export const variationImages = pgTable(
  "variation_images",
  {
    id: serial("id").primaryKey(),
    variationId: integer("variation_id")
      .notNull()
      .references(() => productVariations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    thumbnailUrl: text("thumbnail_url").notNull(),
    description: text("description").notNull().default(""),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("variation_images_variation_idx").on(t.variationId)],
);

/** One row of a collection upload's spreadsheet as read (docs/product/screens.md, "Staff: collection uploads") with its problems. */
export type CollectionUploadRowJson = UploadRow;

/**
 * A collection upload: a .zip (spreadsheet + images) read once into rows and images kept under UPLOAD_DIR;
 * previewed until saved; a saved upload cannot be saved again.
 */
export const collectionUploads = pgTable(
  "collection_uploads",
  {
    id: serial("id").primaryKey(),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    uploadedBy: integer("uploaded_by"),
    fileName: text("file_name").notNull(),
    rows: jsonb("rows").$type<CollectionUploadRowJson[]>().notNull(),
    /** Stored image file names by their name inside the zip. */
    images: jsonb("images").$type<Record<string, string>>().notNull().default({}),
    /** previewed | saved */
    status: text("status").notNull().default("previewed"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    savedAt: timestamp("saved_at", { withTimezone: true }),
  },
  (t) => [index("collection_uploads_collection_idx").on(t.collectionId)],
);

/**
 * An unresolved catalogue entry (docs/product/screens.md, "Staff: validation tools"): a product as an external
 * source described it (its initial fields), waiting for staff to match it to one of ours. Candidate matches
 * are computed when shown (trigram similarity of names, db/queries/validation.ts); resolving records the product.
 * A saved collection upload's product code new to its brand makes one (ADR 0032): it remembers the
 * brand, the upload and its line, and the product the save made (the initial product).
 */
export const catalogueEntries = pgTable(
  "catalogue_entries",
  {
    id: serial("id").primaryKey(),
    /** The retailer whose source sent it (null: unknown). */
    retailerId: integer("retailer_id"),
    brandName: text("brand_name").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    priceCents: integer("price_cents"),
    image: text("image").notNull().default(""),
    resolvedProductId: integer("resolved_product_id").references(() => products.id, {
      onDelete: "set null",
    }),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /** How staff resolved it: matched (to another product), validated (its initial product is right), rejected. */
    resolution: text("resolution"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The brand the entry belongs to (null: known by brand_name only). */
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "set null" }),
    /** The product code as the source gave it ('' when it gave none). */
    sku: text("sku").notNull().default(""),
    /** The collection upload whose line it came from, and that line of the spreadsheet. */
    uploadId: integer("upload_id").references(() => collectionUploads.id, { onDelete: "set null" }),
    uploadLine: integer("upload_line"),
    /** The product made from the source's line (the upload's save), if any. */
    initialProductId: integer("initial_product_id").references(() => products.id, {
      onDelete: "set null",
    }),
  },
  (t) => [
    index("catalogue_entries_unresolved_idx")
      .on(t.id)
      .where(sql`${t.resolvedAt} is null`),
    // One entry per brand and product code (case, spaces and punctuation ignored).
    uniqueIndex("catalogue_entries_brand_code_idx")
      .on(t.brandId, sql`lower(regexp_replace(${t.sku}, '[^[:alnum:]]', '', 'g'))`)
      .where(sql`${t.sku} <> ''`),
  ],
);

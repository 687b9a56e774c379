import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  doublePrecision,
} from "drizzle-orm/pg-core";
import { brands } from "./catalogue";

/** pending: waiting for staff; active: may trade; inactive: switched off by staff; denied: refused at activation. */
export const retailerStatus = pgEnum("retailer_status", [
  "pending",
  "active",
  "inactive",
  "denied",
]);

export const retailers = pgTable(
  "retailers",
  {
    id: serial("id").primaryKey(),
    storeName: text("store_name").notNull(),
    storeEmail: text("store_email").notNull().default(""),
    storePhone: text("store_phone").notNull().default(""),
    businessName: text("business_name").notNull().default(""),
    /** Labelled "Shipping Address" in the UI. */
    address1: text("address1").notNull().default(""),
    city: text("city").notNull().default(""),
    state: text("state").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    resaleNumber: text("resale_number").notNull().default(""),
    /** The payment provider's connected-account id; present means payout is set up. */
    btMerchantId: text("bt_merchant_id"),
    position: text("position").notNull().default(""),
    segments: text("segments")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    priceTier: text("price_tier").notNull().default(""),
    status: retailerStatus("status").notNull().default("pending"),
    /** The setup wizard (Retailer, Contact, Request Brands) has been finished. */
    setupCompletedAt: timestamp("setup_completed_at", { withTimezone: true }),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }),
  },
  (t) => [
    index("retailers_status_idx").on(t.status),
    // The retailer map's bounding-box search (db/queries/reports.ts retailersNear).
    index("retailers_location_idx")
      .on(t.latitude, t.longitude)
      .where(sql`${t.latitude} is not null and ${t.longitude} is not null`),
  ],
);

export const retailerContacts = pgTable(
  "retailer_contacts",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    userId: integer("user_id"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    email: text("email").notNull().default(""),
    jobTitle: text("job_title").notNull().default(""),
    jobTitleOther: text("job_title_other").notNull().default(""),
    phone: text("phone").notNull().default(""),
    celphone: text("celphone").notNull().default(""),
    address1: text("address1").notNull().default(""),
    city: text("city").notNull().default(""),
    state: text("state").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
  },
  (t) => [
    index("retailer_contacts_retailer_idx").on(t.retailerId),
    index("retailer_contacts_user_idx").on(t.userId),
  ],
);

/** A retailer is authorized for a brand (status 'authorized' by default). */
export const retailerBrands = pgTable(
  "retailer_brands",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("authorized"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("retailer_brands_pair_idx").on(t.retailerId, t.brandId),
    index("retailer_brands_brand_idx").on(t.brandId),
  ],
);

export const brandRequests = pgTable(
  "brand_requests",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    /** The brand as typed by the retailer; brandId once staff match it. */
    brandName: text("brand_name").notNull(),
    brandId: integer("brand_id").references(() => brands.id, { onDelete: "set null" }),
    /** Estimated yearly purchases with the brand, cents. */
    brandPurchaseAmountCents: integer("brand_purchase_amount_cents"),
    yourInterestInThisBrand: text("your_interest_in_this_brand")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    brandContactEmail: text("brand_contact_email").notNull().default(""),
    brandContactName: text("brand_contact_name").notNull().default(""),
    status: text("status").notNull().default("requested"),
    /** Where the retailer typed it: registration (the setup wizard's Request Brands) or request (ADD BRANDS). */
    source: text("source").notNull().default("request"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("brand_requests_retailer_idx").on(t.retailerId),
    index("brand_requests_brand_idx").on(t.brandId),
  ],
);

/** What the merchant (payout) form saved, for prefill. Never the full bank account or tax id. */
export const payoutProfiles = pgTable("payout_profiles", {
  retailerId: integer("retailer_id")
    .primaryKey()
    .references(() => retailers.id, { onDelete: "cascade" }),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  dateOfBirth: text("date_of_birth").notNull(),
  streetAddress: text("street_address").notNull(),
  locality: text("locality").notNull(),
  region: text("region").notNull(),
  postalCode: text("postal_code").notNull(),
  buslegalName: text("buslegal_name").notNull(),
  bustaxIdLast4: text("bustax_id_last4").notNull(),
  busstreetAddress: text("busstreet_address").notNull(),
  buslocality: text("buslocality").notNull(),
  busregion: text("busregion").notNull(),
  buspostalCode: text("buspostal_code").notNull().default(""),
  accountLast4: text("account_last4").notNull(),
  routingNumber: text("routing_number").notNull(),
  tosAcceptedAt: timestamp("tos_accepted_at", { withTimezone: true }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Each payout setup submission, the read model of its workflow. */
export const payoutSetups = pgTable(
  "payout_setups",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    workflowId: text("workflow_id").notNull(),
    status: text("status").notNull().default("started"),
    accountId: text("account_id"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payout_setups_workflow_idx").on(t.workflowId),
    index("payout_setups_retailer_idx").on(t.retailerId),
  ],
);

/** Cards on file (the provider's payment-method id; we keep only type and last four). */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: serial("id").primaryKey(),
    retailerId: integer("retailer_id")
      .notNull()
      .references(() => retailers.id, { onDelete: "cascade" }),
    providerPaymentMethodId: text("provider_payment_method_id").notNull(),
    /** The provider's customer the method is attached to (one per retailer, reused for later cards). */
    providerCustomerId: text("provider_customer_id"),
    description: text("description").notNull(),
    lastFour: text("last_four").notNull(),
    isDefault: boolean("is_default").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_methods_retailer_idx").on(t.retailerId)],
);

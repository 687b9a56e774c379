CREATE TYPE "public"."retailer_status" AS ENUM('pending', 'active', 'inactive', 'denied');--> statement-breakpoint
CREATE TYPE "public"."listing_status" AS ENUM('payoutneeded', 'active');--> statement-breakpoint
CREATE TYPE "public"."listing_type" AS ENUM('sell', 'swap');--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"succeeded" boolean NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"acting_retailer_id" integer,
	"acting_brand_id" integer,
	"dismissed_banners" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_staff" boolean DEFAULT false NOT NULL,
	"retailer_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"business_model" text DEFAULT '' NOT NULL,
	"segments" text[] DEFAULT '{}'::text[] NOT NULL,
	"price_tier" text DEFAULT '' NOT NULL,
	"company_id" integer,
	"alias" text,
	"is_valid" boolean DEFAULT true NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"parent_id" integer
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"brand_id" integer NOT NULL,
	"year" integer NOT NULL,
	"name" text NOT NULL,
	"subbrand" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"job_title" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"celphone" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'US' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_sizes" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"label" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_variations" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"sku" text NOT NULL,
	"color" text NOT NULL,
	"price_cents" integer NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "variations_price_nonnegative" CHECK ("product_variations"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"collection_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"category_id" integer,
	"sku" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "products_price_nonnegative" CHECK ("products"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "variation_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"variation_id" integer NOT NULL,
	"url" text NOT NULL,
	"thumbnail_url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"brand_name" text NOT NULL,
	"brand_id" integer,
	"brand_purchase_amount_cents" integer,
	"your_interest_in_this_brand" text[] DEFAULT '{}'::text[] NOT NULL,
	"brand_contact_email" text DEFAULT '' NOT NULL,
	"brand_contact_name" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"provider_payment_method_id" text NOT NULL,
	"description" text NOT NULL,
	"last_four" text NOT NULL,
	"is_default" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_profiles" (
	"retailer_id" integer PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"date_of_birth" text NOT NULL,
	"street_address" text NOT NULL,
	"locality" text NOT NULL,
	"region" text NOT NULL,
	"postal_code" text NOT NULL,
	"buslegal_name" text NOT NULL,
	"bustax_id_last4" text NOT NULL,
	"busstreet_address" text NOT NULL,
	"buslocality" text NOT NULL,
	"busregion" text NOT NULL,
	"buspostal_code" text DEFAULT '' NOT NULL,
	"account_last4" text NOT NULL,
	"routing_number" text NOT NULL,
	"tos_accepted_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_setups" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"workflow_id" text NOT NULL,
	"status" text DEFAULT 'started' NOT NULL,
	"account_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "retailer_brands" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"status" text DEFAULT 'authorized' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retailer_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"user_id" integer,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"job_title" text DEFAULT '' NOT NULL,
	"job_title_other" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"celphone" text DEFAULT '' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retailers" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_name" text NOT NULL,
	"store_email" text DEFAULT '' NOT NULL,
	"store_phone" text DEFAULT '' NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"resale_number" text DEFAULT '' NOT NULL,
	"bt_merchant_id" text,
	"position" text DEFAULT '' NOT NULL,
	"segments" text[] DEFAULT '{}'::text[] NOT NULL,
	"price_tier" text DEFAULT '' NOT NULL,
	"status" "retailer_status" DEFAULT 'pending' NOT NULL,
	"setup_completed_at" timestamp with time zone,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_active_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"retailer_id" integer PRIMARY KEY NOT NULL,
	"type" text,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"draft_order_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"variation_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"requestor_id" integer NOT NULL,
	"reason" text NOT NULL,
	"modified_reason" text DEFAULT 'none' NOT NULL,
	"sizes" jsonb NOT NULL,
	"total_units" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_requests_sizes_valid" CHECK (sizes_map_valid("listing_requests"."sizes")),
	CONSTRAINT "listing_requests_total_units_nonnegative" CHECK ("listing_requests"."total_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"variation_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"listing_type" "listing_type" DEFAULT 'sell' NOT NULL,
	"reason" text NOT NULL,
	"modified_reason" text DEFAULT 'none' NOT NULL,
	"floor_time" text,
	"reserved_for_request_id" integer,
	"sizes" jsonb NOT NULL,
	"total_units" integer NOT NULL,
	"status" "listing_status" DEFAULT 'payoutneeded' NOT NULL,
	"terms" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listings_sizes_valid" CHECK (sizes_map_valid("listings"."sizes")),
	CONSTRAINT "listings_total_units_nonnegative" CHECK ("listings"."total_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"code" integer NOT NULL,
	"role" text NOT NULL,
	"participant_id" integer,
	"statename" text NOT NULL,
	"display_status" text NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_contributions" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"side" text NOT NULL,
	"type" text DEFAULT 'goods' NOT NULL,
	"listing_id" integer,
	"variation_id" integer,
	"units" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"pending_units" jsonb,
	"quantity" integer DEFAULT 0 NOT NULL,
	"unit_price_cents" integer DEFAULT 0 NOT NULL,
	"value_cents" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "order_contributions_units_valid" CHECK (sizes_map_valid("order_contributions"."units")),
	CONSTRAINT "order_contributions_quantity_nonnegative" CHECK ("order_contributions"."quantity" >= 0 AND "order_contributions"."value_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"workflow_id" text NOT NULL,
	"transaction_type" integer NOT NULL,
	"brand_id" integer,
	"provider_id" integer NOT NULL,
	"receiver_id" integer NOT NULL,
	"request_id" integer,
	"statename" text NOT NULL,
	"display_status" text NOT NULL,
	"action_needed" text,
	"stage" text DEFAULT 'pre_shipping' NOT NULL,
	"completed" boolean,
	"is_modified" boolean DEFAULT false NOT NULL,
	"value_cents" integer DEFAULT 0 NOT NULL,
	"receiver_fee_cents" integer DEFAULT 0 NOT NULL,
	"receiver_shipping_cents" integer DEFAULT 0 NOT NULL,
	"receiver_grand_total_cents" integer DEFAULT 0 NOT NULL,
	"provider_fee_cents" integer DEFAULT 0 NOT NULL,
	"provider_shipping_cents" integer DEFAULT 0 NOT NULL,
	"authorized_cents" integer DEFAULT 0 NOT NULL,
	"captured_cents" integer DEFAULT 0 NOT NULL,
	"reasons" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provider_rating" integer,
	"receiver_rating" integer,
	"provider_rating_comments" text,
	"receiver_rating_comments" text,
	"floor_time" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_amounts_nonnegative" CHECK ("orders"."value_cents" >= 0 AND "orders"."receiver_fee_cents" >= 0 AND "orders"."receiver_shipping_cents" >= 0 AND "orders"."captured_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer,
	"retailer_id" integer NOT NULL,
	"name" text NOT NULL,
	"txtype" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"queued" boolean DEFAULT false NOT NULL,
	"provider_ref" text,
	"idempotency_key" text NOT NULL,
	"payment_method_description" text,
	"last_four" text,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_nonnegative" CHECK ("payments"."amount_cents" >= 0 AND "payments"."fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"rater_id" integer NOT NULL,
	"ratee_id" integer NOT NULL,
	"role" text NOT NULL,
	"condition" integer NOT NULL,
	"packaging" integer NOT NULL,
	"timeliness" integer NOT NULL,
	"overall" integer NOT NULL,
	"comments" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_stars_range" CHECK ("ratings"."condition" BETWEEN 1 AND 5 AND "ratings"."packaging" BETWEEN 1 AND 5 AND "ratings"."timeliness" BETWEEN 1 AND 5 AND "ratings"."overall" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "shipment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"provider_event_id" text,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"event_timestamp" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"sender_id" integer NOT NULL,
	"receiver_id" integer NOT NULL,
	"carrier" text DEFAULT 'sandbox' NOT NULL,
	"tracking_number" text,
	"call_tag" text,
	"status" text DEFAULT 'pickup_scheduled' NOT NULL,
	"label_url" text,
	"pickup_by" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" serial PRIMARY KEY NOT NULL,
	"to_email" text NOT NULL,
	"subject" text NOT NULL,
	"body_text" text NOT NULL,
	"body_html" text,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_idempotency_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"response_object_id" text,
	"response_error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payment_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seed_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" integer
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_acting_retailer_id_retailers_id_fk" FOREIGN KEY ("acting_retailer_id") REFERENCES "public"."retailers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sizes" ADD CONSTRAINT "product_sizes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variations" ADD CONSTRAINT "product_variations_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variations" ADD CONSTRAINT "product_variations_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variation_images" ADD CONSTRAINT "variation_images_variation_id_product_variations_id_fk" FOREIGN KEY ("variation_id") REFERENCES "public"."product_variations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_requests" ADD CONSTRAINT "brand_requests_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brand_requests" ADD CONSTRAINT "brand_requests_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_profiles" ADD CONSTRAINT "payout_profiles_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_setups" ADD CONSTRAINT "payout_setups_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retailer_brands" ADD CONSTRAINT "retailer_brands_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retailer_brands" ADD CONSTRAINT "retailer_brands_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retailer_contacts" ADD CONSTRAINT "retailer_contacts_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_requests" ADD CONSTRAINT "listing_requests_variation_id_product_variations_id_fk" FOREIGN KEY ("variation_id") REFERENCES "public"."product_variations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_requests" ADD CONSTRAINT "listing_requests_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_requests" ADD CONSTRAINT "listing_requests_requestor_id_retailers_id_fk" FOREIGN KEY ("requestor_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_variation_id_product_variations_id_fk" FOREIGN KEY ("variation_id") REFERENCES "public"."product_variations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_provider_id_retailers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_actions" ADD CONSTRAINT "order_actions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD CONSTRAINT "order_contributions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD CONSTRAINT "order_contributions_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_contributions" ADD CONSTRAINT "order_contributions_variation_id_product_variations_id_fk" FOREIGN KEY ("variation_id") REFERENCES "public"."product_variations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_provider_id_retailers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_receiver_id_retailers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_request_id_listing_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."listing_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_rater_id_retailers_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_ratee_id_retailers_id_fk" FOREIGN KEY ("ratee_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_events" ADD CONSTRAINT "shipment_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_sender_id_retailers_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_receiver_id_retailers_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_attempts_email_idx" ON "login_attempts" USING btree ("email","attempted_at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_idx" ON "login_attempts" USING btree ("ip","attempted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_token_hash_idx" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_reset_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_retailer_idx" ON "users" USING btree ("retailer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "brands_name_lower_idx" ON "brands" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "collections_brand_idx" ON "collections" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_sizes_product_label_idx" ON "product_sizes" USING btree ("product_id","label");--> statement-breakpoint
CREATE INDEX "variations_product_idx" ON "product_variations" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "variations_brand_sku_idx" ON "product_variations" USING btree ("brand_id","sku");--> statement-breakpoint
CREATE INDEX "products_collection_idx" ON "products" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "products_brand_idx" ON "products" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "variation_images_variation_idx" ON "variation_images" USING btree ("variation_id");--> statement-breakpoint
CREATE INDEX "brand_requests_retailer_idx" ON "brand_requests" USING btree ("retailer_id");--> statement-breakpoint
CREATE INDEX "payment_methods_retailer_idx" ON "payment_methods" USING btree ("retailer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_setups_workflow_idx" ON "payout_setups" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "payout_setups_retailer_idx" ON "payout_setups" USING btree ("retailer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "retailer_brands_pair_idx" ON "retailer_brands" USING btree ("retailer_id","brand_id");--> statement-breakpoint
CREATE INDEX "retailer_brands_brand_idx" ON "retailer_brands" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "retailer_contacts_retailer_idx" ON "retailer_contacts" USING btree ("retailer_id");--> statement-breakpoint
CREATE INDEX "retailer_contacts_user_idx" ON "retailer_contacts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "retailers_status_idx" ON "retailers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "listing_requests_requestor_idx" ON "listing_requests" USING btree ("requestor_id");--> statement-breakpoint
CREATE INDEX "listing_requests_brand_idx" ON "listing_requests" USING btree ("brand_id","created_at");--> statement-breakpoint
CREATE INDEX "listing_requests_variation_idx" ON "listing_requests" USING btree ("variation_id");--> statement-breakpoint
CREATE INDEX "listings_provider_idx" ON "listings" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "listings_brand_status_idx" ON "listings" USING btree ("brand_id","status","created_at");--> statement-breakpoint
CREATE INDEX "listings_variation_idx" ON "listings" USING btree ("variation_id");--> statement-breakpoint
CREATE INDEX "order_actions_order_idx" ON "order_actions" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_actions_code_idx" ON "order_actions" USING btree ("code");--> statement-breakpoint
CREATE INDEX "order_contributions_order_idx" ON "order_contributions" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_external_id_idx" ON "orders" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_workflow_id_idx" ON "orders" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "orders_provider_idx" ON "orders" USING btree ("provider_id","modified_at");--> statement-breakpoint
CREATE INDEX "orders_receiver_idx" ON "orders" USING btree ("receiver_id","modified_at");--> statement-breakpoint
CREATE INDEX "orders_stage_idx" ON "orders" USING btree ("stage");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_idx" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_order_rater_idx" ON "ratings" USING btree ("order_id","rater_id");--> statement-breakpoint
CREATE INDEX "shipment_events_shipment_idx" ON "shipment_events" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_events_provider_idx" ON "shipment_events" USING btree ("provider_event_id");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_tracking_idx" ON "shipments" USING btree ("tracking_number");--> statement-breakpoint
CREATE INDEX "outbox_to_idx" ON "outbox_emails" USING btree ("to_email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_dedupe_idx" ON "outbox_emails" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "sandbox_payment_objects_kind_idx" ON "sandbox_payment_objects" USING btree ("kind");
CREATE TABLE "listing_matches" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"listing_id" integer NOT NULL,
	"request_id" integer,
	"saved_search_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone,
	"digest_key" text,
	CONSTRAINT "listing_matches_one_source" CHECK (("listing_matches"."request_id" is null) <> ("listing_matches"."saved_search_id" is null))
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"category_id" integer,
	"sizes" text[] DEFAULT '{}'::text[] NOT NULL,
	"search" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_matches" ADD CONSTRAINT "listing_matches_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_matches" ADD CONSTRAINT "listing_matches_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_matches" ADD CONSTRAINT "listing_matches_request_id_listing_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."listing_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_matches" ADD CONSTRAINT "listing_matches_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_retailer_id_retailers_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."retailers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_matches_listing_retailer_idx" ON "listing_matches" USING btree ("listing_id","retailer_id");--> statement-breakpoint
CREATE INDEX "listing_matches_retailer_idx" ON "listing_matches" USING btree ("retailer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "listing_matches_undigested_idx" ON "listing_matches" USING btree ("retailer_id") WHERE "listing_matches"."digest_key" is null;--> statement-breakpoint
CREATE INDEX "saved_searches_brand_idx" ON "saved_searches" USING btree ("brand_id");--> statement-breakpoint
CREATE INDEX "saved_searches_retailer_idx" ON "saved_searches" USING btree ("retailer_id");
CREATE TABLE "catalogue_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"retailer_id" integer,
	"brand_name" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" integer,
	"image" text DEFAULT '' NOT NULL,
	"resolved_product_id" integer,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD CONSTRAINT "catalogue_entries_resolved_product_id_products_id_fk" FOREIGN KEY ("resolved_product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_entries_unresolved_idx" ON "catalogue_entries" USING btree ("id") WHERE "catalogue_entries"."resolved_at" is null;
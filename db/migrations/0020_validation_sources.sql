ALTER TABLE "catalogue_entries" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD COLUMN "brand_id" integer;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD COLUMN "sku" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD COLUMN "upload_id" integer;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD COLUMN "upload_line" integer;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD COLUMN "initial_product_id" integer;--> statement-breakpoint
ALTER TABLE "brand_requests" ADD COLUMN "source" text DEFAULT 'request' NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD CONSTRAINT "catalogue_entries_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD CONSTRAINT "catalogue_entries_upload_id_collection_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."collection_uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_entries" ADD CONSTRAINT "catalogue_entries_initial_product_id_products_id_fk" FOREIGN KEY ("initial_product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "catalogue_entries_brand_code_idx" ON "catalogue_entries" USING btree ("brand_id",lower(regexp_replace("sku", '[^[:alnum:]]', '', 'g'))) WHERE "catalogue_entries"."sku" <> '';--> statement-breakpoint
CREATE INDEX "brand_requests_brand_idx" ON "brand_requests" USING btree ("brand_id");--> statement-breakpoint
UPDATE "catalogue_entries" SET "resolution" = 'matched' WHERE "resolved_at" IS NOT NULL;--> statement-breakpoint
UPDATE "brand_requests" br SET "source" = 'registration' FROM "retailers" r WHERE r."id" = br."retailer_id" AND r."setup_completed_at" IS NOT NULL AND br."created_at" <= r."setup_completed_at";

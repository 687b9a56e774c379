CREATE TABLE "collection_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"collection_id" integer NOT NULL,
	"uploaded_by" integer,
	"file_name" text NOT NULL,
	"rows" jsonb NOT NULL,
	"images" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "admin_permissions" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "staff_comments" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "collection_uploads" ADD CONSTRAINT "collection_uploads_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collection_uploads_collection_idx" ON "collection_uploads" USING btree ("collection_id");--> statement-breakpoint
-- Staff who existed before the permissions map keep managing everything they could (domain/resources RESOURCE_NAMES).
UPDATE "users" SET "admin_permissions" = ARRAY['brand','company','collection','category','product','productvariation','retailer','retailercontact','retailerbrand','brandrequest','listing','request']::text[] WHERE "is_staff";

CREATE TABLE "retailer_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"uploaded_by" integer,
	"file_name" text NOT NULL,
	"rows" jsonb NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"results" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sales_reps" (
	"id" serial PRIMARY KEY NOT NULL,
	"territory_name" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"states" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retailer_uploads" ADD CONSTRAINT "retailer_uploads_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retailer_uploads_created_idx" ON "retailer_uploads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "retailers_location_idx" ON "retailers" USING btree ("latitude","longitude") WHERE "retailers"."latitude" is not null and "retailers"."longitude" is not null;--> statement-breakpoint
-- Sales reps are a resource of the permissions map (ADR 0018): staff who manage retailers may manage them too.
UPDATE "users" SET "admin_permissions" = array_append("admin_permissions", 'salesrep') WHERE "is_staff" AND 'retailer' = ANY("admin_permissions") AND NOT 'salesrep' = ANY("admin_permissions");

CREATE TABLE "account_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"uploader_id" integer,
	"listing_id" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_requests_email_idx" ON "account_requests" USING btree ("kind","email","requested_at");--> statement-breakpoint
CREATE INDEX "account_requests_ip_idx" ON "account_requests" USING btree ("kind","ip","requested_at");--> statement-breakpoint
CREATE INDEX "uploads_unattached_idx" ON "uploads" USING btree ("uploaded_at") WHERE "uploads"."listing_id" is null;--> statement-breakpoint
CREATE INDEX "uploads_listing_idx" ON "uploads" USING btree ("listing_id");--> statement-breakpoint
-- Photos already on listings: attached, uploader unknown.
INSERT INTO "uploads" ("name", "listing_id", "uploaded_at")
SELECT DISTINCT ON (img) img, l."id", l."created_at"
FROM "listings" l CROSS JOIN LATERAL jsonb_array_elements_text(l."images") AS img
ORDER BY img, l."id"
ON CONFLICT DO NOTHING;

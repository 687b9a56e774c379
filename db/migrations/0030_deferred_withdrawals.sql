CREATE TABLE "deferred_withdrawals" (
	"listing_id" integer PRIMARY KEY NOT NULL,
	"import_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deferred_withdrawals" ADD CONSTRAINT "deferred_withdrawals_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferred_withdrawals" ADD CONSTRAINT "deferred_withdrawals_import_id_stock_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."stock_imports"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"listing_id" integer NOT NULL,
	"buyer_id" integer NOT NULL,
	"seller_id" integer NOT NULL,
	"workflow_id" text DEFAULT '' NOT NULL,
	"sizes" jsonb NOT NULL,
	"units" integer NOT NULL,
	"listed_unit_cents" integer NOT NULL,
	"buyer_unit_cents" integer NOT NULL,
	"table_unit_cents" integer NOT NULL,
	"agreed_unit_cents" integer,
	"hold_cents" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"turn" text DEFAULT 'seller' NOT NULL,
	"seller_counters" integer DEFAULT 0 NOT NULL,
	"buyer_counters" integer DEFAULT 0 NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"end_reason" text,
	"moves" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_status" CHECK ("offers"."status" IN ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
	CONSTRAINT "offers_turn" CHECK ("offers"."turn" IN ('buyer', 'seller')),
	CONSTRAINT "offers_prices" CHECK ("offers"."units" > 0 AND "offers"."buyer_unit_cents" > 0 AND "offers"."table_unit_cents" < "offers"."listed_unit_cents" AND "offers"."buyer_unit_cents" <= "offers"."table_unit_cents"),
	CONSTRAINT "offers_two_sides" CHECK ("offers"."buyer_id" <> "offers"."seller_id")
);
--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_buyer_id_retailers_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_retailers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."retailers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_open_idx" ON "offers" USING btree ("listing_id","buyer_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "offers_buyer_idx" ON "offers" USING btree ("buyer_id","updated_at");--> statement-breakpoint
CREATE INDEX "offers_seller_idx" ON "offers" USING btree ("seller_id","updated_at");